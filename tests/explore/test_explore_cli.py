"""`regcheck explore` on the command line: reports, exit codes, witness files and bad scope files."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from explore_scopes import PROVISIONS_CARDS, SET_ASIDE_AND_NEGATE_CARDS

from verifier.scenario.loader import load_case

Cli = Callable[..., Result]
Check = Callable[[Result], None]

NEGATED_SET_ASIDE = "title: a set-aside negated in the same Preparation Phase\nturns: 1\n" + SET_ASIDE_AND_NEGATE_CARDS + """\
phases: [Preparation]
per_phase: 2
templates: [on_return_fires]
"""


@pytest.fixture
def scope(tmp_path: Path) -> Path:
    path = tmp_path / "negated.yaml"
    path.write_text(NEGATED_SET_ASIDE, "utf-8")
    return path


def test_a_new_finding_exits_1_and_its_witness_is_a_case(cli: Cli, assert_no_crash: Check, repo_root: Path,
                                                           scope: Path, tmp_path: Path, rule_base) -> None:
    out_dir = tmp_path / "found"
    result = cli("explore", "--root", repo_root, "--jobs", "1", "--write-cases", out_dir, scope)
    assert_no_crash(result)
    assert result.exit_code == 1, result.output
    assert "NEW contradiction of the whole scenario" in result.stdout
    assert "GLOSS-12" in result.stdout and "SA-11" in result.stdout
    assert "1 scope: 1 new finding, 0 accepted" in result.stdout
    [written] = sorted(out_dir.iterdir())
    assert written.name == "negated-contradiction-scenario-1.yaml"
    assert [a.id for a in load_case(written, rule_base).attempts] == ["sets_aside", "negates"]
    check = cli("check", "--root", repo_root, written)
    assert check.exit_code == 0, check.output


def test_json_report(cli: Cli, assert_no_crash: Check, repo_root: Path, scope: Path) -> None:
    result = cli("explore", "--root", repo_root, "--jobs", "1", "--format", "json", scope)
    assert_no_crash(result)
    data = json.loads(result.stdout)
    [s] = data["scopes"]
    assert s["complete"] is True and s["scenarios"] == s["checked"] == 3
    [f] = s["findings"]
    assert f["verdict"] == "contradiction" and f["symbol"] is None and f["accepted"] is False
    assert f["witness"]["attempts"] == ["turn 1 Preparation: sets_aside", "turn 1 Preparation: negates"]
    assert "MOD-1" in s["unused_statements"]
    assert data["summary"] == {"scopes": 1, "new": 1, "accepted": 0, "incomplete": 0}


def test_a_search_cut_short_exits_1(cli: Cli, repo_root: Path, tmp_path: Path) -> None:
    path = tmp_path / "quiet.yaml"
    path.write_text(NEGATED_SET_ASIDE.replace("  - {id: negates, negate: sets_aside, by: confusion}\n", ""), "utf-8")
    assert cli("explore", "--root", repo_root, "--jobs", "1", path).exit_code == 0
    cut = cli("explore", "--root", repo_root, "--jobs", "1", "--max-scenarios", "1", path)
    assert cut.exit_code == 1
    assert "INCOMPLETE: the scope holds 2 scenarios; only the first 1" in cut.stdout


PROVISIONS_THREE_TURNS = "title: Provisions and a battle over three turns\nturns: 3\n" + PROVISIONS_CARDS + """\
phases: [Preparation, Battle]
per_phase: 1
templates: [zone]
"""


def test_scenarios_regcheck_refuses_are_listed_and_the_others_searched(cli: Cli, assert_no_crash: Check,
                                                                         repo_root: Path, tmp_path: Path,
                                                                         rule_base) -> None:
    """Provisions' on-return effect could change who blocks a later rescue attempt, so a scenario where its
    Hero returns and enters battle later is refused (as `regcheck check` refuses that case); the search
    answers every other scenario and says how many it did not, with the refusal, and exits 1."""
    path = tmp_path / "provisions.yaml"
    path.write_text(PROVISIONS_THREE_TURNS, "utf-8")
    result = cli("explore", "--root", repo_root, "--jobs", "1", "--format", "json", path)
    assert_no_crash(result)
    assert result.exit_code == 1, result.output
    [s] = json.loads(result.stdout)["scopes"]
    assert s["complete"] is False
    [why] = s["incomplete"]
    refused = int(why.split(" scenario(s) not answered")[0])
    assert 0 < refused < s["scenarios"] and s["checked"] == s["scenarios"] - refused
    assert "the first with turn 1 Preparation: play_provisions, turn 3 Preparation: elijah_enters" in why
    assert "on-return effect" in why and "could change who may block" in why
    text = cli("explore", "--root", repo_root, "--jobs", "1", path)
    assert "statements no scenario answered reaches (see INCOMPLETE): " in text.stdout
    # the refusal is the one `regcheck check` gives the same timeline written as a case
    case = tmp_path / "refused.yaml"
    case.write_text(PROVISIONS_THREE_TURNS.split("attempts:")[0] + """\
