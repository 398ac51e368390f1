"""The gate's report as text for people and as JSON for programs."""

from __future__ import annotations

__all__ = ["render_gate", "gate_json", "change_text", "base_check_lines"]

from typing import Any

from ..escaping import escape_lines
from ..report import render_question
from ..terminal import plural
from .model import CHECKS, BaseChecks, Change, GateReport, Problem, QuestionOutcome


def change_text(c: Change) -> str:
    """One line saying how a case or question's answer changed."""
    if c.question is None and c.before is None and c.after == "case present":
        return f"{c.case}: new case"
    if c.question is None and c.after is None and c.before == "case present":
        return f"{c.case}: case removed"
    return f"{c.name}: {c.before or '(not asked)'} -> {c.after or '(not asked)'}"


MAX_CHANGED_SHOWN = 10  # rules and definitions named in the line of what changed in the encodings


def _their(reason: str) -> str:
    """A case's reason said of several: 'its text changed' -> 'their text changed'."""
    parts = []
    for part in reason.split("; "):
        for one, many in (("its ", "their "), ("it is ", "they are "), ("it cannot ", "they cannot "),
                          ("the solver gave up on it ", "the solver gave up on them ")):
            if part.startswith(one):
                part = many + part[len(one):]
                break
        parts.append(part)
    return "; ".join(parts)


def base_check_lines(base: str, checks: BaseChecks) -> list[str]:
    """What was checked again at the base, grouped by why (`re-checked 12 of 335 cases and 1 of 5 scopes at
    main: their grounding holds an instance of SA-6b (changed)`), and what changed in the encodings."""
    counted = [f"{len(checks.cases_checked)} of {plural(checks.cases, 'case')}"]
    if checks.scopes:
        counted.append(f"{len(checks.scopes_checked)} of {plural(checks.scopes, 'scope')}")
    head = f"re-checked {' and '.join(counted)} at {base}"
    groups: dict[str, list[int]] = {}
    for index, items in enumerate((checks.cases_checked, checks.scopes_checked)):
        for _, why in items:
            groups.setdefault(why, [0, 0])[index] += 1
    ordered = sorted(groups.items(), key=lambda kv: (-sum(kv[1]), kv[0]))
    if len(ordered) == 1:
        [(why, (cases, scopes))] = ordered
        lines = [f"{head}: {_their(why) if cases + scopes > 1 else why}"]
    else:
        lines = [head + (":" if ordered else "")]
        for why, (cases, scopes) in ordered:
            who = " and ".join(([plural(cases, "case")] if cases else []) + ([plural(scopes, "scope")] if scopes else []))
            lines.append(f"  {who}: {_their(why) if cases + scopes > 1 else why}")
    lines[-1] += "; the others keep their answers (the same text, and no instance of a changed rule in their grounding)"
    shown = [f"{name} ({how})" for name, how in checks.changed]
    if len(shown) > MAX_CHANGED_SHOWN:
        shown = shown[:MAX_CHANGED_SHOWN] + [f"and {len(shown) - MAX_CHANGED_SHOWN} more"]
    lines.append(f"rules and definitions changed since {base}: {', '.join(shown) or 'none'}")
    return lines


def _problem_lines(p: Problem, outcomes: dict[tuple[str, str], QuestionOutcome]) -> list[str]:
    where = f"{p.place}: " if p.place else ""
    about = f"{p.question}: " if p.question and p.check in ("regressions", "unknown") else ""
    lines = [f"  [{p.check}] {where}{about}{p.message}"]
    if p.check == "lock":
        lines += [f"      {place}  {what}" for place, what in p.related]
    outcome = outcomes.get((p.case or "", p.question or ""))
    if outcome is not None and p.check != "baseline":
        lines += ["    " + line for line in render_question(outcome.result)[1:]]
    return lines


