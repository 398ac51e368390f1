"""The reference of the case language and the JSON Schemas of case, scope and ruling files, made from
the loaders' own key lists, value sets, limits and defaults and from the vocabulary.

Every key a loader accepts must be described in `FIELDS`; `reference_markdown` and `schemas`
refuse to run when one is not (or when a description names a key no loader accepts), so a field
added to a loader without a description fails the tests that compare the committed files.
"""

from __future__ import annotations

__all__ = ["FieldSpec", "FIELDS", "reference_markdown", "schemas", "SCHEMA_FILES", "REFERENCE_FILE"]

import json
import re
from dataclasses import dataclass

from .explore.scope import MAX_CANDIDATES, OUTCOME_SYMBOLS, SCOPE_KEYS
from .language.encoding import RULE_ID, STATEMENT_ID
from .language.types import BUILTINS, QUESTION_FORMS
from .ruling import RULE_KEYS, RULING_ID, RULING_KEYS, RULING_ONLY_KEYS
from .scenario.cardreading import BOOK_WORDS, BRIGADE_COUNT_WORDS, TRAIT_WORDS, TRAITS
from .scenario.sections.fields import (
    ABILITY_KEYS,
    ABILITY_KINDS,
    ACTIONS,
    AFFLICTIONS,
    APPLIES_TO,
    ATTEMPT_KEYS,
    CARD_KEYS,
    CASE_KEYS,
    CONDITION_WORDS,
    CONDITIONS,
    DEFAULTS,
    DURATION_TURNS,
    DURATION_WORDS,
    HEAL_CONDITIONS,
    MAX_CARDS,
    MAX_PLAYERS,
    MAX_TURNS,
    MODIFIER_KEYS,
    NAME,
    NEGATABLE_KINDS,
    VERDICT_NAMES,
)
from .vocabulary import DOMAINS, SYMBOLS, VALUE_SETS, SymbolKind, display_value

REFERENCE_FILE = "docs/case-format.md"
SCHEMA_FILES = {"case": "schemas/case.schema.json", "scope": "schemas/scope.schema.json",
                "ruling": "schemas/ruling.schema.json"}
SCHEMA_DRAFT = "https://json-schema.org/draft/2020-12/schema"

Schema = dict[str, object]


@dataclass(frozen=True)
class FieldSpec:
    """What one key of a file holds: its value written for people, its JSON Schema, its meaning."""

    shown: str
    schema: Schema
    meaning: str
    default: str = ""


def _letters(text: str, separator: str = "[-_ ]") -> str:
    """A regular expression matching `text` in any case, with `_` or a space matching `-`, `_` or a space."""
    out = []
    for ch in text:
        if ch.isalpha():
            out.append(f"[{ch.upper()}{ch.lower()}]")
        elif ch in "_ ":
            out.append(separator)
        else:
            out.append(re.escape(ch))
    return "".join(out)


def _one_of_words(words: list[str], suffix: str = "", separator: str = "[-_ ]") -> Schema:
    """Text that is one of `words` as the loader reads them (any case, `-`, `_` or a space between words)."""
    return {"type": "string",
            "pattern": r"^\s*(?:" + "|".join(_letters(w, separator) for w in words) + ")" + suffix + r"\s*$"}


def _caseless(pattern: str) -> str:
    """A regular expression matching what `pattern` matches in any case (escapes such as \\d kept)."""
    out, i = [], 0
    while i < len(pattern):
        if pattern[i] == "\\":
            out.append(pattern[i:i + 2])
            i += 2
            continue
        ch = pattern[i]
        out.append(f"[{ch.upper()}{ch.lower()}]" if ch.isalpha() else ch)
        i += 1
    return "".join(out)


def _member(value_set: str) -> Schema:
    """A member of a value set: offered by name to editors, read in any case with `-`, `_` or spaces."""
    members = list(VALUE_SETS[value_set])
    return {"anyOf": [{"enum": members}, _one_of_words(members)]}


def _members_shown(value_set: str) -> str:
    return ", ".join(f"`{display_value(m)}`" for m in VALUE_SETS[value_set])


NAME_SCHEMA: Schema = {"type": "string", "pattern": NAME.pattern}
TEXT: Schema = {"type": "string", "pattern": r"\S"}
# a trait as the loader reads it: any case, dots anywhere ("N.T.", "nt")
def _any_case(word: str) -> str:
    return "".join(r"\s+" if ch == " " else f"[{ch.upper()}{ch.lower()}]" for ch in word)


# a trait word (`cardreading.TRAIT_WORDS`, dots allowed between letters), or "from <book>" (`BOOK_WORDS`)
TRAIT_SCHEMA: Schema = {"type": "string", "pattern": r"^\s*(?:\.*(?:" + "|".join(
    "".join(f"[{ch.upper()}{ch.lower()}]\\.*" for ch in w) for w in sorted(TRAIT_WORDS)) + r")|[Ff][Rr][Oo][Mm]\s+(?:"
    + "|".join(_any_case(b) for b in sorted(BOOK_WORDS)) + r"))\s*$"}
# a trait a target description may name besides: "multi-brigade", "single-brigade" (`cardreading.BRIGADE_COUNT_WORDS`)
TARGET_TRAIT_SCHEMA: Schema = {"anyOf": [TRAIT_SCHEMA, {"type": "string", "pattern": r"^\s*(?:" + "|".join(
    _any_case(w) for w in sorted(BRIGADE_COUNT_WORDS)) + r")\s*$"}]}
BOOL: Schema = {"type": "boolean"}


def _integer(low: int, high: int) -> Schema:
    return {"type": "integer", "minimum": low, "maximum": high}


def _one_or_list(item: Schema, at_least: int = 0) -> Schema:
    listed: Schema = {"type": "array", "items": item, **({"minItems": at_least} if at_least else {})}
    return {"anyOf": [item, listed]}


def _ref(name: str) -> Schema:
    return {"$ref": f"#/$defs/{name}"}


