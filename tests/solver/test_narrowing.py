"""A case with a question left open is answered on its grounding narrowed to the constants that can take more
than one value (`Session.forced`, `narrowed`, `_Case.narrow`): the same answers as on the whole grounding."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from verifier.language.encoding import RuleBase
from verifier.scenario.loader import load_case
from verifier.solver import engine
from verifier.solver.backend import SAT, UNSAT, Session
from verifier.solver.grounding import Grounding, ground, narrowed, value_smt

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from benchmarks.scenarios import scenario  # noqa: E402


def test_units_fix_booleans_and_bounded_numbers_and_nothing_that_can_change() -> None:
    g = Grounding({}, derived={"|a|": "bool", "|b|": "bool", "|c|": "bool", "|n|": "int", "|m|": "int"})
    g.background += ["(not |a|)", "(or |b| |c|)", "(and (<= 2 |n|) (<= |n| 2))", "(<= 0 |m|)", "(<= |m| 1)"]
    session = Session(g, 10_000)
    assert session.check().status == SAT
    fixed = session.forced()
    assert fixed == {"|a|": False, "|n|": 2}


def test_a_narrowed_grounding_reads_the_fixed_constants_as_their_values() -> None:
    g = Grounding({}, derived={"|a|": "bool", "|b|": "bool", "|c|": "bool"})
    g.background += ["(not |a|)", "(= |b| (or |a| |c|))"]
    whole = Session(g, 10_000)
    assert whole.check().status == SAT
    fixed = whole.forced()
    assert fixed == {"|a|": False}
    small = narrowed(g, fixed)
    assert small.background == ["(= |b| (or false |c|))"]  # `(not false)` names no constant: left out
    session = Session(small, 10_000, fixed=fixed, context_of=whole)
    assert session.check(extra=["(and |a| |b|)"]).status == UNSAT  # a text read with `a` as its value
    assert session.check(extra=["(and |b| |c|)"]).status == SAT
    assert session.read(["|a|", "|b|", "|c|"]) == {"|a|": False, "|b|": True, "|c|": True}


@pytest.mark.parametrize(("cards", "turns"), [(4, 2), (5, 3)])
def test_every_fixed_constant_of_a_generated_case_takes_its_value_in_every_outcome(
        tmp_path: Path, rule_base: RuleBase, cards: int, turns: int) -> None:
    path = tmp_path / "case.yaml"
    path.write_text(scenario(cards, turns), encoding="utf-8")
    g = ground(load_case(path, rule_base), rule_base, fold=True)
    session = Session(g, 60_000)
    assert session.check().status == SAT
    fixed = session.forced()
    assert fixed and len(fixed) < len(g.constants) + len(g.derived)
    differs = " ".join(f"(not (= {n} {value_smt(v)}))" for n, v in fixed.items())
    assert session.check(extra=[f"(or {differs})"]).status == UNSAT
    # checks that assume terms (as the settling checks do) leave the units as they were
    free = next(n for n in g.constants if n not in fixed and g.constants[n].type == "bool")
    assert session.check(extra=[free]).status == SAT
    assert session.forced() == fixed


@pytest.mark.parametrize(("cards", "turns"), [(4, 2), (5, 3)])
def test_a_generated_case_gets_the_same_answers_narrowed_or_not(
        tmp_path: Path, rule_base: RuleBase, monkeypatch: pytest.MonkeyPatch, cards: int, turns: int) -> None:
    path = tmp_path / "case.yaml"
    path.write_text(scenario(cards, turns), encoding="utf-8")
    sc = load_case(path, rule_base)
    narrowed_result = engine.check_scenario(sc, rule_base)
    calls: list[bool] = []

    def whole(case: engine._Case) -> object:
        calls.append(True)
        return case.session.check()

    monkeypatch.setattr(engine._Case, "narrow", whole)
    whole_result = engine.check_scenario(sc, rule_base)
    assert calls, "no question was left open: the case does not test narrowing"

    def answers(result: engine.CaseResult) -> list[tuple[object, ...]]:
        return [(r.question, r.verdict, r.value, r.reason, len(r.witnesses)) for r in result.results]

    assert answers(narrowed_result) == answers(whole_result)
    assert all(r.ok for r in narrowed_result.results)
