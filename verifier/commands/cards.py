"""`regcheck cards`: what regcheck reads of real cards, and the coverage of the card list."""

from __future__ import annotations

__all__ = ["cards"]

import json
import sys

import click

from ..escaping import quoted
from .common import EXIT_INPUT, format_option


@click.command()
@click.argument("names", nargs=-1)
@click.option("--coverage", "show_coverage", is_flag=True,
              help="Count, per category, the printed texts that are modelled, override, unsupported or not read.")
@format_option
def cards(names: tuple[str, ...], show_coverage: bool, fmt: str) -> None:
    """Show what regcheck reads from real cards' printed text, or the coverage of the card list."""
    from ..scenario.cardview import card_json, coverage_json, lookup, render_card, render_coverage

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
