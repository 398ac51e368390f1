"""Traceability: every rules statement is encoded or waived, and every encoding cites statements that exist."""

from __future__ import annotations

__all__ = ["check_traceability"]

from collections import Counter
from pathlib import Path

from ..language.encoding import RuleBase
from ..report import rule_statuses
from ..rulesdoc import RulesDocument
from .model import Place, Problem


def check_traceability(root: Path, doc: RulesDocument, rules: RuleBase) -> tuple[Counter[str], list[Problem]]:
    """How many statements are encoded, waived or missing, and a problem for each gap."""
    statuses = rule_statuses(doc, rules)
    counts = Counter(s.status for s in statuses)
    problems = [Problem("coverage", f"{s.id} is neither encoded nor waived: encode it in encodings/ or add a "
                                    "waiver with the reason", Place.of(s.location, root))
                for s in statuses if s.status == "missing"]
    known = {s.id for s in doc.statements}
    citing = [(f"rule {r.id} cites", sid, r.loc) for r in rules.rules for sid in r.cites]
    citing += [(f"definition {d.name} cites", sid, d.loc) for d in rules.definitions.values() for sid in d.cites]
    citing += [("a waiver names", w.statement, w.loc) for w in rules.waivers]
    for what, sid, loc in citing:
        if sid not in known:
            problems.append(Problem("citations", f"{what} {sid}, which is not in the rules document",
                                    Place.of(loc, root)))
    return counts, problems
