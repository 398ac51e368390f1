"""The `regcheck` command line."""

from __future__ import annotations

__all__ = ["main", "run", "find_root", "collect_cases"]

import gc
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

import click

from . import api, interruption
from .errors import InputError, RegcheckError, UsageError
from .escaping import escape_text, quoted
from .files import WriteError, display_path, ignore_file_size_signal, write_file
from .report import (
    explanations_json,
    explore_json,
    render_case,
    render_explanations,
    render_explore,
    render_rules,
    render_ruling,
    results_json,
    rule_statuses,
    rules_json,
    ruling_json,
)
from .runner import CaseInputError
from .scenario.loader import DEFAULTS
from .solver.backend import prepare_context
from .solver.engine import DEFAULT_TIMEOUT_MS
from .terminal import Progress, Selection, SelectionError, plural
from .verdicts import CaseResult, RulingVerdict

EXIT_OK, EXIT_FINDING, EXIT_INPUT = 0, 1, 2


def find_root(start: Path) -> Path | None:
    """The nearest folder at or above `start` holding both `rules/` and `encodings/`."""
    for folder in [start, *start.parents]:
        if (folder / "rules").is_dir() and (folder / "encodings").is_dir():
            return folder
    return None


def collect_cases(paths: tuple[str, ...]) -> list[Path]:
    """Case files named directly, or found recursively (*.yaml, *.yml) in named folders, sorted.

    Every such entry that is not a folder is listed, regular file or not: one that is not (a
    dangling link, a FIFO, a device) is reported as bad input when it is checked, never skipped.
    """
    found: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found += sorted(f for f in path.rglob("*") if f.suffix in (".yaml", ".yml") and not f.is_dir())
        elif path.exists() or path.is_symlink():
            found.append(path)
        else:
            raise click.BadParameter(f"no such file or folder: {p}", param_hint="PATH")
    seen: set[Path] = set()
    unique = []
    for f in found:
        if f.resolve() not in seen:
            seen.add(f.resolve())
            unique.append(f)
    return unique


def _repository(root_opt: str | None) -> Path:
    """The rules repository named by --root, or found from the current folder."""
    root = Path(root_opt) if root_opt else find_root(Path.cwd())
    if root is None or not (root / "encodings").is_dir() or not (root / "rules").is_dir():
        raise click.UsageError(
            "no rules repository found: need folders rules/ and encodings/ in the current folder "
            "or above it (or pass --root)")
    return root


def _fail_input(err: InputError | RegcheckError) -> None:
    click.echo(f"error: {err}", err=True)


_leave_at_once = False


def _exit(code: int) -> None:
    """End the command; in the command-line program, without tearing down the solver's objects one by one."""
    if _leave_at_once:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


root_option = click.option("--root", type=click.Path(file_okay=False, exists=True),
                           help="The rules repository (holding rules/ and encodings/); "
                                "found from the current folder by default.")
format_option = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
                             show_default=True, help="Output for people or for programs.")


EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a program ended by Ctrl-C


class _Commands(click.Group):
    """The command group; Ctrl-C ends any command with exit status 130 and one line, never a traceback."""

    def invoke(self, ctx: click.Context) -> object:
        interruption.install()
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            sys.stderr.write("\ninterrupted\n")
            sys.stderr.flush()
            _exit(EXIT_INTERRUPTED)
            raise  # not reached: _exit ends the command


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="regcheck")
def main() -> None:
    """regcheck: check Redemption card combinations against the encoded rules."""
    # Grounding allocates many small objects that live until the case is done; collecting
    # garbage less often saves a third of the time of a one-case run and keeps memory bounded.
    gc.set_threshold(100_000, 50, 100)
    ignore_file_size_signal()  # a write past `ulimit -f` fails with an error regcheck reports


timeout_option = click.option("--timeout", type=click.FloatRange(0.01, 3600), default=DEFAULT_TIMEOUT_MS / 1000,
                              show_default=True, help="Seconds the solver may spend on one check.")
memory_option = click.option("--memory", type=click.IntRange(16, 1_000_000), default=None,
                             help="Megabytes of memory the solver may use.")
jobs_option = click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
                           help="Cases checked at once (default: one per processor).")


@main.command()
@click.argument("paths", nargs=-1, required=True)
@format_option
@root_option
@timeout_option
@memory_option
@click.option("--show-defaults", is_flag=True, help="List the inputs each case left to a default.")
@jobs_option
@click.option("-k", "select", metavar="EXPR", default=None,
              help="Check only the questions whose ID (case path::question) matches EXPR: words, and/or/not, "
                   "parentheses; a word matches when it is part of the ID, in any case.")
@click.option("-x", "--exitfirst", is_flag=True, help="Stop at the first case that fails or cannot be read.")
@click.option("-q", "--quiet", count=True, help="Show only the cases that fail (-qq: only the summary).")
@click.option("-v", "--verbose", count=True, help="Also show each case's note.")
@click.option("--update-expect", is_flag=True,
              help="Write each answer that differs from its expectation into the case's expect block "
                   "(unknown answers are never written).")
