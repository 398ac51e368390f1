"""The scenarios of a scope: plans (which attempts happen where), in order of size, as ordinary cases.

A plan places some of the scope's attempts in its slots (turn, phase), at most `per_phase` to a
slot, each at most once, an attempt that refers to another (a negate, a choice of return) after
it. Plans come with the fewest attempts first, so the first scenario that shows a finding has as
few attempts as any that does. A plan becomes a case tree: the scope's own tree with the plan's
timeline, so every error and every fact keeps the scope's lines; and a case file (YAML text) that
`regcheck check` answers the same way.
"""

from __future__ import annotations

__all__ = ["Plan", "slots", "plans", "count_plans", "scenario_tree", "scenario_of", "never_legal", "about_attempts",
           "template_questions", "template_applications", "case_text"]

import itertools
from collections.abc import Iterator
from typing import NamedTuple

import yaml

from ..errors import CaseError, Location
from ..language.encoding import RuleBase
from ..language.syntax import Expr, Name, SourceText, parse_expression, walk
from ..language.types import TypeScope, infer
from ..scenario.loader import scenario_from_tree
from ..scenario.model import Question, Scenario
from ..solver.engine import DEFAULT_TIMEOUT_MS, ScenarioScreen
from ..vocabulary import SYMBOLS, VALUE_SETS
from ..yamlsource import YMap, YNode, YScalar, YSeq, plain
from .model import PHASES, Scope

MAX_TEMPLATE_QUESTIONS = 2_000


class Plan(NamedTuple):
    """Which of the scope's attempts happen, and where: (attempt index, slot index) in time order."""

    placements: tuple[tuple[int, int], ...]


def slots(scope: Scope) -> list[tuple[int, str]]:
    """The places attempts may stand, in time order: each of the scope's phases of each turn."""
    return [(t, p) for t in range(1, scope.turns + 1) for p in scope.phases]


def plans(scope: Scope) -> Iterator[Plan]:
    """Every plan of the scope, the fewest attempts first; within a size, in time order of the first
    attempt that differs."""
    for size in range(scope.max_attempts + 1):
        yield from _plans_of_size(scope, size)


def count_plans(scope: Scope, cap: int | None = None) -> int:
    """How many scenarios the scope holds (counted without building them); with `cap`, counting stops
    past it and `cap + 1` means "more than `cap`"."""
    every = (plan for size in range(scope.max_attempts + 1) for plan in _plans_of_size(scope, size))
    return sum(1 for _ in itertools.islice(every, None if cap is None else cap + 1))


def _plans_of_size(scope: Scope, size: int) -> Iterator[Plan]:
    places = slots(scope)
    index_of = {c.id: i for i, c in enumerate(scope.candidates)}
    needs = [index_of.get(c.after) if c.after is not None else None for c in scope.candidates]

    def extend(placed: tuple[tuple[int, int], ...], slot: int, in_slot: int) -> Iterator[Plan]:
        if len(placed) == size:
            yield Plan(placed)
            return
        if slot >= len(places):
            return
        used = {i for i, _ in placed}
        if in_slot < scope.per_phase:
            for i in range(len(scope.candidates)):
                need = needs[i]
                if i in used or (need is not None and need not in used) or not scope.candidates[i].fits(places[slot]):
                    continue
                yield from extend(placed + ((i, slot),), slot, in_slot + 1)
        yield from extend(placed, slot + 1, 0)

    yield from extend((), 0, 0)


