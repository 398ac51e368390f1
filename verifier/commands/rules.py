"""`regcheck rules`: every rules statement with its basis and the encodings that cite it."""

from __future__ import annotations

__all__ = ["rules"]

import json
import sys

import click

from .. import api
from ..errors import RegcheckError
from ..report import render_rules, rule_statuses, rules_json
from .common import EXIT_FINDING, EXIT_INPUT, fail_input, format_option, repository_root, root_option


@click.command()
@format_option
@root_option
def rules(fmt: str, root: str | None) -> None:
    """List every rules-document statement with its encoding status."""
    try:
        repo = api.open_repository(repository_root(root))
        base, doc = repo.rules, repo.document()
    except RegcheckError as err:
        fail_input(err)
        sys.exit(EXIT_INPUT)
    statuses = rule_statuses(doc, base)
    known = {s.id for s in doc.statements}
    unknown = sorted({(sid, r.id, str(r.loc)) for r in base.rules for sid in r.cites if sid not in known})
    if fmt == "json":
        out = rules_json(statuses)
        out["unknown_citations"] = [{"statement": s, "rule": r, "location": loc} for s, r, loc in unknown]
        click.echo(json.dumps(out, indent=2))
    else:
        click.echo(render_rules(statuses))
        for sid, rid, loc in unknown:
            click.echo(f"{loc}: rule {rid} cites {sid}, which is not in the rules document")
    if unknown or any(s.status == "missing" for s in statuses):
        sys.exit(EXIT_FINDING)