@click.option("--junit-file", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Also write the results as JUnit XML to this file.")
@click.option("--sarif-file", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Also write the results as SARIF 2.1.0 to this file.")
@click.option("--strict", is_flag=True,
              help="Refuse a case whose defaults may change its meaning (a card left to the first player that "
                   "another uses, a blocker with no player), instead of warning.")
@click.option("--no-cache", is_flag=True, envvar="REGCHECK_NO_CACHE",
              help="Check every case afresh, without reading or writing the result cache (.regcheck_cache/ at the "
                   "repository's root, or $REGCHECK_CACHE_DIR; REGCHECK_NO_CACHE=1 does the same).")
def check(paths: tuple[str, ...], fmt: str, root: str | None, timeout: float, memory: int | None,
          show_defaults: bool, jobs: int | None, select: str | None, exitfirst: bool, quiet: int, verbose: int,
          update_expect: bool, junit_file: str | None, sarif_file: str | None, strict: bool, no_cache: bool) -> None:
    """Check the case files in PATHS (files or folders, searched recursively)."""
    from dataclasses import replace

    from .terminal import colour_marks, use_colour

    selection = _selection(select)
    files = collect_cases(paths)
    if not files:
        raise click.UsageError("no case files (*.yaml) found in the given paths")
    if selection is not None:
        files = [f for f in files if selection.may_match(str(f))]
        if not files:
            raise click.UsageError(f"no case file can match -k {select!r}")
    if junit_file and sarif_file and os.path.realpath(junit_file) == os.path.realpath(sarif_file):
        raise click.UsageError(f"--junit-file and --sarif-file name the same file {junit_file}")
    if len(files) == 1:
        prepare_context()  # while the rules are read; no workers are forked for one case
    try:
        repo = api.open_repository(_repository(root))
    except RegcheckError as err:
        _fail_input(err)
        sys.exit(EXIT_INPUT)
    verbosity = verbose - quiet
    colour = fmt == "text" and use_colour(sys.stdout)
    results: list[CaseResult] = []
    errors: list[CaseInputError] = []
    paths_of: dict[str, Path] = {}
    progress = Progress("checking cases")
    stopped = False
    checked = api.check(repo, files, int(timeout * 1000), memory, jobs, show_defaults, use_cache=not no_cache)
    for done, outcome in enumerate(checked, 1):
        progress(done, len(files))
        if not isinstance(outcome, CaseInputError) and outcome[0].warnings:
            outcome = _warn(outcome[0], strict, progress) or outcome
        if isinstance(outcome, CaseInputError):
            progress.done()
            click.echo(f"error: {outcome}", err=True)
            errors.append(outcome)
        else:
            result, defaults_text = outcome
            if selection is not None:
                result = replace(result, results=tuple(r for r in result.results
                                                       if selection.matches(result.case, r.question)))
                if not result.results:
                    continue
            results.append(result)
            paths_of[result.case] = files[done - 1]
            failed_here = any(not r.ok for r in result.results)
            if fmt == "text" and (verbosity >= 0 or (verbosity == -1 and failed_here)):
                progress.done()
                text = render_case(result)
                if verbosity >= 1 and result.note:
                    text += "\n" + "\n".join("    " + escape_text(line) for line in result.note.splitlines())
                click.echo(colour_marks(text) if colour else text, color=colour or None)
                if show_defaults:
                    click.echo(defaults_text)
                click.echo()
        if exitfirst and (isinstance(outcome, CaseInputError) or any(not r.ok for r in results[-1].results)):
            stopped = done < len(files)
            break
    progress.done()
    updated = _update_expectations(repo, results, paths_of) if update_expect else {}
    if junit_file or sarif_file:
        _write_check_reports(repo, results, errors, junit_file, sarif_file)
    failed = [r for c in results for r in c.results if not r.ok and (r.case, r.question) not in updated]
    if fmt == "json":
        out = results_json(results)
        if errors:  # case files that could not be checked; the output of a run without any is unchanged
            summary = {**out["summary"], "errors": len(errors)}
            out = {"results": out["results"], "errors": [e.json() for e in errors], "summary": summary}
        click.echo(json.dumps(out, indent=2, sort_keys=False))
    else:
        qs = [r for c in results for r in c.results]
        if (failed or (errors and results)) and verbosity >= -1:  # (a run of unreadable files only: no list)
            click.echo("not ok:")
            for r in failed:
                expected = f"expected {r.expected_answer}, got " if r.expected_answer else "unexpected "
                click.echo(escape_text(f"  {r.case}::{r.question}: {expected}{r.answer}"))
            for e in errors:
                click.echo(escape_text(f"  {e.file}: could not be checked"))
        ok_count = len(qs) - len(failed) - len(updated)
        line = (f"{plural(len(results), 'case')}, {plural(len(qs), 'question')}: {ok_count:,} ok, {len(failed):,} not ok"
                + (f", {plural(len(updated), 'expectation')} updated" if update_expect else "")
                + (f"; {plural(len(errors), 'case file')} could not be checked" if errors else "")
                + ("; stopped at the first failure (-x)" if stopped else ""))
        if colour:
            line = click.style(line, fg="red" if failed or errors else "green", bold=True)
        click.echo(line, color=colour or None)
    if errors:
        _exit(EXIT_INPUT)
    _exit(EXIT_FINDING if failed else EXIT_OK)


def _locked_card_counts(repository: Path) -> dict[str, int]:
    """The card counts cards.lock records (none when it is missing or unreadable)."""
    from .gate.cardlock import CARDS_LOCK_FILE, read_cards_lock

    try:
        return {category: count for category, (count, _) in read_cards_lock(repository / CARDS_LOCK_FILE).items()}
    except (RegcheckError, OSError):
        return {}


def _warn(result: CaseResult, strict: bool, progress: Progress) -> CaseInputError | None:
    """Show a case's warnings on standard error; with --strict, the case is refused (at its first warning)."""
    progress.done()
    if strict:
        file, line, column, message = result.warnings[0]
        return CaseInputError(file, line, column, f"{message} (--strict)")
    for file, line, column, message in result.warnings:
        click.echo(escape_text(f"warning: {file}:{line}:{column}: {message}"), err=True)
    return None


def _update_expectations(repo: api.Repository, results: list[CaseResult],
                         paths_of: dict[str, Path]) -> dict[tuple[str, str], str]:
    """Write each answer that differs from its expectation into its case file; returns the questions updated."""
    from .expectations import Answer, update_case_file
    from .verdicts import Verdict

    updated: dict[tuple[str, str], str] = {}
    for result in results:
        answers = [Answer(r.question, r.verdict.value, r.value) for r in result.results
                   if r.verdict is not Verdict.UNKNOWN and (r.expected, r.expected_value) != (r.verdict.value, r.value)]
        if not answers:
            continue
        path = paths_of[result.case]
        try:
            if update_case_file(path, answers, lambda p: api.load(repo, p)):
                updated.update({(result.case, a.question): a.verdict for a in answers})
                click.echo(f"updated {len(answers)} expectation{'s' if len(answers) != 1 else ''} in "
                           f"{escape_text(display_path(path))}", err=True)
        except (RegcheckError, OSError) as err:
            click.echo(f"error: {err}", err=True)
            _exit(EXIT_INPUT)
    return updated


def _write_check_reports(repo: api.Repository, results: list[CaseResult], errors: list[CaseInputError],
                         junit_file: str | None, sarif_file: str | None) -> None:
    from .errors import Location
    from .gate import gate_junit, gate_sarif
    from .gate.run import check_report

    unreadable = [(e.file, Location(e.file, e.line, e.column or 0) if e.line is not None else None, e.message)
                  for e in errors]
    report = check_report(repo.root, repo.rules, repo.document(), results, unreadable)
    try:
        if junit_file:
            write_file(Path(junit_file), gate_junit(report, "regcheck check", rules_suite=False))
        if sarif_file:
            write_file(Path(sarif_file), json.dumps(gate_sarif(report), indent=2) + "\n")
    except WriteError as err:
        _fail_input(err)
        _exit(EXIT_INPUT)


@main.command()
@click.argument("case", type=click.Path(dir_okay=False, exists=True))
@click.option("--question", "-q", default=None, help="Explain only this question (by its name in the case).")
@click.option("--brief", is_flag=True, help="Of a determined value, show only the rules that decide it and the facts they read.")
@format_option
@root_option
@timeout_option
@memory_option
def explain(case: str, question: str | None, brief: bool, fmt: str, root: str | None, timeout: float,
            memory: int | None) -> None:
    """Explain why the rules answer CASE's questions as they do.

    A determined value is shown with a minimal set of rule instances and facts that force it, the
    rules that decide it first and inertia last; an ambiguous one with its two outcomes and the
    statements that would have to say more; a contradiction with the conflict.
    """
    try:
        scenario, explanations = api.explain(api.open_repository(_repository(root)), Path(case), question,
                                             int(timeout * 1000), memory)
    except RegcheckError as err:
        _fail_input(err)
        sys.exit(EXIT_INPUT)
    if fmt == "json":
        click.echo(json.dumps(explanations_json(scenario.path, explanations), indent=2))
    else:
        click.echo(render_explanations(scenario.path, scenario.title, explanations, brief))
    _exit(EXIT_OK if all(e.result.ok for e in explanations) else EXIT_FINDING)


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, exists=True))
@click.option("--cases", "case_paths", multiple=True,
              help="Case files or folders to measure a general rule's impact on (default: the repository's cases/).")