def scenario_tree(scope: Scope, plan: Plan, turns: int | None = None, cards: tuple[str, ...] | None = None) -> YMap:
    """The case tree of one plan: the scope's tree with the plan's attempts added to its timeline.

    `turns` and `cards` (the names to keep) give a smaller scenario, for shrinking a witness.
    """
    places = slots(scope)
    root = scope.root
    fixed_node = root.get("timeline")
    fixed: list[tuple[tuple[int, int, int], YNode]] = []
    for order, item in enumerate(fixed_node if isinstance(fixed_node, YSeq) else ()):
        turn_node = item.get("turn") if isinstance(item, YMap) else None
        phase_node = item.get("phase") if isinstance(item, YMap) else None
        when = (getattr(turn_node, "value", 0), PHASES.index(getattr(phase_node, "value", PHASES[0])), order)
        fixed.append((when, item))
    placed: list[tuple[tuple[int, int, int], YNode]] = []
    for order, (index, slot) in enumerate(plan.placements):
        c = scope.candidates[index]
        turn, phase = places[slot]
        at = c.node.loc
        extra = [(_scalar("turn", at), _scalar(turn, at)), (_scalar("phase", at), _scalar(phase, at))]
        if c.node.get("id") is None:
            extra.insert(0, (_scalar("id", at), _scalar(c.id, at)))
        kept = tuple(e for e in c.node.entries if e[0].value not in ("turn", "phase"))
        placed.append(((turn, PHASES.index(phase), len(fixed) + order), YMap(at, c.node.error, kept + tuple(extra))))
    timeline = [node for _, node in sorted(fixed + placed, key=lambda x: x[0])]
    timeline_node = YSeq(fixed_node.loc if fixed_node else root.loc, root.error, tuple(timeline))
    entries: list[tuple[YScalar, YNode]] = []
    for key, value in root.entries:
        if key.value in ("attempts", "phases", "per_phase", "max_attempts", "templates", "timeline", "questions"):
            continue
        if key.value == "turns" and turns is not None:
            value = _scalar(turns, value.loc)
        if key.value == "cards" and cards is not None and isinstance(value, YMap):
            value = YMap(value.loc, value.error, tuple(e for e in value.entries if e[0].value in cards))
        entries.append((key, value))
    entries.append((_scalar("timeline", root.loc), timeline_node))
    return YMap(root.loc, root.error, tuple(entries))


def _scalar(value: object, loc: Location) -> YScalar:
    return YScalar(loc, CaseError, value, None, str(value))


def scenario_of(scope: Scope, plan: Plan, rules: RuleBase, templates: tuple[str, ...] | None = None,
                turns: int | None = None, cards: tuple[str, ...] | None = None,
                not_legal: frozenset[str] | None = None, limits: tuple[int, int | None] = (DEFAULT_TIMEOUT_MS, None)
                ) -> Scenario:
    """The scenario of one plan, with the scope's questions and its templated ones. A templated question
    about an attempt (other than whether it is legal) is asked only of attempts that can be legal:
    `not_legal` names those that cannot (worked out with `never_legal` when not given)."""
    sc = scenario_from_tree(scenario_tree(scope, plan, turns, cards), scope.text, scope.path, rules,
                            questions_required=False)
    present = {a.id for a in sc.attempts}
    absent = {c.id for c in scope.candidates} - present
    own = tuple(q for q in scope.questions
                if not any(isinstance(e, Name) and e.id in absent for e in walk(q.expr)))
    templates = scope.templates if templates is None else templates
    if not_legal is None:
        not_legal = never_legal(sc, rules, templates, limits)
    asked = template_questions(scope, sc, rules, templates, own, not_legal)
    return sc._replace(questions=own + asked)


def about_attempts(templates: tuple[str, ...]) -> bool:
    """Whether a template symbol other than `legal` asks about an attempt (its questions then go only to
    attempts that can be legal: see `never_legal`)."""
    return any(name != "legal" and "attempt" in SYMBOLS[name].params for name in templates)


def never_legal(sc: Scenario, rules: RuleBase, templates: tuple[str, ...],
                limits: tuple[int, int | None] = (DEFAULT_TIMEOUT_MS, None),
                screen: ScenarioScreen | None = None) -> frozenset[str]:
    """The attempts of the scenario that are legal in none of its outcomes, when a template asks about
    attempts (empty when none does, when the scenario has no outcome, or when the check gave up: then
    every attempt is asked about). `screen`, when given, is the scenario already grounded (with or without
    its questions, which the check does not read): it is checked there instead of grounded again."""
    if not about_attempts(templates):
        return frozenset()
    if screen is None:
        screen = ScenarioScreen(sc._replace(questions=()), rules, *limits)
    possible = screen.possibly_true([("legal", (a.id,)) for a in sc.attempts])
    if possible is None:
        return frozenset()
    return frozenset(a.id for a in sc.attempts if ("legal", (a.id,)) not in possible)


