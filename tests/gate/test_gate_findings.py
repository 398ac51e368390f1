"""The gate on cases: regressions, unknown verdicts, input errors and the accepted-findings baseline."""

from __future__ import annotations

import dataclasses
import shutil
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from pathlib import Path

import yaml
from click.testing import Result

from verifier.gate import GateOptions, render_gate, run_gate
from verifier.gate.findings import FINDINGS_FILE
from verifier.gate.model import Finding
from verifier.gate.run import check_folder
from verifier.language.encoding import RuleBase
from verifier.rulesdoc import RulesDocument
from verifier.solver.engine import DEFAULT_TIMEOUT_MS
from verifier.verdicts import CaseResult, Verdict

from .helpers import CONTRADICTION, NEGATED_IN_BATTLE_SCOPE, replace_in

Gate = Callable[..., Result]
UPKEEP = "cases/set-aside/upkeep-set-aside-counts-its-own-upkeep.yaml"
PROVISIONS = "cases/set-aside/provisions-returns-after-two-turns.yaml"


def _baseline(root: Path) -> list[dict[str, object]]:
    return yaml.safe_load((root / FINDINGS_FILE).read_text("utf-8"))["findings"]  # type: ignore[no-any-return]


def test_the_small_repository_passes_with_its_findings_accepted(gate: Gate, gate_repo: Path) -> None:
    passed = gate(gate_repo)
    assert passed.exit_code == 0, passed.output
    assert "accepted findings awaiting a ruling (3, in accepted-findings.yaml):" in passed.output
    assert f"  contradiction {CONTRADICTION} [" in passed.output
    assert f"  ambiguous {UPKEEP}::returns_at [" in passed.output
    assert passed.output.rstrip().endswith("gate passed")
    entries = _baseline(gate_repo)
    contradiction = next(e for e in entries if e["verdict"] == "contradiction")
    assert contradiction["case"] == CONTRADICTION and contradiction["question"] is None
    assert contradiction["rules"] and all(isinstance(r, str) and "[" not in r for r in contradiction["rules"])


def test_a_new_contradiction_or_ambiguity_fails(gate: Gate, gate_repo: Path) -> None:
    shutil.copy(gate_repo / CONTRADICTION, gate_repo / "cases" / "another-contradiction.yaml")
    shutil.copy(gate_repo / UPKEEP, gate_repo / "cases" / "another-ambiguity.yaml")
    failed = gate(gate_repo)
    assert failed.exit_code == 1
    out = failed.output
    assert "[consistency] cases/another-contradiction.yaml:" in out and "new contradiction finding" in out
    assert "[findings] cases/another-ambiguity.yaml:" in out and "new ambiguous finding" in out
    assert "conflicting set (" in out, "the evidence of a new contradiction is shown"
    assert "gate FAILED: 3 problems (consistency 1, findings 2)" in out


def test_an_accepted_finding_that_is_gone_fails(gate: Gate, gate_repo: Path) -> None:
    (gate_repo / CONTRADICTION).unlink()
    failed = gate(gate_repo)
    assert failed.exit_code == 1
    fingerprint = next(e["fingerprint"] for e in _baseline(gate_repo) if e["case"] == CONTRADICTION)
    assert (f"[baseline] accepted-findings.yaml:9: accepted contradiction finding {fingerprint} ({CONTRADICTION}) "
            "is no longer found: resolved? remove it from accepted-findings.yaml") in failed.output


def test_fingerprints_do_not_depend_on_lines_or_order(gate: Gate, gate_repo: Path) -> None:
    case = gate_repo / UPKEEP
    text = case.read_text("utf-8")
    data = yaml.safe_load(text)
    questions = list(data["questions"].items())
    block = "".join(f"  {k}: {v}\n" for k, v in questions)
    assert len(questions) == 2 and block in text
    moved = "# moved down by comments\n" * 5 + text.replace(block, "".join(f"  {k}: {v}\n" for k, v in reversed(questions)))
    case.write_text(moved, encoding="utf-8")
    passed = gate(gate_repo)
    assert passed.exit_code == 0, passed.output


def test_accept_findings_keeps_notes_and_adds_new_findings(gate: Gate, gate_repo: Path) -> None:
    replace_in(gate_repo / FINDINGS_FILE, "note: FINDING (ambiguous). A Hero", "note: Committee asked. A Hero")
    # an entry as it was accepted before a rule joined its ambiguity: one rule fewer, and the fingerprint of that
    data = yaml.safe_load((gate_repo / FINDINGS_FILE).read_text("utf-8"))
    entry = next(e for e in data["findings"] if e["case"] == UPKEEP and not e["note"].startswith("Committee"))
    rules, fingerprint = list(entry["rules"]), entry["fingerprint"]
    was = Finding(UPKEEP, entry["question"], entry["verdict"], tuple(rules[:-1]))
    entry.update(fingerprint=was.fingerprint, rules=rules[:-1], note="Asked again. " + entry["note"])
    (gate_repo / FINDINGS_FILE).write_text(yaml.safe_dump(data, sort_keys=False), "utf-8")
    failed = gate(gate_repo)
    assert failed.exit_code == 1
    assert f"which replaces accepted finding {was.fingerprint}: the rules involved changed" in failed.output
    shutil.copy(gate_repo / CONTRADICTION, gate_repo / "cases" / "another-contradiction.yaml")
    accepted = gate(gate_repo, "--accept-findings")
    assert accepted.exit_code == 0, accepted.output
    entries = _baseline(gate_repo)
    assert len(entries) == 4
    assert sum(1 for e in entries if str(e["note"]).startswith("Committee asked. A Hero")) == 1
    # the finding that replaced an accepted one takes over its note
    [now] = [e for e in entries if (e["case"], e["question"]) == (UPKEEP, entry["question"])]
    assert (now["fingerprint"], now["rules"], now["note"]) == (fingerprint, rules, entry["note"])
    new = next(e for e in entries if e["case"] == "cases/another-contradiction.yaml")
    assert new["note"] == "A set-aside negated in the Draw Phase returns outside a Preparation Phase"  # the title
    assert [e["case"] for e in entries] == sorted(e["case"] for e in entries)