@format_option
@root_option
@timeout_option
@memory_option
@jobs_option
@click.option("--scope", type=click.Path(dir_okay=False, exists=True), default=None,
              help="Also check a ruling's rules on every scenario of this scope file.")
def ruling(files: tuple[str, ...], case_paths: tuple[str, ...], fmt: str, root: str | None, timeout: float,
           memory: int | None, jobs: int | None, scope: str | None) -> None:
    """Check proposed rulings (FILES) against the rule base.

    A ruling is `entailed` (the rules already imply it), `contradicts` them (with the minimal
    conflicting set), or `narrows` what they allow (with the questions whose verdict changes).
    A ruling that proposes general rules is also checked on every case (and, with --scope, on every
    scenario of a scope), to show its impact.
    Exits 1 when a ruling contradicts the rules or a check was left unknown.
    """
    repository = _repository(root)
    cases_given = case_paths or ((os.path.relpath(repository / "cases"),) if (repository / "cases").is_dir() else ())
    case_files = collect_cases(cases_given)
    progress = Progress("ruling")
    try:
        results, errors = api.ruling(api.open_repository(repository), [Path(f) for f in files], case_files,
                                     int(timeout * 1000), memory, jobs, Path(scope) if scope else None,
                                     lambda what, done, total: progress(done, total, f"ruling {what}: cases"))
        progress.done()
    except RegcheckError as err:
        progress.done()
        _fail_input(err)
        sys.exit(EXIT_INPUT)
    for message in errors:
        click.echo(f"error: {message}", err=True)
    bad_input = bool(errors)
    if fmt == "json":
        click.echo(json.dumps({"rulings": [ruling_json(r) for r in results]}, indent=2))
    else:
        click.echo("\n\n".join(render_ruling(r) for r in results))
    if bad_input:
        sys.exit(EXIT_INPUT)
    failed = any(r.verdict in (RulingVerdict.CONTRADICTS, RulingVerdict.UNKNOWN) for r in results)
    _exit(EXIT_FINDING if failed else EXIT_OK)


