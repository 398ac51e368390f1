"""What an edit of the encodings reaches, for `regcheck gate --base`.

The rules and definitions that differ between two rule bases are found by what the solver reads of them, not
by file or place: a rule's variables, body, whether it is an interpretation and what it replaces; a
definition's parameters, result type and body (each body without its lines and columns). Its wording (`says`),
citations and place are not read by the solver, and moving a rule to another line or file changes nothing.
A rule is reached by the edit when it changed, was added or was removed, or when it uses (directly or through
other definitions) a definition that did.

A case's grounds are the rules with an instance in its grounding and the definitions its questions use; a
scope's, the same over every scenario its search looks at. A case or scope whose grounds hold no reached rule
and no changed definition, at the base or now (an added rule may have instances now where the base had none; a
removed one, at the base only), has the same constraints at both revisions, so the same answers.
"""

from __future__ import annotations

__all__ = ["EncodingChanges", "Grounds", "encoding_changes", "case_grounds", "scope_grounds", "why_reached"]

import itertools
from collections.abc import Iterable
from dataclasses import dataclass

from ..errors import CaseRefused, RegcheckError
from ..explore.scenarios import plans, scenario_of
from ..explore.scope import Scope
from ..explore.search import describe
from ..language.encoding import Definition, Rule, RuleBase
from ..language.syntax import EXPR_TYPES, Call, Expr, walk
from ..scenario.model import Question, Scenario
from ..solver.grounding import RuleInstance, ground

MAX_SHOWN = 5  # reached rules named in one reason; the rest are counted


@dataclass(frozen=True)
class EncodingChanges:
    """What differs in the encodings between two revisions: each rule and definition that changed, was added or
    was removed, and each rule whose wording alone (`says`, the statements it cites) changed, `reworded` (in the
    order of the later revision, then the removed ones); and every rule the changes reach, with how (`SA-5
    (changed)`, `MOD-2 (uses set_aside_by (changed))`): a reworded rule is not reached, its constraints being the
    same."""

    rules: tuple[tuple[str, str], ...]
    definitions: tuple[tuple[str, str], ...]
    reached: tuple[tuple[str, str], ...]

    @property
    def changed(self) -> tuple[tuple[str, str], ...]:
        """Each rule and definition that differs, and how (`changed`, `added`, `removed` or `reworded`)."""
        return self.rules + self.definitions


@dataclass(frozen=True)
class Grounds:
    """What a case's or a scope's answers are made of, as far as the encodings go: the rules with an instance in
    its grounding and the definitions its questions use (directly or through others), each sorted; and why some
    of its scenarios could not be built or grounded (a scope's search passes over those)."""

    rules: tuple[str, ...]
    definitions: tuple[str, ...]
    refused: tuple[str, ...] = ()


def _shape(e: object) -> str:
    """An expression as text, without the places of its nodes."""
    if isinstance(e, EXPR_TYPES):
        return f"{type(e).__name__}({','.join(_shape(v) for v in e[1:])})"
    if isinstance(e, tuple):
        return "(" + ",".join(_shape(v) for v in e) + ")"
    return repr(e)


def _rule_content(r: Rule) -> str:
    return f"{r.params!r}\0{r.interpretation}\0{r.replaces!r}\0{_shape(r.body)}"


def _rule_wording(r: Rule) -> str:
    return f"{r.says}\0{r.cites!r}"


def _definition_content(d: Definition) -> str:
    return f"{d.params!r}\0{d.result}\0{_shape(d.body)}"


def _differences(before: dict[str, str], after: dict[str, str]) -> list[tuple[str, str]]:
    out = [(name, "added" if name not in before else "changed") for name in after
           if before.get(name) != after[name]]
    return out + [(name, "removed") for name in before if name not in after]


def _called(e: Expr, definitions: Iterable[str]) -> set[str]:
    names = set(definitions)
    return {c.func for c in walk(e) if isinstance(c, Call) and c.func in names}


