"""`regcheck gate`: the CI gate on a rules repository."""

from __future__ import annotations

__all__ = ["gate"]

import json
import os
import sys
from pathlib import Path

import click

from .. import api
from ..errors import RegcheckError
from ..files import WriteError, write_file
from ..terminal import Progress
from .common import (
    EXIT_FINDING,
    EXIT_INPUT,
    EXIT_OK,
    exit_with,
    fail_input,
    jobs_option,
    memory_option,
    repository_root,
    root_option,
    timeout_option,
)


@click.command()
@root_option
@click.option("--base", metavar="GITREV", default=None,
              help="Also list each answer (and scope finding) that changed since this git revision; only the "
                   "cases and scopes whose grounding holds an instance of a changed rule are checked there again.")
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
              help="Record the current text of every cited statement in rules.lock, and the card counts in "
                   "cards.lock (after review), and stop; refused, writing nothing, while an encoding cites a "
                   "statement the rules document does not hold.")
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
    from ..gate import GateOptions, gate_json, gate_junit, gate_sarif, render_gate
    from ..gate import renew_lock as write_lock

    repository = repository_root(root)
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
        fail_input(err)
        sys.exit(EXIT_INPUT)
    outputs = {"text": lambda: render_gate(report), "json": lambda: json.dumps(gate_json(report), indent=2),
               "junit": lambda: gate_junit(report).rstrip("\n"),
               "sarif": lambda: json.dumps(gate_sarif(report), indent=2)}
    for path, kind in ((junit_file, "junit"), (sarif_file, "sarif")):
        if path:
            try:
                write_file(Path(path), outputs[kind]() + "\n")
            except WriteError as err:
                fail_input(err)
                sys.exit(EXIT_INPUT)
    click.echo(outputs[fmt]())
    exit_with(EXIT_INPUT if report.bad_input else EXIT_OK if report.passed else EXIT_FINDING)


def _refuse_outputs_that_are_inputs(root: Path, outputs: dict[str, str | None]) -> None:
    """Refuse (as a usage error, before anything is read or written) an output file that regcheck reads,
    or two outputs naming the same file."""
    from ..gate import FINDINGS_FILE, LOCK_FILE, SURVIVORS_FILE

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
