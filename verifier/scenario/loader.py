"""Read a case file into a `Scenario`, validating every field and pinning every input.

What a case leaves unsaid takes a documented default (see `DEFAULTS`); every default that
is applied becomes a fact marked as such, so `regcheck check --show-defaults` can show it.
"""

from __future__ import annotations

__all__ = ["load_case", "scenario_from_tree", "read_questions", "DEFAULTS", "VERDICT_NAMES", "ACTIONS", "CASE_KEYS",
           "CARD_KEYS", "ABILITY_KEYS", "MODIFIER_KEYS", "ATTEMPT_KEYS", "APPLIES_TO", "ABILITY_KINDS", "HEAL_CONDITIONS",
           "DURATION_WORDS", "DURATION_TURNS", "AFFLICTIONS", "NEGATABLE_KINDS"]

import re
from pathlib import Path

from ..errors import CaseError, CaseRefused, Location
from ..escaping import how_they_differ, quoted
from ..language.encoding import RuleBase, parse_at
from ..language.syntax import Call, walk
from ..language.types import QUESTION_FORMS, TypeScope, infer
from ..vocabulary import MEMBER_OF, SYMBOLS, VALUE_SETS, display_value
from ..yamlsource import YMap, YNode, YScalar, YSeq, did_you_mean, editor_lines, load_yaml
from .cardreading import TRAITS, USE_LIMIT, AbilityReading, trait_named, use_count
from .cards import RealCard, find_card, is_named, overrides, printings_named, read_card
from .descriptions import TYPE_ALIGNMENT, alignment_of
from .model import (
    NEVER_LABEL,
    Ability,
    Attempt,
    Card,
    Claim,
    Expectation,
    Fact,
    Modifier,
    Question,
    Scenario,
    Step,
    step_label,
)
from .refusals import Unmodelled, refuse_unanswerable

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
              "list give it, which do not record humanity, gender or, for most cards, testament; an ability naming "
              "a trait for its targets is refused on a card that leaves that trait open",
    "ability duration": "none (no duration unless stated)",
    "ability paired / on_return / grants / cannot_be_negated / and_discard": "false",
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
             "territory_class", "zone", "zone_of", "abilities", "x", "equipped_to", "traits", "alignment",
             *CONDITIONS)
ABILITY_KEYS = ("kind", "duration", "paired", "on_return", "grants", "cannot_be_negated",
                "target_zone", "also_in_play", "targets_opponents", "targets_all_in_location", "text",
                "parts", "class", "gained", "adds", "modifiers", "heals_only", "inflicts", "negates",
                "target_type", "targets_own", "when_enters_battle", "target_traits", "target_count", "limit",
                "target_alignment", "cannot_be_interrupted", "cannot_be_prevented", "and_discard")
MODIFIER_KEYS = ("scope", "part", "effect", "condition", "granted_to")
DEFAULT_PART = {"set_aside_effect": "set_aside_part", "return_effect": "other_part", "negate_effect": "negate_part",
                "heal_effect": "heal_part", "discard_effect": "discard_part", "affliction_effect": "other_part",
                "other_effect": "other_part"}
ACTIONS = {"play": "play_card", "activate": "activate_ability", "return": "return_early",
           "negate": "negate_ability", "enter_battle": "enter_battle",
           "choose_return": "choose_return", "end_battle": "end_battle", "discard": "discard_card"}
ATTEMPT_KEYS = ("id", "turn", "phase", "player", "on", "targets", "by", "cards", "cause", "role", "opposing_role", "ability",
                "until", "duration", "effect", *ACTIONS)
# the fields of a timeline entry that only some kinds of attempt take
APPLIES_TO = {"on": ("play_card", "activate_ability"), "targets": ("play_card", "activate_ability"),
              "by": ("return_early", "negate_ability", "discard_card"), "cards": ("choose_return",),
              "role": ("enter_battle",), "opposing_role": ("enter_battle",), "cause": ("discard_card",),
              "effect": ("play_card", "activate_ability")}
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
                 "afflict": "affliction_effect", "other": "other_effect"}


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