NAMES = _one_or_list(NAME_SCHEMA)
PARTS = [m.removesuffix("_part") for m in VALUE_SETS["part"]]
EXPRESSION: Schema = {"type": ["string", "number", "boolean"]}
ANSWER: Schema = {"anyOf": [{"type": ["string", "number", "boolean"]}, {"type": "array", "items": NAME_SCHEMA}]}


def _case_fields() -> dict[str, FieldSpec]:
    return {
        "title": FieldSpec("text", TEXT, "A one-line title shown with every result.", "the file's name"),
        "note": FieldSpec("text", {"type": "string"},
                          "Free text for people: what the case shows and why. A `FINDING` part is the note "
                          "`regcheck gate --accept-findings` gives a new accepted finding."),
        "about": FieldSpec("list of statement IDs", {"type": "array", "items": {"type": "string"}},
                           "The statements of `rules/` the case is about, for people (regcheck does not read it)."),
        "players": FieldSpec(f"list of 2 to {MAX_PLAYERS} names",
                             {"type": "array", "items": NAME_SCHEMA, "minItems": 2, "maxItems": MAX_PLAYERS,
                              "uniqueItems": True},
                             "The players, in turn order: the first takes turn 1, the second turn 2, and so on."),
        "turns": FieldSpec(f"whole number, 1 to {MAX_TURNS}", _integer(1, MAX_TURNS),
                           "How many turns the scenario lasts; at least the last turn of the timeline.",
                           DEFAULTS["turns"]),
        "interpretations": FieldSpec("rule ID or list of them", _one_or_list({"type": "string", "pattern": RULE_ID.pattern}),
                                     "Interpretation rules (marked `interpretation` in `encodings/`) this case "
                                     "uses instead of the rules they replace.", "none"),
        "cards": FieldSpec(f"mapping of card names to cards (at most {MAX_CARDS})",
                           {"type": "object", "minProperties": 1, "maxProperties": MAX_CARDS,
                            "propertyNames": NAME_SCHEMA, "additionalProperties": _ref("card")},
                           "The cards of the scenario, each under the name questions and the timeline use "
                           "(see [Cards](#cards))."),
        "timeline": FieldSpec("list of timeline entries", {"type": "array", "items": _ref("entry")},
                              "The attempts made, in time order (see [Timeline entries](#timeline-entries)).",
                              "no attempts"),
        "questions": FieldSpec("mapping of question names to expressions",
                               {"type": "object", "minProperties": 1, "propertyNames": NAME_SCHEMA,
                                "additionalProperties": EXPRESSION},
                               "What to ask: each an expression over the [vocabulary](#vocabulary), or a "
                               "[question form](#question-forms)."),
        "expect": FieldSpec("mapping of question names to expectations",
                            {"type": "object", "propertyNames": NAME_SCHEMA, "additionalProperties": _ref("expectation")},
                            "The verdict each question must get (see [Expectations](#expectations)); a question "
                            "left out fails only on a contradiction or `unknown`.", "none"),
    }


def _card_fields() -> dict[str, FieldSpec]:
    fields = {
        "card": FieldSpec("text: a printed card's name", TEXT,
                          "A real card of the card list: its type, brigades, Territory Class and abilities are "
                          "read from its printed text (`regcheck cards NAME` shows the reading). regcheck does not "
                          "model protection (\"protect ... from ...\", \"immune ... while set aside\"): a case "
                          "holding a card that protects (a set-aside's paired protection: once the set-aside is "
                          "used) is refused when another card's attempt could meet the protection (any but a heal, "
                          "a choice of return, or entering or ending battle; against evil cards, not one of a Hero "
                          "or Good Enhancement; guarding only the cards set aside, or cards in set-aside areas, one "
                          "that targets such a card); against capture it decides nothing."),
        "type": FieldSpec("card type", _member("card_type"), f"The card's type: {_members_shown('card_type')}.",
                          "the real card's type (required without `card`)"),
        "brigade": FieldSpec("brigade or list of them", _one_or_list(_member("brigade")),
                             f"The card's brigades: {_members_shown('brigade')}. A real card the card list gives as "
                             "\"Multi\" (a multicolored icon box) is of every brigade of its alignment when it is a "
                             "Hero, Evil Character or enhancement; any other \"Multi\" card needs its `brigade`.",
                             "the real card's brigades, else " + DEFAULTS["brigade"]),
        "owner": FieldSpec("player name", NAME_SCHEMA, "The player who owns the card.", DEFAULTS["owner"]),
        "controller": FieldSpec("player name", NAME_SCHEMA, "The player with permanent control of the card.",
                                DEFAULTS["controller"]),
        "temporary_controller": FieldSpec("player name", NAME_SCHEMA, "The player controlling the card at the start.",
                                          DEFAULTS["temporary_controller"]),
        "territory_class": FieldSpec("true or false", BOOL, "The card is Territory Class.",
                                     "the real card's text, else " + DEFAULTS["territory_class"]),
        "zone": FieldSpec("zone", _member("zone"), f"The zone the card starts in: {_members_shown('zone')}.",
                          DEFAULTS["zone"]),
        "zone_of": FieldSpec("player name", NAME_SCHEMA, "Whose zone the card starts in.", DEFAULTS["zone_of"]),
        "abilities": FieldSpec("list of abilities", {"type": "array", "items": _ref("ability")},
                               "The card's special abilities written by hand (see [Abilities](#abilities)); they "
                               "replace the abilities read from a real card's text.",
                               "the real card's abilities, else none"),
        "x": FieldSpec("whole number, 0 to 100", _integer(0, 100),
                       "The card's X, where a real card's text depends on it (for X turns, X cards)."),
        "adds": FieldSpec("card name or list of them", NAMES,
                          "The characters a real card's band ability (\"May band to ...\", or an Enhancement's \"Hero "
                          "may band to ...\") adds to the battle, in order, when its holder enters it or the "
                          "Enhancement is played in battle; abilities written by hand say it under the ability.",
                          "none"),
        "equipped_to": FieldSpec("card name", NAME_SCHEMA, "The character a Weapon is equipped to.", "not equipped"),
        "traits": FieldSpec("trait or list of them", _one_or_list(TRAIT_SCHEMA),
                            "What the card is, of the traits target descriptions name: "
                            + ", ".join(f"`{t}`" for t in TRAITS) + ", and `from <book>` for a book of the Bible "
                            "(`from Exodus`, `from I Samuel`: CORE-15-R3). The list is the card's whole answer: a trait "
                            "left out is one it lacks (`traits: []` for none). A case that uses an ability naming a "
                            "trait for its targets (\"a human Hero\") on a card whose traits it does not list is "
                            "refused, unless the card list's identifiers give the card that trait. For a real "
                            "character the card list's class settles `warrior` (GLOSS-23): the card has it when its "
                            "class is Warrior and lacks it otherwise, and a `traits:` saying otherwise is an error; "
                            "a real card's reference settles the books it is from, when it names only books of the "
                            "Bible.",
                            DEFAULTS["traits"]),
        "alignment": FieldSpec("`good`, `evil` or `neutral`", _one_of_words(["good", "evil", "neutral"]),
                               "The card's alignment, for a card whose type does not give one (Heroes and good "
                               "enhancements are good, Evil Characters and evil enhancements evil). A case that uses "
                               "an ability naming an alignment for its targets (\"an evil card\") where a card's "
                               "alignment is not known is refused.", DEFAULTS["alignment"]),
    }
    for key, word in CONDITION_WORDS.items():
        fields[key] = FieldSpec("true or false", BOOL, f"The card starts {word}.", "false")
    assert set(CONDITIONS) == set(CONDITION_WORDS)
    return fields


