"""Render results as text for people and as JSON for programs.

Text shows what came from input files (titles, names, rules text, paths) with control and invisible
characters escaped (see `escaping`); JSON keeps every string exact."""

from __future__ import annotations

__all__ = ["render_case", "results_json", "render_rules", "rules_json", "RuleStatus", "rule_statuses",
           "render_explanations", "explanations_json", "core_json", "render_ruling", "ruling_json",
           "render_explore", "explore_json"]

import re
import textwrap
from collections import Counter
from typing import TYPE_CHECKING, Any, NamedTuple

from .escaping import escape_lines, escape_text
from .explore.search import COUNT_CAP
from .language.encoding import RuleBase
from .rulesdoc import RulesDocument
from .terminal import plural
from .verdicts import (
    INERTIA_RANK,
    CaseResult,
    CoreItem,
    Explanation,
    Fold,
    QuestionResult,
    RankedFact,
    RankedRule,
    Ranking,
    Resolution,
    RulingCheck,
    RulingResult,
    RulingVerdict,
    SweepImpact,
    Verdict,
    Witness,
)

if TYPE_CHECKING:
    from .explore import ExploreFinding
    from .explore.baseline import ExploreReport


def _side_by_side(a: Witness, b: Witness) -> list[str]:
    rows = [("question", a.value, b.value)] + [
        (name, va, vb) for (name, va), (_, vb) in zip(a.outcomes, b.outcomes)
    ]
    w0 = max(len(r[0]) for r in rows)
    w1 = max(len(r[1]) for r in rows + [("", "outcome 1", "")])
    lines = [f"      {'':<{w0}}  {'outcome 1':<{w1}}  outcome 2"]
    lines += [f"      {n:<{w0}}  {x:<{w1}}  {y}" for n, x, y in rows]
    return lines


def _core(items: tuple[CoreItem, ...], verified: bool, derivation: bool = False) -> list[str]:
    """A conflict, or a derivation (facts first): one entry per rule, its instances folded together."""
    holds = "forcing" if derivation else "conflicting"
    check = f"re-checked: {holds} and minimal" if verified else "NOT re-checked as minimal"
    rules = [i for i in items if i.kind != "fact"]
    facts = [i for i in items if i.kind == "fact"]
    heading = "forced by" if derivation else "conflicting set"
    lines = [f"    {heading} ({plural(len(rules), 'rule instance')}, {plural(len(facts), 'fact')}; {check}):"]
    fact_lines = ["    given the scenario's facts:" if derivation else "    scenario facts:"]
    # facts that read the same (one card-text sentence pins several inputs) are shown once
    fact_lines += list(dict.fromkeys(f"    - {f.text}  ({f.location})" for f in facts))
    if derivation and facts:
        lines += fact_lines
        lines.append("    and the rules:")
    groups: dict[str, list[CoreItem]] = {}
    for item in rules:
        groups.setdefault(item.label.split("[", 1)[0], []).append(item)
    for rule_id, group in groups.items():
        first = group[0]
        tag = " (interpretation)" if first.interpretation else " (proposed by the ruling)" if first.kind == "ruling" else ""
        if len(group) == 1:
            lines.append(f"    - {first.label}{tag}: {first.text}  ({first.location})")
        else:
            bindings = ", ".join(i.label[len(rule_id):] for i in group)
            lines.append(f"    - {rule_id}{tag} x{len(group)}: {bindings}  ({first.location})")
            lines.append(f"        e.g. {first.text}")
        for sid, text in first.statements:
            lines.append(f"        {sid}: {text}")
    if facts and not derivation:
        lines += fact_lines
    return lines


def _resolutions(ways: tuple[Resolution, ...], note: str) -> list[str]:
    """The ways out of a contradiction: interpretations that resolve it, then minimal correction sets."""
    if not ways:
        return ["    resolutions: none found"] + ([f"    note: {note}"] if note else [])
    lines = ["    resolutions (each re-checked: consistent once taken; a correction set is also minimal):"]
    for w in ways:
        unchecked = "" if w.verified else " (NOT re-checked)"
        if w.interpretation:
            lines.append(f"    - interpretation {w.interpretation}, in place of {', '.join(w.rules)}{unchecked}")
        else:
            lines.append(f"    - correction set: leave out {' + '.join(w.statements)} "
                         f"(rules {', '.join(w.rules)}){unchecked}")
    if note:
        lines.append(f"    note: {note}")
    return lines


