"""The gate's report as JUnit XML, which CI systems display as test results.

One test suite for the rules (a test case per traceability check, and one for the accepted
findings), one per case file (a test case per question), and, with --base, one listing the
changes since that revision in its system-out. Times are not measured, so that the same
repository gives the same file.
"""

from __future__ import annotations

__all__ = ["gate_junit"]

import xml.etree.ElementTree as ET

from ..report import render_question
from .model import CHECKS, GateReport, Problem
from .render import change_text

RULE_CHECKS = ("coverage", "citations", "lock", "baseline", "cards", "mutation")


def _failure(case: ET.Element, problems: list[Problem], kind: str = "failure") -> None:
    if not problems:
        return
    first = problems[0]
    message = first.message if len(problems) == 1 else f"{len(problems)} problems; first: {first.message}"
    element = ET.SubElement(case, kind, message=message, type=first.check)
    lines = []
    for p in problems:
        lines.append(f"{p.place}: {p.message}" if p.place else p.message)
        lines += [f"    {place}  {what}" for place, what in p.related]
    element.text = "\n".join(lines)


def _suite(parent: ET.Element, name: str) -> ET.Element:
    return ET.SubElement(parent, "testsuite", name=name)


def _count(suite: ET.Element) -> tuple[int, int, int]:
    cases = suite.findall("testcase")
    failures = sum(1 for c in cases if c.find("failure") is not None)
    errors = sum(1 for c in cases if c.find("error") is not None)
    suite.set("tests", str(len(cases)))
    suite.set("failures", str(failures))
    suite.set("errors", str(errors))
    suite.set("skipped", "0")
    suite.set("time", "0")
    return len(cases), failures, errors


def gate_junit(report: GateReport, name: str = "regcheck gate", rules_suite: bool = True) -> str:
    """The report as a JUnit XML document (testsuites/testsuite/testcase/failure); without `rules_suite`
    (for `regcheck check`, which checks cases only) the suite of the repository's checks is left out."""
    root = ET.Element("testsuites", name=name)
    if rules_suite:
        rules = _suite(root, "rules")
        for check in RULE_CHECKS:
            case = ET.SubElement(rules, "testcase", classname="rules", name=f"{check}: {CHECKS[check]}", time="0")
            _failure(case, report.problems_of(check))
    by_case: dict[str, list[Problem]] = {}
    for p in report.problems:
        if p.case and p.check not in RULE_CHECKS:
            by_case.setdefault(p.case, []).append(p)
    cases = sorted({q.case for q in report.questions} | {p.case for p in report.problems_of("input") if p.case})
    for name in cases:
        suite = _suite(root, name)
        suite.set("file", name)
        classname = name.rsplit(".", 1)[0].replace("/", ".")
        problems = by_case.get(name, [])
        unreadable = [p for p in problems if p.check == "input"]
        if unreadable:
            case = ET.SubElement(suite, "testcase", classname=classname, name="(case file)", file=name, time="0")
            _failure(case, unreadable, "error")
        for q in (q for q in report.questions if q.case == name):
            case = ET.SubElement(suite, "testcase", classname=classname, name=q.question, file=name,
                                 line=str(q.place.line), time="0")
            _failure(case, [p for p in problems if p.question == q.question
                            or (p.question is None and p.check == "consistency")])
            out = render_question(q.result)
            if q.accepted is not None:
                out.append(f"    accepted finding {q.accepted.finding.fingerprint}: {q.accepted.note}")
            ET.SubElement(case, "system-out").text = "\n".join(out)
    if report.base is not None:
        suite = _suite(root, f"changes since {report.base}")
        checks = report.base_checks
        if checks is not None:  # what was checked again at the base: the others kept their answers of now
            properties = ET.SubElement(suite, "properties")
            for name, value in (("base_cases", checks.cases), ("base_cases_checked", len(checks.cases_checked)),
                                ("base_scopes", checks.scopes), ("base_scopes_checked", len(checks.scopes_checked))):
                ET.SubElement(properties, "property", name=name, value=str(value))
        ET.SubElement(suite, "system-out").text = "\n".join(change_text(c) for c in report.changes) or "none"
    totals = [_count(s) for s in root.findall("testsuite")]
    root.set("tests", str(sum(t[0] for t in totals)))
    root.set("failures", str(sum(t[1] for t in totals)))
    root.set("errors", str(sum(t[2] for t in totals)))
    root.set("time", "0")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
