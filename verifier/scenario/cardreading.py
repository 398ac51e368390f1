"""What is read from a card's printed text: its ability blocks, their vocabulary fields and parts.

Plain values, kept apart from the grammar (`cardtext`) so that a reading from the cache is used
without loading the parser.
"""

from __future__ import annotations

__all__ = ["Part", "AbilityReading", "TextReadingResult", "TRAIT_WORDS", "TRAITS", "trait_named", "BOOKS",
           "BOOK_TRAITS", "BOOK_WORDS", "books_of", "BRIGADE_COUNT_WORDS", "BRIGADE_COUNT_TRAITS", "NEGATE_MOVE_PLACES",
           "USE_LIMIT",
           "use_count", "Reach", "reach_change", "reach_of"]

import re
from functools import cache
from typing import NamedTuple

# Words a target description may use for what a card is (an identifier, humanity, gender, testament),
# each with the trait a case states for its cards (`traits:`); a noun names a character ("a human",
# "your Persian"), an adjective stands before a type word ("a male Hero", "N.T. Heroes").
TRAIT_WORDS = {
    "human": "human", "humans": "human", "male": "male", "males": "male", "female": "female", "females": "female",
    "nt": "N.T.", "ot": "O.T.", "corinth": "Corinth", "demon": "demon", "demons": "demon",
    "persian": "Persian", "persians": "Persian", "egyptian": "Egyptian", "egyptians": "Egyptian",
    "babylonian": "Babylonian", "babylonians": "Babylonian", "assyrian": "Assyrian", "assyrians": "Assyrian",
    "missionary": "missionary", "missionaries": "missionary", "thessalonian": "Thessalonian",
    "thessalonians": "Thessalonian",
    # a warrior-class character, which abilities call a "warrior" (GLOSS-23)
    "warrior": "warrior", "warriors": "warrior", "warrior-class": "warrior",
    # identifiers of the card list that descriptions name ("if used by a Prophet", "negate a King")
    **{w: t for t, words in (
        ("Prophet", ("prophet", "prophets")), ("Priest", ("priest", "priests")), ("King", ("king", "kings")),
        ("Judge", ("judge", "judges")), ("Angel", ("angel", "angels")), ("Disciple", ("disciple", "disciples")),
        ("Musician", ("musician", "musicians")), ("Magician", ("magician", "magicians")),
        ("Patriarch", ("patriarch", "patriarchs")), ("Animal", ("animal", "animals")),
        ("Canaanite", ("canaanite", "canaanites")), ("Philistine", ("philistine", "philistines")),
        ("Roman", ("roman", "romans")), ("Greek", ("greek", "greeks")), ("Syrian", ("syrian", "syrians")),
        ("Moabite", ("moabite", "moabites")), ("Pharisee", ("pharisee", "pharisees")),
        ("Sadducee", ("sadducee", "sadducees")), ("Martyr", ("martyr", "martyrs")),
        ("Generic", ("generic",)), ("Wilderness", ("wilderness",)), ("Herod", ("herod", "herods")),
        ("Thief", ("thief", "thieves")), ("Samaritan", ("samaritan", "samaritans")),
        ("Deacon", ("deacon", "deacons")), ("Beast", ("beast", "beasts")), ("Giant", ("giant", "giants")),
        ("Flood Survivor", ("flood survivor", "flood survivors")), ("Gospel", ("gospel",)),
        ("Jerusalem", ("jerusalem",)), ("Heretic", ("heretic", "heretics")), ("Edomite", ("edomite", "edomites")),
        ("Antediluvian", ("antediluvian", "antediluvians")), ("Nativity", ("nativity",)),
        ("Postexilic", ("postexilic",)), ("Tabernacle Priest", ("tabernacle priest", "tabernacle priests")),
        ("Idol", ("idol", "idols")), ("Lion", ("lion", "lions")), ("Minor Prophet", ("minor prophet", "minor prophets")),
        ("Major Prophet", ("major prophet", "major prophets")), ("Son of Jacob", ("son of jacob", "sons of jacob")),
        ("Empty Tomb", ("empty tomb",)), ("Colossae", ("colossae",)), ("Ephesus", ("ephesus",)),
        ("Philippi", ("philippi",)), ("Caesarea", ("caesarea",)), ("Joppa", ("joppa",)),
        ("Roman Emperor", ("roman emperor", "roman emperors")), ("Centurion", ("centurion", "centurions")),
        ("King of Israel", ("king of israel", "kings of israel")), ("King of Judah", ("king of judah", "kings of judah")),
    ) for w in words},
}
TRAITS = tuple(dict.fromkeys(TRAIT_WORDS.values()))
# "multi-brigade", "single-brigade" ("single-color") in a description: a trait a card has by the number of its
# brigades (CORE-15-R5, `model.fits_description`), which a target description names and no case states
BRIGADE_COUNT_WORDS = {"multi-brigade": "multi-brigade", "single-brigade": "single-brigade",
                       "single-color": "single-brigade"}