def same_under_every_resolution(r: QuestionResult) -> str | None:
    """The question's answer when every resolution of its contradiction gives the same one, else None."""
    answers = {a.answer for w in r.resolutions if (a := w.answer_to(r.question)) is not None}
    return answers.pop() if len(answers) == 1 and all(w.answer_to(r.question) for w in r.resolutions) else None


def _resolved_answers(r: QuestionResult) -> list[str]:
    """The question's answer under each resolution of its contradiction."""
    if not r.resolutions:
        return []
    same = same_under_every_resolution(r)
    if same is not None and len(r.resolutions) > 1:
        return [f"    the same under every resolution ({len(r.resolutions)}): {same}"]
    lines = []
    for w in r.resolutions:
        a = w.answer_to(r.question)
        if a is not None:
            lines.append(f"    resolved by {w.name}: {a.answer}")
    return lines


def render_question(r: QuestionResult, evidence: bool = True) -> list[str]:
    """One question's verdict and expectation; with `evidence`, also what backs the verdict."""
    mark = "ok  " if r.ok else "FAIL"
    lines = [f"  {mark} {r.question}: {r.answer}"]
    if r.expected_answer is not None:
        status = "matches" if r.ok else "does NOT match"
        lines.append(f"    expected {r.expected_answer}: {status}")
    if r.rests_on:
        lines.append(rests_on_text(r.rests_on))
    if not evidence:
        return [escape_text(line) for line in lines + _resolved_answers(r)]
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
        if r.resolutions or r.resolutions_note:
            lines += _resolutions(r.resolutions, r.resolutions_note)
    if r.at_fault:
        lines.append(f"    statements at fault: {', '.join(r.at_fault)} (they name an outcome no rule gives)")
    if r.rules_involved and r.verdict is not Verdict.DETERMINED:
        lines.append(f"    rules involved: {', '.join(r.rules_involved)}")
    if r.reason:
        lines.append(f"    note: {r.reason}")
    lines += _resolved_answers(r)
    return [escape_text(line) for line in lines]


def rests_on_text(readings: tuple[str, ...]) -> str:
    """The readings a determined answer rests on, as one line: 'rests on reading TGT-18-R1'."""
    return f"    rests on reading{'s' if len(readings) > 1 else ''} {', '.join(readings)}"


def render_case(case: CaseResult) -> str:
    lines = [f"{case.case}: {case.title}"]
    contradiction = any(r.verdict is Verdict.CONTRADICTION for r in case.results)
    for i, r in enumerate(case.results):
        # one conflicting set serves every question of the case; print it once
        lines += render_question(r, evidence=not (contradiction and i > 0))
    return escape_lines("\n".join(lines))


def _question_json(r: QuestionResult) -> dict[str, Any]:
    out = {
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
        "core": core_json(r.core),
        "core_verified": r.core_verified if r.core else None,
        "rules_involved": list(r.rules_involved),
        "at_fault": list(r.at_fault),
        "reason": r.reason or None,
    }
    if r.rests_on is not None:  # worked out only when asked for (check --readings, explain)
        out["rests_on"] = list(r.rests_on)
    if r.verdict is Verdict.CONTRADICTION:
        out["resolutions"] = [_resolution_json(w, r.question) for w in r.resolutions]
        out["resolutions_note"] = r.resolutions_note or None
        out["same_under_every_resolution"] = same_under_every_resolution(r)
    return out


def _resolution_json(w: Resolution, question: str) -> dict[str, Any]:
    a = w.answer_to(question)
    return {"kind": w.kind, "interpretation": w.interpretation, "statements": list(w.statements),
            "rules": list(w.rules), "verified": w.verified,
            "verdict": a.verdict.value if a else None, "value": a.value if a else None,
            "reason": (a.reason or None) if a else None}


def core_json(items: tuple[CoreItem, ...]) -> list[dict[str, Any]]:
    """Rule instances and facts (a conflict or a derivation) as JSON."""
    return [{"kind": c.kind, "label": c.label, "text": c.text, "location": c.location,
             "statements": [{"id": s, "text": t} for s, t in c.statements], "interpretation": c.interpretation}
            for c in items]