def template_applications(sc: Scenario, templates: tuple[str, ...], not_legal: frozenset[str] = frozenset()
                          ) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
    """Every template symbol applied to every argument the scenario offers (its cards, attempts,
    abilities, players and modifiers, and the end of every phase of every turn), an attempt in
    `not_legal` only to `legal`: the symbol, the arguments as a question writes them, and as the solver
    names them (a step by its number)."""
    turns = sc.steps[-1].turn if sc.steps else 0
    ends = {(s.turn, s.phase): s.position for s in sc.steps}  # the last step of each phase
    steps = [(f"at({t}, {p})", str(ends[(t, p)])) for t in range(1, turns + 1) for p in PHASES]
    named = {
        "card": [c.name for c in sc.cards], "attempt": [a.id for a in sc.attempts],
        "ability": [a.id for a in sc.abilities], "player": list(sc.players), "modifier": [m.id for m in sc.modifiers],
        "turn": [str(t) for t in range(1, turns + 1)],
    }
    domain = {sort: [(n, n) for n in names] for sort, names in named.items()} | {"step": steps}
    legal_only = [(n, n) for n in named["attempt"] if n not in not_legal]
    out = []
    for name in templates:
        ranges = [legal_only if sort == "attempt" and name != "legal"
                  else domain.get(sort, [(m, m) for m in VALUE_SETS.get(sort, ())]) for sort in SYMBOLS[name].params]
        for args in itertools.product(*ranges):
            out.append((name, tuple(a for a, _ in args), tuple(raw for _, raw in args)))
    return out


def template_questions(scope: Scope, sc: Scenario, rules: RuleBase, templates: tuple[str, ...],
                       own: tuple[Question, ...] = (), not_legal: frozenset[str] = frozenset()) -> tuple[Question, ...]:
    """A question for every application of the template symbols (see `template_applications`)."""
    constants = sc.constants()
    type_scope = TypeScope(rules.definitions, constants, CaseError, questions=True)
    templates_node = scope.root.get("templates")
    where = templates_node.loc if templates_node is not None else scope.root.loc
    taken = {q.name for q in own}
    numbers: dict[str, int] = {}
    out: list[Question] = []
    for name, args, _ in template_applications(sc, templates, not_legal):
        numbers[name] = numbers.get(name, 0) + 1
        text = f"{name}({', '.join(args)})"
        qname = f"{name}_{numbers[name]}"
        while qname in taken:
            qname += "_"
        taken.add(qname)
        parsed = _parsed(rules, text, where, type_scope)
        out.append(Question(qname, parsed[0], parsed[1], text, where))
        if len(out) > MAX_TEMPLATE_QUESTIONS:
            raise CaseError(f"the templates ask more than {MAX_TEMPLATE_QUESTIONS} questions of one scenario; "
                            "name fewer symbols in 'templates'", where)
    return tuple(out)


# A templated question's expression and type by its text and place, made once for every scenario of a scope:
# the grounder compiles an expression once (by identity), so the same text is compiled once too.
_PARSED: dict[tuple[str, Location], tuple[RuleBase, Expr, str]] = {}
_MAX_PARSED = 100_000


def _parsed(rules: RuleBase, text: str, where: Location, type_scope: TypeScope) -> tuple[Expr, str]:
    """The expression of a templated question and its type (its arguments are names of the scenario)."""
    key = (text, where)
    found = _PARSED.get(key)
    if found is None or found[0] is not rules:
        expr = parse_expression(text, SourceText(where.path, where.line, where.column), CaseError)
        if len(_PARSED) >= _MAX_PARSED:
            _PARSED.clear()
        found = _PARSED[key] = (rules, expr, infer(expr, {}, type_scope))
    return found[1], found[2]


def case_text(scope: Scope, plan: Plan, title: str, note: str, questions: dict[str, str],
              expect: dict[str, dict[str, str]], turns: int | None = None, cards: tuple[str, ...] | None = None,
              about: tuple[str, ...] | None = None) -> str:
    """The scenario of a plan written as a case file, with the given questions and expectations (and the
    statements it is `about`, when given, instead of the scope's)."""
    tree = scenario_tree(scope, plan, turns, cards)
    doc: dict[str, object] = {"title": title, "note": note}
    if about is not None:
        doc["about"] = list(about)
    for key, value in tree.entries:
        if key.value in ("title", "note", "questions") or (key.value == "about" and about is not None):
            continue
        doc[str(key.value)] = plain(value)
    doc["questions"] = dict(questions)
    doc["expect"] = expect
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=100)

