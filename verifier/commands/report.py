"""`regcheck report`: the HTML report of cases, scope searches and a sweep."""

from __future__ import annotations

__all__ = ["report"]

import os
import sys
from pathlib import Path

import click

from .. import api
from ..errors import RegcheckError
from ..escaping import escape_text
from ..files import WriteError
from ..report import rule_statuses
from ..runner import CaseInputError
from ..terminal import Progress
from .common import (
    EXIT_INPUT,
    EXIT_OK,
    collect_cases,
    collect_scopes,
    exit_with,
    fail_input,
    jobs_option,
    memory_option,
    progress_printer,
    repository_root,
    root_option,
    timeout_option,
)


def _locked_card_counts(repository: Path) -> dict[str, int]:
    """The card counts cards.lock records (none when it is missing or unreadable)."""
    from ..gate.cardlock import CARDS_LOCK_FILE, read_cards_lock

    try:
        return {category: count for category, (count, _) in read_cards_lock(repository / CARDS_LOCK_FILE).items()}
    except (RegcheckError, OSError):
        return {}


@click.command()
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
@click.option("--readings", is_flag=True,
              help="Show on each case page the readings each determined answer rests on (as check --readings).")
def report(html_dir: str, paths: tuple[str, ...], root: str | None, timeout: float, memory: int | None,
           jobs: int | None, with_coverage: bool, scope_paths: tuple[str, ...], sweep_db: str | None,
           readings: bool) -> None:
    """Write a report of the case files in PATHS (default: the repository's cases/) as a static site: a summary,
    the rules document with each statement's status, a page per case with its verdicts, explanations and
    timeline picture, the contradictions, the accepted findings, the card coverage and, with --scope and
    --sweep, the findings of an explore and of a sweep."""
    from ..gate.findings import FINDINGS_FILE, read_baseline
    from ..htmlreport import Site, write_site
    from ..scenario.cardview import coverage_json

    repository = repository_root(root)
    files = collect_cases(paths or ((os.path.relpath(repository / "cases"),) if (repository / "cases").is_dir() else ()))
    if not files:
        raise click.UsageError("no case files (*.yaml) found in the given paths")
    progress = Progress("report")
    try:
        repo = api.open_repository(repository)
        swept = api.sweep_report(repo, Path(sweep_db)) if sweep_db else None  # a bad database before any case
        explored = (api.explore(repo, collect_scopes(scope_paths),
                                api.ExploreOptions(int(timeout * 1000), memory, jobs), progress_printer())
                    if scope_paths else None)
        doc = repo.document()
        reports: list[api.CaseReport] = []
        errors: list[CaseInputError] = []
        for done, outcome in enumerate(api.report_cases(repo, files, int(timeout * 1000), memory, jobs, readings), 1):
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
        fail_input(err)
        sys.exit(EXIT_INPUT)
    except OSError as err:
        click.echo(f"error: {err}", err=True)
        sys.exit(EXIT_INPUT)
    click.echo(f"wrote {len(written)} pages to {escape_text(html_dir)}: open {escape_text(str(Path(html_dir) / 'index.html'))}")
    exit_with(EXIT_INPUT if errors else EXIT_OK)