def _collect_scopes(paths: tuple[str, ...]) -> list[Path]:
    found = collect_cases(paths)
    if not found:
        raise click.UsageError("no scope files (*.yaml) found in the given paths")
    return found


def _selection(select: str | None) -> Selection | None:
    """A `-k` expression as given on the command line, or None without one; one it cannot read is a usage error."""
    try:
        return Selection(select) if select is not None else None
    except SelectionError as err:
        raise click.UsageError(str(err)) from None


def _progress_printer(unit: str = "scenarios") -> Callable[[str, int, int], None]:
    """Progress of long work on standard error, counted in `unit`, for each thing it is told of (a scope, say):
    one updating line on a terminal, a line per tenth elsewhere."""
    tty = sys.stderr.isatty()
    shown: dict[str, int] = {}

    def show(what: str, done: int, total: int) -> None:
        if tty:
            click.echo(f"\r{escape_text(what)}: {done}/{total} {unit}", err=True, nl=done == total)
        elif done == total or done * 10 // max(total, 1) > shown.get(what, -1):
            shown[what] = done * 10 // max(total, 1)
            click.echo(f"{escape_text(what)}: {done}/{total} {unit}", err=True)
    return show


@main.command()
@click.argument("paths", nargs=-1, required=True)
@format_option
@root_option
@timeout_option
@memory_option
@jobs_option
@click.option("--write-cases", "write_cases", type=click.Path(file_okay=False), default=None,
              help="Write each new finding's smallest witness as a case file in this folder.")
@click.option("--max-scenarios", type=click.IntRange(1, 10_000_000), default=api.DEFAULT_MAX_SCENARIOS,
              show_default=True, help="Check at most this many scenarios of a scope (a larger scope is reported cut short).")
@click.option("--brute-force", is_flag=True,
              help="Answer every scenario in full instead of screening it first (the reference path; slow).")
@click.option("-k", "select", metavar="EXPR", default=None,
              help="Search only the scope files whose path matches EXPR: words, and/or/not, parentheses; a word "
                   "matches when it is part of the path, in any case.")
@click.option("-x", "--exitfirst", is_flag=True,
              help="Stop after the first scope with a new finding or a search cut short.")
def explore(paths: tuple[str, ...], fmt: str, root: str | None, timeout: float, memory: int | None, jobs: int | None,
            write_cases: str | None, max_scenarios: int, brute_force: bool, select: str | None, exitfirst: bool) -> None:
    """Search every scenario of the scope files in PATHS for contradictions and ambiguities.

    Each finding is reported once per cause (its verdict, the symbol of its question and the rules
    involved) with the smallest scenario that shows it. Findings listed in accepted-findings.yaml are
    shown apart. Exits 1 when a finding is new or a search was cut short by a limit.
    """
    scopes = _collect_scopes(paths)
    selection = _selection(select)
    if selection is not None:
        scopes = [p for p in scopes if selection.matches_path(str(p))]
        if not scopes:
            raise click.UsageError(f"no scope file matches -k {select!r}")
    options = api.ExploreOptions(int(timeout * 1000), memory, jobs, max_scenarios, brute_force)
    try:
        repo = api.open_repository(_repository(root))
        report = api.explore(repo, scopes, options, _progress_printer(), exitfirst)
        if write_cases:
            for path in _write_witnesses(Path(write_cases), report):
                click.echo(f"wrote {display_path(path)}", err=True)
    except (RegcheckError, WriteError) as err:
        _fail_input(err)
        sys.exit(EXIT_INPUT)
    click.echo(json.dumps(explore_json(report), indent=2) if fmt == "json" else render_explore(report))
    _exit(EXIT_OK if report.passed else EXIT_FINDING)