BRIGADE_COUNT_TRAITS = tuple(dict.fromkeys(BRIGADE_COUNT_WORDS.values()))

# The books of the Bible a card's printed reference may name (the card list's reference field, "Exodus 2:1",
# "II Kings 5:1; Luke 4:27"), as the card list writes them. A card is from each book its reference names (CORE-15-R3):
# trait `from <book>`, which a description asks for with the book's name before its noun ("an Exodus Hero", "a I
# Samuel character") or as "a <noun> with a <book> reference". No description word asks for Judges, a word
# descriptions use for judges ("all Judges"), nor for the Song of Solomon.
BOOKS = ("Genesis", "Exodus", "Leviticus", "Numbers", "Deuteronomy", "Joshua", "Judges", "Ruth", "I Samuel",
         "II Samuel", "I Kings", "II Kings", "I Chronicles", "II Chronicles", "Ezra", "Nehemiah", "Esther", "Job",
         "Psalms", "Proverbs", "Ecclesiastes", "Song of Solomon", "Isaiah", "Jeremiah", "Lamentations", "Ezekiel",
         "Daniel", "Hosea", "Joel", "Amos", "Obadiah", "Jonah", "Micah", "Nahum", "Habakkuk", "Zephaniah", "Haggai",
         "Zechariah", "Malachi", "Matthew", "Mark", "Luke", "John", "Acts", "Romans", "I Corinthians",
         "II Corinthians", "Galatians", "Ephesians", "Philippians", "Colossians", "I Thessalonians",
         "II Thessalonians", "I Timothy", "II Timothy", "Titus", "Philemon", "Hebrews", "James", "I Peter",
         "II Peter", "I John", "II John", "III John", "Jude", "Revelation")
BOOK_TRAITS = tuple(f"from {b}" for b in BOOKS)
# a book's name as a description writes it, lower-cased ("psalm" too), and the trait it asks for
BOOK_WORDS = {**{b.lower(): f"from {b}" for b in BOOKS if b not in ("Judges", "Song of Solomon")},
              "psalm": "from Psalms"}


# What a negate that also moves the card whose ability it negates (`AbilityReading.moves_what_it_negates`) puts it
# into, its owner's, and the statement saying so.
NEGATE_MOVE_PLACES = {"into_discard_pile": ("discard pile", "DISC-1-R1"), "into_draw_pile": ("draw pile", "PLACE-1-R2"),
                      "into_banish_pile": ("banish pile", "BAN-1-R2"), "into_reserve": ("Reserve", "RSV-3-R3")}