class _Shown:
    """What an explanation has already printed in full: statements quoted, facts listed."""

    def __init__(self) -> None:
        self.statements: set[str] = set()
        self.facts: set[tuple[str, str]] = set()


def _ranked_rule(r: RankedRule, shown: _Shown) -> list[str]:
    """One rule of a ranked derivation: its instance, or its instances folded into runs of steps,
    and the statements it cites (the text of each only the first time)."""
    first = r.instances[0]
    tag = " (interpretation)" if first.interpretation else " (proposed by the ruling)" if first.kind == "ruling" else ""
    again = [sid for sid, _ in first.statements if sid in shown.statements]
    where = first.location + (f"; {', '.join(again)} quoted above" if again else "")
    if len(r.instances) == 1:
        lines = [f"    - {first.label}{tag}: {first.text}  ({where})"]
    else:
        folds = "; ".join(f"[{_fold_text(f)}]" if f.runs else f.instances[0].label[len(r.rule):] for f in r.folds)
        lines = [f"    - {r.rule}{tag} x{len(r.instances)}: {folds}  ({where})", f"        e.g. {first.text}"]
    lines += [f"        {sid}: {text}" for sid, text in first.statements if sid not in shown.statements]
    shown.statements.update(sid for sid, _ in first.statements)
    return lines


def _fold_text(f: Fold) -> str:
    runs = "; ".join(a if a == b else f"{a} to {b}" for a, b in f.runs)
    return ", ".join([f"{k}={v}" for k, v in f.binding] + [f"{f.step}={runs}"])


def _rank_heading(rank: int, question: str) -> str:
    if rank == 1:
        return f"    deciding it (they read what {question} asks, directly or through inertia):"
    return f"    {rank - 1} rule{'s' if rank > 2 else ''} further from {question}:"


def _facts(facts: tuple[RankedFact, ...], shown: _Shown) -> list[str]:
    """Facts listed the first time in full; those listed for an earlier question by name only."""
    new = [f for f in facts if (f.facts[0].text, f.facts[0].location) not in shown.facts]
    old = [f for f in facts if (f.facts[0].text, f.facts[0].location) in shown.facts]
    shown.facts.update((f.facts[0].text, f.facts[0].location) for f in new)
    lines = ["    given the scenario's facts:"] if facts else []
    lines += [f"    - {f.facts[0].text}  ({f.facts[0].location})" for f in new]
    if old:
        names = ", ".join(i.label for f in old for i in f.facts)
        lines += textwrap.wrap(f"and, as listed above: {names}", width=110, initial_indent="    - ",
                               subsequent_indent="      ", break_on_hyphens=False)
    return lines


def _ranked_derivation(ranking: Ranking, question: str, verified: bool, shown: _Shown) -> list[str]:
    """A derivation ranked: the rules that decide the question first, then those further away, the
    facts (each text once), and inertia last, folded into runs of steps."""
    rules = sum(len(r.instances) for r in ranking.rules)
    facts = sum(len(f.facts) for f in ranking.facts)
    check = "re-checked: forcing and minimal" if verified else "NOT re-checked as minimal"
    lines = [f"    forced by ({plural(rules, 'rule instance')}, {plural(facts, 'fact')}; {check}), the most direct first:"]
    rank = None
    for r in ranking.rules:
        if r.rank == INERTIA_RANK:
            continue
        if r.rank != rank:
            rank = r.rank
            lines.append(_rank_heading(r.rank, question))
        lines += _ranked_rule(r, shown)
    lines += _facts(ranking.facts, shown)
    inertia = [r for r in ranking.rules if r.rank == INERTIA_RANK]
    if inertia:
        lines.append("    and inertia (where cards start, and that they stay there unless moved):")
        for r in inertia:
            lines += _ranked_rule(r, shown)
    return lines