class _CaseReader:
    def __init__(self, root: YNode, text: str, display: str, other_keys: tuple[str, ...],
                 questions_required: bool = True) -> None:
        self.path = display
        self.text = text
        self.questions_required = questions_required
        if not isinstance(root, YMap):
            root.fail("a case must be a mapping with players, cards, timeline and questions")
        root.check_keys(CASE_KEYS + other_keys, "a case")
        self.root = root
        self.facts: list[Fact] = []
        # abilities of real cards with unsupported parts: refused when the timeline uses them
        self.refused: dict[str, tuple[str, tuple[str, ...], YNode]] = {}
        # abilities of real cards whose text lets the player pick another effect instead ("... or underdeck a Hero")
        self.alternatives: dict[str, tuple[str, str, tuple[str, ...]]] = {}
        # what the real cards say that regcheck does not carry out: refused where it could matter
        self.unmodelled = Unmodelled(self.locate)
        self.labels: dict[str, str] = {}  # the block label of each real card's ability (GE, EE, ...)
        self.blocks: dict[str, tuple[str, ...]] = {}  # the ability blocks of each real card's text, as shown
        self.until_nodes: dict[str, YNode] = {}  # where each attempt is written, or its 'until:' when it has one
        # the card whose play ends each ability read from a text lasting "until <card> is played"
        self.until_played: dict[str, str] = {}
        self.raw_modifiers: list[tuple[str, str, str, str, str, bool, list[tuple[str, YNode]], YMap]] = []
        self.lines = editor_lines(self.text)

    def locate(self, card: str) -> Location:
        """Where a card is written in the case."""
        cards = self.root.get("cards")
        if isinstance(cards, YMap):
            for key, _ in cards.entries:
                if key.value == card:
                    return key.loc
        return self.root.loc

    def fact(self, symbol: str, args: tuple[str, ...], value: object, text: str, loc: Location,
             default: bool = False) -> None:
        self.facts.append(Fact(symbol, args, value, text, loc, default))

    # -- players -------------------------------------------------------------------------
    def players(self) -> tuple[str, ...]:
        node = self.root.require("players", "the case")
        if not isinstance(node, YSeq) or not 2 <= len(node.items) <= MAX_PLAYERS:
            node.fail(f"players must be a list of 2 to {MAX_PLAYERS} names; the first takes turn 1")
        names = []
        for p in node:
            name = _name(p, "player")
            if name in MEMBER_OF or name in SYMBOLS:
                p.fail(f"player name '{name}' is a word of the rules vocabulary; pick another")
            names.append(name)
        if len(set(names)) != len(names):
            node.fail("player names must differ")
        return tuple(names)

    # -- cards -----------------------------------------------------------------------------
    def cards(self, players: tuple[str, ...]) -> tuple[list[Card], list[Ability]]:
        node = self.root.require("cards", "the case")
        if not isinstance(node, YMap) or not node.entries:
            node.fail("cards must map card names to their attributes")
        if len(node.entries) > MAX_CARDS:
            node.fail(f"at most {MAX_CARDS} cards")
        cards: list[Card] = []
        abilities: list[Ability] = []
        for key, body in node.entries:
            name = _name(key, "card name")
            if name in players:
                key.fail(f"card '{name}' has the same name as a player")
            if name in MEMBER_OF or name in SYMBOLS:
                key.fail(f"card name '{name}' is a word of the rules vocabulary; pick another")
            if not isinstance(body, YMap):
                body.fail(f"card '{name}' must be a mapping of attributes")
            body.check_keys(CARD_KEYS, f"card '{name}'")
            card, abils = self.card(name, body, key.loc, players)
            cards.append(card)
            abilities.extend(abils)
        self.refuse_overrides_that_need(cards, node)
        return cards, abilities

    def refuse_overrides_that_need(self, cards: list[Card], node: YMap) -> None:
        """An override that set aside a part only while some other card is absent: refuse a case holding both."""
        printed = {c.real_card: c.name for c in cards if c.real_card}
        for key, body in node.entries:
            if not isinstance(body, YMap) or body.get("card") is None or body.get("abilities") is not None:
                continue
            real_node = body.require("card", "a card")
            real = find_card(_scalar(real_node).text("card"))
            o = overrides().get(real.name) if isinstance(real, RealCard) else None
            if o is None:
                continue
            for other in o.refused_with():
                if other in printed:
                    raise CaseRefused(f"the reviewed reading of {quoted(o.card)} leaves out what it says about "
                                      f"{quoted(other)}, which this case holds as '{printed[other]}': write the "
                                      f"ability of '{key.value}' by hand under 'abilities:'", real_node.loc)
            for ctype in o.unless_types:
                held = next((c.name for c in cards if c.type == ctype), None)
                if held is not None:
                    raise CaseRefused(f"the reviewed reading of {quoted(o.card)} leaves out what it says about a "
                                      f"{display_value(ctype)}, and this case holds one ('{held}'): write the "
                                      f"ability of '{key.value}' by hand under 'abilities:'", real_node.loc)

    def _player(self, node: YNode | None, players: tuple[str, ...], what: str, default: str) -> tuple[str, bool]:
        if node is None:
            return default, True
        if isinstance(node, YScalar) and node.value is None:
            node.fail(f"{what} must be a player name, got nothing")
        value = _name(node, what)
        if value not in players:
            node.fail(f"unknown player '{value}'{did_you_mean(value, players)}")
        return value, False

    def card(self, name: str, body: YMap, loc: Location, players: tuple[str, ...]) -> tuple[Card, list[Ability]]:
        real: RealCard | None = None
        real_node = body.get("card")
        if real_node is not None:
            title = _scalar(real_node).text("card")
            found = find_card(title)
            if not isinstance(found, RealCard):
                hint = f"; did you mean {', '.join(quoted(f) for f in found)}?" if found else ""
                differ = how_they_differ(title, found[0]) if found else ""
                real_node.fail(f"no card named {quoted(title)} in the card list{hint}"
                               + (f" ({differ})" if differ else ""))
            real = found
            if real.later_identity:
                for key, what in (("type", "type"), ("brigade", "brigade")):
                    if body.get(key) is None:
                        real_node.fail(f"{quoted(real.identity or title)} is the second identity of {quoted(real.name)}: "
                                       f"the card list gives the {what} of the card as it enters play, not of "
                                       f"{quoted(real.identity or title)}; state its '{key}'")
        type_node = body.get("type")
        if type_node is not None:
            ctype = _member(type_node, "card_type", "card type")
        elif real is not None and real.type is not None:
            ctype = real.type
        else:
            (real_node or body).fail(f"card '{name}' needs a 'type'" +
                                     (" (its printed type is not modelled)" if real else ""))
        brigade_node = body.get("brigade")
        if brigade_node is not None:
            brigades = tuple(sorted({_member(b, "brigade", "brigade") for b in
                                     (brigade_node if isinstance(brigade_node, YSeq) else [brigade_node])}))
        else:
            if real is not None and real.brigade_unread:
                real_node.fail(f"the card list gives the brigade of {quoted(real.name)} as "  # type: ignore[union-attr]
                               f"{quoted(real.brigade_unread)}, a multicolored brigade regcheck reads only for a "
                               "Hero, Evil Character or enhancement printed with 'Multi' alone; state its 'brigade'")
            brigades = real.brigades if real else ()
        owner, d_owner = self._player(body.get("owner"), players, "owner", players[0])
        perm, d_perm = self._player(body.get("controller"), players, "controller", owner)
        temp, d_temp = self._player(body.get("temporary_controller"), players, "temporary controller", perm)
        tc_node = body.get("territory_class")
        tc = _scalar(tc_node).boolean("territory_class") if tc_node else (real.territory_class if real else False)
        zone_node = body.get("zone")
        zone = _member(zone_node, "zone", "zone") if zone_node else (
            "territory" if ctype in ("Hero", "Evil_Character") else "hand")
        zone_of, d_zone_of = self._player(body.get("zone_of"), players, "zone_of", owner)

        self.fact("card_type", (name,), ctype, f"{name}'s type is {display_value(ctype)}", loc,
                  type_node is None and real is None)
        for b in VALUE_SETS["brigade"]:
            self.fact("has_brigade", (name, b), b in brigades,
                      f"{name} is {'' if b in brigades else 'not '}of the {display_value(b)} brigade",
                      (brigade_node or body).loc, brigade_node is None and real is None)
        self.fact("owner", (name,), owner, f"{name} is owned by {owner}", (body.get("owner") or body).loc, d_owner)
        self.fact("permanent_controller", (name,), perm, f"{perm} has permanent control of {name}",
                  (body.get("controller") or body).loc, d_perm)
        self.fact("temporary_controller", (name,), temp, f"{temp} controls {name} at the start",
                  (body.get("temporary_controller") or body).loc, d_temp)
        self.fact("territory_class", (name,), tc, f"{name} is {'' if tc else 'not '}Territory Class",
                  (tc_node or body).loc, tc_node is None and real is None)
        self.fact("start_zone", (name,), zone, f"{name} starts in the {display_value(zone)}",
                  (zone_node or body).loc, zone_node is None)
        self.fact("start_zone_of", (name,), zone_of, f"{name} starts in {zone_of}'s {display_value(zone)}",
                  (body.get("zone_of") or body).loc, d_zone_of)

        for key, symbol in CONDITIONS.items():
            node = body.get(key)
            value = _scalar(node).boolean(key) if node else False
            self.fact(symbol, (name,), value,
                      f"{name} {'is' if value else 'is not'} {CONDITION_WORDS[key]} at the start",
                      (node or body).loc, node is None)
        equipped = body.get("equipped_to")
        equipped_to = _name(equipped, "equipped_to") if equipped else None
        if equipped_to is not None and ctype != "Weapon":
            equipped.fail("only a Weapon can be equipped to a character")  # type: ignore[union-attr]
        abilities = self.abilities(name, body, real)
        traits_node = body.get("traits")
        stated = self.traits_of(traits_node, "trait") if traits_node is not None else ()
        listed = real.traits if real is not None and not real.later_identity else ()
        alignment_node = body.get("alignment")
        stated_alignment = _word(alignment_node, "alignment", ALIGNMENT_WORDS) if alignment_node else None
        if stated_alignment is not None and ctype in TYPE_ALIGNMENT and stated_alignment != TYPE_ALIGNMENT[ctype]:
            alignment_node.fail(f"a {display_value(ctype)} is {TYPE_ALIGNMENT[ctype]}; "  # type: ignore[union-attr]
                                f"'alignment: {stated_alignment}' contradicts its type")
        return Card(name, real.name if real else None, real.text if real else "", ctype, brigades,
                    owner, perm, temp, tc, zone, zone_of, tuple(a.id for a in abilities),
                    equipped_to, tuple(sorted(set(stated) | set(listed))), traits_node is not None,
                    alignment_of(ctype, stated_alignment)), abilities

    def traits_of(self, node: YNode, what: str) -> tuple[str, ...]:
        """Traits written in a case (`human`, `male`, `N.T.`, `Corinth`, ...), as the card grammar names them."""
        out = []
        for item in node if isinstance(node, YSeq) else [node]:
            word = _scalar(item).text(what)
            trait = trait_named(word)
            if trait is None:
                item.fail(f"unknown {what} '{word.strip()}'{did_you_mean(word.strip(), TRAITS)}; one of: {', '.join(TRAITS)}")
            out.append(trait)
        return tuple(dict.fromkeys(out))

    def abilities(self, card: str, body: YMap, real: RealCard | None) -> list[Ability]:
        node = body.get("abilities")
        out: list[Ability] = []
        if node is None:
            if real is None:
                return out
            reading = read_card(real, cached=True)
            self.blocks[card] = tuple(f"{a.number}{' (' + a.label + ')' if a.label else ''}: "
                                      f"{display_value(a.kind) if a.kind else 'nothing the model uses'}"
                                      for a in reading.abilities)
            for a in reading.abilities:
                said = tuple(p.text for p in a.pieces if any(f == "protects" for f, _ in p.mapped))
                if a.kind is None:
                    if a.protections:  # a protection in a block with no ability of the case still holds
                        self.unmodelled.protections[f"{card} block {a.number}"] = (real.name, card, a.protections, said,
                                                                        body.get("card") or body, None)
                    continue
                ability = self.from_reading(card, a.number, a, real, body)
                if a.duration_kind == "until_event":
                    self.until_card_played(ability.id, a, real, body.get("card") or body)
                if a.label:
                    self.labels[ability.id] = a.label
                if a.unsupported:
                    own = tuple(u for u in reading.unsupported if re.match(rf"ability {a.number}\b(?! *\d)", u))
                    self.refused[ability.id] = (real.name, own, body.get("card") or body)
                if a.alternatives:
                    self.alternatives[ability.id] = (real.name, a.kind or "", a.alternatives)
                if a.on_return_changes:
                    clause = next((p.text for p in a.pieces if p.kind == "on_return"), "")
                    self.unmodelled.on_return_effects[ability.id] = (real.name, card, a.on_return_changes, clause,
                                                          body.get("card") or body)
                if a.requires:
                    self.unmodelled.requirements[ability.id] = (real.name, a.requires, body.get("card") or body)
                if a.use_changes:
                    words = next((p.text for p in a.pieces if any(f == "use_changes" for f, _ in p.mapped)), "")
                    self.unmodelled.use_effects[ability.id] = (real.name, card, a.use_changes, words, body.get("card") or body)
                if a.protections:
                    self.unmodelled.protections[ability.id] = (real.name, card, a.protections, said, body.get("card") or body,
                                                    ability.id)
                self.ability_facts(ability, body.loc, from_text=True)
                out.append(ability)
            return out
        if body.get("x") is not None:
            body.get("x").fail("x is only read for a real card's text; state the ability instead")  # type: ignore[union-attr]
        for i, item in enumerate(_mappings(node, "abilities", "ability"), 1):
            item.check_keys(ABILITY_KEYS, "an ability")
            kind_node = item.require("kind", "an ability")
            kind_text = _scalar(kind_node).text("kind").strip().lower().replace("-", " ").replace("_", " ")
            if kind_text not in ABILITY_KINDS:
                kind_node.fail(f"unknown ability kind '{kind_text}'{did_you_mean(kind_text, ABILITY_KINDS)}; "
                               f"one of: {', '.join(ABILITY_KINDS)}")
            dkind, min_turns, turns = self.duration(item.get("duration"))
            tz_node = item.get("target_zone")
            target_zone = _member(tz_node, "zone", "target zone") if tz_node else None
            text_node = item.get("text")
            on_return = _flag(item, "on_return", False)
            kind = ABILITY_KINDS[kind_text]
            parts_node = item.get("parts")
            if isinstance(parts_node, YSeq) and not parts_node.items:
                parts_node.fail("'parts' names no part: an ability has at least one (leave 'parts' out for its "
                                "kind's usual part)")
            parts = (tuple(sorted({_part(p) for p in (parts_node if isinstance(parts_node, YSeq) else [parts_node])}))
                     if parts_node is not None else (DEFAULT_PART[kind],))
            class_node = item.get("class")
            trigger_node = item.get("when_enters_battle")
            trigger_types = self.target_types(trigger_node, "character type")
            if trigger_node is not None and class_node is not None and _member(
                    class_node, "effect_class", "ability class") != "triggered_effect":
                class_node.fail("an ability with 'when_enters_battle' has a triggered effect: leave out 'class' "
                                "or write 'class: triggered_effect'")
            gained_node = item.get("gained")
            adds_node = item.get("adds")
            adding = ("adds_same_side", "adds_opposite_side", "side_battle_effect")
            if adds_node is not None and (class_node is None
                                          or _member(class_node, "effect_class", "ability class") not in adding):
                shown = [display_value(c) for c in adding]
                adds_node.fail("'adds' names the characters an ability adds to battle, and only an ability of class "
                               f"{', '.join(shown[:-1])} or {shown[-1]} adds any (AAO-9, AAO-12, AAO-14): give the "
                               "ability its 'class'")
            ability_id = f"{card}_a{i}"
            count = self.target_count(item.get("target_count"))
            per_game, per_turn = self.use_limit(item.get("limit"))
            ability = Ability(
                ability_id, card, kind, dkind, turns,
                _flag(item, "paired", False) or on_return, on_return, _flag(item, "grants", False),
                _flag(item, "cannot_be_negated", False), target_zone,
                _flag(item, "targets_opponents", False), _flag(item, "targets_all_in_location", False),
                _scalar(text_node).text("text") if text_node else "",
                also_in_play=_flag(item, "also_in_play", False),
                parts=parts,
                effect_class=(_member(class_node, "effect_class", "ability class") if class_node
                              else "triggered_effect" if trigger_node is not None else "plain_effect"),
                gained_order=_scalar(gained_node).integer("gained", 1, 100) if gained_node else 0,
                adds=tuple(n for n, _ in _name_list(adds_node, "added character")) if adds_node else (),
                heals_only=self.conditions_of(item.get("heals_only")),
                duration_min_turns=min_turns,
                inflicts=self.afflictions_of(item.get("inflicts")),
                negates_kinds=self.kinds_negated(item.get("negates")),
                target_types=self.target_types(item.get("target_type")),
                targets_own_cards=_flag(item, "targets_own", False),
                entry_trigger=trigger_types,
                min_targets=count[0], max_targets=count[1], uses_per_game=per_game, uses_per_turn=per_turn,
                target_traits=(self.traits_of(item.get("target_traits"), "target trait")  # type: ignore[arg-type]
                               if item.get("target_traits") is not None else ()),
                target_alignment=(_word(item.get("target_alignment"), "target_alignment",  # type: ignore[arg-type]
                                        ("good", "evil")) if item.get("target_alignment") is not None else None),
                targets_every=count[2],
                cannot_be_interrupted=_flag(item, "cannot_be_interrupted", False),
                cannot_be_prevented=_flag(item, "cannot_be_prevented", False),
                discards_what_it_negates=_flag(item, "and_discard", False),
            )
            if ability.discards_what_it_negates and kind != "negate_effect":
                item.get("and_discard").fail("'and_discard' describes a negate ability that also discards what it "  # type: ignore[union-attr]
                                             "negates ('negate and discard'): give it 'kind: negate'")
            if ability.inflicts and kind != "affliction_effect":
                item.get("inflicts").fail("'inflicts' describes an affliction ability (kind: afflict)")  # type: ignore[union-attr]
            if kind == "affliction_effect" and not ability.inflicts:
                item.fail("an affliction ability names what it inflicts: "
                          "'inflicts: [poisoned, diseased, paralyzed or decreased]'")
            if ability.also_in_play and target_zone is None:
                item.fail("'also_in_play' widens a named target_zone; give target_zone as well")
            self.modifiers_of(ability_id, item.get("modifiers"))
            if ability.grants_ability and not ability.on_return:
                item.fail("'grants' describes an on-return clause; set on_return: true as well")
            self.ability_facts(ability, item.loc, from_text=False)
            out.append(ability)
        return out

    def named_ability(self, card: str, own: list[Ability], node: YNode) -> Ability:
        """The ability a timeline entry names with 'ability:': by its number on the card, or by its block label."""
        value = _scalar(node).value
        by_number = {a.id.rsplit("_a", 1)[1]: a for a in own}
        if isinstance(value, int) and not isinstance(value, bool):
            if str(value) in by_number:
                return by_number[str(value)]
        elif isinstance(value, str):
            matches = [a for a in own if self.labels.get(a.id, "").lower() == value.strip().lower()]
            if len(matches) == 1:
                return matches[0]
        shown = ", ".join(f"{n}{' (' + self.labels[a.id] + ')' if self.labels.get(a.id) else ''}"
                          for n, a in by_number.items())
        node.fail(f"card '{card}' has no ability {quoted(str(value))}; its abilities: {shown}")

    def until_card_played(self, ability: str, a: AbilityReading, real: RealCard, where: YNode) -> None:
        """A duration read as "until <card> is played" ends when a card of that name is played: record the name,
        in the text's own letters; a name no card of the card list has is refused."""
        words = next((p.text for p in a.pieces if p.kind == "duration"), "")
        m = re.fullmatch(r"until (.+) is played", words.strip().lower())
        if m is None or m.group(1) in ("it", "they", "them", "that card", "this card"):
            return  # not a card named by its name: the case names the attempt
        printed = re.search(re.escape(m.group(1)), real.text, re.IGNORECASE)
        name = printed.group(0) if printed else m.group(1)
        if not printings_named(name):
            raise CaseRefused(f"{quoted(real.name)} lasts until {quoted(name)} is played, and the card list has no card "
                              f"of that name: write the ability of this card by hand under 'abilities:' and name the "
                              "attempt that ends it with 'until:'", where.loc)
        self.until_played[ability] = name

    def block_of_its_type(self, card: Card, ability: str, used_at: YNode) -> None:
        """A block labelled GE or EE on an enhancement (a dual card's "GE: ... EE: ...") is that enhancement's
        ability only when the card is played as that type: a GE block only as a Good Enhancement, which a Hero
        uses, an EE block only as an Evil Enhancement, which an Evil Character uses (CORE-18). A case that
        states the card as the other type and uses the block is bad input."""
        label = self.labels.get(ability, "")
        names = {"GE": "Good Enhancement", "EE": "Evil Enhancement"}
        if label in names and card.type in names and label != card.type:
            used_at.fail(f"ability {ability.rsplit('_a', 1)[1]} ({label}) of '{card.name}' is used only when the card "
                         f"is played as a {names[label]}, by a {'Hero' if label == 'GE' else 'Evil Character'} "
                         f"(CORE-18), and this case states '{card.name}' as an {names[card.type]}: state its type "
                         f"{label} to use this block")

    def refuse_unsupported(self, ability: str, used_at: YNode) -> None:
        """A real card's ability with parts regcheck does not model cannot be used: refuse the case, saying what."""
        if ability not in self.refused:
            return
        name, parts, where = self.refused[ability]
        listed = "; ".join(parts)
        raise CaseRefused(f"{quoted(name)} is used at line {used_at.loc.line}, but its text has parts regcheck does "
                          f"not model: {listed}. Keep 'card: {name}' for its type and brigade and write the ability "
                          "by hand under 'abilities:' (kind, duration, paired, on_return, target_zone, ...), deciding "
                          "what the parts above mean for this case; or run 'regcheck cards' to see the whole reading",
                          where.loc)

    def from_reading(self, card: str, number: int, a: AbilityReading, real: RealCard, body: YMap) -> Ability:
        """An ability of a real card from its reading; the card's x is asked for where the text needs it."""
        def x_value(why: str) -> int:
            x_node = body.get("x")
            if x_node is None:
                body.fail(f"{real.name} says {why}: give the card's x")
            return _scalar(x_node).integer("x", 0, 100)

        cbn = a.cannot_be_negated
        if isinstance(cbn, str):
            threshold = int(re.findall(r"\d+", cbn)[0])
            cbn = x_value(f"'cannot be negated if {cbn.replace('x is', 'X is')}'") >= threshold
        turns = a.duration_turns
        if turns == "x":
            turns = x_value("'for X turns'" if a.duration_kind == "for_turns" else "'for up to X turns'")
            if not 1 <= turns <= MAX_TURNS:
                body.fail(f"{real.name} lasts X turns: x must be between 1 and {MAX_TURNS}")
        low = x_value("that it targets X cards") if a.min_targets == "x" else a.min_targets
        high = (x_value("that it targets up to X cards") if a.max_targets == "x"
                else -1 if a.max_targets is None else a.max_targets)
        assert isinstance(turns, int) and isinstance(low, int) and isinstance(high, int)
        return Ability(f"{card}_a{number}", card, a.kind or "other_effect", a.duration_kind, turns, a.paired,
                       a.on_return, a.grants_ability, bool(cbn), a.target_zone, a.targets_opponents_cards,
                       a.targets_all_in_location, a.text, also_in_play=a.also_in_play, parts=a.parts,
                       heals_only=a.heals_only, target_types=a.target_types, target_brigade=a.target_brigade,
                       targets_own_cards=a.targets_own_cards, min_targets=low, max_targets=high,
                       duration_min_turns=a.duration_min_turns, inflicts=a.inflicts, negates_kinds=a.negates_kinds,
                       target_traits=a.target_traits, uses_per_game=_reading_limit(a.use_limit, "game"),
                       target_alignment=a.target_alignment, targets_every=a.targets_every,
                       cannot_be_interrupted=a.cannot_be_interrupted, cannot_be_prevented=a.cannot_be_prevented,
                       guard_condition=a.guard_condition, discards_what_it_negates=a.discards_what_it_negates,
                       uses_per_turn=_reading_limit(a.use_limit, "turn"))

    def use_limit(self, node: YNode | None) -> tuple[int, int]:
        """How often an ability written by hand may be used ('once per game', 'twice per turn', '3 times per
        game'), as its uses per game and per turn (0: no limit)."""
        if node is None:
            return 0, 0
        text = _scalar(node).text("limit").strip().lower()
        m = USE_LIMIT.fullmatch(text)
        if m is None or m.group(2) not in ("game", "turn"):
            node.fail(f"unknown limit '{text}': write 'once per game', 'twice per turn' or 'N times per game' "
                      "(or per turn)")
        n = use_count(m.group(1))
        if not 1 <= n <= 20:
            node.fail("a limit allows from 1 to 20 uses")
        return (n, 0) if m.group(2) == "game" else (0, n)

    def target_count(self, node: YNode | None) -> tuple[int, int, bool]:
        """How many cards an ability written by hand names for its targets, as the fewest, the most (-1: no
        limit) and whether it names "all" (every card that fits): `1` ("a Hero"), `up to 2`, `at least 1` ("one
        or more"), `all` or `any number`, the default."""
        if node is None:
            return 0, -1, False
        scalar = _scalar(node)
        if isinstance(scalar.value, int) and not isinstance(scalar.value, bool):
            n = scalar.integer("target_count", 1, MAX_CARDS)
            return n, n, False
        words = scalar.text("target_count").strip().lower().split()
        if words == ["any", "number"]:
            return 0, -1, False
        if words == ["all"]:
            return 0, -1, True
        if len(words) == 3 and words[:2] in (["up", "to"], ["at", "least"]) and words[2].isdigit() \
                and 1 <= int(words[2]) <= MAX_CARDS:
            n = int(words[2])
            return (0, n, False) if words[0] == "up" else (n, -1, False)
        node.fail(f"a target count is a whole number of cards (1 to {MAX_CARDS}), 'up to N', 'at least N', "
                  "'any number' or 'all'")

    def target_types(self, node: YNode | None, what: str = "target type") -> tuple[str, ...]:
        """Card types an ability written by hand names: for its targets ("a Hero"), or for its trigger."""
        if node is None:
            return ()
        items = list(node) if isinstance(node, YSeq) else [node]
        return tuple(sorted({_member(item, "card_type", what) for item in items}))

    def conditions_of(self, node: YNode | None) -> tuple[str, ...]:
        """Conditions a heal's text requires of its target, written `poisoned` or `being discarded`."""
        if node is None:
            return ()
        out = []
        for item in node if isinstance(node, YSeq) else [node]:
            word = _scalar(item).text("condition").strip().lower().replace("being ", "").replace(" ", "_")
            options = HEAL_CONDITIONS
            if word not in options:
                item.fail(f"unknown condition '{word}'{did_you_mean(word, options)}; "
                          "one of: poisoned, diseased, paralyzed, being discarded")
            out.append(options[word])
        return tuple(sorted(set(out)))

    def modifiers_of(self, ability: str, node: YNode | None) -> None:
        """Read the modifiers written as part of an ability; their targets are resolved later."""
        if node is None:
            return
        for i, item in enumerate(_mappings(node, "modifiers", "modifier"), 1):
            item.check_keys(MODIFIER_KEYS, "a modifier")
            scope = _member(item.require("scope", "a modifier"), "modifier_scope", "modifier scope")
            part_node = item.get("part")
            if part_node is None and scope != "whole_ability":
                item.fail(f"a modifier with scope {display_value(scope)} names the part it is about")
            effect_node = item.get("effect")
            if isinstance(effect_node, YScalar) and str(effect_node.value).strip().lower() == "cannot be negated":
                effect = "unnegatable"
            else:
                effect = (_member(effect_node, "modifier_effect", "modifier effect") if effect_node
                          else "other_modification")
            granted = item.get("granted_to")
            self.raw_modifiers.append((f"{ability}_m{i}", ability, scope, _part(part_node) if part_node else "other_part",
                                       effect, _flag(item, "condition", True),
                                       _name_list(granted, "ability") if granted else [], item))

    def resolve_modifiers(self, abilities: list[Ability]) -> list[Modifier]:
        ids = [a.id for a in abilities]
        out = []
        for mid, ability, scope, part, effect, condition, granted, item in self.raw_modifiers:
            targets = []
            for name, node in granted:
                if name not in ids:
                    node.fail(f"unknown ability '{name}'{did_you_mean(name, ids)}")
                targets.append(name)
            m = Modifier(mid, ability, scope, part, effect, condition, tuple(targets or [ability]))
            out.append(m)
            self.fact("modifier_scope", (mid,), scope, f"{mid} targets {display_value(scope)}", item.loc)
            self.fact("modifier_part", (mid,), part, f"{mid} names the {display_value(part)}", item.loc)
            self.fact("modifier_effect", (mid,), effect, f"{mid} makes {display_value(effect)}", item.loc)
            self.fact("modifier_condition", (mid,), condition,
                      f"{mid}'s conditions {'hold' if condition else 'do not hold'}", item.loc)
            for a in ids:
                self.fact("granted_to", (mid, a), a in m.granted_to,
                          f"{mid} {'is' if a in m.granted_to else 'is not'} granted to {a}", item.loc)
        return out

    def duration(self, node: YNode | None) -> tuple[str, int, int]:
        """An ability's duration as (kind, fewest turns, turns); a duration the player picks has its bounds
        (-1 turns: no upper bound)."""
        if node is None:
            return "no_duration", 0, 0
        s = _scalar(node)
        if isinstance(s.value, int) and not isinstance(s.value, bool):
            return "for_turns", 0, s.integer("duration", 1, MAX_TURNS)
        text = s.text("duration").strip().lower().removeprefix("for ").strip()
        if text in DURATION_WORDS:
            return DURATION_WORDS[text], 0, 0
        m = DURATION_TURNS.fullmatch(text)
        if m:
            n = int(m.group(2))
            if not 1 <= n <= MAX_TURNS:
                s.fail(f"duration must be between 1 and {MAX_TURNS} turns")
            if m.group(1) == "up to ":
                return "for_chosen_turns", 1, n
            if m.group(1) == "at least ":
                return "for_chosen_turns", n, -1
            return "for_turns", 0, n
        s.fail(f"duration '{text}' is not understood: write 'N turns', 'up to N turns', 'at least N turns', "
               "'until end of battle', 'until an event', 'the remainder of the game' or 'none'")

    def afflictions_of(self, node: YNode | None) -> tuple[str, ...]:
        """The conditions an affliction ability inflicts, written `poisoned`, `diseased`, `paralyzed`, `decreased`."""
        if node is None:
            return ()
        options = AFFLICTIONS
        out = []
        for item in node if isinstance(node, YSeq) else [node]:
            word = _scalar(item).text("condition").strip().lower()
            if word not in options:
                item.fail(f"unknown affliction '{word}'{did_you_mean(word, options)}; "
                          "one of: poisoned, diseased, paralyzed, decreased")
            out.append(options[word])
        return tuple(sorted(set(out)))

    def kinds_negated(self, node: YNode | None) -> tuple[str, ...]:
        """The kinds of ability an ongoing negation negates while its card is in play (heal or afflict)."""
        if node is None:
            return ()
        options = NEGATABLE_KINDS
        out = []
        for item in node if isinstance(node, YSeq) else [node]:
            word = _scalar(item).text("kind").strip().lower().replace("_", " ")
            if word not in options:
                item.fail(f"an ongoing negation of '{word}' abilities is not modelled; "
                          "it negates heal or afflict abilities")
            out.append(options[word])
        return tuple(sorted(set(out)))

    def ability_facts(self, a: Ability, loc: Location, from_text: bool) -> None:
        src = " (read from the card's text)" if from_text else ""
        d = describe_duration(a)
        facts = [
            ("ability_kind", a.kind, f"{a.id} is a {display_value(a.kind)}"),
            ("duration_kind", a.duration_kind, f"{a.id} {d}"),
            ("duration_turns", a.duration_turns, f"{a.id} {d}"),
            ("duration_min_turns", a.duration_min_turns, f"{a.id} {d}"),
            ("has_paired_ability", a.paired, f"{a.id} {'has' if a.paired else 'has no'} paired ongoing ability"),
            ("has_on_return", a.on_return, f"{a.id} {'has' if a.on_return else 'has no'} on-return clause"),
            ("on_return_grants_ability", a.grants_ability,
             f"{a.id}'s on-return clause {'gives' if a.grants_ability else 'gives no'} ability"),
            ("cannot_be_negated", a.cannot_be_negated,
             f"{a.id} {'cannot' if a.cannot_be_negated else 'can'} be negated by its own text"),
            ("cannot_be_interrupted", a.cannot_be_interrupted,
             f"{a.id} {'cannot' if a.cannot_be_interrupted else 'can'} be interrupted by its own text"),
            ("cannot_be_prevented", a.cannot_be_prevented,
             f"{a.id} {'cannot' if a.cannot_be_prevented else 'can'} be prevented by its own text"),
            ("target_zone_specified", a.target_zone is not None,
             f"{a.id} {'names' if a.target_zone else 'names no'} target location"),
            ("target_zone", a.target_zone or "territory",
             f"{a.id} targets cards in the {display_value(a.target_zone or 'territory')}"),
            ("targets_opponents_cards", a.targets_opponents_cards,
             f"{a.id} {'' if a.targets_opponents_cards else 'does not '}specifically target(s) "
             "an opponent's cards"),
            ("targets_all_in_location", a.targets_all_in_location,
             f"{a.id} {'targets' if a.targets_all_in_location else 'does not target'} any or all cards in a location"),
        ]
        facts.append(("targets_own_cards", a.targets_own_cards,
                      f"{a.id} {'targets only' if a.targets_own_cards else 'does not target only'} cards its user controls"))
        facts.append(("min_targets", a.min_targets, f"{a.id} targets at least {a.min_targets} card(s)"))
        facts.append(("max_targets", a.max_targets, f"{a.id} targets at most {a.max_targets} card(s)"
                      if a.max_targets >= 0 else f"{a.id} targets any number of cards"))
        facts.append(("targets_every", a.targets_every,
                      f"{a.id} targets every card that fits when it is used ('all')" if a.targets_every
                      else f"{a.id} targets the cards its user picks"))
        facts.append(("discards_what_it_negates", a.discards_what_it_negates,
                      f"{a.id} {'also discards' if a.discards_what_it_negates else 'does not discard'} the card whose "
                      "ability it negates"))
        facts.append(("targets_in_play_too", a.also_in_play,
                      f"{a.id} {'also' if a.also_in_play else 'does not also'} target cards in play"))
        facts.append(("effect_class", a.effect_class, f"{a.id}'s effect is {display_value(a.effect_class)}"))
        facts.append(("written_order", int(a.id.rsplit("_a", 1)[1]), f"{a.id} is written as ability "
                      f"{a.id.rsplit('_a', 1)[1]} of {a.card}"))
        facts.append(("gained_order", a.gained_order,
                      f"{a.id} was gained {ordinal(a.gained_order)}" if a.gained_order else f"{a.id} is printed on the card"))
        for symbol, limit, per in (("uses_per_game", a.uses_per_game, "game"), ("uses_per_turn", a.uses_per_turn, "turn")):
            facts.append((symbol, limit, f"{a.id} may be used at most {limit} time(s) per {per}" if limit
                          else f"{a.id} has no use limit per {per}"))
        for symbol, value, text in facts:
            self.fact(symbol, (a.id,), value, text + src, loc)
        for cond in VALUE_SETS["condition"]:
            self.fact("heals_only", (a.id, cond), cond in a.heals_only,
                      f"{a.id} {'requires' if cond in a.heals_only else 'does not require'} a target {display_value(cond)}", loc)
        for cond in VALUE_SETS["condition"]:
            self.fact("inflicts", (a.id, cond), cond in a.inflicts,
                      f"{a.id} {'inflicts' if cond in a.inflicts else 'does not inflict'} {display_value(cond)}", loc)
        for kind in VALUE_SETS["ability_kind"]:
            self.fact("negates_kind", (a.id, kind), kind in a.negates_kinds,
                      f"{a.id} {'negates' if kind in a.negates_kinds else 'does not negate'} every "
                      f"{display_value(kind)} while its card is in play", loc)
        for part in VALUE_SETS["part"]:
            self.fact("has_part", (a.id, part), part in a.parts,
                      f"{a.id} {'has' if part in a.parts else 'has no'} {display_value(part)}", loc)

    # -- timeline --------------------------------------------------------------------------
    def timeline(self, players: tuple[str, ...], cards: list[Card], abilities: list[Ability]
                 ) -> tuple[list[Step], list[Attempt]]:
        node = self.root.get("timeline")
        items: list[YNode] = list(node) if isinstance(node, YSeq) else []
        if node is not None and not isinstance(node, YSeq):
            node.fail("timeline must be a list of attempts")
        if len(items) > MAX_ATTEMPTS:
            node.fail(f"at most {MAX_ATTEMPTS} attempts")  # type: ignore[union-attr]
        card_names = {c.name: c for c in cards}
        raw: list[tuple[int, int, YMap]] = []
        last = (1, 0)
        for item in items:
            if not isinstance(item, YMap):
                item.fail("each timeline entry must be a mapping")
            item.check_keys(ATTEMPT_KEYS, "a timeline entry")
            turn = _scalar(item.require("turn", "a timeline entry")).integer("turn", 1, MAX_TURNS)
            phase = _member(item.require("phase", "a timeline entry"), "phase", "phase")
            order = (turn, PHASES.index(phase))
            if order < last:
                item.fail(f"timeline entries must be in time order; turn {turn} {phase} comes before "
                          f"an earlier entry")
            last = order
            raw.append((turn, PHASES.index(phase), item))
        longest = max((max(a.duration_turns, a.duration_min_turns) for a in abilities), default=0)
        turns_node = self.root.get("turns")
        needed = last[0]
        turns = (_scalar(turns_node).integer("turns", 1, MAX_TURNS) if turns_node
                 else min(needed + longest + 1, MAX_TURNS))
        if turns < needed:
            turns_node.fail(f"turns is {turns} but the timeline reaches turn {needed}")  # type: ignore[union-attr]

        steps: list[Step] = []
        attempts: list[Attempt] = []
        ids: dict[str, Location] = {}
        cursor = 0
        for turn in range(1, turns + 1):
            active = players[(turn - 1) % len(players)]
            for p, phase in enumerate(PHASES):
                steps.append(Step(len(steps), turn, phase, True, active, step_label(turn, phase, active)))
                while cursor < len(raw) and raw[cursor][:2] == (turn, p):
                    item = raw[cursor][2]
                    attempt = self.attempt(item, len(steps), active, players, card_names, abilities,
                                           attempts, ids)
                    steps.append(Step(len(steps), turn, phase, False, active,
                                      step_label(turn, phase, active, attempt.id)))
                    attempts.append(attempt)
                    cursor += 1
        self.duration_events(attempts, abilities, card_names)
        return steps, attempts

    def duration_events(self, attempts: list[Attempt], abilities: list[Ability], cards: dict[str, Card]) -> None:
        """Pin which attempt ends each 'until' duration: for a real card's "until <card> is played", every later
        play of a card of the card list of that name (an 'until:' on the entry must name one of them); else the
        later attempt the entry names with 'until:'."""
        by_id = {a.id: a for a in attempts}
        kinds = {a.id: a.duration_kind for a in abilities}

        def plays_card_named(y: Attempt, name: str) -> bool:
            real = cards[y.card].real_card if y.card in cards else None
            return y.kind == "play_card" and real is not None and is_named(real, name)

        for x in attempts:
            played = self.until_played.get(x.ability or "")
            if played is not None:
                ending = {y.id for y in attempts if y.step > x.step and plays_card_named(y, played)}
                if x.until is not None and x.until not in ending:
                    self.until_nodes[x.id].fail(
                        f"the duration of {x.ability} ends when a card named {quoted(played)} is played (any printing "
                        f"of the card list); '{x.until}' is no later play of such a card: leave 'until' out")
                for y in attempts:
                    ends = y.id in ending
                    self.fact("ends_duration", (x.id, y.id), ends,
                              f"{y.id} {'plays' if ends else 'does not play'} a card named {played}, "
                              f"{'the event that ends' if ends else 'so it does not end'} the duration of {x.id}",
                              y.loc if ends else x.loc, False)
                continue
            if x.until is not None:
                node = self.until_nodes[x.id]
                if x.until not in by_id or by_id[x.until].step <= x.step:
                    later = [a.id for a in attempts if a.step > x.step]
                    node.fail(f"no later attempt '{x.until}'{did_you_mean(x.until, later)}")
                if kinds.get(x.ability or "") != "until_event":
                    node.fail(f"'until' names the event that ends a duration 'until an event'; the ability "
                              f"{x.ability} {describe_duration(next(a for a in abilities if a.id == x.ability))}"
                              if x.ability else "'until' describes an attempt that uses an ability")
            for y in attempts:
                ends = x.until == y.id
                self.fact("ends_duration", (x.id, y.id), ends,
                          f"{y.id} {'is' if ends else 'is not'} the event that ends the duration of {x.id}"
                          if ends or kinds.get(x.ability or "") == "until_event"
                          else f"{y.id} ends no duration of {x.id}",
                          self.until_nodes[x.id].loc if ends else x.loc, False)

    def attempt(self, item: YMap, step: int, active: str, players: tuple[str, ...],
                cards: dict[str, Card], abilities: list[Ability], earlier: list[Attempt],
                ids: dict[str, Location]) -> Attempt:
        actions = [k for k in ACTIONS if item.get(k) is not None]
        if len(actions) != 1:
            item.fail("a timeline entry needs exactly one of: " + ", ".join(ACTIONS))
        action = actions[0]
        kind = ACTIONS[action]
        id_node = item.get("id")
        aid = _name(id_node, "attempt id") if id_node else f"{action}_{len(earlier) + 1}"
        if (aid in ids or aid in cards or aid in players or aid in MEMBER_OF or aid in SYMBOLS
                or any(a.id == aid for a in abilities)):
            (id_node or item).fail(f"attempt id '{aid}' is already used by another name")
        ids[aid] = item.loc
        by_id = {a.id: a for a in earlier}

        def card_ref(node: YNode, what: str) -> str:
            name = _name(node, what)
            if name not in cards:
                node.fail(f"unknown card '{name}'{did_you_mean(name, cards)}")
            return name

        def attempt_ref(node: YNode, what: str) -> Attempt:
            name = _name(node, what)
            if name not in by_id:
                node.fail(f"no earlier attempt '{name}'{did_you_mean(name, by_id)}")
            return by_id[name]

        def ability_for(card: str, node: YNode, wanted: tuple[str, ...]) -> str:
            own = [a for a in abilities if a.card == card]
            if not own:
                node.fail(f"card '{card}' has no special ability to use (give it 'abilities' or a real 'card')")
            named = item.get("ability")
            kinds = " or ".join(display_value(w) for w in wanted)
            if named is not None:
                chosen = self.named_ability(card, own, named)
                if chosen.kind not in wanted:
                    named.fail(f"ability {chosen.id} of '{card}' is a {display_value(chosen.kind)}, not a {kinds}")
                self.block_of_its_type(cards[card], chosen.id, named)
                self.refuse_unsupported(chosen.id, node)
                return chosen.id
            blocks = self.blocks.get(card, ())
            if len(blocks) > 1:
                node.fail(f"the text of '{card}' has {len(blocks)} ability blocks ({', '.join(blocks)}); say which "
                          "this entry uses with 'ability:' (its number, or its label such as GE or EE)")
            usable = [a for a in own if a.kind in wanted]
            if not usable:
                node.fail(f"card '{card}' has no {kinds} ability")
            if len(usable) > 1:
                listed = ", ".join(f"{a.id.rsplit('_a', 1)[1]}{' (' + self.labels[a.id] + ')' if self.labels.get(a.id) else ''}"
                                   f": {display_value(a.kind)}" for a in usable)
                node.fail(f"card '{card}' has {len(usable)} abilities this entry could use ({listed}); "
                          "say which with 'ability:' (its number, or its label such as GE or EE)")
            self.block_of_its_type(cards[card], usable[0].id, node)
            self.refuse_unsupported(usable[0].id, node)
            return usable[0].id

        main = item.get(action)
        assert main is not None
        card = ability = on = negated = set_aside = None
        targets: list[str] = []
        default_player = active
        if kind in ("play_card", "activate_ability"):
            card = card_ref(main, "card")
            ability = ability_for(card, main, VALUE_SETS["ability_kind"])
            if item.get("on") is not None:
                on = card_ref(item.get("on"), "character")  # type: ignore[arg-type]
            elif kind == "play_card" and cards[card].type in ("GE", "EE"):
                item.fail("playing an enhancement needs 'on': the character it is played on")
            targets_node = item.get("targets")
            targets = [card_ref(n, "target") for _, n in _name_list(targets_node, "target")] if targets_node else []
            default_player = cards[card].permanent_controller
        elif kind == "return_early":
            targets = [card_ref(n, "card") for _, n in _name_list(main, "card")]
            by = item.require("by", "a return attempt")
            card = card_ref(by, "card")
            ability = ability_for(card, by, ("return_effect",))
            default_player = cards[card].permanent_controller
        elif kind == "negate_ability":
            target = attempt_ref(main, "attempt to negate")
            if target.ability is None:
                main.fail(f"attempt '{target.id}' uses no ability to negate")
            if target.kind in ("negate_ability", "return_early"):
                main.fail(f"negating the {display_value(target.kind).replace(' ability', '')} '{target.id}' is not "
                          "modelled: what undoing it restores (GLOSS-12) is not encoded")
            negated = target.id
            by = item.require("by", "a negate attempt")
            card = card_ref(by, "card")
            ability = ability_for(card, by, ("negate_effect",))
            default_player = cards[card].permanent_controller
        elif kind == "enter_battle":
            targets = [card_ref(n, "card") for _, n in _name_list(main, "card")]
        elif kind == "discard_card":
            targets = [card_ref(n, "card") for _, n in _name_list(main, "card")]
            discarder = item.get("by")
            if discarder is not None:
                card = card_ref(discarder, "card")
                ability = ability_for(card, discarder, ("discard_effect",))
                default_player = cards[card].permanent_controller
        elif kind == "choose_return":
            target = attempt_ref(main, "set-aside attempt")
            set_aside = target.id
            chosen = item.get("cards")
            targets = ([card_ref(n, "card") for _, n in _name_list(chosen, "card")] if chosen
                       else list(target.targets))
        elif kind == "end_battle" and _scalar(main).value is not True:
            main.fail("write 'end_battle: true'")
        self.picked_effect(item, ability)
        if item.get("ability") is not None and ability is None:
            item.get("ability").fail(f"'ability' does not apply to a {action} entry")  # type: ignore[union-attr]
        for extra in ("on", "targets", "by", "cards"):
            if item.get(extra) is not None and kind not in APPLIES_TO[extra]:
                item.get(extra).fail(f"'{extra}' does not apply to a {action} entry")  # type: ignore[union-attr]
        if len(set(targets)) != len(targets):
            item.fail("a card is listed twice among the targets")
        for key, symbol, default in (("role", "entry_role", "rescuing"), ("opposing_role", "opposing_role", "blocking")):
            role_node = item.get(key)
            if role_node is not None and kind != "enter_battle":
                role_node.fail(f"'{key}' describes an enter_battle entry")
            role = (_member(role_node, "battle_role", "battle status") if role_node
                    else default if kind == "enter_battle" else "no_role")
            self.fact(symbol, (aid,), role, f"{aid} {key.replace('_', ' ')} is {display_value(role)}",
                      (role_node or item).loc, role_node is None and kind == "enter_battle")
        cause_node = item.get("cause")
        if cause_node is not None and kind != "discard_card":
            cause_node.fail("'cause' describes a discard entry")
        cause = _member(cause_node, "discard_cause", "discard cause") if cause_node else "by_special_ability"
        if kind == "discard_card" and cause == "by_special_ability" and card is None:
            item.fail("a discard by a special ability names the card doing it with 'by' "
                      "(or give 'cause: by battle resolution' or 'cause: by triggered rule')")
        # attributes that do not apply to this kind of attempt are pinned too, but are no default
        self.fact("discard_cause", (aid,), cause, f"{aid} discards {display_value(cause)}",
                  (cause_node or item).loc, cause_node is None and kind == "discard_card")
        player, defaulted = self._player(item.get("player"), players, "player", default_player)
        self.fact("player_of", (aid,), player, f"{player} makes attempt {aid}",
                  (item.get("player") or item).loc, defaulted)
        for c in cards:
            self.fact("targets", (aid, c), c in targets,
                      f"{aid} {'targets' if c in targets else 'does not target'} {c}",
                      (item.get("targets") or item.get(action) or item).loc, False)
        stated = self.stated_turns(item, aid, ability, abilities)
        until_node = item.get("until")
        until = _name(until_node, "attempt") if until_node is not None else None
        if until_node is not None:
            self.until_nodes[aid] = until_node
        self.until_nodes.setdefault(aid, item)
        return Attempt(aid, kind, step, player, card, ability, on, negated, set_aside, tuple(targets), item.loc,
                       cause if kind == "discard_card" else None, stated, until)

    def picked_effect(self, item: YMap, ability: str | None) -> None:
        """An ability whose text offers another effect instead ("Heal an Evil Character or underdeck a Hero") is
        used only for the effect the model has, and the entry says so ('effect: heal'); the other is refused."""
        node = item.get("effect")
        offered = self.alternatives.get(ability or "")
        if offered is None:
            if node is not None:
                node.fail("'effect' picks one of the effects an ability's text offers (\"heal ... or ...\"); "
                          f"{'this entry uses no ability' if ability is None else ability + ' offers no choice'}")
            return
        name, kind, others = offered
        word = kind.removesuffix("_effect").replace("_", " ")
        listed = " or ".join(f"'{o}'" for o in others)
        if node is None:
            item.fail(f"{quoted(name)} lets its player pick an effect ({word}, or {listed}): say which this entry "
                      f"uses with 'effect: {word}' (regcheck models only that one)")
        picked = _scalar(node).text("effect").strip().lower()
        if picked != word:
            node.fail(f"the other effect of {quoted(name)} ({listed}) is not modelled; 'effect: {word}' is the one "
                      "regcheck models (write the ability by hand under 'abilities:' for the other)")

    def stated_turns(self, item: YMap, aid: str, ability: str | None, abilities: list[Ability]) -> int:
        """The number of turns a timeline entry states for a duration its player picks (0: not stated)."""
        node = item.get("duration")
        used = next((a for a in abilities if a.id == ability), None)
        if node is not None:
            if used is None or used.duration_kind != "for_chosen_turns":
                node.fail("'duration' on a timeline entry is the number of turns the player picks for an ability "
                          "whose duration is 'up to N turns' or 'at least N turns'"
                          + (f"; {used.id} {describe_duration(used)}" if used else ""))
            high = used.duration_turns if used.duration_turns >= 0 else MAX_TURNS
            turns = _scalar(node).integer("duration", used.duration_min_turns, high)
        else:
            turns = 0
        self.fact("stated_turns", (aid,), turns,
                  f"{aid} is stated to last {turns} turn(s)" if turns else f"{aid} states no number of turns",
                  (node or item).loc, False)
        return turns

    # -- questions -------------------------------------------------------------------------
    def questions(self, constants: dict[str, str], rules: RuleBase) -> list[Question]:
        if not self.questions_required and self.root.get("questions") is None:
            return []
        node = self.root.require("questions", "the case")
        if not isinstance(node, YMap) or not node.entries:
            node.fail("questions must map question names to expressions")
        scope = TypeScope(rules.definitions, constants, CaseError, questions=True)
        out = []
        for key, value in node.entries:
            name = _name(key, "question name")
            expr = parse_at(value, self.lines, CaseError, f"question '{name}'")
            qtype = infer(expr, {}, scope)
            nested = [c for c in walk(expr) if isinstance(c, Call) and c.func in QUESTION_FORMS]
            if nested and not (isinstance(expr, Call) and expr.func in QUESTION_FORMS and len(nested) == 1):
                raise CaseError(f"{nested[0].func}(...) is a whole question; it cannot be part of an expression",
                                nested[0].loc)
            out.append(Question(name, expr, qtype, str(getattr(value, "value", "")).strip(), key.loc))
        return out

    def expectations(self, questions: list[Question], steps: list[Step], players: tuple[str, ...],
                     cards: list[Card], attempts: list[Attempt], abilities: list[Ability]) -> list[Expectation]:
        out = []
        for key, value, question in self.answers_to("expect", "expect must map question names to verdicts", questions):
            name = question.name
            if isinstance(value, YScalar):
                verdict_node: YNode = value
                value_node: YNode | None = None
            elif isinstance(value, YMap):
                value.check_keys(("verdict", "value"), "an expectation")
                verdict_node = value.require("verdict", "an expectation")
                value_node = value.get("value")
            else:
                value.fail("an expectation is a verdict name or {verdict: ..., value: ...}")
            verdict = str(_scalar(verdict_node).value)
            if verdict not in VERDICT_NAMES:
                verdict_node.fail(f"unknown verdict '{verdict}'{did_you_mean(verdict, VERDICT_NAMES)}"
                                  f"{_scalar(verdict_node).yaml11_hint()}; "
                                  f"one of: {', '.join(VERDICT_NAMES)}")
            expected_value = None
            if value_node is not None:
                if verdict != "determined":
                    value_node.fail("only a 'determined' expectation has a value")
                expected_value = self.expected_value(value_node, question.type, steps, players,
                                                     cards, attempts, abilities)
            elif verdict == "determined":
                verdict_node.fail("a 'determined' expectation needs the value: {verdict: determined, value: ...}")
            out.append(Expectation(name, verdict, expected_value, key.loc))
        return out

    def claims(self, questions: list[Question], steps: list[Step], players: tuple[str, ...],
               cards: list[Card], attempts: list[Attempt], abilities: list[Ability]) -> list[Claim]:
        return [Claim(q.name, self.expected_value(value, q.type, steps, players, cards, attempts, abilities), key.loc)
                for key, value, q in self.answers_to(
                    "claims", "claims must map question names to the values the ruling claims", questions, True)]

    def answers_to(self, field: str, shape: str, questions: list[Question],
                   non_empty: bool = False) -> list[tuple[YScalar, YNode, Question]]:
        """The entries of a mapping from question names (`expect`, `claims`), each with its question."""
        node = self.root.get(field)
        if node is None:
            return []
        if not isinstance(node, YMap) or (non_empty and not node.entries):
            node.fail(shape)
        by_name = {q.name: q for q in questions}
        out = []
        for key, value in node.entries:
            name = str(key.value)
            if name not in by_name:
                key.fail(f"{field} names unknown question '{name}'{did_you_mean(name, by_name)}")
            out.append((key, value, by_name[name]))
        return out

    def expected_sequence(self, node: YNode, abilities: list[Ability]) -> str:
        ids = [a.id for a in abilities]
        if isinstance(node, YSeq):
            items = [(_name(i, "ability"), i) for i in node]
        elif isinstance(node, YScalar) and str(node.value or "").strip().lower() in ("", "nothing activates"):
            items = []
        else:
            text = _scalar(node).text("value")
            items = [(part.strip(), node) for part in re.split(r"\s*(?:->|,)\s*", text.strip()) if part.strip()]
        for ability, where in items:
            if ability not in ids:
                where.fail(f"unknown ability '{ability}'{did_you_mean(ability, ids)}")
        return " -> ".join(a for a, _ in items) or "nothing activates"

    def expected_value(self, node: YNode, qtype: str, steps: list[Step], players: tuple[str, ...],
                       cards: list[Card], attempts: list[Attempt], abilities: list[Ability]) -> str:
        if qtype == "sequence":
            return self.expected_sequence(node, abilities)
        s = _scalar(node)
        options: list[str]
        aliases: dict[str, str] = {}
        if qtype == "bool":
            if isinstance(s.value, bool):
                return display_value(s.value)
            options = ["yes", "no"]
        elif qtype == "step":
            options = [st.label for st in steps] + [NEVER_LABEL]
            # a step may be written without its active player, as labels were before they named it
            at = {a.step: a.id for a in attempts}
            aliases = {step_label(st.turn, st.phase, None, at.get(st.position)): st.label for st in steps}
        elif qtype in ("int", "turn"):
            return str(s.integer("value", -1_000_000, 1_000_000))
        elif qtype in VALUE_SETS:
            options = [display_value(v) for v in VALUE_SETS[qtype]]
        else:
            options = list({"player": players, "card": [c.name for c in cards],
                            "attempt": [a.id for a in attempts], "ability": [a.id for a in abilities]}[qtype])
        if s.yaml11_word is not None and qtype not in ("int", "turn"):
            s.fail(f"'{s.yaml11_word}' is not a possible {qtype} value{s.yaml11_hint()}")
        given = str(s.value).strip()

        def norm(text: str) -> str:
            return " ".join(text.lower().replace("_", " ").replace("-", " ").split())

        for option in options:
            if norm(option) == norm(given):
                return option
        for alias, option in aliases.items():
            if norm(alias) == norm(given):
                return option
            if norm(alias) == norm(re.sub(r"\s*\([^)]*\)", "", given, count=1)):
                step = next(st for st in steps if st.label == option)
                s.fail(f"'{given}' names the wrong player: turn {step.turn} is {step.active_player}'s turn "
                       f"(write '{option}', or leave the player out)")
        s.fail(f"'{given}' is not a possible {qtype} value{did_you_mean(given, options)}")