def _write_witnesses(folder: Path, report: api.ExploreReport) -> list[Path]:
    """Each new finding's witness as a case file named after its scope, verdict and symbol."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for s in report.scopes:
        stem = Path(s.result.scope).stem
        for number, f in enumerate(s.new, 1):
            path = folder / f"{stem}-{f.verdict}-{f.symbol or 'scenario'}-{number}.yaml".replace("_", "-")
            write_file(path, f.case)
            written.append(path)
    return written


@main.command()
@format_option
@root_option
def rules(fmt: str, root: str | None) -> None:
    """List every rules-document statement with its encoding status."""
    try:
        repo = api.open_repository(_repository(root))
        base, doc = repo.rules, repo.document()
    except RegcheckError as err:
        _fail_input(err)
        sys.exit(EXIT_INPUT)
    statuses = rule_statuses(doc, base)
    known = {s.id for s in doc.statements}
    unknown = sorted({(sid, r.id, str(r.loc)) for r in base.rules for sid in r.cites if sid not in known})
    if fmt == "json":
        out = rules_json(statuses)
        out["unknown_citations"] = [{"statement": s, "rule": r, "location": loc} for s, r, loc in unknown]
        click.echo(json.dumps(out, indent=2))
    else:
        click.echo(render_rules(statuses))
        for sid, rid, loc in unknown:
            click.echo(f"{loc}: rule {rid} cites {sid}, which is not in the rules document")
    if unknown or any(s.status == "missing" for s in statuses):
        sys.exit(EXIT_FINDING)


@main.command()
@click.argument("names", nargs=-1)
@click.option("--coverage", "show_coverage", is_flag=True,
              help="Count, per category, the printed texts that are modelled, override, unsupported or not read.")
@format_option
def cards(names: tuple[str, ...], show_coverage: bool, fmt: str) -> None:
    """Show what regcheck reads from real cards' printed text, or the coverage of the card list."""
    from .scenario.cardview import card_json, coverage_json, lookup, render_card, render_coverage

    if show_coverage == bool(names):
        raise click.UsageError("give card names, or --coverage")
    if show_coverage:
        click.echo(json.dumps(coverage_json(), indent=2) if fmt == "json" else render_coverage())
        return
    readings = []
    for name in names:
        found = lookup(name)
        if isinstance(found, list):
            hint = f"; did you mean {', '.join(quoted(f) for f in found)}?" if found else ""
            click.echo(f"error: no card named {quoted(name)} in the card list{hint}", err=True)
            sys.exit(EXIT_INPUT)
        readings.append(found)
    if fmt == "json":
        click.echo(json.dumps({"cards": [card_json(r) for r in readings]}, indent=2))
    else:
        click.echo("\n\n".join(render_card(r) for r in readings))


@main.command()
def defaults() -> None:
    """Show the defaults the case loader applies to what a case leaves unsaid."""
    for key, value in DEFAULTS.items():
        click.echo(f"{key}: {value}")


@main.command()
@click.option("--html", "html_dir", required=True, type=click.Path(file_okay=False),
              help="Write the report as a static site (plain HTML files) into this folder.")
@click.argument("paths", nargs=-1)
@root_option
@timeout_option
@memory_option
@jobs_option
@click.option("--coverage", "with_coverage", is_flag=True,
              help="Count the card coverage afresh (reads every card of the card list: a minute or more); "
                   "without it the report shows the counts recorded in cards.lock.")
@click.option("--scope", "scope_paths", multiple=True, type=click.Path(), metavar="PATH",
              help="Search the scope files at PATH (a file or a folder; repeatable) with explore and add the findings.")
@click.option("--sweep", "sweep_db", type=click.Path(dir_okay=False), default=None,
              help="Add the findings of this sweep's results database (regcheck sweep).")
def report(html_dir: str, paths: tuple[str, ...], root: str | None, timeout: float, memory: int | None,
           jobs: int | None, with_coverage: bool, scope_paths: tuple[str, ...], sweep_db: str | None) -> None:
    """Write a report of the case files in PATHS (default: the repository's cases/) as a static site: a summary,
    the rules document with each statement's status, a page per case with its verdicts, explanations and
    timeline picture, the contradictions, the accepted findings, the card coverage and, with --scope and
    --sweep, the findings of an explore and of a sweep."""
    from .gate.findings import FINDINGS_FILE, read_baseline
    from .htmlreport import Site, write_site
    from .scenario.cardview import coverage_json

    repository = _repository(root)
    files = collect_cases(paths or ((os.path.relpath(repository / "cases"),) if (repository / "cases").is_dir() else ()))
    if not files:
        raise click.UsageError("no case files (*.yaml) found in the given paths")
    progress = Progress("report")
    try:
        repo = api.open_repository(repository)
        swept = api.sweep_report(repo, Path(sweep_db)) if sweep_db else None  # a bad database before any case
        explored = (api.explore(repo, _collect_scopes(scope_paths),
                                api.ExploreOptions(int(timeout * 1000), memory, jobs), _progress_printer())
                    if scope_paths else None)
        doc = repo.document()
        reports: list[api.CaseReport] = []
        errors: list[CaseInputError] = []
        for done, outcome in enumerate(api.report_cases(repo, files, int(timeout * 1000), memory, jobs), 1):
            progress(done, len(files), "report: cases")
            if isinstance(outcome, CaseInputError):
                progress.done()
                click.echo(f"error: {outcome}", err=True)
                errors.append(outcome)
            else:
                reports.append(outcome)
        progress.done()
        site = Site("regcheck report", tuple(reports), tuple(errors), tuple(rule_statuses(doc, repo.rules)),
                    {r.id: r.cites for r in repo.rules.rules}, tuple(read_baseline(repository / FINDINGS_FILE, repository)),
                    coverage_json() if with_coverage else None, _locked_card_counts(repository), swept,
                    explored)
        written = write_site(Path(html_dir), site)
    except (RegcheckError, WriteError) as err:
        progress.done()
        _fail_input(err)
        sys.exit(EXIT_INPUT)
    except OSError as err:
        click.echo(f"error: {err}", err=True)
        sys.exit(EXIT_INPUT)
    click.echo(f"wrote {len(written)} pages to {escape_text(html_dir)}: open {escape_text(str(Path(html_dir) / 'index.html'))}")
    _exit(EXIT_INPUT if errors else EXIT_OK)


@main.command()
@root_option
@click.option("--rules", "targets", multiple=True, metavar="ID",
              help="Mutate only this rule or definition (repeatable; default: every one).")
@click.option("--kinds", default=None, metavar="KIND,...",
              help="The kinds of mutant, joined by commas: delete, negate, boundary, drop, and-or, condition, "
                   "constant (default: every kind).")
