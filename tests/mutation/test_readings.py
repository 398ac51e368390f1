"""Answers resting on a reading: a reading's own definitions, left open, free an answer only where the
reading makes the choice; an answer the text states rests on none."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from verifier.language.encoding import RuleBase
from verifier.mutation.mutants import SUFFIX, left_open
from verifier.mutation.readings import answers_resting_on_readings, readings_cited, with_rests_on
from verifier.report import rule_statuses
from verifier.rulesdoc import READING_ID, RulesDocument, statement_order
from verifier.scenario.loader import load_case
from verifier.verdicts import Verdict

# alice's I Am Healing paralyzes three Heroes in battle; one she controls but does not own
NOT_OWNED = "targeting/i-am-healing-does-not-heal-a-hero-its-holder-controls-but-does-not-own.yaml"
# a negate in the phase of an evil ability that "cannot be interrupted"
UNINTERRUPTIBLE = "cannot-be/cannot-be-interrupted-ability-cannot-be-negated-by-david.yaml"
# Provisions sets aside one Hero: what happens to it, and to the Hero it does not target, is the text's
TEXT_ONLY = "set-aside/set-aside-touches-only-the-card-it-targets.yaml"


def rests_on(repo_root: Path, rule_base: RuleBase, case: str) -> dict[str, tuple[str, ...]]:
    scenario = load_case(repo_root / "cases" / case, rule_base, f"cases/{case}")
    return answers_resting_on_readings(scenario, rule_base, 60_000)


def test_a_reading_only_definition_cites_its_reading_alone(rule_base: RuleBase) -> None:
    """Each reading has definitions of its own, which cite nothing else; no other definition cites a reading (it
    calls the reading's definition where the text leaves the choice open)."""
    for d in rule_base.definitions.values():
        readings = [sid for sid in d.cites if READING_ID.search(sid)]
        assert not readings or list(d.cites) == readings[:1], f"{d.name} cites {', '.join(d.cites)}"


def test_readings_cited_are_the_encoded_readings(rule_base: RuleBase, rules_doc: RulesDocument) -> None:
    encoded = [s.id for s in rule_statuses(rules_doc, rule_base) if s.basis == "reading" and s.status == "encoded"]
    assert list(readings_cited(rule_base)) == sorted(encoded, key=statement_order)
    assert {"GLOSS-8-R1", "CBN-1-R1", "TGT-18-R1", "INT-4-R1"} <= set(encoded)


def test_a_reading_left_open_renames_its_definitions_and_their_users(rule_base: RuleBase) -> None:
    assert left_open(rule_base, "NEG-3-R1") is None  # waived: no definition of its own
    made = left_open(rule_base, "GLOSS-8-R1")
    assert made is not None
    mutation, open_names = made
    assert open_names == {f"half_yours{SUFFIX}:GLOSS-8-R1 left open"}
    renamed = {n.split("#", 1)[0] for n in mutation.rule_base.definitions if SUFFIX in n}
    assert {"half_yours", "target_fits", "attempt_allowed"} <= renamed
    assert "before" not in renamed and mutation.left_out, "only the definitions using it, and the rules using those"


def test_an_answer_resting_on_a_reading_is_flagged_with_it(repo_root: Path, rule_base: RuleBase) -> None:
    found = rests_on(repo_root, rule_base, NOT_OWNED)
    # whether a Hero alice controls but does not own is one of "her" Heroes is GLOSS-8-R1's choice alone
    assert found["silas_paralyzed"] == ("GLOSS-8-R1",)
    assert found["on_all_three_legal"] == ("GLOSS-8-R1",)
    found = rests_on(repo_root, rule_base, UNINTERRUPTIBLE)
    assert found["negate_legal"] == ("CBN-1-R1", "CBN-1-R2")
    assert "discard_legal" not in found


def test_an_answer_the_text_states_is_not_flagged(repo_root: Path, rule_base: RuleBase,
                                                  case_results: Callable[[Path], object]) -> None:
    result = case_results(repo_root / "cases" / TEXT_ONLY)
    assert all(r.verdict is Verdict.DETERMINED for r in result.results)  # type: ignore[attr-defined]
    assert rests_on(repo_root, rule_base, TEXT_ONLY) == {}


def test_with_rests_on_fills_every_answer(repo_root: Path, rule_base: RuleBase,
                                          case_results: Callable[[Path], object]) -> None:
    result = case_results(repo_root / "cases" / NOT_OWNED)
    assert all(r.rests_on is None for r in result.results)  # type: ignore[attr-defined]
    scenario = load_case(repo_root / "cases" / NOT_OWNED, rule_base, f"cases/{NOT_OWNED}")
    filled = with_rests_on(result, scenario, rule_base, 60_000)  # type: ignore[arg-type]
    by_question = {r.question: r.rests_on for r in filled.results}
    assert by_question["silas_paralyzed"] == ("GLOSS-8-R1",)
    assert all(v is not None for v in by_question.values())
    assert [(r.verdict, r.value) for r in filled.results] == \
        [(r.verdict, r.value) for r in result.results]  # type: ignore[attr-defined]


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_check_shows_the_readings_only_when_asked(cli: Callable[..., Result], repo_root: Path, fmt: str) -> None:
    path = str(repo_root / "cases" / UNINTERRUPTIBLE)
    plain = cli("check", path, "--format", fmt, "--no-cache")
    asked = cli("check", path, "--format", fmt, "--no-cache", "--readings")
    assert plain.exit_code == 0 and asked.exit_code == 0, plain.output + asked.output
    if fmt == "text":
        assert "rests on" not in plain.output
        assert "  ok   negate_legal: determined = no\n    expected determined = no: matches\n" \
               "    rests on readings CBN-1-R1, CBN-1-R2\n" in asked.output
        assert "discard_legal: determined = yes\n    expected determined = yes: matches\n  ok " in asked.output
        return
    assert all("rests_on" not in r for r in json.loads(plain.output)["results"])
    got = {r["question"]: r["rests_on"] for r in json.loads(asked.output)["results"]}
    assert got["negate_legal"] == ["CBN-1-R1", "CBN-1-R2"] and got["discard_legal"] == []


def test_explain_shows_the_readings(cli: Callable[..., Result], repo_root: Path) -> None:
    path = str(repo_root / "cases" / NOT_OWNED)
    out = cli("explain", path, "--question", "silas_paralyzed", "--brief")
    assert out.exit_code == 0, out.output
    assert "rests on reading GLOSS-8-R1" in out.output
    data = json.loads(cli("explain", path, "--question", "silas_paralyzed", "--format", "json").output)
    assert data["explanations"][0]["rests_on"] == ["GLOSS-8-R1"]


def test_rules_lists_the_readings(cli: Callable[..., Result], rules_doc: RulesDocument) -> None:
    out = cli("rules")
    listed = out.output.split("\nreadings (", 1)[1].splitlines()[1:]
    shown = [line.split()[0] for line in listed if line.startswith("  ")]
    assert shown == [s.id for s in rules_doc.statements if s.basis == "reading"]
    assert ["GLOSS-8-R1", "encoded by definition half_yours"] in [line.strip().split(None, 1) for line in listed]
