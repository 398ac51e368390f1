"""The reference evaluator: rule semantics in plain Python, and the re-check of the engine's witnesses."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from verifier.errors import EncodingError
from verifier.language.encoding import RuleBase
from verifier.reference import UNDECIDED, Key, Reference, Value, plain_key
from verifier.reference.residual import Residual, Residuals
from verifier.scenario.model import Scenario
from verifier.solver import backend
from verifier.solver.backend import SAT
from verifier.solver.engine import _Case, check_scenario
from verifier.verdicts import Verdict
from verifier.vocabulary import SYMBOLS, SymbolKind

ONE_TURN_PROVISIONS = """\
title: Provisions on alice's Hero, one turn
players: [alice, bob]
turns: 1
cards:
  elijah:
    type: Hero
    brigade: Green
  provisions:
    card: Provisions
timeline:
  - id: play
    turn: 1
    phase: Preparation
    play: provisions
    on: elijah
    targets: [elijah]
questions:
  legal: legal(play)
  sets_aside: implies(legal(play), set_aside(play, elijah))
  either: legal(play) or negated(play)
  counted: count(set_aside(play, c) for c in cards)
  never_back: return_step(play, elijah) == never
  before_battle: step_of(play) < at(1, Battle)
  where: zone(elijah, at(1, Battle)) in (territory, hand)
  hero: card_type(elijah) == Hero and character(elijah)
  just_before: before(play)
  order: activation_order(play)
"""


def engine_model(sc: Scenario, rules: RuleBase) -> dict[Key, Value]:
    """Every outcome and choice of the engine's first model, as plain values."""
    case = _Case(sc, rules, None, 10_000, None)
    assert case.session.check(case.all).status == SAT
    refs = case.refs((SymbolKind.OUTCOME, SymbolKind.CHOICE))
    raw = case.session.read([r.smt for r in refs])
    return {plain_key(r.symbol, r.args): case.g.decode(r.type, raw[r.smt]) for r in refs}


@pytest.fixture
def provisions(make_case: Callable[..., Scenario], rule_base: RuleBase) -> tuple[Scenario, Reference]:
    sc = make_case(ONE_TURN_PROVISIONS)
    return sc, Reference(sc, rule_base)


def ask(sc: Scenario, ref: Reference, name: str, assignment: dict[Key, Value]) -> Any:
    q = next(q for q in sc.questions if q.name == name)
    return ref.question(q.expr, q.type, assignment)


def test_a_real_model_satisfies_every_instance(provisions: tuple[Scenario, Reference], rule_base: RuleBase) -> None:
    sc, ref = provisions
    model = engine_model(sc, rule_base)
    assert ref.failures(model) == []
    assert ref.first_failure(model) is None
    assert ask(sc, ref, "legal", model) is True
    assert ask(sc, ref, "where", model) is False  # the Hero is in the set-aside area


def test_a_flipped_outcome_of_a_real_model_is_rejected(provisions: tuple[Scenario, Reference],
                                                       rule_base: RuleBase) -> None:
    sc, ref = provisions
    model = engine_model(sc, rule_base)
    battle = next(s.position for s in sc.steps if s.phase == "Battle")
    key = ("zone", ("elijah", battle))
    assert model[key] == "set_aside_area"
    model[key] = "territory"
    failed = ref.failures(model)
    assert failed, "a Hero back in territory mid-set-aside must break a rule"
    assert all("elijah" in label or "play" in label for label in failed)
    assert ref.first_failure(model) == failed[0]


def test_a_witness_missing_an_application_is_rejected(provisions: tuple[Scenario, Reference],
                                                      rule_base: RuleBase) -> None:
    sc, ref = provisions
    model = engine_model(sc, rule_base)
    del model[("legal", ("play",))]
    assert ref.first_failure(model) is not None


def test_three_valued_connectives(provisions: tuple[Scenario, Reference]) -> None:
    sc, ref = provisions
    assert ask(sc, ref, "sets_aside", {("legal", ("play",)): False}) is True
    assert ask(sc, ref, "sets_aside", {("legal", ("play",)): True}) is UNDECIDED
    assert ask(sc, ref, "sets_aside", {("legal", ("play",)): True, ("set_aside", ("play", "elijah")): False}) is False
    assert ask(sc, ref, "either", {("legal", ("play",)): True}) is True
    assert ask(sc, ref, "either", {("legal", ("play",)): False}) is UNDECIDED
    assert ask(sc, ref, "either", {("legal", ("play",)): False, ("negated", ("play",)): False}) is False