@format_option
@timeout_option
@memory_option
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
              help="Worker processes, each running a share of the mutants over every case (default: one per "
                   "processor).")
@click.option("--distinguish", "distinguish_dir", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help="For each surviving mutant, search a scope built from the rules it changes for a scenario the "
                   "rules and the mutant answer differently, and write it into DIR as a candidate case (the rules' "
                   "answers as its expect) for review; a survivor with none in scope is equivalent in scope and "
                   "leaves the score.")
@click.option("--max-scenarios", type=click.IntRange(1, 100_000), default=None,
              help="With --distinguish: search at most this many scenarios of each survivor's scope "
                   "[default: 100].")
@click.option("--prove-equivalent", is_flag=True,
              help="Try to prove each survivor equivalent: saying what the rules say (alone, or with other rules of "
                   "its section in force) for every structure, input and outcome over the cases' universes. A "
                   "survivor proven so is reported equivalent and leaves the score. Slow: tens of seconds a survivor.")
def mutate(root: str | None, targets: tuple[str, ...], kinds: str | None, fmt: str, timeout: float,
           memory: int | None, jobs: int | None, distinguish_dir: str | None, max_scenarios: int | None,
           prove_equivalent: bool) -> None:
    """Mutation analysis: edit one rule or definition at a time and check the edit against the case table
    (cases/), reporting each mutant killed (by which case and question), survived or invalid (with
    --prove-equivalent, equivalent: proven to say what the rules say, so that no case could kill it), and the
    mutation score per section and overall (equivalent mutants leave it). With --distinguish, each survivor's
    distinguishing case is written, or the survivor is reported equivalent in scope. Exit 0 once the report
    is out, whatever it says."""
    from .mutation import mutation_json, mutation_text
    from .mutation.distinguish import Distinction, case_name

    if max_scenarios is not None and distinguish_dir is None:
        raise click.UsageError("--max-scenarios needs --distinguish")

    chosen = tuple(k.strip() for k in kinds.split(",") if k.strip()) if kinds is not None else None
    passes, proofs = _progress_printer("case passes"), _progress_printer("survivors tried for equivalence")

    try:
        repo = api.open_repository(_repository(root))
        report = api.mutate(repo, targets, chosen, int(timeout * 1000), memory, jobs,
                            lambda done, total: passes("mutate", done, total), prove_equivalent,
                            lambda done, total: proofs("mutate", done, total))
        if distinguish_dir is not None:
            folder = Path(distinguish_dir)

            def told(found: Distinction, done: int, total: int) -> None:
                what = (f"{found.status.value} ({found.searched} of {plural(found.held, 'scenario')})" if found.held
                        else "equivalent (no rule uses the definition)" if found.status.value.startswith("equivalent")
                        else found.status.value)
                click.echo(f"distinguish: {done}/{total} {escape_text(found.mutant_id)}: {what}", err=True)
                if found.case:
                    folder.mkdir(parents=True, exist_ok=True)
                    write_file(folder / case_name(found.mutant_id), found.case)
                    click.echo(f"wrote {escape_text(display_path(folder / case_name(found.mutant_id)))}", err=True)

            report = api.distinguish(repo, report, max_scenarios, int(timeout * 1000), memory, jobs, told)
    except UsageError as err:
        raise click.UsageError(str(err)) from None
    except (RegcheckError, WriteError) as err:
        _fail_input(err)
        sys.exit(EXIT_INPUT)
    click.echo(json.dumps(mutation_json(report), indent=2) if fmt == "json" else mutation_text(report))
    _exit(EXIT_OK)


@main.command()
@click.option("--write", is_flag=True,
              help="Write the reference to docs/case-format.md and the JSON Schemas to schemas/ in the repository.")
@root_option
def docs(write: bool, root: str | None) -> None:
    """Show the reference of the case language: every field of case, scope and ruling files, the defaults
    and the vocabulary, made from regcheck's own code."""
    from .caseformat import REFERENCE_FILE, SCHEMA_FILES, reference_markdown, schema_text

    if not write:
        click.echo(reference_markdown(), nl=False)
        return
    repository = _repository(root)
    outputs = {REFERENCE_FILE: reference_markdown(), **{f: schema_text(k) for k, f in SCHEMA_FILES.items()}}
    try:
        for name, text in outputs.items():
            (repository / name).parent.mkdir(parents=True, exist_ok=True)
            write_file(repository / name, text)
            click.echo(f"wrote {name}", err=True)
    except OSError as err:  # the folder could not be made
        click.echo(f"error: {err}", err=True)
        sys.exit(EXIT_INPUT)
    except WriteError as err:
        _fail_input(err)
        sys.exit(EXIT_INPUT)


@main.command()
@root_option
@click.option("--base", metavar="GITREV", default=None,
              help="Also check every case at this git revision and list each answer that changed since.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "junit", "sarif"]), default="text",
              show_default=True, help="The report on standard output.")
