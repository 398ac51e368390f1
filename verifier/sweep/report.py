"""The report of a sweep's results database: findings grouped by their statements at fault, each with the
combinations of cards that show it and its smallest witness case; the combinations that failed, were
left unknown or are still pending; the cards left out. As text, JSON, SARIF 2.1.0 or JUnit XML.

Findings are grouped as `explore` groups them within one scope: by verdict and statements at fault,
one finding per cause across combinations and questions (see `cause_of`). Within a group, the witness shown is the
smallest (fewest attempts, then fewest cards). A finding one of whose combinations shows the verdict
and the rules involved (or statements at fault) of a finding in the accepted-findings file (one gap in
the rules text, already recorded and awaiting a ruling) is listed apart as accepted and does not fail
the report.
"""

from __future__ import annotations

__all__ = ["SweepFinding", "SweepReport", "sweep_report", "render_sweep", "sweep_json", "sweep_sarif", "sweep_junit"]

import hashlib
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from .. import __version__
from ..escaping import escape_text
from ..explore.search import RULES_INVOLVED, Key, cause_of
from ..rulesdoc import statement_order
from ..terminal import plural
from .store import SHOWN_STATUSES, STATUSES, Row, read_store

if TYPE_CHECKING:
    from ..gate.model import AcceptedFinding



class SweepFinding(NamedTuple):
    """One finding of a sweep: its cause, the combinations that show it, and its smallest witness."""

    verdict: str
    symbol: str
    rules: tuple[str, ...]
    combinations: tuple[str, ...]
    scenarios: int  # scenarios showing it, over every combination
    witness_combination: str
    witness: dict[str, Any]  # question, attempts, turns, cards, case
    accepted: tuple[str, ...] = ()  # the accepted findings it is ("CASE: QUESTION"); none when it is new
    at_fault: tuple[str, ...] = ()  # the statements at fault: its cause
    at_fault_from: str = ""  # what they come from (see `ExploreFinding`)


class SweepReport(NamedTuple):
    """A results database read and grouped."""

    database: str
    run: dict[str, Any]
    counts: dict[str, int]
    findings: tuple[SweepFinding, ...]
    rows: tuple[Row, ...]

    @property
    def new(self) -> tuple[SweepFinding, ...]:
        """The findings not in the accepted-findings file."""
        return tuple(f for f in self.findings if not f.accepted)

    @property
    def passed(self) -> bool:
        """Every combination was searched in full and none shows a finding that is not accepted."""
        return not self.new and self.counts["done"] == len(self.rows)


def sweep_report(database: Path, accepted: Sequence[AcceptedFinding] = ()) -> SweepReport:
    """Read a results database and group its findings, telling apart those with the verdict and rules of
    an `accepted` finding."""
    known: dict[tuple[str, frozenset[str]], list[str]] = {}
    for a in accepted:
        known.setdefault((a.finding.verdict, frozenset(a.finding.rules)), []).append(
            f"{a.finding.case}: {a.finding.question or 'the whole case'}")
    run, rows = read_store(database)
    counts = dict.fromkeys(STATUSES, 0)
    for r in rows:
        counts[r.status] += 1
    shown: dict[Key, list[tuple[Row, dict[str, Any]]]] = {}
    for r in rows:
        for f in r.findings:
            # a store written before findings had statements at fault: grouped by their rules involved
            key = (f["verdict"], f.get("at_fault_from", RULES_INVOLVED), tuple(f.get("at_fault") or f["rules"]))
            shown.setdefault(key, []).append((r, f))
    groups: dict[Key, list[tuple[Row, dict[str, Any]]]] = {}
    for key, found in shown.items():
        groups.setdefault(cause_of(key, shown), []).extend(found)
    findings = []
    for (verdict, at_fault_from, at_fault), found in groups.items():
        row, first = min(found, key=lambda rf: (len(rf[1]["attempts"]), len(rf[1]["cards"]), rf[0].position))
        combos = tuple(dict.fromkeys(r.key for r, _ in sorted(found, key=lambda rf: rf[0].position)))
        matched = [a for rules in dict.fromkeys([at_fault, *(tuple(f["rules"]) for _, f in found)])
                   for a in known.get((verdict, frozenset(rules)), ())]
        findings.append(SweepFinding(verdict, first["symbol"], tuple(first["rules"]), combos,
                                     sum(f["scenarios"] for _, f in found), row.key,
                                     {k: first[k] for k in ("question", "attempts", "turns", "cards", "case")},
                                     tuple(dict.fromkeys(matched)), at_fault, at_fault_from))
    findings.sort(key=lambda f: (bool(f.accepted), f.verdict, [statement_order(r) for r in f.at_fault]))
    return SweepReport(str(database), run, counts, tuple(findings), tuple(rows))