def _ability_fields() -> dict[str, FieldSpec]:
    kinds = list(ABILITY_KINDS)
    return {
        "kind": FieldSpec("ability kind", {"anyOf": [{"enum": kinds}, _one_of_words(kinds)]},
                          "What the ability does: " + ", ".join(f"`{k}` ({display_value(v)})"
                                                                for k, v in ABILITY_KINDS.items()) + "."),
        "duration": FieldSpec(f"whole number of turns (1 to {MAX_TURNS}), or text",
                              {"anyOf": [_integer(1, MAX_TURNS),
                                         {"type": "string", "pattern": r"^\s*(?:[Ff][Oo][Rr] \s*)?(?:"
                                          + "|".join(_letters(w, " ") for w in DURATION_WORDS) + "|"
                                          + _caseless(DURATION_TURNS.pattern) + r")\s*$"}]},
                              "How long the ability lasts: a number of turns, or one of "
                              + ", ".join(f"`{w}`" for w in DURATION_WORDS) + ", `N turns`, `up to N turns`, "
                              "`at least N turns` (the player picks the number; see the entry's `duration`), "
                              "each with an optional `for ` before it.", DEFAULTS["ability duration"]),
        "paired": FieldSpec("true or false", BOOL, "A set-aside effect with a paired ongoing ability.", "false"),
        "on_return": FieldSpec("true or false", BOOL,
                               "The paired ability has an on-return clause (implies `paired`).", "false"),
        "grants": FieldSpec("true or false", BOOL,
                            "The on-return clause gives the card an ability (needs `on_return`).", "false"),
        "cannot_be_negated": FieldSpec("true or false", BOOL, "The card says the ability cannot be negated.", "false"),
        "cannot_be_interrupted": FieldSpec("true or false", BOOL,
                                           "The card says the ability cannot be interrupted (CBN-1-R1).", "false"),
        "cannot_be_prevented": FieldSpec("true or false", BOOL,
                                         "The card says the ability cannot be prevented (CBN-9).", "false"),
        "cannot_be_negated_by": FieldSpec("description", {"type": "string", "minLength": 1},
                                          "The card limits the ability's guards (`cannot_be_negated` and its "
                                          "siblings) to abilities on cards of this description, as in \"cannot be "
                                          "negated by an evil card\" (CBN-6-R3): types, alignment and brigade.",
                                          "every card"),
        "and_discard": FieldSpec("true or false", BOOL,
                                 "A negate (`kind: negate`) that also discards the card whose ability it negates "
                                 "(\"negate and discard\", DISC-1-R1).", "false"),
        "and_place": FieldSpec("true or false", BOOL,
                               "A negate (`kind: negate`) that also puts the card whose ability it negates into its "
                               "owner's draw pile (\"negate and underdeck\", \"negate and shuffle\", PLACE-1-R2).",
                               "false"),
        "and_banish": FieldSpec("true or false", BOOL,
                                "A negate (`kind: negate`) that also puts the card whose ability it negates into "
                                "its owner's banish pile (\"negate and banish\", BAN-1-R2).", "false"),
        "and_reserve": FieldSpec("true or false", BOOL,
                                 "A negate (`kind: negate`) that also puts the card whose ability it negates into "
                                 "its owner's Reserve (\"negate and reserve\", RSV-3-R3).", "false"),
        "played_in_battle": FieldSpec("true or false", BOOL,
                                      "A prevent (`kind: prevent`) of the next cards \"played in battle\": it names "
                                      "only cards played while a battle is under way (PREV-11-R1).", "false"),
        "played_by_opponent": FieldSpec("true or false", BOOL,
                                        "A prevent (`kind: prevent`) of the next cards \"played by opponent\": it "
                                        "names only cards an opponent of its user plays (PREV-11-R1).", "false"),
        "if_state": FieldSpec("state", _member("state_condition"),
                              "The state the ability's effect waits on, checked as it is used (TRIG-3, TRIG-3-R1): "
                              "`card_in_play` (\"If a priest is in play\"), `card_you_control` (\"If you control a "
                              "priest\"), `card_in_battle` (\"If an evil Enhancement is in battle\"), "
                              "`battle_under_way` (\"If played in battle\") or `state_the_case_states` (\"If "
                              "blocking\", a state regcheck does not check from the cards, TRIG-3-R2: each timeline "
                              "entry using the ability says whether it holds, with `state_holds`); when it does not "
                              "hold, the effect does not happen.", "no_state"),
        "if_description": FieldSpec("description", {"type": "string", "minLength": 1},
                                    "The cards the state of `if_state` names, in the card's words (\"a priest\", "
                                    "\"an evil Enhancement\"): types, alignment, brigade and traits.", "none"),
        "if_another": FieldSpec("true or false", BOOL,
                                "The state names a card other than the ability's own (\"If another Moabite is in "
                                "play\").", "false"),
        "offers_a_price": FieldSpec("true or false", BOOL,
                                    "The ability's effect happens only if the opponent does not make a move it "
                                    "offers them (\"Opponent may underdeck an evil card from hand. If they do not, "
                                    "...\", \"... Opponent may ... instead\"; CORE-19-R2): whether they make it is "
                                    "their choice, which a timeline entry may state with `opponent_pays`.", "false"),
        "targets_itself": FieldSpec("true or false", BOOL,
                                    "The ability's one target is its own card (\"You may withdraw this Hero.\"); "
                                    "an attempt using it names that card under `targets`.", "false"),
        "price_itself": FieldSpec("true or false", BOOL,
                                  "The ability's price is its own card (\"You may discard this card to ...\"): a "
                                  "use of it from play (`activate`) discards that card (CORE-19-R1); a play of the "
                                  "card that uses it is refused.", "false"),
        "last_played": FieldSpec("true or false", BOOL,
                                 "A negate (`kind: negate`) of \"the last Enhancement played in battle\": it reaches "
                                 "only the latest play, in the current battle before it, of a card its target "
                                 "description fits (TGT-27-R1).", "false"),
        "or_last_played": FieldSpec("true or false", BOOL,
                                    "A negate (`kind: negate`) of \"an Enhancement or the last Enhancement played\": "
                                    "besides the cards its target description fits where it looks, it reaches the "
                                    "latest play before it of such a card, wherever that card is now (TGT-27-R2).",
                                    "false"),
        "target_zone": FieldSpec("zone", _member("zone"), "The zone the ability names for its targets.",
                                 DEFAULTS["ability target_zone"]),
        "also_in_play": FieldSpec("true or false", BOOL,
                                  "The named `target_zone` is besides play, not instead of it (needs `target_zone`).",
                                  "false"),
        "targets_opponents": FieldSpec("true or false", BOOL, "The ability specifically targets an opponent's cards.",
                                       "false"),
        "targets_all_in_location": FieldSpec("true or false", BOOL, "The ability targets any or all cards in a location.",
                                             "false"),
        "text": FieldSpec("text", TEXT, "The ability's wording, shown in explanations."),
        "parts": FieldSpec("part or non-empty list of parts",
                           _one_or_list(_one_of_words(PARTS, "(?:[-_ ][Pp][Aa][Rr][Tt])?"), at_least=1),
                           "The kinds of effect the ability has, for modifiers: "
                           + ", ".join(f"`{p}`" for p in PARTS) + " (with or without `_part`).",
                           "the part of its kind"),
        "class": FieldSpec("effect class", _member("effect_class"),
                           f"The kind of effect, for activation order: {_members_shown('effect_class')}.",
                           "plain effect"),
        "gained": FieldSpec("whole number, 1 to 100", _integer(1, 100),
                            "The order in which the card gained this ability.", "printed on the card"),
        "adds": FieldSpec("card name or list of them", NAMES,
                          "The characters (Heroes or Evil Characters) the ability adds to the battle, in order; only "
                          "with `class` `adds same side`, `adds opposite side` or `side battle effect`.", "none"),
        "modifiers": FieldSpec("list of modifiers", {"type": "array", "items": _ref("modifier")},
                               "What the ability changes about other abilities (see [Modifiers](#modifiers)).",
                               "none"),
        "heals_only": FieldSpec("condition or list of them",
                                _one_or_list({"type": "string", "pattern": r"^\s*(?:[Bb][Ee][Ii][Nn][Gg] )?(?:"
                                             + "|".join(_letters(w) for w in HEAL_CONDITIONS) + r")\s*$"}),
                                "The conditions a heal's text requires of its target: "
                                + ", ".join(f"`{w}`" for w in HEAL_CONDITIONS) + " (or `being discarded`).", "none"),
        "inflicts": FieldSpec("condition or list of them", _one_or_list(_one_of_words(list(AFFLICTIONS))),
                              "What an affliction ability (kind `afflict`) inflicts: "
                              + ", ".join(f"`{w}`" for w in AFFLICTIONS) + ".", "none"),
        "negates": FieldSpec("ability kind or list of them", _one_or_list(_one_of_words(list(NEGATABLE_KINDS), "", "[_ ]")),
                             "The kinds of ability an ongoing negation negates while its card is in play: "
                             + ", ".join(f"`{w}`" for w in NEGATABLE_KINDS) + ".", "none"),
        "target_type": FieldSpec("card type or list of them", _one_or_list(_member("card_type")),
                                 "The card types the ability names for its targets (CORE-15); for an ability that "
                                 "adds characters to battle, the types it can add (CORE-16): "
                                 f"{_members_shown('card_type')}.", "any"),
        "target_alignment": FieldSpec("`good` or `evil`", _one_of_words(["good", "evil"]),
                                      "The alignment the ability names for its targets (\"an evil card\", \"a good "
                                      "card\"), CORE-15.", "none"),
        "target_traits": FieldSpec("trait or list of them", _one_or_list(TARGET_TRAIT_SCHEMA),
                                   "The traits the ability names for its targets (\"a human Hero\", \"N.T. "
                                   "Heroes\"), CORE-15: a target must have every one (see the card's `traits`); "
                                   "besides, `multi-brigade` or `single-brigade`, which a card has by the number of "
                                   "its brigades (CORE-15-R5).",
                                   "none"),
        "limit": FieldSpec("text", {"type": "string",
                                    "pattern": r"^\s*(?:[Oo][Nn][Cc][Ee]|[Tt][Ww][Ii][Cc][Ee]|[0-9]+ [Tt][Ii][Mm][Ee][Ss])"
                                               r" [Pp][Ee][Rr] (?:[Gg][Aa][Mm][Ee]|[Tt][Uu][Rr][Nn])\s*$"},
                           "How often the card's text lets the ability be used (CORE-17): `once per game`, "
                           "`twice per turn`, `N times per game` (or `per turn`); a further use is not legal.",
                           "no limit"),
        "targets_own": FieldSpec("true or false", BOOL,
                                 "The ability targets only cards its user controls (\"your\").", "false"),
        "target_count": FieldSpec("whole number, `up to N`, `at least N`, `all` or `any number`",
                                  {"anyOf": [_integer(1, MAX_CARDS), {"type": "string", "pattern": (
                                      r"^\s*(?:[Aa][Nn][Yy]\s+[Nn][Uu][Mm][Bb][Ee][Rr]|[Aa][Ll][Ll]|"
                                      r"(?:[Uu][Pp]\s+[Tt][Oo]|"
                                      r"[Aa][Tt]\s+[Ll][Ee][Aa][Ss][Tt])\s+[1-9][0-9]*)\s*$")}]},
                                  "How many cards the ability names for its targets (CORE-15): a number for "
                                  "exactly that many (\"a Hero\" is `1`), `up to N`, `at least N` (\"one or "
                                  "more\" is `at least 1`), `any number` (\"any number of\") or `all` (every "
                                  "card that fits when it is used, and no other).",
                                  "any number"),
        "when_enters_battle": FieldSpec("card type or list of them", _one_or_list(_member("card_type")),
                                        "A triggered ability: it activates at step 9 of the activation order when a "
                                        "character of this type is played into battle or added (AAO-16); leave out "
                                        "`class`.", "not triggered"),
    }


