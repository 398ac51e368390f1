"""Verdicts by exhaustive enumeration with the reference evaluator, on cases whose verdicts are known."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from verifier.language.encoding import RuleBase
from verifier.reference import Reference
from verifier.reference.exhaustive import Answer, exhaustive_answers
from verifier.scenario.loader import load_case
from verifier.scenario.model import Scenario
from verifier.verdicts import Verdict

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
