"""`regcheck ruling`: a proposed ruling checked against the rule base, and its impact."""

from __future__ import annotations

__all__ = ["ruling"]

import json
import os
import sys
from pathlib import Path

import click

from .. import api
from ..errors import RegcheckError
from ..report import render_ruling, ruling_json
from ..terminal import Progress
from ..verdicts import RulingVerdict
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
    scheduler_option,
    show_warnings,
    timeout_option,
)


@click.command()
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
@click.option("--sweep", "sweep_database", metavar="DATABASE", type=click.Path(dir_okay=False), default=None,
              help="Also check a ruling's rules on every combination of cards of this sweep's results database "
                   "(written by `regcheck sweep`), and list the combinations whose answers they change.")
@scheduler_option("the check over --sweep")
def ruling(files: tuple[str, ...], case_paths: tuple[str, ...], fmt: str, root: str | None, timeout: float,
           memory: int | None, jobs: int | None, scope: str | None, sweep_database: str | None,
           scheduler: str | None) -> None:
    """Check proposed rulings (FILES) against the rule base.

    A ruling is `entailed` (the rules already imply it), `contradicts` them (with the minimal
    conflicting set), or `narrows` what they allow (with the questions whose verdict changes).
    A ruling that proposes general rules is also checked on every case (and, with --scope, on every
    scenario of a scope; with --sweep, on every combination of real cards of a sweep, locally with --jobs
    or on a Dask cluster with --scheduler), to show its impact.
    Exits 1 when a ruling contradicts the rules or a check was left unknown.
    """
    repository = repository_root(root)
    cases_given = case_paths or ((os.path.relpath(repository / "cases"),) if (repository / "cases").is_dir() else ())
    case_files = collect_cases(cases_given)
    progress = Progress("ruling")
    try:
        results, errors = api.ruling(api.open_repository(repository), [Path(f) for f in files], case_files,
                                     int(timeout * 1000), memory, jobs, Path(scope) if scope else None,
                                     lambda what, done, total: progress(done, total, f"ruling {what}"),
                                     Path(sweep_database) if sweep_database else None, scheduler)
        progress.done()
    except RegcheckError as err:
        progress.done()
        fail_input(err)
        sys.exit(EXIT_INPUT)
    for message in errors:
        click.echo(f"error: {message}", err=True)
    show_warnings(w for r in results for c in ((r.own,) if r.own else ()) + r.impact for w in c.warnings)
    bad_input = bool(errors)
    if fmt == "json":
        click.echo(json.dumps({"rulings": [ruling_json(r) for r in results]}, indent=2))
    else:
        click.echo("\n\n".join(render_ruling(r) for r in results))
    if bad_input:
        sys.exit(EXIT_INPUT)
    failed = any(r.verdict in (RulingVerdict.CONTRADICTS, RulingVerdict.UNKNOWN) for r in results)
    exit_with(EXIT_FINDING if failed else EXIT_OK)
