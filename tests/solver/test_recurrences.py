"""Recurrences (definitions that apply themselves at the step before) give what the look-backs they replace gave.

Each question says, for every binding, that a recurrence of the encodings equals the look-back over
every earlier step it replaced; the engine must find each determined true, and the reference
evaluator, following the recurrence on its own, must give every binding the look-back's value on the
engine's model.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from verifier.errors import EncodingError
from verifier.language.encoding import RuleBase
from verifier.language.syntax import Expr, SourceText, parse_expression
from verifier.reference import Key, Reference, Value, plain_key
from verifier.scenario.model import Scenario
from verifier.solver.backend import SAT
from verifier.solver.engine import _Case, check_scenario
from verifier.verdicts import Verdict
from verifier.vocabulary import SymbolKind

ROOT = Path(__file__).resolve().parent.parent.parent

# (recurrence, look-back it replaced), over the variables named: x an attempt, c a card, m a modifier, s a step
LOOK_BACKS = {
    "battle": ("battle_ended_since(x, s)", "any(not battle_ongoing(t) for t in steps if step_of(x) < t and t <= s)"),
    "turns": ("turns_counted(x, s)",
              "count(phase_of(t) == Upkeep and phase_start(t) for t in steps if step_of(x) < t and t <= s)"
              " + (1 if counts_own_upkeep(x) else 0)"),
    "event": ("duration_event_since(x, s)",
              "any(ends_duration(x, y) and legal(y) for y in attempts if step_of(x) < step_of(y) and step_of(y) <= s)"),
    "healed": ("healed_since(x, c, s)", "any(healed(c, t) for t in steps if step_of(x) < t and t <= s)"),
    "discard_negated": ("discard_negated_since(x, s)",
                        "any(negated_by(x, t) for t in steps if step_of(x) < t and t <= s)"),
    "early": ("early_return_by(x, c, s)", "any(early_return_at(x, c, t) for t in steps if t <= s)"),
    "early_in_phase": ("early_return_in_phase_by(x, c, s)",
                       "any(early_return_in_phase_at(x, c, t) for t in steps if t <= s)"),
    "reached": ("reached_at_preparation(x, s)",
                "any(duration_reached(x, t) for t in steps if preparation_start(t) and step_of(x) < t and t <= s)"),
    "undone": ("undone_by_now(m, s)",
               "any(any(negated_by(x, t) for t in steps if t <= s)"
               " for x in attempts if uses_ability(x) and ability_of(x) == modifier_of(m))"),
    "granted": ("granted_by(m, s)", "any(granted_here(m, t) for t in steps if t <= s)"),
    "granted_in_phase": ("granted_in_phase_by(m, s)",
                         "any(granted_here(m, t) for t in steps if t <= s and s <= phase_last(t))"),
}
# which attempts each look-back is about (its definition reads their ability)
ATTEMPTS = {"reached": "has_duration(x)", "turns": "may_set_aside(x)"}
VARIABLES = {"x": "attempts", "c": "cards", "m": "modifiers", "s": "steps"}


def engine_model(sc: Scenario, rules: RuleBase) -> dict[Key, Value]:
    """Every outcome and choice of the engine's first model, as plain values."""
    case = _Case(sc, rules, None, 10_000, None)
    assert case.session.check(case.all).status == SAT
    refs = case.refs((SymbolKind.OUTCOME, SymbolKind.CHOICE))
    raw = case.session.read([r.smt for r in refs])
    return {plain_key(r.symbol, r.args): case.g.decode(r.type, raw[r.smt]) for r in refs}


def parsed(text: str) -> Expr:
    return parse_expression(text, SourceText("test", 1, 1), EncodingError)


def question(name: str) -> str:
    recurrence, look_back = LOOK_BACKS[name]
    expr = f"({recurrence}) == ({look_back})"
    for var in ("s", "c", "m", "x"):
        if f"({var}" in recurrence or f" {var}" in recurrence:
            cond = f" if {ATTEMPTS[name]}" if var == "x" and name in ATTEMPTS else ""
            expr = f"all({expr} for {var} in {VARIABLES[var]}{cond})"
    return expr


def with_questions(text: str, names: list[str]) -> str:
    head = text.split("questions:")[0]
    return head + "questions:\n" + "".join(f"  {n}: \"{question(n)}\"\n" for n in names)


SET_ASIDE_CASE = (ROOT / "benchmarks" / "bench" / "g-5x5.yaml")
CASES = {
    "set-aside, negates, battles and a heal over five turns": (
        SET_ASIDE_CASE, ["battle", "turns", "event", "healed", "discard_negated", "early", "early_in_phase", "reached"]),
    "a modifier undone by a negate": (
        ROOT / "cases" / "modifiers" / "negated-ability-takes-its-modifier-with-it.yaml",
        ["undone", "granted", "granted_in_phase", "early"]),
    "a modifier granted to another card, expired in a later phase": (
        ROOT / "cases" / "modifiers" / "cannot-be-negated-granted-to-another-card-expired-in-a-later-phase.yaml",
        ["undone", "granted", "granted_in_phase"]),
}


@pytest.mark.parametrize("about", sorted(CASES))
def test_each_recurrence_gives_the_look_back_it_replaced(about: str, make_case: Callable[..., Scenario],
                                                         rule_base: RuleBase) -> None:
    path, names = CASES[about]
    text = path.read_text(encoding="utf-8").split("\nexpect:")[0]
    sc = make_case(with_questions(text, names))
    result = check_scenario(sc, rule_base)
    assert [(r.question, r.verdict, r.value) for r in result.results] == [
        (n, Verdict.DETERMINED, "yes") for n in names]
    model = engine_model(sc, rule_base)
    ref = Reference(sc, rule_base)
    for name in names:
        recurrence, look_back = (parsed(e) for e in LOOK_BACKS[name])
        variables = [v for v in ("x", "c", "m", "s") if v in LOOK_BACKS[name][0].split("(", 1)[1]]
        domains = {"x": [a.id for a in sc.attempts], "c": [c.name for c in sc.cards],
                   "m": [m.id for m in sc.modifiers], "s": list(range(len(sc.steps)))}
        bindings: list[dict[str, object]] = [{}]
        for v in variables:
            bindings = [{**b, v: value} for b in bindings for value in domains[v]]
        checked = 0
        for env in bindings:
            if name in ATTEMPTS and ref.evaluate(parsed(ATTEMPTS[name]), env, model) is not True:
                continue
            assert ref.evaluate(recurrence, env, model) == ref.evaluate(look_back, env, model), (name, env)
            checked += 1
        assert checked or not bindings or not all(domains[v] for v in variables), name


def test_a_recurrence_outside_the_timeline_is_its_start(make_case: Callable[..., Scenario],
                                                        rule_base: RuleBase) -> None:
    text = SET_ASIDE_CASE.read_text(encoding="utf-8").split("questions:")[0]
    sc = make_case(text + "questions:\n  before: battle_ended_since(set_aside_t1, 0 - 1)\n"
                   "  counted: upkeeps_since(set_aside_t1, 0 - 1)\n")
    result = check_scenario(sc, rule_base)
    assert [(r.question, r.verdict, r.value) for r in result.results] == [
        ("before", Verdict.DETERMINED, "no"), ("counted", Verdict.DETERMINED, "0")]
    ref = Reference(sc, rule_base)
    assert ref.evaluate(parsed("battle_ended_since(set_aside_t1, 0 - 1)"), {}, {}) is False
    assert ref.evaluate(parsed("upkeeps_since(set_aside_t1, never)"), {}, {}) == 0
