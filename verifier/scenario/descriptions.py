"""What a target description on a card says about the cards it names: one table from words to checks.

A description ("an evil Enhancement", "all N.T. Heroes", "a good card of the purple brigade") is read as a
quantity and an owner (by the card grammar), then here: optional alignment words, brigade words and trait
words, and a noun that names card types. Each word maps to one check on a card of the case:

- a **noun** names the card types it fits (`NOUNS`): "Hero" fits Heroes, "character" fits Heroes and
  Evil Characters, "Enhancement" fits good and evil enhancements, "card" fits any card;
- an **alignment** word ("good", "evil") asks for the card's alignment (`alignment_of`);
- a **brigade** word asks for the brigade;
- a **trait** word ("human", "N.T.", "Demon") asks for the trait (see `cardreading.TRAIT_WORDS`);
- a **book** of the Bible before the noun ("an Exodus Hero", "a I Samuel character"), or "with a <book> reference"
  after it, asks for a card from that book (`cardreading.BOOK_WORDS`, CORE-15-R3);
- a **title** of the card list ("Barak", "Herod Antipas") names the cards with that title (`titles`, CORE-15-R1);
- "multi-brigade" or "single-brigade" ("single-color") before the noun asks for a card of two or more brigades, or
  of exactly one (`cardreading.BRIGADE_COUNT_WORDS`, CORE-15-R5).

A description with a word the table does not know is not read: the grammar reports it, naming the word.
"""

from __future__ import annotations

__all__ = ["NOUNS", "ALIGNMENTS", "TYPE_ALIGNMENT", "Description", "read_description",
           "read_alternatives", "read_exceptions", "alignment_of", "describe", "without_article", "state_cards"]

import re
from functools import cache
from typing import NamedTuple

from .cardreading import BOOK_WORDS, BRIGADE_COUNT_WORDS, TRAIT_WORDS
from .titles import named, types_titled

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

# Traits whose noun alone names cards of any type, not only characters: the card list gives "Idol" to Artifacts and
# Curses.
_NOT_ONLY_CHARACTERS = frozenset({"Idol"})

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


def describe(d: Description) -> str:
    """A description in words: "evil Hero/Evil_Character of the Red brigade that is demon"."""
    words = [d.alignment.replace("/", " or ")] if d.alignment else []
    words.append("/".join(d.types) if d.types else "card")
    if d.brigade:
        words.append(f"of the {d.brigade} brigade")
    if d.traits:
        words.append(f"that is {' and '.join(d.traits)}")
    return " ".join(words)


def alignment_of(card_type: str, stated: str | None) -> str | None:
    """A card's alignment: the one its type gives (Heroes and good enhancements are good, Evil Characters and
    evil enhancements evil), else the one its case states, else None (not known)."""
    return TYPE_ALIGNMENT.get(card_type, stated)


