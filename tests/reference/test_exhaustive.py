"""Verdicts by exhaustive enumeration with the reference evaluator, on cases whose verdicts are known."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from verifier.language.encoding import RuleBase
from verifier.reference import Reference
from verifier.reference.exhaustive import Answer, exhaustive_answers
from verifier.scenario.loader import load_case
from verifier.scenario.model import Scenario
from verifier.verdicts import Verdict
from verifier.vocabulary import display_value

PASSOVER_TWO_TURNS = """\
title: Passover gives no duration; alice chooses when her Hero comes back
players: [alice, bob]
turns: 2
cards:
  moses:
    type: Hero
    brigade: Green
  passover:
    card: Passover
timeline:
  - id: play_passover
    turn: 1
    phase: Preparation
    play: passover
    on: moses
    targets: [moses]
questions:
  legal: legal(play_passover)
  returns_at: return_step(play_passover, moses)
  set_aside_in_battle: zone(moses, at(1, Battle))
"""

ONE_TURN = """\
title: a Hero and Provisions in one turn
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
  where: zone(elijah, at(1, Battle))
  returns: return_step(play, elijah)
"""


def answers(sc: Scenario, rules: RuleBase) -> dict[str, Answer]:
    found = exhaustive_answers(Reference(sc, rules))
    assert found is not None
    return found


def test_determined_answers_with_their_values(make_case: Callable[..., Scenario], rule_base: RuleBase) -> None:
    sc = make_case(ONE_TURN)
    assert answers(sc, rule_base) == {
        "legal": Answer(Verdict.DETERMINED, True),
        "where": Answer(Verdict.DETERMINED, "set_aside_area"),
        "returns": Answer(Verdict.DETERMINED, len(sc.steps)),  # never, within one turn
    }


def test_a_players_choice(make_case: Callable[..., Scenario], rule_base: RuleBase) -> None:
    found = answers(make_case(PASSOVER_TWO_TURNS), rule_base)
    assert found["legal"] == Answer(Verdict.DETERMINED, True)
    assert found["returns_at"] == Answer(Verdict.CHOICE_DEPENDENT)
    assert found["set_aside_in_battle"] == Answer(Verdict.DETERMINED, "set_aside_area")


def test_a_contradiction(make_case: Callable[..., Scenario], rule_base: RuleBase,
                         tiny_contradiction_text: str) -> None:
    assert answers(make_case(tiny_contradiction_text), rule_base) == {"zap_legal": Answer(Verdict.CONTRADICTION)}


def test_an_ambiguity(repo_root: Path, rule_base: RuleBase) -> None:
    sc = load_case(repo_root / "cases/set-aside/upkeep-set-aside-counts-its-own-upkeep.yaml", rule_base)
    found = answers(sc, rule_base)
    assert {q: a.verdict for q, a in found.items()} == {e.question: Verdict(e.verdict) for e in sc.expectations}
    assert Verdict.AMBIGUOUS in {a.verdict for a in found.values()}


def test_a_search_past_its_limit_gives_no_answer(make_case: Callable[..., Scenario], rule_base: RuleBase) -> None:
    assert exhaustive_answers(Reference(make_case(ONE_TURN), rule_base), limit=10) is None


# Cases of the later sections small enough to enumerate: descriptions (alignment, brigades, traits, whose),
# negation (of 'all' and of each, its preventing part, cannot be negated, interrupted or prevented), targeting
# (the quickest in the default run, the others with -m slow)
LATER_SECTIONS = (
    "negate/incurable-negates-balm-of-gilead-played-while-it-is-in-play.yaml",
    "cannot-be/cannot-be-prevented-discard-used-again-after-a-negate.yaml",
    "targeting/day-of-atonement-takes-only-heroes-its-user-owns-and-controls.yaml",
    "targeting/discard-each-hero-in-battle-takes-every-hero-there.yaml",
    pytest.param("negate/john-negates-every-evil-character-used-before-it.yaml", marks=pytest.mark.slow),
    pytest.param("negate/david-cannot-negate-a-paralyze-after-the-battle.yaml", marks=pytest.mark.slow),
    pytest.param("negate/foul-spirit-negates-heroes-used-before-it.yaml", marks=pytest.mark.slow),
    pytest.param("negate/negate-all-evil-characters-in-battle-leaves-a-taskmaster-outside-it.yaml", marks=pytest.mark.slow),
    pytest.param("negate/negate-all-cards-in-battle-negates-samuels-edict-and-coliseum-lions.yaml", marks=pytest.mark.slow),
    pytest.param("negate/negate-all-evil-cards-in-battle-spares-its-own-card.yaml", marks=pytest.mark.slow),
    pytest.param("cannot-be/cannot-be-negated-evil-discard-kept-from-david.yaml", marks=pytest.mark.slow),
    pytest.param("cannot-be/cannot-be-interrupted-ability-cannot-be-negated-by-david.yaml", marks=pytest.mark.slow),
    pytest.param("cannot-be/cannot-be-prevented-set-aside-used-again-after-taskmaster.yaml", marks=pytest.mark.slow),
    pytest.param("cannot-be/deceit-of-sapphira-cannot-be-prevented-can-be-negated.yaml", marks=pytest.mark.slow),
    pytest.param("targeting/any-number-of-evil-characters-none-is-legal.yaml", marks=pytest.mark.slow),
    pytest.param("targeting/corrupt-earth-needs-a-card-its-opponent-owns-and-controls.yaml", marks=pytest.mark.slow),
    pytest.param("targeting/darkness-with-x-1-cannot-set-aside-two-heroes.yaml", marks=pytest.mark.slow),
)


@pytest.mark.parametrize("case", LATER_SECTIONS)
def test_enumeration_gives_the_expected_answers_of_the_later_sections(repo_root: Path, rule_base: RuleBase,
                                                                       case: str) -> None:
    sc = load_case(repo_root / "cases" / case, rule_base)
    found = answers(sc, rule_base)
    expected = {e.question: e for e in sc.expectations}
    assert expected and set(expected) <= set(found)
    for name, e in expected.items():
        assert found[name].verdict is Verdict(e.verdict), name
        if e.value is not None:
            q = next(q for q in sc.questions if q.name == name)
            value = sc.step_label(found[name].value) if q.type == "step" else display_value(found[name].value)
            assert value == e.value, name
