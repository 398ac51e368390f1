"""Reading a real card's printed text with a grammar, failing closed.

The text is normalised (quotes, spacing, bracketed edits, abbreviations such as O.T. protected),
split into ability blocks on their labels (`GE:`, `EE:`, `EC:`, `TOP:`, `BOTTOM:`, `(Star)`, ` / `,
...), and each block into sentences. Each sentence is parsed by the lark grammar `GRAMMAR` into
an optional condition, an effect and tails. Every part read either maps to the vocabulary or is
kept as an *unsupported* part with the reason it is not modelled; nothing is guessed.
"""

from __future__ import annotations

__all__ = [
    "Part",
    "AbilityReading",
    "TextReadingResult",
    "GRAMMAR",
    "normalise",
    "split_blocks",
    "split_sentences",
    "read_text",
]

import re
from collections.abc import Callable
from functools import cache, lru_cache

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput

from .cardmechanics import NOT_UNDERSTOOD, mechanic_reason, unread_reason
from .cardreading import NEGATE_MOVE_PLACES, USE_LIMIT, AbilityReading, Part, Reach, TextReadingResult, reach_change, use_count
from .descriptions import (
    ALIGNMENTS,
    TYPE_ALIGNMENT,
    Description,
    describe,
    read_alternatives,
    read_description,
    read_exceptions,
    state_cards,
    without_article,
)
from .titles import NAMED

NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
           "eight": 8, "nine": 9, "ten": 10, "twelve": 12}

# Block labels: an upper-case word (or a known label word) and a colon, at the start of the text,
# after the end of a sentence or after " / ".
_LABEL = re.compile(r"(?:(?<=^)|(?<=[.!?)]\s)|(?<=/\s))(?:(\(Star\)|[A-Z]{1,8}|Hero|Good|Evil|Site|Curse)\s*:|"
                    r"\((Star|[A-Z]{1,8}|Artifact|Hero)\))\s*")
_ABBREVIATIONS = {"O.T.": "OT", "N.T.": "NT", "o.t.": "OT", "n.t.": "NT", "i.e.": "ie", "e.g.": "eg"}


GRAMMAR = r"""
// One sentence of card text, lower-cased and normalised, without its final period.
start: lead_limit_first? lead? permission_after? lead_interrupt? body tails?
lead_limit_first: "once" "per" ONCE_UNIT ","?  -> lead_limit
// "If used by Caleb, you may discard ...", "If blocking, you may negate ...": a condition, then a permission
permission_after: PERMISSION -> lead_permission
// "Interrupt the battle and discard ...", "If used by a male Hero, interrupt the battle and ..." (INT-7)
lead_interrupt: "interrupt" "the" "battle" "and"

lead: condition ","                           -> lead_condition
    | "if" "used" "by" cwords ","             -> lead_used_by
    | PERMISSION                              -> lead_permission
    | USER_MAY                                -> lead_user
    | "once per" ONCE_UNIT ","?               -> lead_limit

condition: "if" cwords
tails: ","? TAIL
TAIL: "instead"
PERMISSION: "you may" | "holder may" | "opponent may" | "may"
// "Hero may band to ...", "Character may band to ..." on an Enhancement: the character it is played on
USER_MAY: "hero may" | "character may" | "evil character may"
ONCE_UNIT: "game" | "turn" | "round"

?body: set_aside | heal | restore | healed | negate_kinds | negate_target | negate | discard_target | discard
     | negate_list | withdraw_target | withdraw_return | return_to_hand | shuffle_target | capture_target
     | place_in_deck | banish_target | reserve_target | decrease
     | cost_effect | afflict
     | cannot | limit | on_return | when_returns | returns_with | returns_able | on_turn_returns
     | while_aside | immune_while_aside | gains_ability | gains_every_turn | each_upkeep
     | protect | immune | interrupted_only | grant_cannot | uses_allowed | band | interrupt_battle

// set aside ------------------------------------------------------------------------------
set_aside: SET_ASIDE target location? duration? paired_tail?
         | "set" target "aside" location? duration? paired_tail?
SET_ASIDE: "set aside" | "set-aside"

paired_tail: ","? "then" words                       -> then_tail
           | ","? "and" words                        -> and_tail

duration: "for" count TURNS                         -> for_turns
        | "for" "up" "to" count TURNS                -> up_to_turns
        | "for" "at" "least" count TURNS             -> at_least_turns
        | "until" "the"? "end" "of" "the"? "battle"  -> end_of_battle
        | "for" "the" "remainder" "of" "the" "game"  -> remainder
        | "for" "the" "rest" "of" "the" "game"       -> remainder
        | "for" "the" "number" "of" "turns" "equal" "to" words  -> turns_equal
        | "until" words                              -> until_event

TURNS: /turns?(?![a-z])/
count: NUMBER | NUMWORD | "x"
NUMWORD: "one" | "two" | "three" | "four" | "five" | "six" | "seven" | "eight" | "nine" | "ten"
NUMBER: /[0-9]+/

// targets --------------------------------------------------------------------------------
target: quantity? owner? description (brigade_of | book_ref)?
// "a Hero with a Daniel reference": a card from a book of the Bible (CORE-15-R3)
book_ref: "with" ("a" | "an") DWORD DWORD? "reference"
brigade_of: "from" "the" BRIGADE "brigade"
          | "of" "the" BRIGADE "brigade"
BRIGADE: "blue" | "clay" | "gold" | "green" | "purple" | "red" | "silver" | "teal" | "white" | "black"
       | "brown" | "crimson" | "gray" | "orange" | "pale green"
quantity: "a" -> q_one
        | "an" -> q_one
        | "one" -> q_one
        | "up" "to" count -> q_up_to
        | "any" "number" "of" -> q_any_number
        | "one" "or" "more" "of" -> q_one_or_more
        | "all" -> q_all
        | "any" -> q_any
        | "each" -> q_each
        | "any" NUMWORD -> q_exact
        | "any" NUMBER -> q_exact
        | NUMWORD -> q_exact
        | NUMBER -> q_exact
        | "x" -> q_x
owner: "your" -> own
     | "holder's" -> own
     | "an"? "opponent's" -> opponents
     | "opponents'" -> opponents
     | "each" "opponent's" -> opponents
     | "the" -> the
     | "that" -> the
     | "of" "your" -> own
     | "of" "holder's" -> own
     | "of" "an"? "opponent's" -> opponents
     | "this" -> this
// "any demon or beast", "an Artifact, a Fortress or a Site": descriptions a card may fit any of (`read_alternatives`)
description: ALIGN_OR? (DWORD | LINKED_TRAIT)+ (ALT_SEP ALT_FIRST (DWORD | LINKED_TRAIT)*)*
// a trait of the card list whose words hold a link word ("a son of Jacob"; `cardreading.TRAIT_WORDS`)
LINKED_TRAIT.2: /(?:sons? of jacob|kings? of (?:israel|judah))(?![a-z0-9'()\/*#-])/
ALT_SEP: /,(?: (?:or|and\/or))?(?![a-z0-9'()\/*#-])|(?:or|and\/or)(?![a-z0-9'()\/*#-])/
ALIGN_OR: /(?:good|evil|neutral) or (?:good|evil|neutral)(?![a-z])/

location: PLACE_WORD place ("or" "in"? place)*
        | "in" "play" "or" "in"? "a"? place
PLACE_WORD: "in" | "from"
place: placeowner? PLACE
placeowner: "your" | "a" | "an" | "the" | "each" | "an opponent's" | "opponent's" | "opponents'" | "holder's" | "any"
          | "all"
PLACE: "battle" | "field of battle" | "territory" | "territories" | "play" | "set-aside area" | "set-aside areas"
     | "set aside area" | "set-aside" | "set aside" | "hand" | "discard pile" | "discard piles" | "draw pile"
     | "land of bondage"

// heal -----------------------------------------------------------------------------------
heal: "heal" target location? heal_condition? increase? alternative?
alternative: ","? "or" ALT_VERB words?
ALT_VERB: "negate" | "underdeck" | "prevent" | "place" | "take" | "shuffle" | "discard" | "return" | "banish"
        | "search" | "draw" | "convert" | "protect" | "withdraw" | "bounce" | "reserve"
increase: "and" "increase" ("hero" | "abilities" | "it" | "him")? NUMBER "/" NUMBER
heal_condition: ","? ("that" | "who" | "which") "is" "about" "to" "be" "discarded" -> about_to_be_discarded
              | ","? ("that" | "who") ("is" | "are") "being" "discarded" -> being_discarded
              | ","? ("that" | "who") ("has" | "have") "been" sickness -> sick
              | "from" sickness -> sick
              | "not" "at" "full" "strength" -> not_full_strength
sickness: SICK ("or" SICK)*
SICK: "poisoned" | "diseased" | "poison" | "disease" | "paralyzed"
restore: "restore" target "to" "full" "abilities"
healed: target ("is" | "are") "healed" words?

// afflictions -----------------------------------------------------------------------------
afflict: AFFLICT target location? duration?
AFFLICT: "poison" | "disease" | "paralyze"
// "Decrease a Hero in a territory 0/2", "Decrease all Evil Characters by 4/4": a decrease by numbers the card states,
// instantaneous (INCDEC-2), read as the decrease it leaves on its targets (CORE-12, INCDEC-5, INCDEC-6-R1)
decrease: "decrease" target location? "by"? NUMBER "/" NUMBER

// other effects --------------------------------------------------------------------------
negate_kinds.3: "negate" NEGATED_KIND ("and" NEGATED_KIND)* "abilities"
NEGATED_KIND: "heal" | "resurrect"
negate_target.1: "negate" _and_move? (special_ability_of | abilities_on)? target location? alternative?
_and_move: AND_DISCARD | AND_PLACE | AND_BANISH | AND_RESERVE
// "the special ability of an evil card", "the special ability on an Evil Character": the ability printed on the card
// it names, as a negate of a card always is ("the special abilities on ..." is not read)
special_ability_of: "the" "special" "ability" ("of" | "on")
// "Negate all special abilities on Curses", "Negate special abilities on demons": every ability on the cards it names
// (GLOSS-10), a negate and a prevent together (PREV-12, PREV-12-R1)
abilities_on: "all"? "special"? "abilities" ("on" | "of")
AND_DISCARD: "and discard"
AND_PLACE: "and underdeck" | "and topdeck" | "and shuffle"
AND_BANISH: "and banish"
AND_RESERVE: "and reserve"
negate: "negate" words
// "Negate characters and good Enhancements", "Negate Enhancements and other characters", "Negate evil and neutral
// cards": every card of any of the kinds listed (see `_every_of_kinds`)
negate_list.2: "negate" _and_move? abilities_on? listed_kinds location? list_exception?
listed_kinds: listed_kind ("," listed_kind)* ","? "and" listed_kind
listed_kind: DWORD+
list_exception: "(except" words
discard_target.1: "discard" target location?
discard: "discard" words
// "Withdraw all Heroes", "withdraw a male Evil Character" (WDR-1; "retreat" is a withdraw, WDR-4)
withdraw_target.1: WITHDRAW target location?
WITHDRAW: "withdraw" | "retreat"
// "Return a red brigade Hero in battle to owner's territory": a return to territory is a withdraw (WDR-4)
withdraw_return.1: "return" target "in" "battle" "to" TO_TERRITORY
TO_TERRITORY: "territory" | "owner's territory" | "its owner's territory" | "their owner's territory"
            | "owners' territories" | "their owners' territories" | "territories"
// "Return any Hero to owner's hand": the card goes to its owner's hand, whichever hand the text names (RET-1)
return_to_hand.1: "return" target location? "to" TO_HAND
// "Bounce a Hero", "You may bounce any number of Heroes": a return to its owner's hand (RET-1-R1)
               | BOUNCE target location?
BOUNCE: "bounce"
TO_HAND: "owner's hand" | "owners' hands" | "its owner's hand" | "their owner's hand" | "their owners' hands"
       | "hand" | "your hand" | "holder's hand"
// "Shuffle all Evil Characters in battle", "shuffle an Evil Character into owner's draw pile": each card goes to its
// owner's deck (SHUF-1)
shuffle_target.1: "shuffle" target location? into_deck?
into_deck: "back"? "into" DECK_OWNER? ("deck" | "draw" "pile" | "decks" | "draw" "piles")
DECK_OWNER: "owner's" | "its owner's" | "their owner's" | "owners'" | "their owners'"
// "Underdeck a Hero", "Topdeck an Evil Character", "Place a human Hero beneath owner's deck": a place ability into its
// owner's draw pile (PLACE-1, PLACE-1-R1)
place_in_deck.1: DECK_VERB target location?
               | "place" target location? ON_DECK DECK_OWNER? DECK_WORD
// "Return a Hero in play to the top of owner's draw pile": a place ability into its owner's draw pile (PLACE-1-R4)
               | "return" target location? TO_DECK_END "of" DECK_OWNER DECK_WORD
TO_DECK_END: "to the top" | "to top" | "to the bottom" | "to bottom"
DECK_VERB: "underdeck" | "topdeck"
ON_DECK: "beneath" | "under" | "on top of" | "on the bottom of" | "at the bottom of" | "on the top of"
DECK_WORD: "deck" | "draw pile" | "decks" | "draw piles"
// "Capture a Hero in battle": each target is held captive in its user's Land of Bondage (CAPT-2)
capture_target.1: "capture" target location?
// "Banish an Evil Character", "Remove an Evil Character from the game": each target goes to its owner's banish pile
// (BAN-1-R1, BAN-2-R1)
banish_target.1: "banish" target location?
               | "remove" target location? "from" "the"? "game"
// "Reserve an evil card", "Reserve all Heroes in battle": each target goes to its owner's Reserve (RSV-3-R1, RSV-3-R2)
reserve_target.1: "reserve" target location?
cost_effect: "discard" "this" "card" "to" words
           | "remove" "this" "card" "from" "the" "game" "to" words
           | "banish" "this" "card" "to" words

cannot: CANNOT "be" ability_guard ("," ability_guard)* (","? "or" ability_guard)? by_clause? (condition | other_condition)?
// "Cannot be negated unless Hosea is in play", "... during the battle phase", "Cannot be interrupted in battle": a
// condition the reader keeps aside, as it does "if ..." (see `_guard_aside`)
other_condition: OTHER_CONDITION words?
OTHER_CONDITION: "unless" | "during" | "while" | "in battle" | "when" | "before" | "after"
by_clause: "by" target
CANNOT: "cannot" | "can not" | "can't"
ability_guard: "negated" -> g_negated
             | "interrupted" -> g_interrupted
             | "prevented" -> g_prevented
interrupted_only: "cannot" "be" "interrupted" "or" "prevented"
grant_cannot: words CANNOT "be" ability_guard ("," ability_guard)* (","? "or" ability_guard)? grant_limit?
// "... cannot be negated by evil cards", "... if holder has a Babylon site in play", "... unless Peter is in play",
// "... this turn", "... (except by an angel)": a grant the reader keeps aside (see `_grant`)
grant_limit: by_clause | condition | other_condition | "this" ("turn" | "battle") | "(except" words

limit: "limit" words?
// "May be used twice": how often the ability may be used (the permission "may" is read as the lead)
uses_allowed: "be" "used" USES ("per" ONCE_UNIT)?
USES: "twice" | "once" | /[0-9]+ times/

// paired forms ---------------------------------------------------------------------------
on_return: ON_RETURN ","? words
ON_RETURN: "on return" | "upon return" | "on its return" | "upon its return"
when_returns.2: words ("when" | "after") words RETURNS words?
RETURNS: "returns" | "return" | "returns to play"
returns_with.2: words ("returns" | "return") "with" words
returns_able.2: words ("returns" | "return") "able" "to" words
on_turn_returns: "on" "turn" count ","? words "returns" words?
while_aside: "while" ("that" words ("is" | "are"))? WHILE_ASIDE ","? words
WHILE_ASIDE: "set aside" | "set-aside"
immune_while_aside: words "while" (words ("is" | "are"))? WHILE_ASIDE
gains_ability: words "gains" "the"? "ability" words
gains_every_turn: words "gains" NUMBER "/" NUMBER "for" "every" "turn" words?
each_upkeep: "each" "upkeep" ","? words
protect: "protect" words
// "This Hero is immune to demons.", "Immune to red brigade.": a card immune to another cannot be targeted by its
// special abilities, as a protection from it (IGN-3-R1)
immune: words ("is" | "are") "immune" "to" words
      | "immune" "to" words

// "Interrupt the battle." a sentence of its own: the sentences after it are its paired abilities (INT-7)
interrupt_battle: "interrupt" "the" "battle"

// "May band to an O.T. human" ("band with" means "band to", BAND-9)
band: BAND_TO target location?
BAND_TO: "band to" | "band with"

words: (WORD | "," | ";")+
cwords: WORD+
// a whole word; a description word is any word but those that start a location, duration or clause
WORD: WORD_START WORD_BODY
DWORD: WORD_START NOT_A_LINK WORD_BODY
// the first word of a further description: not a verb, which would begin another effect ("heal a Hero or underdeck ...")
ALT_FIRST: WORD_START NOT_A_LINK NOT_A_VERB WORD_BODY
NOT_A_VERB: NOT_A_VERB_1 NOT_A_VERB_2 NOT_A_VERB_3 NOT_A_VERB_4
NOT_A_VERB_1: /(?!(?:negate|resurrect|rescue|underdeck|topdeck|prevent|place|take|shuffle|discard)(?![a-z0-9'()\/*#-]))/
NOT_A_VERB_2: /(?!(?:banish|search|draw|convert|protect|withdraw|bounce|reserve|heal|set|capture)(?![a-z0-9'()\/*#-]))/
NOT_A_VERB_3: /(?!(?:return|exchange|add|band|remove|toss|interrupt|choose|play|look|reveal)(?![a-z0-9'()\/*#-]))/
NOT_A_VERB_4: /(?!(?:decrease|increase|you|holder|may|cannot)(?![a-z0-9'()\/*#-]))/
WORD_START: /(?<![a-z0-9'()\/*#-])/
WORD_BODY: /[a-z0-9'()\/*#-]+(?![a-z0-9'()\/*#-])/
NOT_A_LINK: /(?!(?:in|from|for|until|to|that|who|which|and\/or|and|or|then|of|with|when|while|not)(?![a-z0-9'()\/*#-]))/

%import common.WS
%ignore WS
"""


def normalise(text: str) -> str:
    """The text with straight quotes, single spaces, bracketed edits opened and abbreviations protected."""
    t = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    t = re.sub(r"\[(\w[^\]]*)\]", r"\1", t)  # "his [opponent]" -> "his opponent", "Can [not]" -> "Can not"
    for abbr, word in _ABBREVIATIONS.items():
        t = t.replace(abbr, word)
    t = re.sub(r"\s+", " ", t).strip()
    return t