def _brief(ranking: Ranking, shown: _Shown) -> list[str]:
    """The rules that decide a question, and the facts they read (those already shown above by
    reference only)."""
    names = ", ".join(r.rule + (f" x{len(r.instances)}" if len(r.instances) > 1 else "") for r in ranking.deciding)
    rest = sum(len(r.instances) for r in ranking.rules if r.rank != 1)
    used = [f for f in ranking.facts if f.rank == 1]
    new = list(dict.fromkeys(f.facts[0].text for f in used if (f.facts[0].text, f.facts[0].location) not in shown.facts))
    shown.facts.update((f.facts[0].text, f.facts[0].location) for f in used)
    old = len(used) - len(new)
    line = f"decided by {names or 'no rule'}"
    if old and not new:
        line += ", from facts above"
    lines = _wrapped(line + (f" (and {rest} more rule instances)" if rest else ""))
    if new:
        lines += _wrapped("given " + "; ".join(_sourced_once(new)) + ("; and facts above" if old else ""))
    return lines


BRIEF_WIDTH = 100
BRIEF_ROWS = 6  # outcomes or values shown of an open question


def _wrapped(text: str, indent: str = "    ") -> list[str]:
    return textwrap.wrap(text, width=BRIEF_WIDTH, initial_indent=indent, subsequent_indent=indent + "  ",
                         break_on_hyphens=False, break_long_words=True)


def _fitted(lines: list[str]) -> list[str]:
    """`lines` wrapped within the brief width, each at its own indentation."""
    return [part for line in lines
            for part in _wrapped(line.lstrip(" "), " " * (len(line) - len(line.lstrip(" "))))]


def _cut(line: str) -> str:
    return line if len(line) <= BRIEF_WIDTH else line[:BRIEF_WIDTH - 3] + "..."


def _brief_open(r: QuestionResult, show_conflict: bool) -> list[str]:
    """A question that is not determined, briefly: its verdict, the statements at fault, and a few of its
    values or the statements of its conflicting set (the rest: regcheck explain without --brief)."""
    lines = _fitted(render_question(r, evidence=False)[:1 if r.ok else 2])
    if r.verdict is Verdict.CONTRADICTION:
        if not show_conflict:
            return lines + ["    the same conflicting set as above"]
        statements = dict.fromkeys(sid for item in r.core for sid, _ in item.statements)
        rules = sum(1 for item in r.core if item.kind == "rule")
        lines += _wrapped(f"conflicting set: {rules} rule instances, {len(r.core) - rules} facts, citing "
                          + ", ".join(statements))
        corrections = [w for w in r.resolutions if not w.interpretation]
        interpretations = [name for w in r.resolutions if (name := w.interpretation)]
        if corrections:
            lines += _wrapped("leave out any one of: " + "; ".join(" + ".join(w.statements) for w in corrections))
        if interpretations:
            lines += _wrapped("or take the interpretation " + " or ".join(interpretations))
        return lines
    if r.at_fault:
        lines += _wrapped("statements at fault: " + ", ".join(r.at_fault))
    if r.verdict is Verdict.AMBIGUOUS and len(r.witnesses) == 2:
        one, two = r.witnesses
        lines.append(_cut(f"    two outcomes: {one.value}  |  {two.value}"))
        rows = [(n, v, dict(two.outcomes).get(n, "")) for n, v in one.outcomes]
        lines += [_cut(f"      {n}: {a}  |  {b}") for n, a, b in rows[:BRIEF_ROWS]]
        if len(rows) > BRIEF_ROWS:
            lines.append(f"      and {len(rows) - BRIEF_ROWS} more outcomes that differ")
    elif r.verdict is Verdict.CHOICE_DEPENDENT:
        for w in r.witnesses[:BRIEF_ROWS]:
            lines.append(_cut(f"    - {w.value}  when " + (", ".join(f"{n} = {v}" for n, v in w.choices) or "no choices")))
        if len(r.witnesses) > BRIEF_ROWS:
            lines.append(f"    and {len(r.witnesses) - BRIEF_ROWS} more values")
    if r.reason:
        lines += _wrapped(f"note: {r.reason}")
    return lines


def _sourced_once(facts: list[str]) -> list[str]:
    """The facts, with the note of where they come from ("(read from the card's text)") said once for a run
    of facts that share it."""
    out: list[str] = []
    run: list[str] = []
    note = ""
    for text in [*facts, ""]:
        m = re.fullmatch(r"(.*\S) (\(read from [^()]*\))", text)
        if m and m.group(2) == note:
            run.append(m.group(1))
            continue
        if len(run) > 1:
            out += run[:-1] + [f"{run[-1]} (these {len(run)} {note[1:-1]})"]
        elif run:
            out.append(f"{run[0]} {note}")
        run, note = ([m.group(1)], m.group(2)) if m else ([], "")
        if text and not m:
            out.append(text)
    return out


