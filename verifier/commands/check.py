"""`regcheck check`: every case's answers against its expectations."""

from __future__ import annotations

__all__ = ["check"]

import gc
import json
import os
import sys
from pathlib import Path

import click

from .. import api
from ..errors import RegcheckError
from ..escaping import escape_text
from ..files import WriteError, display_path, write_file
from ..report import render_case, results_json
from ..runner import CaseInputError
from ..solver.backend import prepare_context
from ..terminal import Progress, plural
from ..verdicts import CaseResult
from .common import (
    EXIT_FINDING,
    EXIT_INPUT,
    EXIT_OK,
    collect_cases,
    exit_with,
    fail_input,
    format_option,
    jobs_option,
    memory_option,
    repository_root,
    root_option,
    selection_of,
    show_warnings,
    timeout_option,
)


@click.command()
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
@click.option("--readings", is_flag=True,
              help="Also show the readings each determined answer rests on: those of the rules document (statements "
                   "whose basis is 'reading') left out of which the answer is no longer determined with its value "
                   "(a grounding of the case more for each reading it uses).")
@click.option("--no-cache", is_flag=True, envvar="REGCHECK_NO_CACHE",
              help="Check every case afresh, without reading or writing the result cache (.regcheck_cache/ at the "
                   "repository's root, or $REGCHECK_CACHE_DIR; REGCHECK_NO_CACHE=1 does the same).")
def check(paths: tuple[str, ...], fmt: str, root: str | None, timeout: float, memory: int | None,
          show_defaults: bool, jobs: int | None, select: str | None, exitfirst: bool, quiet: int, verbose: int,
          update_expect: bool, junit_file: str | None, sarif_file: str | None, strict: bool, readings: bool,
          no_cache: bool) -> None:
    """Check the case files in PATHS (files or folders, searched recursively)."""
    from dataclasses import replace

    from ..terminal import colour_marks, use_colour

    selection = selection_of(select)
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
        # A case's objects form hardly any cycles (a 50 x 20 case's peak memory is the same without the collector):
        # its collections would walk the young objects for nothing. The collector is back when the command ends,
        # for a caller that runs it in its own process (a test's CliRunner).
        if gc.isenabled():
            gc.disable()
            click.get_current_context().call_on_close(gc.enable)
    try:
        repo = api.open_repository(repository_root(root))
    except RegcheckError as err:
        fail_input(err)
        sys.exit(EXIT_INPUT)
    verbosity = verbose - quiet
    colour = fmt == "text" and use_colour(sys.stdout)
    results: list[CaseResult] = []
    errors: list[CaseInputError] = []
    paths_of: dict[str, Path] = {}
    progress = Progress("checking cases")
    stopped = False
    checked = api.check(repo, files, int(timeout * 1000), memory, jobs, show_defaults, use_cache=not no_cache,
                        readings=readings)
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
        exit_with(EXIT_INPUT)
    exit_with(EXIT_FINDING if failed else EXIT_OK)


def _warn(result: CaseResult, strict: bool, progress: Progress) -> CaseInputError | None:
    """Show a case's warnings on standard error; with --strict, the case is refused (at its first warning)."""
    progress.done()
    if strict:
        file, line, column, message = result.warnings[0]
        return CaseInputError(file, line, column, f"{message} (--strict)")
    show_warnings(result.warnings)
    return None


def _update_expectations(repo: api.Repository, results: list[CaseResult],
                         paths_of: dict[str, Path]) -> dict[tuple[str, str], str]:
    """Write each answer that differs from its expectation into its case file; returns the questions updated."""
    from ..expectations import Answer, update_case_file
    from ..verdicts import Verdict

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
            exit_with(EXIT_INPUT)
    return updated


def _write_check_reports(repo: api.Repository, results: list[CaseResult], errors: list[CaseInputError],
                         junit_file: str | None, sarif_file: str | None) -> None:
    from ..errors import Location
    from ..gate import gate_junit, gate_sarif
    from ..gate.run import check_report

    unreadable = [(e.file, Location(e.file, e.line, e.column or 0) if e.line is not None else None, e.message)
                  for e in errors]
    report = check_report(repo.root, repo.rules, repo.document(), results, unreadable)
    try:
        if junit_file:
            write_file(Path(junit_file), gate_junit(report, "regcheck check", rules_suite=False))
        if sarif_file:
            write_file(Path(sarif_file), json.dumps(gate_sarif(report), indent=2) + "\n")
    except WriteError as err:
        fail_input(err)
        exit_with(EXIT_INPUT)
