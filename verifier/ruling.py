"""Proposed rulings: a ruling file read against the rule base, and its verdict over scenarios.

A ruling file proposes general rules in the encoding language (`rules`), or claims answers to
the questions of a scenario written in it as in a case file (`claims`), or both. It is
checked on its own scenario and, when it proposes rules, on every given case, to show its
impact.
"""

from __future__ import annotations

__all__ = ["Ruling", "load_ruling", "RULING_KEYS", "RULING_ONLY_KEYS", "RULE_KEYS", "RULING_ID", "ruling_verdict",
           "scope_scenarios", "ruling_check"]

import itertools
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from .errors import CaseRefused, EncodingError, Location, RulingError
from .language.encoding import Rule, RuleBase, read_rule
from .language.types import TypeScope
from .rulesdoc import RulesDocument
from .scenario.loader import load_case
from .scenario.model import Scenario
from .solver.engine import RULING_SECTION, check_ruling
from .verdicts import RulingCheck, RulingVerdict
from .yamlsource import YMap, YScalar, YSeq, did_you_mean, editor_lines, load_yaml

if TYPE_CHECKING:
    from .explore.model import Scope

RULING_KEYS = ("ruling", "rules", "claims")
RULING_ID = re.compile(r"^[A-Z][A-Z0-9]*(-[A-Z0-9]+)*$")
RULE_KEYS = ("id", "cites", "says", "for", "requires")
# the keys of a ruling file without a scenario
RULING_ONLY_KEYS = ("ruling", "title", "note", "rules", "claims")


class Ruling(NamedTuple):
    """A proposed ruling: its ID and title, the rules it adds, and its own scenario with claims."""

    id: str
    title: str
    path: str
    rules: tuple[Rule, ...]
    scenario: Scenario | None
    loc: Location

    def rule_base(self, rules: RuleBase) -> RuleBase:
        """`rules` with this ruling's rules added."""
        return rules._replace(rules=rules.rules + self.rules)


def load_ruling(path: Path, rules: RuleBase, doc: RulesDocument) -> Ruling:
    """Read a ruling file; its rules must type-check and cite statements of the rules document."""
    root, text = load_yaml(path, RulingError)
    if not isinstance(root, YMap):
        root.fail("a ruling file must be a mapping with 'ruling' and 'rules' or a scenario with 'claims'")
    if root.get("questions") is None:
        root.check_keys(RULING_ONLY_KEYS, "a ruling file without a scenario")
    id_node = root.require("ruling", "a ruling file")
    if not isinstance(id_node, YScalar) or not isinstance(id_node.value, str) or not RULING_ID.match(id_node.value):
        id_node.fail("ruling must be an ID like RUL-2026-7 (capital letters, digits and '-')")
    ruling_id = id_node.value
    known = {s.id for s in doc.statements}
    seen = {r.id: r.loc for r in rules.rules}
    added: list[Rule] = []
    node = root.get("rules")
    if node is not None:
        if not isinstance(node, YSeq) or not node.items:
            node.fail("rules must be a list of rules written as in an encoding file")
        scope = TypeScope(rules.definitions, {}, EncodingError)
        for item in node:
            if not isinstance(item, YMap):
                item.fail("each entry of 'rules' must be a mapping")
            rule = read_rule(item, RULING_SECTION, editor_lines(text), scope, seen, RULE_KEYS)
            for sid in rule.cites:
                if sid not in known:
                    item.fail(f"rule {rule.id} cites {sid}, which is not in the rules document"
                              f"{did_you_mean(sid, known)}")
            added.append(rule)
    scenario = None
    if root.get("questions") is not None:
        if root.get("claims") is None:
            root.fail("a ruling with a scenario needs 'claims': the answers it claims to the scenario's questions")
        scenario = load_case(path, rules._replace(rules=rules.rules + tuple(added)), other_keys=RULING_KEYS)
    elif root.get("claims") is not None:
        root.fail("claims answer the questions of a scenario: write the scenario (players, cards, timeline, "
                  "questions) in the ruling file")
    elif not added:
        root.fail("a ruling needs 'rules' to propose, or a scenario with 'claims'")
    title_node = root.get("title")
    title = title_node.text("title").strip() if isinstance(title_node, YScalar) else ruling_id
    return Ruling(ruling_id, title, str(path), tuple(added), scenario, id_node.loc)


def ruling_verdict(own: RulingCheck | None, impact: tuple[RulingCheck, ...]) -> RulingVerdict:
    """One verdict over every scenario checked; cases where the rules conflict without the ruling, and cases that
    opt into interpretations, are not counted."""
    verdicts = [c.verdict for c in ((own,) if own else ()) + impact if c is own or c.counted]
    for v in (RulingVerdict.CONTRADICTS, RulingVerdict.UNKNOWN, RulingVerdict.NARROWS):
        if v in verdicts:
            return v
    return RulingVerdict.ENTAILED


def scope_scenarios(scope: Scope, rules: RuleBase, templates: tuple[str, ...] | None = (),
                    limit: int | None = None) -> list[Scenario | RulingCheck]:
    """The scenarios of a scope, in order, each named by the scope and its attempts (`PATH [turn 1 Preparation:
    x]`), asking the scope's questions and those of `templates` (None: the scope's own templates). One regcheck
    does not answer is an unknown check already: a ruling is checked on the others. With `limit`, at most that
    many are given, and an unknown check says so when the scope holds more."""
    from .explore.scenarios import plans, scenario_of
    from .explore.search import describe

    out: list[Scenario | RulingCheck] = []
    every = plans(scope) if limit is None else itertools.islice(plans(scope), limit + 1)
    for i, p in enumerate(every):
        if i == limit:
            out.append(RulingCheck(scope.path, RulingVerdict.UNKNOWN, scenario=True,
                                   reason=f"the scope holds more than {limit:,} scenarios; only the first {limit:,} "
                                          "(the fewest attempts first) were checked"))
            break
        where = f"{scope.path} [{', '.join(describe(scope, p)) or 'no attempts'}]"
        try:
            out.append(scenario_of(scope, p, rules, templates=templates)._replace(path=where))
        except CaseRefused as exc:  # this timeline only: the ruling is unknown on it, checked on the others
            out.append(RulingCheck(where, RulingVerdict.UNKNOWN, reason=f"regcheck does not answer this scenario: {exc}",
                                   scenario=True))
    return out


def ruling_check(scenario: Scenario | RulingCheck, rules: RuleBase, with_ruling: RuleBase,
                 doc: RulesDocument | Callable[[], RulesDocument], timeout_ms: int, memory_mb: int | None) -> RulingCheck:
    """A ruling (its rules in `with_ruling`) checked on one scenario of a scope or a sweep as on a case: the
    scenario answered with and without its rules (`check_ruling`). A check already (a scenario regcheck does not
    answer) is given back."""
    if isinstance(scenario, RulingCheck):
        return scenario
    return replace(check_ruling(scenario, rules, with_ruling, doc, False, timeout_ms, memory_mb), scenario=True)
