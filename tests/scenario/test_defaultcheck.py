"""Warnings for defaults that change what a case means, and `check --strict`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from click.testing import Result

from verifier.scenario.defaultcheck import default_warnings
from verifier.scenario.model import Scenario

BATTLE = """\
players: [alice, bob]
turns: 2
cards:
  elijah:
    type: Hero
    brigade: Blue
  goliath:
    type: Evil_Character
    brigade: Crimson{goliath_owner}
timeline:
  - id: rescue
    turn: 2
    phase: Battle
    enter_battle: [elijah]{rescue_player}
  - id: block
    turn: 2
    phase: Battle
    enter_battle: [goliath]
    role: blocking{block_player}
questions:
  q: battle_ongoing(step_of(block))
"""


def battle(goliath_owner: str = "", rescue_player: str = "", block_player: str = "") -> str:
    return BATTLE.format(goliath_owner=goliath_owner, rescue_player=rescue_player, block_player=block_player)


def messages(scenario: Scenario) -> list[str]:
    return [f"line {w.location.line}: {w.message}" for w in default_warnings(scenario)]


def test_a_case_that_says_who_is_who_gets_no_warning(make_case: Callable[..., Scenario]) -> None:
    sc = make_case(battle("\n    owner: bob", "\n    player: alice", "\n    player: bob"))
    assert messages(sc) == []


def test_blocker_with_no_player(make_case: Callable[..., Scenario]) -> None:
    sc = make_case(battle("\n    owner: alice", "\n    player: alice"))
    assert messages(sc) == [
        "line 17: block enters battle blocking but names no player, so it is made by the player whose turn "
        "it is (bob); say who blocks with 'player:'",
        "line 17: goliath is alice's, but it enters battle for the player whose turn it is (bob), as block "
        "names no player: give goliath its 'owner' or block its 'player'",
    ]


def test_card_left_to_the_first_player_used_by_another(make_case: Callable[..., Scenario]) -> None:
    sc = make_case(battle("", "\n    player: alice", "\n    player: bob"))
    assert messages(sc) == [
        "line 16: goliath has no owner, so it is alice's, but it enters battle for bob: give goliath its "
        "'owner' or block its 'player'",
    ]


def test_card_used_by_a_player_it_was_not_given_to(make_case: Callable[..., Scenario]) -> None:
    sc = make_case("""\
players: [alice, bob]
cards:
  elijah:
    type: Hero
  confusion:
    type: EE
    abilities:
      - kind: negate
  hezekiah:
    type: Hero
    abilities:
      - kind: set aside
timeline:
  - {id: sets_aside, turn: 1, phase: Preparation, activate: hezekiah, targets: [elijah]}
  - {id: negates, turn: 1, phase: Preparation, negate: sets_aside, by: confusion, player: bob}
questions:
  q: negated(sets_aside)
""")
    assert messages(sc) == ["line 15: confusion has no owner, so it is alice's, but bob uses it in negates: "
                            "give confusion 'owner: bob'"]


def test_every_bundled_case_is_free_of_warnings(repo_root: Path) -> None:
    from verifier.api import load, open_repository

    repo = open_repository(repo_root)
    warned = [str(w) for f in sorted((repo_root / "cases").rglob("*.yaml")) for w in default_warnings(load(repo, f))]
    assert warned == []


def test_check_warns_and_strict_refuses(cli: Callable[..., Result], repo_root: Path,
                                        write_case: Callable[..., Path]) -> None:
    path = write_case(battle("", "\n    player: alice", "\n    player: bob"))
    warned = cli("check", "--root", repo_root, path)
    assert warned.exit_code == 0, warned.output
    assert f"warning: {path}:16:5: goliath has no owner, so it is alice's" in warned.stderr
    strict = cli("check", "--root", repo_root, path, "--strict")
    assert strict.exit_code == 2
    assert f"error: {path}:16:5: goliath has no owner, so it is alice's" in strict.stderr
    assert strict.stderr.rstrip().endswith("(--strict)")
    assert "1 case file could not be checked" in strict.stdout
