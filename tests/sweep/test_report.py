"""`regcheck sweep report`: findings grouped by the statements involved, as text, JSON, SARIF and JUnit."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import jsonschema
from click.testing import Result

from verifier.sweep import sweep_report
from verifier.sweep.store import read_store

Cli = Callable[..., Result]
SARIF_SCHEMA = Path(__file__).resolve().parents[1] / "gate" / "sarif-schema-2.1.0.json"
HEAL = "Miracle of Healing"


def test_findings_are_grouped_across_combinations(small_sweep: Path) -> None:
    report = sweep_report(small_sweep)
    _, rows = read_store(small_sweep)
    shown = {r.key for r in rows if r.findings}
    assert shown == {r.key for r in rows if HEAL in r.cards}  # only the heal shows findings here
    assert report.findings
    for f in report.findings:
        assert set(f.combinations) <= shown and f.rules
        assert f.witness_combination in f.combinations
        assert "expect:" in f.witness["case"] and f.verdict in f.witness["case"]
    grouped = {(f.verdict, f.symbol, f.rules) for f in report.findings}
    per_row = {(f["verdict"], f["symbol"], tuple(f["rules"])) for r in rows for f in r.findings}
    assert grouped <= per_row  # each group is named by a finding some combination showed
    assert not report.passed and report.counts["done"] == 6


def test_text_and_json(cli: Cli, small_sweep: Path) -> None:
    text = cli("sweep", "report", str(small_sweep))
    assert text.exit_code == 1
    assert "6 combinations of 2 cards: 6 done, 0 failed, 0 unknown, 0 pending" in text.output
    assert "by the statements involved:" in text.output and "witness (" in text.output
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


def test_junit_has_a_test_case_per_combination(cli: Cli, small_sweep: Path) -> None:
    root = ET.fromstring(cli("sweep", "report", str(small_sweep), "--format", "junit").output)
    cases = root.findall("testsuite/testcase")
    assert len(cases) == 6
    failing = {c.get("name") for c in cases if c.find("failure") is not None}
    assert failing == {c.get("name") for c in cases if HEAL in (c.get("name") or "")}
    assert root.get("failures") == "3"