def encoding_changes(before: RuleBase, after: RuleBase) -> EncodingChanges:
    """What differs between the rule bases `before` (the base) and `after` (now), and the rules it reaches."""
    rules = _differences({r.id: _rule_content(r) for r in before.rules}, {r.id: _rule_content(r) for r in after.rules})
    wording = {r.id: _rule_wording(r) for r in before.rules}
    differ = {rid for rid, _ in rules}
    reworded = [(r.id, "reworded") for r in after.rules
                if r.id not in differ and r.id in wording and wording[r.id] != _rule_wording(r)]
    definitions = _differences({n: _definition_content(d) for n, d in before.definitions.items()},
                               {n: _definition_content(d) for n, d in after.definitions.items()})
    changed = {name: how for name, how in definitions}
    # what each definition calls, at either revision: an unchanged definition calls the same at both
    calls: dict[str, set[str]] = {}
    for base in (before, after):
        for name, d in base.definitions.items():
            calls.setdefault(name, set()).update(_called(d.body, base.definitions))

    def first_changed(direct: set[str]) -> str | None:
        """The first changed definition (by name) among `direct` and what they use."""
        seen, todo = set(direct), sorted(direct)
        while todo:
            for name in sorted(calls.get(todo.pop(), ())):
                if name not in seen:
                    seen.add(name)
                    todo.append(name)
        hit = sorted(seen & set(changed))
        return hit[0] if hit else None

    reached = {rid: f"{rid} ({how})" for rid, how in rules}
    for base in (after, before):
        for r in base.rules:
            if r.id not in reached and (used := first_changed(_called(r.body, base.definitions))) is not None:
                reached[r.id] = f"{r.id} (uses {used} ({changed[used]}))"
    order = {rid: i for i, rid in enumerate(itertools.chain((r.id for r in after.rules), (r.id for r in before.rules)))}
    by_order = {rid: i for i, rid in enumerate(r.id for r in after.rules)}
    listed = sorted(rules + reworded, key=lambda kv: (kv[1] == "removed", by_order.get(kv[0], 0)))
    return EncodingChanges(tuple(listed), tuple(definitions),
                           tuple(sorted(reached.items(), key=lambda kv: order[kv[0]])))


def _question_definitions(questions: Iterable[Question], rules: RuleBase) -> set[str]:
    """The definitions the questions use, directly or through other definitions."""
    found: set[str] = set()
    todo = [q.expr for q in questions]
    while todo:
        for name in _called(todo.pop(), rules.definitions):
            if name not in found:
                found.add(name)
                todo.append(rules.definitions[name].body)
    return found


def case_grounds(scenario: Scenario, rules: RuleBase) -> Grounds:
    """The grounds of a case read over `rules`; raises the error of a case that cannot be grounded."""
    g = ground(scenario, rules)
    instances = {t.origin.rule.id for t in g.tracked if isinstance(t.origin, RuleInstance)}
    return Grounds(tuple(sorted(instances)), tuple(sorted(_question_definitions(scenario.questions, rules))))


def scope_grounds(scope: Scope, rules: RuleBase, max_scenarios: int) -> Grounds:
    """The grounds of a scope's search over `rules`: of each of its scenarios the search looks at (the first
    `max_scenarios`), with the scope's own questions and its templated ones."""
    instances: set[str] = set()
    definitions = _question_definitions(scope.questions, rules)
    refused: list[str] = []
    for plan in itertools.islice(plans(scope), max_scenarios):
        try:
            sc = scenario_of(scope, plan, rules)
            g = ground(sc, rules)
        except (CaseRefused, RegcheckError) as exc:
            refused.append(f"{', '.join(describe(scope, plan)) or 'no attempts'}: {exc}")
            continue
        instances.update(t.origin.rule.id for t in g.tracked if isinstance(t.origin, RuleInstance))
        definitions |= _question_definitions(sc.questions, rules)
    return Grounds(tuple(sorted(instances)), tuple(sorted(definitions)), tuple(refused))


def why_reached(before: Grounds, after: Grounds, changes: EncodingChanges) -> str:
    """Why a case or scope with these grounds at the base (`before`) and now (`after`) must be checked at the base
    again: the reached rules its grounding holds an instance of, the changed definitions its questions use, or
    scenarios built or grounded at one revision only; empty when none (it keeps its answers)."""
    instances = set(before.rules) | set(after.rules)
    held = [why for rid, why in changes.reached if rid in instances]
    changed = dict(changes.definitions)
    asked = sorted((set(before.definitions) | set(after.definitions)) & set(changed))
    reasons = []
    if held:
        shown = ", ".join(held[:MAX_SHOWN]) + (f" and {len(held) - MAX_SHOWN} more" if len(held) > MAX_SHOWN else "")
        reasons.append(f"its grounding holds an instance of {shown}")
    if asked:
        reasons.append("its questions use " + ", ".join(f"{name} ({changed[name]})" for name in asked))
    if before.refused != after.refused:
        reasons.append("its scenarios that cannot be answered differ")
    return "; ".join(reasons)