def _reading_limit(limit: str, per: str) -> int:
    """The uses per game or per turn of the limit a reading records ("1/game", "2/turn"); 0: no limit."""
    if not limit or limit.split("/")[1] != per:
        return 0
    return int(limit.split("/")[0])


def _refuse_equipping_cycles(reader: _CaseReader, cards: list[Card]) -> None:
    """A Weapon equipped to itself, or Weapons equipped to each other in a ring, is not a game position."""
    equipped = {c.name: c.equipped_to for c in cards if c.equipped_to is not None}
    for c in cards:
        trail = [c.name]
        while trail[-1] in equipped:
            nxt = equipped[trail[-1]]
            assert nxt is not None
            if nxt in trail:
                if nxt != c.name:
                    break  # a ring further along: reported from one of its own cards
                body = reader.root.get("cards").get(c.name)  # type: ignore[union-attr]
                node = body.get("equipped_to") if isinstance(body, YMap) else None
                where = node.loc if node is not None else reader.locate(c.name)
                if len(trail) == 1:
                    raise CaseError(f"card '{c.name}' is equipped to itself", where)
                raise CaseError(f"cards are equipped to each other in a cycle: {' -> '.join(trail + [nxt])}", where)
            trail.append(nxt)


def _refuse_definition_names(reader: _CaseReader, rules: RuleBase, players: tuple[str, ...], cards: list[Card],
                             abilities: list[Ability], attempts: list[Attempt], modifiers: list[Modifier]) -> None:
    """A name of the case that is also a definition's: a question naming it would get one of the two silently."""
    players_node = reader.root.get("players")
    player_places = {p: n.loc for p, n in zip(players, players_node)} if isinstance(players_node, YSeq) else {}
    by_ability = {a.id: a for a in abilities}
    named: list[tuple[str, str, Location]] = [("player", p, player_places.get(p, reader.root.loc)) for p in players]
    named += [("card", c.name, reader.locate(c.name)) for c in cards]
    named += [("ability", a.id, reader.locate(a.card)) for a in abilities]
    named += [("attempt", a.id, a.loc) for a in attempts]
    named += [("modifier", m.id, reader.locate(by_ability[m.ability].card) if m.ability in by_ability
               else reader.root.loc) for m in modifiers]
    for kind, name, where in named:
        definition = rules.definitions.get(name)
        if definition is not None:
            raise CaseError(f"{kind} '{name}' has the same name as the definition '{name}' of the rules "
                            f"({Path(definition.loc.path).name}, line {definition.loc.line}); pick another", where)


