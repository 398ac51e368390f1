"""Findings and the accepted-findings baseline.

A finding is an ambiguous question, or a case whose rules contradict each other. Known
findings awaiting a ruling are listed in `accepted-findings.yaml` at the repository root,
each by its fingerprint (see `Finding`) with a note; the gate reports them without failing.
It fails on a finding that is not listed, and on a listed one that is no longer found.
"""

from __future__ import annotations

__all__ = ["FINDINGS_FILE", "findings_of", "read_baseline", "write_baseline", "default_note"]

import re
from pathlib import Path

import yaml

from ..errors import InputError
from ..files import FileState, write_file
from ..rulesdoc import statement_order
from ..verdicts import CaseResult, Verdict
from ..yamlsource import YMap, YScalar, YSeq, load_yaml
from .model import AcceptedFinding, Finding, Place

FINDINGS_FILE = "accepted-findings.yaml"
HEADER = """\
# Findings of regcheck that are known and await a ruling: ambiguities (one question) and contradictions
# (a whole case), in the bundled cases and in the scenarios of the scopes under scopes/ (there, one
# finding per cause: no question, and `rules` lists its statements at fault). `regcheck gate` reports
# them but does not fail on them; it fails on a finding not listed here, and on a listed one it no longer
# finds. A fingerprint is a hash of the case's (or scope's) path, the question, the verdict and the rules
# involved (a scope's: the statements at fault). Refresh this file with `regcheck gate --accept-findings`
# (notes of findings still found are kept), then edit the notes.
"""
FINGERPRINT = re.compile(r"^[0-9a-f]{16}$")


def findings_of(case: str, result: CaseResult) -> dict[str, Finding]:
    """The findings of one case, keyed by question; every question of a contradictory case shares one."""
    out: dict[str, Finding] = {}
    for r in result.results:
        if r.verdict is Verdict.CONTRADICTION:
            rules = sorted({item.label.split("[", 1)[0] for item in r.core if item.kind == "rule"}, key=statement_order)
            out[r.question] = Finding(case, None, r.verdict.value, tuple(rules))
        elif r.verdict is Verdict.AMBIGUOUS:
            out[r.question] = Finding(case, r.question, r.verdict.value, tuple(sorted(r.rules_involved, key=statement_order)))
    return out


def default_note(result: CaseResult) -> str:
    """A first note for a newly accepted finding: the FINDING part of the case's note, else its title."""
    note = " ".join(result.note.split())
    at = note.find("FINDING")
    return note[at:] if at >= 0 else result.title


def _text(node: object, what: str) -> str:
    if not isinstance(node, YScalar) or not isinstance(node.value, str) or not node.value.strip():
        if isinstance(node, YScalar):
            node.fail(f"{what} must be text, got {node.kind}")
        raise InputError(f"{what} is missing")
    return node.value


def read_baseline(path: Path, root: Path) -> list[AcceptedFinding]:
    """The accepted findings; none when the file does not exist. A malformed entry is an input error."""
    if not path.is_file():
        return []
    node, _ = load_yaml(path, InputError)
    if not isinstance(node, YMap):
        node.fail("the accepted-findings file must be a mapping with a list of 'findings'")
    node.check_keys(["findings"], "the accepted-findings file")
    entries = node.get("findings")
    if entries is None or (isinstance(entries, YScalar) and entries.value is None):
        return []
    if not isinstance(entries, YSeq):
        entries.fail("'findings' must be a list")
    out: list[AcceptedFinding] = []
    seen: dict[str, Place] = {}
    for entry in entries:
        if not isinstance(entry, YMap):
            entry.fail("a finding must be a mapping with fingerprint, case, question, verdict, rules and note")
        entry.check_keys(["fingerprint", "case", "question", "verdict", "rules", "note"], "a finding")
        fingerprint = _text(entry.require("fingerprint", "a finding"), "fingerprint")
        if not FINGERPRINT.match(fingerprint):
            entry.fail(f"fingerprint {fingerprint!r} is not 16 hexadecimal digits")
        question = entry.get("question")
        if question is not None and not (isinstance(question, YScalar) and question.value is None):
            question_name: str | None = _text(question, "question")
        else:
            question_name = None
        verdict = _text(entry.require("verdict", "a finding"), "verdict")
        if verdict not in (Verdict.AMBIGUOUS.value, Verdict.CONTRADICTION.value):
            entry.fail(f"verdict must be ambiguous or contradiction, got {verdict!r}")
        rules_node = entry.require("rules", "a finding")
        if not isinstance(rules_node, YSeq):
            rules_node.fail("rules must be a list of rule IDs")
        rules = tuple(_text(r, "a rule ID") for r in rules_node)
        finding = Finding(_text(entry.require("case", "a finding"), "case"), question_name, verdict, rules)
        place = Place.of(entry.loc, root)
        if finding.fingerprint != fingerprint:
            entry.fail(f"fingerprint {fingerprint} does not match the case, question, verdict and rules of the entry "
                       f"(they give {finding.fingerprint}); refresh the file with `regcheck gate --accept-findings`")
        if fingerprint in seen:
            entry.fail(f"finding {fingerprint} is listed twice (first at {seen[fingerprint]})")
        seen[fingerprint] = place
        out.append(AcceptedFinding(finding, _text(entry.require("note", "a finding"), "note"), place))
    return out


def write_baseline(path: Path, accepted: list[tuple[Finding, str]], expected: FileState | None = None) -> None:
    """Write the accepted-findings file, sorted by case, question and verdict, atomically; with `expected`,
    only if the file is unchanged since it was read."""
    entries = [
        {"fingerprint": f.fingerprint, "case": f.case, "question": f.question, "verdict": f.verdict,
         "rules": list(f.rules), "note": note}
        for f, note in sorted(accepted, key=lambda a: (a[0].case, a[0].question or "", a[0].verdict))
    ]
    body = yaml.safe_dump({"findings": entries}, sort_keys=False, allow_unicode=True, width=100,
                          default_flow_style=None)
    write_file(path, HEADER + body, expected)
