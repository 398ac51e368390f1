"""`regcheck sweep`: every combination of real cards searched, and the report of a sweep."""

from __future__ import annotations

__all__ = ["sweep"]

import json
import sys
from pathlib import Path

import click

from .. import api
from ..errors import RegcheckError
from ..escaping import escape_text
from ..sweep.store import SHOWN_STATUSES
from ..terminal import plural
from .common import (
    EXIT_FINDING,
    EXIT_INPUT,
    EXIT_OK,
    exit_with,
    fail_input,
    memory_option,
    repository_root,
    root_option,
    scheduler_option,
    timeout_option,
)


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


@click.group(cls=_SweepGroup)
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
@scheduler_option()
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
    from ..sweep import SweepOptions, SweepProgress, SweepTemplate

    try:
        template = SweepTemplate(turns, _names_list(phases, "phase"), _names_list(attempt_kinds, "attempt kind"),
                                 per_phase, max_attempts, tuple(t.strip() for t in templates.split(",") if t.strip()))
        options = SweepOptions(size, template, int(timeout * 1000), memory, max_scenarios, jobs, scheduler,
                               retry_failed, limit)
        repo = api.open_repository(repository_root(root))

        def show(p: SweepProgress) -> None:
            eta = "" if p.eta_seconds is None else f", ETA {_duration(p.eta_seconds)}"
            click.echo(f"sweep: {p.finished}/{p.total} combinations ({p.refused} refused, {p.failed} failed, "
                       f"{p.unknown} unknown, {p.with_findings} with findings), {p.per_minute:.1f}/min{eta}", err=True)

        pool, summary = api.sweep(repo, Path(database), options, _names_list(categories, "category"),
                                  Path(deck) if deck else None, show)
    except RegcheckError as err:
        fail_input(err)
        sys.exit(EXIT_INPUT)
    for s in pool.skipped:
        click.echo(f"left out: {escape_text(s.name)}: {escape_text(s.reason)}")
    c = summary.counts
    click.echo(f"{plural(len(pool.cards), 'card')}, {plural(summary.total, 'combination')}: " + ", ".join(
        f"{c[s]} {s}" for s in SHOWN_STATUSES))
    click.echo(f"this run: {plural(summary.ran, 'combination')} in {summary.seconds:.1f} s ({summary.per_minute:.1f}/min) "
               f"on {summary.workers}; `regcheck sweep report {escape_text(database)}` shows the findings")
    report = api.sweep_report(repo, Path(database))
    exit_with(EXIT_OK if not report.new and not c["failed"] and not c["unknown"] else EXIT_FINDING)


def _duration(seconds: float) -> str:
    minutes = int(seconds // 60)
    return f"{minutes // 60}h {minutes % 60:02d}m" if minutes >= 60 else f"{minutes}m {int(seconds % 60):02d}s"


@sweep.command("report")
@click.argument("database", type=click.Path(dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["text", "json", "sarif", "junit"]), default="text",
              show_default=True, help="For people, for programs, or for CI (SARIF 2.1.0, JUnit XML).")
@root_option
def sweep_report(database: str, fmt: str, root: str | None) -> None:
    """Print a sweep's findings, grouped by their statements at fault, each with its cards and witness case;
    those with the verdict and rules of a finding in accepted-findings.yaml are listed apart.

    Exits 1 when there is a new finding or a combination failed, is unknown or still pending.
    """
    from ..sweep.report import render_sweep, sweep_json, sweep_junit, sweep_sarif

    try:
        report = api.sweep_report(api.open_repository(repository_root(root)), Path(database))
    except RegcheckError as err:
        fail_input(err)
        sys.exit(EXIT_INPUT)
    if fmt == "json":
        click.echo(json.dumps(sweep_json(report), indent=2))
    elif fmt == "sarif":
        click.echo(json.dumps(sweep_sarif(report), indent=2))
    elif fmt == "junit":
        click.echo(sweep_junit(report), nl=False)
    else:
        click.echo(render_sweep(report))
    exit_with(EXIT_OK if report.passed else EXIT_FINDING)