def test_counting_needs_every_counted_value(provisions: tuple[Scenario, Reference]) -> None:
    sc, ref = provisions
    some = {("set_aside", ("play", "elijah")): True}
    assert ask(sc, ref, "counted", some) is UNDECIDED
    assert ask(sc, ref, "counted", {**some, ("set_aside", ("play", "provisions")): False}) == 1


def test_never_is_the_step_after_the_timeline(provisions: tuple[Scenario, Reference]) -> None:
    sc, ref = provisions
    assert ref.never == len(sc.steps)
    assert ask(sc, ref, "never_back", {("return_step", ("play", "elijah")): len(sc.steps)}) is True
    assert ask(sc, ref, "never_back", {("return_step", ("play", "elijah")): 2}) is False


def test_structure_inputs_and_definitions_need_no_assignment(provisions: tuple[Scenario, Reference]) -> None:
    sc, ref = provisions
    play = next(a for a in sc.attempts if a.id == "play")
    assert ask(sc, ref, "before_battle", {}) is True
    assert ask(sc, ref, "hero", {}) is True
    assert ask(sc, ref, "just_before", {}) == play.step - 1


def test_value_sets_compare_by_member(provisions: tuple[Scenario, Reference]) -> None:
    sc, ref = provisions
    battle = next(s.position for s in sc.steps if s.phase == "Battle")
    assert ask(sc, ref, "where", {("zone", ("elijah", battle)): "hand"}) is True
    assert ask(sc, ref, "where", {("zone", ("elijah", battle)): "set_aside_area"}) is False


def test_activation_order_is_every_abilitys_rank(provisions: tuple[Scenario, Reference]) -> None:
    sc, ref = provisions
    ranks = {("activation_rank", ("play", a.id)): 0 for a in sc.abilities}
    assert ask(sc, ref, "order", ranks) == tuple(0 for _ in sc.abilities)
    assert ask(sc, ref, "order", {}) is UNDECIDED


def test_a_symbol_applied_outside_the_timeline_is_an_error(make_case: Callable[..., Scenario],
                                                          rule_base: RuleBase) -> None:
    sc = make_case(ONE_TURN_PROVISIONS.replace("  legal: legal(play)\n", "  legal: zone(elijah, never) == hand\n"))
    ref = Reference(sc, rule_base)
    with pytest.raises(EncodingError, match="outside the timeline"):
        ask(sc, ref, "legal", {})


def test_interpretations_replace_the_rules_they_resolve(make_case: Callable[..., Scenario],
                                                        rule_base: RuleBase) -> None:
    plain = Reference(make_case(ONE_TURN_PROVISIONS), rule_base)
    chosen = Reference(make_case(ONE_TURN_PROVISIONS.replace("turns: 1\n", "turns: 1\ninterpretations: [SA-5-I1]\n")),
                       rule_base)
    assert {i.rule.id for i in plain.instances} - {i.rule.id for i in chosen.instances} == {"SA-5"}
    assert {i.rule.id for i in chosen.instances} - {i.rule.id for i in plain.instances} == {"SA-5-I1"}
    assert not any(i.rule.interpretation for i in plain.instances)


def test_labels_name_steps_as_the_timeline_does(provisions: tuple[Scenario, Reference]) -> None:
    _, ref = provisions
    assert "CORE-2[c=elijah, s=turn 1 Preparation (alice), play]" in [ref.label(i) for i in ref.instances]


def test_residuals_agree_with_the_evaluator(provisions: tuple[Scenario, Reference], rule_base: RuleBase) -> None:
    sc, ref = provisions
    model = engine_model(sc, rule_base)
    keys = sorted(model, key=repr)
    half = {k: model[k] for k in keys[::2]}
    flipped = {**model, ("zone", ("elijah", 3)): "territory", ("legal", ("play",)): False}
    folds = Residuals(ref)
    for inst in ref.instances:
        folded = folds.fold(inst.rule.body, dict(inst.env))
        for assignment in (model, half, flipped, {}):
            got = folded.fn(assignment) if isinstance(folded, Residual) else folded
            assert got is ref.holds(inst, assignment) or got == ref.holds(inst, assignment), ref.label(inst)