def split_blocks(text: str) -> list[tuple[str, str]]:
    """The ability blocks of a normalised text, as (label, text) pairs; the label may be empty."""
    pieces: list[tuple[str, str]] = []
    for chunk in re.split(r"\s/\s", text):
        marks = list(_LABEL.finditer(chunk))
        if not marks:
            if chunk.strip():
                pieces.append(("", chunk.strip()))
            continue
        if chunk[: marks[0].start()].strip():
            pieces.append(("", chunk[: marks[0].start()].strip()))
        for i, m in enumerate(marks):
            end = marks[i + 1].start() if i + 1 < len(marks) else len(chunk)
            body = chunk[m.end(): end].strip()
            if body:
                label = (m.group(1) or m.group(2)).strip("()").upper()
                pieces.append((label, body))
    return pieces


def split_sentences(block: str) -> list[str]:
    """The sentences of a block (abbreviations were protected by `normalise`)."""
    out = []
    for s in re.split(r"(?<=[.!?])\s+(?=[A-Z(\"'*])", block):
        s = s.strip()
        if s:
            out.append(s)
    return out


# The effects that begin with free words (`words`, or a target's description) keep the parser busy over every word of
# a sentence; each can only be read from a sentence that holds the words it needs, so a sentence is parsed by a
# grammar holding only those of them whose words it holds (the same reading: an effect left out has no parse).
_NEEDS = {"healed": ("healed",), "when_returns": ("return",), "returns_with": ("return",), "returns_able": ("return",),
          "immune_while_aside": ("while",), "immune": ("immune",), "gains_ability": ("gains",), "gains_every_turn": ("gains",),
          "grant_cannot": ("cannot", "can not", "can't")}
_BODY = re.compile(r"^\?body:.*?(?=\n\n)", re.M | re.S)


@cache
def _parser(left_out: frozenset[str]) -> Lark:
    """The grammar's parser without the effects `left_out` (of `_NEEDS`)."""
    body = _BODY.search(GRAMMAR)
    assert body is not None
    kept = [e for e in re.split(r"\s*\|\s*", body.group(0).removeprefix("?body:").strip()) if e not in left_out]
    grammar = GRAMMAR[:body.start()] + "?body: " + " | ".join(kept) + GRAMMAR[body.end():]
    return Lark(grammar, parser="earley", lexer="dynamic", ambiguity="resolve", keep_all_tokens=True)


# Every sentence the grammar reads says one of these words (each effect of `GRAMMAR` starts with,
# or holds, one of them); a sentence with none of them is not parsed at all.
_KEYWORDS = re.compile(r"\b(?:set|set-aside|heal|healed|restore|negate|discard|withdraw|retreat|remove|banish|bounce|cannot|"
                       r"can|limit|return|returns|when|while|gains|upkeep|protect|turn|used|poison|disease|paralyze|"
                       r"band|immune|interrupt|shuffle|capture|underdeck|topdeck|beneath|bottom|top|reserve|decrease)\b")


@lru_cache(maxsize=16384)
def _parse(low: str) -> Tree | None:
    """The parse of one lower-cased sentence, or None when the grammar does not read it."""
    if not _KEYWORDS.search(low):
        return None
    try:
        return _parser(frozenset(e for e, words in _NEEDS.items() if not any(w in low for w in words))).parse(low)
    except UnexpectedInput:
        return None


def _words(tree: Tree | Token | None) -> str:
    if tree is None:
        return ""
    if isinstance(tree, Token):
        return str(tree)
    return " ".join(_words(c) for c in tree.children if c is not None)


def _count(tree: Tree) -> int | str:
    if tree.data != "count":
        tree = next(c for c in tree.iter_subtrees_topdown() if c.data == "count")
    text = _words(tree).strip()
    if text.isdigit():
        return int(text)
    return NUMBERS.get(text, "x")


def _negated(words: str) -> Tree | None:
    """The grammar's parse of `words` as what a negate names ("all your Heroes in play"), for words that stand
    in another sentence (its target and place are read as a negate's are), or None."""
    return _parse(f"negate {words}")


def _find(tree: Tree, name: str) -> Tree | None:
    for sub in tree.iter_subtrees_topdown():
        if sub.data == name:
            return sub
    return None


class _Block:
    """What the sentences of one block have set so far."""

    def __init__(self) -> None:
        self.kind: str | None = None
        self.duration: tuple[str, int | str] = ("no_duration", 0)
        self.min_turns = 0
        self.inflicts: set[str] = set()
        self.negates: set[str] = set()
        self.protections: set[str] = set()
        self.changes: set[str] = set()
        self.use_changes: set[str] = set()
        self.requires: set[str] = set()
        self.limit = ""
        self.alternatives: list[str] = []
        self.paired = False
        self.on_return = False
        self.grants = False
        self.cbn: bool | str = False
        self.cannot_be_interrupted = False
        self.cannot_be_prevented = False
        self.guard_condition = ""
        self.guard_by = ""
        self.guard_user = ""
        self.grant = ""
        self.grant_users = ""
        self.grant_aside = ""
        self.zone: str | None = None
        self.also_in_play = False
        self.opponents = False
        self.own = False
        self.all_in_location = False
        self.parts: set[str] = set()
        self.heals_only: set[str] = set()
        self.types: tuple[str, ...] = ()
        self.brigade: str | None = None
        self.traits: tuple[str, ...] = ()
        self.alignment: str | None = None
        # descriptions its targets may fit instead ("a demon or beast"), and those they must not fit ("(except a human)")
        self.other_descriptions: tuple[Description, ...] = ()
        self.exceptions: tuple[Description, ...] = ()
        self.every = False
        self.effect_class = "plain_effect"
        self.negated_moves = "stays_put"  # what a negate also does to the card it negates (`moves_what_it_negates`)
        self.last_played = False
        self.or_last_played = False
        self.prevents_in_battle = False
        # the state the block's effect waits on (`_state_condition`): its kind, description and "another"
        self.condition: tuple[str, str, bool] = ("no_state", "", False)
        self.if_words = ""  # the words of a state the case states (TRIG-3-R2)
        # the part of a state read in the sentence being read, until the sentence is known to give the effect
        self.condition_part: Part | None = None
        # the part of a state leading a move out of a pile that is the block's first effect (`read_block` keeps it
        # only while that move is the block's one effect)
        self.move_condition: Part | None = None
        self.targets_itself = False
        self.prevents_opponents = False
        self.discards_itself = False
        self.interrupts_battle = False
        # sentences moving cards out of a pile or a hand (`_PILE_MOVES`, `_LOOKS`, `_opponent_hand_move`): the
        # sentence, the zones it takes from (none for a look or a reveal alone), and whether a condition leads it
        self.pile_moves: list[tuple[str, tuple[str, ...], bool]] = []
        # those of them that are the price of the block's effect ("discard the top card of your deck to ...", CORE-19)
        self.prices_out_of_piles: set[str] = set()
        # a move of cards of a hand offered to the opponent ("Opponent may underdeck an evil card from hand."), read
        # only when "If they do not, ..." follows it (CORE-19-R2)
        self.offered_to_opponent: str | None = None
        # the block's effect happens only if the opponent does not make a move it offers them (CORE-19-R2)
        self.offers_price = False
        # sentences letting the block's player play a card ("You may play an Enhancement.", TGT-9-R2)
        self.plays_allowed: list[str] = []
        self.min_targets: int | str = 1
        self.max_targets: int | str | None = 1
        self.pieces: list[Part] = []
        self.sentence = ""  # the sentence being read, as printed
        # the block is a sentence read alone, to see whether it is read whole (`_read_alone`)
        self.alone = False

    @property
    def guarded(self) -> bool:
        """A "cannot be ..." sentence of the block has been read."""
        return bool(self.cbn) or self.cannot_be_interrupted or self.cannot_be_prevented

    def add(self, kind: str, text: str, mapped: tuple[tuple[str, str], ...] = (), reason: str = "") -> None:
        self.pieces.append(Part(kind, _unspaced(text), mapped, reason))

    def targets_nothing(self) -> None:
        """Make the block's effect an ability of the model that targets no card and whose effect the model does not
        carry out (`other_effect`): a move out of a pile, a "cannot be negated" given to other cards."""
        self.kind = "other_effect"
        self.parts.add("other_part")
        self.min_targets, self.max_targets = 0, None


def _unspaced(text: str) -> str:
    """The words as printed: no space before a comma, semicolon or colon (the grammar reads them spaced)."""
    return re.sub(r"\s+([,;:])", r"\1", text).strip()


_PLACES = {"battle": "field_of_battle", "field of battle": "field_of_battle", "territory": "territory",
           "territories": "territory", "set-aside area": "set_aside_area", "set-aside areas": "set_aside_area",
           "set aside area": "set_aside_area", "set-aside": "set_aside_area", "set aside": "set_aside_area", "hand": "hand",
           "discard pile": "discard_pile", "discard piles": "discard_pile", "draw pile": "draw_pile",
           "land of bondage": "land_of_bondage"}


# The article and owner words before what a description names ("an opponent's good card" names a good card).
_OWNER_WORDS = re.compile(r"^(?:(?:a|an|the|any|your|holder's|opponent's|an opponent's|opponents')\s+)+")


def _location(block: _Block, tree: Tree | None, sentence: str) -> None:
    """Map a location to the target zone; more than one zone (other than 'in play or ...') is unsupported."""
    if tree is None:
        return
    places = [sub for sub in tree.children if isinstance(sub, Tree) and sub.data == "place"]
    text = _words(tree)
    zones: list[str] = []
    in_play = "in play or" in text
    for p in places:
        owner = next((_words(c) for c in p.children if isinstance(c, Tree) and c.data == "placeowner"), "")
        place = str(p.children[-1])
        if owner == "each" and not block.every:
            block.add("location", text, reason=f"a count of cards from each {place} (so many of each player's) is not "
                                               "modelled")
            return
        if place == "play":
            in_play = True
            continue
        zones.append(_PLACES[place])
        if "opponent" in owner:
            block.opponents = True
        elif owner in ("your", "holder's"):
            block.own = True  # the cards in a player's territory (or hand) are the cards that player controls
    zones = sorted(set(zones))
    if len(zones) > 1:
        block.add("location", text, reason=f"targets in more than one zone ({', '.join(zones)}) are not modelled")
        return
    target = next((p.text for p in reversed(block.pieces) if p.kind == "target"), "")
    named = [_OWNER_WORDS.sub("", part) for part in re.split(r"\s*,?\s*\bor\b\s*", target)]
    if zones and len(set(named)) < len(named):
        # "Underdeck an opponent's good card or a good card from an opponent's hand": alternatives that name the same
        # cards differ only by where they are, so the place is the last one's alone
        block.add("location", text, reason=f"a place after alternatives that name the same cards ('{target} {text}'): "
                                           "which alternative it applies to is not read")
        return
    if not zones:
        block.add("location", text, (("target_zone", "none (in play)"),))
        return
    block.zone = zones[0]
    block.also_in_play = in_play
    mapped = [("target_zone", zones[0])]
    if in_play:
        mapped.append(("also_in_play", "true"))
    if block.opponents:
        mapped.append(("targets_opponents_cards", "true"))
    if block.own:
        mapped.append(("targets_own_cards", "true"))
    block.add("location", text, tuple(mapped))


# "a human (or two humans if used by an Assyrian)", "an evil human (or 2 if used by a Judge)": one card of the
# description, or two when the ability's user is of the description after "used by" (CORE-15-R4); a larger count
# ("or 3 evil cards") allows no two, and is not read
_TWO_FOR_USER = re.compile(r"(?P<first>[^()]+?) \(or (?:2|two) (?P<other>[^()]*?) ?if used by (?P<user>[^()]+)\)")


def _two_for_user(block: _Block, desc: str) -> tuple[str, str, set[str]] | None:
    """A description with a count of two in brackets for some users (`_TWO_FOR_USER`): its one description, the
    words naming the user, and the requirements on the user of a use naming two targets (`_requires_user`); None when
    it has no such bracket, or its words are not read (another description in the bracket, a user the reader does
    not check)."""
    m = _TWO_FOR_USER.fullmatch(desc)
    if m is None:
        return None
    first, other = read_description(without_article(m.group("first"))), m.group("other").strip()
    if other and read_description(other) != first:
        return None
    requires = _user_requirements(m.group("user"), block.sentence)
    return None if requires is None else (m.group("first"), m.group("user"), requires)


# The card types of characters, which bands, captures, decreases and "if used by" name
_CHARACTERS = frozenset({"Hero", "Evil_Character"})


def _characters_only(types: tuple[str, ...]) -> bool:
    """The types name characters, and nothing else (no types name any card)."""
    return bool(types) and set(types) <= _CHARACTERS


# The kinds of effect that may move the ability's own card ("You may withdraw this Hero.", "Underdeck this card.")
_SELF_MOVES = frozenset({"withdraw_effect", "return_to_hand_effect", "shuffle_effect", "place_in_deck_effect",
                         "banish_effect", "reserve_effect"})


def _target(block: _Block, tree: Tree) -> None:
    """Map a target (quantity, owner, description); words the model cannot check are unsupported."""
    qnode = next((c for c in tree.children if isinstance(c, Tree) and c.data.startswith("q_")), None)
    owner = next((c for c in tree.children if isinstance(c, Tree) and c.data in ("own", "opponents", "the", "this")),
                 None)
    desc = _words(next(c for c in tree.children if isinstance(c, Tree) and c.data == "description"))
    two = _two_for_user(block, desc)
    if two is not None:
        desc = two[0]
    book_ref = next((c for c in tree.children if isinstance(c, Tree) and c.data == "book_ref"), None)
    if book_ref is not None:
        desc = f"{desc} {_words(book_ref)}"  # read with the description (`descriptions.read_description`)
    brigade_of = next((c for c in tree.children if isinstance(c, Tree) and c.data == "brigade_of"), None)
    excepted = read_exceptions(desc)
    words = (desc if isinstance(excepted, str) else excepted[0]).split()
    last = words[-1] if words else ""
    plural = last.endswith("(s)") or (last.endswith("s") and not last.endswith("ss"))
    q = qnode.data if qnode is not None else "q_bare"
    if q == "q_bare" and plural and not last.endswith("(s)"):
        q = "q_all"  # "Negate Heroes": a plural with no count names every card that fits (TGT-18-R3)
    mapped: list[tuple[str, str]] = []
    if owner is not None and owner.data == "this":
        if block.kind in _SELF_MOVES and desc in ("card", "hero", "character", "evil character"):
            # "You may withdraw this Hero.": a move of the ability's own card, its one target
            block.targets_itself, block.min_targets, block.max_targets = True, 1, 1
            block.add("target", _words(tree), (("targets_itself", "its own card, the card whose ability it is"),))
            return
        block.add("target", _words(tree), reason=mechanic_reason("a card set aside by itself")
                  if block.kind == "set_aside_effect" else "an effect on its own card is not modelled")
        return
    if q in ("q_one", "q_bare") or (q == "q_any" and not plural):
        # "Heal any Hero": any one Hero; "any Heroes", "all Heroes": every one the player picks
        block.min_targets, block.max_targets = 1, 1
    elif q == "q_exact":
        word = _words(qnode).split()[-1]
        n = int(word) if word.isdigit() else NUMBERS[word]
        block.min_targets, block.max_targets = n, n
    elif q == "q_up_to":
        block.min_targets, block.max_targets = 0, _count(qnode)  # type: ignore[arg-type]
    elif q == "q_x":
        block.min_targets, block.max_targets = "x", "x"
    elif q == "q_one_or_more":
        block.min_targets, block.max_targets = 1, None
    else:
        block.min_targets, block.max_targets = 0, None
    if q in ("q_all", "q_any"):
        block.all_in_location = True
    block.every = q in ("q_all", "q_each")  # TGT-18-R1, TGT-23-R1
    if q in ("q_bare", "q_one", "q_any") and plural:
        block.add("target", _words(tree), reason="a plural target without a number is not modelled")
        return
    if two is not None and (block.min_targets, block.max_targets) == (1, 1):
        block.max_targets = 2
        block.requires |= {f"two:{r}" for r in two[2]}
        mapped.append(("targets", f"exactly 1, or 2 when its user is {two[1]} (a case naming two targets while "
                                  "its user is not known to be one is refused; CORE-15-R4)"))
    else:
        mapped.append(("targets", _targets_text(block.min_targets, block.max_targets, block.every)))
    if owner is not None and owner.data == "opponents":
        block.opponents = True
        mapped.append(("targets_opponents_cards", "true"))
    elif owner is not None and owner.data == "own":
        block.own = True
        mapped.append(("targets_own_cards", "true"))
    elif owner is not None and owner.data == "the":
        block.add("target", _words(tree), reason="refers back to a card named earlier: not modelled")
        return
    if words[:1] == ["other"] and block.kind == "negate_effect" and block.every:
        # "Negate all other cards in battle": no negate of all that fit reaches its own card (NEG-8)
        words = words[1:]
        mapped.append(("spares", "its own card ('other'), which no negate of all that fit reaches (NEG-8)"))
    read = excepted if isinstance(excepted, str) else _read_all(block, " ".join(words))
    if not isinstance(read, str) and not isinstance(excepted, str):
        read = _title_not_printed(block.sentence, excepted[1]) or read
    if isinstance(read, str):
        block.add("target", _words(tree), reason=read)
        return
    description, others = _one_description(read)
    brigade = description.brigade
    if brigade_of is not None:
        if brigade is not None or others:
            block.add("target", _words(tree), reason="two brigades named for one target")
            return
        brigade = next(str(t) for t in brigade_of.children if isinstance(t, Token) and t.type == "BRIGADE")
        brigade = brigade.title().replace(" ", "_")
    block.types = description.types
    if description.types:
        mapped.append(("target_types", "/".join(description.types)))
    else:
        mapped.append(("target_types", "any card"))
    if description.alignment is not None:
        block.alignment = description.alignment
        mapped.append(("target_alignment", description.alignment))
    if description.traits:
        block.traits = description.traits
        mapped.append(("target_traits", ", ".join(block.traits)))
    if brigade is not None:
        block.brigade = brigade
        mapped.append(("target_brigade", block.brigade))
    if others:
        block.other_descriptions = others
        mapped.append(("or_fits", " or ".join(describe(d) for d in others)))
    if not isinstance(excepted, str) and excepted[1]:
        block.exceptions = excepted[1]
        mapped.append(("except", " or ".join(describe(d) for d in excepted[1])))
    block.add("target", _words(tree), tuple(mapped))


def _read(block: _Block, words: str) -> Description | str:
    """The description the words are (`read_description`), or why not, a title read only as printed."""
    d = read_description(words)
    return d if isinstance(d, str) else _title_not_printed(block.sentence, (d,)) or d


def _read_all(block: _Block, words: str) -> tuple[Description, ...] | str:
    """The descriptions the words join with "or" (`read_alternatives`), or why not, titles read only as printed."""
    read = read_alternatives(words)
    return read if isinstance(read, str) else _title_not_printed(block.sentence, read) or read