timeline:
  - {id: play_provisions, turn: 1, phase: Preparation, play: provisions, on: elijah, targets: [elijah]}
  - {id: elijah_enters, turn: 3, phase: Preparation, enter_battle: [elijah]}
questions:
  where: zone(elijah, at(3, Discard))
""", "utf-8")
    check = cli("check", "--root", repo_root, case)
    assert_no_crash(check)
    assert check.exit_code == 2 and "could change who may block" in check.stderr, check.output


def test_the_repository_scopes_have_no_new_findings(cli: Cli, repo_root: Path) -> None:
    result = cli("explore", "--root", repo_root, repo_root / "scopes" / "ability-activation-order.yaml")
    assert result.exit_code == 0, result.output
    assert "0 new findings, 1 accepted" in result.stdout


@pytest.mark.parametrize("edit, message", [
    (("turns: 1\n", ""), "negated.yaml:1:1: the scope is missing 'turns'"),
    (("players: [alice, bob]\n", ""), "negated.yaml:1:1: the scope is missing 'players'"),
    (("phases: [Preparation]", "phases: [Preparation, Lunch]"), "negated.yaml:20:23: 'Lunch' is not one of the phases"),
    (("negate: sets_aside", "negate: set_aside"), "negated.yaml:19:27: 'set_aside' is not an attempt written before"),
    (("by: confusion", "by: confusio"), "unknown card 'confusio' (did you mean 'confusion'?)"),
    (("templates: [on_return_fires]", "templates: [zones]"), "'zones' is not one of the outcome symbols"),
    (("per_phase: 2", "per_phase: 2\nexpect: {}"), "unknown field 'expect' in a scope"),
    (("targets: [isaiah]}", "targets: [isaiah], turn: 3}"), "turn must be between 1 and 1, got 3"),
])
def test_a_bad_scope_is_reported_with_its_line_and_exit_2(edit: tuple[str, str], message: str, cli: Cli,
                                                            assert_no_crash: Check, repo_root: Path,
                                                            scope: Path) -> None:
    scope.write_text(NEGATED_SET_ASIDE.replace(*edit), "utf-8")
    result = cli("explore", "--root", repo_root, scope)
    assert_no_crash(result)
    assert result.exit_code == 2, result.output
    assert message in result.stderr, result.stderr


def test_k_selects_scopes_by_path_and_x_stops_after_the_first_that_fails(cli: Cli, assert_no_crash: Check,
                                                                           repo_root: Path, tmp_path: Path) -> None:
    for name in ("a-negated.yaml", "b-negated.yaml", "c-other.yaml"):
        (tmp_path / name).write_text(NEGATED_SET_ASIDE, "utf-8")
    chosen = cli("explore", "--root", repo_root, "--jobs", "1", "-k", "(negated or other) and not b-", tmp_path)
    assert_no_crash(chosen)
    assert chosen.exit_code == 1 and "2 scopes: 2 new findings" in chosen.stdout
    assert "a-negated.yaml" in chosen.stdout and "c-other.yaml" in chosen.stdout and "b-negated" not in chosen.stdout
    first = cli("explore", "--root", repo_root, "--jobs", "1", "-x", tmp_path)
    assert_no_crash(first)
    assert first.exit_code == 1 and "1 scope: 1 new finding" in first.stdout and "b-negated" not in first.stdout
    none = cli("explore", "--root", repo_root, "-k", "nothing-like-this", tmp_path)
    assert none.exit_code == 2 and "no scope file matches -k 'nothing-like-this'" in none.output
    bad = cli("explore", "--root", repo_root, "-k", "(negated", tmp_path)
    assert bad.exit_code == 2 and "'(' is not closed" in bad.output


def test_a_contradiction_finding_is_shown_as_the_whole_scenarios() -> None:
    from verifier.explore.search import ExploreFinding
    from verifier.report import _explore_finding

    found = ExploreFinding("scope.yaml", "contradiction", "", ("SA-5", "GLOSS-12"), "zone(elijah, at(1, Draw))",
                           ("turn 1 Battle: negates",), 1, ("elijah",), 2, "title: x\n")
    text = "\n".join(_explore_finding(found, None))
    assert "NEW contradiction of the whole scenario" in text
    assert "no outcome at all satisfies the rules" in text and "zone(elijah" not in text
