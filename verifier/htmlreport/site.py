"""The pages of the HTML report: a summary, the rules document with each statement's status, a page per
case (verdicts, explanations, timeline picture), the contradictions with their statements marked in the
rules text, the accepted findings, the card coverage and, when given, the findings of an explore over
scope files and of a sweep.

Every page is one file with its style inline: no script, no font, no image fetched from anywhere. Text
from input files is escaped for HTML."""

from __future__ import annotations

__all__ = ["Site", "pages", "write_site", "case_page_name"]

import re
from collections import Counter
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..files import write_file
from ..gate.model import AcceptedFinding
from ..report import RuleStatus, same_under_every_resolution
from ..sweep.store import SHOWN_STATUSES
from ..terminal import plural
from ..timeline import Timeline
from ..verdicts import CoreItem, Explanation, QuestionResult, Verdict
from .svg import ZONE_COLOURS, timeline_svg

if TYPE_CHECKING:
    from ..api import CaseReport, ExploreReport
    from ..runner import CaseInputError
    from ..sweep.report import SweepReport


@dataclass(frozen=True)
class Site:
    """What the report shows: every case checked, the rules document's statements, the rule base's rules
    (ID to the statements it cites), the accepted findings and the card coverage."""

    title: str
    cases: tuple[CaseReport, ...]
    errors: tuple[CaseInputError, ...]
    statements: tuple[RuleStatus, ...]
    rule_cites: dict[str, tuple[str, ...]]
    accepted: tuple[AcceptedFinding, ...]
    coverage: dict[str, Any] | None  # `regcheck cards --coverage --format json`, when counted
    locked_cards: dict[str, int]  # the counts cards.lock records, by category
    sweep: SweepReport | None = None  # a sweep's results database, read and grouped
    explore: ExploreReport | None = None  # a search of scope files


NAV = (("index.html", "Summary"), ("rules.html", "Rules"), ("contradictions.html", "Contradictions"),
       ("accepted.html", "Accepted findings"), ("coverage.html", "Card coverage"), ("explore.html", "Explore"),
       ("sweep.html", "Sweep"))

STYLE = """
:root { --ok: #1b6e20; --fail: #b00020; --ink: #1a1a1a; --muted: #555; --line: #ccc; }
body { font: 15px/1.5 system-ui, sans-serif; color: var(--ink); margin: 0 auto; max-width: 75rem; padding: 0 1rem 3rem; }
a { color: #0b57a3; }
a:focus, summary:focus { outline: 3px solid #f0a000; outline-offset: 2px; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 1rem; background: #fff; padding: .5rem; }
nav ul { list-style: none; padding: 0 0 .5rem; display: flex; flex-wrap: wrap; gap: 1rem;
  border-bottom: 1px solid var(--line); }
nav a[aria-current] { font-weight: bold; text-decoration: none; }
table { border-collapse: collapse; margin: .5rem 0 1rem; }
th, td { border: 1px solid var(--line); padding: .25rem .5rem; text-align: left; vertical-align: top; }
caption { text-align: left; font-weight: bold; padding: .25rem 0; }
.ok { color: var(--ok); font-weight: bold; }
.fail { color: var(--fail); font-weight: bold; }
.verdict { font-family: ui-monospace, monospace; }
.statement { margin: .25rem 0; padding: .25rem .5rem; border-left: 4px solid var(--line); }
.statement.encoded { border-color: #6aa84f; }
.statement.waived { border-color: #999; }
.statement.missing { border-color: var(--fail); }
mark { background: #ffe066; padding: 0 .15rem; }
.statement mark { display: block; }
.core li { margin: .2rem 0; }
.muted { color: var(--muted); }
.timeline { max-width: 100%; height: auto; border: 1px solid var(--line); background: #fff; }
.timeline .turn { font: bold 12px sans-serif; }
.timeline .phase, .timeline .step-number { font: 11px sans-serif; fill: #333; }
.timeline .card, .timeline .row-name { font: 12px sans-serif; }
.timeline .owner { fill: #666; }
.timeline .cell, .timeline .battle { stroke: #fff; }
.timeline .turn-line { stroke: #888; stroke-dasharray: 3 2; }
.timeline .open-mark { font: bold 12px sans-serif; fill: #b00020; }
.timeline .return-mark { font: bold 14px sans-serif; fill: #000; }
.timeline .attempt circle { fill: #fff; stroke: #0b57a3; stroke-width: 2; }
.timeline .attempt text { font: bold 11px sans-serif; }
.timeline .attempt.illegal circle { stroke: var(--fail); }
.timeline .cross, .timeline .strike { stroke: var(--fail); stroke-width: 2; }
.legend { display: flex; flex-wrap: wrap; gap: .75rem; padding: 0; list-style: none; }
.legend span.swatch { display: inline-block; width: 1rem; height: 1rem; border: 1px solid #888;
  vertical-align: middle; margin-right: .25rem; }
pre { white-space: pre-wrap; background: #f6f6f6; padding: .5rem; }
@media print {
  nav, .skip { display: none; }
  body { max-width: none; font-size: 11pt; }
  a { color: inherit; text-decoration: none; }
  figure, table, .statement, section.question { break-inside: avoid; }
  .timeline { border: none; }
}
"""


