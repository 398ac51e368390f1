"""Determined answers that rest on a reading of the rules document.

A reading (a statement with basis "reading": where the REG text is silent, the rules document says how
it is read) is encoded by definitions of its own that cite it alone and hold only the choice it makes,
used by the other definitions where the text leaves that choice open. Left out, a reading's definitions
are left open: each application of one becomes a value of its own the solver may choose, grounded beside
the case as a definition's mutant is (see `SwitchedCase`). A determined answer that can then take another
value, or that the rules no longer fix, rests on the reading; one the rest of the rules still fix does not.
Readings are left out one at a time: an answer that two readings each give alone rests on neither.
"""

from __future__ import annotations

__all__ = ["readings_cited", "answers_resting_on_readings", "with_rests_on"]

from dataclasses import replace

from ..errors import EncodingError
from ..language.encoding import RuleBase
from ..rulesdoc import READING_ID, statement_order
from ..scenario.model import Scenario
from ..solver.grounding import RuleGrounder
from ..solver.swap import SwitchedCase
from ..verdicts import CaseResult, Verdict
from .mutants import left_open
from .run import changes_in


def readings_cited(rules: RuleBase) -> tuple[str, ...]:
    """The readings the encodings' definitions cite, in statement order."""
    return tuple(sorted({sid for d in rules.definitions.values() for sid in d.cites if READING_ID.search(sid)},
                        key=statement_order))


def answers_resting_on_readings(scenario: Scenario, rules: RuleBase, timeout_ms: int,
                                memory_mb: int | None = None) -> dict[str, tuple[str, ...]]:
    """For each question of the scenario whose answer is determined, the readings it rests on (those left out
    of which it is no longer determined with the same value), in statement order; questions resting on none
    are left out. A reading whose variant the solver gives up on is not counted."""
    sw = SwitchedCase(scenario, rules, timeout_ms, memory_mb)
    if sw.limit_hit:
        return {}
    before = sw.answers()
    determined = {r.question: r for r in before.results if r.verdict is Verdict.DETERMINED}
    found: dict[str, list[str]] = {}
    for reading in readings_cited(rules) if determined else ():
        made = left_open(rules, reading)
        if made is None:
            continue
        mutation, open_names = made
        try:
            change = changes_in(sw, mutation, RuleGrounder(mutation.rule_base, left_open=open_names))
        except EncodingError:
            continue  # cannot be grounded over the case: the reading's definitions do not apply to it
        if change is None or sw.unchanged(before, *change):
            continue
        for r in sw.answers(*change).results:
            was = determined.get(r.question)
            if was is not None and r.verdict is not Verdict.UNKNOWN and (r.verdict, r.value) != (was.verdict, was.value):
                found.setdefault(r.question, []).append(reading)
    return {q: tuple(readings) for q, readings in found.items()}


def with_rests_on(result: CaseResult, scenario: Scenario, rules: RuleBase, timeout_ms: int,
                  memory_mb: int | None = None) -> CaseResult:
    """`result` (the scenario's answers) with the readings each determined answer rests on (see
    `answers_resting_on_readings`), and none for every other answer."""
    found = answers_resting_on_readings(scenario, rules, timeout_ms, memory_mb) \
        if any(r.verdict is Verdict.DETERMINED for r in result.results) else {}
    return replace(result, results=tuple(
        replace(r, rests_on=found.get(r.question, ()) if r.verdict is Verdict.DETERMINED else ())
        for r in result.results))
