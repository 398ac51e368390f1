"""`regcheck sweep report`: findings grouped by their statements at fault, as text, JSON, SARIF and JUnit."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest
from click.testing import Result

from verifier.explore.search import cause_of
from verifier.gate.findings import FINDINGS_FILE, read_baseline
from verifier.sweep import sweep_report
from verifier.sweep.store import read_store

Cli = Callable[..., Result]
SARIF_SCHEMA = Path(__file__).resolve().parents[1] / "gate" / "sarif-schema-2.1.0.json"
HEAL = "Miracle of Healing"


def test_findings_are_grouped_across_combinations(small_sweep: Path) -> None:
    report = sweep_report(small_sweep)
    _, rows = read_store(small_sweep)
    shown = {r.key for r in rows if r.findings}
    assert shown == {r.key for r in rows}  # the three set-asides have paired abilities: each pair shows SA-2c
    by_symbol = {f.symbol: f for f in report.findings}
    assert set(by_symbol["paired_targets"].combinations) == shown and by_symbol["paired_targets"].rules == ("SA-2c",)
    for f in report.findings:
        assert set(f.combinations) <= shown and f.rules
        assert f.witness_combination in f.combinations
        assert "expect:" in f.witness["case"] and f.verdict in f.witness["case"]
        if f.symbol != "paired_targets":  # the rest is the heal's
            assert all(HEAL in key for key in f.combinations)
    # one finding per cause: each verdict and statements at fault some combination showed
    grouped = [(f.verdict, f.at_fault_from, f.at_fault) for f in report.findings]
    per_row = {(f["verdict"], f["at_fault_from"], tuple(f["at_fault"])) for r in rows for f in r.findings}
    smallest = {k for k in per_row if k[1] == "open outcomes"
                or not any(o[:2] == k[:2] and set(o[2]) < set(k[2]) for o in per_row)}
    assert len(grouped) == len(set(grouped)) and set(grouped) == smallest
    assert not report.passed and report.counts["done"] == 6
    assert report.new == report.findings  # read without an accepted-findings file


def test_findings_with_the_rules_of_an_accepted_finding_are_told_apart(small_sweep: Path, repo_root: Path) -> None:
    accepted = read_baseline(repo_root / FINDINGS_FILE, repo_root)
    report = sweep_report(small_sweep, accepted)
    paired = next(f for f in report.findings if f.symbol == "paired_targets")
    assert paired.accepted and all(a.startswith("cases/set-aside/paired-ability-targets-are-not-stated.yaml: ")
                                   for a in paired.accepted)
    keys = {(a.finding.verdict, frozenset(a.finding.rules)) for a in accepted}
    _, rows = read_store(small_sweep)
    every = {(g["verdict"], g["at_fault_from"], tuple(g["at_fault"])): g for r in rows for g in r.findings}
    for f in report.findings:
        shown = [frozenset(g["rules"]) for key, g in every.items()
                 if cause_of(key, every) == (f.verdict, f.at_fault_from, f.at_fault)]
        assert bool(f.accepted) == any((f.verdict, rules) in keys for rules in [frozenset(f.at_fault), *shown])
    # every finding of the small sweep is a gap already recorded: SA-2c, and the heal enhancement's open place
    assert report.new == () and report.passed
    only_some = sweep_report(small_sweep, [a for a in accepted if a.finding.rules == ("SA-2c",)])
    assert only_some.new and not only_some.passed and paired in only_some.findings
    assert only_some.findings[:len(only_some.new)] == only_some.new  # new findings first


@pytest.fixture
def unaccepting_root(tmp_path: Path, repo_root: Path) -> Path:
    """The rules repository without its accepted findings."""
    root = tmp_path / "repo"
    root.mkdir()
    for folder in ("rules", "encodings"):
        (root / folder).symlink_to(repo_root / folder, target_is_directory=True)
    return root


def test_text_and_json(cli: Cli, small_sweep: Path, repo_root: Path, unaccepting_root: Path) -> None:
    text = cli("sweep", "report", str(small_sweep), "--root", str(repo_root))
    assert text.exit_code == 0, text.output  # every finding is accepted in the repository
    assert "6 combinations of 2 cards: 6 done, 0 refused, 0 failed, 0 unknown, 0 pending" in text.output
    causes = len(sweep_report(small_sweep).findings)
    assert causes >= 2  # the paired ability's open targets, and the heal's open place
    assert f"0 new findings, {causes} accepted, by their statements at fault:" in text.output and "witness (" in text.output
    unaccepted = cli("sweep", "report", str(small_sweep), "--root", str(unaccepting_root))
    assert unaccepted.exit_code == 1 and f"{causes} new findings, 0 accepted" in unaccepted.output
    data = json.loads(cli("sweep", "report", str(small_sweep), "--format", "json").output)
    assert data["summary"]["combinations"] == 6 and data["summary"]["done"] == 6
    assert data["run"]["template"]["turns"] == 1 and len(data["run"]["cards"]) == 4
    assert all(HEAL in " ".join(f["combinations"]) for f in data["findings"])


def test_sarif_is_valid(cli: Cli, small_sweep: Path) -> None:
    log = json.loads(cli("sweep", "report", str(small_sweep), "--format", "sarif").output)
    schema = json.loads(SARIF_SCHEMA.read_text("utf-8"))
    jsonschema.Draft4Validator(schema).validate(log)
    results = log["runs"][0]["results"]
    assert len(results) == len(sweep_report(small_sweep).findings)
    assert all(r["ruleId"] in ("regcheck/sweep-ambiguous", "regcheck/sweep-contradiction") for r in results)


def test_junit_has_a_test_case_per_combination(cli: Cli, small_sweep: Path, repo_root: Path,
                                               unaccepting_root: Path) -> None:
    root = ET.fromstring(cli("sweep", "report", str(small_sweep), "--format", "junit", "--root",
                             str(unaccepting_root)).output)
    cases = root.findall("testsuite/testcase")
    assert len(cases) == 6
    assert root.get("failures") == "6"  # SA-2c in every pair, and the heal's findings
    heal_case = next(c for c in cases if HEAL in (c.get("name") or ""))
    # where the healing enhancement goes (its zone and whose it is) is left open: one group of findings
    assert "ambiguous of zone" in (heal_case.findtext("failure") or "")
    accepted = ET.fromstring(cli("sweep", "report", str(small_sweep), "--format", "junit", "--root",
                                 str(repo_root)).output)
    assert accepted.get("failures") == "0"  # a combination fails only with a new finding


def test_a_refused_combination_is_listed_with_its_reason(tmp_path: Path) -> None:
    from verifier.sweep.report import render_sweep, sweep_junit, sweep_sarif
    from verifier.sweep.store import RunIdentity, open_store

    identity = RunIdentity("rules1", "cards1", "template1", {"size": 2, "turns": 1, "phases": ["Preparation"],
                                                             "attempts": ["play"], "per_phase": 2,
                                                             "max_attempts": 2}, [], [])
    db = tmp_path / "r.db"
    why = "card_1_a1 names demon for its targets, and the case does not say whether 'card_2' is demon"
    with open_store(db, identity, [("A + B", ("A", "B")), ("A + C", ("A", "C"))]) as store:
        store.record(0, "refused", None, [], why, 0.1, 0.1, "w")
        store.record(1, "done", 3, [], "", 0.1, 0.1, "w")
    report = sweep_report(db)
    assert report.counts["refused"] == 1 and not report.new
    text = render_sweep(report)
    assert "2 combinations of 2 cards: 1 done, 1 refused, 0 failed, 0 unknown, 0 pending" in text
    assert f"refused (regcheck will not answer these scopes without guessing, for the reason given):\n  A + B: {why}" in text
    log = sweep_sarif(report)
    jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text("utf-8"))).validate(log)
    assert [(r["ruleId"], r["level"]) for r in log["runs"][0]["results"]] == [("regcheck/sweep-refused", "note")]
    root = ET.fromstring(sweep_junit(report))
    assert (root.findall("testsuite/testcase")[0].find("skipped").get("message"), root.get("failures"),  # type: ignore[union-attr]
            root.get("errors")) == (f"refused: {why}", "0", "0")
