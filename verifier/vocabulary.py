"""The vocabulary the rules are written in: sorts, value sets and symbols.

Three kinds of symbol carry a scenario: inputs (what the case states), outcomes (what the
rules decide) and choices (decisions the rules hand to a player). Structure symbols describe
the shape of the scenario (which step an attempt happens at, the phase of a step) and are
known before any rule is read.
"""

from __future__ import annotations

__all__ = [
    "SymbolKind",
    "Symbol",
    "ENTITY_SORTS",
    "ORDERED_SORTS",
    "VALUE_SETS",
    "DOMAINS",
    "SYMBOLS",
    "MEMBER_OF",
    "TYPE_NAMES",
    "display_value",
]

from dataclasses import dataclass
from enum import StrEnum


class SymbolKind(StrEnum):
    """What a symbol stands for."""

    INPUT = "input"
    OUTCOME = "outcome"
    CHOICE = "choice"
    STRUCTURE = "structure"


@dataclass(frozen=True)
class Symbol:
    """A function of the vocabulary with its argument sorts and its value's type."""

    name: str
    kind: SymbolKind
    params: tuple[str, ...]
    result: str
    meaning: str


# Sorts whose members are the scenario's named things.
ENTITY_SORTS = ("player", "card", "ability", "attempt", "modifier")
# Sorts numbered in time order; arithmetic and comparisons are allowed on them.
ORDERED_SORTS = ("step", "turn")

# Fixed value sets of the game. Member names are unique across all sets.
VALUE_SETS: dict[str, tuple[str, ...]] = {
    "card_type": (
        "Hero", "Evil_Character", "GE", "EE", "Weapon", "Artifact", "Fortress", "Site",
        "City", "Curse", "Covenant", "Lost_Soul", "Dominant",
    ),
    "zone": (
        "territory", "field_of_battle", "set_aside_area", "discard_pile", "hand", "draw_pile",
        "land_of_bondage", "artifact_pile", "banish_pile", "reserve", "land_of_redemption",
    ),
    "phase": ("Draw", "Upkeep", "Preparation", "Battle", "Discard"),
    "ability_kind": (
        "set_aside_effect", "return_effect", "negate_effect", "heal_effect", "discard_effect", "affliction_effect",
        "withdraw_effect", "return_to_hand_effect", "shuffle_effect", "capture_effect",
        "place_in_deck_effect", "banish_effect", "reserve_effect", "prevent_effect", "other_effect",
    ),
    "attempt_kind": (
        "play_card", "activate_ability", "return_early", "negate_ability", "enter_battle",
        "choose_return", "end_battle", "discard_card",
    ),
    "state_condition": ("no_state", "card_in_play", "card_you_control", "card_in_battle", "battle_under_way",
                        "state_the_case_states"),
    "payment": ("payment_not_stated", "price_paid", "price_not_paid"),
    "state_statement": ("state_not_stated", "state_held", "state_not_held"),
    "negate_move": ("stays_put", "into_discard_pile", "into_draw_pile", "into_banish_pile", "into_reserve"),
    "part": ("negate_part", "discard_part", "set_aside_part", "heal_part", "other_part"),
    "modifier_scope": ("whole_ability", "ability_type", "excluded_type", "single_effect"),
    "modifier_effect": ("unnegatable", "other_modification"),
    "discard_cause": ("by_special_ability", "by_triggered_rule", "by_battle_resolution"),
    "condition": ("poisoned_condition", "diseased_condition", "paralyzed_condition", "discarded_condition",
                  "decreased_condition"),
    "effect_class": ("plain_effect", "adds_same_side", "adds_opposite_side", "side_battle_effect", "triggered_effect"),
    "battle_role": ("rescuing", "blocking", "attacking", "defending", "taunting", "no_role"),
    "duration_kind": ("no_duration", "for_turns", "until_end_of_battle", "for_remainder_of_game", "until_event",
                      "for_chosen_turns"),
    "brigade": (
        "Blue", "Clay", "Gold", "Green", "Purple", "Red", "Silver", "Teal", "White", "Black",
        "Brown", "Crimson", "Gray", "Orange", "Pale_Green",
    ),
}

