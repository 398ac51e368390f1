"""Mechanics of card text that regcheck does not model, recognised by their words, so that a sentence the card
grammar does not read says what blocks it rather than only that it was not understood.

`MECHANICS` is the one table: each row names a mechanic, the words that name it in a lower-cased sentence (a
regular expression searched anywhere in the sentence), and the reason given for a sentence that says them. A
sentence is recognised by its words, never by its card's name; one that names no mechanic of the table stays
"not understood by the card grammar" (`NOT_UNDERSTOOD`). Recognising a mechanic never makes a sentence read:
the sentence stays an unsupported part, only its reason is more exact.

"rules/ has no statement of it" means that no statement of the rules repository is about the mechanic; one may
name a place or a phase the mechanic uses (a draw pile, the Draw phase, banish piles). A mechanic whose REG entry
is restated but waived names its statements instead.
"""

from __future__ import annotations

__all__ = ["Mechanic", "MECHANICS", "NOT_UNDERSTOOD", "mechanic_reason", "unread_reason", "reasons_in"]

import re
from typing import NamedTuple

NOT_UNDERSTOOD = "not understood by the card grammar"
_NO_RULE = "(rules/ has no statement of it)"


class Mechanic(NamedTuple):
    """A mechanic the model does not have: its name, the words that name it, and the reason a sentence gets."""

    name: str
    words: re.Pattern[str]
    reason: str


def _m(name: str, words: str, reason: str) -> Mechanic:
    return Mechanic(name, re.compile(words), reason)