def _cause_text(f: SweepFinding) -> str:
    what = f"{f.verdict} of {f.symbol}" if f.symbol else f"{f.verdict} of the whole scenario"
    return f"{what}; statements at fault: {', '.join(f.at_fault) or 'none'}; rules involved: {', '.join(f.rules) or 'none'}"


def render_sweep(report: SweepReport) -> str:
    """The report for people."""
    run, c = report.run, report.counts
    template = run["template"]
    lines = [f"{escape_text(report.database)}: {plural(len(report.rows), 'combination')} of {template['size']} cards: "
             + ", ".join(f"{c[s]} {s}" for s in SHOWN_STATUSES),
             f"  rule base {run['rules_fingerprint']}, cards {run['cards_fingerprint']}, "
             f"template {run['template_fingerprint']} (turns {template['turns']}, phases {', '.join(template['phases'])}, "
             f"attempts {', '.join(template['attempts'])}, {template['per_phase']} per phase, "
             f"at most {template['max_attempts']})",
             f"  cards combined: {len(run['cards'])}; left out: {len(run['skipped'])}"]
    new, accepted = len(report.new), len(report.findings) - len(report.new)
    lines.append(f"{new} new finding{'s' if new != 1 else ''}, {accepted} accepted, by their statements at fault:")
    for i, f in enumerate(report.findings):
        if f.accepted and (i == 0 or not report.findings[i - 1].accepted):
            lines.append("accepted (the same verdict and rules as a finding of accepted-findings.yaml):")
        lines.append(f"  {_cause_text(f)}")
        if f.accepted:
            lines.append(f"    accepted as {escape_text('; '.join(f.accepted))}")
        more = f" and {len(f.combinations) - 5} more" if len(f.combinations) > 5 else ""
        lines.append(f"    in {len(f.combinations)} combination{'s' if len(f.combinations) != 1 else ''} "
                     f"({f.scenarios} scenarios): {escape_text('; '.join(f.combinations[:5]))}{more}")
        w = f.witness
        lines.append(f"    witness ({escape_text(f.witness_combination)}): {escape_text(w['question'])}, "
                     f"after {escape_text(', '.join(w['attempts']) or 'no attempts')}")
        lines += [f"      {escape_text(line)}" for line in w["case"].rstrip("\n").split("\n")]
    for status in ("refused", "failed", "unknown"):
        rows = [r for r in report.rows if r.status == status]
        if rows:
            lines.append(f"{status}{REFUSED_MEANS if status == 'refused' else ''}:")
            lines += [f"  {escape_text(r.key)}: {escape_text(r.error)}" for r in rows]
    if run["skipped"]:
        lines.append("cards left out:")
        lines += [f"  {escape_text(s['name'])}: {escape_text(s['reason'])}" for s in run["skipped"]]
    return "\n".join(lines)


def sweep_json(report: SweepReport) -> dict[str, Any]:
    """The report for programs."""
    return {
        "database": report.database,
        "run": report.run,
        "summary": {**report.counts, "combinations": len(report.rows), "findings": len(report.findings),
                    "new_findings": len(report.new)},
        "findings": [{"verdict": f.verdict, "symbol": f.symbol or None, "at_fault": list(f.at_fault), "rules": list(f.rules),
                      "accepted": list(f.accepted),
                      "combinations": list(f.combinations), "scenarios": f.scenarios,
                      "witness": {"combination": f.witness_combination, **f.witness}} for f in report.findings],
        "combinations": [{"key": r.key, "cards": list(r.cards), "status": r.status, "scenarios": r.scenarios,
                          "findings": len(r.findings), "error": r.error or None, "seconds": r.seconds,
                          "cpu_seconds": r.cpu_seconds}
                         for r in report.rows],
    }


