"""The `timeline` section of a case: each attempt, in its turn and phase, and when durations end."""

from __future__ import annotations

__all__ = ["TimelineSection"]

from ...errors import CaseRefused, Location
from ...escaping import quoted
from ...vocabulary import MEMBER_OF, SYMBOLS, VALUE_SETS, display_value
from ...yamlsource import YMap, YNode, YSeq, did_you_mean
from ..cards import is_named
from ..model import ADDING_CLASSES, Ability, Attempt, Card, Step, step_label
from .cards import CardsSection
from .fields import (
    ACTIONS,
    APPLIES_TO,
    ATTEMPT_KEYS,
    MAX_ATTEMPTS,
    MAX_TURNS,
    PHASES,
    _member,
    _name,
    _name_list,
    _scalar,
    describe_duration,
)


class TimelineSection(CardsSection):
    """Reads the timeline."""

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
                                           attempts, ids, (turn, phase))
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
                ids: dict[str, Location], when: tuple[int, str]) -> Attempt:
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
                node.fail(f"the text of '{card}' has {len(blocks)} abilities ({', '.join(blocks)}); say which "
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
            beside = self.plain_of_block.get(self.band_block.get(ability, ("", 0)))
            if kind == "play_card" and beside is not None:
                (item.get("ability") or main).fail(
                    f"ability {ability.rsplit('_a', 1)[1]} of '{card}' is a band written beside ability "
                    f"{beside.rsplit('_a', 1)[1]} in one block: a play carries out both, so the entry uses ability "
                    f"{beside.rsplit('_a', 1)[1]}, and the band adds what 'adds:' beside the card names (AAO-4-R1)")
            if item.get("on") is not None:
                on = card_ref(item.get("on"), "character")  # type: ignore[arg-type]
            elif kind == "play_card" and cards[card].type in ("GE", "EE"):
                item.fail("playing an enhancement needs 'on': the character it is played on")
            targets_node = item.get("targets")
            if targets_node is not None and any(a.id == ability and a.kind == "prevent_effect" for a in abilities):
                targets_node.fail("a prevent names no cards when it is used: it takes as its targets the next cards "
                                  "played that fit it (PREV-7, PREV-11-R1); leave out 'targets'")
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
            band = next((a for a in abilities if a.adds and self.band_block.get(a.id)
                         and self.plain_of_block.get(self.band_block[a.id]) == ability), None)
            if band is not None:
                by.fail(f"'{card}' bands {', '.join(band.adds)} with ability {band.id.rsplit('_a', 1)[1]}, written beside "
                        f"the negate in one block: a negate entry carries out the negate alone, and a band acts only "
                        "when its card is played or its holder enters battle (AAO-1, AAO-4-R1), so regcheck cannot "
                        "state this use; drop 'adds:' (the band left unused) or write the abilities by hand")
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
        self.battle_roles(item, aid, kind, player, active, when, next((a for a in abilities if a.id == ability), None))
        for c in cards:
            self.fact("targets", (aid, c), c in targets,
                      f"{aid} {'targets' if c in targets else 'does not target'} {c}",
                      (item.get("targets") or item.get(action) or item).loc, False)
        stated = self.stated_turns(item, aid, ability, abilities)
        self.payment(item, aid, ability, abilities)
        self.stated_state(item, aid, kind, ability, abilities)
        until_node = item.get("until")
        until = _name(until_node, "attempt") if until_node is not None else None
        if until_node is not None:
            self.until_nodes[aid] = until_node
        self.until_nodes.setdefault(aid, item)
        return Attempt(aid, kind, step, player, card, ability, on, negated, set_aside, tuple(targets), item.loc,
                       cause if kind == "discard_card" else None, stated, until)

    def battle_roles(self, item: YMap, aid: str, kind: str, player: str, active: str, when: tuple[int, str],
                     used: Ability | None) -> None:
        """Pin the battle status of the side of an entry into battle and of the other side ('role', 'opposing_role';
        rescuing and blocking unless stated), and of the sides of an Enhancement played in the Battle Phase whose
        ability adds characters to battle: those the first entry of that turn's battle states, its player's side
        first; with no entry before it, as an entry's are by default, the active player's side rescuing."""
        band = kind == "play_card" and used is not None and used.effect_class in ADDING_CLASSES and when[1] == "Battle"
        sides = self.battle_sides.get(when[0], (active, "rescuing", "blocking")) if band else None
        if sides is not None:
            entering, role, opposing = sides
            stated = (role, opposing) if entering == player else (opposing, role)
        else:
            stated = ("no_role", "no_role")
        defaulted = kind == "enter_battle" or (band and when[0] not in self.battle_sides)
        roles = []
        for (key, symbol, default), played in zip((("role", "entry_role", "rescuing"),
                                                   ("opposing_role", "opposing_role", "blocking")), stated):
            role_node = item.get(key)
            if role_node is not None and kind != "enter_battle":
                role_node.fail(f"'{key}' describes an enter_battle entry")
            role = (_member(role_node, "battle_role", "battle status") if role_node
                    else default if kind == "enter_battle" else played)
            roles.append(role)
            self.fact(symbol, (aid,), role, f"{aid} {key.replace('_', ' ')} is {display_value(role)}",
                      (role_node or item).loc, role_node is None and defaulted)
        if kind == "enter_battle" and when[0] not in self.battle_sides:
            self.battle_sides[when[0]] = (player, roles[0], roles[1])

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

    def payment(self, item: YMap, aid: str, ability: str | None, abilities: list[Ability]) -> None:
        """Pin whether a timeline entry states that the opponent makes the move its ability offers them
        ('opponent_pays', CORE-19-R2); left out, it is the opponent's choice."""
        used = next((a for a in abilities if a.id == ability), None)
        self.stated(item, aid, "opponent_pays", "payment_stated", used, used is not None and used.offers_a_price,
                    "the opponent makes the move an ability offers them to keep its effect from happening ('Opponent "
                    "may ... If they do not, ...')", "offers none",
                    ("no move of the opponent is stated", "the opponent is stated to make the move it offers them",
                     "the opponent is stated not to make the move it offers them"))

    def stated_state(self, item: YMap, aid: str, kind: str, ability: str | None, abilities: list[Ability]) -> None:
        """Pin whether the state the entry's ability waits on, one regcheck does not check from the cards, holds as it
        is used ('state_holds', TRIG-3-R2): a case with an entry using such an ability that does not say is refused."""
        used = next((a for a in abilities if a.id == ability), None)
        waits = used is not None and used.if_state == "state_the_case_states" and kind in APPLIES_TO["state_holds"]
        if item.get("state_holds") is None and waits:
            assert used is not None
            state = used.if_words or "as its ability is written"
            raise CaseRefused(f"{aid} uses {used.id}, whose effect waits on a state regcheck does not check from the "
                              f"cards ('{state}', TRIG-3-R2): say whether it holds as {aid} uses it, with 'state_holds: "
                              "true' or 'state_holds: false'", item.loc)
        self.stated(item, aid, "state_holds", "state_stated", used, waits,
                    "a state an ability waits on, one regcheck does not check from the cards ('If blocking, ...', "
                    "TRIG-3-R2), holds as it is used", "waits on none",
                    ("no state is stated", "the state its ability waits on is stated to hold",
                     "the state its ability waits on is stated not to hold"))

    def stated(self, item: YMap, aid: str, key: str, symbol: str, used: Ability | None, applies: bool, about: str,
               lacks: str, said: tuple[str, str, str]) -> None:
        """Pin the fact `symbol` of a timeline entry from its true-or-false `key`, which says whether `about` for the
        ability the entry uses, and which only an ability it `applies` to may carry (else an error: the ability
        `lacks` it). The symbol's value set runs: not stated, stated true, stated false; `said` words each."""
        node = item.get(key)
        if node is not None and not applies:
            node.fail(f"'{key}' says whether {about}; " + (f"{used.id} {lacks}" if used else "this entry uses no ability"))
        at = 0 if node is None else 1 if _scalar(node).boolean(key) else 2
        value = VALUE_SETS[SYMBOLS[symbol].result][at]
        self.fact(symbol, (aid,), value, f"{aid}: {said[at]}", (node or item).loc, False)

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
