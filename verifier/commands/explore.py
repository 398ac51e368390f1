"""`regcheck explore`: every scenario of a scope searched for contradictions and ambiguities."""

from __future__ import annotations

__all__ = ["explore"]

import json
import sys
from pathlib import Path

import click

from .. import api
from ..errors import RegcheckError
from ..files import WriteError, display_path, write_file
from ..report import explore_json, render_explore
from .common import (
    EXIT_FINDING,
    EXIT_INPUT,
    EXIT_OK,
    collect_scopes,
    exit_with,
    fail_input,
    format_option,
    jobs_option,
    memory_option,
    progress_printer,
    repository_root,
    root_option,
    selection_of,
    timeout_option,
)


@click.command()
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
    scopes = collect_scopes(paths)
    selection = selection_of(select)
    if selection is not None:
        scopes = [p for p in scopes if selection.matches_path(str(p))]
        if not scopes:
            raise click.UsageError(f"no scope file matches -k {select!r}")
    options = api.ExploreOptions(int(timeout * 1000), memory, jobs, max_scenarios, brute_force)
    try:
        repo = api.open_repository(repository_root(root))
        report = api.explore(repo, scopes, options, progress_printer(), exitfirst)
        if write_cases:
            for path in _write_witnesses(Path(write_cases), report):
                click.echo(f"wrote {display_path(path)}", err=True)
    except (RegcheckError, WriteError) as err:
        fail_input(err)
        sys.exit(EXIT_INPUT)
    click.echo(json.dumps(explore_json(report), indent=2) if fmt == "json" else render_explore(report))
    exit_with(EXIT_OK if report.passed else EXIT_FINDING)


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
