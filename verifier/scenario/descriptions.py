"""What a target description on a card says about the cards it names: one table from words to checks.

A description ("an evil Enhancement", "all N.T. Heroes", "a good card of the purple brigade") is read as a
quantity and an owner (by the card grammar), then here: optional alignment words, brigade words and trait
words, and a noun that names card types. Each word maps to one check on a card of the case:

- a **noun** names the card types it fits (`NOUNS`): "Hero" fits Heroes, "character" fits Heroes and
  Evil Characters, "Enhancement" fits good and evil enhancements, "card" fits any card;
- an **alignment** word ("good", "evil") asks for the card's alignment (`alignment_of`);
- a **brigade** word asks for the brigade;
- a **trait** word ("human", "N.T.", "Demon") asks for the trait (see `cardreading.TRAIT_WORDS`).

A description with a word the table does not know is not read: the grammar reports it, naming the word.
"""

from __future__ import annotations

__all__ = ["NOUNS", "ALIGNMENTS", "TYPE_ALIGNMENT", "Description", "read_description", "alignment_of",
           "without_article"]

import re
from typing import NamedTuple

from .cardreading import TRAIT_WORDS

_ANY: tuple[str, ...] = ()

# Each noun a description may end with, singular and plural, and the card types it fits (() for any type).
NOUNS: dict[str, tuple[str, ...]] = {}
for _words, _types in (
    (("hero", "heroes", "hero(s)"), ("Hero",)),
    (("evil character", "evil characters"), ("Evil_Character",)),
    (("character", "characters", "character(s)"), ("Hero", "Evil_Character")),
    (("enhancement", "enhancements"), ("GE", "EE")),
    (("good enhancement", "good enhancements", "ge", "ges"), ("GE",)),
    (("evil enhancement", "evil enhancements", "ee", "ees"), ("EE",)),
    (("artifact", "artifacts"), ("Artifact",)),
    (("fortress", "fortresses"), ("Fortress",)),
    (("site", "sites"), ("Site",)),
    (("city", "cities"), ("City",)),
    (("curse", "curses"), ("Curse",)),
    (("covenant", "covenants"), ("Covenant",)),
    (("lost soul", "lost souls"), ("Lost_Soul",)),
    (("dominant", "dominants"), ("Dominant",)),
    (("card", "cards"), _ANY),
):
    for _word in _words:
        NOUNS[_word] = _types

ALIGNMENTS = ("good", "evil", "neutral")

# The alignment each card type gives its cards; a card of another type has the alignment its case states.
TYPE_ALIGNMENT = {"Hero": "good", "GE": "good", "Evil_Character": "evil", "EE": "evil"}

_BRIGADES = ("blue", "clay", "gold", "green", "purple", "red", "silver", "teal", "white", "black", "brown",
             "crimson", "gray", "orange", "pale green")


class Description(NamedTuple):
    """What a description asks of a card: its types (any when empty), alignment (one, or two joined by "/" for
    "evil or neutral"), brigade and traits."""

    types: tuple[str, ...]
    alignment: str | None
    brigade: str | None
    traits: tuple[str, ...]


def alignment_of(card_type: str, stated: str | None) -> str | None:
    """A card's alignment: the one its type gives (Heroes and good enhancements are good, Evil Characters and
    evil enhancements evil), else the one its case states, else None (not known)."""
    return TYPE_ALIGNMENT.get(card_type, stated)


def read_description(words: str) -> Description | str:
    """The checks a description's words ask for, or the reason it cannot be read (naming the word)."""
    # "an Old Testament Hero": the words the card list abbreviates elsewhere ("an O.T. Hero")
    rest = re.sub(r"\b(old|new) testament\b", lambda m: "ot" if m.group(1) == "old" else "nt", words.strip())
    rest = re.sub(r"\bwarrior class\b", "warrior-class", rest)  # "a warrior class Hero"
    alignment = brigade = None
    traits: list[str] = []
    while rest:
        if rest in NOUNS:
            types = NOUNS[rest]
            allowed = alignment.split("/") if alignment else []
            if alignment is not None and types and any(TYPE_ALIGNMENT.get(t, allowed[0]) not in allowed for t in types):
                fitting = tuple(t for t in types if TYPE_ALIGNMENT.get(t, allowed[0]) in allowed)
                if not fitting:
                    return f"'{alignment} {rest}' names no card"
                types = fitting
            return Description(types, alignment, brigade, tuple(dict.fromkeys(traits)))
        head, _, tail = rest.partition(" ")
        two = " ".join(rest.split()[:2])
        three = rest.split()[:3]
        if (alignment is None and len(three) == 3 and three[1] == "or" and three[0] in ALIGNMENTS
                and three[2] in ALIGNMENTS and three[0] != three[2]):
            # "an evil or neutral card": either alignment
            alignment, rest = "/".join(sorted((three[0], three[2]))), " ".join(rest.split()[3:])
            continue
        if rest in TRAIT_WORDS:  # a trait noun alone: "a human", "Demons"
            traits.append(TRAIT_WORDS[rest])
            return Description(("Hero", "Evil_Character"), alignment, brigade, tuple(dict.fromkeys(traits)))
        if head in ALIGNMENTS and alignment is None and tail and " ".join((head, tail)) not in NOUNS:
            alignment, rest = head, tail
        elif two == "pale green" and brigade is None:
            brigade, rest = "Pale_Green", rest[len(two):].strip()
        elif head in _BRIGADES and brigade is None and tail:
            brigade, rest = head.title(), tail
            rest = rest.removeprefix("brigade ").strip()
        elif head in TRAIT_WORDS and tail:
            traits.append(TRAIT_WORDS[head])
            rest = tail
        else:
            tokens = rest.split()
            known = next((n for n in (2, 1) if " ".join(tokens[:n]) in NOUNS and len(tokens) > n), 0)
            word = tokens[known] if known else head  # "hero (face down)": the words after the noun
            return f"the word '{word}' in the description '{words}' is not one the model can check"
    return f"the description '{words}' names no kind of card"


def without_article(words: str) -> str:
    """The description without a leading "a", "an" or "any" ("an evil card" -> "evil card")."""
    return re.sub(r"^(?:an?|any) ", "", words)