def render_explanations(case: str, title: str, explanations: tuple[Explanation, ...], brief: bool = False) -> str:
    """Each question's verdict and why: a derivation (ranked, the rules that decide it first), two
    outcomes side by side, or the conflict. A statement's text and a fact are printed in full once,
    and referred to after that. `brief` keeps, of a derivation, only the rules that decide the
    question and the facts they read; of an open question, its statements at fault and a few of its values;
    of a contradiction, the statements of its conflicting set and its ways out, once for the case."""
    lines = _wrapped(f"{case}: {title}", "") if brief else [f"{case}: {title}"]
    shown = _Shown()
    for i, e in enumerate(explanations):
        r = e.result
        contradiction_again = r.verdict is Verdict.CONTRADICTION and i > 0
        if brief and e.ranking is not None:
            lines += _fitted(render_question(r, evidence=False)[:1 if r.ok else 2]
                             + ([rests_on_text(r.rests_on)] if r.rests_on else []))
            lines += _brief(e.ranking, shown)
            continue
        if brief:
            lines += _brief_open(r, show_conflict=not contradiction_again)
            continue
        question = render_question(r, evidence=not contradiction_again)
        if contradiction_again:  # after the verdict and expectation, before the answers under each resolution
            at = 2 if r.expected_answer is not None else 1
            question[at:at] = ["    the same conflicting set as above: no outcome satisfies the rules in this scenario"]
        lines += question
        d = e.derivation
        if d is not None:
            if d.steps:
                lines.append("    why: these rules and facts together allow no other value")
                lines += (_ranked_derivation(e.ranking, r.question, d.verified, shown) if e.ranking is not None
                          else _core(d.steps, d.verified, derivation=True))
                lines.append(f"    therefore {r.question} = {r.value}")
            if d.reason:
                lines.append(f"    note: {d.reason}")
        if e.statements:
            lines.append("    statements that would have to say more (those at fault first, then those cited by the "
                         "rules involved):" if e.result.at_fault else
                         "    statements that would have to say more (cited by the rules involved):")
            lines += [f"      {sid}: {text}" for sid, text in e.statements]
    if brief and any(e.ranking is not None for e in explanations):
        lines.append("(rules further from each question, inertia and the other facts: regcheck explain without --brief)")
    return escape_lines("\n".join(lines))


def _ranking_json(ranking: Ranking) -> dict[str, Any]:
    return {"rules": [{"rule": r.rule, "rank": r.rank, "instances": [i.label for i in r.instances],
                       "folds": [{"binding": dict(f.binding), "step": f.step or None,
                                  "runs": [list(run) for run in f.runs],
                                  "instances": [i.label for i in f.instances]} for f in r.folds]}
                      for r in ranking.rules],
            "facts": [{"rank": f.rank, "text": f.facts[0].text, "location": f.facts[0].location,
                       "facts": [i.label for i in f.facts]} for f in ranking.facts]}


def explanations_json(case: str, explanations: tuple[Explanation, ...]) -> dict[str, Any]:
    out = []
    for e in explanations:
        item = _question_json(e.result)
        item["derivation"] = None if e.derivation is None else {
            "steps": core_json(e.derivation.steps), "verified": e.derivation.verified,
            "reason": e.derivation.reason or None,
            "ranking": _ranking_json(e.ranking) if e.ranking is not None else None}
        item["statements_to_say_more"] = [{"id": s, "text": t} for s, t in e.statements]
        out.append(item)
    return {"case": case, "explanations": out}


_RULING_MEANING = {
    RulingVerdict.ENTAILED: "the rules already imply it: it is redundant",
    RulingVerdict.NARROWS: "consistent with the rules, and it settles something they leave open",
    RulingVerdict.CONTRADICTS: "the rules and the ruling cannot both hold",
    RulingVerdict.UNKNOWN: "not decided everywhere: a check gave up, or a scenario was not answered (see the notes)",
}


