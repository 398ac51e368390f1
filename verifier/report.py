"""Render results as text for people and as JSON for programs."""

from __future__ import annotations

__all__ = ["render_case", "results_json", "render_rules", "rules_json", "RuleStatus", "rule_statuses"]

from typing import Any, NamedTuple

from .language.encoding import RuleBase
from .rulesdoc import RulesDocument
from .verdicts import CaseResult, CoreItem, QuestionResult, Verdict, Witness


def _side_by_side(a: Witness, b: Witness) -> list[str]:
    rows = [("question", a.value, b.value)] + [
        (name, va, vb) for (name, va), (_, vb) in zip(a.outcomes, b.outcomes)
    ]
    w0 = max(len(r[0]) for r in rows)
    w1 = max(len(r[1]) for r in rows + [("", "outcome 1", "")])
    lines = [f"      {'':<{w0}}  {'outcome 1':<{w1}}  outcome 2"]
    lines += [f"      {n:<{w0}}  {x:<{w1}}  {y}" for n, x, y in rows]
    return lines


def _core(items: tuple[CoreItem, ...], verified: bool) -> list[str]:
    """The conflicting set, one entry per rule (its instances folded together), then the facts."""
    check = "re-checked: conflicting and minimal" if verified else "NOT re-checked as minimal"
    rules = [i for i in items if i.kind == "rule"]
    facts = [i for i in items if i.kind == "fact"]
    lines = [f"    conflicting set ({len(rules)} rule instances, {len(facts)} facts; {check}):"]
    groups: dict[str, list[CoreItem]] = {}
    for item in rules:
        groups.setdefault(item.label.split("[", 1)[0], []).append(item)
    for rule_id, group in groups.items():
        first = group[0]
        tag = " (interpretation)" if first.interpretation else ""
        if len(group) == 1:
            lines.append(f"    - {first.label}{tag}: {first.text}  ({first.location})")
        else:
            bindings = ", ".join(i.label[len(rule_id):] for i in group)
            lines.append(f"    - {rule_id}{tag} x{len(group)}: {bindings}  ({first.location})")
            lines.append(f"        e.g. {first.text}")
        for sid, text in first.statements:
            lines.append(f"        {sid}: {text}")
    if facts:
        lines.append("    scenario facts:")
        lines += [f"    - {f.text}  ({f.location})" for f in facts]
    return lines


def render_question(r: QuestionResult, evidence: bool = True) -> list[str]:
    """One question's verdict and expectation; with `evidence`, also what backs the verdict."""
    mark = "ok  " if r.ok else "FAIL"
    value = f" = {r.value}" if r.value is not None else ""
    lines = [f"  {mark} {r.question}: {r.verdict.value}{value}"]
    if r.expected is not None:
        exp_value = f" = {r.expected_value}" if r.expected_value is not None else ""
        status = "matches" if r.ok else "does NOT match"
        lines.append(f"    expected {r.expected}{exp_value}: {status}")
    if not evidence:
        return lines
    if r.verdict is Verdict.CHOICE_DEPENDENT:
        for w in r.witnesses:
            chosen = ", ".join(f"{n} = {v}" for n, v in w.choices) or "no choices"
            lines.append(f"    - {w.value}  when {chosen}")
    elif r.verdict is Verdict.AMBIGUOUS and len(r.witnesses) == 2:
        chosen = ", ".join(f"{n} = {v}" for n, v in r.witnesses[0].choices) or "none"
        lines.append(f"    two outcomes the rules both allow, with the same choices ({chosen}):")
        lines += _side_by_side(*r.witnesses)
    elif r.verdict is Verdict.CONTRADICTION:
        lines += _core(r.core, r.core_verified)
    if r.rules_involved and r.verdict is not Verdict.DETERMINED:
        lines.append(f"    rules involved: {', '.join(r.rules_involved)}")
    if r.reason:
        lines.append(f"    note: {r.reason}")
    return lines


def render_case(case: CaseResult) -> str:
    lines = [f"{case.case}: {case.title}"]
    contradiction = any(r.verdict is Verdict.CONTRADICTION for r in case.results)
    for i, r in enumerate(case.results):
        # one conflicting set serves every question of the case; print it once
        lines += render_question(r, evidence=not (contradiction and i > 0))
    return "\n".join(lines)


def _question_json(r: QuestionResult) -> dict[str, Any]:
    return {
        "case": r.case,
        "question": r.question,
        "verdict": r.verdict.value,
        "value": r.value,
        "expected": r.expected,
        "expected_value": r.expected_value,
        "ok": r.ok,
        "witnesses": [
            {"value": w.value, "choices": dict(w.choices), "outcomes": dict(w.outcomes)} for w in r.witnesses
        ],
        "core": [
            {"kind": c.kind, "label": c.label, "text": c.text, "location": c.location,
             "statements": [{"id": s, "text": t} for s, t in c.statements],
             "interpretation": c.interpretation}
            for c in r.core
        ],
        "core_verified": r.core_verified if r.core else None,
        "rules_involved": list(r.rules_involved),
        "reason": r.reason or None,
    }


def results_json(cases: list[CaseResult]) -> dict[str, Any]:
    results = [_question_json(r) for c in cases for r in c.results]
    counts: dict[str, int] = {}
    for r in results:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    return {
        "results": results,
        "summary": {"cases": len(cases), "questions": len(results),
                    "failed": sum(1 for r in results if not r["ok"]),
                    "verdicts": dict(sorted(counts.items()))},
    }


class RuleStatus(NamedTuple):
    """Whether a rules-document statement is encoded or waived, and by what."""

    id: str
    section: str
    text: str
    location: str
    status: str  # "encoded", "waived" or "missing"
    encodings: tuple[str, ...]
    reason: str | None


def rule_statuses(doc: RulesDocument, rules: RuleBase) -> list[RuleStatus]:
    """Every statement with the rules (and definitions) that cite it, or its waiver."""
    citing: dict[str, list[str]] = {}
    for r in rules.rules:
        for sid in r.cites:
            citing.setdefault(sid, []).append(r.id)
    for d in rules.definitions.values():
        for sid in d.cites:
            citing.setdefault(sid, []).append(f"definition {d.name}")
    waived = {w.statement: w.reason for w in rules.waivers}
    out = []
    for s in doc.statements:
        encoded = tuple(citing.get(s.id, ()))
        status = "encoded" if encoded else "waived" if s.id in waived else "missing"
        out.append(RuleStatus(s.id, s.section, s.text, str(s.loc), status, encoded, waived.get(s.id)))
    return out


def rules_json(statuses: list[RuleStatus]) -> dict[str, Any]:
    return {"statements": [
        {"id": s.id, "section": s.section, "status": s.status, "encodings": list(s.encodings),
         "reason": s.reason, "text": s.text, "location": s.location}
        for s in statuses
    ]}


def render_rules(statuses: list[RuleStatus]) -> str:
    lines = []
    section = None
    for s in statuses:
        if s.section != section:
            section = s.section
            lines.append(f"\n{section}")
        if s.status == "encoded":
            lines.append(f"  {s.id:<9} encoded  by {', '.join(s.encodings)}")
        elif s.status == "waived":
            lines.append(f"  {s.id:<9} waived   {s.reason}")
        else:
            lines.append(f"  {s.id:<9} MISSING  neither encoded nor waived")
    counts = {k: sum(1 for s in statuses if s.status == k) for k in ("encoded", "waived", "missing")}
    lines.append(f"\n{len(statuses)} statements: {counts['encoded']} encoded, {counts['waived']} waived, "
                 f"{counts['missing']} missing")
    return "\n".join(lines).lstrip("\n")
