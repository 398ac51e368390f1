"""A mutation run's report: every mutant's fate, what the search for distinguishing cases found for the
survivors (when it ran), and the mutation score per section and overall."""

from __future__ import annotations

__all__ = ["MutationReport", "SectionScore", "mutation_text", "mutation_json"]

from dataclasses import dataclass

from ..escaping import escape_text
from ..terminal import plural
from .distinguish import Distinction, DistinctionStatus, case_name
from .mutants import Mutant
from .run import MutantResult, MutantStatus


@dataclass(frozen=True)
class SectionScore:
    """How a section's mutants fared; `equivalent` counts the mutants proven equivalent (which no case could
    kill, see `equivalence`), `in_scope` the survivors found equivalent in scope (see `distinguish`). The score
    is killed / (killed + survived - in_scope), None when that is 0/0: equivalent mutants do not count."""

    section: str
    killed: int
    survived: int
    invalid: int
    unknown: int
    in_scope: int = 0
    equivalent: int = 0

    @property
    def score(self) -> float | None:
        decided = self.killed + self.survived - self.in_scope
        return self.killed / decided if decided else None


@dataclass(frozen=True)
class MutationReport:
    """Every mutant run (in the fixed order of `mutations`) with its result, over `cases` case files."""

    mutants: tuple[Mutant, ...]
    results: tuple[MutantResult, ...]
    cases: int
    distinctions: tuple[Distinction, ...] = ()  # one per survivor, in order, when the search ran

    def sections(self) -> list[SectionScore]:
        """Each section's score, in the order its mutants come, then `all` for every mutant."""
        counts: dict[str, dict[MutantStatus, int]] = {}
        equivalent: dict[str, int] = {}
        found = self.distinguished()
        for m, r in zip(self.mutants, self.results):
            same = found.get(m.id) is not None and found[m.id].status is DistinctionStatus.EQUIVALENT
            for key in (m.section, "all"):
                tally = counts.setdefault(key, {s: 0 for s in MutantStatus})
                tally[r.status] += 1
                equivalent[key] = equivalent.get(key, 0) + same
        ordered = [s for s in counts if s != "all"] + (["all"] if "all" in counts else [])
        return [SectionScore(s, counts[s][MutantStatus.KILLED], counts[s][MutantStatus.SURVIVED],
                             counts[s][MutantStatus.INVALID], counts[s][MutantStatus.UNKNOWN], equivalent[s],
                             counts[s][MutantStatus.EQUIVALENT])
                for s in ordered]

    def distinguished(self) -> dict[str, Distinction]:
        """Each survivor's search, by mutant ID (empty when the search did not run)."""
        return {d.mutant_id: d for d in self.distinctions}

    def survivors(self, kind: str | None = None) -> list[Mutant]:
        """The mutants that survived (of one kind, when given)."""
        return [m for m, r in zip(self.mutants, self.results)
                if r.status is MutantStatus.SURVIVED and (kind is None or m.kind == kind)]


def _score(s: SectionScore) -> str:
    return "-" if s.score is None else f"{100 * s.score:.1f}%"


def _line(m: Mutant, r: MutantResult) -> str:
    if r.status is MutantStatus.KILLED:
        return (f"  killed    {m.id}: by {r.case}::{r.question} "
                f"(expected {r.expected}, got {r.got})")
    what = "" if m.kind == "delete" else f" ({m.description} at {m.place})"
    if r.status is MutantStatus.SURVIVED:
        if r.cases_run:
            reach = f"run on {plural(r.cases_run, 'case')}"
        elif not m.rules:
            reach = "no rule uses it, and no case's question changes with it"
        else:
            reach = f"no case grounds {'it' if m.target_kind == 'rule' else 'a rule using it'}"
        return f"  SURVIVED  {m.id}{what}: {reach}, none noticed"
    if r.status is MutantStatus.EQUIVALENT:
        return f"  equivalent {m.id}{what}: {r.reason}"
    label = "invalid" if r.status is MutantStatus.INVALID else "UNKNOWN"
    return f"  {label:<9} {m.id}{what}: {r.reason}"


