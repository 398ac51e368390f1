"""The gate's report as SARIF 2.1.0, which code-scanning tools show beside the lines involved.

Each problem is an error result at the line to fix (a statement in rules/, a rule in encodings/,
a question in cases/), with related locations for the lines behind it: the rule instances and
case facts of a conflicting set, the rules involved and the statements they cite. Accepted
findings are results suppressed by the accepted-findings file; with --base, each change of
answer is a note. Paths are relative to the repository root (`%SRCROOT%`).
"""

from __future__ import annotations

__all__ = ["gate_sarif"]

from typing import Any

from .. import __version__
from .model import CHECKS, GateReport, Place, Problem, QuestionOutcome
from .render import change_text

BASE = "%SRCROOT%"
EXTRA_RULES = {
    "accepted-finding": "an ambiguity or contradiction awaiting a ruling, accepted in the baseline",
    "change": "an answer that differs from the one at the base revision",
}


def _location(place: Place, message: str | None = None, index: int | None = None) -> dict[str, Any]:
    loc: dict[str, Any] = {"physicalLocation": {"artifactLocation": {"uri": place.path, "uriBaseId": BASE},
                                                "region": {"startLine": max(place.line, 1)}}}
    if index is not None:
        loc["id"] = index
    if message:
        loc["message"] = {"text": message}
    return loc


def _result(rule_ids: list[str], rule: str, level: str, message: str, place: Place | None,
            related: tuple[tuple[Place, str], ...] = ()) -> dict[str, Any]:
    result: dict[str, Any] = {"ruleId": f"regcheck/{rule}", "ruleIndex": rule_ids.index(rule), "level": level,
                              "message": {"text": message}}
    if place is not None:
        result["locations"] = [_location(place)]
    if related:
        result["relatedLocations"] = [_location(p, what, i) for i, (p, what) in enumerate(related)]
    return result


def _problem(rule_ids: list[str], p: Problem) -> dict[str, Any]:
    about = f"{p.question}: " if p.question else ""
    return _result(rule_ids, p.check, "error", f"{about}{p.message}", p.place, p.related)


def gate_sarif(report: GateReport) -> dict[str, Any]:
    """The report as a SARIF 2.1.0 log with one run."""
    rule_ids = [*CHECKS, *EXTRA_RULES]
    descriptions = {**CHECKS, **EXTRA_RULES}
    results = [_problem(rule_ids, p) for p in report.problems]
    first: dict[str, QuestionOutcome] = {}
    for q in report.questions:
        if q.accepted is not None:
            first.setdefault(q.accepted.finding.fingerprint, q)
    for a in report.accepted:
        shown = first.get(a.finding.fingerprint)
        if shown is None:
            continue
        f = a.finding
        result = _result(rule_ids, "accepted-finding", "note",
                         f"{f.verdict} ({f.name}; rules {', '.join(f.rules)}): {a.note}", shown.place,
                         ((a.place, f"accepted in {report.findings_file}"), *shown.related))
        result["suppressions"] = [{"kind": "external", "justification": a.note}]
        result["partialFingerprints"] = {"regcheckFinding/v1": f.fingerprint}
        results.append(result)
    for c in report.changes:
        results.append(_result(rule_ids, "change", "note", f"since {report.base}: {change_text(c)}", c.place))
    run: dict[str, Any] = {
        "tool": {"driver": {
            "name": "regcheck",
            "version": __version__,
            "rules": [{"id": f"regcheck/{r}", "name": r, "shortDescription": {"text": descriptions[r]}}
                      for r in rule_ids],
        }},
        "columnKind": "unicodeCodePoints",
        "results": results,
    }
    checks = report.base_checks
    if checks is not None:  # what was checked again at the base: the others kept their answers of now
        run["properties"] = {"base": report.base, "baseCases": checks.cases,
                             "baseCasesChecked": len(checks.cases_checked), "baseScopes": checks.scopes,
                             "baseScopesChecked": len(checks.scopes_checked)}
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [run],
    }