def render_gate(report: GateReport) -> str:
    """The readable report: what was checked, accepted findings, every problem with its evidence, changes."""
    qs = report.questions
    failing = {(p.case, p.question) for p in report.problems if p.case and p.question}
    missing = report.statements - report.encoded - report.waived
    lines = [
        f"rules: {report.statements} statements: {report.encoded} encoded, {report.waived} waived, {missing} missing; "
        f"{report.locked} cited in {report.lock_file}",
        f"cases: {plural(report.cases, 'case')}, {plural(len(qs), 'question')}: "
        f"{sum(1 for q in qs if (q.case, q.question) not in failing)} "
        f"pass the gate",
    ]
    if report.rechecked is not None:
        why: dict[str, int] = {}
        for _, reason in report.rechecked:
            why[reason] = why.get(reason, 0) + 1
        reasons = "; ".join(f"{n}: {reason}" for reason, n in sorted(why.items(), key=lambda kv: (-kv[1], kv[0])))
        lines.append(f"cases checked again: {len(report.rechecked)}" + (f" ({reasons})" if reasons else "")
                     + f"; {report.cases - len(report.rechecked)} answered from the result cache")
    if report.scopes:
        lines.append(f"scopes: {plural(report.scopes, 'scope')} searched for findings")
    if report.deletions is not None:
        noticed, not_noticed = report.deletions
        lines.append(f"mutation: {plural(noticed + not_noticed, 'rule')} deleted one at a time: {noticed} noticed by "
                     f"a case, {not_noticed} not ({len(report.survivors)} accepted in {report.survivors_file})")
    if report.accepted:
        lines.append(f"accepted findings awaiting a ruling ({len(report.accepted)}, in {report.findings_file}):")
        for a in report.accepted:
            f = a.finding
            lines.append(f"  {f.verdict} {f.name} [{f.fingerprint}]")
            lines.append(f"      {a.note}")
    if report.base is not None and report.base_checks is not None:
        lines += base_check_lines(report.base, report.base_checks)
    if report.base is not None:
        lines.append(f"changes of verdict or value since {report.base} ({len(report.changes)}):")
        lines += [f"  {change_text(c)}" for c in report.changes] or ["  none"]
    outcomes = {(q.case, q.question): q for q in qs}
    for q in reversed(qs):  # a contradiction is about the whole case: its first question shows the conflict
        outcomes[(q.case, "")] = q
    if report.problems:
        lines.append(f"problems ({len(report.problems)}):")
        for p in report.problems:
            lines += _problem_lines(p, outcomes)
        counts = ", ".join(f"{check} {len(report.problems_of(check))}" for check in CHECKS
                           if report.problems_of(check))
        lines.append(f"gate FAILED: {plural(len(report.problems), 'problem')} ({counts})")
    else:
        lines.append("gate passed")
    return escape_lines("\n".join(lines))


def gate_json(report: GateReport) -> dict[str, Any]:
    """The report as plain JSON values, in a stable order."""
    checks = report.base_checks
    return {
        "passed": report.passed,
        "summary": {
            "statements": report.statements, "encoded": report.encoded, "waived": report.waived,
            "locked": report.locked, "cases": report.cases, "scopes": report.scopes, "questions": len(report.questions),
            "problems": {check: len(report.problems_of(check)) for check in CHECKS},
            "accepted_findings": len(report.accepted),
            "deletions_noticed": report.deletions[0] if report.deletions is not None else None,
            "deletions_not_noticed": report.deletions[1] if report.deletions is not None else None,
            "accepted_survivors": len(report.survivors),
            "cases_checked_again": len(report.rechecked) if report.rechecked is not None else None,
            "base_cases": checks.cases if checks is not None else None,
            "base_cases_checked": len(checks.cases_checked) if checks is not None else None,
            "base_scopes": checks.scopes if checks is not None else None,
            "base_scopes_checked": len(checks.scopes_checked) if checks is not None else None,
        },
        "checked_again": [{"case": case, "why": why} for case, why in report.rechecked or ()],
        "checked_at_base": ([{"case": case, "why": why} for case, why in checks.cases_checked]
                            + [{"scope": scope, "why": why} for scope, why in checks.scopes_checked]
                            if checks is not None else None),
        "changed_since_base": ([{"name": name, "how": how} for name, how in checks.changed]
                               if checks is not None else None),
        "problems": [
            {"check": p.check, "message": p.message, "place": str(p.place) if p.place else None,
             "case": p.case, "question": p.question,
             "related": [{"place": str(place), "what": what} for place, what in p.related]}
            for p in report.problems
        ],
        "accepted_findings": [
            {"fingerprint": a.finding.fingerprint, "case": a.finding.case, "question": a.finding.question,
             "verdict": a.finding.verdict, "rules": list(a.finding.rules), "note": a.note, "place": str(a.place)}
            for a in report.accepted
        ],
        "accepted_survivors": [{"rule": rule, "reason": reason, "place": str(place)}
                               for rule, reason, place in report.survivors],
        "questions": [
            {"case": q.case, "question": q.question, "place": str(q.place), "verdict": q.result.verdict.value,
             "value": q.result.value, "expected": q.result.expected, "expected_value": q.result.expected_value,
             "finding": q.finding.fingerprint if q.finding else None, "accepted": q.accepted is not None}
            for q in report.questions
        ],
        "base": report.base,
        "changes": [{"case": c.case, "question": c.question, "before": c.before, "after": c.after}
                    for c in report.changes],
    }