def mutation_text(report: MutationReport) -> str:
    """The report as text: each mutant's fate, the survivors, then the scores per section."""
    targets = {(m.target_kind, m.target) for m in report.mutants}
    rules = sum(1 for kind, _ in targets if kind == "rule")
    lines = [f"mutation analysis: {plural(len(report.mutants), 'mutant')} of {plural(rules, 'rule')} and "
             f"{plural(len(targets) - rules, 'definition')}, against {plural(report.cases, 'case')}"]
    lines += [escape_text(_line(m, r)) for m, r in zip(report.mutants, report.results)]
    survivors = report.survivors()
    lines.append("")
    lines.append(f"surviving mutants ({len(survivors)}): " + (", ".join(m.id for m in survivors) or "none"))
    if report.distinctions:
        lines.append("")
        lines += [escape_text(line) for d in report.distinctions for line in _distinction_lines(d)]
    lines.append("")
    in_scope = f" {'in scope':>9}" if report.distinctions else ""
    lines.append(f"{'section':<28} {'killed':>7} {'survived':>9}{in_scope} {'equivalent':>10} {'invalid':>8} "
                 f"{'unknown':>8} {'score':>7}")
    for s in report.sections():
        same = f" {s.in_scope:>9}" if report.distinctions else ""
        lines.append(f"{s.section:<28} {s.killed:>7} {s.survived:>9}{same} {s.equivalent:>10} {s.invalid:>8} "
                     f"{s.unknown:>8} {_score(s):>7}")
    if report.distinctions:
        lines.append("score: killed / (killed + survived - equivalent in scope); equivalent, invalid and unknown "
                     "mutants do not count")
    else:
        lines.append("score: killed / (killed + survived); equivalent, invalid and unknown mutants do not count")
    return "\n".join(lines)


def _distinction_lines(d: Distinction) -> list[str]:
    """A survivor's search: what it found, in which scope."""
    searched = f"{d.searched} of {plural(d.held, 'scenario')}"
    if d.status is DistinctionStatus.DISTINGUISHED:
        head = (f"  distinguished  {d.mutant_id}: {case_name(d.mutant_id)} ({d.based_on} {d.variation}; "
                f"scenario {d.searched} of {d.held})")
        return [head] + [f"      {q}: {mine}, the mutant: {theirs}" for q, mine, theirs in d.questions]
    if d.status is DistinctionStatus.EQUIVALENT:
        head = f"  equivalent in scope  {d.mutant_id}: every one of the {plural(d.held, 'scenario')} answered alike"
    elif d.status is DistinctionStatus.CUT_SHORT:
        head = f"  cut short      {d.mutant_id}: {searched} searched, none told apart (raise --max-scenarios)"
    elif d.status is DistinctionStatus.UNKNOWN:
        head = f"  UNKNOWN        {d.mutant_id}: {searched} searched, none told apart; {d.reason}"
    else:
        head = f"  no scope       {d.mutant_id}: {d.reason or 'no case has the rules it changes in force'}"
        return [head]
    return [head, f"      scope: {d.scope}"]


def mutation_json(report: MutationReport) -> dict[str, object]:
    """The report for programs: every mutant with its result, and the scores."""
    return {
        "cases": report.cases,
        "mutants": [{
            "id": m.id, "target": m.target, "target_kind": m.target_kind, "kind": m.kind, "section": m.section,
            "place": m.place, "description": m.description, "rules": list(m.rules), "status": r.status.value,
            "case": r.case, "question": r.question, "expected": r.expected, "got": r.got, "reason": r.reason,
            "cases_run": r.cases_run,
        } for m, r in zip(report.mutants, report.results)],
        "distinctions": [{
            "mutant": d.mutant_id, "status": d.status.value, "scope": d.scope, "searched": d.searched,
            "held": d.held, "case": case_name(d.mutant_id) if d.case else None, "based_on": d.based_on or None,
            "variation": d.variation or None, "reason": d.reason,
            "questions": [{"question": q, "expected": mine, "mutant": theirs} for q, mine, theirs in d.questions],
        } for d in report.distinctions],
        "sections": [{"section": s.section, "killed": s.killed, "survived": s.survived,
                      "equivalent": s.equivalent, "equivalent_in_scope": s.in_scope, "invalid": s.invalid, "unknown": s.unknown,
                      "score": None if s.score is None else round(s.score, 4)}
                     for s in report.sections()],
    }
