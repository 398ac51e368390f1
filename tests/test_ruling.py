"""Proposed rulings: reading ruling files, and the three verdicts on real examples from the REG."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from tests.explore.explore_scopes import PROVISIONS_CARDS
from tests.scenario.test_defaultcheck import battle
from verifier.errors import RulingError
from verifier.language.encoding import RuleBase
from verifier.rulesdoc import RulesDocument
from verifier.ruling import load_ruling, ruling_verdict
from verifier.scenario.loader import load_case
from verifier.solver.engine import check_ruling
from verifier.verdicts import RulingCheck, RulingVerdict

Cli = Callable[..., Result]
Check = Callable[[Result], None]

UPKEEP_CASE = "cases/set-aside/upkeep-set-aside-counts-its-own-upkeep.yaml"


def _check_own(path: Path, rule_base: RuleBase, rules_doc: RulesDocument) -> RulingCheck:
    ruling = load_ruling(path, rule_base, rules_doc)
    assert ruling.scenario is not None
    return check_ruling(ruling.scenario, rule_base, ruling.rule_base(rule_base), rules_doc, True)


# -- the three verdicts, on the bundled example rulings --------------------------------------------


def test_a_ruling_the_rules_already_imply_is_entailed(repo_root: Path, rule_base: RuleBase,
                                                       rules_doc: RulesDocument) -> None:
    check = _check_own(repo_root / "rulings/provisions-returns-in-turn-3.yaml", rule_base, rules_doc)
    assert check.verdict is RulingVerdict.ENTAILED
    assert check.changes == () and check.core == ()


def test_a_ruling_against_heal_12_contradicts_with_the_statements_named(repo_root: Path, rule_base: RuleBase,
                                                                        rules_doc: RulesDocument) -> None:
    check = _check_own(repo_root / "rulings/healed-hero-goes-back-to-the-battle.yaml", rule_base, rules_doc)
    assert check.verdict is RulingVerdict.CONTRADICTS
    assert not check.rules_conflict_already
    assert check.core_verified
    rules = {item.label.split("[")[0] for item in check.core if item.kind == "rule"}
    assert "HEAL-12" in rules
    statements = {sid: text for item in check.core for sid, text in item.statements}
    assert statements["HEAL-12"].startswith("A character healed from being discarded is placed in the territory")
    claims = [item for item in check.core if item.kind == "fact" and item.label == "claim(where)"]
    assert [c.text for c in claims] == ["the ruling claims where = field of battle"]
    assert claims[0].location.endswith("healed-hero-goes-back-to-the-battle.yaml:44:3")
    assert ("where", "determined = territory", "contradiction") in {(c.question, c.before, c.after)
                                                                    for c in check.changes}


def test_a_general_rule_narrows_the_upkeep_ambiguity(repo_root: Path, rule_base: RuleBase,
                                                     rules_doc: RulesDocument) -> None:
    ruling = load_ruling(repo_root / "rulings/upkeep-of-the-set-aside-does-not-count.yaml", rule_base, rules_doc)
    assert [r.id for r in ruling.rules] == ["RUL-UPKEEP-1"] and ruling.scenario is None
    scenario = load_case(repo_root / UPKEEP_CASE, rule_base, display=UPKEEP_CASE)
    check = check_ruling(scenario, rule_base, ruling.rule_base(rule_base), rules_doc, False)
    assert check.verdict is RulingVerdict.NARROWS
    assert {(c.question, c.before, c.after) for c in check.changes} == {
        ("returns_at", "ambiguous", "determined = turn 3 Preparation (alice)"),
        ("in_territory_at_turn_2_battle", "ambiguous", "determined = no"),
    }


def test_a_claim_that_picks_one_outcome_of_an_ambiguity_narrows(write_case: Callable[..., Path], repo_root: Path,
                                                                rule_base: RuleBase, rules_doc: RulesDocument) -> None:
    text = (repo_root / UPKEEP_CASE).read_text(encoding="utf-8")
    text = text.split("expect:")[0] + "claims:\n  returns_at: turn 2 Preparation\n"
    path = write_case("ruling: RUL-UPKEEP-2\n" + text, "claim.yaml")
    check = _check_own(path, rule_base, rules_doc)
    assert check.verdict is RulingVerdict.NARROWS
    assert ("returns_at", "ambiguous", "determined = turn 2 Preparation (bob)") in {
        (c.question, c.before, c.after) for c in check.changes}


def test_a_claim_on_an_activation_order(write_case: Callable[..., Path], repo_root: Path, rule_base: RuleBase,
                                        rules_doc: RulesDocument) -> None:
    case = repo_root / "cases/ability-activation-order/group-of-two-heroes-unordered.yaml"
    text = case.read_text(encoding="utf-8").split("expect:")[0]
    scenario = load_case(case, rule_base)
    order = [a.id for a in scenario.abilities][:2]
    for claimed, verdict in ((f"{order[0]} -> {order[1]}", RulingVerdict.NARROWS),
                             (f"{order[1]} -> {order[0]}", RulingVerdict.NARROWS),
                             ("nothing activates", RulingVerdict.CONTRADICTS)):
        path = write_case(f"ruling: RUL-ORDER-1\n{text}claims:\n  order: {claimed}\n", "order.yaml")
        assert _check_own(path, rule_base, rules_doc).verdict is verdict, claimed


def test_the_verdict_over_many_scenarios() -> None:
    entailed, narrows = RulingCheck("a", RulingVerdict.ENTAILED), RulingCheck("b", RulingVerdict.NARROWS)
    conflict = RulingCheck("c", RulingVerdict.CONTRADICTS)
    already = RulingCheck("d", RulingVerdict.CONTRADICTS, rules_conflict_already=True)
    assert ruling_verdict(None, (entailed, entailed)) is RulingVerdict.ENTAILED
    assert ruling_verdict(None, (entailed, narrows, already)) is RulingVerdict.NARROWS
    assert ruling_verdict(entailed, (narrows, conflict)) is RulingVerdict.CONTRADICTS
    assert ruling_verdict(already, ()) is RulingVerdict.CONTRADICTS  # its own scenario always counts
    interpreted = RulingCheck("e", RulingVerdict.CONTRADICTS, interpretations=("SA-5-I1",))
    assert ruling_verdict(None, (entailed, interpreted)) is RulingVerdict.ENTAILED  # reported apart, not counted


def test_a_case_opting_into_an_interpretation_is_reported_apart(cli: Cli, assert_no_crash: Check, repo_root: Path,
                                                                write_case: Callable[..., Path]) -> None:
    """A general rule that holds for the rules as written but conflicts with a case's chosen interpretation
    does not make the ruling contradict: that case is listed apart."""
    ruling = write_case("""\
        ruling: RUL-RETURN-1
        title: A card returned early by choice comes back in a Preparation Phase
        rules:
          - id: RUL-RETURN-1
            cites: [SA-5]
            says: "{c}, set aside by {x}, comes back at {s} only in a Preparation Phase"
            for: {x: attempt, c: card, s: step}
            requires: implies(returns_at(x, c, s), phase_of(s) == Preparation)
        """, "ruling.yaml")
    plain = repo_root / "cases/set-aside/provisions-returns-after-two-turns.yaml"
    interpreted = repo_root / "cases/set-aside/darkness-negated-in-battle-interpreted.yaml"
    result = cli("ruling", "--root", repo_root, ruling, "--cases", plain, "--cases", interpreted)
    assert_no_crash(result)
    out = result.stdout
    assert "  impact on 2 cases: entailed 1; 1 opting into interpretations (not counted, below)\n" in out, out
    assert "  cases whose verdicts change: 0\n" in out
    assert f"{interpreted} (with " in out and "; not counted)" in out
    assert "verdict: entailed" in out


# -- the command line ----------------------------------------------------------------------------------


def test_the_warnings_of_check_are_shown_once_a_case_in_text_and_json(cli: Cli, assert_no_crash: Check, repo_root: Path,
                                                                     write_case: Callable[..., Path]) -> None:
    """A case whose default may not be what it means (goliath, with no owner, is alice's but bob blocks with it) is
    warned about as `check` warns: once, however many rulings are checked on it; so is a ruling's own scenario."""
    case = write_case(battle("", "\n    player: alice", "\n    player: bob"), "warned.yaml")
    upkeep = (repo_root / "rulings/upkeep-of-the-set-aside-does-not-count.yaml").read_text(encoding="utf-8")
    rules = upkeep[upkeep.index("rules:"):].replace("RUL-UPKEEP-1", "RUL-UPKEEP-2")
    own = write_case("ruling: RUL-UPKEEP-2\n" + rules + battle("", "\n    player: alice", "\n    player: bob")
                     + "claims:\n  q: yes\n", "own.yaml")
    checked = cli("check", "--root", repo_root, case)
    assert_no_crash(checked)
    case_warning = f"warning: {case}:16:5: goliath has no owner, so it is alice's"
    assert case_warning in checked.stderr
    own_warning = f"warning: {own}:"
    for fmt in ("text", "json"):
        result = cli("ruling", "--root", repo_root, "--format", fmt, "--cases", case,
                     repo_root / "rulings/upkeep-of-the-set-aside-does-not-count.yaml", own)
        assert_no_crash(result)
        assert result.exit_code == 0, result.output
        warnings = [line for line in result.stderr.splitlines() if line.startswith("warning: ")]
        assert [w for w in warnings if w.startswith(case_warning)] == \
            [w for w in checked.stderr.splitlines() if w.startswith("warning: ")], result.stderr
        [own_warned] = [w for w in warnings if w.startswith(own_warning)]
        assert ": goliath has no owner, so it is alice's" in own_warned
        assert len(warnings) == 2 and "warning: " not in result.stdout
        if fmt == "json":
            assert [r["ruling"] for r in json.loads(result.stdout)["rulings"]] == ["RUL-UPKEEP-1", "RUL-UPKEEP-2"]
    for fmt in ("text", "json"):
        explained = cli("explain", "--root", repo_root, "--format", fmt, case)
        assert_no_crash(explained)
        assert [w for w in explained.stderr.splitlines() if w.startswith("warning: ")] == \
            [w for w in checked.stderr.splitlines() if w.startswith("warning: ")]



def test_cli_ruling_verdicts_and_exit_codes(cli: Cli, assert_no_crash: Check, repo_root: Path) -> None:
    result = cli("ruling", "--root", repo_root, "--cases", repo_root / UPKEEP_CASE,
                 repo_root / "rulings/provisions-returns-in-turn-3.yaml",
                 repo_root / "rulings/upkeep-of-the-set-aside-does-not-count.yaml")
    assert_no_crash(result)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "  verdict: entailed (the rules already imply it: it is redundant)\n" in out
    assert "  verdict: narrows (consistent with the rules, and it settles something they leave open)\n" in out
    assert "  impact on 1 case: narrows 1\n" in out
    assert "    returns_at: ambiguous -> determined = turn 3 Preparation (alice)\n" in out

    result = cli("ruling", "--root", repo_root, "--format", "json",
                 repo_root / "rulings/healed-hero-goes-back-to-the-battle.yaml")
    assert_no_crash(result)
    assert result.exit_code == 1
    [data] = json.loads(result.stdout)["rulings"]
    assert data["verdict"] == "contradicts" and data["impact"] == []
    own = data["own_scenario"]
    assert own["core_verified"] is True
    assert "HEAL-12" in {s["id"] for item in own["core"] for s in item["statements"]}


RULING_ERRORS = {
    "bad-id": ("ruling: rul 1\nrules: []\n", ":1:9: ruling must be an ID like RUL-2026-7"),
    "nothing-proposed": ("ruling: RUL-1\ntitle: nothing\n", ":1:1: a ruling needs 'rules' to propose"),
    "claims-without-scenario": ("ruling: RUL-1\nclaims: {q: yes}\n", ":1:1: claims answer the questions of a scenario"),
    "unknown-statement": (
        "ruling: RUL-1\nrules:\n  - id: RUL-1\n    cites: [SA-99]\n    says: x\n    requires: 'True'\n",
        ":3:5: rule RUL-1 cites SA-99, which is not in the rules document"),
    "rule-id-taken": (
        "ruling: RUL-1\nrules:\n  - id: SA-5\n    cites: [SA-5]\n    says: x\n    requires: 'True'\n",
        ":3:9: duplicate rule id 'SA-5'"),
    "interpretation": (
        "ruling: RUL-1\nrules:\n  - id: RUL-1\n    cites: [SA-5]\n    says: x\n    requires: 'True'\n"
        "    interpretation: true\n", ":7:5: unknown field 'interpretation' in a rule"),
    "type-error": (
        "ruling: RUL-1\nrules:\n  - id: RUL-1\n    cites: [SA-5]\n    says: x\n    requires: zone(1)\n",
        ":6:15:"),
    "unknown-field": ("ruling: RUL-1\nrule: []\n", ":2:1: unknown field 'rule' in a ruling file without a scenario"),
}


@pytest.mark.parametrize("name", sorted(RULING_ERRORS))
def test_malformed_ruling_files(name: str, cli: Cli, assert_no_crash: Check, repo_root: Path,
                                write_case: Callable[..., Path]) -> None:
    text, message = RULING_ERRORS[name]
    path = write_case(text, f"{name}.yaml")
    result = cli("ruling", "--root", repo_root, path)
    assert_no_crash(result)
    assert result.exit_code == 2
    assert f"error: {path}{message}" in result.stderr, result.stderr


def test_a_ruling_scenario_needs_claims_and_claims_need_known_questions(
        cli: Cli, assert_no_crash: Check, repo_root: Path, write_case: Callable[..., Path]) -> None:
    text = (repo_root / "rulings/provisions-returns-in-turn-3.yaml").read_text(encoding="utf-8")
    no_claims = write_case(text.split("claims:")[0], "no-claims.yaml")
    result = cli("ruling", "--root", repo_root, no_claims)
    assert_no_crash(result)
    assert result.exit_code == 2 and "needs 'claims'" in result.stderr
    bad = write_case(text.replace("  back_in: territory", "  back_inn: territory"), "bad-claim.yaml")
    result = cli("ruling", "--root", repo_root, bad)
    assert result.exit_code == 2 and "claims names unknown question 'back_inn' (did you mean 'back_in'?)" in result.stderr
    wrong_value = write_case(text.replace("  back_in: territory", "  back_in: moon"), "bad-value.yaml")
    result = cli("ruling", "--root", repo_root, wrong_value)
    assert result.exit_code == 2 and "'moon' is not a possible zone value" in result.stderr


def test_load_ruling_raises_a_ruling_error(repo_root: Path, rule_base: RuleBase, rules_doc: RulesDocument,
                                           write_case: Callable[..., Path]) -> None:
    with pytest.raises(RulingError):
        load_ruling(write_case("- a list\n", "list.yaml"), rule_base, rules_doc)


def test_a_general_rule_that_contradicts_is_in_the_conflict_with_its_instances(
        cli: Cli, assert_no_crash: Check, repo_root: Path, write_case: Callable[..., Path], provisions_text: str) -> None:
    case = write_case(provisions_text, "provisions.yaml")
    ruling = write_case("""\
        ruling: RUL-NO-SET-ASIDE-1
        title: Nothing is ever in a set-aside area
        rules:
          - id: RUL-NO-SET-ASIDE-1
            cites: [SA-1]
            says: "{c} is not in a set-aside area at {s}"
            for: {c: card, s: step}
            requires: zone(c, s) != set_aside_area
        """, "ruling.yaml")
    result = cli("ruling", "--root", repo_root, "--cases", case, "--format", "json", ruling)
    assert_no_crash(result)
    assert result.exit_code == 1
    [data] = json.loads(result.stdout)["rulings"]
    assert data["verdict"] == "contradicts" and data["own_scenario"] is None
    [impact] = data["impact"]
    assert impact["verdict"] == "contradicts" and impact["rules_conflict_already"] is False
    proposed = [c for c in impact["core"] if c["kind"] == "ruling"]
    assert proposed and all(c["label"].startswith("RUL-NO-SET-ASIDE-1[c=elijah") for c in proposed)
    assert proposed[0]["statements"][0]["id"] == "SA-1"
    assert {"legal", "returns_at"} == {c["question"] for c in impact["changes"]}

    text = cli("ruling", "--root", repo_root, "--cases", case, ruling).stdout
    assert "- RUL-NO-SET-ASIDE-1[c=elijah" in text and "(proposed by the ruling)" in text


UPKEEP_SCOPE = """\
title: a one-turn set-aside made in any Upkeep or Preparation Phase
players: [alice, bob]
turns: 2
cards:
  hezekiah:
    type: Hero
    brigade: Blue
    abilities: [{kind: set aside, duration: 1 turn}]
  isaiah: {type: Hero, brigade: Blue}
attempts:
  - {id: sets_aside, activate: hezekiah, targets: [isaiah]}
phases: [Upkeep, Preparation]
questions:
  returns_at: return_step(sets_aside, isaiah)
"""


def _upkeep_ruling_over(scope_text: str, cli: Cli, assert_no_crash: Check, repo_root: Path, tmp_path: Path
                        ) -> tuple[Path, Result]:
    """The Upkeep ruling checked on its case and over a scope (written from `scope_text`): the scope's path and the
    run, which did not crash."""
    scope = tmp_path / "scope.yaml"
    scope.write_text(scope_text, encoding="utf-8")
    result = cli("ruling", "--root", repo_root, "--format", "json", "--cases", repo_root / UPKEEP_CASE,
                 "--scope", scope, repo_root / "rulings/upkeep-of-the-set-aside-does-not-count.yaml")
    assert_no_crash(result)
    return scope, result


def test_a_ruling_checked_over_a_scope(cli: Cli, assert_no_crash: Check, repo_root: Path, tmp_path: Path) -> None:
    scope, result = _upkeep_ruling_over(UPKEEP_SCOPE, cli, assert_no_crash, repo_root, tmp_path)
    assert result.exit_code == 0, result.output
    [data] = json.loads(result.stdout)["rulings"]
    assert data["verdict"] == "narrows"
    on_scope = [c for c in data["impact"] if c["case"].startswith(str(scope))]
    assert len(on_scope) == 5  # no attempt, or the set-aside in one of four phases
    narrowed = {c["case"] for c in on_scope if c["verdict"] == "narrows"}
    # only a set-aside made in an Upkeep leaves open whether that Upkeep counts
    assert narrowed == {f"{scope} [turn 1 Upkeep: sets_aside]", f"{scope} [turn 2 Upkeep: sets_aside]"}, on_scope
    assert all(c["scenario"] for c in on_scope)
    text = cli("ruling", "--root", repo_root, repo_root / "rulings/upkeep-of-the-set-aside-does-not-count.yaml",
               "--scope", scope, "--cases", repo_root / UPKEEP_CASE).stdout
    assert "  impact on 5 scenarios: " in text and "  scenarios whose verdicts change: 2\n" in text, text
    assert "  impact on 1 case: " in text


PROVISIONS_SCOPE = ("title: Provisions, and its Hero entering battle, over three turns\nturns: 3\n" + PROVISIONS_CARDS
                    + "phases: [Preparation]\nper_phase: 1\n")


def test_a_scenario_of_the_scope_regcheck_refuses_leaves_the_ruling_unknown_there(
        cli: Cli, assert_no_crash: Check, repo_root: Path, tmp_path: Path) -> None:
    """Where Provisions' Hero returns and then enters battle, its on-return effect (a later blocker) could
    change the answers: that scenario is refused, the ruling is unknown on it and checked on the others."""
    scope, result = _upkeep_ruling_over(PROVISIONS_SCOPE, cli, assert_no_crash, repo_root, tmp_path)
    assert result.exit_code == 1, result.output
    [data] = json.loads(result.stdout)["rulings"]
    assert data["verdict"] == "unknown"
    on_scope = {c["case"]: c for c in data["impact"] if c["case"].startswith(str(scope))}
    refused = f"{scope} [turn 1 Preparation: play_provisions, turn 3 Preparation: elijah_enters]"
    assert on_scope[refused]["verdict"] == "unknown"
    assert "regcheck does not answer this scenario" in on_scope[refused]["reason"]
    assert "could change who may block" in on_scope[refused]["reason"]
    others = [c for case, c in on_scope.items() if case != refused]
    assert len(others) == 12 and all(c["verdict"] in ("entailed", "narrows") for c in others), others