@cache
def books_of(reference: str) -> tuple[str, ...] | None:
    """The traits `from <book>` of the books a printed reference names ("II Kings 5:1; Luke 4:27"), in its order;
    None when a part of it names no book of `BOOKS` ("Old Testament", an empty reference): which books the card is
    from is then not known. Worked out once per reference: a card's traits and settled traits both ask for it."""
    found = []
    # parts split where a book's name follows (a comma may also join verses: "Hebrews 6:4,6"); brackets dropped
    for part in re.split(r"\s*(?:[;/]|,(?=\s*(?:I{1,3} )?[A-Z]))\s*", re.sub(r"\s*\([^()]*\)", "", reference).strip()):
        m = re.match(r"(?P<book>(?:I{1,3} )?[A-Z][a-z]+(?: of [A-Z][a-z]+)?)(?: \d|$)", part)
        book = "Psalms" if m is not None and m.group("book") == "Psalm" else m.group("book") if m is not None else ""
        if book not in BOOKS:
            return None
        found.append(f"from {book}")
    return tuple(dict.fromkeys(found))


def trait_named(word: str) -> str | None:
    """The trait a word names, as a case or the card list's identifiers write it ("N.T.", "nt", "Humans", "from
    Exodus"), or None."""
    key = word.strip().lower()
    if key.startswith("from ") and key.removeprefix("from ").strip() in BOOK_WORDS:
        return BOOK_WORDS[key.removeprefix("from ").strip()]
    return TRAIT_WORDS.get(key.replace(".", ""))


# How often a text lets an ability be used (CORE-17): "once per game", "twice per turn", "3 times per game".
USE_LIMIT = re.compile(r"(once|twice|\d+ times) per (\w+)")


def use_count(times: str) -> int:
    """The number of uses `USE_LIMIT`'s first group says: once, twice, N times."""
    return {"once": 1, "twice": 2}.get(times) or int(times.split()[0])

class Part(NamedTuple):
    """One part read from a sentence: its kind, the words it was read from, and what it maps to.

    `mapped` lists the vocabulary fields it sets, as (field, value) pairs; an unsupported part
    has no mapping and says in `reason` why it is not modelled.
    """

    kind: str
    text: str
    mapped: tuple[tuple[str, str], ...]
    reason: str

    @property
    def supported(self) -> bool:
        """The part maps to the vocabulary."""
        return not self.reason


# A block that is an ability its player chooses to use ("You may ...", "Once per game, you may ...", "Underdeck this
# card to ..."): it does nothing unless used, and no attempt of a case uses an unread block.
_CHOSEN = re.compile(r"(?:(?:once per (?:game|turn)|at any time|during [a-z' ]+|if [^,.]+)\s*,\s*)?"
                     r"(?:(?:you|holder|opponent|each player) )?may\b"
                     r"|(?!(?:if|when|while|once|after|until)\b)[a-z]+ this (?:card|character|hero|evil character|"
                     r"enhancement|site|city|fortress|curse|"
                     r"covenant|artifact|lost soul)\b[^.]*? to\b")


class Reach(NamedTuple):
    """The cards a move not carried out could reach (a second effect, a price; `AbilityReading.use_changes`): any card
    of one of the types (any type when none) and of the alignment (any when None; one, or two joined by "/"), and,
    when `in_hand`, only one that could be in a hand."""

    types: tuple[str, ...]
    alignment: str | None
    in_hand: bool


def reach_change(reach: Reach) -> str:
    """The `use_changes` entry that says a move could reach these cards."""
    return (f"fits:{'/'.join(reach.types) or 'any'}|{reach.alignment or 'any'}" + ("|hand" if reach.in_hand else ""))


def reach_of(change: str) -> Reach | None:
    """The cards a `use_changes` entry written by `reach_change` says a move could reach; None for another entry."""
    kind, _, rest = change.partition(":")
    if kind != "fits":
        return None
    types, alignment, *hand = rest.split("|")
    return Reach(() if types == "any" else tuple(types.split("/")), None if alignment == "any" else alignment,
                 bool(hand))


# A sentence carried out only after its player chose the one before it ("You may reserve a card. If you do, ...").
_AFTER_A_CHOICE = re.compile(r"if you do\b(?! not)")