@click.option("--junit-file", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Also write the report as JUnit XML to this file.")
@click.option("--sarif-file", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Also write the report as SARIF 2.1.0 to this file.")
@timeout_option
@memory_option
@jobs_option
@click.option("--renew-lock", is_flag=True,
              help="Record the current text of every cited statement in rules.lock (after review), and stop.")
@click.option("--accept-findings", is_flag=True,
              help="Rewrite accepted-findings.yaml with every finding found now (keeping the notes), then check.")
@click.option("--scope", "scopes", multiple=True, type=click.Path(dir_okay=False, exists=True),
              help="With --base: list the findings over this scope file that appear or disappear since the base "
                   "(repeatable; default: the repository's scopes/).")
@click.option("--no-mutate", is_flag=True,
              help="Leave out the mutation check (every rule deleted in turn and checked against the cases).")
@click.option("--no-cache", is_flag=True, envvar="REGCHECK_NO_CACHE",
              help="Check every case afresh, without reading or writing the result cache (see `check`).")
def gate(root: str | None, base: str | None, fmt: str, junit_file: str | None, sarif_file: str | None,
         timeout: float, memory: int | None, jobs: int | None, renew_lock: bool, accept_findings: bool,
         scopes: tuple[str, ...], no_mutate: bool, no_cache: bool) -> None:
    """Check the rules repository for CI: traceability, the lock, every case, every scope's search, accepted findings."""
    from .gate import GateOptions, gate_json, gate_junit, gate_sarif, render_gate
    from .gate import renew_lock as write_lock

    repository = _repository(root)
    _refuse_outputs_that_are_inputs(repository, {"--junit-file": junit_file, "--sarif-file": sarif_file})
    progress = Progress("gate")
    try:
        if renew_lock:
            count, changed = write_lock(repository)
            click.echo(f"rules.lock: {count} statements" + (f"; {', '.join(changed)}" if changed else "; unchanged"))
            return
        if scopes and base is None:
            raise click.UsageError("--scope names the scopes to compare with --base; give --base too")
        report = api.gate(repository, GateOptions(int(timeout * 1000), memory, jobs, base, accept_findings,
                                                  tuple(Path(s) for s in scopes), not no_mutate, not no_cache),
                          lambda what, done, total: progress(done, total, f"gate: {what}"))
        progress.done()
    except RegcheckError as err:
        progress.done()
        _fail_input(err)
        sys.exit(EXIT_INPUT)
    outputs = {"text": lambda: render_gate(report), "json": lambda: json.dumps(gate_json(report), indent=2),
               "junit": lambda: gate_junit(report).rstrip("\n"),
               "sarif": lambda: json.dumps(gate_sarif(report), indent=2)}
    for path, kind in ((junit_file, "junit"), (sarif_file, "sarif")):
        if path:
            try:
                write_file(Path(path), outputs[kind]() + "\n")
            except WriteError as err:
                _fail_input(err)
                sys.exit(EXIT_INPUT)
    click.echo(outputs[fmt]())
    _exit(EXIT_INPUT if report.bad_input else EXIT_OK if report.passed else EXIT_FINDING)


def _refuse_outputs_that_are_inputs(root: Path, outputs: dict[str, str | None]) -> None:
    """Refuse (as a usage error, before anything is read or written) an output file that regcheck reads,
    or two outputs naming the same file."""
    from .gate import FINDINGS_FILE, LOCK_FILE, SURVIVORS_FILE

    real_root = Path(os.path.realpath(root))
    inputs = [real_root / name for name in (LOCK_FILE, FINDINGS_FILE, SURVIVORS_FILE)]
    folders = [real_root / name for name in ("rules", "encodings", "cases")]
    seen: dict[Path, str] = {}
    for option, given in outputs.items():
        if given is None:
            continue
        target = Path(os.path.realpath(given))
        if target in inputs or any(target.is_relative_to(folder) for folder in folders):
            raise click.UsageError(f"{option} {given} names a file regcheck reads "
                                   f"({os.path.relpath(target, real_root)} of the rules repository); "
                                   "nothing written: name another file")
        if target in seen:
            raise click.UsageError(f"{option} and {seen[target]} name the same file {given}")
        seen[target] = option


def run() -> None:
    """The `regcheck` program: the command line, ending the process as soon as the answer is out."""
    global _leave_at_once
    _leave_at_once = True
    main()


class _SweepGroup(click.Group):
    """`regcheck sweep DB ...` runs a sweep; `regcheck sweep report DB` reports on one."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or (args[0] not in self.commands and args[0] not in ("-h", "--help")):
            args = ["run", *args]
        return super().parse_args(ctx, args)


def _names_list(value: str, what: str) -> tuple[str, ...]:
    names = tuple(v.strip() for v in value.split(",") if v.strip())
    if not names:
        raise click.BadParameter(f"name at least one {what}")
    return names


@main.group(cls=_SweepGroup)
def sweep() -> None:
    """Search every combination of real cards for findings, with resumable results (see `sweep run --help`).

    `regcheck sweep DATABASE [OPTIONS]` runs (or continues) a sweep; `regcheck sweep report DATABASE`
    prints its findings.
    """


@sweep.command("run")
@click.argument("database", type=click.Path(dir_okay=False))
@click.option("--cards", "categories", default="set-aside,heal", show_default=True,
              help="Card categories to combine, comma-separated (set-aside, heal, negate, cannot-be-negated, duration).")
@click.option("--deck", type=click.Path(dir_okay=False, exists=True), default=None,
              help="Combine the cards of this deck list (COUNT<TAB>NAME lines) instead of the whole card list.")
@click.option("--pairs", "size", flag_value=2, default=True, help="Combinations of two cards (the default).")
@click.option("--triples", "size", flag_value=3, help="Combinations of three cards.")
@click.option("--turns", type=click.IntRange(1, 12), default=1, show_default=True, help="Turns of each scope.")
@click.option("--phases", default="Preparation", show_default=True, help="Phases attempts may be made in.")
@click.option("--attempts", "attempt_kinds", default="play,discard", show_default=True,
              help="Attempt kinds of each scope: play, battle, discard, negate.")
@click.option("--per-phase", type=click.IntRange(1, 8), default=2, show_default=True,
              help="At most this many attempts in one phase.")
@click.option("--max-attempts", type=click.IntRange(1, 40), default=2, show_default=True,
              help="At most this many attempts in one scenario.")
@click.option("--templates", default="", help="Outcome symbols asked about, comma-separated (default: every one).")
@root_option
@timeout_option
@memory_option
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
              help="Local worker processes (default: one per processor).")
@click.option("--scheduler", default=None, help="Run on the Dask cluster of this scheduler (tcp://HOST:PORT).")
@click.option("--max-scenarios", type=click.IntRange(1, 10_000_000), default=api.DEFAULT_MAX_SCENARIOS,
              show_default=True, help="Check at most this many scenarios of one combination.")
@click.option("--retry-failed", is_flag=True, help="Search failed and unknown combinations again.")
@click.option("--limit", type=click.IntRange(1, None), default=None,
              help="Search at most this many pending combinations in this run (to measure a sample).")
def sweep_run(database: str, categories: str, deck: str | None, size: int, turns: int, phases: str, attempt_kinds: str,
              per_phase: int, max_attempts: int, templates: str, root: str | None, timeout: float, memory: int | None,
              jobs: int | None, scheduler: str | None, max_scenarios: int, retry_failed: bool, limit: int | None) -> None:
    """Search every combination of modelled cards, one small scope each, into the SQLite DATABASE.

    Run again, the same command continues where it stopped (killed included). Progress, with an
    ETA, goes to standard error. Exits 1 when a combination shows a new finding (one not in
    accepted-findings.yaml), failed or is unknown; 2 on bad input, and when the cluster cannot carry
    the sweep on (its scheduler lost, a worker of another regcheck or rule base refused), the
    results written so far kept.
    """
    from .sweep import SweepOptions, SweepProgress, SweepTemplate

    try:
        template = SweepTemplate(turns, _names_list(phases, "phase"), _names_list(attempt_kinds, "attempt kind"),
                                 per_phase, max_attempts, tuple(t.strip() for t in templates.split(",") if t.strip()))
        options = SweepOptions(size, template, int(timeout * 1000), memory, max_scenarios, jobs, scheduler,
                               retry_failed, limit)
        repo = api.open_repository(_repository(root))

        def show(p: SweepProgress) -> None:
            eta = "" if p.eta_seconds is None else f", ETA {_duration(p.eta_seconds)}"
            click.echo(f"sweep: {p.finished}/{p.total} combinations ({p.failed} failed, {p.unknown} unknown, "
                       f"{p.with_findings} with findings), {p.per_minute:.1f}/min{eta}", err=True)

        pool, summary = api.sweep(repo, Path(database), options, _names_list(categories, "category"),
                                  Path(deck) if deck else None, show)
    except RegcheckError as err:
        _fail_input(err)
        sys.exit(EXIT_INPUT)
    for s in pool.skipped:
        click.echo(f"left out: {escape_text(s.name)}: {escape_text(s.reason)}")
    c = summary.counts
    click.echo(f"{plural(len(pool.cards), 'card')}, {plural(summary.total, 'combination')}: " + ", ".join(
        f"{c[s]} {s}" for s in ("done", "failed", "unknown", "pending")))
    click.echo(f"this run: {plural(summary.ran, 'combination')} in {summary.seconds:.1f} s ({summary.per_minute:.1f}/min) "
               f"on {summary.workers}; `regcheck sweep report {escape_text(database)}` shows the findings")
    report = api.sweep_report(repo, Path(database))
    _exit(EXIT_OK if not report.new and not c["failed"] and not c["unknown"] else EXIT_FINDING)


def _duration(seconds: float) -> str:
    minutes = int(seconds // 60)
    return f"{minutes // 60}h {minutes % 60:02d}m" if minutes >= 60 else f"{minutes}m {int(seconds % 60):02d}s"


@sweep.command("report")
@click.argument("database", type=click.Path(dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["text", "json", "sarif", "junit"]), default="text",
              show_default=True, help="For people, for programs, or for CI (SARIF 2.1.0, JUnit XML).")
@root_option
def sweep_report(database: str, fmt: str, root: str | None) -> None:
    """Print a sweep's findings, grouped by the statements involved, each with its cards and witness case;
    those with the verdict and rules of a finding in accepted-findings.yaml are listed apart.

    Exits 1 when there is a new finding or a combination failed, is unknown or still pending.
    """
    from .sweep.report import render_sweep, sweep_json, sweep_junit, sweep_sarif

    try:
        report = api.sweep_report(api.open_repository(_repository(root)), Path(database))
    except RegcheckError as err:
        _fail_input(err)
        sys.exit(EXIT_INPUT)
    if fmt == "json":
        click.echo(json.dumps(sweep_json(report), indent=2))
    elif fmt == "sarif":
        click.echo(json.dumps(sweep_sarif(report), indent=2))
    elif fmt == "junit":
        click.echo(sweep_junit(report), nl=False)
    else:
        click.echo(render_sweep(report))
    _exit(EXIT_OK if report.passed else EXIT_FINDING)
