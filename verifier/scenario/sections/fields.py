"""The words and defaults of the case format, and the helpers that read one field of a case."""

from __future__ import annotations

__all__ = ["ALIGNMENT_WORDS", "NAME", "PHASES", "MAX_TURNS", "MAX_CARDS", "MAX_ATTEMPTS", "MAX_PLAYERS",
           "VERDICT_NAMES", "DEFAULTS", "CONDITIONS", "CONDITION_WORDS", "CARD_KEYS", "ABILITY_KEYS", "MODIFIER_KEYS",
           "DEFAULT_PART", "ACTIONS", "ATTEMPT_KEYS", "APPLIES_TO", "DURATION_WORDS", "DURATION_TURNS", "AFFLICTIONS",
           "NEGATABLE_KINDS", "HEAL_CONDITIONS", "ABILITY_KINDS", "describe_duration", "ordinal", "CASE_KEYS"]

import re

from ...vocabulary import VALUE_SETS, display_value
from ...yamlsource import YMap, YNode, YScalar, YSeq, did_you_mean
from ..model import Ability

ALIGNMENT_WORDS = ("good", "evil", "neutral")


def _word(node: YNode, what: str, options: tuple[str, ...]) -> str:
    """One of a few words, as written in a case (any case); anything else is an error naming the options."""
    word = _scalar(node).text(what).strip().lower()
    if word not in options:
        node.fail(f"unknown {what} '{word}'; one of: {', '.join(options)}")
    return word

NAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
PHASES = VALUE_SETS["phase"]
MAX_TURNS, MAX_CARDS, MAX_ATTEMPTS, MAX_PLAYERS = 60, 250, 200, 4
VERDICT_NAMES = ("determined", "choice-dependent", "ambiguous", "contradiction", "unknown")

DEFAULTS = {
    "owner": "the first player",
    "controller": "the owner (permanent control)",
    "temporary_controller": "the permanent controller",
    "territory_class": "false (no Territory Class unless stated)",
    "zone": "territory for characters, hand for every other card",
    "zone_of": "the owner",
    "brigade": "none",
    "alignment": "the one its type gives (Heroes and good enhancements good, Evil Characters and evil enhancements "
                 "evil); for a card of another type not stated: an ability naming an alignment for its targets is "
                 "refused where that card's alignment matters",
    "traits": "not stated: a real card (named by its first identity) has the traits its identifiers in the card "
              "list give it, which do not record humanity, gender or, for most cards, testament, and a real "
              "character is a warrior exactly when its class is Warrior; an ability naming a trait for its targets "
              "is refused on a card that leaves that trait open",
    "ability duration": "none (no duration unless stated)",
    "ability paired / on_return / grants / cannot_be_negated / and_discard / and_place / and_banish / and_reserve / "
    "last_played / "
    "or_last_played / price_itself / played_in_battle / played_by_opponent": "false",
    "ability target_zone": "none named: targets must be in play",
    "ability targets": "any card, any number of them (a real card's text names its own; "
                       "target_type, targets_own and target_count name them for an ability written by hand)",
    "attempt player": "the permanent controller of the card used; for entering battle, the active player",
    "turns": "the last turn of the timeline plus the longest duration in turns, plus one",
}

CONDITIONS = {"poisoned": "start_poisoned", "diseased": "start_diseased", "paralyzed": "start_paralyzed",
              "decreased": "start_decreased", "tied_effect": "start_tied_effect"}
CONDITION_WORDS = {"poisoned": "poisoned", "diseased": "diseased", "paralyzed": "paralyzed",
                   "decreased": "decreased in its abilities", "tied_effect": "under an ongoing effect tied to a condition"}
CARD_KEYS = ("card", "type", "brigade", "owner", "controller", "temporary_controller",
             "territory_class", "zone", "zone_of", "abilities", "x", "adds", "equipped_to", "traits", "alignment",
             *CONDITIONS)