def test_an_edited_baseline_entry_is_bad_input(gate: Gate, gate_repo: Path) -> None:
    replace_in(gate_repo / FINDINGS_FILE, "verdict: contradiction", "verdict: ambiguous")
    bad = gate(gate_repo)
    assert bad.exit_code == 2
    assert "accepted-findings.yaml:9:3: fingerprint" in bad.stderr
    assert "does not match the case, question, verdict and rules of the entry" in bad.stderr


def test_an_unmet_expectation_fails_with_its_evidence(gate: Gate, gate_repo: Path) -> None:
    replace_in(gate_repo / PROVISIONS, "value: turn 3 Preparation", "value: turn 2 Preparation")
    failed = gate(gate_repo)
    assert failed.exit_code == 1
    line = next(i for i, x in enumerate((gate_repo / PROVISIONS).read_text("utf-8").splitlines(), 1)
                if x.startswith("  returns_at:"))
    assert (f"[regressions] {PROVISIONS}:{line}: returns_at: expected determined = turn 2 Preparation (bob), "
            "got determined = turn 3 Preparation (alice)") in failed.output
    assert "expected determined = turn 2 Preparation (bob): does NOT match" in failed.output


def test_an_unreadable_case_is_bad_input_and_reported(gate: Gate, gate_repo: Path, repo_root: Path) -> None:
    shutil.copy(repo_root / "tests" / "malformed" / "case-unknown-field.yaml", gate_repo / "cases" / "broken.yaml")
    bad = gate(gate_repo)
    assert bad.exit_code == 2
    assert "[input] cases/broken.yaml:6: " in bad.output and "unknown field 'brigades'" in bad.output
    junit = ET.fromstring(gate(gate_repo, "--format", "junit").stdout)
    assert junit.get("errors") == "1"
    broken = next(s for s in junit.findall("testsuite") if s.get("name") == "cases/broken.yaml")
    error = broken.find("testcase/error")
    assert error is not None and error.get("type") == "input" and "unknown field 'brigades'" in error.get("message", "")


def test_unknown_is_a_failure_even_when_expected(gate_repo: Path) -> None:
    """The solver giving up fails the gate with its reason, whatever the case expects."""
    real = check_folder(GateOptions(DEFAULT_TIMEOUT_MS, jobs=1))

    def giving_up(rules: RuleBase, doc: Callable[[], RulesDocument], files: list[Path]) -> Iterator[CaseResult | str]:
        for result in real(rules, doc, files):
            if isinstance(result, CaseResult) and result.case.endswith("provisions-returns-after-two-turns.yaml"):
                first = dataclasses.replace(result.results[0], verdict=Verdict.UNKNOWN, value=None, ok=False,
                                            expected="unknown", reason="timeout after 10 s")
                result = dataclasses.replace(result, results=(first, *result.results[1:]))
            yield result

    report = run_gate(gate_repo, GateOptions(DEFAULT_TIMEOUT_MS, jobs=1, mutate=False), giving_up)
    assert [(p.check, p.case, p.question) for p in report.problems] == [("unknown", PROVISIONS, "legal")]
    assert "[unknown] " in render_gate(report) and "legal: the solver gave up: timeout after 10 s" in render_gate(report)




def test_a_scopes_new_finding_fails_the_gate_until_accepted(gate: Gate, gate_repo: Path) -> None:
    (gate_repo / "scopes").mkdir()
    (gate_repo / "scopes" / "negated-in-battle.yaml").write_text(NEGATED_IN_BATTLE_SCOPE, "utf-8")
    failed = gate(gate_repo)
    assert failed.exit_code == 1
    assert ("[consistency] scopes/negated-in-battle.yaml:1: new contradiction finding " in failed.output
            and "(the rules contradict each other in scenarios of this scope; rules " in failed.output), failed.output
    assert "scopes: 1 scope searched for findings" in failed.output

    assert gate(gate_repo, "--accept-findings").exit_code == 0
    [entry] = [e for e in _baseline(gate_repo) if e["case"] == "scopes/negated-in-battle.yaml"]
    assert entry["verdict"] == "contradiction" and entry["question"] is None and "SA-5" in entry["rules"]
    assert gate(gate_repo).exit_code == 0
