"""The rules document: numbered statements restating the REG, one Markdown file per entry.

A statement is a list item that starts with its ID in bold, followed by its text and, in
parentheses at the end, where in the REG it comes from:

    - **SA-4** When a card is set aside it goes to ... (Set Aside, How to Play, bullet 3)

Every statement has a basis, told by the start of its source:

- *principle*: a game principle the REG takes for granted; the source begins `Game principle:`;
- *reading*: a choice where the REG text is silent; the source begins `Reading:`, and the ID is
  that of the statement whose silence it fills followed by `-R` and a number (`NEG-4-R1`);
- *text*: the REG says it; any other source (the REG entry, its version or date, the page read).
"""

from __future__ import annotations

__all__ = ["Statement", "RulesDocument", "load_rules_document", "statement_order", "in_statement_order", "BASES", "basis_of"]

import re
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from .errors import Location, RulesDocumentError
from .files import display_path

ITEM = re.compile(r"^- \*\*([A-Z]+(?:-[A-Z]+)*-\d+[a-z]?(?:-R\d+)?)\*\*\s*(.*)$")
READING_ID = re.compile(r"-R\d+$")
BASES = ("text", "reading", "principle")
LOOKS_LIKE_ITEM = re.compile(r"^- \*\*([^*]*)\*\*")
SOURCE = re.compile(r"\(([^()]*)\)\s*$")


def basis_of(sid: str, source: str) -> str | None:
    """The basis a statement's ID and source give it (one of `BASES`), or None where they disagree: a reading's
    ID and its `Reading:` source go together."""
    reading_source = source.startswith("Reading:")
    if bool(READING_ID.search(sid)) != reading_source:
        return None
    if reading_source:
        return "reading"
    return "principle" if source.startswith("Game principle:") else "text"


def statement_order(sid: str) -> tuple[object, ...]:
    """A sort key for statement and rule IDs that puts SA-2 before SA-10 and SA-6 before SA-6b."""
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", sid))


def in_statement_order(ids: Iterable[str]) -> tuple[str, ...]:
    """The distinct statement or rule IDs, in `statement_order`."""
    return tuple(sorted(set(ids), key=statement_order))


class Statement(NamedTuple):
    """One normative statement of the rules document."""

    id: str
    section: str
    text: str
    source: str
    loc: Location

    @property
    def basis(self) -> str:
        """What the statement rests on: "text", "reading" or "principle" (see the module's docstring)."""
        return basis_of(self.id, self.source) or "text"

    @property
    def fingerprint(self) -> str:
        """A hash of the statement's text, blind to spacing."""
        import hashlib

        normal = " ".join(self.text.split())
        return hashlib.sha256(normal.encode("utf-8")).hexdigest()[:16]


class RulesDocument(NamedTuple):
    """Every statement of every rules file, in file order."""

    statements: tuple[Statement, ...]

    def by_id(self) -> dict[str, Statement]:
        return {s.id: s for s in self.statements}


def load_rules_document(folder: Path) -> RulesDocument:
    """Read all `*.md` files in `folder`; each statement's text may continue on indented lines."""
    files = sorted(p for p in folder.glob("*.md") if p.is_file())
    if not files:
        raise RulesDocumentError(f"no rules files (*.md) in {folder}")
    statements: list[Statement] = []
    seen: dict[str, Location] = {}
    for path in files:
        section = path.stem
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise RulesDocumentError(f"cannot read rules file: {exc}", Location(display_path(path), 1)) from None
        i = 0
        while i < len(lines):
            m = ITEM.match(lines[i])
            if not m:
                odd = LOOKS_LIKE_ITEM.match(lines[i])
                if odd:
                    raise RulesDocumentError(f"'{odd.group(1)}' is not a statement ID (like SA-4, GLOSS-12 or NEG-4-R1)",
                                             Location(display_path(path), i + 1))
                i += 1
                continue
            loc = Location(display_path(path), i + 1)
            parts = [m.group(2).strip()]
            i += 1
            while i < len(lines) and lines[i].startswith("  ") and lines[i].strip():
                parts.append(lines[i].strip())
                i += 1
            body = " ".join(p for p in parts if p)
            src = SOURCE.search(body)
            if not src:
                raise RulesDocumentError(
                    f"statement {m.group(1)} does not end with its source in parentheses", loc
                )
            text = body[: src.start()].strip()
            if not text:
                raise RulesDocumentError(f"statement {m.group(1)} has no text", loc)
            sid = m.group(1)
            if sid in seen:
                raise RulesDocumentError(f"statement {sid} appears twice (first at {seen[sid]})", loc)
            seen[sid] = loc
            source = src.group(1).strip()
            if basis_of(sid, source) is None:
                raise RulesDocumentError(
                    f"statement {sid}: a reading's ID ends in -R and a number (like NEG-4-R1) and its source begins "
                    f"'Reading:'; this one has {'the ID' if READING_ID.search(sid) else 'the source'} of a reading "
                    f"without the other", loc)
            statements.append(Statement(sid, section, text, source, loc))
    return RulesDocument(tuple(statements))
