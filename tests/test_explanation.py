"""Explanations: the derivation of a determined value, the statements behind an open one, the conflict."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from verifier.errors import CaseError
from verifier.explanation import explain_case
from verifier.language.encoding import RuleBase
from verifier.rulesdoc import RulesDocument
from verifier.scenario.loader import load_case
from verifier.verdicts import Verdict

Cli = Callable[..., Result]
Check = Callable[[Result], None]

UPKEEP = "cases/set-aside/upkeep-set-aside-counts-its-own-upkeep.yaml"


def test_a_determined_value_is_derived_from_a_minimal_forcing_set(make_case: Callable[..., object],
                                                                  provisions_text: str, rule_base: RuleBase,
                                                                  rules_doc: RulesDocument) -> None:
    scenario = make_case(provisions_text)
    [e] = explain_case(scenario, rule_base, rules_doc, "returns_at", 10_000, None)  # type: ignore[arg-type]
    assert e.result.verdict is Verdict.DETERMINED and e.result.value == "turn 3 Preparation (alice)"
    assert e.derivation is not None and e.derivation.verified and e.derivation.reason == ""
    rules = {item.label.split("[")[0] for item in e.derivation.steps if item.kind == "rule"}
    # the duration (SA-6), counted in the Upkeeps (GLOSS-2), returns the Hero (SA-6c)
    assert {"SA-6", "SA-6c", "GLOSS-2"} <= rules
    facts = {item.text for item in e.derivation.steps if item.kind == "fact"}
    assert "provisions_a1 lasts 2 turn(s) (read from the card's text)" in facts
    assert "play_provisions targets elijah" in facts
    sa6 = next(item for item in e.derivation.steps if item.label.startswith("SA-6["))
    assert dict(sa6.statements)["SA-6"].startswith("When the set-aside effect gives a duration")


def test_a_value_fixed_by_structure_says_so(make_case: Callable[..., object], provisions_text: str,
                                            rule_base: RuleBase, rules_doc: RulesDocument) -> None:
    text = provisions_text.replace("  legal: legal(play_provisions)\n", "  legal: legal(play_provisions)\n"
                                   "  when: step_of(play_provisions)\n")
    scenario = make_case(text)
    [e] = explain_case(scenario, rule_base, rules_doc, "when", 10_000, None)  # type: ignore[arg-type]
    assert e.derivation is not None and e.derivation.steps == ()
    assert "fixed by the scenario's structure" in e.derivation.reason


def test_an_ambiguity_names_the_statements_that_would_have_to_say_more(repo_root: Path, rule_base: RuleBase,
                                                                        rules_doc: RulesDocument) -> None:
    scenario = load_case(repo_root / UPKEEP, rule_base)
    [e] = explain_case(scenario, rule_base, rules_doc, "returns_at", 10_000, None)
    assert e.result.verdict is Verdict.AMBIGUOUS and e.derivation is None
    assert len(e.result.witnesses) == 2
    ids = [sid for sid, _ in e.statements]
    assert "SA-6" in ids and len(ids) == len(set(ids))


def test_an_unknown_question_is_an_input_error(make_case: Callable[..., object], provisions_text: str,
                                               rule_base: RuleBase, rules_doc: RulesDocument) -> None:
    scenario = make_case(provisions_text)
    with pytest.raises(CaseError, match="has no question 'return_at' \\(did you mean 'returns_at'\\?\\)"):
        explain_case(scenario, rule_base, rules_doc, "return_at", 10_000, None)  # type: ignore[arg-type]


def test_cli_explain_text(cli: Cli, assert_no_crash: Check, repo_root: Path, write_case: Callable[..., Path],
                          provisions_text: str) -> None:
    case = write_case(provisions_text)
    result = cli("explain", "--root", repo_root, case, "--question", "returns_at")
    assert_no_crash(result)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "  ok   returns_at: determined = turn 3 Preparation (alice)\n" in out
    assert "re-checked: forcing and minimal" in out
    assert "    given the scenario's facts:\n" in out
    assert "        SA-6: When the set-aside effect gives a duration" in out
    assert out.rstrip().endswith("therefore returns_at = turn 3 Preparation (alice)")
    assert out.index("given the scenario's facts") < out.index("and the rules:")


def test_cli_explain_ambiguity_and_contradiction(cli: Cli, assert_no_crash: Check, repo_root: Path,
                                                 write_case: Callable[..., Path]) -> None:
    result = cli("explain", "--root", repo_root, repo_root / UPKEEP, "-q", "returns_at")
    assert_no_crash(result)
    assert result.exit_code == 0
    assert "two outcomes the rules both allow" in result.stdout
    assert "statements that would have to say more (cited by the rules involved):" in result.stdout
    assert "      GLOSS-2: " in result.stdout or "      SA-6: " in result.stdout

    result = cli("explain", "--root", repo_root, repo_root / "cases/set-aside/darkness-negated-in-battle.yaml",
                 "--format", "json")
    assert_no_crash(result)
    data = json.loads(result.stdout)
    verdicts = {e["verdict"] for e in data["explanations"]}
    assert verdicts == {"contradiction"}
    first = data["explanations"][0]
    assert first["core_verified"] is True and first["derivation"] is None
    assert {"SA-5", "GLOSS-12"} <= {s["id"] for c in first["core"] for s in c["statements"]}


def test_cli_explain_unknown_question_exits_2(cli: Cli, assert_no_crash: Check, repo_root: Path,
                                              write_case: Callable[..., Path], provisions_text: str) -> None:
    result = cli("explain", "--root", repo_root, write_case(provisions_text), "-q", "nope")
    assert_no_crash(result)
    assert result.exit_code == 2
    assert "has no question 'nope'; its questions: legal, returns_at" in result.stderr