def _title_not_printed(sentence: str, read: tuple[Description, ...]) -> str:
    """Why the descriptions are not read, or "": a title names its cards (CORE-15-R1) only where the text writes it
    as the card list does ("May band to Barak"); "a bear" is not the card titled Bear."""
    for title in (t.removeprefix(NAMED) for d in read for t in d.traits if t.startswith(NAMED)):
        if re.search(rf"(?<![\w']){re.escape(title)}(?![\w'])", sentence.replace("\u2019", "'")) is None:
            return f"'{title.lower()}' is the title of a card, but the text does not write it as one: what it names is not read"
    return ""


def _one_description(read: tuple[Description, ...]) -> tuple[Description, tuple[Description, ...]]:
    """The description a target is read by, and the others it may fit instead: alternatives that name types
    alone, of one alignment that each names or is its types' ("a Hero or an Artifact", "an Evil Character or an
    evil Fortress"), are one description of all their types; others stay alternatives ("a demon or beast")."""
    first = read[0]
    if len(read) == 1:
        return first, ()
    named = {d.alignment for d in read if d.alignment}
    if (all(d.types and not d.brigade and not d.traits for d in read) and len(named) <= 1
            and all(d.alignment or not named or {TYPE_ALIGNMENT.get(t) for t in d.types} == named for d in read)):
        types = tuple(dict.fromkeys(t for d in read for t in d.types))
        return Description(types, next(iter(named), None), None, ()), ()
    return first, read[1:]


def _into_owners_deck(block: _Block, shown: str, cites: str) -> None:
    """Where a shuffle, an underdeck or a topdeck puts its targets: each into its owner's draw pile, whose order the
    model does not track (SHUF-1, SHUF-2, PLACE-1-R1); one of cards already in a draw pile is refused, as it would
    change nothing but their place in it (SHUF-4)."""
    if block.zone == "draw_pile":
        block.add("location", "draw pile", reason="a move of cards already in a draw pile would change nothing but "
                                                  f"their place in it ({cites}, SHUF-4): not read")
        return
    block.add("destination", shown, (("moves_to", f"its owner's draw pile, at a place the model does not track "
                                                  f"({cites})"),))


def _targets_text(low: int | str, high: int | str | None, every: bool = False) -> str:
    if every:
        return "every card that fits, when it is used"
    if high is None:
        return "any number" if low == 0 else f"at least {low}"
    if high == low:
        return f"exactly {low}"
    return f"up to {high}"


# The owner words a list of kinds may begin with ("Negate opponent's evil and neutral cards"), for the whole list.
_LIST_OWNERS = (("an opponent's ", "opponents"), ("opponent's ", "opponents"), ("opponents' ", "opponents"),
                ("each opponent's ", "opponents"), ("your ", "own"), ("holder's ", "own"))
_EXCEPT = re.compile(r"\s*\(except [^()]*\)$|\s*,? except\b.*$")


def _every_of_kinds(block: _Block, body: Tree, sentence: str) -> bool:
    """Read a negate of every card of a list of kinds ("Negate characters and good Enhancements", "Negate
    Enhancements and other characters", "Negate evil and neutral cards"): each kind a plural description of the
    descriptions table (every card that fits, TGT-18-R3), the list naming the cards of any of them. False when the
    words are not such a list (the caller refuses them); a list the model cannot check is refused here, naming why.

    The model checks one alignment, brigade and set of traits for all of an ability's targets: the kinds must
    agree on them, or name the same types ("evil and neutral cards"). "Other" spares the ability's own card, as
    NEG-8 does for every negate of all that fit. A place after a list of nouns ("characters and Lost Souls in
    territories") may be read for the last noun or for all of them, and is refused; after a list of alignment
    words ("evil and neutral cards in opponent's territory") it is read for the one noun."""
    text = _words(body)
    kinds_tree = next(c for c in body.children if isinstance(c, Tree) and c.data == "listed_kinds")
    kinds = [_words(k) for k in kinds_tree.children if isinstance(k, Tree)]
    listed = _words(kinds_tree)
    owner = next(((words, whose) for words, whose in _LIST_OWNERS if kinds[0].startswith(words)), None)
    if owner is not None:
        kinds[0] = kinds[0].removeprefix(owner[0])
    kinds[0] = kinds[0].removeprefix("all ")
    exception = _EXCEPT.search(kinds[-1])
    if exception is not None:
        kinds[-1] = kinds[-1][:exception.start()]
    excepted = next((_words(c) for c in body.children if isinstance(c, Tree) and c.data == "list_exception"),
                    exception.group(0) if exception is not None else None)
    others = [k.startswith("other ") for k in kinds]
    kinds = [k.removeprefix("other ") for k in kinds]
    # "evil and neutral cards": an alignment word alone takes the noun of the kind after it
    shared_noun = all(k in ALIGNMENTS for k in kinds[:-1]) and kinds[-1].split(" ", 1)[0] in ALIGNMENTS
    if shared_noun:
        noun = kinds[-1].split(" ", 1)[1] if " " in kinds[-1] else ""
        kinds = [f"{k} {noun}" for k in kinds[:-1]] + [kinds[-1]]
    descriptions = [_read(block, k) for k in kinds]
    if not all(_plural(k) for k in kinds) or any(isinstance(d, str) for d in descriptions):
        return False
    if excepted is not None:
        block.add("negate", text, (("kind", "negate_effect"),),
                  reason=f"an exception to the kinds the negate names ('{excepted.strip(' ,()')}') is not modelled")
        return True
    ds = [d for d in descriptions if not isinstance(d, str)]
    location = next((c for c in body.children if isinstance(c, Tree) and c.data == "location"), None)
    if location is not None and not shared_noun:
        block.add("negate", text, (("kind", "negate_effect"),),
                  reason=f"a place after a list of kinds ('{_words(location)}'): whether it applies to every kind or "
                         "to the last is not read")
        return True
    alignments = {d.alignment for d in ds}
    if len({(d.brigade, d.traits) for d in ds}) > 1 or (len(alignments) > 1 and len({d.types for d in ds}) > 1):
        block.add("negate", text, (("kind", "negate_effect"),),
                  reason=f"a list of kinds that differ in their alignment, brigade or trait words ('{listed}') is not "
                         "modelled: one alignment, brigade and set of traits is checked for all of an ability's "
                         "targets")
        return True
    types: tuple[str, ...] = () if any(not d.types for d in ds) else tuple(
        dict.fromkeys(t for d in ds for t in d.types))
    named = {a for d in ds for a in (d.alignment.split("/") if d.alignment else ALIGNMENTS)}
    alignment = None if named == set(ALIGNMENTS) else "/".join(sorted(named))
    block.add("negate", sentence, (("kind", "negate_effect"),))
    block.every = block.all_in_location = True
    block.min_targets, block.max_targets = 0, None
    block.types, block.alignment = types, alignment
    block.brigade, block.traits = ds[0].brigade, ds[0].traits
    mapped = [("targets", _targets_text(0, None, every=True)),
              ("target_types", "/".join(types) if types else "any card")]
    if owner is not None and owner[1] == "opponents":
        block.opponents = True
        mapped.append(("targets_opponents_cards", "true"))
    elif owner is not None:
        block.own = True
        mapped.append(("targets_own_cards", "true"))
    if alignment is not None:
        mapped.append(("target_alignment", alignment))
    if block.traits:
        mapped.append(("target_traits", ", ".join(block.traits)))
    if block.brigade is not None:
        mapped.append(("target_brigade", block.brigade))
    if any(others):
        mapped.append(("spares", "its own card ('other'), which no negate of all that fit reaches (NEG-8)"))
    block.add("target", listed, tuple(mapped))
    _location(block, location, sentence)
    return True


def _plural(description: str) -> bool:
    """The description's last word is a plural ("Heroes", "evil cards"); "Hero(s)" may name one card."""
    last = description.split()[-1] if description.split() else ""
    return last.endswith("s") and not last.endswith("ss")


def _duration(block: _Block, tree: Tree) -> None:
    kind = tree.data
    text = _words(tree)
    if kind == "for_turns":
        n = _count(tree)
        block.duration = ("for_turns", n)
        block.add("duration", text, (("duration", f"{n} turns"),))
    elif kind == "end_of_battle":
        block.duration = ("until_end_of_battle", 0)
        block.add("duration", text, (("duration", "until end of battle"),))
    elif kind == "up_to_turns":
        n = _count(tree)
        block.duration, block.min_turns = ("for_chosen_turns", n), 1
        block.add("duration", text, (("duration", f"up to {n} turns, as the player picks"),))
    elif kind == "at_least_turns":
        n = _count(tree)
        block.duration, block.min_turns = ("for_chosen_turns", -1), n  # type: ignore[assignment]
        block.add("duration", text, (("duration", f"at least {n} turns, as the player picks"),))
        if not isinstance(n, int):
            block.add("duration", text, reason="'at least X turns' is not modelled")
    elif kind == "turns_equal":
        # "for the number of turns equal to the number of Evil Characters one opponent has in play": a
        # number the model cannot count, so the case states it as the card's x
        block.duration = ("for_turns", "x")
        block.add("duration", text, (("duration", f"X turns, X being {text.removeprefix('for the number of turns equal to ')}"
                                                  " (the case gives the card's x)"),))
    elif kind == "remainder":
        block.duration = ("for_remainder_of_game", 0)
        block.add("duration", text, (("duration", "for the remainder of the game"),))
    elif re.match(r"until (?:the )?(?:end|beginning|start) of\b", text) or text in ("until end of turn", "until end of phase"):
        block.add("duration", text, reason="a duration until a point of the turn other than the end of battle "
                                            "is not modelled")
    else:
        block.duration = ("until_event", 0)
        played = re.fullmatch(r"until (.+) is played", text)
        said = (f"until an event (a play of a card named '{played.group(1)}': the case loader finds it)"
                if played and played.group(1) not in ("it", "they", "them", "that card", "this card")
                else "until an event (the case names the attempt with 'until:')")
        block.add("duration", text, (("duration", said),))


# CBN-6: a "cannot be ..." sentence covers the abilities before it, not an effect written after it.
AFTER_A_GUARD = "an effect written after a 'cannot be negated' sentence, which does not cover it (CBN-6), is not modelled"


def _band(block: _Block, body: Tree, permitted: bool) -> None:
    """Read "may band to <description>": an ability adding characters of that description to its own side of the
    battle when its holder enters it (BAND-1, AAO-9); which characters it adds is the case's choice (`adds:`), so
    only a band its player may leave unused is read."""
    text = _words(body)
    if block.kind is not None:
        block.add("band", text, (("part", "other_part"),), reason="a second effect (band) in the same ability is not "
                                                                   "modelled")
        return
    if block.guarded:
        block.add("band", text, reason=AFTER_A_GUARD)
        return
    if not permitted:
        block.add("band", text, reason="a band its player must use (no 'may') is not modelled: the characters a band "
                                       "adds are the case's choice")
        return
    if any(isinstance(c, Tree) and c.data == "location" for c in body.children):
        block.add("band", text, reason="a band from a place its text names is not modelled (BAND-3 gives a "
                                       "territory or the hand)")
        return
    block.kind, block.effect_class = "other_effect", "adds_same_side"
    block.parts.add("other_part")
    verb = next(str(t) for t in body.children if isinstance(t, Token) and t.type == "BAND_TO")
    block.add("band", verb, (("kind", "other_effect"), ("effect_class", "adds_same_side: a band brings characters "
                                                      "into battle on its holder's side (BAND-1, AAO-9)"
                                                      + ("; 'band with' means 'band to' (BAND-9)"
                                                         if verb == "band with" else ""))))
    target = _find(body, "target")
    assert target is not None
    read = len(block.pieces)
    _target(block, target)
    if any(not p.supported for p in block.pieces[read:]):
        return
    if block.every or block.opponents:
        block.add("target", _words(target), reason="a band of every character that fits, or of an opponent's "
                                                   "characters, is not modelled")
    elif block.max_targets is not None and (not isinstance(block.max_targets, int) or block.min_targets not in (0, 1)):
        block.add("target", _words(target), reason="a band of a number of characters other than one, 'up to N' or "
                                                   "'any number of' is not modelled")
    elif any(not _characters_only(types)
             for types in (block.types, *(d.types for d in block.other_descriptions))):
        block.add("target", _words(target), reason="a band names characters; this description names other cards")


_NEGATE_REFUSED = "not modelled: a case where a negate reaches this ability is refused"


def _with_guard_aside(kept: str, guard: str) -> str:
    """The guards kept aside (`guard_condition`), with one more."""
    return "; ".join(filter(None, (kept, guard)))


def _guard_aside(block: _Block, text: str, why: str = "its condition is not read") -> None:
    """Keep a guard sentence the reader does not read whole ("cannot be negated if a king of Israel is in play",
    "cannot be prevented by a Hero") aside, saying why: a guard matters only where a negate reaches its ability
    (CBN-2, CBN-1-R1), and the case loader refuses every case where one may."""
    block.guard_condition = _with_guard_aside(block.guard_condition, _unspaced(text))
    block.add("cannot", text, (("guard_condition", f"'{_unspaced(text)}' ({why}; {_NEGATE_REFUSED})"),))


def _interrupt(block: _Block, text: str) -> None:
    """Keep "interrupt the battle" aside: it interrupts abilities activated on cards in the current battle before it
    (INT-17 to INT-20), which regcheck does not carry out, and the case loader refuses every case where such an
    ability could be there; the block's other sentences are its paired abilities (INT-7), read as usual."""
    block.interrupts_battle = True
    block.add("interrupt", text, (("interrupts_battle", "the abilities activated earlier in the current battle "
                                                        "(INT-17 to INT-20; not carried out: a case where there may "
                                                        "be one is refused)"),))


def _guard_by(block: _Block, text: str, guards: set[str], by: Tree, conditional: bool) -> None:
    """Read "cannot be negated by <description>": the ability's guards bar only the abilities of cards that fit the
    description (CBN-6-R3); one the reader cannot read whole (a description regcheck cannot check on the negating
    card, a condition, a limit on "cannot be prevented" alone) is kept aside (`_guard_aside`)."""
    target = _find(by, "target")
    assert target is not None
    words = without_article(_words(target))
    read = _read_all(block, words)
    description = read if isinstance(read, str) else read[0]
    reason = ("a 'cannot be negated by ...' with a condition is not modelled" if conditional
              else "a limit on who may interrupt or prevent ('cannot be prevented by ...') is read only with "
                   "'cannot be negated' (CBN-6-R3)" if "g_negated" not in guards
              else description if isinstance(description, str)
              else "a 'cannot be negated by' naming alternatives is not modelled" if len(read) > 1
              else f"a 'cannot be negated by' naming traits ({', '.join(description.traits)}) is not modelled"
              if description.traits
              else "a 'cannot be ...' beside a 'cannot be negated by ...' in one ability is not modelled"
              if block.guarded else "")
    if reason:
        _guard_aside(block, text, reason)
        return
    block.cbn = True
    block.cannot_be_interrupted = block.cannot_be_interrupted or "g_interrupted" in guards
    block.cannot_be_prevented = block.cannot_be_prevented or "g_prevented" in guards
    block.guard_by = words
    block.add("cannot", text, tuple((field, "true") for guard, field in (
        ("g_negated", "cannot_be_negated"), ("g_interrupted", "cannot_be_interrupted"),
        ("g_prevented", "cannot_be_prevented")) if guard in guards) + (
        ("guard_by", f"only against abilities on {block.guard_by} (CBN-6-R3)"),))


GRANT_NOT_MODELLED = "'cannot be negated' given to other cards is not modelled"
# "Enhancements used by this card", "O.T. Enhancements played on this Hero": the covered cards and their user
_USED_BY = re.compile(r"(?P<what>.+?) (?:used by|played on) (?P<user>.+)")
_THIS_CHARACTER = re.compile(r"this (?:card|hero|character|evil character)|him|her")


# The words before "cannot be ..." hold an effect ("you may draw 1 and this card", "repeat 1 time and this card").
_EFFECT_BEFORE_A_GRANT = re.compile(r"\bmay\b|\bmust\b|\brepeat\b|\bdo this\b| and (?:this|it)\b")


def _grant(block: _Block, body: Tree, text: str, conditional: bool = False) -> None:
    """Read "<description> cannot be negated" and "<Enhancements> used by <this card, or a description of
    characters> cannot be negated": a "cannot be negated" that covers the abilities on other cards (CBN-3, CBN-4),
    those of every card of the description, or of the Enhancements a character of the user's description uses
    (CORE-18: the character it is played on). The ability that gives it cannot itself be negated (CBN-2). One with a
    condition before it (`conditional`) or a limit after it ("by evil cards", "this turn", "unless ...") is kept
    aside, as one the reader cannot read whole is."""
    guards = {c.data for c in body.children if isinstance(c, Tree) and c.data.startswith("g_")}
    subject = _words(next(c for c in body.children if isinstance(c, Tree) and c.data == "words")).strip()
    if _EFFECT_BEFORE_A_GRANT.search(subject):
        # "you may draw 1 and this card cannot be prevented": an effect, then a guard, in words the grammar does not
        # part
        block.add("sentence", text, reason=unread_reason(text))
        return
    used_by = _USED_BY.fullmatch(subject)
    what, user = (used_by.group("what"), used_by.group("user")) if used_by else (subject, "")
    covered = _read(block, without_article(what))
    users = _read(block, without_article(user)) if user and not _THIS_CHARACTER.fullmatch(user) else None
    limit = _find(body, "grant_limit")
    reason = (f"{GRANT_NOT_MODELLED} with a condition" if conditional
              else f"{GRANT_NOT_MODELLED} with a limit ('{_unspaced(_words(limit))}')" if limit is not None
              else _grant_refusal(block, guards, what, user, covered, users))
    if reason:
        # kept aside: it matters only where a negate may reach an ability it covers, and the loader refuses a case
        # with it and any negate
        if block.kind is None:
            block.targets_nothing()
        block.grant_aside = "; ".join(filter(None, (block.grant_aside, _unspaced(text))))
        block.add("grant", text, (("grant_aside", f"'{_unspaced(text)}': {reason} (a case with it and a negate is "
                                                  "refused)"),))
        return
    block.targets_nothing()  # it names no card to target: it covers abilities (CBN-4)
    block.cbn = True
    block.grant = without_article(what)
    block.grant_users = "this card" if user and users is None else without_article(user)
    whose = (f", used by {'its own card' if block.grant_users == 'this card' else block.grant_users}"
             f" (the character each is played on, CORE-18)" if user else "")
    block.add("grant", text, (("kind", "other_effect"),
                              ("grants", f"'cannot be negated' to every ability on {block.grant}{whose}, from its "
                                         "use to the end of that phase (CBN-3, CBN-4, CBN-5)"),
                              ("cannot_be_negated", "true: the ability that gives it (CBN-2)")))


