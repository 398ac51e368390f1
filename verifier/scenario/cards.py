"""Real cards: the bundled card list, and reading a set-aside ability's mechanics from its text."""

from __future__ import annotations

__all__ = ["RealCard", "find_card", "read_set_aside_ability", "read_heal_ability", "TextReading", "HealReading"]

import re
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from ..vocabulary import VALUE_SETS

TYPES = {"Hero": "Hero", "Evil Character": "Evil_Character", "GE": "GE", "EE": "EE",
         "Artifact": "Artifact", "Fortress": "Fortress", "Site": "Site", "City": "City",
         "Curse": "Curse", "Covenant": "Covenant", "Lost Soul": "Lost_Soul", "Dominant": "Dominant"}
NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}


class RealCard(NamedTuple):
    """A printed card from the bundled card list."""

    name: str
    type: str | None
    brigades: tuple[str, ...]
    territory_class: bool
    identifier: str
    text: str


@lru_cache(maxsize=1)
def _text() -> str:
    """The bundled card list: a line per printed card, its fields separated by tabs."""
    return "\n" + (Path(__file__).resolve().parent.parent / "data" / "cards.tsv").read_text("utf-8")


def _row(name: str) -> list[str] | None:
    # One card is looked up by finding its line, without reading every other card.
    text = _text()
    start = text.find("\n" + name + "\t")
    if start < 0:
        return None
    end = text.find("\n", start + 1)
    return text[start + 1: end if end >= 0 else len(text)].split("\t")


@lru_cache(maxsize=1)
def _names() -> list[str]:
    names = (line.split("\t", 1)[0] for line in _text().split("\n")[1:])
    return list(dict.fromkeys(n for n in names if n and not n.startswith("#")))


def _card(row: list[str]) -> RealCard:
    name, ctype, brigade, klass, identifier, text = row
    found: list[str] = []
    rest = brigade
    for word in sorted((b.replace("_", " ") for b in VALUE_SETS["brigade"]), key=len, reverse=True):
        if word in rest:
            found.append(word.replace(" ", "_"))
            rest = rest.replace(word, "")
    return RealCard(name, TYPES.get(ctype), tuple(sorted(found)), "Territory" in klass, identifier, text)


def find_card(name: str) -> RealCard | list[str]:
    """The card called `name` (exactly, or the single printing `name (set)`), or close names."""
    row = _row(name) if name and "\t" not in name and "\n" not in name else None
    if row is not None:
        return _card(row)
    names = _names()
    printings = [n for n in names if n.startswith(name + " (")]
    if len(printings) == 1:
        return _card(_row(printings[0]))  # type: ignore[arg-type]
    if printings:
        return sorted(printings)
    import difflib

    return difflib.get_close_matches(name, names, n=3, cutoff=0.6)


class TextReading(NamedTuple):
    """The mechanics of a set-aside ability as read from a card's printed text."""

    duration_kind: str
    duration_turns: int
    paired: bool
    on_return: bool
    grants_ability: bool
    cannot_be_negated: bool | str
    target_zone: str | None
    targets_opponents_cards: bool
    targets_all_in_location: bool


_TARGET_ZONES = [
    (r"in (?:set-aside areas?|a set-aside area)", "set_aside_area"),
    (r"in battle", "field_of_battle"),
    (r"in (?:your |a |an opponent's |opponent's )?territory", "territory"),
    (r"(?:from|in) (?:your |a |an opponent's )?hand", "hand"),
    (r"(?:from|in) (?:your |a |an opponent's )?discard pile", "discard_pile"),
]


def read_set_aside_ability(text: str) -> TextReading | None:
    """Read the set-aside clause of a card's text; None when the text sets nothing aside."""
    # The verb ("set a Hero aside", "set aside") makes a set-aside effect; the noun
    # ("a set-aside area", "while set-aside") does not.
    clause_match = re.search(r"\bset (?:[^.]*? )?aside\b[^.]*\.?", text.lower())
    if clause_match is None:
        return None
    low = text.lower().replace("set-aside", "set aside")
    clause = clause_match.group(0)
    duration_kind, turns = "no_duration", 0
    m = re.search(r"for (\d+|one|two|three|four|five|six|seven) turns?", low)
    if m:
        duration_kind = "for_turns"
        turns = int(m.group(1)) if m.group(1).isdigit() else NUMBERS[m.group(1)]
    elif re.search(r"until (?:the )?end of (?:the )?battle", low):
        duration_kind = "until_end_of_battle"
    on_return = bool(re.search(r"\b(?:on|upon) return\b|when [^.]* returns?\b", low))
    paired = on_return or "while set aside" in low
    grants = on_return and bool(re.search(r"(?:on|upon) return[^.]*\bgains?\b", low))
    cbn: bool | str = False
    # Only a sentence that starts "Cannot be negated" speaks of the card's own ability.
    m = re.search(r"(?:^|[.:]\s*)cannot be negated(?: if (x is \d+ or (?:greater|more)))?", low)
    if m:
        cbn = m.group(1) or True
    target_zone = None
    for pattern, zone in _TARGET_ZONES:
        if re.search(pattern, clause):
            target_zone = zone
            break
    return TextReading(
        duration_kind=duration_kind,
        duration_turns=turns,
        paired=paired,
        on_return=on_return,
        grants_ability=grants,
        cannot_be_negated=cbn,
        target_zone=target_zone,
        targets_opponents_cards="opponent" in clause,
        targets_all_in_location=bool(re.search(r"\ball\b|\bany\b", clause)) and target_zone is not None,
    )


class HealReading(NamedTuple):
    """The mechanics of a heal ability as read from a card's printed text."""

    target_zone: str | None
    also_in_play: bool
    cannot_be_negated: bool
    parts: tuple[str, ...]
    heals_only: tuple[str, ...]


def read_heal_ability(text: str) -> HealReading | None:
    """Read a heal (or "restore abilities") clause of a card's text; None when it heals nothing."""
    low = text.lower().replace("set-aside", "set aside")
    if not re.search(r"\b(heal|restore abilities)\b", low):
        return None
    zone, also = None, False
    if re.search(r"in play or in a set aside area", low):
        zone, also = "set_aside_area", True
    elif re.search(r"in (?:a |your |an opponent's )?set aside area", low):
        zone = "set_aside_area"
    parts = ["heal_part"]
    if re.search(r"\bdiscard\b(?! pile)", low.split(".", 1)[1] if "." in low else ""):
        parts.append("discard_part")
    cbn = bool(re.search(r"(?:^|[.:]\s*)cannot be negated", low))
    first = low.split(".", 1)[0]
    only = [cond for word, cond in (("poisoned", "poisoned_condition"), ("diseased", "diseased_condition"),
                                    ("paralyzed", "paralyzed_condition"), ("being discarded", "discarded_condition"))
            if word in first]
    return HealReading(zone, also, cbn, tuple(parts), tuple(only))