def test_the_engine_fails_closed_on_a_model_that_breaks_a_rule(
        make_case: Callable[..., Scenario], rule_base: RuleBase, monkeypatch: pytest.MonkeyPatch) -> None:
    sc = make_case(ONE_TURN_PROVISIONS)
    real = backend.Session.read

    def tampered(self: backend.Session, names: Sequence[str], model: object = None) -> dict[str, object]:
        values = real(self, names, model)  # type: ignore[arg-type]
        for name, ref in self.g.constants.items():
            if ref.symbol == "legal" and name in values:
                values[name] = not values[name]
        return values

    monkeypatch.setattr(backend.Session, "read", tampered)
    result = check_scenario(sc, rule_base)
    assert {r.verdict for r in result.results} == {Verdict.UNKNOWN}
    reason = result.results[0].reason
    assert "the model behind the answer breaks" in reason and "(reference evaluator)" in reason
    assert re.search(r"breaks [A-Z]+-\d+[a-z]*\[[^]]*\] \(reference evaluator\)", reason), reason


def test_the_engine_keeps_verdicts_the_reference_confirms(make_case: Callable[..., Scenario],
                                                          rule_base: RuleBase) -> None:
    result = check_scenario(make_case(ONE_TURN_PROVISIONS), rule_base)
    assert [r.verdict for r in result.results] == [Verdict.DETERMINED] * len(result.results)


def scratch(sc: Scenario, rule_base: RuleBase, assignment: dict[Key, Value]) -> tuple[list[str], str | None]:
    """The failures and first failure a reference that has seen no other assignment gives."""
    return Reference(sc, rule_base).failures(assignment), Reference(sc, rule_base).first_failure(assignment)


def test_later_assignments_agree_with_a_fresh_evaluation(provisions: tuple[Scenario, Reference],
                                                         rule_base: RuleBase) -> None:
    sc, ref = provisions
    model = engine_model(sc, rule_base)
    battle = next(s.position for s in sc.steps if s.phase == "Battle")
    assert ref.first_failure(model) is None  # the base: every instance holds
    keys = sorted(model, key=repr)
    perturbed = [
        {**model, ("zone", ("elijah", battle)): "territory"},  # breaks a rule
        {**model, ("legal", ("play",)): not model[("legal", ("play",))]},
        {k: v for k, v in model.items() if k != ("legal", ("play",))},  # an application left out
        {**model, ("legal", ("play",)): 1},  # equal to True, but not the same value
        {**model, **{k: model[k] for k in keys[::3]}},  # nothing changed
    ]
    for i in range(0, len(keys), 7):  # each value changed to another of its sort, a few at a time
        changed = dict(model)
        for k in keys[i:i + 3]:
            others = [v for v in ref.value_range(SYMBOLS[k[0]].result) if v != model[k]]
            if others:
                changed[k] = others[len(k[1]) % len(others)]
        perturbed.append(changed)
    broken = 0
    for assignment in perturbed:
        failed, first = scratch(sc, rule_base, assignment)
        assert ref.failures(assignment) == failed
        assert ref.first_failure(assignment) == first
        broken += bool(failed)
    assert broken >= len(perturbed) // 2, "most perturbations should break some rule"
    assert ref.first_failure(model) is None  # back to the base


def test_a_base_that_fails_keeps_its_failures_in_order(provisions: tuple[Scenario, Reference],
                                                       rule_base: RuleBase) -> None:
    sc, ref = provisions
    model = engine_model(sc, rule_base)
    battle = next(s.position for s in sc.steps if s.phase == "Battle")
    base = {**model, ("zone", ("elijah", battle)): "territory"}
    assert ref.failures(base) == scratch(sc, rule_base, base)[0] != []
    for assignment in (model, {**base, ("legal", ("play",)): False}, base, {}):
        failed, first = scratch(sc, rule_base, assignment)
        assert ref.first_failure(assignment) == first
        assert ref.failures(assignment) == failed


@pytest.mark.parametrize("base_fails", [False, True], ids=["base holds", "base fails"])
def test_a_first_assignment_said_to_come_alone_agrees_when_others_follow(provisions: tuple[Scenario, Reference],
                                                                        rule_base: RuleBase, base_fails: bool) -> None:
    """A first assignment evaluated without noting what each instance reads (`alone`) has it noted once another
    assignment comes: every answer is still a fresh evaluation's."""
    sc, _ = provisions
    model = engine_model(sc, rule_base)
    battle = next(s.position for s in sc.steps if s.phase == "Battle")
    base = {**model, ("zone", ("elijah", battle)): "territory"} if base_fails else model
    ref = Reference(sc, rule_base)
    assert ref.first_failure(base, alone=True) == scratch(sc, rule_base, base)[1]
    for assignment in (model, {**base, ("legal", ("play",)): not model[("legal", ("play",))]}, base,
                       {k: v for k, v in base.items() if k != ("legal", ("play",))}):
        failed, first = scratch(sc, rule_base, assignment)
        assert ref.first_failure(assignment) == first
        assert ref.failures(assignment) == failed