def _ruling_check(check: RulingCheck, label: str, every_change: bool = True) -> list[str]:
    lines = [f"  {label}: {check.verdict.value}"]
    if check.rules_conflict_already:
        lines.append("    the rules conflict in this scenario even without the ruling"
                     + (":" if check.core else " (not counted in the ruling's verdict)"))
    if every_change or check.verdict is not RulingVerdict.CONTRADICTS:
        lines += [f"    {c.question}: {c.before} -> {c.after}" for c in check.changes]
    else:
        lines.append(f"    the ruling makes the scenario a contradiction ({plural(len(check.changes), 'question')})")
    if check.verdict is RulingVerdict.NARROWS and not check.changes:
        lines.append("    it rules out outcomes the rules allow, but no question's verdict changes")
    if check.core:
        lines += _core(check.core, check.core_verified)
    if check.reason:
        lines.append(f"    note: {check.reason}")
    return lines


def _verdict_counts(checks: tuple[RulingCheck, ...] | list[RulingCheck]) -> str:
    counts = Counter(c.verdict.value for c in checks if c.counted)
    return ", ".join(f"{v} {n}" for v, n in sorted(counts.items())) or "none counted"


def _in_combination(check: RulingCheck, combination: str) -> str:
    """A scenario of a combination by its attempts (`[turn 1 Preparation: use_card_1]`)."""
    prefix = f"sweep: {combination} "
    return check.case[len(prefix):] if check.case.startswith(prefix) else check.case


def _sweep_impact(s: SweepImpact) -> list[str]:
    checks = s.checks
    already = sum(1 for c in checks if c.rules_conflict_already)
    lines = [f"  impact on the sweep {s.database}: {plural(len(s.combinations), 'combination')}, "
             f"{plural(len(checks), 'scenario')}: {_verdict_counts(checks)}"
             + (f"; {already} where the rules conflict without the ruling (not counted)" if already else "")]
    changed = s.changed
    lines.append(f"  combinations whose answers change: {len(changed)} "
                 f"({plural(sum(len(c.changed) for c in changed), 'scenario')})")
    if changed:
        lines.append("    (card_1, card_2, ... are the combination's cards in order; hero is alice's Hero, evil bob's "
                     "Evil Character)")
    for combination in changed:
        lines.append(f"    {combination.combination}: {len(combination.changed)} of "
                     f"{plural(len(combination.checks), 'scenario')}")
        first, *others = combination.changed
        lines += ["    " + line for line in _ruling_check(first, _in_combination(first, combination.combination), False)]
        for c in others:
            lines.append(f"      {_in_combination(c, combination.combination)}: {c.verdict.value}, "
                         f"{plural(len(c.changes), 'question')} {'change' if len(c.changes) != 1 else 'changes'}")
    unknown = s.unknown
    if unknown:
        lines.append(f"  combinations not checked in full: {len(unknown)}")
    for combination in unknown:
        lines.append(f"    {combination.combination}: {len(combination.unknown)} of "
                     f"{plural(len(combination.checks), 'scenario')} unknown")
        lines += ["    " + line for c in combination.unknown
                  for line in _ruling_check(c, _in_combination(c, combination.combination), False)]
    return lines


def render_ruling(r: RulingResult) -> str:
    """A ruling's verdict, its own scenario's check, the cases it would change, and, over a sweep, the
    combinations of cards whose answers it would change."""
    lines = [f"{r.path}: {r.ruling} {r.title}", f"  verdict: {r.verdict.value} ({_RULING_MEANING[r.verdict]})"]
    if r.own is not None:
        lines += _ruling_check(r.own, "on its own scenario")
    for scenarios in (False, True):
        impact = [c for c in r.impact if c.scenario is scenarios]
        if not impact:
            continue
        what = "scenario" if scenarios else "case"
        counted = [c for c in impact if c.counted]
        already = sum(1 for c in impact if c.rules_conflict_already)
        interpreted = [c for c in impact if c.interpretations and not c.rules_conflict_already]
        lines.append(f"  impact on {plural(len(impact), what)}: {_verdict_counts(impact)}"
                     + (f"; {already} where the rules conflict without the ruling (not counted)" if already else "")
                     + (f"; {len(interpreted)} opting into interpretations (not counted, below)" if interpreted else ""))
        lines.append(f"  {what}s whose verdicts change: {sum(1 for c in counted if c.changes)}")
        for c in counted:
            if c.changes or c.verdict is not RulingVerdict.ENTAILED:
                lines += _ruling_check(c, c.case)
        for c in interpreted:
            lines += _ruling_check(c, f"{c.case} (with {', '.join(c.interpretations)}; not counted)")
    if r.sweep is not None:
        lines += _sweep_impact(r.sweep)
    return escape_lines("\n".join(lines))


