"""Differential testing: the engine's verdicts against exhaustive enumeration with the reference evaluator.

Random small cases (see scenarios.py) are loaded like any case file; for each, every question's
verdict is found twice: by the engine (Z3) and by enumerating every assignment of outcomes and
choices with the plain-Python reference evaluator. They must agree, and so must the value of a
determined answer.

The default run checks a few hundred cases; `-m slow` checks at least 10,000
(REGCHECK_DIFFERENTIAL_CASES sets the number for either).
"""

from __future__ import annotations

import multiprocessing
import os
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, Phase, assume, given, seed, settings
from scenarios import SECTION_FIELDS, case_texts

from verifier.errors import InputError
from verifier.language.encoding import RuleBase
from verifier.reference import Reference
from verifier.reference.exhaustive import exhaustive_answers
from verifier.scenario.loader import load_case
from verifier.scenario.model import Question, Scenario
from verifier.solver.engine import check_scenario
from verifier.verdicts import Verdict
from verifier.vocabulary import display_value

# Cases whose enumeration would take more tries than this are left out as too large.
TRY_LIMIT = 30_000
DEFAULT_CASES = 200
SLOW_CASES = 10_000


def shown(sc: Scenario, q: Question, value: Any) -> str:
    """A reference value written as the engine writes a determined answer."""
    if q.type == "sequence":
        ranked = sorted((r, a.id) for a, r in zip(sc.abilities, value) if r > 0)
        return " -> ".join(a for _, a in ranked) or "nothing activates"
    if q.type == "step":
        return sc.step_label(value)
    return display_value(value)


def _fields(text: str) -> set[str]:
    """The fields of the later sections' vocabulary the case holds."""
    case = yaml.safe_load(text)
    found: set[str] = set()
    for card in case["cards"].values():
        found |= set(card) & set(SECTION_FIELDS)
        for ability in card.get("abilities", []):
            found |= set(ability) & set(SECTION_FIELDS)
    for entry in case.get("timeline") or []:
        found |= set(entry) & set(SECTION_FIELDS)
    return found


def disagreements(text: str, rules: RuleBase, folder: Path, tally: Counter[str]) -> list[str]:
    """How the engine and exhaustive enumeration differ on one case's questions (empty: they agree)."""
    path = folder / "case.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        sc = load_case(path, rules)
    except InputError:
        tally["not a valid case"] += 1
        assume(False)
        raise
    answers = exhaustive_answers(Reference(sc, rules), TRY_LIMIT)
    if answers is None:
        tally["too large to enumerate"] += 1
        assume(False)
        raise AssertionError("unreachable")
    tally["compared"] += 1
    tally.update(f"with {field}" for field in _fields(text))
    result = check_scenario(sc, rules)
    out = []
    for q, got in zip(sc.questions, result.results, strict=True):
        want = answers[q.name]
        tally[want.verdict.value] += 1
        value = shown(sc, q, want.value) if want.verdict is Verdict.DETERMINED else None
        if got.verdict is not want.verdict or got.value != value:
            out.append(f"{q.name} ({q.text}): engine {got.verdict.value} {got.value or ''} {got.reason}, "
                       f"enumeration {want.verdict.value} {value or ''}")
    return out


def run(rules: RuleBase, cases: int, what: str, keep_going: bool, stream: int | None = None,
        max_turns: int = 2) -> tuple[Counter[str], list[str]]:
    """Check `cases` random cases; with `keep_going`, every disagreement is collected, unshrunk.

    Without `stream` the cases are the same on every run; with it, `stream` seeds them.
    """
    tally: Counter[str] = Counter()
    found: list[str] = []
    folder = Path(tempfile.mkdtemp(prefix="regcheck-differential-"))
    start = time.perf_counter()

    @seed(stream or 0)
    @settings(max_examples=cases, deadline=None, database=None, derandomize=stream is None,
              suppress_health_check=list(HealthCheck),
              phases=[Phase.generate] if keep_going else list(Phase))
    @given(case_texts(max_turns))
    def agree(text: str) -> None:
        differ = disagreements(text, rules, folder, tally)
        report = "engine and enumeration disagree:\n" + "\n".join(differ) + "\n\n" + text
        if differ and keep_going:
            found.append(report)
            print(f"{what}: {report}", flush=True)  # at once: a run cut short still shows what it found
        if keep_going and tally["compared"] % 250 == 0 and not differ:
            print(f"{what}: {tally['compared']} compared, {len(found)} disagreements, {time.perf_counter() - start:.0f} s",
                  flush=True)
        assert keep_going or not differ, report

    agree()
    print(f"\n{what}: {time.perf_counter() - start:.0f} s, {dict(sorted(tally.items()))}")
    return tally, found


def test_engine_agrees_with_exhaustive_enumeration(rule_base: RuleBase) -> None:
    # one-turn cases only: they are the quickest to enumerate
    tally, _ = run(rule_base, int(os.environ.get("REGCHECK_DIFFERENTIAL_CASES", DEFAULT_CASES)), "default run",
                   keep_going=False, max_turns=1)
    assert tally["compared"] >= 100
    # the compared cases hold the vocabulary of every section: descriptions, negation, cannot-be, limits
    assert not [f for f in SECTION_FIELDS if not tally[f"with {f}"]], dict(tally)


_RULES: RuleBase | None = None


def _part(stream: int, cases: int) -> tuple[Counter[str], list[str]]:
    assert _RULES is not None
    return run(_RULES, cases, f"slow run, stream {stream}", keep_going=True, stream=stream)


@pytest.mark.slow
def test_engine_agrees_with_exhaustive_enumeration_at_length(rule_base: RuleBase) -> None:
    # One stream of random cases per processor (REGCHECK_DIFFERENTIAL_STREAMS to choose), in
    # forked workers that share the loaded rules.
    global _RULES
    cases = int(os.environ.get("REGCHECK_DIFFERENTIAL_CASES", SLOW_CASES))
    workers = int(os.environ.get("REGCHECK_DIFFERENTIAL_STREAMS", os.cpu_count() or 1))
    if "fork" not in multiprocessing.get_all_start_methods():
        workers = 1
    shares = [cases // workers + (1 if i < cases % workers else 0) for i in range(workers)]
    _RULES = rule_base
    try:
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
            parts = list(pool.map(_part, range(1, workers + 1), shares))
    finally:
        _RULES = None
    tally = sum((t for t, _ in parts), Counter())
    found = [f for _, fs in parts for f in fs]
    print(f"\nslow run, all streams: {dict(sorted(tally.items()))}")
    assert not found, f"{len(found)} disagreements:\n\n" + "\n\n".join(found)
    assert tally["compared"] >= cases