def _modifier_fields() -> dict[str, FieldSpec]:
    return {
        "scope": FieldSpec("modifier scope", _member("modifier_scope"),
                           f"What the modifier targets: {_members_shown('modifier_scope')}."),
        "part": FieldSpec("part", _one_of_words(PARTS, "(?:[-_ ][Pp][Aa][Rr][Tt])?"),
                          "The type of ability or effect it names (needed unless the scope is the whole ability).",
                          "other part"),
        "effect": FieldSpec("modifier effect or `cannot be negated`",
                            {"anyOf": [_member("modifier_effect"), _one_of_words(["cannot be negated"])]},
                            f"What the modifier does: {_members_shown('modifier_effect')}.", "other modification"),
        "condition": FieldSpec("true or false", BOOL, "The modifier's conditions hold.", "true"),
        "granted_to": FieldSpec("ability ID or list of them", NAMES,
                                "The abilities (`CARD_aN`) the modifier is granted to.", "its own ability"),
    }


ACTION_MEANINGS = {
    "play": "play the card (an enhancement on the character named by `on`)",
    "activate": "use a special ability of the card",
    "return": "return the listed set-aside cards early, by the return ability of the card named by `by`",
    "negate": "negate the ability used by an earlier attempt (its `id`), by the card named by `by`",
    "enter_battle": "the listed characters enter battle",
    "choose_return": "the controller chooses to return the cards set aside by an earlier attempt (its `id`)",
    "end_battle": "the battle ends (`end_battle: true`)",
    "discard": "discard the listed cards (by the card named by `by`, or for the `cause` given)",
}