def _grant_refusal(block: _Block, guards: set[str], what: str, user: str, covered: Description | str,
                   users: Description | str | None) -> str:
    """Why a "cannot be negated" given to other cards is not read, or "" when it is."""
    if "g_negated" not in guards:
        return (f"{GRANT_NOT_MODELLED} for 'cannot be interrupted' or 'cannot be prevented' alone (the model's "
                "modifiers make abilities unnegatable only)")
    if block.kind is not None:
        return "a second effect (grant) in the same ability is not modelled"
    if block.guarded:
        return "a 'cannot be ...' beside a 'cannot be negated' given to other cards is not modelled"
    if isinstance(covered, str):
        return f"{GRANT_NOT_MODELLED}: {covered}"
    if isinstance(users, str):
        return f"{GRANT_NOT_MODELLED}: its user, {users}"
    if users is not None and not set(users.types) <= _CHARACTERS:
        return f"{GRANT_NOT_MODELLED}: 'used by' names characters, and '{user}' names other cards"
    if user and not (covered.types and set(covered.types) <= {"GE", "EE"}):
        return f"{GRANT_NOT_MODELLED}: only Enhancements are used by a character (CORE-18), and '{what}' names other cards"
    return ""


# An on-return clause whose subject is the returning card itself.
_ABOUT_THE_CARD = re.compile(r"(?:that |the |this )?"
                             r"(?:hero|heroes|hero\(s\)|character|characters|evil character|he|she|it|they)\b")

_EFFECT_KINDS = {"set_aside": "set_aside_effect", "heal": "heal_effect", "restore": "heal_effect",
                 "negate_list": "negate_effect",
                 "healed": "heal_effect", "negate": "negate_effect", "discard": "discard_effect",
                 "afflict": "affliction_effect", "decrease": "affliction_effect", "negate_kinds": "negate_effect",
                 "negate_target": "negate_effect",
                 "discard_target": "discard_effect", "withdraw_target": "withdraw_effect",
                 "withdraw_return": "withdraw_effect", "return_to_hand": "return_to_hand_effect",
                 "shuffle_target": "shuffle_effect", "capture_target": "capture_effect",
                 "place_in_deck": "place_in_deck_effect", "banish_target": "banish_effect",
                 "reserve_target": "reserve_effect"}
_PART_OF = {"set_aside": "set_aside_part", "heal": "heal_part", "restore": "heal_part", "healed": "heal_part",
            "negate_list": "negate_part",
            "negate": "negate_part", "discard": "discard_part", "afflict": "other_part", "decrease": "other_part",
            "negate_kinds": "negate_part", "negate_target": "negate_part", "discard_target": "discard_part",
            "withdraw_target": "other_part",
            "withdraw_return": "other_part", "return_to_hand": "other_part", "shuffle_target": "other_part",
            "capture_target": "other_part", "place_in_deck": "other_part", "banish_target": "other_part",
            "reserve_target": "other_part"}
# What the reader calls the effect of a form of the grammar, where it is not the form's own name.
_SHOWN = {"negate_target": "negate", "negate_list": "negate", "discard_target": "discard",
          "withdraw_target": "withdraw", "withdraw_return": "withdraw", "return_to_hand": "return to hand",
          "shuffle_target": "shuffle", "capture_target": "capture", "place_in_deck": "place in deck",
          "banish_target": "banish", "reserve_target": "reserve"}
# The words after "negate" that also move the card whose ability it negates, and the move (`NEGATE_MOVE_PLACES`).
_NEGATE_MOVES = {"AND_PLACE": "into_draw_pile", "AND_BANISH": "into_banish_pile", "AND_RESERVE": "into_reserve"}
_AFFLICTIONS = {"poison": "poisoned_condition", "disease": "diseased_condition", "paralyze": "paralyzed_condition"}


def _body(tree: Tree) -> Tree:
    """The effect of a parsed sentence (neither a lead nor a tail)."""
    return next(c for c in tree.children if isinstance(c, Tree) and not c.data.startswith("lead_") and c.data != "tails")


# The effects that move their targets to another zone: read as a second effect of a block (`_second_move`).
_SECOND_MOVES = frozenset({"discard_target", "withdraw_target", "withdraw_return", "return_to_hand", "shuffle_target",
                           "capture_target", "place_in_deck", "banish_target", "reserve_target"})
# "Heal a Hero ... Discard all evil cards placed on that Hero": the cards on the healed Hero (see `_sentence`)
_PLACED_ON_HEALED = re.compile(r"discard all evil cards placed on (?:that|the|this) hero")


def _reaches(d: Description, e: Description) -> bool:
    """Every card fitting `d` is of a type and alignment `e` names (brigades and traits aside)."""
    kinds = set(d.types)
    aligned = d.alignment is not None or (bool(kinds) and all(TYPE_ALIGNMENT.get(t) for t in kinds))
    return ((not e.types or (bool(kinds) and kinds <= set(e.types)))
            and (e.alignment is None or (aligned and all(
                a in e.alignment.split("/") for a in ((d.alignment or "").split("/") if d.alignment
                                                     else {TYPE_ALIGNMENT[t] for t in kinds})))))


def _read_alone(sentence: str, *shown: str) -> _Block | None:
    """The sentence read as a block of its own, when it is read whole as an effect `shown` names (its targets,
    place and destination; a condition leading it need not be read: the case is refused whether or not it holds),
    else None."""
    alone = _Block()
    alone.alone = True
    _sentence(alone, sentence)
    if alone.kind is None or any((p.reason and p.kind != "condition") or p.kind not in (
            *shown, "target", "location", "destination", "permission", "condition") for p in alone.pieces):
        return None
    return alone


def _negate_and_move(block: _Block, body: Tree) -> None:
    """Read the move that follows "negate and": "Negate and discard a Hero" (one target for both verbs; the discard
    reaches the card whose ability is negated, when the negate does, DISC-1-R1), "Negate and underdeck a Curse",
    "Negate and banish a character" (the card whose ability it negates goes to its owner's draw pile or banish
    pile)."""
    if any(isinstance(t, Token) and t.type == "AND_DISCARD" for t in body.children):
        block.negated_moves = "into_discard_pile"
        block.parts.add("discard_part")
        block.add("discard", "and discard", (("discards", "the card whose ability it negates, as a discard by a "
                                                          "special ability (DISC-1-R1, CORE-13)"),))
    moving = next((t for t in body.children if isinstance(t, Token) and t.type in _NEGATE_MOVES), None)
    if moving is not None:
        block.negated_moves = _NEGATE_MOVES[moving.type]
        pile, said = NEGATE_MOVE_PLACES[block.negated_moves]
        block.parts.add("other_part")
        block.add("destination", str(moving), (("moves_to", f"the card whose ability it negates, into its owner's "
                                                            f"{pile} ({said})"),))


def _abilities_on(block: _Block, body: Tree, text: str) -> None:
    """Note what "negate [all] special abilities on" names, when the negate says it: the abilities on the cards it
    names, as the negate of those cards (PREV-12-R1)."""
    if _find(body, "abilities_on") is None:
        return
    words = re.search(r"(?:all )?(?:special )?abilities (?:of|on)", text)
    block.add("target", words.group(0) if words else "abilities on", (
        ("negates", "every ability on the cards it names (GLOSS-10), as the negate of those cards (PREV-12, "
                    "PREV-12-R1)"),))


def _second_move(block: _Block, sentence: str, body: Tree, price: bool = False) -> bool:
    """Read an effect moving cards that follows the block's first effect ("Negate an evil Enhancement. Discard all
    evil Enhancements in battle."), or the discard that is the price of it (`price`, CORE-19): not carried out, and
    a case holding a card that could be among its targets is refused (any card of a type and alignment it names,
    wherever it is, and whether or not a condition leading it holds). False, leaving the sentence to the reader,
    when the sentence alone is not read whole (its targets named by a word the reader does not check, "that card",
    a place it cannot name) or when it is the discard of the cards on a healed Hero, which the reader keeps as
    such."""
    if body.data == "discard_target" and block.kind == "heal_effect" and _PLACED_ON_HEALED.fullmatch(_words(body)):
        return False
    name = body.data
    shown = _SHOWN.get(name, name)
    alone = _read_alone(sentence, shown)
    if alone is None:
        return False
    block.sentence = sentence
    described = (Description(alone.types, alone.alignment, alone.brigade, alone.traits), *alone.other_descriptions)
    first = (Description(block.types, block.alignment, block.brigade, block.traits), *block.other_descriptions)
    what = f"a price ({shown})" if price else f"a second effect ({shown})"
    if (block.kind is not None and (block.min_targets != 0 or block.every)
            and all(any(_reaches(d, e) for e in described) for d in first)):
        block.add(shown, sentence, (("part", _PART_OF[name]),), reason=f"{what} that could reach every card the "
                  "effect targets is not modelled (every use of the ability would be refused)")
        return True
    block.parts.add(_PART_OF[name])
    # a card taken from a hand ("Discard an evil card from hand to ..."): only a card that could be in a hand
    in_hand = alone.zone == "hand" and not alone.also_in_play
    block.use_changes |= {reach_change(Reach(d.types, d.alignment, in_hand)) for d in described}
    words = " or ".join(describe(Description(d.types, d.alignment, None, ())) for d in described) + (
        " in a hand" if in_hand else "")
    block.add("price" if price else shown, sentence, (("part", _PART_OF[name]), ("use_changes", (
        "the price of the effect, paid as the ability is used (CORE-19): " if price else "") + f"the cards it could "
        f"{shown}: any {words}, of any brigade and traits (not carried out: a case holding a card that could be one "
        "is refused)")))
    return True


# "Opponent must discard a card from hand.", "Opponent must underdeck an evil card from hand.": a move of cards of a
# hand that the opponent carries out; "Opponent may underdeck an evil card from hand.": one offered to the opponent
_OPPONENT_MUST = re.compile(r"(?i)(?:each |selected |an )?opponent (?P<verb>must|may) "
                            r"(?=(?:discard|underdeck|topdeck|shuffle)\b)")
# "If they do not, negate Evil Characters.": the effect the opponent's offered move would have kept from happening
_IF_THEY_DO_NOT = re.compile(r"(?i)\s*if they do not,\s*")
# What a price offered to the opponent leaves open (CORE-19-R2)
_THEIR_CHOICE = "their choice, which a case may state with 'opponent_pays' (CORE-19-R2)"


def _opponent_hand_move(block: _Block, sentence: str) -> bool:
    """Read a move the opponent must make of cards of a hand as a move not carried out (see `read_block`): a case
    holding a card that could be in a hand is refused. False, leaving the sentence to the reader, unless the move,
    read alone, is a discard, a place in a deck or a shuffle read whole whose targets are in a hand."""
    lead = _OPPONENT_MUST.match(sentence)
    if lead is None:
        return False
    alone = _read_alone(sentence[lead.end():], "discard", "place in deck", "shuffle")
    if alone is None or alone.zone != "hand" or alone.also_in_play:
        return False
    offered = lead.group("verb").lower() == "may"
    instead = re.search(r"(?i)\binstead\W*$", sentence) is not None
    if offered and not instead:
        block.offered_to_opponent = sentence  # read when "If they do not, ..." follows (`read_block`)
        return True
    block.pile_moves.append((sentence, ("hand",), False))
    if offered:
        # "Underdeck a Hero. Opponent may underdeck a good Enhancement from hand instead."
        block.offers_price = True
        block.add("condition", "instead", (("offers_a_price", "the opponent may make this move instead, and the "
                                                              f"effect happens exactly when they do not: {_THEIR_CHOICE}"),))
    return True


def _unless_the_opponent_paid(block: _Block, sentence: str) -> bool:
    """Read "If they do not, Y." after a move of cards of a hand offered to the opponent (`_opponent_hand_move`): Y,
    the block's effect, happens exactly when the opponent does not make that move, which is their choice (CORE-19-R2);
    the move is not carried out (`read_block`). After another effect of the block, what the price buys off is not
    read."""
    lead = _IF_THEY_DO_NOT.match(sentence)
    if lead is None or block.offered_to_opponent is None:
        return False
    block.pile_moves.append((block.offered_to_opponent, ("hand",), False))
    block.offered_to_opponent = None
    said = lead.group(0).strip(" ,")
    if block.kind is not None:
        block.add("condition", said, reason="a price offered to the opponent for an effect after the block's first "
                                            "one is not modelled")
        return True
    block.offers_price = True
    block.add("condition", said, (("offers_a_price", "the effect after it happens exactly when the opponent does "
                                                     f"not make the move offered before: {_THEIR_CHOICE}"),))
    rest = sentence[lead.end():]
    _sentence(block, rest[:1].upper() + rest[1:])
    return True


# "Discard a good card from hand to discard up to two evil Enhancements", "You may banish 2 cards from opponent's
# discard pile to ...", "Remove 2 clay cards in your discard pile from the game to ...": a price, then the effect it
# buys (CORE-19)
_PRICE_VERB = re.compile(r"(?i)\b(?:discard|banish|remove|reserve)\b")
_PRICE = re.compile(r"(?P<price>(?P<verb>discard|banish|remove|reserve)\b.+?)\s+to\s+(?P<effect>.+?)[.!]?\s*",
                    re.IGNORECASE)
# a price other than a discard, with what may lead it ("You may banish 2 cards from a discard pile to ..."), which
# the grammar does not parse as a whole
_PERMITTED_PRICE = re.compile(r"(?i)(?P<who>(?:you|holder) may )?(?P<rest>(?:banish|remove|reserve)\b.+)")
# the forms of the grammar a price may take, by its verb
_PRICE_FORMS = {"discard": "discard_target", "banish": "banish_target", "remove": "banish_target",
                "reserve": "reserve_target"}


def _read_whole(sentence: str) -> bool:
    """The sentence, read as a block of its own, is an effect with every part read (an effect a price buys): an
    effect of the model, or a move out of a pile, which is not carried out ("... to draw 2")."""
    effect = _Block()
    _sentence(effect, sentence)
    return ((effect.kind is not None or (len(effect.pile_moves) == 1 and not effect.pile_moves[0][2]))
            and not any(p.reason for p in effect.pieces))


# The price that is the card itself: "You may discard this card to ...", "Holder may discard this Artifact to ..."
_ITSELF = re.compile(r"(?:(?:you|holder) )?(?:may )?discard this (?:card|artifact|enhancement|weapon|site|fortress|"
                     r"curse|covenant)")


def _price_itself(block: _Block, m: re.Match[str]) -> bool:
    """Read "discard this card to Y": the effect Y, read as any effect is, whose use from play discards its own card
    (CORE-19-R1). False, leaving the sentence to the reader, when Y is not read whole."""
    if not _read_whole(m.group("effect")):
        return False
    _sentence(block, m.group("effect"))
    block.discards_itself = True
    block.add("price", m.group("price"), (("discards_itself", "its own card, into its owner's discard pile as it is "
                                                            "used from play (CORE-19-R1)"),))
    return True


def _price(block: _Block, sentence: str) -> bool:
    """Read "discard X to Y" (or "banish X to Y", "remove X from the game to Y", "reserve X to Y") as the block's
    first effect: the effect Y, read as any effect is, and the move of X its price (CORE-19), read as a second effect
    moving cards is (`_second_move`), as a move out of a pile when X is in one ("discard the top card of your deck to
    ...", "banish 2 cards from opponent's discard pile to ..."), or, when X is the card itself ("You may discard this
    card to ..."), as `_price_itself` reads it. What leads the price ("If used by a demon, holder may") is read
    before. False, leaving the sentence to the reader, when Y or the move of X is not read whole alone, or X is "this
    ..." other than the card itself to be discarded."""
    verb = _PRICE_VERB.search(sentence)
    m = _PRICE.fullmatch(sentence[verb.start():]) if verb is not None else None
    if m is None:
        return False
    if _ITSELF.fullmatch(_lowered(m.group("price"))):
        return _price_itself(block, m)
    if re.search(r"\bthis\b", m.group("price"), re.IGNORECASE):
        return False
    paid = m.group("price")[0].upper() + m.group("price")[1:]
    if not _read_whole(m.group("effect")):
        return False
    if _PILE_MOVES.fullmatch(_lowered(paid)) or _PRICE_OUT_OF_PILE.fullmatch(_lowered(paid)):
        # CORE-19: the price is paid as the ability is used; a move out of a pile is not carried out (`read_block`)
        _sentence(block, m.group("effect"))
        block.pile_moves.append((paid, _move_zones(_lowered(paid)), False))
        block.prices_out_of_piles.add(paid)
        return True
    tree = _parse(_lowered(paid))
    form = _PRICE_FORMS[m.group("verb").lower()]
    if tree is None or _body(tree).data != form or _read_alone(paid, _SHOWN[form]) is None:
        return False
    _sentence(block, m.group("effect"))
    return _second_move(block, paid, _body(tree), price=True)


def _band_or_move(low: str) -> tuple[str, str] | None:
    """A band with a move out of a pile its player may pick instead ("may band to a demon , or you may take a demon
    from deck"), as the band and the move, or None."""
    m = re.fullmatch(r"(?P<band>(?:[a-z]+ )?may band (?:to|with) .+?)(?: ,)? or (?P<move>(?:you may )?.+)", low)
    if m is None or _PILE_MOVES.fullmatch(m.group("move")) is None:
        return None
    tree = _parse(m.group("band"))
    return (m.group("band"), m.group("move")) if tree is not None and _body(tree).data == "band" else None


# "Persian may band to an evil O.T. human": a description of the user before its band (the words USER_MAY reads
# alone are left to the grammar)
_USER_BANDS = re.compile(r"(?:if used by (?P<used_by>[a-z][a-z.' -]*?) , character"
                         r"|(?P<who>(?!(?:you|holder|opponent|hero|character|evil character|each player) may)"
                         r"[a-z][a-z.' -]*?)) may band (?:to|with) (?P<rest>.+)")


def _user_band(block: _Block, sentence: str, m: re.Match[str]) -> bool:
    """Read "Persian may band to an evil O.T. human" (or "If used by a Persian, character may band to ..."): the band of
    the character the card is played on or with (or of the character itself), for a user that fits the description
    before it (a case whose user is not known to be one is refused). False, leaving the sentence to the reader, when
    that description is not one of characters the reader checks or the band is not read."""
    who = m.group("who") or m.group("used_by")
    band = re.search(r"(?i)\bmay band (?:to|with) .+", sentence)
    if not _reads_user(who, sentence) or band is None or _parse(f"character {_lowered(band.group(0))}") is None:
        return False
    _requires_user(block, who, who)
    _sentence(block, f"Character {band.group(0)}")
    return True


# "Negate and discard the last evil enhancement played in current battle" (TGT-27-R1)
_LAST_PLAYED = re.compile(r"(?P<verb>negate(?: and discard| and underdeck| and topdeck| and shuffle)?) the last "
                          r"(?P<what>(?:(?:good|evil) )?enhancement) played (?:in (?:the )?(?:current )?battle|this "
                          r"battle)")


def _negate_read_whole(block: _Block, sentence: str, negate: str) -> bool:
    """Read `sentence` as the negate written `negate` ("negate and discard an evil enhancement") says; whether it is a
    negate with every part read."""
    _sentence(block, negate)
    block.sentence = sentence
    return block.kind == "negate_effect" and not any(p.reason for p in block.pieces)


