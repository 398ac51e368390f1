"""The `cards` section of a case: each card, its abilities (written, or read from a real card's text) and their modifiers."""

from __future__ import annotations

__all__ = ["CardsSection"]

import re

from ...errors import CaseRefused, Location
from ...escaping import how_they_differ, quoted
from ...vocabulary import MEMBER_OF, SYMBOLS, VALUE_SETS, display_value
from ...yamlsource import YMap, YNode, YScalar, YSeq, did_you_mean
from ..cardreading import (
    BOOK_TRAITS,
    BRIGADE_COUNT_WORDS,
    NEGATE_MOVE_PLACES,
    TRAITS,
    USE_LIMIT,
    AbilityReading,
    trait_named,
    use_count,
)
from ..cards import RealCard, find_card, overrides, printings_named, read_card
from ..descriptions import TYPE_ALIGNMENT, Description, alignment_of, read_description, state_cards, without_article
from ..model import ADDING_CLASSES, Ability, Attempt, Card, Modifier, fits_description
from .base import CaseReaderBase
from .fields import (
    ABILITY_KEYS,
    ABILITY_KINDS,
    AFFLICTIONS,
    ALIGNMENT_WORDS,
    CARD_KEYS,
    CONDITION_WORDS,
    CONDITIONS,
    DEFAULT_PART,
    DURATION_TURNS,
    DURATION_WORDS,
    HEAL_CONDITIONS,
    MAX_CARDS,
    MAX_TURNS,
    MODIFIER_KEYS,
    NEGATABLE_KINDS,
    _flag,
    _mappings,
    _member,
    _name,
    _name_list,
    _part,
    _reading_limit,
    _scalar,
    _word,
    describe_duration,
    ordinal,
)


def _settled_fit(g: Ability, d: Description, c: Card, where: Location) -> bool:
    """The card fits the description the ability `g` gives "cannot be negated" to; refused when the card's alignment
    or traits, which the description asks for, are not stated."""
    if not fits_description(c, d.types, d.brigade, None, ()):
        return False
    if d.alignment is not None and c.alignment is None:
        raise CaseRefused(f"{g.id} covers {d.alignment.replace('/', ' or ')} cards ('{g.text}'), and the case does not "
                          f"say whether '{c.name}' is good, evil or neutral: state it as 'alignment: ...'", where)
    missing = c.unsettled(d.traits)
    if missing:
        raise CaseRefused(f"{g.id} covers cards that are {' and '.join(d.traits)} ('{g.text}'), and the case does not "
                          f"say whether '{c.name}' is {' and '.join(missing)}: list its traits under 'traits:'", where)
    return fits_description(c, d.types, d.brigade, d.alignment, d.traits)



# The yes-or-no inputs of an ability, each a fact named as its field: what the fact says when it holds, when it does
# not, and of what.
_FLAG_FACTS = (
    ("negates_the_last_played", "reaches only", "is not limited to",
     "the latest play of a card it names in the current battle"),
    ("reaches_the_last_played", "also reaches", "does not reach",
     "the latest play of a card it names wherever that card is now"),
    ("discards_itself", "discards", "does not discard", "its own card as its price"),
    ("prevents_plays_in_battle", "names only", "does not name only", "cards played in battle"),
    ("prevents_opponents_plays", "names only", "does not name only", "cards an opponent of its user plays"),
    ("offers_a_price", "offers the opponent", "offers the opponent no", "price for its effect"),
)

# The keys of an ability written by hand that say what its negate also does to the card it negates: the move each
# names (`moves_what_it_negates`), and the words it stands for; an ability gives at most one of them.
_NEGATE_MOVE_KEYS = {"and_discard": ("into_discard_pile", "'negate and discard'"),
                     "and_place": ("into_draw_pile", "'negate and underdeck'"),
                     "and_banish": ("into_banish_pile", "'negate and banish'"),
                     "and_reserve": ("into_reserve", "'negate and reserve'")}
# The keys of an ability written by hand that only an ability of one kind takes (what a negate also reaches, which
# plays a prevent names): the Ability field each sets, what it describes, the kind it needs, and the key it may not be
# given with.
_KIND_KEYS = (
    ("last_played", "negates_the_last_played", "a negate ability of 'the last Enhancement played in battle'",
     "negate", None),
    ("or_last_played", "reaches_the_last_played",
     "a negate ability of 'an Enhancement or the last Enhancement played'", "negate", "last_played"),
    ("played_in_battle", "prevents_plays_in_battle", "a prevent of the next cards played", "prevent", None),
    ("played_by_opponent", "prevents_opponents_plays", "a prevent of the next cards played", "prevent", None),
)