def case_page_name(case: str) -> str:
    """The file of a case's page: its path made into one file name."""
    stem = re.sub(r"\.ya?ml$", "", case.lstrip("./"))
    return "case-" + re.sub(r"[^A-Za-z0-9_-]+", "--", stem) + ".html"


def _page(title: str, current: str, body: str) -> str:
    current_mark = ' aria-current="page"'
    links = "".join(f'<li><a href="{href}"{current_mark if href == current else ""}>{label}</a></li>'
                    for href, label in NAV)
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
            f'<a class="skip" href="#main">Skip to the content</a>\n'
            f'<nav aria-label="Report"><ul>{links}</ul></nav>\n<main id="main">\n{body}\n</main>\n</body>\n</html>\n')


def _status(ok: bool) -> str:
    return '<span class="ok">ok</span>' if ok else '<span class="fail">not ok</span>'


def _statement_link(sid: str) -> str:
    return f'<a href="rules.html#{escape(sid)}">{escape(sid)}</a>'


def _statement_ids(report: CaseReport, rule_cites: dict[str, tuple[str, ...]]) -> set[str]:
    """Every statement a case's answers rest on: cited by the rules involved, the conflicting sets and the
    derivations, and the readings a determined answer rests on."""
    found: set[str] = set()
    for e in report.explanations:
        r = e.result
        found.update(r.rests_on or ())
        for rid in r.rules_involved:
            found.update(rule_cites.get(rid, ()))
        for item in r.core + (e.derivation.steps if e.derivation else ()):
            found.update(sid for sid, _ in item.statements)
        found.update(sid for sid, _ in e.statements)
    return found


# -- the summary -----------------------------------------------------------------------------------------


def _index(site: Site) -> str:
    questions = [r for c in site.cases for r in c.result.results]
    failed = [r for r in questions if not r.ok]
    verdicts = Counter(r.verdict.value for r in questions)
    statuses = Counter(s.status for s in site.statements)
    contradictions = [c for c in site.cases if c.timeline.contradiction]
    rows = []
    for c in site.cases:
        res = c.result
        counts = Counter(r.verdict.value for r in res.results)
        rows.append(f'<tr><td><a href="{case_page_name(res.case)}">{escape(res.case)}</a></td>'
                    f"<td>{escape(res.title)}</td><td>{len(res.results)}</td>"
                    f'<td class="verdict">{escape(", ".join(f"{v} {n}" for v, n in sorted(counts.items())))}</td>'
                    f"<td>{_status(all(r.ok for r in res.results))}</td></tr>")
    errors = "".join(f"<li>{escape(str(e))}</li>" for e in site.errors)
    body = [
        f"<h1>{escape(site.title)}</h1>",
        '<section aria-labelledby="summary"><h2 id="summary">Summary</h2>',
        f'<p id="counts">{len(site.cases)} case{"s" if len(site.cases) != 1 else ""}, {len(questions)} '
        f'question{"s" if len(questions) != 1 else ""}: <span class="ok">{len(questions) - len(failed)} ok</span>, '
        f'<span class="{"fail" if failed else "ok"}">{len(failed)} not ok</span>'
        + (f'; <span class="fail">{len(site.errors)} case files could not be checked</span>' if site.errors else "")
        + "</p>",
        "<table><caption>Verdicts</caption><thead><tr><th scope=\"col\">verdict</th><th scope=\"col\">questions</th>"
        "</tr></thead><tbody>"
        + "".join(f'<tr><td class="verdict">{v}</td><td>{verdicts.get(v, 0)}</td></tr>' for v in Verdict)
        + "</tbody></table>",
        f'<p>Rules document: {len(site.statements)} statements, {statuses.get("encoded", 0)} encoded, '
        f'{statuses.get("waived", 0)} waived, {statuses.get("missing", 0)} missing '
        f'(<a href="rules.html">the rules</a>). '
        f'<a href="contradictions.html">{len(contradictions)} contradictions</a>; '
        f'<a href="accepted.html">{len(site.accepted)} accepted findings</a>.</p>'
        + (f'<p id="explore-counts"><a href="explore.html">Explore</a>: {plural(len(site.explore.scopes), "scope")}, '
           f'{plural(sum(len(s.new) for s in site.explore.scopes), "new finding")}, '
           f"{sum(len(s.accepted) for s in site.explore.scopes)} accepted.</p>"
           if site.explore is not None else "")
        + (f'<p id="sweep-counts"><a href="sweep.html">Sweep</a>: {plural(len(site.sweep.rows), "combination")}, '
           f"{plural(len(site.sweep.new), 'new finding')}, {len(site.sweep.findings) - len(site.sweep.new)} accepted.</p>"
           if site.sweep is not None else "")
        + "</section>",
    ]
    if failed:
        body.append('<section aria-labelledby="failures"><h2 id="failures">Not ok</h2><ul>'
                    + "".join(f'<li><a href="{case_page_name(r.case)}#q-{escape(r.question)}">'
                              f"{escape(r.case)}::{escape(r.question)}</a>: "
                              + (f"expected {escape(r.expected_answer)}, got " if r.expected_answer else "")
                              + f'<span class="verdict">{escape(r.answer)}</span></li>' for r in failed)
                    + "</ul></section>")
    if errors:
        body.append(f'<section aria-labelledby="errors"><h2 id="errors">Case files that could not be checked</h2>'
                    f"<ul>{errors}</ul></section>")
    body.append('<section aria-labelledby="cases"><h2 id="cases">Cases</h2><table id="case-table"><caption>Every case'
                '</caption><thead><tr><th scope="col">case</th><th scope="col">title</th><th scope="col">questions</th>'
                '<th scope="col">verdicts</th><th scope="col">status</th></tr></thead><tbody>'
                + "".join(rows) + "</tbody></table></section>")
    return _page(site.title, "index.html", "\n".join(body))


