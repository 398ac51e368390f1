"""`regcheck mutate`: mutation analysis of the rules against the cases."""

from __future__ import annotations

__all__ = ["mutate"]

import json
import sys
from pathlib import Path

import click

from .. import api
from ..errors import RegcheckError, UsageError
from ..escaping import escape_text
from ..files import WriteError, display_path, write_file
from ..terminal import plural
from .common import (
    EXIT_INPUT,
    EXIT_OK,
    exit_with,
    fail_input,
    format_option,
    memory_option,
    progress_printer,
    repository_root,
    root_option,
    timeout_option,
)


@click.command()
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
    from ..mutation import mutation_json, mutation_text
    from ..mutation.distinguish import Distinction, case_name

    if max_scenarios is not None and distinguish_dir is None:
        raise click.UsageError("--max-scenarios needs --distinguish")

    chosen = tuple(k.strip() for k in kinds.split(",") if k.strip()) if kinds is not None else None
    passes, proofs = progress_printer("case passes"), progress_printer("survivors tried for equivalence")

    try:
        repo = api.open_repository(repository_root(root))
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
        fail_input(err)
        sys.exit(EXIT_INPUT)
    click.echo(json.dumps(mutation_json(report), indent=2) if fmt == "json" else mutation_text(report))
    exit_with(EXIT_OK)
