"""`regcheck explain`: why the rules answer a case's questions as they do."""

from __future__ import annotations

__all__ = ["explain"]

import json
import sys
from pathlib import Path

import click

from .. import api
from ..errors import RegcheckError
from ..report import explanations_json, render_explanations
from .common import (
    EXIT_FINDING,
    EXIT_INPUT,
    EXIT_OK,
    exit_with,
    fail_input,
    format_option,
    memory_option,
    repository_root,
    root_option,
    show_warnings,
    timeout_option,
)


@click.command()
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
        scenario, explanations = api.explain(api.open_repository(repository_root(root)), Path(case), question,
                                             int(timeout * 1000), memory)
    except RegcheckError as err:
        fail_input(err)
        sys.exit(EXIT_INPUT)
    show_warnings(api.scenario_warnings(scenario))
    if fmt == "json":
        click.echo(json.dumps(explanations_json(scenario.path, explanations), indent=2))
    else:
        click.echo(render_explanations(scenario.path, scenario.title, explanations, brief))
    exit_with(EXIT_OK if all(e.result.ok for e in explanations) else EXIT_FINDING)