# -- the rules document ------------------------------------------------------------------------------------


def _rules(site: Site) -> str:
    citing: dict[str, list[str]] = {}
    for c in site.cases:
        for sid in _statement_ids(c, site.rule_cites):
            citing.setdefault(sid, []).append(c.result.case)
    in_conflict = _conflict_statements(site)
    body = ["<h1>The rules document</h1>",
            "<p>Each statement with its status, the rules that encode it (or why it is waived), and the cases "
            "whose answers rest on it.</p>"]
    section = None
    for s in site.statements:
        if s.section != section:
            if section is not None:
                body.append("</section>")
            section = s.section
            body.append(f'<section aria-labelledby="sec-{escape(_anchor(section))}">'
                        f'<h2 id="sec-{escape(_anchor(section))}">{escape(section)}</h2>')
        cases = sorted(set(citing.get(s.id, ())))
        conflict = in_conflict.get(s.id, [])
        body.append(
            f'<div class="statement {s.status}" id="{escape(s.id)}"><h3>{escape(s.id)} '
            f'<span class="muted">({s.status})</span></h3><p>{escape(s.text)}</p>'
            + (f"<p>Encoded by: {escape(', '.join(s.encodings))}</p>" if s.encodings else "")
            + (f"<p>Waived: {escape(s.reason)}</p>" if s.reason else "")
            + ('<p class="fail">In a contradiction: '
               + ", ".join(f'<a href="{case_page_name(c)}">{escape(c)}</a>' for c in conflict) + "</p>"
               if conflict else "")
            + ("<details><summary>Cases resting on it (" + str(len(cases)) + ")</summary><ul>"
               + "".join(f'<li><a href="{case_page_name(c)}">{escape(c)}</a></li>' for c in cases)
               + "</ul></details>" if cases else "")
            + "</div>")
    if section is not None:
        body.append("</section>")
    return _page("Rules - " + site.title, "rules.html", "\n".join(body))