def load_case(path: Path, rules: RuleBase, display: str | None = None, other_keys: tuple[str, ...] = ()) -> Scenario:
    """Read and validate one case file against the rule base's definitions.

    `other_keys` are further top-level keys the file may hold (a ruling file's), left to its
    own reader, except `claims`, read here against the scenario's questions.
    """
    root, text = load_yaml(path, CaseError, display or str(path))
    return scenario_from_tree(root, text, display or str(path), rules, other_keys)


def read_questions(root: YMap, text: str, display: str, rules: RuleBase, constants: dict[str, str],
                   other_keys: tuple[str, ...] = ()) -> list[Question]:
    """The questions of a case-like file (a scope's), checked against the given named things."""
    return _CaseReader(root, text, display, other_keys).questions(constants, rules)


def scenario_from_tree(root: YNode, text: str, display: str, rules: RuleBase, other_keys: tuple[str, ...] = (),
                       questions_required: bool = True) -> Scenario:
    """Validate a case already read as a YAML tree (`text` is the file it was read from).

    The tree may be put together from parts of other files (a scope's scenarios are): every
    error names the place of the node it is about.
    """
    reader = _CaseReader(root, text, display, other_keys, questions_required)
    root = reader.root
    title_node = root.get("title")
    title = _scalar(title_node).text("title").strip() if title_node else Path(reader.path).stem
    note_node = root.get("note")
    note = _scalar(note_node).text("note").strip() if note_node else ""
    players = reader.players()
    cards, abilities = reader.cards(players)
    card_names = {c.name for c in cards}
    for c in cards:
        if c.equipped_to is not None and c.equipped_to not in card_names:
            raise CaseError(f"card '{c.name}' is equipped to unknown card '{c.equipped_to}'"
                            f"{did_you_mean(c.equipped_to, card_names)}", reader.locate(c.name))
    _refuse_equipping_cycles(reader, cards)
    types = {c.name: c.type for c in cards}
    for a in abilities:
        for added in a.adds:
            if added not in card_names:
                raise CaseError(f"ability {a.id} adds unknown card '{added}'{did_you_mean(added, card_names)}",
                                reader.locate(a.card))
            if types[added] not in ("Hero", "Evil_Character"):
                raise CaseError(f"ability {a.id} adds '{added}' to battle, which is not a character (its type is "
                                f"{display_value(types[added])}): only a Hero or an Evil Character is added to battle",
                                reader.locate(a.card))
    for a in abilities:
        for c in cards:
            order = a.adds.index(c.name) + 1 if c.name in a.adds else 0
            reader.fact("adds", (a.id, c.name), order > 0,
                        f"{a.id} {'adds' if order else 'does not add'} {c.name} to the battle", reader.locate(a.card))
            reader.fact("add_order", (a.id, c.name), order,
                        f"{a.id} adds {c.name} {ordinal(order)}" if order else f"{a.id} does not add {c.name}",
                        reader.locate(a.card))
            triggered = c.type in a.entry_trigger
            reader.fact("triggered_by_entry", (a.id, c.name), triggered,
                        f"{a.id} {'is' if triggered else 'is not'} triggered by {c.name} entering battle",
                        reader.locate(a.card))
            fits = a.fits(c)
            reader.fact("fits_description", (a.id, c.name), fits,
                        f"{c.name} {'fits' if fits else 'does not fit'} what {a.id} names for its targets",
                        reader.locate(a.card))
    modifiers = reader.resolve_modifiers(abilities)
    steps, attempts = reader.timeline(players, cards, abilities)
    refuse_unanswerable(reader.unmodelled, cards, abilities, steps, attempts)
    interp: list[str] = []
    inode = root.get("interpretations")
    if inode is not None:
        for rid, n in [(str(_scalar(i).value), i) for i in (inode if isinstance(inode, YSeq) else [inode])]:
            interpretations = [r.id for r in rules.rules if r.interpretation]
            if rid not in interpretations:
                n.fail(f"'{rid}' is not an interpretation rule{did_you_mean(rid, interpretations)}")
            interp.append(rid)
    constants: dict[str, str] = {p: "player" for p in players}
    constants.update({c.name: "card" for c in cards})
    constants.update({a.id: "ability" for a in abilities})
    constants.update({a.id: "attempt" for a in attempts})
    constants.update({m.id: "modifier" for m in modifiers})
    _refuse_definition_names(reader, rules, players, cards, abilities, attempts, modifiers)
    questions = reader.questions(constants, rules)
    expectations = reader.expectations(questions, steps, players, cards, attempts, abilities)
    claims = reader.claims(questions, steps, players, cards, attempts, abilities) if "claims" in other_keys else []
    return Scenario(reader.path, title, note, players, tuple(cards), tuple(abilities), tuple(steps),
                    tuple(attempts), tuple(reader.facts), tuple(questions), tuple(expectations),
                    tuple(interp), tuple(modifiers), tuple(claims))
