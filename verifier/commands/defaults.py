"""`regcheck defaults`: the default of every input a case leaves unstated."""

from __future__ import annotations

__all__ = ["defaults"]


import click

from ..scenario.loader import DEFAULTS


@click.command()
def defaults() -> None:
    """Show the defaults the case loader applies to what a case leaves unsaid."""
    for key, value in DEFAULTS.items():
        click.echo(f"{key}: {value}")