ABILITY_KEYS = ("kind", "duration", "paired", "on_return", "grants", "cannot_be_negated",
                "target_zone", "also_in_play", "targets_opponents", "targets_all_in_location", "text",
                "parts", "class", "gained", "adds", "modifiers", "heals_only", "inflicts", "negates",
                "target_type", "targets_own", "when_enters_battle", "target_traits", "target_count", "limit",
                "target_alignment", "cannot_be_interrupted", "cannot_be_prevented", "cannot_be_negated_by",
                "and_discard", "and_place", "and_banish", "and_reserve", "last_played", "or_last_played",
                "price_itself", "played_in_battle", "played_by_opponent", "if_state", "if_description", "if_another",
                "targets_itself", "offers_a_price")
MODIFIER_KEYS = ("scope", "part", "effect", "condition", "granted_to")
DEFAULT_PART = {"set_aside_effect": "set_aside_part", "return_effect": "other_part", "negate_effect": "negate_part",
                "heal_effect": "heal_part", "discard_effect": "discard_part", "affliction_effect": "other_part",
                "withdraw_effect": "other_part", "return_to_hand_effect": "other_part", "shuffle_effect": "other_part",
                "capture_effect": "other_part", "place_in_deck_effect": "other_part", "banish_effect": "other_part",
                "reserve_effect": "other_part", "prevent_effect": "other_part",
                "other_effect": "other_part"}
ACTIONS = {"play": "play_card", "activate": "activate_ability", "return": "return_early",
           "negate": "negate_ability", "enter_battle": "enter_battle",
           "choose_return": "choose_return", "end_battle": "end_battle", "discard": "discard_card"}
ATTEMPT_KEYS = ("id", "turn", "phase", "player", "on", "targets", "by", "cards", "cause", "role", "opposing_role", "ability",
                "until", "duration", "effect", "opponent_pays", "state_holds", *ACTIONS)
# the fields of a timeline entry that only some kinds of attempt take
APPLIES_TO = {"on": ("play_card", "activate_ability"), "targets": ("play_card", "activate_ability"),
              "by": ("return_early", "negate_ability", "discard_card"), "cards": ("choose_return",),
              "role": ("enter_battle",), "opposing_role": ("enter_battle",), "cause": ("discard_card",),
              "effect": ("play_card", "activate_ability"),
              "opponent_pays": ("play_card", "activate_ability", "negate_ability"),
              "state_holds": ("play_card", "activate_ability", "return_early", "negate_ability")}
# an ability's duration written in words (after an optional 'for '), or as a number of turns
DURATION_WORDS = {"none": "no_duration", "no duration": "no_duration",
                  "until end of battle": "until_end_of_battle", "until the end of battle": "until_end_of_battle",
                  "end of battle": "until_end_of_battle", "the remainder of the game": "for_remainder_of_game",
                  "remainder of the game": "for_remainder_of_game", "the rest of the game": "for_remainder_of_game",
                  "rest of the game": "for_remainder_of_game", "until an event": "until_event", "until event": "until_event"}
DURATION_TURNS = re.compile(r"(up to |at least )?(\d+) turns?")
# the conditions an affliction ability inflicts (`inflicts`), and the kinds an ongoing negation negates (`negates`)
AFFLICTIONS = {"poisoned": "poisoned_condition", "diseased": "diseased_condition",
               "paralyzed": "paralyzed_condition", "decreased": "decreased_condition"}
NEGATABLE_KINDS = {"heal": "heal_effect", "restore abilities": "heal_effect", "afflict": "affliction_effect"}
# the conditions a heal's text may require of its target, as `heals_only` writes them
HEAL_CONDITIONS = {"poisoned": "poisoned_condition", "diseased": "diseased_condition",
                   "paralyzed": "paralyzed_condition", "discarded": "discarded_condition"}