class AbilityReading(NamedTuple):
    """One ability block of a card as read: its label, its vocabulary fields, and its parts."""

    number: int
    label: str
    text: str
    kind: str | None
    duration_kind: str
    duration_turns: int | str
    paired: bool
    on_return: bool
    grants_ability: bool
    cannot_be_negated: bool | str
    target_zone: str | None
    also_in_play: bool
    targets_opponents_cards: bool
    targets_own_cards: bool
    targets_all_in_location: bool
    parts: tuple[str, ...]
    heals_only: tuple[str, ...]
    target_types: tuple[str, ...]
    target_brigade: str | None
    min_targets: int | str
    max_targets: int | str | None
    pieces: tuple[Part, ...]
    duration_min_turns: int = 0
    inflicts: tuple[str, ...] = ()
    negates_kinds: tuple[str, ...] = ()
    target_traits: tuple[str, ...] = ()
    # what the ability protects, as "whom/against/whose": whom is set_aside_cards, set_aside_areas or any_card;
    # against is capture, evil or any; whose is paired (a set-aside's paired ability) or card (the card's,
    # used or not). The model has no protection: see the case loader.
    protections: tuple[str, ...] = ()
    # how often the text lets the ability be used (CORE-17), as "N/game" or "N/turn"; "" for no limit
    use_limit: str = ""
    # other effects the text lets the player pick instead of the modelled one ("Heal a Hero or underdeck a
    # Hero"); not modelled: an entry using the ability says it uses the modelled effect
    alternatives: tuple[str, ...] = ()
    # what the on-return effect may change, which regcheck does not carry out: "zone:types" (zone: anywhere,
    # in_play, hand, draw_pile or discard_pile; types: "any" or card types joined by "/"), "this_card" (it
    # discards its own card) or "blocking" (it chooses who blocks a later rescue attempt); see the case loader
    on_return_changes: tuple[str, ...] = ()
    # what another effect of the ability, carried out as it is used, may change and regcheck does not carry out:
    # "placed_on_targets:evil" (it discards the evil cards placed on its targets), or "ZONE:TYPES" as above
    use_changes: tuple[str, ...] = ()
    # what a use of the ability must meet for its effect to happen, which the case loader checks (a use that does
    # not meet it is refused): "own_turn", "phase:PHASE" (one of), "used_by:TYPE" (one of), "used_by_trait:TRAIT",
    # and "two:used_by:TYPE", "two:used_by_trait:TRAIT" for a use naming two targets (CORE-15-R4)
    requires: tuple[str, ...] = ()
    # the alignment ("good" or "evil") its description names for its targets ("an evil card"), or None
    target_alignment: str | None = None
    # descriptions its targets may fit instead of the one above ("any demon or beast"): (types, alignment,
    # brigade, traits) each
    target_alternatives: tuple[tuple[tuple[str, ...], str | None, str | None, tuple[str, ...]], ...] = ()
    # descriptions its targets must not fit ("an evil card (except a human)"), written as the alternatives are
    target_exceptions: tuple[tuple[tuple[str, ...], str | None, str | None, tuple[str, ...]], ...] = ()
    # the text names "all" its targets: it targets every card that fits when it is used (CORE-15)
    targets_every: bool = False
    # "negate and discard ...", "negate and underdeck ..." (or shuffle), "negate and banish ...", "negate and reserve
    # ...": the negate also discards the card whose ability it negates (DISC-1-R1), or puts it into its owner's draw
    # pile (PLACE-1-R2), banish pile (BAN-1-R2) or Reserve (RSV-3-R3); "stays_put" for none of them
    moves_what_it_negates: str = "stays_put"
    # "negate the last evil Enhancement played in battle": the negate reaches only the latest play of a card of its
    # description in the current battle before it (TGT-27-R1)
    negates_the_last_played: bool = False
    # "negate an Enhancement or the last Enhancement played": the negate also reaches the latest play before it of a
    # card of its description, wherever that card is now (TGT-27-R2)
    reaches_the_last_played: bool = False
    # "Prevent the next evil Enhancement played in battle", "... played by opponent": the prevent names only cards
    # played while a battle is under way, or played by an opponent of its user (PREV-11-R1)
    prevents_plays_in_battle: bool = False
    prevents_opponents_plays: bool = False
    # "If another Moabite is in play, ...", "If you control a meek Hero, ...", "If an evil Enhancement is in battle,
    # ...", "If played in battle, ...": the state the effect waits on, checked as the ability is used (TRIG-3,
    # TRIG-3-R1): "card_in_play", "card_you_control", "card_in_battle", "battle_under_way", "state_the_case_states" (one
    # the reader does not check, which a case states for each use, TRIG-3-R2), or "no_state"
    if_state: str = "no_state"
    # the description of the cards the state names ("" for none), and whether it names a card other than the
    # ability's own ("another")
    if_description: str = ""
    if_another: bool = False
    # the words of a state the case states ("if blocking"), "" for any other
    if_words: str = ""
    # "You may withdraw this Hero.": its one target is its own card
    targets_itself: bool = False
    # "You may discard this card to ...": its price is its own card, discarded as it is used from play (CORE-19-R1)
    discards_itself: bool = False
    # "Opponent may underdeck an evil card from hand. If they do not, ...": its effect happens only if the opponent
    # does not make the move it offers them (CORE-19-R2)
    offers_a_price: bool = False
    # the text says the ability cannot be interrupted, or cannot be prevented (CBN-1-R1, CBN-9); "cannot be
    # negated" is both (CBN-1) and is read as `cannot_be_negated`
    cannot_be_interrupted: bool = False
    cannot_be_prevented: bool = False
    # a guard sentence not read whole ("cannot be negated if ...", "cannot be prevented by ..."); see the case loader
    guard_condition: str = ""
    # "cannot be negated by <description>": the description of the cards whose abilities its guards bar; "" for
    # every card (CBN-6-R3)
    guard_by: str = ""
    # "cannot be negated if used by <description>": the description its guards' user must fit (CBN-6-R2), which
    # the case loader checks for each use; "" when the guards hold whoever uses the ability
    guard_user: str = ""
    # "<description> cannot be negated": the description of the cards whose abilities the block makes unnegatable
    # (CBN-3, CBN-4); "" when it gives none
    grants_unnegatable: str = ""
    # "... used by <this card | a description of characters>": whose Enhancements the grant covers ("this card",
    # or the description); "" when it names no user
    grant_users: str = ""
    # a "cannot be ..." given to other cards that the reader does not read whole ("Weapon class enhancements used by
    # Eli cannot be negated"): the case loader refuses a case with it and a negate
    grant_aside: str = ""
    # "interrupt the battle": it interrupts abilities activated earlier in the current battle (INT-17 to INT-20),
    # which regcheck does not carry out; see the case loader
    interrupts_battle: bool = False
    # how the ability acts in the Ability Activation Order: "plain_effect", or "adds_same_side" for a band (AAO-9)
    effect_class: str = "plain_effect"
    # the printed block it is written in (1, 2 ...): a block holding a band beside another effect is two abilities
    # (AAO-4-R1)
    printed_block: int = 0

    @property
    def unsupported(self) -> tuple[Part, ...]:
        """The parts of this ability that are not modelled."""
        return tuple(p for p in self.pieces if not p.supported)

    @property
    def acts_unread(self) -> bool:
        """The block is no ability of the model, and a sentence of it that is not read could act without a player
        choosing to use it ("Restrict players from ...", "If opponent has play advantage, set aside ..."), unlike
        one a player chooses (`_CHOSEN`, or "If you do, ..." after such a choice): a case where it could act is
        refused, and a card with such a block is not modelled. A condition not read on a sentence otherwise read
        (a protection's, read as if it held) does not count."""
        return self.kind is None and any(
            p.kind != "condition" and not _CHOSEN.match(p.text.lower()) and not _AFTER_A_CHOICE.match(p.text.lower())
            for p in self.unsupported)


class TextReadingResult(NamedTuple):
    """A card text as read: its ability blocks."""

    text: str
    abilities: tuple[AbilityReading, ...]