@cache
def read_description(words: str) -> Description | str:
    """The checks a description's words ask for, or the reason it cannot be read (naming the word); read once per
    words (a case asks for one description for every card it holds)."""
    # "an Old Testament Hero": the words the card list abbreviates elsewhere ("an O.T. Hero")
    titled = types_titled(words)
    if titled is not None and words.strip() not in NOUNS and words.strip() not in TRAIT_WORDS:
        # "Barak", "Herod Antipas": the cards with that title (CORE-15-R1)
        return Description(titled[1], None, None, (named(titled[0]),))
    rest = re.sub(r"\b(old|new) testament\b", lambda m: "ot" if m.group(1) == "old" else "nt", words.strip())
    # "a Hero with a Daniel reference": the book before the noun (CORE-15-R3)
    rest = re.sub(r"^(?P<noun>.+?) with an? (?P<book>[a-z ]+?) reference$",
                  lambda m: f"{m.group('book')} {m.group('noun')}" if m.group("book") in BOOK_WORDS else m.group(0), rest)
    rest = re.sub(r"\bwarrior class\b", "warrior-class", rest)  # "a warrior class Hero"
    rest = re.sub(rf"\b({'|'.join(_BRIGADES)})-brigade\b", r"\1 brigade", rest)  # "any red-brigade warrior"
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
        if rest in TRAIT_WORDS:  # a trait noun alone: "a human", "Demons", "idols"
            traits.append(TRAIT_WORDS[rest])
            types = _ANY if TRAIT_WORDS[rest] in _NOT_ONLY_CHARACTERS else ("Hero", "Evil_Character")
            return Description(types, alignment, brigade, tuple(dict.fromkeys(traits)))
        if head in ALIGNMENTS and alignment is None and tail and " ".join((head, tail)) not in NOUNS:
            alignment, rest = head, tail
        elif two == "pale green" and brigade is None:
            brigade, rest = "Pale_Green", rest[len(two):].strip()
        elif head in _BRIGADES and brigade is None and tail:
            brigade, rest = head.title(), tail
            rest = rest.removeprefix("brigade ").strip()
        elif (multi := next((n for n in (3, 2) if len(rest.split()) > n
                             and " ".join(rest.split()[:n]) in TRAIT_WORDS), 0)):
            # a trait of several words before a noun: "an empty tomb Hero", "a son of Jacob Hero"
            traits.append(TRAIT_WORDS[" ".join(rest.split()[:multi])])
            rest = " ".join(rest.split()[multi:])
        elif head in TRAIT_WORDS and tail:
            traits.append(TRAIT_WORDS[head])
            rest = tail
        elif head in BRIGADE_COUNT_WORDS and tail:  # "a multi-brigade good or evil card", "a single-brigade Site"
            traits.append(BRIGADE_COUNT_WORDS[head])
            rest = tail
        elif two in BOOK_WORDS and len(rest.split()) > 2:  # "a I Samuel character", "II Kings cards"
            traits.append(BOOK_WORDS[two])
            rest = " ".join(rest.split()[2:])
        elif head in BOOK_WORDS and tail:  # "an Exodus Hero": a book only before a noun, never alone
            traits.append(BOOK_WORDS[head])
            rest = tail
        else:
            tokens = rest.split()
            known = next((n for n in (2, 1) if " ".join(tokens[:n]) in NOUNS and len(tokens) > n), 0)
            word = tokens[known] if known else head  # "hero (face down)": the words after the noun
            return f"the word '{word}' in the description '{words}' is not one the model can check"
    return f"the description '{words}' names no kind of card"


# "a Hero (or good Dominant)": a second description in brackets; one with a count or a condition ("(or two if used
# by a Judge)", "(or 2 animals)") says more than "or" and is not read so
_OR_BRACKET = re.compile(r"(?P<first>[^()]+?) \(or (?P<other>[^()]+)\)")
_COUNTED = re.compile(r"(?:\d+|x|one|two|three|four|five|all|any|up)\b|.*\b(?:if|when|while|unless)\b")
# What joins descriptions in a list ("a demon or beast", "an Artifact , a Fortress or a Site", "a Hero , Site and/or
# Fortress"), as the normalised text spaces its commas.
_ALTERNATIVE = re.compile(r" , (?:or |and/or )?| (?:or|and/or) ")
# Trait words that describe a card only before a noun: "a male or female Hero" is not "a male, or a female Hero".
_ADJECTIVES = frozenset({"male", "female", "nt", "ot", "generic", "wilderness", "gospel", "jerusalem", "corinth",
                         "warrior-class", "nativity", "postexilic"})