ABILITY_KINDS = {"set aside": "set_aside_effect", "return": "return_effect", "negate": "negate_effect",
                 "heal": "heal_effect", "restore abilities": "heal_effect", "discard": "discard_effect",
                 "afflict": "affliction_effect", "withdraw": "withdraw_effect", "return to hand": "return_to_hand_effect",
                 "shuffle": "shuffle_effect", "capture": "capture_effect", "place in deck": "place_in_deck_effect",
                 "banish": "banish_effect", "reserve": "reserve_effect", "prevent": "prevent_effect",
                 "other": "other_effect"}


def _name(node: YNode, what: str) -> str:
    if isinstance(node, YScalar) and isinstance(node.value, bool) and NAME.match(node.raw):
        node.fail(f"{what} '{node.raw}' is read by YAML as {str(node.value).lower()}: write it in quotes ('{node.raw}')")
    if not isinstance(node, YScalar) or not isinstance(node.value, str) or not NAME.match(node.value):
        shown = repr(node.raw) if isinstance(node, YScalar) else node.kind
        node.fail(f"{what} {shown} must be a lower-case name (letters, digits, _; at most 40)")
    return node.value


def _member(node: YNode, value_set: str, what: str) -> str:
    if not isinstance(node, YScalar) or not isinstance(node.value, str):
        hint = node.yaml11_hint() if isinstance(node, YScalar) else ""
        node.fail(f"{what} must be one of: {', '.join(display_value(v) for v in VALUE_SETS[value_set])}{hint}")
    raw = node.value.strip().replace("-", "_").replace(" ", "_")
    for member in VALUE_SETS[value_set]:
        if member.lower() == raw.lower():
            return member
    options = VALUE_SETS[value_set]
    node.fail(f"unknown {what} '{node.value}'{did_you_mean(raw, options)}; "
              f"one of: {', '.join(display_value(v) for v in options)}")


def _part(node: YNode) -> str:
    """A part of an ability, written `discard` or `discard_part`."""
    text = _scalar(node).text("part").strip().lower().replace(" ", "_").replace("-", "_")
    options = [m.removesuffix("_part") for m in VALUE_SETS["part"]]
    if text.removesuffix("_part") not in options:
        node.fail(f"unknown part '{text}'{did_you_mean(text, options)}; one of: {', '.join(options)}")
    return text.removesuffix("_part") + "_part"


def describe_duration(a: Ability) -> str:
    """How long an ability's effect lasts, in words."""
    if a.duration_kind == "for_turns":
        return f"lasts {a.duration_turns} turn(s)"
    if a.duration_kind == "for_chosen_turns":
        return (f"lasts up to {a.duration_turns} turn(s), as its player picks" if a.duration_turns >= 0
                else f"lasts at least {a.duration_min_turns} turn(s), as its player picks")
    return {"until_end_of_battle": "lasts until end of battle", "for_remainder_of_game": "lasts for the remainder of the game",
            "until_event": "lasts until an event"}.get(a.duration_kind, "has no duration")


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _flag(m: YMap, key: str, default: bool) -> bool:
    node = m.get(key)
    return default if node is None else _scalar(node).boolean(key)


def _scalar(node: YNode) -> YScalar:
    if not isinstance(node, YScalar):
        node.fail(f"expected a single value, got {node.kind}")
    return node


def _mappings(node: YNode, what: str, each: str) -> list[YMap]:
    """The entries of a list whose every entry must be a mapping."""
    if not isinstance(node, YSeq):
        node.fail(f"{what} must be a list")
    for item in node:
        if not isinstance(item, YMap):
            item.fail(f"each {each} must be a mapping")
    return [item for item in node if isinstance(item, YMap)]


def _name_list(node: YNode, what: str) -> list[tuple[str, YNode]]:
    items = list(node) if isinstance(node, YSeq) else [node]
    return [(_name(i, what), i) for i in items]


CASE_KEYS = ("title", "note", "about", "players", "turns", "interpretations", "cards", "timeline", "questions", "expect")


def _reading_limit(limit: str, per: str) -> int:
    """The uses per game or per turn of the limit a reading records ("1/game", "2/turn"); 0: no limit."""
    if not limit or limit.split("/")[1] != per:
        return 0
    return int(limit.split("/")[0])
