"""Deck lists in the plain-text form deck builders export: one `COUNT<TAB>NAME` line per card, with
section headers such as `Reserve:` (a line ending in a colon). Blank lines and lines starting with
`#` are passed over. Every name must be a card of the bundled card list (exactly, or the single
printing `NAME (set)`); an unknown name is refused with its line and a did-you-mean.
"""

from __future__ import annotations

__all__ = ["DeckEntry", "read_deck"]

import re
from pathlib import Path
from typing import NamedTuple

from ..errors import CaseError, Location
from ..escaping import quoted
from ..files import display_path
from ..scenario.cards import RealCard, find_card
from ..yamlsource import editor_lines, line_of_byte

_LINE = re.compile(r"^(\d{1,3})(?:\t| +)(\S.*?)\s*$")
MAX_DECK_BYTES = 1_000_000


class DeckEntry(NamedTuple):
    """One line of a deck list: how many, which card (its name in the card list), and the section it is in."""

    copies: int
    name: str
    section: str
    line: int


def read_deck(path: Path) -> tuple[DeckEntry, ...]:
    """The cards of a deck list file; an error names the file and line (exit 2 in the command line)."""
    shown = display_path(path)
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise CaseError(f"cannot read the deck list: {err.strerror or err}", Location(shown, 1)) from None
    if len(raw) > MAX_DECK_BYTES:
        raise CaseError(f"a deck list is at most {MAX_DECK_BYTES} bytes", Location(shown, 1))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise CaseError("the deck list is not valid UTF-8", Location(shown, line_of_byte(raw, err.start))) from None
    entries: list[DeckEntry] = []
    section = "Main"
    for number, line in enumerate(editor_lines(text), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.endswith(":") and not _LINE.match(stripped):
            section = stripped[:-1].strip() or section
            continue
        m = _LINE.match(stripped)
        if m is None:
            raise CaseError(f"expected COUNT<TAB>NAME (such as '1\\tProvisions') or a section header "
                            f"ending in ':', got {quoted(stripped)}", Location(shown, number))
        count, name = int(m.group(1)), m.group(2)
        if count == 0:
            raise CaseError(f"a count of 0 for {quoted(name)}", Location(shown, number))
        found = find_card(name)
        if isinstance(found, RealCard):
            entries.append(DeckEntry(count, found.name, section, number))
            continue
        if found and all(n.startswith(name + " (") for n in found):
            raise CaseError(f"{quoted(name)} names {len(found)} printings: write one of "
                            + ", ".join(quoted(n) for n in found[:8]) + (", ..." if len(found) > 8 else ""),
                            Location(shown, number))
        hint = f" (did you mean {' or '.join(quoted(n) for n in found)}?)" if found else ""
        raise CaseError(f"no card named {quoted(name)} in the card list{hint}", Location(shown, number))
    if not entries:
        raise CaseError("the deck list names no card", Location(shown, 1))
    return tuple(entries)