def _anchor(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower() or "section"


def _conflict_statements(site: Site) -> dict[str, list[str]]:
    """The statements cited by each contradiction's conflicting set, with the cases."""
    out: dict[str, list[str]] = {}
    for c in site.cases:
        for sid in sorted({sid for r in c.result.results if r.verdict is Verdict.CONTRADICTION
                           for item in r.core for sid, _ in item.statements}):
            out.setdefault(sid, []).append(c.result.case)
    return out


# -- a case ---------------------------------------------------------------------------------------------------


def _core(items: tuple[CoreItem, ...], what: str) -> str:
    """A conflicting set or a derivation: facts, then one entry per rule with its instances folded together
    (as the text output folds them), each with the statements it cites."""
    facts = [i for i in items if i.kind == "fact"]
    groups: dict[str, list[CoreItem]] = {}
    for item in items:
        if item.kind != "fact":
            groups.setdefault(item.label.split("[", 1)[0], []).append(item)
    fact_rows = "".join(f"<li>{escape(f.text)} <span class=\"muted\">({escape(f.location)})</span></li>"
                        for f in facts)
    rows = []
    for rule_id, group in groups.items():
        first = group[0]
        statements = "".join(f"<li>{_statement_link(sid)}: {escape(text)}</li>" for sid, text in first.statements)
        tag = " (interpretation)" if first.interpretation else " (proposed by the ruling)" if first.kind == "ruling" else ""
        if len(group) == 1:
            head = f"<strong>{escape(first.label)}</strong>{tag}: {escape(first.text)}"
        else:
            bindings = ", ".join(i.label[len(rule_id):] for i in group)
            head = (f"<strong>{escape(rule_id)}</strong>{tag} &times;{len(group)}: {escape(bindings)}"
                    f"<br>e.g. {escape(first.text)}")
        rows.append(f'<li>{head} <span class="muted">({escape(first.location)})</span>'
                    + (f"<ul>{statements}</ul>" if statements else "") + "</li>")
    facts_part = (f'<details class="facts"><summary>{len(facts)} scenario fact{"s" if len(facts) != 1 else ""}'
                  f"</summary><ul>{fact_rows}</ul></details>" if facts else "")
    return (f'<p>{escape(what)} {len(groups)} rule{"s" if len(groups) != 1 else ""}, {len(facts)} '
            f'fact{"s" if len(facts) != 1 else ""}:</p><ul class="core">{"".join(rows)}</ul>{facts_part}')


def _question(e: Explanation, show_core: bool) -> str:
    r: QuestionResult = e.result
    parts = [f'<section class="question" aria-labelledby="q-{escape(r.question)}">'
             f'<h3 id="q-{escape(r.question)}">{escape(r.question)}: <span class="verdict">{escape(r.answer)}</span> '
             f"{_status(r.ok)}</h3>"]
    if r.expected_answer is not None:
        parts.append(f"<p>Expected: <span class=\"verdict\">{escape(r.expected_answer)}</span></p>")
    if r.rests_on:
        parts.append(f'<p class="rests-on">Rests on reading{"s" if len(r.rests_on) > 1 else ""} '
                     + ", ".join(_statement_link(sid) for sid in r.rests_on) + "</p>")
    if r.verdict is Verdict.CHOICE_DEPENDENT:
        parts.append("<ul>" + "".join(
            f"<li>{escape(w.value)} when {escape(', '.join(f'{n} = {v}' for n, v in w.choices) or 'no choices')}</li>"
            for w in r.witnesses) + "</ul>")
    elif r.verdict is Verdict.AMBIGUOUS and len(r.witnesses) == 2:
        a, b = r.witnesses
        rows = [("question", a.value, b.value)] + [(n, x, y) for (n, x), (_, y) in zip(a.outcomes, b.outcomes)]
        parts.append("<table><caption>Two outcomes the rules both allow, with the same choices</caption><thead><tr>"
                     '<th scope="col"></th><th scope="col">outcome 1</th><th scope="col">outcome 2</th></tr></thead>'
                     "<tbody>" + "".join(f'<tr><th scope="row">{escape(n)}</th><td>{escape(x)}</td><td>{escape(y)}</td>'
                                         "</tr>" for n, x, y in rows) + "</tbody></table>")
    elif r.verdict is Verdict.CONTRADICTION and show_core:
        parts.append(_core(r.core, "The conflicting set (" + ("re-checked" if r.core_verified else "NOT re-checked")
                           + " as conflicting and minimal):"))
    if r.verdict is Verdict.CONTRADICTION and (r.resolutions or r.resolutions_note):
        parts.append(_ways_out(r))
    if e.derivation is not None and e.derivation.steps:
        parts.append("<details><summary>Why: the facts and rules that force it</summary>"
                     + _core(e.derivation.steps, "Forced by (" + ("re-checked" if e.derivation.verified
                                                                  else "NOT re-checked") + "):")
                     + f"<p>therefore {escape(r.question)} = {escape(r.value or '')}</p></details>")
    if r.at_fault:
        parts.append('<p class="at-fault">Statements at fault (they name an outcome no rule gives): '
                     + ", ".join(_statement_link(sid) for sid in r.at_fault) + "</p>")
    if e.statements:
        parts.append("<p>Statements that would have to say more to settle it:</p><ul>"
                     + "".join(f"<li>{_statement_link(sid)}: {escape(text)}</li>" for sid, text in e.statements)
                     + "</ul>")
    if r.rules_involved and r.verdict is not Verdict.DETERMINED:
        parts.append(f"<p>Rules involved: {escape(', '.join(r.rules_involved))}</p>")
    if r.reason:
        parts.append(f"<p>Note: {escape(r.reason)}</p>")
    parts.append("</section>")
    return "\n".join(parts)


def _ways_out(r: QuestionResult) -> str:
    """The ways out of a contradiction (resolving interpretations, minimal correction sets) with the
    question's answer under each."""
    same = same_under_every_resolution(r)
    rows = []
    for w in r.resolutions:
        if w.interpretation:
            what = f"interpretation {escape(w.interpretation)}, in place of {escape(', '.join(w.rules))}"
        else:
            what = ("leave out " + " + ".join(_statement_link(sid) for sid in w.statements)
                    + f" (rules {escape(', '.join(w.rules))})")
        a = w.answer_to(r.question)
        rows.append(f"<tr><td>{what}</td><td>{'yes' if w.verified else 'NOT re-checked'}</td>"
                    f'<td><span class="verdict">{escape(a.answer if a else "")}</span></td></tr>')
    table = ("<table><caption>Ways out of the contradiction, and this question's answer under each"
             + (f" (the same under every one: {escape(same)})" if same is not None and len(r.resolutions) > 1 else "")
             + '</caption><thead><tr><th scope="col">resolution</th><th scope="col">re-checked</th>'
             '<th scope="col">answer</th></tr></thead><tbody>' + "".join(rows) + "</tbody></table>") if rows else ""
    note = f"<p>Note: {escape(r.resolutions_note)}</p>" if r.resolutions_note else ""
    return table + note


def _timeline_section(t: Timeline, title: str, interpretation: str = "") -> str:
    """The timeline's picture, legend and attempts; under `interpretation`, a resolving interpretation's."""
    zones = sorted({cell.text for row in t.zones for cell in row if cell.decided})
    legend = "".join(f'<li><span class="swatch" style="background:{ZONE_COLOURS.get(z, "#fff")}"></span>{escape(z)}</li>'
                     for z in zones)
    legend += ('<li><span class="swatch" style="background:repeating-linear-gradient(45deg,#fff 0 3px,#d04040 3px 6px)">'
               "</span>left open by the rules (?)</li><li>&#8617; returns from the set-aside area</li>"
               '<li><span class="swatch" style="background:#e06666"></span>battle in progress</li>')
    steps = []
    for a in t.attempts:
        what = {"play_card": "plays", "activate_ability": "uses an ability of", "return_early": "returns early",
                "negate_ability": "negates", "enter_battle": "enters battle with", "choose_return": "chooses the return of",
                "end_battle": "ends the battle", "discard_card": "discards"}.get(a.kind, a.kind)
        target = a.negates or a.card or ""
        moved = ", ".join(a.targets)
        line = (f"<li><strong>{escape(a.id)}</strong> ({escape(t.columns[a.column].label)}): {escape(a.player)} "
                f"{escape(what)} {escape(target)}" + (f" [{escape(moved)}]" if moved else "")
                + f"; legal: {escape(a.legal.text)}; negated: {escape(a.negated.text)}")
        if a.activation_order is not None:
            order = a.activation_order
            if order.decided:
                items = [x.strip() for x in order.text.split("->") if x.strip() and order.text != "nothing activates"]
                line += ("<br>Activation order: " + ("<ol class=\"activation\">" + "".join(
                    f"<li>{escape(x)}</li>" for x in items) + "</ol>" if items else "nothing activates"))
            else:
                line += f"<br>Activation order: {escape(order.verdict)}: {escape(order.text)}"
        steps.append(line + "</li>")
    note = ("<p class=\"fail\">The rules allow no outcome for this case (a contradiction), so the picture shows "
            "the attempts only.</p>" if t.contradiction else "")
    anchor = f"timeline-{_anchor(interpretation)}" if interpretation else "timeline"
    heading = f"Timeline under the interpretation {escape(interpretation)}" if interpretation else "Timeline"
    if interpretation:
        note = (f"<p>The case's rules conflict; taking the interpretation {escape(interpretation)} resolves the "
                "conflict, and this is the timeline it gives.</p>")
    key = f"-{_anchor(interpretation)}" if interpretation else ""
    return (f'<section aria-labelledby="{anchor}"><h2 id="{anchor}">{heading}</h2>' + note
            + f'<figure>{timeline_svg(t, title, key)}<figcaption>Each row a card (its controller in brackets), each column '
              "the state after a step; the numbered circles are the attempts in the order they are made.</figcaption>"
              f'</figure><ul class="legend" aria-label="Legend">{legend}</ul>'
            + f'<h3>Attempts</h3><ol class="attempts">{"".join(steps) or "<li>none</li>"}</ol></section>')


def _case(report: CaseReport) -> str:
    res = report.result
    contradiction = any(r.verdict is Verdict.CONTRADICTION for r in res.results)
    table = ("<table><caption>Verdicts</caption><thead><tr><th scope=\"col\">question</th><th scope=\"col\">answer"
             "</th><th scope=\"col\">expected</th><th scope=\"col\">status</th></tr></thead><tbody>"
             + "".join(f'<tr><td><a href="#q-{escape(r.question)}">{escape(r.question)}</a></td>'
                       f'<td class="verdict">{escape(r.answer)}</td><td class="verdict">{escape(r.expected_answer or "")}'
                       f"</td><td>{_status(r.ok)}</td></tr>" for r in res.results) + "</tbody></table>")
    note = "".join(f"<p>{escape(p)}</p>" for p in res.note.split("\n\n") if p.strip())
    body = [f"<h1>{escape(res.title)}</h1>", f'<p class="muted">{escape(res.case)}</p>', note, table,
            _timeline_section(report.timeline, res.title),
            *(_timeline_section(t, res.title, name) for name, t in report.resolved),
            '<section aria-labelledby="why"><h2 id="why">Verdicts and explanations</h2>']
    body += [_question(e, show_core=not (contradiction and i > 0)) for i, e in enumerate(report.explanations)]
    body.append("</section>")
    return _page(f"{res.title} - regcheck", "", "\n".join(body))


# -- contradictions, accepted findings, coverage ----------------------------------------------------------------


def _contradictions(site: Site) -> str:
    body = ["<h1>Contradictions</h1>",
            "<p>Cases for which the rules allow no outcome: the conflicting set of rule instances and facts, and "
            "the rules text with the statements they cite marked.</p>"]
    found = False
    by_id = {s.id: s for s in site.statements}
    for c in site.cases:
        first = next((r for r in c.result.results if r.verdict is Verdict.CONTRADICTION), None)
        if first is None:
            continue
        found = True
        cited = {sid for item in first.core for sid, _ in item.statements}
        sections = sorted({by_id[sid].section for sid in cited if sid in by_id})
        body.append(f'<section class="contradiction" aria-labelledby="c-{escape(_anchor(c.result.case))}">'
                    f'<h2 id="c-{escape(_anchor(c.result.case))}"><a href="{case_page_name(c.result.case)}">'
                    f"{escape(c.result.title)}</a></h2><p class=\"muted\">{escape(c.result.case)}</p>")
        body.append(_core(first.core, "The conflicting set:"))
        body.append("<p>Statements in conflict: " + ", ".join(_statement_link(sid) for sid in sorted(cited)) + "</p>")
        for section in sections:
            body.append(f"<h3>{escape(section)}: the rules text</h3>")
            for s in site.statements:
                if s.section != section:
                    continue
                text = f"<strong>{escape(s.id)}</strong> {escape(s.text)}"
                body.append('<div class="statement">'
                            + (f'<mark class="conflicting">{text}</mark>' if s.id in cited else text) + "</div>")
        body.append("</section>")
    if not found:
        body.append("<p>None: the rules allow an outcome in every case.</p>")
    return _page("Contradictions - " + site.title, "contradictions.html", "\n".join(body))


def _accepted(site: Site) -> str:
    rows = "".join(f'<tr><td class="verdict">{escape(a.finding.verdict)}</td><td>{escape(a.finding.name)}</td>'
                   f"<td>{escape(', '.join(a.finding.rules))}</td><td>{escape(a.note)}</td>"
                   f'<td class="verdict">{escape(a.finding.fingerprint)}</td></tr>' for a in site.accepted)
    table = ("<table><caption>Findings awaiting a ruling</caption><thead><tr><th scope=\"col\">verdict</th>"
             "<th scope=\"col\">where</th><th scope=\"col\">rules</th><th scope=\"col\">note</th>"
             f"<th scope=\"col\">fingerprint</th></tr></thead><tbody>{rows}</tbody></table>" if rows
             else "<p>None.</p>")
    return _page("Accepted findings - " + site.title, "accepted.html",
                 f"<h1>Accepted findings</h1><p>Ambiguities and contradictions known and awaiting a ruling "
                 f"(accepted-findings.yaml).</p>{table}")


def _coverage(site: Site) -> str:
    locked = "".join(f'<tr><th scope="row">{escape(name)}</th><td>{count}</td></tr>'
                     for name, count in site.locked_cards.items())
    locked_table = ('<table id="locked-cards"><caption>Recorded in cards.lock: texts modelled or read through a '
                    'reviewed override</caption><thead><tr><th scope="col">category</th><th scope="col">texts</th>'
                    f"</tr></thead><tbody>{locked}</tbody></table>" if locked else "<p>No cards.lock.</p>")
    if site.coverage is None:
        return _page("Card coverage - " + site.title, "coverage.html",
                     "<h1>Card coverage</h1>" + locked_table
                     + "<p>The full counts (modelled, override, unsupported, not read) are made by "
                       "<code>regcheck report --coverage</code> or <code>regcheck cards --coverage</code>.</p>")
    categories = site.coverage.get("coverage", {})
    keys = ("definition", "modelled", "override", "unsupported", "not-read", "texts", "modelled_or_override_percent")
    rows = "".join(f'<tr><th scope="row">{escape(name)}</th>'
                   + "".join(f"<td>{escape(str(c.get(k, '')))}</td>" for k in keys) + "</tr>"
                   for name, c in categories.items())
    head = "".join(f'<th scope="col">{escape(k.replace("_", " "))}</th>' for k in keys)
    return _page("Card coverage - " + site.title, "coverage.html",
                 "<h1>Card coverage</h1><p>Per category of card text (a text is in one when its printed words say "
                 "what the definition says, whatever the card grammar read), and for all distinct texts, how many "
                 "printed texts of the card list regcheck models, reads through a reviewed override, or cannot "
                 "read yet.</p>"
                 f'<table><caption>Coverage</caption><thead><tr><th scope="col">category</th>{head}</tr></thead>'
                 f"<tbody>{rows}</tbody></table>" + locked_table + _blockers(site.coverage.get("blockers", {})))


def _blockers(blockers: dict[str, list[dict[str, Any]]]) -> str:
    """Per category, what blocks its unsupported texts: each reason, how many texts it blocks, the first cards."""
    out = []
    for category, reasons in blockers.items():
        if not reasons:
            continue
        rows = "".join(f'<tr><td>{escape(r["reason"])}</td><td>{r["texts"]}</td>'
                       f'<td>{escape("; ".join(r["cards"]))}</td></tr>' for r in reasons)
        out.append(f'<table class="blockers"><caption>What blocks the unsupported {escape(category)} texts (a text '
                   'counts under each of its reasons)</caption><thead><tr><th scope="col">reason</th>'
                   '<th scope="col">texts</th><th scope="col">first cards</th></tr></thead>'
                   f"<tbody>{rows}</tbody></table>")
    return "".join(out)


def _left_out(title: str, name: str, heading: str, what: str, option: str) -> str:
    """The page of a part the report was not asked for, saying which option adds it."""
    return _page(title, name, f"<h1>{heading}</h1><p>{what} in this report: "
                              f"<code>regcheck report --html DIR {option}</code> adds one.</p>")


def _sweep(site: Site) -> str:
    title = "Sweep - " + site.title
    report = site.sweep
    if report is None:
        return _left_out(title, "sweep.html", "Sweep", "No sweep", "--sweep DATABASE")
    run, c = report.run, report.counts
    template = run["template"]
    body = [f"<h1>Sweep</h1><p>{escape(report.database)}: {plural(len(report.rows), 'combination')} of {template['size']} "
            "cards: " + ", ".join(f"{c[k]} {k}" for k in SHOWN_STATUSES) + ". "
            f"Template: {template['turns']} turn(s), phases {escape(', '.join(template['phases']))}, attempts "
            f"{escape(', '.join(template['attempts']))}, {template['per_phase']} per phase, at most "
            f"{template['max_attempts']}. Rule base {escape(run['rules_fingerprint'])}; {len(run['cards'])} cards "
            f"combined, {len(run['skipped'])} left out.</p>"]
    for heading, found in (("New findings", report.new),
                           ("Accepted findings (the verdict and rules of a finding awaiting a ruling)",
                            tuple(f for f in report.findings if f.accepted))):
        body.append(f"<h2>{escape(heading)} ({len(found)})</h2>" + ("" if found else "<p>None.</p>"))
        for i, f in enumerate(found):
            what = f"{f.verdict} of {f.symbol}" if f.symbol else f"{f.verdict} of the whole scenario"
            shown = "; ".join(f.combinations[:10]) + (f" and {len(f.combinations) - 10} more"
                                                      if len(f.combinations) > 10 else "")
            body.append(
                f'<section class="finding" aria-labelledby="f-{escape(heading[:3])}-{i}">'
                f'<h3 id="f-{escape(heading[:3])}-{i}"><span class="verdict">{escape(what)}</span></h3>'
                f"<p>Rules involved: {escape(', '.join(f.rules) or 'none')}.</p>"
                + (f"<p>Accepted as {escape('; '.join(f.accepted))}.</p>" if f.accepted else "")
                + f"<p>In {len(f.combinations)} combination{'s' if len(f.combinations) != 1 else ''} "
                f"({f.scenarios} scenarios): {escape(shown)}.</p>"
                f"<details><summary>Witness ({escape(f.witness_combination)}): {escape(f.witness['question'])}"
                f"</summary><pre>{escape(f.witness['case'])}</pre></details></section>")
    broken = [r for r in report.rows if r.status in ("failed", "unknown")]
    if broken:
        body.append("<h2>Failed and unknown combinations</h2><ul>" + "".join(
            f"<li>{escape(r.key)} ({escape(r.status)}): {escape(r.error)}</li>" for r in broken) + "</ul>")
    if run["skipped"]:
        body.append("<details><summary>Cards left out, with the reason</summary><ul>" + "".join(
            f"<li>{escape(x['name'])}: {escape(x['reason'])}</li>" for x in run["skipped"]) + "</ul></details>")
    return _page(title, "sweep.html", "\n".join(body))


def _explore(site: Site) -> str:
    title = "Explore - " + site.title
    report = site.explore
    if report is None:
        return _left_out(title, "explore.html", "Explore", "No search of scopes", "--scope FILE")
    body = ["<h1>Explore</h1><p>Every scenario of each scope searched for contradictions and ambiguities; "
            "each finding is shown once per cause, with the smallest scenario that shows it.</p>"]
    for n, s in enumerate(report.scopes):
        r = s.result
        body.append(f'<section aria-labelledby="scope-{n}"><h2 id="scope-{n}">{escape(r.scope)}: {escape(r.title)}</h2>'
                    f"<p>{r.checked:,} of {escape(r.scenarios_shown)} scenarios checked ({r.answered_in_full} answered "
                    f"in full) in {r.seconds:.1f} s: {plural(len(s.new), 'new finding')}, "
                    f"{len(s.accepted)} accepted.</p>")
        if r.incomplete:
            body.append('<p class="fail">The search was cut short: ' + escape("; ".join(r.incomplete[:10]))
                        + (f" and {len(r.incomplete) - 10} more" if len(r.incomplete) > 10 else "") + ".</p>")
        found = [(f, None) for f in s.new] + [(f, " ".join(a.note.split())) for f, a in s.accepted]
        for i, (f, note) in enumerate(found):
            what = f"{f.verdict} of {f.symbol}" if f.symbol else f"{f.verdict} of the whole scenario"
            steps = "".join(f"<li>{escape(a)}</li>" for a in f.attempts)
            body.append(
                f'<section class="finding" aria-labelledby="x-{n}-{i}"><h3 id="x-{n}-{i}">'
                f'<span class="{"verdict" if note is not None else "verdict fail"}">'
                f'{"accepted" if note is not None else "new"} {escape(what)}</span></h3>'
                + (f'<p class="at-fault">Statements at fault: {", ".join(_statement_link(sid) for sid in f.at_fault)}.</p>'
                   if f.at_fault else "")
                + f"<p>Rules involved: {escape(', '.join(f.rules) or 'none')}. Shown by {plural(f.scenarios, 'scenario')} "
                "of the scope.</p>"
                + (f"<p>Accepted: {escape(note)}</p>" if note is not None else "")
                + f"<p>Smallest witness: {plural(f.turns, 'turn')}, cards "
                f"{escape(', '.join(f.cards))}"
                + (f"; question <code>{escape(f.question)}</code>.</p>" if f.symbol
                   else "; no outcome at all satisfies the rules.</p>")
                + (f"<ol>{steps}</ol>" if steps else "")
                + f"<details><summary>Witness as a case file</summary><pre>{escape(f.case)}</pre></details></section>")
        if r.unused:
            whose = ("no scenario of the scope reaches" if r.complete
                     else "no scenario answered reaches (the search is incomplete)")
            body.append(f"<p>Statements {whose}: {escape(', '.join(r.unused))}.</p>")
        body.append("</section>")
    return _page(title, "explore.html", "\n".join(body))


def pages(site: Site) -> dict[str, str]:
    """Every page of the site, by file name."""
    out = {"index.html": _index(site), "rules.html": _rules(site), "contradictions.html": _contradictions(site),
           "accepted.html": _accepted(site), "coverage.html": _coverage(site), "explore.html": _explore(site),
           "sweep.html": _sweep(site)}
    for c in site.cases:
        out[case_page_name(c.result.case)] = _case(c)
    return out


def write_site(folder: Path, site: Site) -> list[Path]:
    """Write every page into `folder` (made if missing); returns the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in pages(site).items():
        write_file(folder / name, text)
        written.append(folder / name)
    return written