def _ruling_check_json(c: RulingCheck) -> dict[str, Any]:
    return {"case": c.case, "verdict": c.verdict.value,
            "changes": [{"question": x.question, "before": x.before, "after": x.after} for x in c.changes],
            "core": core_json(c.core), "core_verified": c.core_verified if c.core else None,
            "rules_conflict_already": c.rules_conflict_already, "reason": c.reason or None,
            "scenario": c.scenario, "interpretations": list(c.interpretations), "counted": c.counted}


def _sweep_json(s: SweepImpact) -> dict[str, Any]:
    checks = s.checks
    return {"database": s.database, "combinations": len(s.combinations), "scenarios": len(checks),
            "verdicts": dict(sorted(Counter(c.verdict.value for c in checks if c.counted).items())),
            "rules_conflict_already": sum(1 for c in checks if c.rules_conflict_already),
            "changed": [{"combination": c.combination, "scenarios": len(c.checks),
                         "changed": [_ruling_check_json(x) for x in c.changed]} for c in s.changed],
            "unknown": [{"combination": c.combination, "scenarios": len(c.checks),
                         "unknown": [_ruling_check_json(x) for x in c.unknown]} for c in s.unknown]}


def ruling_json(r: RulingResult) -> dict[str, Any]:
    return {"path": r.path, "ruling": r.ruling, "title": r.title, "verdict": r.verdict.value,
            "own_scenario": _ruling_check_json(r.own) if r.own else None,
            "impact": [_ruling_check_json(c) for c in r.impact],
            "sweep": _sweep_json(r.sweep) if r.sweep is not None else None}


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
    basis: str = "text"  # "text", "reading" or "principle" (see rulesdoc)
    source: str = ""


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
        out.append(RuleStatus(s.id, s.section, s.text, str(s.loc), status, encoded, waived.get(s.id), s.basis, s.source))
    return out


def rules_json(statuses: list[RuleStatus]) -> dict[str, Any]:
    return {"statements": [
        {"id": s.id, "section": s.section, "status": s.status, "encodings": list(s.encodings),
         "reason": s.reason, "text": s.text, "location": s.location, "basis": s.basis, "source": s.source}
        for s in statuses
    ]}


def render_rules(statuses: list[RuleStatus]) -> str:
    lines = []
    section = None
    width = max((len(s.id) for s in statuses), default=9)
    for s in statuses:
        if s.section != section:
            section = s.section
            lines.append(f"\n{section}")
        head = f"  {s.id:<{width}} {s.basis:<9}"
        if s.status == "encoded":
            lines.append(f"{head} encoded  by {', '.join(s.encodings)}")
        elif s.status == "waived":
            lines.append(f"{head} waived   {s.reason}")
        else:
            lines.append(f"{head} MISSING  neither encoded nor waived")
    readings = [s for s in statuses if s.basis == "reading"]
    if readings:
        lines.append("\nreadings (choices where the REG text is silent; `regcheck check --readings` shows the answers "
                     "resting on one)")
        for s in readings:
            what = f"encoded by {', '.join(s.encodings)}" if s.status == "encoded" else s.status
            lines.append(f"  {s.id:<{width}} {what}")
    counts = {k: sum(1 for s in statuses if s.status == k) for k in ("encoded", "waived", "missing")}
    bases = {k: sum(1 for s in statuses if s.basis == k) for k in ("text", "reading", "principle")}
    lines.append(f"\n{len(statuses)} statements: {counts['encoded']} encoded, {counts['waived']} waived, "
                 f"{counts['missing']} missing; basis: {bases['text']} text, {bases['reading']} reading, "
                 f"{bases['principle']} principle")
    return escape_lines("\n".join(lines).lstrip("\n"))