class CardsSection(CaseReaderBase):
    """Reads the cards and their abilities."""

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
        abilities = self.abilities(name, body, real, ctype)
        traits_node = body.get("traits")
        stated = self.traits_of(traits_node, "trait") if traits_node is not None else ()
        listed = real.traits if real is not None and not real.later_identity else ()
        settled = real.settled_traits if real is not None and not real.later_identity else ()
        contradicted = [t for t in stated if t in settled and t not in listed]
        if real is not None and traits_node is not None and contradicted:
            said = (f"the reference '{real.reference}', and a real card's reference is the card list's"
                    if contradicted[0].startswith("from ") else
                    f"the class '{real.classes or 'none'}', and a real card's class is the card list's")
            traits_node.fail(f"'{name}' is not {' or '.join(contradicted)}: the card list gives {real.name} {said}")
        alignment_node = body.get("alignment")
        stated_alignment = _word(alignment_node, "alignment", ALIGNMENT_WORDS) if alignment_node else None
        if stated_alignment is not None and ctype in TYPE_ALIGNMENT and stated_alignment != TYPE_ALIGNMENT[ctype]:
            named = display_value(ctype)
            article = "an" if named[:1].lower() in "aeiou" else "a"
            alignment_node.fail(f"{article} {named} is {TYPE_ALIGNMENT[ctype]}; "  # type: ignore[union-attr]
                                f"'alignment: {stated_alignment}' contradicts its type")
        return Card(name, real.name if real else None, real.text if real else "", ctype, brigades,
                    owner, perm, temp, tc, zone, zone_of, tuple(a.id for a in abilities),
                    equipped_to, tuple(sorted(set(stated) | set(listed))), traits_node is not None,
                    alignment_of(ctype, stated_alignment), settled), abilities

    def traits_of(self, node: YNode, what: str) -> tuple[str, ...]:
        """Traits written in a case (`human`, `male`, `N.T.`, `Corinth`, ...), as the card grammar names them; a target
        trait may also be `multi-brigade` or `single-brigade` (CORE-15-R5), which a card has by its brigades."""
        out = []
        for item in node if isinstance(node, YSeq) else [node]:
            word = _scalar(item).text(what)
            counted = BRIGADE_COUNT_WORDS.get(word.strip().lower()) if what == "target trait" else None
            trait = counted or trait_named(word)
            if trait is None:
                item.fail(f"unknown {what} '{word.strip()}'{did_you_mean(word.strip(), TRAITS + BOOK_TRAITS)}; one "
                          f"of: {', '.join(TRAITS)}, or 'from <book of the Bible>' ('from Exodus', 'from I Samuel')")
            out.append(trait)
        return tuple(dict.fromkeys(out))

    def abilities(self, card: str, body: YMap, real: RealCard | None, ctype: str) -> list[Ability]:
        node = body.get("abilities")
        out: list[Ability] = []
        adds_node = body.get("adds")
        if adds_node is not None and (node is not None or real is None):
            adds_node.fail("'adds' beside a card names what a real card's band ability read from its text adds; an "
                           "ability written by hand says 'adds' under the ability")
        if node is None:
            if real is None:
                return out
            reading = read_card(real, cached=True)
            adders = [a for a in reading.abilities if a.kind is not None and a.effect_class != "plain_effect"]
            if adds_node is not None and len(adders) != 1:
                adds_node.fail(f"{real.name} has {'no' if not adders else 'more than one'} ability read from its "
                               "text that adds characters to battle ('May band to ...'): 'adds' names what one "
                               "such ability adds")
            self.blocks[card] = tuple(f"{a.number}{' (' + a.label + ')' if a.label else ''}: "
                                      f"{display_value(a.kind) if a.kind else 'nothing the model uses'}"
                                      for a in reading.abilities)
            for a in reading.abilities:
                said = tuple(p.text for p in a.pieces if any(f == "protects" for f, _ in p.mapped))
                if a.kind is None:
                    if a.protections:  # a protection in a block with no ability of the case still holds
                        self.unmodelled.protections[f"{card} block {a.number}"] = (real.name, card, a.protections, said,
                                                                        body.get("card") or body, None)
                    elif a.acts_unread:
                        self.unmodelled.unread_blocks[f"{card} block {a.number}"] = (real.name, card, a.label, a.text,
                                                                                     body.get("card") or body)
                    continue
                ability = self.from_reading(card, a.number, a, real, body, ctype)
                if adds_node is not None and a.effect_class != "plain_effect":
                    ability = ability._replace(adds=tuple(n for n, _ in _name_list(adds_node, "added character")))
                if a.duration_kind == "until_event":
                    self.until_card_played(ability.id, a, real, body.get("card") or body)
                if a.label:
                    self.labels[ability.id] = a.label
                if a.effect_class == "plain_effect":
                    self.plain_of_block.setdefault((card, a.printed_block), ability.id)
                else:
                    self.band_block[ability.id] = (card, a.printed_block)
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
            if kind == "shuffle_effect" and target_zone == "draw_pile":
                assert tz_node is not None
                tz_node.fail("a shuffle of cards already in a draw pile would not change their place (SHUF-4): "
                             "regcheck does not model it")
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
            if adds_node is not None and (class_node is None
                                          or _member(class_node, "effect_class", "ability class") not in ADDING_CLASSES):
                shown = [display_value(c) for c in ADDING_CLASSES]
                adds_node.fail("'adds' names the characters an ability adds to battle, and only an ability of class "
                               f"{', '.join(shown[:-1])} or {shown[-1]} adds any (AAO-9, AAO-12, AAO-14): give the "
                               "ability its 'class'")
            ability_id = f"{card}_a{i}"
            count = self.target_count(item.get("target_count"))
            if kind == "prevent_effect":
                if count[0] != count[1] or count[2]:
                    (item.get("target_count") or item).fail(
                        "a prevent ability (kind: prevent) names how many of the next cards played it prevents: give "
                        "'target_count' a whole number ('the next evil Enhancement played' is 1, PREV-11-R1)")
                count = (0, count[1], False)  # it names no card when used: it takes them as they are played (PREV-7)
            per_game, per_turn = self.use_limit(item.get("limit"))
            state = self.if_state(item)
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
                guard_by=self.guard_by(item.get("cannot_be_negated_by")),
                moves_what_it_negates=self.negate_move(item, kind),
                negates_the_last_played=_flag(item, "last_played", False),
                reaches_the_last_played=_flag(item, "or_last_played", False),
                discards_itself=_flag(item, "price_itself", False),
                prevents_plays_in_battle=_flag(item, "played_in_battle", False),
                prevents_opponents_plays=_flag(item, "played_by_opponent", False),
                if_state=state[0], if_description=state[1], if_another=state[2],
                targets_itself=_flag(item, "targets_itself", False),
                offers_a_price=_flag(item, "offers_a_price", False),
            )
            if ability.guard_by and not ability.cannot_be_negated:
                item.get("cannot_be_negated_by").fail(  # type: ignore[union-attr]
                    "'cannot_be_negated_by' limits the guards of an ability that cannot be negated: give "
                    "'cannot_be_negated: true' as well")
            for key, field, what, needed, without in _KIND_KEYS:
                if getattr(ability, field) and (kind != ABILITY_KINDS[needed]
                                                or (without and _flag(item, without, False))):
                    item.get(key).fail(f"'{key}' describes {what}: give it 'kind: {needed}'"  # type: ignore[union-attr]
                                       + (f", without '{without}'" if without else ""))
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

    def from_reading(self, card: str, number: int, a: AbilityReading, real: RealCard, body: YMap,
                     ctype: str) -> Ability:
        """An ability of a real card from its reading, the card being of type `ctype`; the card's x is asked for where
        the text needs it, and a description "of opposite alignment" is read against the alignment of that type
        (CORE-15-R2)."""
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
        alignment = a.target_alignment
        if alignment == "opposite":
            if ctype not in TYPE_ALIGNMENT:
                (body.get("type") or body.get("card") or body).fail(
                    f"{real.name} names cards 'of opposite alignment': give the card a type of one alignment (a Hero, "
                    "Evil Character, Good or Evil Enhancement) so that the opposite one is known")
            alignment = "evil" if TYPE_ALIGNMENT[ctype] == "good" else "good"
        return Ability(f"{card}_a{number}", card, a.kind or "other_effect", a.duration_kind, turns, a.paired,
                       a.on_return, a.grants_ability, bool(cbn), a.target_zone, a.targets_opponents_cards,
                       a.targets_all_in_location, a.text, also_in_play=a.also_in_play, parts=a.parts,
                       heals_only=a.heals_only, target_types=a.target_types, target_brigade=a.target_brigade,
                       targets_own_cards=a.targets_own_cards, min_targets=low, max_targets=high,
                       duration_min_turns=a.duration_min_turns, inflicts=a.inflicts, negates_kinds=a.negates_kinds,
                       target_traits=a.target_traits, uses_per_game=_reading_limit(a.use_limit, "game"),
                       target_alignment=alignment, targets_every=a.targets_every,
                       cannot_be_interrupted=a.cannot_be_interrupted, cannot_be_prevented=a.cannot_be_prevented,
                       guard_condition=a.guard_condition, guard_by=a.guard_by, guard_user=a.guard_user,
                       grants_unnegatable=a.grants_unnegatable, grant_users=a.grant_users,
                       grant_aside=a.grant_aside, moves_what_it_negates=a.moves_what_it_negates,
                       negates_the_last_played=a.negates_the_last_played, discards_itself=a.discards_itself,
                       reaches_the_last_played=a.reaches_the_last_played,
                       prevents_plays_in_battle=a.prevents_plays_in_battle,
                       prevents_opponents_plays=a.prevents_opponents_plays,
                       if_state=a.if_state, if_description=a.if_description, if_another=a.if_another,
                       if_words=a.if_words, targets_itself=a.targets_itself, offers_a_price=a.offers_a_price,
                       uses_per_turn=_reading_limit(a.use_limit, "turn"), effect_class=a.effect_class,
                       interrupts_battle=a.interrupts_battle, target_alternatives=a.target_alternatives,
                       target_exceptions=a.target_exceptions)

    def negate_move(self, item: YMap, kind: str) -> str:
        """What a negate written by hand also does to the card it negates (`moves_what_it_negates`): the move of the
        one key of `_NEGATE_MOVE_KEYS` it gives, or "stays_put"."""
        given = [key for key in _NEGATE_MOVE_KEYS if _flag(item, key, False)]
        for key in given:
            if kind != "negate_effect" or len(given) > 1:
                item.get(key).fail(  # type: ignore[union-attr]
                    f"'{key}' describes a negate ability that also moves what it negates ({_NEGATE_MOVE_KEYS[key][1]}): "
                    "give it 'kind: negate'" + (f", without '{next(k for k in given if k != key)}'" if len(given) > 1
                                                else ""))
        return _NEGATE_MOVE_KEYS[given[0]][0] if given else "stays_put"

    def if_state(self, item: YMap) -> tuple[str, str, bool]:
        """The state an ability written by hand waits on, as its `if_state`, `if_description` and `if_another`."""
        state_node, words_node = item.get("if_state"), item.get("if_description")
        state = _member(state_node, "state_condition", "state") if state_node is not None else "no_state"
        another = _flag(item, "if_another", False)
        if state in ("no_state", "battle_under_way", "state_the_case_states"):
            for key, node in (("if_description", words_node), ("if_another", item.get("if_another"))):
                if node is not None:
                    node.fail(f"'{key}' names the cards of a state: give 'if_state' one of card_in_play, "
                              "card_you_control or card_in_battle")
            return state, "", False
        if words_node is None:
            (state_node or item).fail(f"'if_state: {state}' names cards: give them as 'if_description' (\"a priest\")")
        words = without_article(_scalar(words_node).text("if_description").strip().lower())
        description = read_description(words)
        if isinstance(description, str):
            words_node.fail(f"if_description: {description}")
        return state, words, another

    def guard_by(self, node: YNode | None) -> str:
        """The description an ability written by hand limits its guards to ("an evil card"), or "" for none."""
        if node is None:
            return ""
        words = without_article(_scalar(node).text("cannot_be_negated_by").strip().lower())
        description = read_description(words)
        if isinstance(description, str):
            node.fail(f"cannot_be_negated_by: {description}")
        if description.traits:
            node.fail("cannot_be_negated_by names types, alignment and brigade only (traits of the negating card are "
                      "not checked)")
        return words

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
            self.modifier_facts(m, ids, item.loc)
        return out

    def modifier_facts(self, m: Modifier, ids: list[str], loc: Location) -> None:
        """State a modifier's inputs: its scope, part, effect, condition and the abilities it is granted to."""
        self.fact("modifier_scope", (m.id,), m.scope, f"{m.id} targets {display_value(m.scope)}", loc)
        self.fact("modifier_part", (m.id,), m.part, f"{m.id} names the {display_value(m.part)}", loc)
        self.fact("modifier_effect", (m.id,), m.effect, f"{m.id} makes {display_value(m.effect)}", loc)
        self.fact("modifier_condition", (m.id,), m.condition,
                  f"{m.id}'s conditions {'hold' if m.condition else 'do not hold'}", loc)
        for a in ids:
            self.fact("granted_to", (m.id, a), a in m.granted_to,
                      f"{m.id} {'is' if a in m.granted_to else 'is not'} granted to {a}", loc)

    def granted_guards(self, cards: list[Card], abilities: list[Ability], attempts: list[Attempt]) -> list[Modifier]:
        """The modifier of each ability read from a real card that gives "cannot be negated" to the abilities on
        other cards (CBN-3, CBN-4): it targets every ability as a whole (CBN-4), and is granted to each ability but
        its own on a card of the description it covers; for "used by <user>", on an Enhancement played on a
        character of the user's description (its own card for "this card": CORE-18). When that is not settled
        (a card of unknown alignment or traits the description asks for, an Enhancement played on characters of
        both kinds) the case is refused."""
        by_card = {c.name: c for c in cards}
        ids = [a.id for a in abilities]
        out = []
        for g in abilities:
            if not g.grants_unnegatable:
                continue
            covered = read_description(g.grants_unnegatable)
            users = read_description(g.grant_users) if g.grant_users not in ("", "this card") else None
            assert not isinstance(covered, str) and not isinstance(users, str)
            where = self.locate(g.card)
            granted = []
            for a in abilities:
                c = by_card[a.card]
                if a.id == g.id or not _settled_fit(g, covered, c, where):
                    continue
                if g.grant_users:
                    on = {x.played_on for x in attempts if x.kind == "play_card" and x.card == c.name}
                    fits = {u == g.card if users is None else _settled_fit(g, users, by_card[u], where)
                            for u in on if u is not None}
                    if len(fits) > 1:
                        raise CaseRefused(f"'{c.name}' is played on characters both inside and outside what {g.id} "
                                          f"covers ('{g.text}'): whether the grant covers its ability is decided "
                                          "per card, not per play, in regcheck", self.locate(c.name))
                    if fits != {True}:
                        continue
                granted.append(a.id)
            m = Modifier(f"{g.id}_m1", g.id, "whole_ability", "other_part", "unnegatable", True, tuple(granted))
            out.append(m)
            self.modifier_facts(m, ids, where)
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

    def settled_guard_facts(self, a: Ability) -> None:
        """The facts of an ability's guards again, once the case's uses have settled whether they hold (a guard for
        some users only, CBN-6-R2: see `refusals.settle_user_guards`)."""
        guards = {"cannot_be_negated": ("negated", a.cannot_be_negated),
                  "cannot_be_interrupted": ("interrupted", a.cannot_be_interrupted),
                  "cannot_be_prevented": ("prevented", a.cannot_be_prevented)}
        for i, f in enumerate(self.facts):
            if f.symbol in guards and f.args == (a.id,):
                word, value = guards[f.symbol]
                self.facts[i] = f._replace(value=value, text=f"{a.id} {'cannot' if value else 'can'} be {word} by its "
                                                             f"own text, whose guards hold only for a use by "
                                                             f"{a.guard_user} (CBN-6-R2): "
                                                             f"{'every' if value else 'no'} use in this case is one "
                                                             "(read from the card's text)")

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
            ("guard_limited", bool(a.guard_by),
             f"{a.id}'s text {'limits its guards to abilities on ' + a.guard_by if a.guard_by else 'limits no guard'}"),
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
        for field, yes, no, rest in _FLAG_FACTS:
            value = getattr(a, field)
            facts.append((field, value, f"{a.id} {yes if value else no} {rest}"))
        pile = NEGATE_MOVE_PLACES.get(a.moves_what_it_negates, ("", ""))[0]
        facts.append(("moves_what_it_negates", a.moves_what_it_negates,
                      f"{a.id} leaves the card whose ability it negates where it is" if a.moves_what_it_negates == "stays_put"
                      else f"{a.id} also puts the card whose ability it negates into its owner's {pile}"))
        facts.append(("if_state", a.if_state, f"{a.id}'s effect waits on no state" if a.if_state == "no_state"
                      else f"{a.id}'s effect waits on {display_value(a.if_state)}"
                      + (f" ({state_cards(a.if_description, a.if_another)})" if a.if_description
                         else f" ('{a.if_words}')" if a.if_words else "")))
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