def _last_played(block: _Block, sentence: str, m: re.Match[str]) -> None:
    """Read a negate of "the last <good or evil> Enhancement played in (this) battle": the negate of an Enhancement of
    that description (read as "negate an evil Enhancement" is) that may reach only the latest play of such an
    Enhancement in the current battle before it (TGT-27-R1)."""
    what = m.group("what")
    one = f"{'an' if what[0] in 'aeiou' else 'a'} {what}"
    if not _negate_read_whole(block, sentence, f"{m.group('verb')} {one}"):
        return
    block.last_played = True
    block.add("target", m.group(0).removeprefix(m.group("verb")).strip(), (("negates_the_last_played", (
        f"only the latest play of {one} in the current battle before it, and its ability (TGT-27-R1)")),))


# "Prevent the next evil Enhancement played in battle", "Prevent the next Enhancement played by opponent" (PREV-11-R1)
_NEXT_PLAYED = re.compile(r"prevent the next (?:(?P<count>two|three|2|3) )?(?P<what>(?!.* played .* played).+?) "
                          r"played(?P<battle> in (?:the )?battle)?(?P<opponent> by (?:an |your )?opponents?)?")
_NEXT_COUNTS = {"two": 2, "three": 3, "2": 2, "3": 3}


def _next_played(block: _Block, sentence: str, m: re.Match[str]) -> None:
    """Read a prevent of "the next <description> played [in battle] [by opponent]": a prevent ability that takes as
    its targets the abilities of the next cards (one unless it names more) played after it, in its phase, that fit the
    description (read as the target of "negate a <description>" is), played in battle or by an opponent when it says
    so (PREV-11-R1); it names no card when it is used. Left to the grammar when the description is not read whole."""
    what, count = m.group("what"), _NEXT_COUNTS.get(m.group("count") or "", 1)
    # more than one card is read as the bare plural is ("negate good enhancements"), whose count is replaced below
    named = what if count > 1 else f"{'an' if what[0] in 'aeiou' else 'a'} {what}"
    if not _negate_read_whole(block, sentence, f"negate {named}"):
        return
    block.every = False
    block.kind = "prevent_effect"
    block.parts = {"other_part"}
    block.min_targets, block.max_targets = 0, count
    block.prevents_in_battle = bool(m.group("battle"))
    block.prevents_opponents = bool(m.group("opponent"))
    target = next(p for p in block.pieces if p.kind == "target")
    mapped = [("kind", "prevent_effect: it keeps abilities from activating (PREV-2)"),
              ("max_targets", f"the abilities of the {f'next {count} cards' if count > 1 else 'next card'} played "
                              "after it, in its phase, that fit what it names (PREV-11-R1)")]
    if block.prevents_in_battle:
        mapped.append(("prevents_plays_in_battle", "only cards played while a battle is under way (PREV-11-R1)"))
    if block.prevents_opponents:
        mapped.append(("prevents_opponents_plays", "only cards an opponent of its user plays (PREV-11-R1, TGT-27)"))
    block.pieces = [Part("prevent", _unspaced(m.group(0)), tuple(mapped), ""),
                    target._replace(mapped=tuple(f for f in target.mapped if f[0] != "targets"))]


# "Place in territory: You may discard this card to ...": the card is placed in its player's territory when played,
# and the ability after the colon is used from there (PLACE-1-R3)
_PLACED = re.compile(r"(?i)place (?:this(?: card)? )?in (?:your )?territory\s*:\s*")


def _placed(block: _Block, sentence: str, m: re.Match[str]) -> None:
    """Read "Place in territory: <ability>": the ability after the colon, used from the territory the card is placed
    in (PLACE-1-R3), when its price is the card itself (CORE-19-R1), so that no play of the card uses it; else the
    label is not modelled."""
    _sentence(block, sentence[m.end():])
    block.sentence = sentence
    label = sentence[:m.end()].strip()
    if block.kind is not None and block.discards_itself:
        block.add("place", label, (("placed", "when played, the card is placed in its player's territory, and the "
                                              "ability after the colon is used from there (PLACE-1-R3)"),))
    else:
        block.add("place", label, reason="a card placed in territory whose ability does not pay with the card itself "
                                         "is not modelled (PLACE-1-R3)")


# "Negate and discard an Enhancement or the last Enhancement played", "... the last Enhancement of opposite alignment
# played or an Enhancement of opposite alignment [in play]" (TGT-27-R2, CORE-15-R2)
_OR_LAST_PLAYED = re.compile(
    r"(?P<verb>negate(?: and discard)?) (?:the last enhancement(?P<opposite> of opposite alignment)? played or an "
    r"enhancement(?P=opposite)(?: in play)?|an enhancement or the last enhancement played)")


def _or_last_played(block: _Block, sentence: str, m: re.Match[str]) -> None:
    """Read a negate of "an Enhancement or the last Enhancement played": the negate of an Enhancement (of the
    alignment opposite to its card's, CORE-15-R2, when it says so) that also reaches the latest play before it of
    such an Enhancement, wherever that card is now (TGT-27-R2)."""
    if not _negate_read_whole(block, sentence, f"{m.group('verb')} an enhancement"):
        return
    block.or_last_played = True
    mapped = [("reaches_the_last_played", "besides an Enhancement where a negate looks, the latest play of one before "
                                          "it, wherever that card is now (TGT-27-R2)")]
    if m.group("opposite"):
        block.alignment = "opposite"
        mapped.append(("target_alignment", "the alignment other than its card's (CORE-15-R2)"))
    block.add("target", m.group(0).removeprefix(m.group("verb")).strip(), tuple(mapped))


def _choice_read(lead: Tree, low: str) -> bool:
    """Whether a choice led by a state the case states ("If blocking, you may ...") is read whole: the rest of the
    sentence, read alone, has no part that is not modelled, and is not an effect a state is not read for. Any other
    condition the reader reads leaves it to the sentence's own reading."""
    words = _words(lead)
    state = _state_condition(words)
    if state is None or state[0] != "state_the_case_states":
        return True
    probe = _Block()
    _sentence_read(probe, low.removeprefix(words).strip())
    return not any(p.reason for p in probe.pieces) and probe.kind not in _TAKING_EFFECT_BY_USE


def _condition_read(lead: Tree, sentence: str) -> bool:
    """The condition leading `sentence` is one the reader reads: "if used by" a description of characters
    (`_used_by`), or "if played during your ... phase"."""
    words = _words(lead)
    return bool(_PLAYED_DURING.fullmatch(words)) or _state_condition(words) is not None or (
        words.startswith("if used by ") and _reads_user(words.removeprefix("if used by "), sentence))


# A state an effect waits on (TRIG-3): "if another Moabite is in play", "if you control a meek Hero", "if an evil
# Enhancement is in battle", "if played in battle" (or "used during battle": a battle under way)
_STATE = re.compile(r"if (?:(?P<another>another )|an? |one )?(?P<in_play>.+?) is in play ,"
                    r"|if you control (?:(?P<another_yours>another )|an? |one )?(?P<yours>.+?) ,"
                    r"|if (?:(?P<another_fought>another )|an? |one )?(?P<in_battle>.+?) is in battle ,"
                    r"|if (?:played|used) (?:in|during) battle ,")
_STATE_KINDS = {"in_play": "card_in_play", "yours": "card_you_control", "in_battle": "card_in_battle"}
# A state the reader does not check from the cards, which the case states for each use (TRIG-3, TRIG-3-R2): "if
# blocking", "if alone", "if opponent has hand advantage", "if you have fewer Redeemed Souls than opponent", "if an
# idol or a Curse is active", "if no female Heroes are in the Field of Battle", each part of one joined by "and" or
# "or" such a state. An event ("if this Hero is defeated", "if your giant blocks", "if an opponent draws") is not one.
_EVENT_WORDS = (r"(?:[a-z]+ed|drawn|done|made|put|begun|been|lost(?! souls?\b)|won|blocks|attacks|rescues|enters|"
                r"uses|plays|draws|would|each|time|when|do|does|did)")
_STATE_PART = (
    r"(?:(?:this (?:card|hero|character|evil character)|it|he|she) is )?(?:blocking|attacking|rescuing|alone|"
    r"blocking alone|opposed|unopposed|equipped)"
    r"|(?:you|opponent|an opponent|your opponent|holder|the opponent) (?:has|have|controls?|do not (?:have|control)|"
    r"does not (?:have|control)) (?!" + _EVENT_WORDS + r"\b)[^,]+"
    r"|(?:there (?:is|are) |no )?(?:(?!" + _EVENT_WORDS + r"\b)[a-z0-9.'-]+ ){1,6}(?:is|are) (?:not )?(?:in play|in battle|"
    r"active|in the field of battle|in (?:a |your |opponent's )?territory|empty|equipped|set aside)"
)
_STATED = re.compile(rf"if (?:{_STATE_PART})(?: (?:and|or) (?:{_STATE_PART}))* ,")
# Kinds of effect a state is not read for: a prevent and an affliction take effect by their legal use alone, where
# every other effect happens only as its use activates (`activates` in encodings/core.yaml).
_TAKING_EFFECT_BY_USE = frozenset({"prevent_effect", "affliction_effect"})


def _condition(block: _Block, words: str, state: tuple[str, str, bool]) -> None:
    """Read a state the block's one effect waits on (TRIG-3, TRIG-3-R1), which `_sentence` keeps only if the sentence
    gives the block its effect; a second state in the block is not read."""
    if block.condition[0] != "no_state":
        block.add("condition", words, reason="a condition on one effect of several in a block is not modelled")
        return
    block.condition = state
    kind, described, another = state
    if kind == "state_the_case_states":
        block.if_words = words.removesuffix(" ,")
    cards = state_cards(described, another)
    what = {"card_in_play": f"{cards} in play", "card_you_control": f"{cards} in play that its player controls",
            "card_in_battle": f"{cards} in battle", "battle_under_way": "a battle under way",
            "state_the_case_states": ""}[kind]
    block.add("condition", words, (("condition", f"{kind}: its effect happens only if, as it is used, there is "
                                                 f"{what} (TRIG-3, TRIG-3-R1)" if what else
                                                 f"{kind}: its effect happens only if the state holds as it is used, "
                                                 "which the case states for each use (TRIG-3, TRIG-3-R2)"),))
    block.condition_part = block.pieces[-1]


def _state_condition(words: str) -> tuple[str, str, bool] | None:
    """The state a condition names, as (kind, description, another) of `AbilityReading.if_state`: one of `_STATE`'s
    naming cards the model can check, else a state in the words of `_STATED` the case states (TRIG-3-R2), else None
    (an event, or words the reader does not take for a state)."""
    m = _STATE.fullmatch(words)
    if m is not None and m.lastgroup is None:  # "if played in battle": the one form naming no cards
        return "battle_under_way", "", False
    if m is not None:
        group = next(g for g in _STATE_KINDS if m.group(g) is not None)
        another = m.group({"in_play": "another", "yours": "another_yours", "in_battle": "another_fought"}[group])
        if not isinstance(read_description(m.group(group)), str):
            return _STATE_KINDS[group], m.group(group), another is not None
    if _STATED.fullmatch(words):
        return "state_the_case_states", "", False
    return None


def _lowered(sentence: str) -> str:
    """A sentence as the grammar reads it: lower-cased, without its final stop, punctuation spaced off."""
    low = re.sub(r"(?<=[a-z0-9)'])([,;:])", r" \1", sentence.lower().rstrip(".!").strip())
    return low.replace('"', "'")


# "Regardless of protect abilities [if ...].", "Regardless of protection, capture a Hero.", "Discard a Hero regardless
# of protect abilities.": protect abilities do not stop the ability (PROT-1-R1)
_REGARDLESS = r"regardless of (?:protect abilities|protection)"
_REGARDLESS_ALONE = re.compile(rf"{_REGARDLESS}(?: if [^,]+)?")
_REGARDLESS_LEAD = re.compile(rf"(?i){_REGARDLESS}\s*,\s*")
_REGARDLESS_TAIL = re.compile(rf"(?i),?\s+{_REGARDLESS}(?=\.?$)")


# "Discard all cards in battle (including yours).", "... in the Field of Battle including yours."
_INCLUDING_YOURS = re.compile(r"(?i),?\s*\(?including yours\)?\.?$")
_ALL_OF_A_PLACE = re.compile(r"[a-z]+ all [a-z ]+ in (?:the )?(?:field of )?battle\b")


def _regardless(block: _Block, text: str) -> None:
    block.add("modifier", text, (("regardless_of_protection", "protect abilities do not stop it (PROT-1-R1); the "
                                  "model carries out no protection, and a case where one could meet it is refused "
                                  "as for any protection"),))


# When a case is refused for a protection against capture, conversion or removal from the game
_CAPTURE_MET = "a case holds a capture or a banish the protection could meet (the model has no conversion)"


def _sentence(block: _Block, sentence: str) -> None:
    """Read one sentence into the block (`_sentence_read`); a state read as leading it (`_condition`) is kept only
    when the sentence gives the block its effect, of which the state is then the condition."""
    kind_before = block.kind
    _sentence_read(block, sentence)
    if block.condition_part is None:
        return
    part, block.condition_part = block.condition_part, None
    if kind_before is None and block.kind is not None:
        return
    block.condition = ("no_state", "", False)
    block.pieces[block.pieces.index(part)] = Part("condition", part.text, (), (
        "a condition on an effect that is not the block's one effect regcheck carries out is not modelled"))