def _fingerprint(*parts: object) -> str:
    return hashlib.sha256("\0".join(map(str, parts)).encode()).hexdigest()[:16]


SARIF_RULES = {
    "sweep-contradiction": "the rules admit no outcome for a combination of real cards",
    "sweep-ambiguous": "two outcomes that share every input and choice answer a question differently",
    "sweep-failed": "a combination could not be searched",
    "sweep-unknown": "a combination's search was cut short or a check gave up",
    "sweep-refused": "regcheck will not answer a combination's scope without guessing",
}
# What a refused combination is, shown with the list of them.
REFUSED_MEANS = " (regcheck will not answer these scopes without guessing, for the reason given)"


def sweep_sarif(report: SweepReport) -> dict[str, Any]:
    """The report as a SARIF 2.1.0 log: a result per finding (with its combinations and witness), and one per
    combination that failed or was left unknown. A sweep has no source line to point at: the results carry
    the database as their location."""
    ids = list(SARIF_RULES)
    where = [{"physicalLocation": {"artifactLocation": {"uri": Path(report.database).name}}}]
    results: list[dict[str, Any]] = []
    for f in report.findings:
        rule = f"sweep-{f.verdict}"
        results.append({
            "ruleId": f"regcheck/{rule}", "ruleIndex": ids.index(rule), "level": "note" if f.accepted else "error",
            "baselineState": "unchanged" if f.accepted else "new",
            "message": {"text": f"{_cause_text(f)}; in {plural(len(f.combinations), 'combination')}, first "
                                f"{f.witness_combination}; witness: {f.witness['question']}"},
            "locations": where,
            "partialFingerprints": {"regcheckSweepFinding/v1": _fingerprint(f.verdict, *f.at_fault)},
            "properties": {"combinations": list(f.combinations), "witness": f.witness["case"]},
        })
    for r in report.rows:
        if r.status in ("refused", "failed", "unknown"):
            rule = f"sweep-{r.status}"
            results.append({"ruleId": f"regcheck/{rule}", "ruleIndex": ids.index(rule),
                            "level": {"failed": "error", "unknown": "warning", "refused": "note"}[r.status],
                            "message": {"text": f"{r.key}: {r.error}"}, "locations": where})
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "regcheck", "version": __version__,
                                "rules": [{"id": f"regcheck/{r}", "name": r, "shortDescription": {"text": SARIF_RULES[r]}}
                                          for r in ids]}},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }


def sweep_junit(report: SweepReport) -> str:
    """The report as JUnit XML: a test case per combination, failing when it shows a finding that is not
    accepted, an error when it failed or was left unknown, skipped while pending."""
    root = ET.Element("testsuites", name="regcheck sweep")
    suite = ET.SubElement(root, "testsuite", name=f"sweep {Path(report.database).name}")
    by_combination: dict[str, list[SweepFinding]] = {}
    for f in report.new:
        for key in f.combinations:
            by_combination.setdefault(key, []).append(f)
    failures = errors = skipped = 0
    for r in report.rows:
        case = ET.SubElement(suite, "testcase", classname="sweep", name=r.key, time=str(r.seconds or 0))
        found = by_combination.get(r.key, [])
        if found:
            failures += 1
            ET.SubElement(case, "failure", message=f"{len(found)} finding(s)", type="finding").text = \
                "\n".join(_cause_text(f) for f in found)
        elif r.status in ("failed", "unknown"):
            errors += 1
            ET.SubElement(case, "error", message=r.error or r.status, type=r.status)
        elif r.status == "pending":
            skipped += 1
            ET.SubElement(case, "skipped", message="not searched yet")
        elif r.status == "refused":
            skipped += 1
            ET.SubElement(case, "skipped", message=f"refused: {r.error}")
    for element in (suite, root):
        element.set("tests", str(len(report.rows)))
        element.set("failures", str(failures))
        element.set("errors", str(errors))
    suite.set("skipped", str(skipped))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