MEMBER_OF: dict[str, str] = {m: s for s, members in VALUE_SETS.items() for m in members}

# Quantifier domains: `for c in cards` ranges over the scenario's cards.
DOMAINS: dict[str, str] = {
    "players": "player", "cards": "card", "abilities": "ability", "attempts": "attempt",
    "steps": "step", "turns": "turn", "brigades": "brigade", "zones": "zone", "phases": "phase",
    "modifiers": "modifier", "parts": "part", "conditions": "condition",
}

TYPE_NAMES = ("bool", "int", *ENTITY_SORTS, *ORDERED_SORTS, *VALUE_SETS)

I, O, C, S = SymbolKind.INPUT, SymbolKind.OUTCOME, SymbolKind.CHOICE, SymbolKind.STRUCTURE

_SYMBOLS = [
    # structure of the scenario
    Symbol("step_of", S, ("attempt",), "step", "the step at which an attempt is made"),
    Symbol("attempt_kind", S, ("attempt",), "attempt_kind", "what kind of attempt it is"),
    Symbol("card_of", S, ("attempt",), "card", "the card played, or whose ability is used"),
    Symbol("ability_of", S, ("attempt",), "ability", "the ability the attempt uses"),
    Symbol("played_on", S, ("attempt",), "card", "the character an enhancement is played on"),
    Symbol("plays_on_character", S, ("attempt",), "bool", "the attempt plays a card on a character"),
    Symbol("negated_attempt", S, ("attempt",), "attempt", "the attempt whose ability a negate attempt targets"),
    Symbol("set_aside_attempt", S, ("attempt",), "attempt", "the set-aside a choose-return attempt is about"),
    Symbol("source", S, ("ability",), "card", "the card an ability is written on"),
    Symbol("equipped_to", S, ("card",), "card", "the character a weapon is equipped to (itself otherwise)"),
    Symbol("modifier_of", S, ("modifier",), "ability", "the ability a modifier is part of"),
    Symbol("phase_last", S, ("step",), "step", "the last step of the phase a step belongs to"),
    Symbol("turn_of", S, ("step",), "turn", "the turn a step belongs to"),
    Symbol("phase_of", S, ("step",), "phase", "the phase a step belongs to"),
    Symbol("phase_start", S, ("step",), "bool", "the step is the beginning of its phase"),
    Symbol("active_player", S, ("step",), "player", "the player whose turn it is"),
    Symbol("at", S, ("turn", "phase"), "step", "the last step of a phase of a turn"),
    Symbol("never", S, (), "step", "a step after the end of the timeline"),
    # inputs: what a case states
    Symbol("card_type", I, ("card",), "card_type", "the card's type"),
    Symbol("has_brigade", I, ("card", "brigade"), "bool", "the card belongs to the brigade"),
    Symbol("owner", I, ("card",), "player", "the card's owner"),
    Symbol("permanent_controller", I, ("card",), "player", "the player with permanent control"),
    Symbol("temporary_controller", I, ("card",), "player", "the player controlling it at the start"),
    Symbol("territory_class", I, ("card",), "bool", "the card is Territory Class"),
    Symbol("start_zone", I, ("card",), "zone", "the zone the card starts in"),
    Symbol("start_zone_of", I, ("card",), "player", "whose zone the card starts in"),
    Symbol("ability_kind", I, ("ability",), "ability_kind", "what the ability does"),
    Symbol("duration_kind", I, ("ability",), "duration_kind", "how the ability's duration is given"),
    Symbol("duration_turns", I, ("ability",), "int", "the duration in turns (for a duration the player picks: the most)"),
    Symbol("duration_min_turns", I, ("ability",), "int", "for a duration the player picks: the fewest turns"),
    Symbol("has_paired_ability", I, ("ability",), "bool", "a set-aside effect with a paired ongoing ability"),
    Symbol("has_on_return", I, ("ability",), "bool", "the paired ability has an on-return clause"),
    Symbol("on_return_grants_ability", I, ("ability",), "bool", "the on-return clause gives the card an ability"),
    Symbol("cannot_be_negated", I, ("ability",), "bool", "the card says the ability cannot be negated"),
    Symbol("cannot_be_interrupted", I, ("ability",), "bool", "the card says the ability cannot be interrupted"),
    Symbol("cannot_be_prevented", I, ("ability",), "bool", "the card says the ability cannot be prevented"),
    Symbol("guard_limited", I, ("ability",), "bool",
           "the ability's text limits its guards (cannot be negated, interrupted, prevented) to abilities on cards of "
           "a description ('cannot be negated by an evil card')"),
    Symbol("guard_covers", I, ("ability", "card"), "bool",
           "the card fits the description the ability's text limits its guards to (every card when it names none)"),
    Symbol("target_zone_specified", I, ("ability",), "bool", "the ability names where its targets are"),
    Symbol("target_zone", I, ("ability",), "zone", "the zone the ability names for its targets"),
    Symbol("targets_opponents_cards", I, ("ability",), "bool", "the ability specifically targets an opponent's cards"),
    Symbol("targets_all_in_location", I, ("ability",), "bool", "the ability targets any or all cards in a location"),
    Symbol("fits_description", I, ("ability", "card"), "bool",
           "the card is of the type and brigade the ability's text names for its targets (its own card alone, for "
           "'this Hero')"),
    Symbol("targets_own_cards", I, ("ability",), "bool", "the ability targets only cards its user controls"),
    Symbol("targets_every", I, ("ability",), "bool",
           "the ability's text names 'all' its targets: it targets every card that fits when it is used"),
    Symbol("moves_what_it_negates", I, ("ability",), "negate_move",
           "what the negate ability also does to the card whose ability it negates: discards it ('negate and "
           "discard'), puts it into its owner's draw pile ('negate and underdeck', 'negate and shuffle'), banish pile "
           "('negate and banish') or Reserve ('negate and reserve'), or leaves it where it is"),
    Symbol("discards_itself", I, ("ability",), "bool",
           "the ability's price is its own card: a use of it from play discards that card ('You may discard this "
           "card to ...')"),
    Symbol("negates_the_last_played", I, ("ability",), "bool",
           "the negate ability reaches only the latest play, in the current battle before it, of a card its "
           "description fits ('negate the last evil Enhancement played in battle')"),
    Symbol("reaches_the_last_played", I, ("ability",), "bool",
           "the negate ability also reaches the latest play before it of a card its description fits, wherever that "
           "card is now ('negate an Enhancement or the last Enhancement played')"),
    Symbol("prevents_plays_in_battle", I, ("ability",), "bool",
           "the prevent ability names cards played in battle ('Prevent the next evil Enhancement played in battle')"),
    Symbol("prevents_opponents_plays", I, ("ability",), "bool",
           "the prevent ability names cards an opponent plays ('Prevent the next Enhancement played by opponent')"),
    Symbol("if_state", I, ("ability",), "state_condition",
           "the state the ability's effect waits on, checked as it is used ('If another Moabite is in play, ...'): a "
           "card in play, a card in play its player controls, a card in battle, a battle under way, or none"),
    Symbol("if_fits", I, ("ability", "card"), "bool",
           "the card fits the description the ability's state names (never the ability's own card, for 'another')"),
    Symbol("offers_a_price", I, ("ability",), "bool",
           "the ability's effect happens only if the opponent does not make the move it offers them ('Opponent may "
           "underdeck an evil card from hand. If they do not, ...')"),
    Symbol("min_targets", I, ("ability",), "int", "the fewest cards the ability targets"),
    Symbol("max_targets", I, ("ability",), "int", "the most cards the ability targets (-1: no limit)"),
    Symbol("targets_in_play_too", I, ("ability",), "bool", "the ability names a zone besides play, not instead of it"),
    Symbol("has_part", I, ("ability", "part"), "bool", "the ability has an effect of this part"),
    Symbol("heals_only", I, ("ability", "condition"), "bool", "the heal ability's text names this condition as its requirement"),
    Symbol("inflicts", I, ("ability", "condition"), "bool", "the affliction ability gives its targets this condition"),
    Symbol("negates_kind", I, ("ability", "ability_kind"), "bool",
           "while its card is in play, the ability negates every ability of this kind"),
    Symbol("uses_per_game", I, ("ability",), "int",
           "how many times in a game its card's text lets the ability be used (0: no limit)"),
    Symbol("uses_per_turn", I, ("ability",), "int",
           "how many times in a turn its card's text lets the ability be used (0: no limit)"),
    Symbol("ends_duration", I, ("attempt", "attempt"), "bool",
           "the second attempt is the event that ends the first one's 'until' duration"),
    Symbol("stated_turns", I, ("attempt",), "int",
           "the number of turns the case states for a duration the player picks (0: not stated)"),
    Symbol("payment_stated", I, ("attempt",), "payment",
           "whether the case states that the opponent makes the move the ability used offers them"),
    Symbol("state_stated", I, ("attempt",), "state_statement",
           "whether the case states that the state the ability used waits on, one not read from the cards, holds"),
    Symbol("start_poisoned", I, ("card",), "bool", "the card starts poisoned"),
    Symbol("start_diseased", I, ("card",), "bool", "the card starts diseased"),
    Symbol("start_paralyzed", I, ("card",), "bool", "the card starts paralyzed"),
    Symbol("start_decreased", I, ("card",), "bool", "the card starts with its abilities decreased"),
    Symbol("start_tied_effect", I, ("card",), "bool", "an ongoing effect tied to the card's condition is active at the start"),
    Symbol("modifier_scope", I, ("modifier",), "modifier_scope", "what the modifier targets"),
    Symbol("modifier_part", I, ("modifier",), "part", "the type of ability or effect the modifier names"),
    Symbol("modifier_effect", I, ("modifier",), "modifier_effect", "what the modifier does"),
    Symbol("modifier_condition", I, ("modifier",), "bool", "the modifier's conditions hold"),
    Symbol("granted_to", I, ("modifier", "ability"), "bool", "the modifier is granted to the ability"),
    Symbol("discard_cause", I, ("attempt",), "discard_cause", "what is discarding the cards"),
    Symbol("effect_class", I, ("ability",), "effect_class", "what kind of effect the ability has, for activation order"),
    Symbol("written_order", I, ("ability",), "int", "the ability's place among those written on its card"),
    Symbol("gained_order", I, ("ability",), "int", "the order in which the ability was gained (0: printed)"),
    Symbol("adds", I, ("ability", "card"), "bool", "the ability adds the character to the battle"),
    Symbol("triggered_by_entry", I, ("ability", "card"), "bool",
           "the ability's trigger names the character entering battle (\"when a Hero enters battle\")"),
    Symbol("add_order", I, ("ability", "card"), "int", "the character's place among those the ability adds"),
    Symbol("entry_role", I, ("attempt",), "battle_role", "the status of the characters played into battle"),
    Symbol("opposing_role", I, ("attempt",), "battle_role", "the status of the other side of that battle"),
    Symbol("player_of", I, ("attempt",), "player", "the player making the attempt"),
    Symbol("targets", I, ("attempt", "card"), "bool", "the attempt targets the card"),
    # outcomes: what the rules decide
    Symbol("zone", O, ("card", "step"), "zone", "the zone a card is in after a step"),
    Symbol("zone_of", O, ("card", "step"), "player", "whose zone the card is in after a step"),
    Symbol("controller", O, ("card", "step"), "player", "who controls the card after a step"),
    Symbol("moved", O, ("card", "step"), "bool", "the card changes zone at the step"),
    Symbol("battle_ongoing", O, ("step",), "bool", "a battle is in progress after the step"),
    Symbol("legal", O, ("attempt",), "bool", "the attempt is allowed by the rules"),
    Symbol("legal_target", O, ("attempt", "card"), "bool", "the card may be targeted by the attempt"),
    Symbol("negated", O, ("attempt",), "bool", "the attempt's ability is negated"),
    Symbol("prevented", O, ("attempt",), "bool", "the ability of the card the attempt plays is prevented as it is played"),
    Symbol("set_aside", O, ("attempt", "card"), "bool", "the attempt sets the card aside"),
    Symbol("counts_own_upkeep", O, ("attempt",), "bool", "the Upkeep in which the card was set aside counts toward its duration"),
    Symbol("scheduled_return", O, ("attempt",), "step", "the step at which the set-aside duration has the cards return"),
    Symbol("early_return", O, ("attempt", "card"), "step", "the step at which an effect returns the card early"),
    Symbol("return_step", O, ("attempt", "card"), "step", "the step at which the card returns from set-aside"),
    Symbol("premature", O, ("attempt", "card"), "bool", "the card returned before its specified duration"),
    Symbol("paired_ends", O, ("attempt",), "step", "the step at which the paired ability ends"),
    Symbol("paired_targets", O, ("attempt", "card"), "bool", "the paired ability of the set-aside targets the card"),
    Symbol("on_return_fires", O, ("attempt",), "bool", "the on-return clause triggers and is carried out"),
    Symbol("has_gained_ability", O, ("card", "step"), "bool", "the card has an ability gained from being set aside"),
    Symbol("gained_ability_negatable", O, ("card", "step"), "bool", "the gained ability can be negated"),
    Symbol("poisoned", O, ("card", "step"), "bool", "the card is poisoned after the step"),
    Symbol("diseased", O, ("card", "step"), "bool", "the card is diseased after the step"),
    Symbol("paralyzed", O, ("card", "step"), "bool", "the card is paralyzed after the step"),
    Symbol("decreased", O, ("card", "step"), "bool", "the card's abilities are decreased after the step"),
    Symbol("tied_effect_active", O, ("card", "step"), "bool", "an ongoing effect tied to the card's condition is active"),
    Symbol("healed", O, ("card", "step"), "bool", "the card is healed at the step"),
    Symbol("being_discarded", O, ("card", "step"), "bool", "a discard of the card is in progress after the step"),
    Symbol("discard_completes", O, ("attempt", "card"), "bool", "the discard of the card completes"),
    Symbol("modifies", O, ("modifier", "ability", "part"), "bool", "the modifier modifies that part of the ability"),
    Symbol("modifier_active", O, ("modifier", "step"), "bool", "the modifier is in force after the step"),
    Symbol("participates", O, ("attempt", "card"), "bool", "the character's abilities activate in the attempt's sequence"),
    Symbol("activation_rank", O, ("attempt", "ability"), "int", "the ability's place in the activation sequence (0: not in it)"),
    Symbol("battle_role", O, ("attempt", "card"), "battle_role", "the character's status in the battle, as verified"),
    Symbol("blocked", O, ("attempt",), "bool", "the battle counts as blocked when verified at step 6"),
    # choices: decisions the rules give a player
    Symbol("return_choice", C, ("attempt", "card"), "step", "when the controller chooses to return the card"),
    Symbol("chosen_turns", C, ("attempt",), "int", "the number of turns the player picks for a duration the card leaves open"),
    Symbol("opponent_pays", C, ("attempt",), "bool",
           "the opponent makes the move the ability used offers them, which keeps its effect from happening"),
]

SYMBOLS: dict[str, Symbol] = {s.name: s for s in _SYMBOLS}

_PRETTY_ZONES = {
    "field_of_battle": "field of battle",
    "set_aside_area": "set-aside area",
    "discard_pile": "discard pile",
    "draw_pile": "draw pile",
    "land_of_bondage": "Land of Bondage",
    "artifact_pile": "artifact pile",
    "banish_pile": "banish pile",
    "land_of_redemption": "Land of Redemption",
}


def display_value(value: object) -> str:
    """A value as the game would say it (zones with spaces, yes/no for truth values)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return _PRETTY_ZONES.get(value, value.replace("_", " "))
    return str(value)
