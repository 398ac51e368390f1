"""`regcheck docs`: the case-format reference and the JSON Schemas, checked or written."""

from __future__ import annotations

__all__ = ["docs"]

import sys

import click

from ..files import WriteError, write_file
from .common import EXIT_INPUT, fail_input, repository_root, root_option


@click.command()
@click.option("--write", is_flag=True,
              help="Write the reference to docs/case-format.md and the JSON Schemas to schemas/ in the repository.")
@root_option
def docs(write: bool, root: str | None) -> None:
    """Show the reference of the case language: every field of case, scope and ruling files, the defaults
    and the vocabulary, made from regcheck's own code."""
    from ..caseformat import REFERENCE_FILE, SCHEMA_FILES, reference_markdown, schema_text

    if not write:
        click.echo(reference_markdown(), nl=False)
        return
    repository = repository_root(root)
    outputs = {REFERENCE_FILE: reference_markdown(), **{f: schema_text(k) for k, f in SCHEMA_FILES.items()}}
    try:
        for name, text in outputs.items():
            (repository / name).parent.mkdir(parents=True, exist_ok=True)
            write_file(repository / name, text)
            click.echo(f"wrote {name}", err=True)
    except OSError as err:  # the folder could not be made
        click.echo(f"error: {err}", err=True)
        sys.exit(EXIT_INPUT)
    except WriteError as err:
        fail_input(err)
        sys.exit(EXIT_INPUT)