def _entry_fields() -> dict[str, FieldSpec]:
    def applies(key: str) -> str:
        if key not in APPLIES_TO:
            return ""
        return " Only for " + ", ".join(f"`{a}`" for a, k in ACTIONS.items() if k in APPLIES_TO[key]) + " entries."

    fields = {
        "id": FieldSpec("name", NAME_SCHEMA, "The attempt's name, used by questions and later entries.",
                        "ACTION_N (N: its place in the timeline)"),
        "turn": FieldSpec(f"whole number, 1 to {MAX_TURNS}", _integer(1, MAX_TURNS), "The turn of the attempt."),
        "phase": FieldSpec("phase", _member("phase"), f"The phase of the attempt: {_members_shown('phase')}."),
        "player": FieldSpec("player name", NAME_SCHEMA, "The player making the attempt.", DEFAULTS["attempt player"]),
        "on": FieldSpec("card name", NAME_SCHEMA, "The character an enhancement is played on." + applies("on")),
        "targets": FieldSpec("card name or list of them", NAMES, "The cards the attempt targets." + applies("targets"),
                             "none"),
        "by": FieldSpec("card name", NAME_SCHEMA, "The card whose ability makes the attempt." + applies("by")),
        "cards": FieldSpec("card name or list of them", NAMES,
                           "The cards chosen to return." + applies("cards"), "every card the set-aside targets"),
        "cause": FieldSpec("discard cause", _member("discard_cause"),
                           f"What discards the cards: {_members_shown('discard_cause')}." + applies("cause"),
                           "by special ability"),
        "role": FieldSpec("battle role", _member("battle_role"),
                          f"The status of the characters entering battle: {_members_shown('battle_role')}."
                          + applies("role"), "rescuing"),
        "opposing_role": FieldSpec("battle role", _member("battle_role"),
                                   "The status of the other side of the battle." + applies("opposing_role"), "blocking"),
        "ability": FieldSpec("number or block label", {"anyOf": [{"type": "integer"}, TEXT]},
                             "Which ability of the card the entry uses: its number, or its block label "
                             "(such as GE or EE); needed when the card has more than one it could use. A block "
                             "labelled GE or EE on an enhancement (a dual card's) is used only when the card is "
                             "stated as that type: GE, played on a Hero; EE, on an Evil Character (CORE-18).",
                             "the card's one ability of the kind needed"),
        "effect": FieldSpec("text", TEXT,
                            "For a real card whose text offers a choice of effects (\"Heal an Evil Character or "
                            "underdeck a Hero\"): the one this entry uses, `heal` (the other is not modelled).",
                            "none (required for such a card)"),
        "until": FieldSpec("attempt id", NAME_SCHEMA,
                           "The later attempt that ends the duration of the ability this entry uses, when its "
                           "duration is `until an event`. A real card's \"until <card> is played\" ends at every "
                           "later play of a card of the card list with that name (any printing): leave `until` out.",
                           "none"),
        "opponent_pays": FieldSpec("true or false", BOOL,
                                   "For an ability that offers the opponent a move keeping its effect from happening "
                                   "(`offers_a_price`, CORE-19-R2): whether the opponent makes it. Left out, it is "
                                   "the opponent's choice, and an answer that depends on it is choice-dependent."
                                   + applies("opponent_pays"), "not stated: the opponent's choice"),
        "state_holds": FieldSpec("true or false", BOOL,
                                 "For an ability whose effect waits on a state regcheck does not check from the cards "
                                 "(`if_state: state_the_case_states`, \"If blocking, ...\", TRIG-3-R2): whether it "
                                 "holds as this entry uses the ability; a case that leaves it out is not answered."
                                 + applies("state_holds"), "none: the case is refused"),
        "duration": FieldSpec("whole number of turns", {"type": "integer"},
                              "The number of turns the player picks for an ability whose duration is `up to N "
                              "turns` or `at least N turns`.", "none stated"),
    }
    action_schemas: dict[str, Schema] = {
        "play": NAME_SCHEMA, "activate": NAME_SCHEMA, "return": NAMES, "negate": NAME_SCHEMA,
        "enter_battle": NAMES, "choose_return": NAME_SCHEMA, "end_battle": {"const": True}, "discard": NAMES,
    }
    for action in ACTIONS:
        shown = {"return": "card name or list", "enter_battle": "card name or list", "discard": "card name or list",
                 "negate": "attempt id", "choose_return": "attempt id", "end_battle": "`true`"}.get(action, "card name")
        fields[action] = FieldSpec(shown, action_schemas[action], f"The entry's action: {ACTION_MEANINGS[action]}.")
    return fields