def read_alternatives(words: str) -> tuple[Description, ...] | str:
    """The descriptions a card fits any of: one when the words read whole ("an evil or neutral card"), else one per
    description the words join with "or" ("any demon or beast", "an Artifact, a Fortress or a Site", "a Hero (or
    good Dominant)"); or the reason they cannot be read ("a Hero, Site and/or Fortress" may name a card of each;
    "an evil human (or two if used by a Judge)" another count: not read).

    Words that may describe more than one alternative are not read: a later alternative without an article after
    one with words before its noun ("a good card or Artifact": is the Artifact good too?), and an
    earlier alternative that is a lone adjective ("a male or female Hero") or a lone trait before a later one of
    several words without an article ("a giant or warrior class Evil Character")."""
    bracketed = _OR_BRACKET.fullmatch(words)
    if bracketed is not None and _COUNTED.match(bracketed.group("other")):
        return (f"a count or a condition in brackets ('(or {bracketed.group('other')})') changes what the ability "
                "targets: not read")
    if bracketed is not None:
        # "a Hero (or good Dominant)": the bracket offers a second description, as "or" does
        words = f"{bracketed.group('first')} or {bracketed.group('other')}"
    whole = read_description(words)
    parts = _ALTERNATIVE.split(words)
    if not isinstance(whole, str) or len(parts) == 1:
        return whole if isinstance(whole, str) else (whole,)
    if "and/or" in words.split():
        return f"a list joined by 'and/or' ('{words}') may name a card of each description: not read"
    if "or" not in words.split():
        return f"a list of descriptions without 'or' ('{words}') is not read"
    bare = [without_article(p.strip()) for p in parts]
    for i, part in enumerate(bare[:-1]):
        # "a male or female Hero"; "a giant or warrior class Evil Character": is the giant an Evil Character too?
        if part in _ADJECTIVES or part in ALIGNMENTS or (
                part in TRAIT_WORDS and any(p == raw.strip() and len(p.split()) > 1
                                            for p, raw in zip(bare[i + 1:], parts[i + 1:]))):
            return f"whether '{part}' in '{words}' takes the noun after it is not read"
    if _before_noun(bare[0]):
        for part, raw in zip(bare[1:], parts[1:]):
            if part == raw.strip() and not _before_noun(part):
                return f"whether the words of '{bare[0]}' describe '{part}' too is not read"
    out = []
    for part in bare:
        d = read_description(part)
        if isinstance(d, str):
            return d
        out.append(d)
    return tuple(dict.fromkeys(out))


# "an evil card (except a human)", "characters (except Romans)": the cards a description leaves out
_EXCEPT = re.compile(r"(?P<kept>.+?) \(except (?P<left>[^()]+)\)")
_NONE: tuple[Description, ...] = ()
# "non-human", "non-humans": the cards of a trait left out, before a noun or as the noun (characters)
_NON = re.compile(r"(?<![\w-])non-(?P<trait>[a-z]+?)(?P<s>s?)(?![\w-])")


def read_exceptions(words: str) -> tuple[str, tuple[Description, ...]] | str:
    """The words of a description without its exception in brackets, and the descriptions of the cards the
    exception leaves out ("an evil card (except a human)": a human is no target; "(except a Roman or High Priest)":
    neither is); the words unchanged and no exception when there is none, or the reason the exception cannot be
    read ("(except one)", a count, or words the descriptions table does not know)."""
    m = _EXCEPT.fullmatch(words)
    kept, left = words, _NONE
    if m is not None:
        read = read_alternatives(without_article(m.group("left").strip()))
        if isinstance(read, str):
            return f"the exception '(except {m.group('left')})': {read}"
        kept, left = m.group("kept"), read
    non = _NON.search(kept)
    if non is None:
        return kept, left
    # "an evil non-human", "non-human Evil Characters": the cards of the trait are left out
    if non.group("trait") not in TRAIT_WORDS:
        return f"the word 'non-{non.group('trait')}' in the description '{words}' is not one the model can check"
    tokens = kept.split()
    at = tokens.index(non.group(0))
    noun = "characters" if non.group("s") else "character"
    tokens[at:at + 1] = [noun] if at == len(tokens) - 1 else []
    return " ".join(tokens), (*left, Description((), None, None, (TRAIT_WORDS[non.group("trait")],)))


def _before_noun(words: str) -> list[str]:
    """The words of a description before its noun ("evil" in "evil King", none in "Evil Character")."""
    tokens = words.split()
    for n in range(len(tokens), 0, -1):
        if " ".join(tokens[-n:]) in NOUNS:
            return tokens[:-n]
    return tokens[:-1]


def state_cards(description: str, another: bool) -> str:
    """The cards a state names, in words: "another priest", "an evil enhancement", "a priest"."""
    return f"{'another' if another else 'an' if description[:1] in 'aeiou' else 'a'} {description}"


def without_article(words: str) -> str:
    """The description without a leading "a", "an" or "any" ("an evil card" -> "evil card")."""
    return re.sub(r"^(?:an?|any) ", "", words)
