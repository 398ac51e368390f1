"""The titles of the bundled card list's cards, the names a description may give its cards ("May band to Barak").

A card's title is its printed name without what the card list adds to tell printings apart (a set or printing
in parentheses, brackets or quotes: "Barak (CoW AB)" is Barak). A description that is a title names the cards
with that title (TGT-18-R4): the trait `named <title>`, which a real card of that title has, a real card whose
title holds no such words lacks, and any other card may have (the REG leaves who a card is to its identifiers,
which the card list does not give): a case where that decides a target is refused.
"""

from __future__ import annotations

__all__ = ["NAMED", "TYPES", "title_of", "named", "types_titled", "may_be_named"]

import re
from functools import lru_cache
from pathlib import Path

# The card list's type field, as the model names card types.
TYPES = {"Hero": "Hero", "Evil Character": "Evil_Character", "GE": "GE", "EE": "EE",
         "Artifact": "Artifact", "Fortress": "Fortress", "Site": "Site", "City": "City",
         "Curse": "Curse", "Covenant": "Covenant", "Lost Soul": "Lost_Soul", "Dominant": "Dominant"}

NAMED = "named "
_PRINTING = re.compile(r"\s*[(\[\"].*$")


def title_of(card_name: str) -> str:
    """The card's title: its name in the card list without the printing marks after it."""
    return _PRINTING.sub("", card_name).strip().replace("\u2019", "'")


def named(title: str) -> str:
    """The trait a description that is a title asks for: `named <title>`."""
    return NAMED + title


@lru_cache(maxsize=1)
def _titles() -> dict[str, tuple[str, tuple[str, ...]]]:
    """Each title of the card list, lower-cased, with the title as first printed and the types of its cards."""
    text = (Path(__file__).resolve().parent.parent / "data" / "cards.tsv").read_text("utf-8")
    found: dict[str, tuple[str, list[str]]] = {}
    for line in text.split("\n")[1:]:
        row = line.split("\t")
        if len(row) != 7 or not row[0] or row[0].startswith("#") or "/" in row[0]:
            continue
        title = title_of(row[0])
        entry = found.setdefault(title.lower(), (title, []))
        card_type = TYPES.get(row[1])
        if card_type is not None and card_type not in entry[1]:
            entry[1].append(card_type)
    return {k: (title, tuple(sorted(types))) for k, (title, types) in found.items() if types}


def types_titled(words: str) -> tuple[str, tuple[str, ...]] | None:
    """The title the lower-cased `words` are and the types of the cards with it, or None when no card has it."""
    return _titles().get(words.strip())


def may_be_named(card_name: str | None, trait: str) -> bool:
    """Whether a card may have the trait `named <title>` though its title is not that title: any card that is not
    a real card, and a real card whose title holds the name's words among others ("Aaron, Peacemaker" may be
    Aaron; "Aaron's Rod" is not)."""
    if card_name is None:
        return True
    name = trait.removeprefix(NAMED).lower()
    title = title_of(card_name).lower()
    return title != name and re.search(rf"(?<![\w']){re.escape(name)}(?![\w'])", title) is not None