def _expectation_fields() -> dict[str, FieldSpec]:
    return {
        "verdict": FieldSpec("verdict", {"enum": list(VERDICT_NAMES)},
                             "The verdict: " + ", ".join(f"`{v}`" for v in VERDICT_NAMES) + "."),
        "value": FieldSpec("the question's value", ANSWER,
                           "The value of a `determined` question, written as the output shows it (`yes`, "
                           "`set-aside area`, `turn 3 Preparation`, a name, or an activation sequence "
                           "`a1 -> a2`)."),
    }


def _scope_fields() -> dict[str, FieldSpec]:
    return {
        "attempts": FieldSpec(f"list of timeline entries (at most {MAX_CANDIDATES})",
                              {"type": "array", "maxItems": MAX_CANDIDATES, "items": _ref("entry")},
                              "The attempts that may happen, written like timeline entries without `turn` and "
                              "`phase` (or with them, to pin an attempt there).", "none"),
        "phases": FieldSpec("list of phases", {"type": "array", "minItems": 1, "items": {"enum": list(VALUE_SETS["phase"])}},
                            "The phases attempts may be made in.", "all five"),
        "per_phase": FieldSpec("whole number, 1 to 8", _integer(1, 8),
                               "At most this many of the attempts in one phase.", "1"),
        "max_attempts": FieldSpec(f"whole number, 0 to {MAX_CANDIDATES}", _integer(0, MAX_CANDIDATES),
                                  "At most this many of the attempts in one scenario.", "all of them"),
        "templates": FieldSpec("list of outcome symbols", {"type": "array", "items": {"enum": list(OUTCOME_SYMBOLS)}},
                               "The outcome symbols asked of every argument a scenario offers.",
                               "every outcome symbol"),
    }


def _ruling_fields() -> dict[str, FieldSpec]:
    return {
        "ruling": FieldSpec("ruling ID", {"type": "string", "pattern": RULING_ID.pattern},
                            "The ruling's ID, like `RUL-UPKEEP-1` (capital letters, digits and `-`)."),
        "rules": FieldSpec("list of rules", {"type": "array", "minItems": 1, "items": _ref("rule")},
                           "General rules proposed, written as in `encodings/` (see [Rules](#rules-of-a-ruling)).",
                           "none"),
        "claims": FieldSpec("mapping of question names to values",
                            {"type": "object", "minProperties": 1, "propertyNames": NAME_SCHEMA,
                             "additionalProperties": ANSWER},
                            "The answers the ruling gives to its scenario's questions, written as `expect` "
                            "values.", "none"),
    }


def _rule_fields() -> dict[str, FieldSpec]:
    return {
        "id": FieldSpec("rule ID", {"type": "string", "pattern": RULE_ID.pattern}, "The rule's ID, like `RUL-UPKEEP-1`."),
        "cites": FieldSpec("list of statement IDs", {"type": "array", "minItems": 1,
                                                     "items": {"type": "string", "pattern": STATEMENT_ID.pattern}},
                           "The statements of `rules/` the rule restates."),
        "says": FieldSpec("text", {"type": "string"}, "The rule in English, with `{name}` fields naming its variables."),
        "for": FieldSpec("mapping of variable names to sorts",
                         {"type": "object", "additionalProperties": {"type": "string"}},
                         "The variables the rule ranges over, like `{c: card, s: step}`.", "none"),
        "requires": FieldSpec("expression", EXPRESSION, "The condition (true or false) the rule requires."),
    }