def _sentence_read(block: _Block, sentence: str) -> None:
    """Read one sentence into the block; a sentence the grammar cannot read is an unsupported part."""
    block.sentence = sentence
    low = _lowered(sentence)
    if not low:
        return
    if _REGARDLESS_ALONE.fullmatch(low):
        _regardless(block, sentence)
        return
    around = _REGARDLESS_LEAD.match(sentence) or _REGARDLESS_TAIL.search(sentence.strip())
    if around is not None:
        _sentence(block, sentence[around.end():] if around.start() == 0 else sentence.strip()[:around.start()])
        _regardless(block, around.group(0).strip(" ,"))
        return
    yours = _INCLUDING_YOURS.search(sentence.strip())
    if yours is not None and _ALL_OF_A_PLACE.match(low):
        # "Discard all cards in battle (including yours).": the cards of every player, as "all" names them anyway
        _sentence(block, sentence.strip()[:yours.start()])
        block.add("modifier", yours.group(0).strip(" ,()."), (("including_yours", "the cards its player controls "
                                                                "are among those 'all' names, as every card that fits "
                                                                "is (TGT-18-R1)"),))
        return
    gained = _GAINS_QUOTED.fullmatch(low)
    if gained is not None and block.kind == "set_aside_effect":
        _gains_quoted(block, low, gained.group(1).strip().rstrip("."))
        return
    user_band = _USER_BANDS.fullmatch(low) if block.kind is None else None
    if user_band is not None and _user_band(block, sentence, user_band):
        return
    last = _LAST_PLAYED.fullmatch(low) if block.kind is None else None
    if last is not None:
        _last_played(block, sentence, last)
        return
    following = _NEXT_PLAYED.fullmatch(low) if block.kind is None else None
    if following is not None:
        _next_played(block, sentence, following)
        return
    either = _OR_LAST_PLAYED.fullmatch(low) if block.kind is None else None
    if either is not None:
        _or_last_played(block, sentence, either)
        return
    placed = _PLACED.match(sentence) if block.kind is None and not block.pieces else None
    if placed is not None:
        _placed(block, sentence, placed)
        return
    if _opponent_hand_move(block, sentence) or _unless_the_opponent_paid(block, sentence):
        return
    tree = _parse(low)
    offered = _band_or_move(low) if tree is None else None
    if offered is not None:
        # "May band to a demon, or you may take a demon from deck or Reserve.": the band is read; the move its
        # player may pick instead is not carried out (see `read_block`)
        band, offered_move = offered
        # the band's words as printed: a title in it is read only as the card list writes it
        printed = re.match(r"(?i)(?:[a-z]+ )?may band (?:to|with) .+?(?=,? or )", sentence)
        _sentence(block, printed.group(0) if printed is not None and _lowered(printed.group(0)) == band else band)
        block.pile_moves.append((sentence, _pile_zones(offered_move), False))
        return
    both = _DRAW_AND_PLAY.fullmatch(low) if tree is None else None
    if both is not None and _PILE_MOVES.fullmatch(both.group("draw")):
        # "You may draw 3 and play an Enhancement.": a draw, not carried out, and a play of its own (TGT-9-R2)
        _sentence(block, both.group("draw"))
        _sentence(block, f"you may play {both.group('play')}")
        return
    gain = _GAIN.fullmatch(low) if tree is None else None
    if gain is not None and _increase(block, sentence, gain):
        return
    move = _PILE_MOVES.fullmatch(low) if tree is None or _body(tree).data in ("discard", "reserve_target") else None
    if move is not None:
        # "Each player may draw X.", "You may take a Daniel Hero from deck.": not carried out (see `read_block`)
        condition = (move.group("condition") or "").strip()
        state = (_state_condition(condition) if condition and block.kind is None and not block.pile_moves
                 and block.condition[0] == "no_state" else None)
        if state is not None:
            # "If you have fewer Redeemed Souls than your opponent, you may draw two cards.": the state the move waits on
            _condition(block, condition, state)
            block.move_condition, block.condition_part = block.condition_part, None
        block.pile_moves.append((sentence, _move_zones(low), bool(condition) and state is None))
        return
    if _PLAY_PERMISSION.fullmatch(low) and tree is None:
        # "You may play an Enhancement.": moves no card (TGT-9-R2; see `read_block`)
        block.plays_allowed.append(sentence)
        return
    look = _LOOKS.fullmatch(low) if tree is None else None
    if look is not None:
        # "Look at an opponent's hand.": moves no card; "Look at the bottom 6 cards of a deck: Topdeck an evil card.":
        # a move of the cards looked at, not carried out (see `read_block`)
        zones = _pile_zones(look.group("seen")) + (("hand",) if _SEEN_HAND.search(look.group("seen")) else ())
        block.pile_moves.append((sentence, zones if look.group("move") else (), look.group("condition") is not None))
        return
    permitted = _PERMITTED_PRICE.fullmatch(sentence) if tree is None and block.kind is None else None
    before = len(block.pieces)
    if permitted is not None and _price(block, permitted.group("rest")):
        # "You may banish 2 cards from opponent's discard pile to ...": a price other than a discard (CORE-19)
        if permitted.group("who"):
            block.pieces.insert(before, Part("permission", permitted.group("who").strip().lower(), (
                ("optional", "the player may use it"),), ""))
        return
    if tree is None:
        # the mechanics its words name (see `cardmechanics.MECHANICS`), or "not understood by the card grammar"
        block.add("sentence", sentence, reason=unread_reason(sentence))
        return
    leads = [c for c in tree.children if isinstance(c, Tree) and c.data.startswith("lead_")]
    body = _body(tree)
    if block.kind is not None and body.data in _SECOND_MOVES and _second_move(block, sentence, body):
        return
    if (block.kind is None and not block.alone and len(leads) > 1 and leads[-1].data == "lead_permission"
            and leads[-2].data in ("lead_condition", "lead_used_by")
            and not (_condition_read(leads[-2], sentence) and _choice_read(leads[-2], low))):
        # "If blocking, you may negate ...": a choice of its player whose condition (or, for a state the case states,
        # whose effect) is not read stays unread, as a choice no attempt of a case makes
        block.add("sentence", sentence, reason=unread_reason(sentence))
        return
    for lead in leads:
        if lead.data == "lead_permission" and _words(lead).startswith("opponent"):
            # "Opponent may discard ...": the opponent decides and carries it out, not the ability's user
            block.add("permission", _words(lead), reason=mechanic_reason("every player"))
        elif lead.data == "lead_permission":
            block.add("permission", _words(lead), (("optional", "the player may use it"),))
        elif lead.data == "lead_user" and body.data == "band":
            block.add("permission", _words(lead), (("optional", "the player may use it"), (
                "band_user", "the character its card is played on or with, the ability's holder (BAND-4-R1)")))
        elif lead.data == "lead_user":
            block.add("permission", _words(lead), reason="who may do it ('hero may ...') is read for a band alone")
        elif lead.data in ("lead_used_by", "lead_condition") and body.data == "protect" and block.kind is not None:
            # "Negate a good card. If used by a Moabite, protect ...": the condition is the protection's alone, and
            # the protection is refused wherever it could matter, met or not
            block.add("condition", _words(lead), (("protection_condition", "of the protection that follows alone, "
                                                   "which is read as if it held"),))
        elif lead.data in ("lead_used_by", "lead_condition") and body.data == "grant_cannot":
            continue  # "If a heretic is in play, ... cannot be negated": the grant is kept aside with it (`_grant`)
        elif lead.data in ("lead_used_by", "lead_condition") and _words(lead).startswith("if used by "):
            _used_by(block, _words(lead))
        elif lead.data == "lead_condition" and (state := _state_condition(_words(lead))) is not None:
            _condition(block, _words(lead), state)
        elif lead.data == "lead_limit":
            _use_limit(block, _words(lead), "1", str(next(t for t in lead.children if isinstance(t, Token)
                                                           and t.type == "ONCE_UNIT")))
        elif lead.data == "lead_interrupt":
            _interrupt(block, _words(lead))
        elif m := _PLAYED_DURING.fullmatch(_words(lead)):
            # "If played during your Preparation or Battle phase": a use at another time is refused
            phases = tuple(p.title() for p in m.groups() if p)
            block.requires |= {"own_turn", *(f"phase:{p}" for p in phases)}
            block.add("condition", _words(lead), (("requires", f"its player's own {' or '.join(phases)} Phase (a use "
                                                              "at another time is refused)"),))
        else:
            block.add("condition", _words(lead), reason="a condition on the effect is not modelled")
    name = body.data
    if name == "interrupt_battle":
        _interrupt(block, sentence)
        return
    # "negate_target", "negate_list" and "negate" are all a negate to the reader, and both withdraw forms a withdraw
    shown = _SHOWN.get(name, name)
    text = _words(body)
    if name == "discard" and block.kind is None and not block.guarded and _price(block, sentence):
        return
    if name in ("discard", "discard_target") and re.search(r"\bto (?:heal|restore|set)\b", text):
        # "discard a clay card from hand to heal a clay Hero": the discard is the price of the heal
        block.add("sentence", sentence, reason=mechanic_reason("a cost"))
        return
    if name == "band":
        _band(block, body, any(lead.data in ("lead_permission", "lead_user") for lead in leads))
        return
    if name in _EFFECT_KINDS:
        if name in ("discard", "discard_target") and block.kind is not None and text.startswith("discard this card"):
            block.add("cost", text, reason="a cost is not modelled")
            return
        block.parts.add(_PART_OF[name])
        if block.kind is None and block.guarded:
            block.add(shown, text, reason=AFTER_A_GUARD)
            return
        if block.kind is None:
            block.kind = _EFFECT_KINDS[name]
            if name == "negate_list" and _every_of_kinds(block, body, sentence):
                _negate_and_move(block, body)
                _abilities_on(block, body, text)
                return
            if name in ("negate", "discard", "negate_list"):
                block.add(shown, text, (("kind", _EFFECT_KINDS[name]),),
                          reason=f"what the {shown} applies to ('{text}') is not checked by the model")
                return
            if name == "negate_kinds":
                kinds = {str(t) for t in body.children if isinstance(t, Token) and t.type == "NEGATED_KIND"}
                mapped_kinds: list[tuple[str, str]] = [("kind", "negate_effect")]
                if "heal" in kinds:
                    block.negates.add("heal_effect")
                    mapped_kinds.append(("negates_kind", "heal effect, while its card is in play"))
                if "resurrect" in kinds:
                    mapped_kinds.append(("inert", "the model has no resurrect ability: no ability of a case is one"))
                block.add(shown, sentence, tuple(mapped_kinds))
                return
            block.add(shown, sentence, (("kind", _EFFECT_KINDS[name]),) + (
                (("heal", 'HEAL-24: "restore abilities" means "heal"'),) if name == "restore" else ()) + (
                (("withdraw", 'WDR-4: a return to territory is a withdraw'),) if name == "withdraw_return" else ()) + (
                (("return_to_hand", "RET-1-R1: to bounce a card is to return it to its owner's hand"),)
                if any(isinstance(t, Token) and t.type == "BOUNCE" for t in body.children) else ()))
            if name == "afflict":
                verb = next(str(t) for t in body.children if isinstance(t, Token) and t.type == "AFFLICT")
                block.inflicts.add(_AFFLICTIONS[verb])
                block.add("affliction", verb, (("inflicts", _AFFLICTIONS[verb].replace("_condition", "")),))
            if name == "decrease":
                block.inflicts.add("decreased_condition")
                block.add("affliction", "".join(text.split()[-3:]), (
                    ("inflicts", "decreased: its targets stay decreased until healed (CORE-12, INCDEC-5); whether it "
                                 "brings a toughness to zero, which discards the card at once (INCDEC-6), is the "
                                 "case's to state with a discard by a triggered rule (INCDEC-6-R1)"),))
            if name == "negate_target":
                _negate_and_move(block, body)
            if _find(body, "special_ability_of") is not None:
                words = re.search(r"the special ability (?:of|on)", text)
                block.add("target", words.group(0) if words else "the special ability of", (
                    ("negates", "the special ability of the card it names, as every negate of a card does"),))
            _abilities_on(block, body, text)
            target = _find(body, "target")
            if name == "healed":
                block.add("target", text, reason="a heal of a card named earlier is not modelled")
            elif target is not None:
                _target(block, target)
                if name == "negate_target" and not block.every and (block.min_targets, block.max_targets) != (1, 1):
                    block.add("target", _words(target), reason="a negate of more than one card, other than 'all', "
                                                               "is not modelled")
            loc = next((c for c in body.children if isinstance(c, Tree) and c.data == "location"), None)
            _location(block, loc, sentence)
            if name == "shuffle_target":
                _into_owners_deck(block, _words(_find(body, "into_deck")) or "shuffle", "SHUF-1, SHUF-2")
            if name == "place_in_deck":
                where = next(t for t in body.children if isinstance(t, Token)
                             and t.type in ("DECK_VERB", "ON_DECK", "TO_DECK_END"))
                _into_owners_deck(block, str(where), "PLACE-1, PLACE-1-R4" if where.type == "TO_DECK_END"
                                  else "PLACE-1, PLACE-1-R1")
            if name == "decrease" and not _characters_only(block.types):
                block.add("target", _words(target), reason="a decrease of cards that may not be characters is not "
                                                           "modelled: the conditions regcheck follows are "
                                                           "characters' (CORE-12)")
            if name == "capture_target" and block.types and not _characters_only(block.types):
                block.add("target", _words(target), reason="only Heroes and Evil Characters can be captured (CAPT-1): "
                                                           "a capture of other cards is not read")
            elif name == "capture_target":
                block.add("destination", "capture", (("moves_to", "the Land of Bondage of the player who uses it, "
                                                                  "held captive (CAPT-2)"),))
            if name == "banish_target":
                shown = "banish" if re.search(r"\bbanish\b", sentence.lower()) else "from the game"
                block.add("destination", shown, (("moves_to", "its owner's banish pile, out of play for the rest of "
                                                              "the game (BAN-1-R1, BAN-2-R1)"),))
            if name == "reserve_target":
                block.add("destination", "reserve", (("moves_to", "its owner's Reserve, out of play (RSV-3-R1, "
                                                                  "RSV-3-R2)"),))
            dur = next((c for c in body.children if isinstance(c, Tree) and c.data in (
                "for_turns", "end_of_battle", "up_to_turns", "at_least_turns", "remainder", "until_event",
                "turns_equal")), None)
            if dur is not None:
                _duration(block, dur)
            tail = next((c for c in body.children if isinstance(c, Tree) and c.data in ("then_tail", "and_tail")), None)
            if tail is not None:
                block.add("tail", _words(tail), reason="a further effect in the same sentence is not modelled")
            hc = next((c for c in body.children if isinstance(c, Tree) and c.data in (
                "about_to_be_discarded", "being_discarded", "sick", "not_full_strength")), None)
            if hc is not None:
                _heal_condition(block, hc)
            alt = next((c for c in body.children if isinstance(c, Tree) and c.data == "alternative"), None)
            if alt is not None:
                alternative = _words(alt).removeprefix(",").strip().removeprefix("or ").strip()
                block.alternatives.append(alternative)
                word = _EFFECT_KINDS[name].removesuffix("_effect")
                block.add("alternative", _words(alt), (("alternative", f"'{alternative}', which the player may pick "
                                                         "instead: not modelled; an entry that uses this ability "
                                                         f"says 'effect: {word}'"),))
            inc = next((c for c in body.children if isinstance(c, Tree) and c.data == "increase"), None)
            if inc is not None:
                block.add("increase", _words(inc), (("inert", "the model has no strength or toughness numbers; "
                                                              "an increase is no condition it tracks"),))
            return
        # a second effect in the same block
        if name in ("discard", "discard_target") and _PLACED_ON_HEALED.fullmatch(text) and block.kind == "heal_effect":
            # "Heal a Hero ... Discard all evil cards placed on that Hero": not carried out; a case where an
            # evil card could be on the Hero healed is refused
            block.use_changes.add("placed_on_targets:evil")
            block.add(shown, text, (("part", _PART_OF[name]), ("use_changes", "the evil cards placed on its targets "
                                   "(not carried out: a case where a card could be placed on a target is refused)")))
            return
        block.add(shown, text, ((("part", _PART_OF[name])),),
                  reason=f"a second effect ({shown}) in the same ability is not modelled")
        return
    if name in ("cannot", "interrupted_only"):
        guards = ({c.data for c in body.children if isinstance(c, Tree) and c.data.startswith("g_")}
                  if name == "cannot" else {"g_interrupted", "g_prevented"})
        cond = _find(body, "condition") or _find(body, "other_condition")
        mapped: list[tuple[str, str]] = []
        by = _find(body, "by_clause")
        if by is not None:
            _guard_by(block, text, guards, by, cond is not None)
            return
        if block.guard_by:
            _guard_aside(block, text, "a 'cannot be ...' beside a 'cannot be negated by ...' in one ability")
            return
        if cond is not None:
            ctext = _words(cond).removeprefix("if ").strip()
            if ctext.startswith("used by ") and _guard_user(block, text, guards, ctext.removeprefix("used by ")):
                return
            m = re.fullmatch(r"x is (\d+) or (?:greater|more)", ctext)
            if m is None or guards != {"g_negated"}:
                _guard_aside(block, text)
                return
            block.cbn = f"x is {m.group(1)} or greater"
            mapped.append(("cannot_be_negated", f"if X is {m.group(1)} or greater"))
        else:
            mapped += _set_guards(block, guards)
        block.add("cannot", text, tuple(mapped))
        return
    if name in ("on_return", "when_returns", "returns_with", "returns_able"):
        if block.kind != "set_aside_effect":
            block.add("paired", text, reason="a return clause without a set-aside in its ability")
            return
        mapped = [("paired", "true"), ("on_return", "true")]
        clause = re.sub(r"^(?:on|upon) (?:its )?return\s*,?\s*", "", text)
        if name == "returns_with" and not re.search(r"\breturns? with (?:the )?abilit(?:y|ies) to\b"
                                                    r"|\breturns? with abilities (?:increased|\d)", clause):
            # "returns with access to ...": whether that is an ability it gains is not read
            block.add("on_return", text, reason="whether this return clause gives the card an ability is not read")
            return
        if name == "on_return" and _SAFE_FROM_CAPTURE.fullmatch(clause):
            # "On return, characters cannot be converted or captured in battle": a protection (an ability, SA-13)
            # against capture and conversion, refused where a capture could meet it
            block.paired = block.on_return = block.grants = True
            block.protections.add("set_aside_cards/capture/card")
            block.add("on_return", text, tuple(mapped) + (
                ("grants", "true"), ("protects", "the cards it sets aside, against conversion and capture"),
                ("refused_when", _CAPTURE_MET)))
            return
        if (name == "returns_able" or re.search(r"\bgains? (?:the |an? )?abilit(?:y|ies)\b", clause)
                or re.search(r"\breturns? with (?:the )?abilit(?:y|ies) to\b", clause)):
            mapped.append(("grants", "true"))
        elif re.search(r"\bgains?\b", clause):
            # "gains two additional brigade colors": something other than an ability, which the model may track
            block.add("on_return", text, reason="what the card gains on return is not modelled")
            return
        elif name == "on_return" and _ABOUT_THE_CARD.match(clause):
            # "Upon return, Hero has access to any site and ignores ...": it may give the card an
            # ability without saying "gains"; whether it does is not read
            block.add("on_return", text, reason="whether this on-return clause gives the card an ability is not read")
            return
        changes = () if ("grants", "true") in mapped else on_return_changes(clause)
        if changes is None:
            block.add("on_return", text, reason="what this on-return clause changes is not read (regcheck does not carry "
                                                "out an on-return effect; it refuses a case the effect could change)")
            return
        block.paired = block.on_return = True
        block.grants = block.grants or ("grants", "true") in mapped
        block.changes |= set(changes)
        if changes:
            mapped.append(("on_return_changes", ", ".join(_change_words(c) for c in changes) + " (not carried out: a "
                           "case holding a card it could change is refused)"))
        block.add("on_return", text, tuple(mapped))
        return
    if name in ("while_aside", "immune_while_aside", "gains_every_turn"):
        if block.kind != "set_aside_effect":
            block.add("paired", text, reason="a paired ability without a set-aside in its ability")
            return
        effect = _WHILE_ASIDE_LEAD.sub("", _WHILE_ASIDE_TAIL.sub("", text)).strip()
        if _PROTECTS.search(effect):
            subject = effect.split(" is immune")[0].split(" are immune")[0] if name == "immune_while_aside" else ""
            _protection(block, "paired", text, effect,
                        about_the_set_aside=_SET_ASIDE_SUBJECT.fullmatch(subject) is not None)
            block.paired = True
            return
        tracked = _TRACKED.search(re.sub(r"\b(?:is|are) set[- ]aside\b", "", effect))
        if tracked is not None:
            block.add("paired", text, reason=f"an ongoing effect while set aside that changes what the model tracks "
                                             f"('{tracked.group(0)}') is not modelled")
            return
        block.paired = True
        block.add("paired", text, (("paired", "true"),))
        return
    if name == "limit":
        m = USE_LIMIT.fullmatch(text.removeprefix("limit "))
        if m is None:
            block.add("limit", text, reason="a limit that does not say how often per game or per turn is not modelled")
            return
        _use_limit(block, text, str(use_count(m.group(1))), m.group(2))
        return
    if name == "uses_allowed":
        times = next(str(t) for t in body.children if isinstance(t, Token) and t.type == "USES")
        unit = next((str(t) for t in body.children if isinstance(t, Token) and t.type == "ONCE_UNIT"), "game")
        _use_limit(block, text, str(use_count(times)), unit)
        return
    if name in ("protect", "immune"):
        subject = re.split(r"\bimmune to\b", text)[0] if name == "immune" else ""
        if unread_reason(subject) != NOT_UNDERSTOOD:
            # "This Hero has access to any Site and is immune to gray brigade.": another effect before the immunity
            block.add(name, text, reason=unread_reason(subject))
            return
        _protection(block, name, text, text, about_the_set_aside=False)
        return
    if name == "grant_cannot":
        condition = next((_words(lead) for lead in leads if lead.data in ("lead_used_by", "lead_condition")), "")
        _grant(block, body, f"{condition} {text}" if condition else text, bool(condition))
        return
    reasons = {
        "on_turn_returns": "a return on a stated turn is not modelled",
        "gains_ability": "an ability given to the set-aside card: when it applies is not modelled",
        "each_upkeep": mechanic_reason("each upkeep"),
        "cost_effect": "a cost is not modelled",
    }
    block.add(name, text, reason=reasons.get(name, "not modelled"))


# What an on-return effect may change, as "zone:types" ("draw_pile:any": cards drawn or searched from a draw
# pile; "in_play:Hero/Artifact": Heroes and Artifacts in play it discards or converts; "anywhere:EE"), or
# "this_card" (it discards its own card) or "blocking" (it chooses a blocker of a later rescue attempt).
# Each phrase of the clause must be one of these; the rest may only join them ("and", "to", ",").
_SOURCES = {"discard pile": "discard_pile", "deck": "draw_pile", "draw pile": "draw_pile"}
_ON_RETURN_PHRASES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], tuple[str, ...]]], ...] = tuple(
    (re.compile(pattern), changes) for pattern, changes in (
        # abilities increased or announced: the model has no strength numbers
        (r"(?:on turn \w+,? )?(?:both )?(?:hero|heroes|character|characters) returns? with abilities "
         r"(?:increased (?:by that amount|\d+/\d+)|\d+/\d+ or \d+/\d+)", lambda m: ()),
        (r"abilities must be announced when (?:hero|character) returns", lambda m: ()),
        (r"choose a number from \d+ to \d+", lambda m: ()),
        # discarding its own card once the set-aside card is back
        (r"discard after (?:hero|character)\(?s?\)? (?:returns|awakes)", lambda m: ("this_card",)),
        (r"(?:you |holder )?(?:may )?discard (?:a|an|one|up to x|up to \d+) (?:good |evil )?cards?(?: \(limit \d+\))? from hand",
         lambda m: ("hand:any",)),
        (r"(?:you |holder )?(?:may )?discard ([a-z -]+? and [a-z -]+?) from (?:each |an )?opponent's territory",
         lambda m: _typed("in_play", m.group(1))),
        (r"(?:you |holder )?(?:may )?discard (?:a|an|one|x|up to x|up to \d+|\d+) ([a-z -]+?)"
         r"(?: from each opponent's territory| in play)?(?=$| to | and |,|;)", lambda m: _typed("anywhere", m.group(1))),
        (r"convert (?:a|an|one) ([a-z -]+?) to (?:a|an) [a-z -]+", lambda m: _typed("in_play", m.group(1))),
        (r"(?:you |holder )?(?:may )?draw (?:\d+|x|one|two|three|four|five|an equal number of)(?: cards?)?"
         r"(?: \(maximum \d+\))?(?: for each card discarded this way)?", lambda m: ("draw_pile:any",)),
        (r"(?:you |holder )?(?:may )?search (?:your |opponent's |his |an opponent's )?(discard pile|deck|draw pile) for "
         r"(?:up to (?:\d+|that number of) |all |an? |one )?([a-z0-9 '-]+?)(?: with a reference from [a-z ]+)? and "
         r"(?:add (?:it|them) to hand|put (?:it|them) in hand|place (?:it |them )?in (?:his|your|their) territory)",
         lambda m: _typed(_SOURCES[m.group(1)], m.group(2))),
        (r"(?:reveal|look at) (?:the )?top (?:x|\d+|one) cards? of (?:your |an opponent's |opponent's )?(?:deck|draw pile)",
         lambda m: ("draw_pile:any",)),
        (r"reveal one card from top of draw pile for each turn hero was set aside", lambda m: ("draw_pile:any",)),
        (r"add up to \d+ cards? to hand(?: \(or \d+ if [a-z ]+ is in play\))?", lambda m: ("draw_pile:any",)),
        (r"underdeck the rest|put lost souls in play", lambda m: ("draw_pile:any",)),
        (r"(?:holder )?(?:may )?choose the evil character (?:his )?opponent uses to block hero's next rescue attempt",
         lambda m: ("blocking",)),
    ))