def _explore_finding(f: ExploreFinding, accepted_note: str | None) -> list[str]:
    what = f"{f.verdict} of {f.symbol}" if f.symbol else f"{f.verdict} of the whole scenario"
    lines = [f"  {'accepted' if accepted_note is not None else 'NEW'} {what}  "
             f"({f.scenarios} scenario{' of the scope shows' if f.scenarios == 1 else 's of the scope show'} it)",
             *([f"    statements at fault (from its {f.at_fault_from}): {', '.join(f.at_fault)}"] if f.at_fault else []),
             f"    rules involved: {', '.join(f.rules) or 'none'}",
             f"    smallest witness: {f.turns} turn{'s' if f.turns != 1 else ''}, cards {', '.join(f.cards)}"
             + ("; no outcome at all satisfies the rules" if not f.symbol else f"; question {f.question}")]
    lines += [f"      {a}" for a in f.attempts] or ["      no attempts"]
    if accepted_note is not None:
        lines.append(f"    note: {accepted_note}")
    return [escape_text(line) for line in lines]


def render_explore(report: ExploreReport) -> str:
    """Each scope's findings (new ones first), its unused statements, and whether its search was complete."""
    out: list[str] = []
    for s in report.scopes:
        r = s.result
        out.append(escape_text(f"{r.scope}: {r.title}"))
        out.append(f"  {r.checked:,} of {r.scenarios_shown} scenarios checked ({r.answered_in_full} answered in full) "
                   f"in {r.seconds:.1f} s: {plural(len(s.new), 'new finding')}, "
                   f"{len(s.accepted)} accepted")
        for f in s.new:
            out += _explore_finding(f, None)
        for f, a in s.accepted:
            out += _explore_finding(f, " ".join(a.note.split()))
        if r.unused:
            whose = "no scenario of the scope reaches" if r.complete else "no scenario answered reaches (see INCOMPLETE)"
            out.append(f"  statements {whose}: {', '.join(r.unused)}")
        for why in r.incomplete[:10]:
            out.append(escape_text(f"  INCOMPLETE: {why}"))
        if len(r.incomplete) > 10:
            out.append(f"  INCOMPLETE: {len(r.incomplete) - 10} more scenarios left unanswered")
        out.append("")
    new = sum(len(s.new) for s in report.scopes)
    cut = sum(1 for s in report.scopes if not s.result.complete)
    out.append(f"{len(report.scopes)} scope{'s' if len(report.scopes) != 1 else ''}: {new} new finding"
               f"{'s' if new != 1 else ''}, {sum(len(s.accepted) for s in report.scopes)} accepted"
               + (f"; {cut} search{'es' if cut != 1 else ''} cut short" if cut else ""))
    return "\n".join(out)


def explore_json(report: ExploreReport) -> dict[str, Any]:
    """Every scope's search for programs: findings with their witnesses, unused statements, completeness."""
    scopes = []
    for s in report.scopes:
        r = s.result
        notes = {id(f): a.note for f, a in s.accepted}
        scopes.append({
            "scope": r.scope, "title": r.title, "scenarios": r.scenarios, "scenarios_counted_in_full": r.scenarios <= COUNT_CAP,
            "checked": r.checked,
            "answered_in_full": r.answered_in_full, "seconds": r.seconds, "complete": r.complete,
            "incomplete": list(r.incomplete), "unused_statements": list(r.unused),
            "findings": [{"verdict": f.verdict, "symbol": f.symbol or None, "rules": list(f.rules),
                          "at_fault": list(f.at_fault), "at_fault_from": f.at_fault_from,
                          "accepted": id(f) in notes, "note": notes.get(id(f)), "scenarios": f.scenarios,
                          "witness": {"turns": f.turns, "cards": list(f.cards), "attempts": list(f.attempts),
                                      "question": f.question, "case": f.case}}
                         for f in (*s.new, *(f for f, _ in s.accepted))],
        })
    summary = {"scopes": len(scopes), "new": sum(len(s.new) for s in report.scopes),
               "accepted": sum(len(s.accepted) for s in report.scopes),
               "incomplete": sum(1 for s in report.scopes if not s.result.complete)}
    return {"scopes": scopes, "summary": summary}