def _fields() -> dict[str, tuple[tuple[str, ...], dict[str, FieldSpec]]]:
    """Each part of a file: the keys its loader accepts, and their descriptions."""
    return {
        "case": (CASE_KEYS, _case_fields()),
        "card": (CARD_KEYS, _card_fields()),
        "ability": (ABILITY_KEYS, _ability_fields()),
        "modifier": (MODIFIER_KEYS, _modifier_fields()),
        "entry": (ATTEMPT_KEYS, _entry_fields()),
        "expectation": (("verdict", "value"), _expectation_fields()),
        "scope": (SCOPE_KEYS, _scope_fields()),
        "ruling": (RULING_KEYS, _ruling_fields()),
        "rule": (RULE_KEYS, _rule_fields()),
    }


def FIELDS() -> dict[str, tuple[tuple[str, ...], dict[str, FieldSpec]]]:  # noqa: N802 - reads as a table
    """Each part of a file with its accepted keys and their descriptions; refuses a key without one."""
    out = _fields()
    for part, (keys, specs) in out.items():
        missing = [k for k in keys if k not in specs]
        extra = [k for k in specs if k not in keys]
        if missing or extra:
            raise RuntimeError(f"the reference of '{part}' does not match its loader: "
                               f"undescribed {missing}, described but not accepted {extra}")
    return out


# -- JSON Schemas ------------------------------------------------------------------------------

def _object(keys: tuple[str, ...], specs: dict[str, FieldSpec], required: tuple[str, ...] = ()) -> Schema:
    out: Schema = {"type": "object",
                   "properties": {k: {**specs[k].schema, "description": _plain(specs[k].meaning)} for k in keys},
                   "additionalProperties": False}
    if required:
        out["required"] = list(required)
    return out


def _plain(text: str) -> str:
    """A meaning as an editor shows it: without Markdown links."""
    return re.sub(r"\[([^\]]+)\]\(#[^)]+\)", r"\1", text)


def _defs(fields: dict[str, tuple[tuple[str, ...], dict[str, FieldSpec]]]) -> dict[str, Schema]:
    card_keys, card_specs = fields["card"]
    ability_keys, ability_specs = fields["ability"]
    modifier_keys, modifier_specs = fields["modifier"]
    entry_keys, entry_specs = fields["entry"]
    exp_keys, exp_specs = fields["expectation"]
    rule_keys, rule_specs = fields["rule"]
    entry = _object(entry_keys, entry_specs)
    entry["oneOf"] = [{"required": [a]} for a in ACTIONS]
    return {
        "card": _object(card_keys, card_specs),
        "ability": _object(ability_keys, ability_specs, ("kind",)),
        "modifier": _object(modifier_keys, modifier_specs, ("scope",)),
        "entry": entry,
        "expectation": {"anyOf": [{"enum": list(VERDICT_NAMES)}, _object(exp_keys, exp_specs, ("verdict",))]},
        "rule": _object(rule_keys, rule_specs, ("id", "cites", "says", "requires")),
    }


def schemas() -> dict[str, Schema]:
    """The JSON Schemas of case, scope and ruling files (draft 2020-12), by kind of file."""
    fields = FIELDS()
    case_keys, case_specs = fields["case"]
    scope_keys, scope_specs = fields["scope"]
    ruling_keys, ruling_specs = fields["ruling"]
    defs = _defs(fields)
    header: Schema = {"$schema": SCHEMA_DRAFT}
    case = {**header, "title": "regcheck case file",
            **_object(case_keys, case_specs, ("players", "cards", "questions")), "$defs": defs}
    scope_own = tuple(k for k in case_keys if k != "expect")
    scope = {**header, "title": "regcheck scope file",
             **_object(scope_own + scope_keys, {**case_specs, **scope_specs}, ("players", "cards", "turns")),
             "$defs": defs}
    all_specs = {**case_specs, **ruling_specs}
    rules_only = _object(RULING_ONLY_KEYS, all_specs, ("ruling",))
    rules_only["anyOf"] = [{"required": ["rules"]}]
    with_scenario = _object(case_keys + ruling_keys, all_specs, ("ruling", "players", "cards", "questions", "claims"))
    ruling = {**header, "title": "regcheck ruling file",
              "description": "A ruling proposes general rules (`rules`), or claims answers to the questions of a "
                             "scenario written in it (`claims`), or both.",
              "if": {"required": ["questions"]}, "then": with_scenario, "else": rules_only, "$defs": defs}
    return {"case": case, "scope": scope, "ruling": ruling}


def schema_text(kind: str) -> str:
    """One schema as the committed file holds it."""
    return json.dumps(schemas()[kind], indent=2, ensure_ascii=False) + "\n"


# -- the reference -----------------------------------------------------------------------------

def _table(keys: tuple[str, ...], specs: dict[str, FieldSpec], required: tuple[str, ...] = ()) -> list[str]:
    rows = ["| field | value | default | meaning |", "| --- | --- | --- | --- |"]
    for k in keys:
        s = specs[k]
        default = "required" if k in required else s.default or "none"
        rows.append(f"| `{k}` | {s.shown} | {default} | {s.meaning} |")
    return rows


def _symbol_line(name: str) -> str:
    s = SYMBOLS[name]
    return f"| `{name}({', '.join(s.params)})` | {s.result} | {s.meaning} |"


FORM_MEANINGS = {
    "activation_order": "the whole order in which abilities activate when characters are played into battle; "
                        "a whole question, never part of an expression",
    "implies": "the first is false or the second true",
}