_JOINS = re.compile(r"[\s,;]*(?:(?:and|to|then)[\s,;]+)*")
# What a description names, for the card types an on-return effect may change.
_CHANGED_TYPES = (("lost soul", "Lost_Soul"), ("evil enhancement", "EE"), ("good enhancement", "GE"),
                  ("enhancement", "GE/EE"), ("evil character", "Evil_Character"), ("hero", "Hero"),
                  ("artifact", "Artifact"), ("human", "Hero/Evil_Character"), ("character", "Hero/Evil_Character"))


def _typed(zone: str, description: str) -> tuple[str, ...]:
    """The changes of an effect on the cards a description names, in a zone; every type, when it names none."""
    types = [t for words, t in _CHANGED_TYPES if re.search(rf"\b{words}", description)]
    found = types[0] if types else "any"
    if len(types) > 1 and "and" in description.split():
        found = "/".join(dict.fromkeys("/".join(types).split("/")))
    return (f"{zone}:{found}",)


def _change_words(change: str) -> str:
    if change == "this_card":
        return "this card (discarded)"
    if change == "blocking":
        return "who blocks a later rescue attempt"
    zone, types = change.split(":")
    kinds = "cards" if types == "any" else " or ".join(t.replace("_", " ") for t in types.split("/")) + " cards"
    where = {"anywhere": "anywhere", "in_play": "in play", "hand": "in a hand", "draw_pile": "in a draw pile",
             "discard_pile": "in a discard pile"}[zone]
    return f"{kinds} {where}"


def on_return_changes(clause: str) -> tuple[str, ...] | None:
    """What an on-return clause may change (see `_ON_RETURN_PHRASES`), or None when a phrase of it is not read."""
    rest = re.sub(r"\s+([,;])", r"\1", clause).strip().rstrip(".")
    found: list[str] = []
    while rest:
        m = _JOINS.match(rest)
        rest = rest[m.end():] if m else rest
        if not rest:
            break
        for pattern, changes in _ON_RETURN_PHRASES:
            hit = pattern.match(rest)
            if hit is not None:
                found.extend(changes(hit))
                rest = rest[hit.end():]
                break
        else:
            return None
    return tuple(dict.fromkeys(found))


_PLAYED_DURING = re.compile(r"if played during your (preparation|battle|discard)(?: or (preparation|battle|discard))? "
                            r"phases? ,")
# Moves of cards from a draw pile or a Reserve to a hand: "You may draw 2.", "Draw X (limit 3).", "Each player
# must draw 1." (DRAW-1); "You may take a Daniel Hero from deck.", "You may take an evil card from Reserve (or deck
# if ...)." (SRCH-6, SRCH-6-R1); "You may search deck or Reserve for a Curse." (SRCH-1, SRCH-3); or one of several
# ("You may draw 2 or take an Enhancement from Reserve."); from a Reserve to the top or the bottom of a draw pile:
# "Topdeck an evil card from Reserve." (PLACE-1-R1; a card the text names in a Reserve, RSV-2); and to a discard
# pile: "Discard the top card of opponent's deck.", "Discard an evil card from a Reserve." (DISC-1; RSV-2).
# Not carried out: the card moved is none of a case's cards unless the case holds one in such a pile, and a case
# that does is refused (`_PILE_ZONES` names the piles).
_PILE = r"(?:your |a |the |opponent's |an opponent's |each opponent's |each |their |his |own |any )?(?:deck|draw pile|reserve)"
_PILES = rf"{_PILE}(?: (?:,|or|and) {_PILE})*(?: \((?:or|and) (?:deck|draw pile|reserve) if [^()]*\))?"
# the piles a take or a search may name, a discard pile among them ("Take a Fruit of the Spirit from Reserve or
# discard pile.", SRCH-1, SRCH-6)
_TAKE_PILE = rf"(?:{_PILE}|(?:your |a |the |opponent's |an opponent's |each opponent's |their |his |own |any )?discard pile)"
_TAKEN_FROM = (rf"{_TAKE_PILE}(?: (?:,|or|and) {_TAKE_PILE})*"
               r"(?: \((?:or|and) (?:deck|draw pile|reserve|discard pile) if [^()]*\))?")
# what a take or a search names: any words, but none that would put the card into play or battle
_TAKEN = r"(?:(?!\b(?:put|play|place|add|equip|battle|territory|give|from)\b)[^,;:])+?"
# what a topdeck or an underdeck out of a pile names: as a take does, and neither its own card nor a price of
# another effect ("underdeck this card to take ...", "underdeck the top card of deck to topdeck ...")
_PUT_BACK = r"(?:(?!\b(?:this|to|put|play|place|add|equip|battle|territory|give|from)\b)[^,;:])+?"
# a verb that starts a move of its own after "or" rather than a second thing taken ("Take an animal from Reserve or
# banish a human from a discard pile.")
_OTHER_MOVE = r"(?!(?:banish|remove|underdeck|topdeck|shuffle|discard|reserve|draw|search|take)\b)"
# what a discard out of a pile names: one description, without a place or a second effect of its own
_ONE_KIND = r"(?:(?!\b(?:put|play|place|add|equip|battle|territory|give|from|in|or|and|take|discard)\b)[^,;:])+?"
_MOVE = (r"(?:draw (?:up to )?(?:x(?: \(limit \d+(?: unless played in battle)?\))?|\d+|one|two|three|a card)(?: cards?)?"
         # "Draw 1 (or 2 if used by Boaz).": how many cards a move not carried out takes changes nothing the model has
         r"(?: \(or (?:\d+|x|two|three) if used by [^()]+\))?"
         r"(?: from (?:the )?bottom of (?:your )?deck)?|draw (?:the )?top card (?:of|from) (?:your |own )?draw pile"
         # "You may underdeck an evil card from hand to draw 2." (PLACE-1-R1, CORE-19): cards of a hand move too
         rf"|(?:underdeck|topdeck) (?:a|an|one|up to \d+|any number of) {_ONE_KIND} from (?:your )?hand to draw "
         r"(?:\d+|x|an equal number)"
         rf"|take {_TAKEN} from {_TAKEN_FROM}(?: or {_OTHER_MOVE}{_TAKEN} from {_TAKEN_FROM})*"
         rf"|search {_TAKEN_FROM} for {_TAKEN}(?: and (?:add|put) it (?:to|in|into) (?:your )?hand"
         r"| and shuffle (?:them |it )?into (?:your |owner's )?deck| and discard (?:it|them))?"
         # "You may exchange a card from hand with a gold card from Reserve." (EXCH-1): cards of a hand move too
         rf"|exchange (?:a|an|one) (?:good |evil )?card (?:from|in) (?:your )?hand with {_TAKEN} (?:from|in) {_PILES}"
         # "Topdeck an evil card from Reserve." (PLACE-1-R1; RSV-2), "Topdeck a demon from deck." (a card that stays
         # in its draw pile, whose order the model does not track), "You may topdeck (or take if you have attacked
         # this turn) a silver card from deck or Reserve."
         r"|(?:topdeck|underdeck)(?: \(or take if [^()]*\))? "
         rf"{_PUT_BACK} from {_TAKEN_FROM}(?: \(or take (?:it |them )?if [^()]*\))?"
         # "You may banish a card (except a Dominant) from a deck." (BAN-1-R1): out of a draw pile or a Reserve
         rf"|banish (?:a|an|one|up to (?:x|\d+)|\d+|any number of) {_ONE_KIND} from {_PILES}"
         # "You may reserve the top 2 cards of a deck.", "You may reserve an OT Curse from discard pile.", "Reserve an
         # evil card from opponent's hand." (RSV-3-R1): into a Reserve, out of play
         rf"|reserve (?:the )?top (?:card|(?:\d+|x|two|three) cards) of {_PILE}"
         rf"|reserve (?:a|an|one|up to (?:x|\d+)) {_ONE_KIND} from (?:{_TAKEN_FROM}|(?:your |opponent's |an opponent's )?hand)"
         # "You may shuffle your hand to draw 8." (SHUF-1, DRAW-1): cards of a hand move too
         r"|shuffle (?:your|their|his) hand to draw (?:\d+|x)"
         # "Discard the top card of opponent's deck.", "Discard an evil card from a Reserve." (DISC-1; RSV-2)
         r"|discard (?:the )?(?:top|bottom|top or bottom) (?:card|(?:\d+|x|two|three|four|five) cards) (?:of|from) "
         rf"{_PILE}|discard (?:a|an|one|up to (?:x|\d+)) (?:random )?{_ONE_KIND} from {_PILES})")
_PILE_MOVES = re.compile(rf"(?P<condition>if [^,]+ , )?(?:(?:each player|you|holder|lost soul's owner|opponent) "
                         r"(?:may|must) )?"
                         rf"{_MOVE}(?: ,)?(?: or (?:you may )?{_MOVE})*")
# A price out of a discard pile (CORE-19): "banish 2 cards from opponent's discard pile to ...", "remove 2 clay cards
# in your discard pile from the game to ..."; as the block's effect, such a banish is carried out (BAN-1-R1)
_PRICE_OUT_OF_PILE = re.compile(rf"(?:banish|remove) (?:a|an|one|up to (?:x|\d+)|\d+|two|three) {_ONE_KIND} "
                                rf"(?:from|in) {_TAKEN_FROM}(?: from the game)?")
_PILE_ZONES = {"deck": "draw_pile", "draw pile": "draw_pile", "reserve": "reserve", "discard pile": "discard_pile"}
_ZONE_NAMES = {"draw_pile": "a draw pile", "reserve": "a Reserve", "hand": "a hand", "discard_pile": "a discard pile"}

# A look or a reveal (REV-1, REV-2, LOOK-1-R1): "Look at an opponent's hand.", "You may reveal your hand.", "Look at
# the top X (limit 7) cards of a deck.", alone or followed, after a colon, by a move of the cards it names ("...:
# Topdeck them in any order.", "...: Take 1 and underdeck the rest."). The look moves no card; the move after it is
# not carried out, as a move of `_PILE_MOVES` is not.
_COUNT = r"(?:\d+|x|one|two|three|four|five|six|seven)(?: \(limit \d+\))?"
_DECK = r"(?:your |a |the |opponent's |an opponent's |each player's |own )?(?:deck|draw pile)"
_SEEN_ONE = (rf"(?:(?:the )?(?:top|bottom) (?:card|{_COUNT} cards) (?:of|from) {_DECK}"
             r"|(?:a|your|opponent's|an opponent's|each opponent's|all|their) hands?"
             r"|(?:a|your|opponent's|an opponent's) reserve)")
_SEEN_HAND = re.compile(r"\bhands?\b")
# "You may play an Enhancement.", "If opponent has board advantage, you may play an O.T. brown Enhancement."
# (TGT-9-R2): a play the case writes as its own; whether a condition leading it holds, no card moves
_PLAY_PERMISSION = re.compile(r"(?:if [^,]+ , )?you may play (?:an?|one) (?:[a-z.]+ )*?enhancement")
# "You may draw 1 (or 3 if used by a Daniel Hero) and play an O.T. Enhancement.": a draw and a play permission
_DRAW_AND_PLAY = re.compile(r"(?P<draw>(?:you may )?draw [^,;:]+?) and play (?P<play>(?:an?|one) (?:[a-z.]+ )*?enhancement)")
# what the move after a look takes: any words naming cards, none that would do anything but move them
_LOOKED_AT = (r"(?:(?!\b(?:put|play|place|add|equip|battle|territory|give|activate|discard|set|shuffle|exchange|"
              r"reserve|banish|capture|convert|if|and|from|(?<!up )to|this)\b)[^,;:])+?")
_LOOKS = re.compile(
    rf"(?P<condition>if [^,]+ , )?(?:you may )?(?:look at|reveal) (?P<seen>{_SEEN_ONE}(?:(?: ,)? (?:or|and) {_SEEN_ONE}"
    rf"| , {_SEEN_ONE})*)(?P<move> : (?:you may )?(?:topdeck them(?: in any order)?|(?:take|topdeck|underdeck) "
    rf"{_LOOKED_AT}(?: to hand)?(?: ,)?(?: (?:and|then) (?:topdeck|underdeck|topdeck and/or underdeck) the rest)?))?")


def _move_zones(low: str) -> tuple[str, ...]:
    """The zones a move of `_PILE_MOVES` takes cards from: its piles (`_pile_zones`), and a hand for an exchange with
    cards of a hand or a move of cards from one."""
    return _pile_zones(low) + (("hand",) if re.search(r"\bexchange\b|\bhand to draw\b|\bfrom (?:your |opponent's |an "
                                                      r"opponent's )?hand\b", low) else ())


def _pile_zones(low: str) -> tuple[str, ...]:
    """The zones a move of `_PILE_MOVES` takes cards from (a deck the cards are shuffled into only changes its order,
    which the model does not track)."""
    low = re.sub(r" and shuffle (?:them |it )?into (?:your |owner's )?deck$", "", low)
    low = re.sub(r"\breserve (?=(?:the |a |an |one |up to ))", "", low)  # the verb: cards go into a Reserve
    found = {zone for word, zone in _PILE_ZONES.items() if re.search(rf"\b{word}\b", low)}
    if re.search(r"\bdraw\b(?! pile)", low):
        found.add("draw_pile")
    return tuple(sorted(found))


# An increase of numbers the cards of a description gain: "All of holder's Heroes gain 2/2 until end of turn.",
# "Your Heroes gain 4/4 until the end of battle.", "Increase your human Heroes by 1/1." (INCDEC-1, INCDEC-3)
_NUMBERS_UP = r"(?:\d+|\*)/(?:\d+|\*)"
_UNTIL = r"(?: until (?:the )?end of (?:the |this )?(?:turn|battle))?"
_GAIN = re.compile(rf"(?P<who>(?:all |each )?(?:of )?[a-z.' -]+?) gains? {_NUMBERS_UP}{_UNTIL}"
                   rf"|increase (?P<whom>[a-z.' -]+?) by {_NUMBERS_UP}{_UNTIL}")


def _increase(block: _Block, sentence: str, m: re.Match[str]) -> bool:
    """Read an increase of every card of a description as an ability of kind other whose targets are the cards
    it increases (INCDEC-3), where they are (in play unless it names a place, INCDEC-7); the change is not
    carried out, as the model has no numbers. False when its words name no such cards (the sentence stays
    unread)."""
    if block.kind is not None or block.guarded:
        return False
    parsed = _negated(m.group("who") or m.group("whom"))
    if parsed is None:
        return False
    target = _find(parsed, "target")
    if target is None:
        return False
    probe = _Block()
    _target(probe, target)
    if not probe.every or not all(p.supported for p in probe.pieces):
        return False  # "Hero gains 8/8": the card's own user, which the reader does not name as a target
    block.kind = "other_effect"
    block.parts.add("other_part")
    block.add("increase", sentence, (("kind", "other_effect: an increase of strength or toughness, which the model "
                                              "does not carry out (it has no numbers, INCDEC-1, INCDEC-3)"),))
    _target(block, target)
    _location(block, _find(parsed, "location"), sentence)
    return True


# "Demon gains the ability 'May band with a demon from another brigade.'": the set-aside card, named again
_GAINS_QUOTED = re.compile(r"(?:that |the )?(?:hero|heroes|demon|demons|character|characters|evil character|"
                           r"evil characters) gains? the ability(?: ,)? '([^']+)'")
# a gained protection against capture, conversion or removal from the game alone (refused where a capture or a banish
# could meet it)
_SAFE_GAINED = re.compile(r"(?:protect (?:hero|character|demon|it|them) from|immune to) (?:capture|conversion|"
                          r"removal from the game)(?: ,)?(?:(?: ,)? (?:and|or) (?:capture|conversion|removal from the "
                          r"game)| , (?:capture|conversion|removal from the game))*(?: , except by [a-z0-9 ']+)?")


def _gains_quoted(block: _Block, text: str, ability: str) -> None:
    """"Hero gains the ability '...'" after a set-aside: an ability the card has gained from being set aside
    (SA-13), read as the on-return clause "returns with the ability to ..." is (paired, on_return, grants). A
    card returned early (SA-12) may or may not gain it: a case that could return the card early is refused. The
    gained ability does nothing in a case unless written there; a protection is read as protections are."""
    mapped: list[tuple[str, str]] = [("paired", "true"), ("on_return", "true"), ("grants", "true"),
                                     ("requires", "no early return (a case that could return the card early is "
                                                  "refused: whether it then gains the ability is not read)")]
    if re.search(r"\b(?:protect|immune)\b", ability):
        if not _SAFE_GAINED.fullmatch(ability):
            block.add("gains_ability", text, reason="a protection the card gains: what it protects against is not read")
            return
        block.protections.add("set_aside_cards/capture/card")
        mapped += [("protects", "the cards it sets aside, against capture, conversion or removal from the game"),
                   ("refused_when", _CAPTURE_MET)]
    elif not re.fullmatch(r"may band (?:to|with) [a-z0-9 ']+", ability):
        block.add("gains_ability", text, reason="what the ability the card gains does is not read")
        return
    block.paired = block.on_return = block.grants = True
    block.requires.add("no_early_return")
    block.add("gains_ability", text, tuple(mapped))


def _used_by(block: _Block, text: str) -> None:
    """"If used by a N.T. Hero, ...": the ability does something only for such a user; a case whose user is not
    known to be one is refused."""
    _requires_user(block, text, text.removeprefix("if used by "))


def _reads_user(words: str, sentence: str) -> bool:
    """The words name a user the reader checks (`_requires_user`)."""
    return _user_requirements(words, sentence) is not None


def _user_requirements(words: str, sentence: str) -> set[str] | None:
    """What a use must meet for its user to be the one the words name (`_requires_user`), or None when the reader
    does not check such a user."""
    scratch = _Block()
    scratch.sentence = sentence
    _requires_user(scratch, words, words)
    return None if any(p.reason for p in scratch.pieces) else scratch.requires


