"""A case's timeline as the engine answers it: zones by card and step, the battle, the attempts."""

from __future__ import annotations

from pathlib import Path

import pytest

from verifier import api
from verifier.timeline import Timeline, timeline_scenario

CASES = Path(__file__).resolve().parent.parent / "cases"


@pytest.fixture(scope="module")
def repo(repo_root: Path) -> api.Repository:
    return api.open_repository(repo_root)


def timeline(repo: api.Repository, case: str) -> Timeline:
    [report] = list(api.report_cases(repo, [CASES / case], jobs=1))
    assert isinstance(report, api.CaseReport)
    return report.timeline


def test_a_set_aside_card_is_in_the_set_aside_area_until_it_returns(repo: api.Repository) -> None:
    t = timeline(repo, "set-aside/provisions-returns-after-two-turns.yaml")
    assert t.cards == ("elijah", "provisions") and t.controllers == ("alice", "alice")
    labels = [c.label for c in t.columns]
    assert labels[:3] == ["turn 1 Draw", "turn 1 Upkeep", "turn 1 Preparation, play_provisions"]
    elijah = [cell.text for cell in t.zones[0]]
    back = labels.index("turn 3 Preparation")
    assert elijah[:2] == ["territory", "territory"]
    assert set(elijah[2:back]) == {"set-aside area"} and elijah[back] == "territory"
    assert [cell.text for cell in t.zones[1]][2] == "discard pile"
    [play] = t.attempts
    assert (play.id, play.column, play.legal.text, play.negated.text) == ("play_provisions", 2, "yes", "no")
    assert all(cell.decided for row in t.zones for cell in row)


def test_an_open_cell_shows_every_value_the_rules_allow(repo: api.Repository) -> None:
    t = timeline(repo, "interactions/passover-poisoned-hero-heal-depends-on-when-it-returns.yaml")
    open_cells = {cell.text for row in t.zones for cell in row if not cell.decided}
    assert "set-aside area or territory" in open_cells or "territory or set-aside area" in open_cells


def test_a_contradiction_has_no_zones(repo: api.Repository) -> None:
    t = timeline(repo, "set-aside/darkness-negated-in-battle.yaml")
    assert t.contradiction and t.zones == () and t.battle == ()
    assert [a.id for a in t.attempts] == ["enter_battle_1", "enter_battle_2", "play_darkness", "negate_darkness"]


def test_activation_order_of_entering_battle(repo: api.Repository) -> None:
    t = timeline(repo, "ability-activation-order/two-added-heroes-with-abilities-in-different-steps.yaml")
    [go] = t.attempts
    assert go.activation_order is not None
    assert go.activation_order.text == "samson_a1 -> joshua_a1 -> caleb_a1"


def test_the_timeline_asks_its_own_questions_only(repo: api.Repository) -> None:
    sc = api.load(repo, CASES / "set-aside/provisions-returns-after-two-turns.yaml")
    asked = timeline_scenario(sc, repo.rules)
    assert asked.expectations == () and {q.name for q in sc.questions}.isdisjoint(q.name for q in asked.questions)
    assert "zone(elijah, step_of(play_provisions))" in {q.text for q in asked.questions}