def reference_markdown() -> str:
    """The reference of case, scope and ruling files and of the question vocabulary, as Markdown."""
    f = FIELDS()
    out = [
        "# The case language",
        "",
        "This reference is generated from regcheck's own code (`regcheck docs`); do not edit it by hand.",
        "Run `regcheck docs --write` after changing a loader or the vocabulary, and commit the result",
        "with the JSON Schemas under `schemas/`.",
        "",
        "Files are YAML. Names (players, cards, attempt ids, question names) are lower-case letters, digits",
        "and `_`, at most 40 characters, starting with a letter. Values of a fixed set (zones, phases,",
        "types...) may be written in any case, with `-`, `_` or a space between words",
        "(`set-aside area`, `set_aside_area`).",
        "",
        "## Case files",
        "",
        *_table(f["case"][0], f["case"][1], ("players", "cards", "questions")),
        "",
        "## Cards",
        "",
        "Each entry of `cards` maps a name to these fields.",
        "",
        *_table(f["card"][0], f["card"][1]),
        "",
        "## Abilities",
        "",
        "Each entry of a card's `abilities`; the first is the card's ability 1 (ID `CARD_a1`), and so on.",
        "",
        *_table(f["ability"][0], f["ability"][1], ("kind",)),
        "",
        "## Modifiers",
        "",
        "Each entry of an ability's `modifiers`; the first of ability `CARD_a1` is `CARD_a1_m1`.",
        "",
        *_table(f["modifier"][0], f["modifier"][1], ("scope",)),
        "",
        "## Timeline entries",
        "",
        "Each entry has exactly one action and a `turn` and `phase` (in a scope's `attempts`, `turn` and",
        "`phase` are optional). The actions, and the fields each one takes besides `id`, `turn`, `phase`",
        "and `player`:",
        "",
        "| action | attempt kind | fields | what happens |",
        "| --- | --- | --- | --- |",
    ]
    for action, kind in ACTIONS.items():
        extra = [k for k, kinds in APPLIES_TO.items() if kind in kinds]
        if kind in ("play_card", "activate_ability", "return_early", "negate_ability") or kind == "discard_card":
            extra.append("ability")
        out.append(f"| `{action}` | {display_value(kind)} | {', '.join(f'`{e}`' for e in extra) or 'none'} "
                   f"| {ACTION_MEANINGS[action]} |")
    out += ["", *_table(f["entry"][0], f["entry"][1]), ""]
    out += [
        "## Expectations",
        "",
        "Each entry of `expect` maps a question name to a verdict name, or to a mapping:",
        "",
        *_table(f["expectation"][0], f["expectation"][1], ("verdict",)),
        "",
        "A `determined` expectation needs its `value`; no other verdict takes one.",
        "",
        "## Scope files",
        "",
        "A scope (`regcheck explore`) is a case file without `expect`, with `turns` required, and these",
        "fields besides:",
        "",
        *_table(f["scope"][0], f["scope"][1]),
        "",
        "## Ruling files",
        "",
        "A ruling (`regcheck ruling`) has these fields and `title` and `note`; a ruling with a scenario",
        "also has every field of a case file (without `expect`) and `claims`.",
        "",
        *_table(f["ruling"][0], f["ruling"][1], ("ruling",)),
        "",
        "### Rules of a ruling",
        "",
        *_table(f["rule"][0], f["rule"][1], ("id", "cites", "says", "requires")),
        "",
        "## Defaults",
        "",
        "What a case leaves unsaid (`regcheck defaults`; `regcheck check --show-defaults` lists, for a",
        "case, each input left to one):",
        "",
        "| input | default |",
        "| --- | --- |",
        *[f"| {k} | {v} |" for k, v in DEFAULTS.items()],
        "",
        "## Vocabulary",
        "",
        "Questions are expressions over these symbols, written like function calls",
        "(`zone(elijah, at(2, Battle))`), with `==`, `!=`, `<`, `<=`, `and`, `or`, `not`, arithmetic on",
        "numbers, steps and turns, and the quantifiers `any(... for x in DOMAIN)`,",
        "`all(...)`, `count(...)`, `sum(...)`. A step is written `at(TURN, PHASE)` (the last step of",
        "that phase), `step_of(ATTEMPT)` or `never`. Definitions of `encodings/` may be used like symbols.",
        "",
        "A definition may apply itself at the step before: a **recurrence**, the value at step `s` worked out",
        "from the value at `s - 1`, written with its step parameter one less and its other parameters",
        "unchanged (`battle_ended_since(x, s - 1)` inside `battle_ended_since(x, s)`). It is a truth value or a",
        "number; outside the timeline (at `s - 1` of the first step, or at `never`) it is false, or 0. A state",
        "carried from one step to the next is written this way rather than as a look-back over every earlier",
        "step (`any(... for t in steps if t < s)`), so that grounding grows linearly in the steps.",
        "",
    ]
    titles = {SymbolKind.OUTCOME: ("Outcomes", "what the rules decide; the usual subject of a question"),
              SymbolKind.CHOICE: ("Choices", "decisions the rules hand a player"),
              SymbolKind.INPUT: ("Inputs", "what a case states"),
              SymbolKind.STRUCTURE: ("Structure", "the shape of the scenario, known before any rule is read")}
    for kind, (title, what) in titles.items():
        out += [f"### {title}", "", f"Symbols of this kind are {what}.", "",
                "| symbol | value | meaning |", "| --- | --- | --- |",
                *[_symbol_line(s.name) for s in SYMBOLS.values() if s.kind is kind], ""]
    out += ["### Question forms", "", "| form | value | meaning |", "| --- | --- | --- |"]
    for name, (params, result) in {**QUESTION_FORMS, **BUILTINS}.items():
        if name not in FORM_MEANINGS:
            raise RuntimeError(f"the reference does not describe the form '{name}'")
        out.append(f"| `{name}({', '.join(params)})` | {result} | {FORM_MEANINGS[name]} |")
    out += ["", "### Value sets", "", "| sort | values |", "| --- | --- |",
            *[f"| {name} | {', '.join(f'`{display_value(m)}`' for m in members)} |"
              for name, members in VALUE_SETS.items()],
            "", "### Quantifier domains", "", "| domain | ranges over |", "| --- | --- |",
            *[f"| `{d}` | every {s} of the scenario |" for d, s in DOMAINS.items()], ""]
    return "\n".join(out)