def _requires_user(block: _Block, text: str, named: str) -> None:
    """The ability does something only for a user the words `named` describe (Heroes or Evil Characters, with
    traits), read from `text`; a case whose user is not known to be one is refused."""
    words = named.rstrip(" ,").split()
    if words and words[0] in ("a", "an"):
        words = words[1:]
    description = _read(block, " ".join(words))
    if (isinstance(description, str) or description.alignment or description.brigade
            or not _characters_only(description.types)):
        block.add("condition", text, reason="a condition on who uses the ability is not modelled")
        return
    types, traits = description.types, list(description.traits)
    block.requires |= {*(f"used_by:{t}" for t in types), *(f"used_by_trait:{t}" for t in traits)}
    block.add("condition", text, (("requires", f"used by a {' '.join(traits + ['/'.join(types)])} (a case whose user "
                                               "is not known to be one is refused)"),))


# An on-return clause that only guards the returning cards against conversion and capture.
_SAFE_FROM_CAPTURE = re.compile(r"(?:the |those |that )?(?:characters|heroes|evil characters|they|it|he|she) "
                                r"(?:cannot|can not|can't) be (?:converted or captured|captured or converted|captured|"
                                r"converted)(?: in battle)?(?: ?, except by [a-z0-9 ']+)?")
# A paired clause "while (that Hero is) set aside, ...", or "... while set-aside", without those words.
_WHILE_ASIDE_LEAD = re.compile(r"^while (?:(?:that|the|this) [^,]*? (?:is|are) )?set[- ]aside\s*,?\s*")
_WHILE_ASIDE_TAIL = re.compile(r"\s*while (?:[^,]*? (?:is|are) )?set[- ]aside$")
# The subject of "... is immune ... while set aside" when it is the card set aside.
_SET_ASIDE_SUBJECT = re.compile(r"(?:that |the |this )?(?:hero|heroes|hero\(s\)|character|characters|"
                                r"evil characters?|demons?|he|she|it|they)")
_PROTECTS = re.compile(r"\b(?:protect|protects|protected|immune|immunity)\b")
# Words of an ongoing effect on something the model decides (zones, negation, conditions).
_TRACKED = re.compile(r"\b(?:negate[sd]?|discard(?:s|ed)?|heal(?:s|ed)?|set[- ]aside|returns?|cannot be|can not be|"
                      r"may not be|prevent(?:s|ed)?|interrupt(?:s|ed)?|poison(?:s|ed)?|disease[sd]?|paralyze[sd]?|"
                      r"decrease[sd]?|capture[sd]?|banish(?:es|ed)?)\b")


def _protection(block: _Block, kind: str, text: str, effect: str, about_the_set_aside: bool) -> None:
    """Read a protection ("protect ... from ...", "... is immune to ...") as what it guards, against what,
    and whether it is the paired ability of a set-aside (else it is the card's, whether or not it is used).

    The model has no protection: the reading records it so that a case in which the protection could
    decide something is refused (see the case loader); against capture (conversion, removal from the game),
    only where a capture or a banish could meet it. What it guards: the cards the ability sets aside, cards in
    set-aside areas, or (any other wording) any card; against what: capture, evil cards (named after "from", "to"
    or "by": not the evil cards it guards), or (any other wording) anything.
    """
    source = ("capture" if re.search(r"\bfrom capture$", effect) and "," not in effect
              else "evil" if re.search(r"\b(?:from|to|by)\b.*\bevil cards\b", effect) else "any")
    whom = ("set_aside_cards" if about_the_set_aside
            else "set_aside_areas" if re.search(r"\bin (?:a |all )?set[- ]aside areas?\b", effect) else "any_card")
    block.protections.add(f"{whom}/{source}/{'paired' if kind == 'paired' else 'card'}")
    block.add(kind, text, (("protects", f"{_WHOM[whom]}, against {_SOURCE[source]}"),
                           ("refused_when", "a case holds an attempt the protection could meet" if source != "capture"
                            else _CAPTURE_MET)))


def _protection_alone(block: _Block) -> None:
    """A block whose one effect is a protection of a card ("Protect Heroes from evil cards.", "Hero is immune to
    Gray Brigade."), every part of it read: an ability of the case (PROT-4) whose protection is not carried out, as
    for every protection, and whose targets, the cards it protects (PROT-5), are not read."""
    block.targets_nothing()
    at = next(i for i, p in enumerate(block.pieces) if p.kind in ("protect", "immune") and not p.reason)
    part = block.pieces[at]
    block.pieces[at] = part._replace(mapped=(("kind", "other_effect: a protection, which the model does not carry "
                                                      "out (PROT-4); its targets, the cards it protects, are not read "
                                                      "(PROT-5)"),) + part.mapped)


_WHOM = {"set_aside_cards": "the cards it sets aside", "set_aside_areas": "cards in set-aside areas",
         "any_card": "the cards it names (read as any card)"}
_SOURCE = {"capture": "capture", "evil": "evil cards", "any": "anything (read as broadly as its words could go)"}


def _use_limit(block: _Block, text: str, times: str, per: str) -> None:
    """A limit on how often the ability is used (CORE-17), per game or per turn; a round is not defined."""
    if per not in ("game", "turn"):
        block.add("limit", text, reason=f"a limit per {per} is not modelled: the rules do not define a {per}")
        return
    block.limit = f"{times}/{per}"
    block.add("limit", text, (("use_limit", f"at most {times} use(s) per {per} (CORE-17)"),))


def _heal_condition(block: _Block, tree: Tree) -> None:
    text = _words(tree)
    if tree.data in ("about_to_be_discarded", "being_discarded"):
        block.heals_only.add("discarded_condition")
        block.add("heal_condition", text, (("heals_only", "being discarded"),))
    elif tree.data == "sick":
        found = set()
        for word in text.split():
            for stem, cond in (("poison", "poisoned_condition"), ("disease", "diseased_condition"),
                               ("paralyz", "paralyzed_condition")):
                if word.startswith(stem):
                    found.add(cond)
        block.heals_only |= found
        block.add("heal_condition", text, (("heals_only", ", ".join(sorted(found))),))
    else:
        block.add("heal_condition", text, reason="a heal of a card not at full strength is not modelled")


def read_block(number: int, label: str, text: str) -> AbilityReading:
    """Read one ability block."""
    block = _Block()
    for sentence in split_sentences(text):
        _sentence(block, sentence)
    if block.move_condition is not None and (block.kind is not None or len(block.pile_moves) > 1):
        # the state leads one move of several effects of the block: the move is a conditional one, as any other
        block.condition = ("no_state", "", False)
        block.pieces.remove(block.move_condition)
        sentence, zones, _ = block.pile_moves[0]
        block.pile_moves[0] = (sentence, zones, True)
    if block.offered_to_opponent is not None:
        # "Opponent may discard a good Enhancement from hand." with nothing that waits on it: the opponent's choice
        block.add("sentence", block.offered_to_opponent, reason=mechanic_reason("every player"))
    if block.limit and block.kind is not None and any(m[0] not in block.prices_out_of_piles for m in block.pile_moves):
        # "You may discard the top X cards of opponent's deck. Limit once per game. May band to ...": which of the
        # effects the limit is on is not read
        block.add("limit", "", reason="a limit in an ability with more than one effect (one a move out of a pile): "
                                      "which effect it limits is not read")
    for sentence in block.plays_allowed:
        kind: tuple[tuple[str, str], ...] = ()
        if block.kind is None and not block.pile_moves:
            block.targets_nothing()
            kind = (("kind", "other_effect: an ability whose effect changes no card of a case"),)
        block.add("play", sentence, kind + (("moves", "no card: the Enhancement it lets its player play is a play of "
                                                       "its own (TGT-9-R2)"),))
    for sentence, zones, conditional in block.pile_moves:
        where = " or ".join(_ZONE_NAMES[z] for z in zones)
        if block.kind is None and conditional:
            # whether an ability whose one effect waits on a condition may be used is not read
            block.add("sentence", sentence, reason=unread_reason(sentence))
            continue
        if block.grant:
            # the grant alone cannot be negated (CBN-2); a negate may still reach the move
            block.add("move", sentence, reason=f"{GRANT_NOT_MODELLED} beside another ability in one block (only "
                                               "the grant is kept from negates, CBN-2)")
            continue
        mapped: tuple[tuple[str, str], ...] = ()
        if "hand" in zones and block.kind == "return_to_hand_effect":
            # the cards the block returns to a hand could be among those the move takes from it: every use of the
            # ability would be refused
            block.add("move", sentence, reason="a move of cards of a hand beside a return to hand, which could reach "
                                               "the cards returned, is not modelled")
            continue
        if not zones:
            # a look or a reveal alone (REV-2, LOOK-1-R1)
            if block.kind is None:
                block.targets_nothing()
                mapped = (("kind", "other_effect: an ability whose effect changes no card of a case"),)
            block.add("look", sentence, mapped + (("moves", "no card: it shows cards (a look or a reveal), each "
                                                             "staying where it is (REV-2, LOOK-1-R1)"),))
            continue
        if block.kind is None:
            # the block's one effect: an ability of the model whose effect changes no card of a case
            block.targets_nothing()
            mapped = (("kind", f"other_effect: it moves cards of {where} (to a hand, a discard pile, a draw pile or a Reserve), "
                               "which the model does not carry out"),)
        block.use_changes |= {reach_change(Reach((), None, True)) if z == "hand" else f"{z}:any" for z in zones}
        price = sentence in block.prices_out_of_piles
        block.add("price" if price else "move", sentence, mapped + (("use_changes", (
            "the price of the effect, paid as the ability is used (CORE-19): " if price else "") + f"cards in {where} "
            "(not carried out: a case holding one is refused)"),))
    if block.kind is None and any(p.endswith("/card") for p in block.protections) and not any(
            p.reason for p in block.pieces):
        _protection_alone(block)
    if block.kind is None:
        block.min_targets, block.max_targets = 0, None
    if block.condition[0] != "no_state" and block.kind in _TAKING_EFFECT_BY_USE:
        block.add("condition", "", reason="a condition on the effect is not modelled for a prevent or an affliction, "
                                          "whose effect does not wait on the use activating")
    if block.duration[0] not in ("no_duration", "until_end_of_battle") and block.kind != "set_aside_effect":
        block.add("duration", "", reason="a duration on an effect that is not a set-aside is not modelled")
    return AbilityReading(
        number=number, label=label, text=text, kind=block.kind,
        duration_kind=block.duration[0], duration_turns=block.duration[1],
        paired=block.paired, on_return=block.on_return, grants_ability=block.grants,
        cannot_be_negated=block.cbn, target_zone=block.zone, also_in_play=block.also_in_play,
        cannot_be_interrupted=block.cannot_be_interrupted, cannot_be_prevented=block.cannot_be_prevented,
        guard_condition=block.guard_condition, guard_by=block.guard_by, guard_user=block.guard_user,
        grants_unnegatable=block.grant, grant_users=block.grant_users, grant_aside=block.grant_aside,
        targets_opponents_cards=block.opponents, targets_own_cards=block.own,
        targets_all_in_location=block.all_in_location and block.zone is not None,
        parts=tuple(sorted(block.parts)), heals_only=tuple(sorted(block.heals_only)),
        target_types=block.types, target_brigade=block.brigade,
        min_targets=block.min_targets, max_targets=block.max_targets,
        pieces=tuple(block.pieces),
        duration_min_turns=block.min_turns if isinstance(block.min_turns, int) else 0,
        inflicts=tuple(sorted(block.inflicts)), negates_kinds=tuple(sorted(block.negates)),
        target_traits=block.traits, protections=tuple(sorted(block.protections)),
        target_alignment=block.alignment, targets_every=block.every,
        target_alternatives=tuple((d.types, d.alignment, d.brigade, d.traits) for d in block.other_descriptions),
        target_exceptions=tuple((d.types, d.alignment, d.brigade, d.traits) for d in block.exceptions),
        moves_what_it_negates=block.negated_moves,
        negates_the_last_played=block.last_played, reaches_the_last_played=block.or_last_played,
        prevents_plays_in_battle=block.prevents_in_battle, prevents_opponents_plays=block.prevents_opponents,
        if_state=block.condition[0], if_description=block.condition[1], if_another=block.condition[2],
        if_words=block.if_words if block.condition[0] == "state_the_case_states" else "",
        targets_itself=block.targets_itself,
        discards_itself=block.discards_itself,
        offers_a_price=block.offers_price,
        interrupts_battle=block.interrupts_battle,
        use_limit=block.limit, alternatives=tuple(block.alternatives),
        on_return_changes=tuple(sorted(block.changes)), use_changes=tuple(sorted(block.use_changes)),
        requires=tuple(sorted(block.requires)), effect_class=block.effect_class,
    )


@lru_cache(maxsize=4096)
def read_text(text: str) -> TextReadingResult:
    """Read a card's printed text into its ability blocks."""
    abilities = [(b, label, part) for b, (label, body) in enumerate(split_blocks(normalise(text)), 1)
                 for part in _abilities_of_block(body)]
    readings = [read_block(i, label, body)._replace(printed_block=b) for i, (b, label, body) in enumerate(abilities, 1)]
    return TextReadingResult(text, tuple(_covered_by_later_sentences(readings)))


def _is(sentence: str, forms: tuple[str, ...]) -> bool:
    """The grammar reads the sentence as one of the forms, or as led by one of them."""
    low = _lowered(sentence)
    tree = _parse(low) if low else None
    return tree is not None and (_body(tree).data in forms or any(
        isinstance(c, Tree) and c.data in forms for c in tree.children))


def _abilities_of_block(body: str) -> list[str]:
    """The abilities written in one block (AAO-4-R1): a band sentence beside another effect is an ability of its own,
    with the "cannot be ..." and "regardless of protect abilities" sentences that follow it; the sentences before
    and after it are the others. A block with no band sentence, with "Interrupt the battle." (its paired abilities
    are one ability with it, INT-7) or a limit sentence, or with a band beside no effect other than a move out of a
    pile, is one ability."""
    sentences = split_sentences(body)
    bands = [_is(s, ("band",)) or _band_or_move(_lowered(s)) is not None or _USER_BANDS.fullmatch(_lowered(s)) is not None
             for s in sentences]
    # "cannot be ..." and "Regardless of protect abilities." stay with the ability they follow
    guards = [_is(s, ("cannot", "interrupted_only")) or _REGARDLESS_ALONE.fullmatch(_lowered(s)) is not None
              for s in sentences]
    # a move out of a pile beside a band stays with it, read as it is beside any effect (`read_block`); the
    # sentences after "Interrupt the battle." are its paired abilities (INT-7), one ability with it; a limit
    # written as a sentence of its own does not say which ability it limits
    if (not any(bands) or any(_is(s, ("interrupt_battle", "lead_interrupt", "limit", "uses_allowed")) for s in sentences)
            or all(b or g or _PILE_MOVES.fullmatch(_lowered(s)) for s, b, g in zip(sentences, bands, guards))):
        return [body]
    out: list[list[str]] = []
    after_band = False
    for sentence, band, guard in zip(sentences, bands, guards):
        if band or not out or (after_band and not guard):
            out.append([sentence])
            after_band = band
        else:
            out[-1].append(sentence)
    return [" ".join(part) for part in out]


_GUARDS = ("cannot_be_negated", "cannot_be_interrupted", "cannot_be_prevented")


def _set_guards(block: _Block, guards: set[str]) -> list[tuple[str, str]]:
    """Set the guards a "cannot be ..." sentence names on the block, with what each maps to."""
    mapped = []
    for guard, field in (("g_negated", "cannot_be_negated"), ("g_interrupted", "cannot_be_interrupted"),
                         ("g_prevented", "cannot_be_prevented")):
        if guard in guards:
            setattr(block, "cbn" if field == "cannot_be_negated" else field, True)
            mapped.append((field, "true"))
    return mapped


def _guard_user(block: _Block, text: str, guards: set[str], words: str) -> bool:
    """Read "cannot be negated if used by a Prophet" (CBN-6-R2): the guards, which hold for a use whose user fits
    the description (the case loader checks each use); False when the description is not one of characters the
    model can check (the condition is then not read)."""
    d = _read(block, without_article(words))
    if isinstance(d, str) or not _characters_only(d.types):
        return False
    mapped = _set_guards(block, guards)
    block.guard_user = without_article(words)
    block.add("cannot", text, (*mapped, ("guard_user", f"only for a use by {words}: the case loader checks each "
                                                      "use's user (CBN-6-R2)")))
    return True


def _covered_by_later_sentences(readings: list[AbilityReading]) -> list[AbilityReading]:
    """CBN-6 and CBN-16: a "cannot be negated" (or prevented) sentence that does not say what it covers covers
    every ability on the card before it, so an ability block takes the unconditional guards of the blocks after
    it, with a part saying where each came from; a guard kept aside (`guard_condition`: "cannot be negated if
    Coliseum is in play") is kept aside for them too, so that a case where a negate reaches one is refused."""
    out = list(readings)
    for i, later in enumerate(readings):
        if later.guard_condition and not later.grants_unnegatable and not later.guard_user:
            for j in range(i):
                if later.guard_condition not in out[j].guard_condition:
                    out[j] = out[j]._replace(
                        guard_condition=_with_guard_aside(out[j].guard_condition, later.guard_condition),
                        pieces=out[j].pieces + (Part("cannot", f"covered by a later sentence ('{later.text}')", (
                            ("guard_condition", f"'{later.guard_condition}' ({_NEGATE_REFUSED})"),), ""),))
        # a "cannot be negated" given to other cards says what it covers; one that holds for some users only is
        # not carried to the blocks before it
        guards = [g for g in _GUARDS if getattr(later, g) is True and not later.grants_unnegatable
                  and not later.guard_user]
        for j in range(i):
            earlier = out[j]
            added = [g for g in guards if getattr(earlier, g) is not True]
            if not added:
                continue
            where = f"covered by a later sentence ({later.label or 'block ' + str(later.number)}: '{later.text}')"
            if later.guard_by != earlier.guard_by and any(getattr(earlier, g) is True for g in _GUARDS):
                out[j] = earlier._replace(pieces=earlier.pieces + (Part("cannot", where, (), (
                    "guards of two sentences, one limited to abilities on some cards ('cannot be negated by ...'), "
                    "are not modelled together")),))
                continue
            part = Part("cannot", where, tuple((g, "true (CBN-6)") for g in added) + (
                (("guard_by", f"only against abilities on {later.guard_by} (CBN-6-R3)"),) if later.guard_by else ()), "")
            out[j] = earlier._replace(pieces=earlier.pieces + (part,), guard_by=later.guard_by,
                                      cannot_be_negated=True if "cannot_be_negated" in added else earlier.cannot_be_negated,
                                      cannot_be_interrupted=earlier.cannot_be_interrupted or "cannot_be_interrupted" in added,
                                      cannot_be_prevented=earlier.cannot_be_prevented or "cannot_be_prevented" in added)
    return out