# In the order a reason names them when a sentence says the words of more than one.
MECHANICS: tuple[Mechanic, ...] = (
    _m("banding", r"\bband(?:s|ed)?\b|\bbanding (?:to|with|into|abilit(?:y|ies))\b",
       "banding in these words is not read (the card reader reads a character's 'may band to' a description; "
       "rules/band.md, BAND-3 to BAND-5; a case may write the characters an ability adds to battle by hand)"),
    _m("adding to battle", r"\badd(?:s|ed)? [^.]*?\bto (?:the )?battle\b",
       "adding a character to battle is not read from card text (a case may write it by hand: class "
       "adds_same_side or adds_opposite_side)"),
    _m("capture", r"\bcaptur(?:e|es|ed|ing)\b", "capture in these words is not read (the card reader reads 'Capture "
       "<target> [in <place>]': rules/zones.md, CAPT-1 and CAPT-2, and captured characters are not modelled)"),
    _m("conversion", r"\bconver(?:t|ts|ted|ting|sion)\b", "conversion is not modelled "
       "(rules/zones.md, CONV-1 to CONV-5, waived)"),
    _m("exchange", r"\bexchang(?:e|es|ed|ing)\b", "exchanging cards is not modelled (rules/zones.md, EXCH-1 to EXCH-4, waived)"),
    _m("interrupting the battle", r"\binterrupt(?:s|ed|ing)? (?:the )?(?:current |this )?battle\b",
       "interrupting the battle is not modelled"),
    _m("interrupting an ability", r"\binterrupts? (?!(?:the )?(?:current |this )?battle\b)",
       "interrupting an ability is not modelled (no attempt in the model interrupts one)"),
    _m("face down", r"\bface[- ](?:down|up)\b|\bflip(?:s|ped)?\b", f"face-down cards are not modelled {_NO_RULE}"),
    _m("searching", r"\bsearch(?:es|ed|ing)?\b", "searching a deck or discard pile is not "
       "modelled (rules/zones.md, SRCH-1 to SRCH-6, waived)"),
    _m("drawing this card", r"\b(?:if|when) (?:you|a player) draws? this card\b",
       "an ability triggered by drawing its card is not modelled (the model has no drawing)"),
    _m("drawing", r"\bdraw(?:s|n|ing)?\b(?! pile| phase| this card)|\bdrew\b",
       "drawing cards is not modelled (rules/zones.md, DRAW-1 to DRAW-5, waived)"),
    _m("shuffling", r"(?<!without )\bshuffl(?:e|es|ed|ing)\b", "shuffling in these words is not read (the card "
       "reader reads 'Shuffle <target> [in <place>] [into owner's deck]': rules/zones.md, SHUF-1 and SHUF-3)"),
    _m("revealing", r"\breveal(?:s|ed|ing)?\b|\blook(?:s|ed)? at\b",
       f"revealing or looking at cards is not modelled {_NO_RULE}"),
    _m("Reserve", r"\breserve[sd]?\b",
       "the Reserve in these words is not read (the card reader reads 'Reserve <target> [in <place>]', and takes "
       "and reserves out of a Reserve, a draw pile, a discard pile or a hand: rules/zones.md, RSV-3-R1 and RSV-3-R2)"),
    _m("taking from a pile", r"\b(?:take|takes|put|puts|play|plays|place|places|return|returns|add|adds)\b[^.]*?"
                             r"\bfrom (?:[a-z']+ ){0,2}(?:deck|draw pile|discard pile)\b",
       f"taking cards from a draw pile or discard pile is not modelled {_NO_RULE}"),
    _m("top or bottom of a pile", r"\b(?:top|under)deck(?:s|ed)?\b|\b(?:top|bottom) of [^.]*?\b(?:draw pile|deck)\b"
                                  r"|\bbeneath [^.]*?\b(?:draw pile|deck)\b|\binto [^.]*?\b(?:draw pile|deck)\b"
                                  r"|\bto (?:the |your |its )?deck\b",
       "putting cards on top of, beneath or into a draw pile in these words is not read (the card reader reads "
       "'Underdeck <target>', 'Topdeck <target>' and 'Place <target> beneath owner's deck': rules/zones.md, "
       "PLACE-1 and PLACE-1-R1)"),
    _m("cannot be blocked", r"\bcan(?:not|'t| not) be blocked\b", f"'cannot be blocked' is not modelled {_NO_RULE}"),
    _m("access to sites", r"\baccess to\b", f"access to sites is not modelled {_NO_RULE}"),
    _m("first strike", r"\bfirst strike\b", f"first strike is not modelled {_NO_RULE}"),
    _m("immunity", r"\bimmun(?:e|ity)\b", f"immunity is not modelled {_NO_RULE}"),
    _m("protected from", r"\bprotected from\b|\bprotect (?:it|them|him|her) from\b",
       "a protection in these words is not read (the grammar reads 'Protect ...' and '... immune ... while set "
       "aside')"),
    _m("change each turn", r"\b(?:de|in)creas(?:e|es|ed|ing)\b[^.]*?\b(?:per|each|every) turn\b",
       "an increase or decrease of abilities each turn is not modelled (the model has no strength or toughness "
       "numbers)"),
    _m("change by numbers", r"(?<![\w/])(?:\d+|x|\*)/(?:\d+|x|\*)(?![\w/])(?![^.]*?\b(?:per|each|every) turn\b)",
       "a change of abilities by numbers (N/N) is not modelled (the model has no strength or toughness numbers)"),
    _m("each upkeep", r"\b(?:each|every) upkeep\b", "an effect each upkeep is not modelled"),
    _m("once per round", r"\bper round\b", "a limit per round is not modelled: the rules do not define a round"),
    _m("removing from the game", r"\bbanish(?:es|ed|ing)?\b|\bremov(?:e|es|ed|ing)\b[^.]*?\bfrom (?:the )?game\b",
       "banishing in these words is not read (the card reader reads 'Banish <target> [in <place>]', 'Remove <target> "
       "[in <place>] from the game' and banishes out of a draw pile or a Reserve: rules/zones.md, BAN-1-R1 and "
       "BAN-2-R1)"),
    _m("cards placed on its card", r"\b(?:place[sd]?|put|puts)\b[^.]*?\b(?:here|(?:on|in)(?:to)? this "
                                   r"(?:site|fortress|card|artifact|city))\b",
       "a card holding cards placed on or in it is not modelled"),
    _m("a card placed on another", r"\bplace (?:this (?:card|enhancement|artifact) )?on (?:any|a|an|that|the)\b",
       "a card that stays placed on another card is not modelled"),
    _m("a card set aside by itself", r"\bset (?:aside )?this (?:card|fortress|site|artifact)\b",
       "a card that sets itself aside is not modelled"),
    _m("a cost", r"\b(?:discard|reserve|banish|reveal|place|remove)\b[^.;]*? to (?:heal|restore|set|draw|negate|add|"
                 r"protect)\b",
       "an effect bought with a cost ('discard ... to ...') is not modelled"),
    _m("activating a card", r"\b(?:de)?activate (?:a|an|the|this|that|one)\b[^.]*?\b(?:artifact|curse|covenant)s?\b"
                            r"|\bon activation\b",
       f"activating or deactivating an Artifact, Curse or Covenant is not modelled {_NO_RULE}"),
    _m("every player", r"\beach player (?:may|must)\b|\bopponents? must\b",
       "an ability that each player, or the opponent, carries out is not modelled"),
    _m("a return to a named place", r"\breturn(?:s|ed)? (?:that|the|this|those|them|it|him|her|one|all|an?|up to \w+)"
                                    r"\b[^.]*?\bto (?:(?:its |their |the |that |his )?owner's |your |his |their )?"
                                    r"(?:territory|hand)\b",
       "a return to the territory or hand the text names is not modelled (a set-aside card comes back as SA-8 "
       "and SA-9 say)"),
    _m("a new turn or rescue attempt", r"\bbegin a new turn\b|\bnew rescue attempt\b|\bbattle challenge\b",
       "an extra turn, or a new rescue attempt within a battle, is not modelled"),
    _m("after battle", r"\bafter (?:the )?battle\b", "an effect triggered after battle is not modelled"),
    _m("the first time", r"\bthe first time\b", "an ability triggered the first time an event happens is not modelled"),
    _m("instead", r"\binstead\b", "an effect that replaces another ('instead') is not modelled"),
    _m("choosing a blocker", r"\bchoose the next evil character\b|\bchoose [^.]*?\bto block\b",
       "choosing who blocks a rescue attempt is not modelled"),
    _m("play advantage", r"\bplay advantage\b", f"play advantage is not modelled {_NO_RULE}"),
    _m("naming a card", r"\bname a card\b|\bnamed card\b", f"naming a card is not modelled {_NO_RULE}"),
    _m("ignoring", r"\bignor(?:e|es|ed|ing)\b", f"ignoring a card is not modelled {_NO_RULE}"),
    _m("restricting", r"\brestrict(?:s|ed|ing)?\b",
       "restricting a player is not modelled (rules/targeting.md says only whom a restrict targets, TGT-4)"),
    _m("tossing", r"\btoss(?:es|ed|ing)?\b",
       "tossing is not modelled (rules/targeting.md says only where a toss looks, TGT-14)"),
    _m("resurrecting", r"\bresurrect(?:s|ed|ing)?\b",
       "resurrecting is not modelled (rules/targeting.md says only where a resurrect looks, TGT-12)"),
    _m("redirecting", r"\bredirect(?:s|ed|ing)?\b",
       "redirecting is not modelled (rules/targeting.md says only where a redirect looks, TGT-10)"),
    _m("a side battle", r"\bside battle\b", "a side battle is not read from card text (AAO-14 orders side battle "
       "effects; a case may write one by hand: class side_battle_effect)"),
    _m("repeating", r"\brepeat(?:s|ed)?\b", f"repeating an ability is not modelled {_NO_RULE}"),
    _m("using other Enhancements", r"\bmay use\b[^.]*\benhancements?\b|\bregardless of (?:brigade|colou?r)\b",
       "a character allowed to use Enhancements of other brigades is not modelled (an Enhancement is played on a "
       "character that shares one of its brigades, GLOSS-14)"),
    _m("meek", r"\bmeek\b", f"meek cards are not modelled {_NO_RULE}"),
)
_BY_NAME = {m.name: m for m in MECHANICS}
_REASONS = frozenset(m.reason for m in MECHANICS)
_JOIN = "; "


def mechanic_reason(name: str) -> str:
    """The reason `MECHANICS` gives for the mechanic called `name` (for the grammar's own refusals of it)."""
    return _BY_NAME[name].reason


def unread_reason(sentence: str) -> str:
    """The reason a sentence the grammar does not read is not modelled: the reasons of every mechanic of
    `MECHANICS` its words name, in the table's order and joined by "; ", or `NOT_UNDERSTOOD` for none."""
    low = sentence.lower().replace("\u2019", "'")
    found = [m.reason for m in MECHANICS if m.words.search(low)]
    return _JOIN.join(dict.fromkeys(found)) or NOT_UNDERSTOOD


def reasons_in(reason: str) -> tuple[str, ...]:
    """The reasons a part's reason holds: each mechanic's, when `unread_reason` joined several, else the reason."""
    pieces = reason.split(_JOIN)
    if len(pieces) > 1 and all(p in _REASONS for p in pieces):
        return tuple(pieces)
    return (reason,)
