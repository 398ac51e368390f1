"""Cases regcheck refuses rather than answer by a guess.

A real card's reading records what its text says that regcheck does not carry out (a protection, an
on-return effect, a further effect of a use, a requirement a use must meet); the rules leave unsaid
how a limited ability counts a negated use or a second copy; the card list leaves most traits open.
Each check below refuses a case (a `CaseRefused` naming where it is written) only where what is left
out could change one of its answers, read as broadly as the card's words could go. A guard that holds for
some users only is settled here from the case's uses (`settle_user_guards`) where they decide it.
"""

from __future__ import annotations

__all__ = ["Unmodelled", "refuse_unanswerable", "settle_user_guards"]

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field

from ..errors import CaseRefused, Location
from ..escaping import quoted
from ..vocabulary import display_value
from ..yamlsource import YNode
from .cardreading import reach_of
from .descriptions import read_description, state_cards
from .model import Ability, Attempt, Card, Step, fits_description
from .titles import NAMED


@dataclass
class Unmodelled:
    """What the real cards of one case say that regcheck does not carry out, gathered as the case is read."""

    locate: Callable[[str], Location]  # where a card is written in the case
    # an on-return effect: ability -> (card name, card, what it may change, clause, node)
    on_return_effects: dict[str, tuple[str, str, tuple[str, ...], str, YNode]] = field(default_factory=dict)
    # another effect of an ability, carried out as it is used (same shape)
    use_effects: dict[str, tuple[str, str, tuple[str, ...], str, YNode]] = field(default_factory=dict)
    # what a use of an ability must meet for its effect to happen: ability -> (card name, requirements, node)
    requirements: dict[str, tuple[str, tuple[str, ...], YNode]] = field(default_factory=dict)
    # protections of cards, by ability, or by block for a block with no ability of the case:
    # -> (card name, card, protections, words, node, ability or None)
    protections: dict[str, tuple[str, str, tuple[str, ...], tuple[str, ...], YNode, str | None]] = field(
        default_factory=dict)
    # a block of a real card with no ability of the case whose words could act while the card is in play (not an
    # ability its player chooses to use): "card block N" -> (card name, card, block label, block text, node)
    unread_blocks: dict[str, tuple[str, str, str, str, YNode]] = field(default_factory=dict)


def refuse_unanswerable(unmodelled: Unmodelled, cards: list[Card], abilities: list[Ability], steps: list[Step],
                        attempts: list[Attempt], conditioned: frozenset[str] = frozenset()) -> None:
    """Refuse the case where what regcheck leaves out could change an answer (the first such place found);
    `conditioned` names the cards the case starts with a condition (poisoned, paralyzed, ...)."""
    _refuse_unsettled_traits(unmodelled, cards, abilities, attempts)
    _refuse_unsettled_alignment(unmodelled, cards, abilities, attempts)
    _refuse_unsettled_guard_alignment(unmodelled, cards, abilities, attempts)
    _refuse_unsettled_states(unmodelled, cards, abilities, attempts)
    _refuse_negates_the_model_cannot_follow(cards, abilities, attempts)
    _refuse_prevents_the_model_cannot_follow(cards, abilities, steps, attempts)
    _refuse_grants_aside(unmodelled, abilities, attempts)
    _refuse_prices_of_a_card_itself_the_model_cannot_follow(cards, abilities, attempts)
    _refuse_interrupts_that_could_matter(cards, abilities, steps, attempts)
    _refuse_moves_of_cards_being_discarded(abilities, steps, attempts)
    _refuse_returns_to_hand_of_conditioned_cards(abilities, attempts, conditioned)
    _refuse_what_captured_cards_could_meet(cards, abilities, attempts)
    _refuse_protections_that_could_matter(unmodelled, cards, abilities, attempts)
    _refuse_unread_blocks_in_play(unmodelled, cards, abilities, attempts)
    _refuse_on_return_effects_that_could_matter(unmodelled, cards, abilities, steps, attempts)
    _refuse_use_effects_that_could_matter(unmodelled, cards, abilities, steps, attempts)
    _refuse_unmet_requirements(unmodelled, cards, steps, attempts)
    _refuse_unsettled_use_limits(unmodelled, cards, abilities, attempts)


def _uses(attempts: list[Attempt], ability_id: str | None) -> list[Attempt]:
    """The attempts that play or activate the ability (none for no ability)."""
    return [x for x in attempts if ability_id is not None and x.ability == ability_id
            and x.kind in ("play_card", "activate_ability")]


def _used(x: Attempt, by_ability: dict[str, Ability]) -> Ability | None:
    """The ability the attempt plays or activates; None for any other attempt."""
    return by_ability.get(x.ability or "") if x.kind in ("play_card", "activate_ability") else None


def _every_use(attempts: list[Attempt], ability_id: str | None) -> list[Attempt]:
    """The attempts that use the ability: those that play or activate it (`_uses`), and the negate entries made
    with it."""
    return _uses(attempts, ability_id) + [x for x in attempts if ability_id is not None and x.ability == ability_id
                                          and x.kind == "negate_ability"]


def _user_of(x: Attempt, by_card: dict[str, Card]) -> Card | None:
    """The user of the ability an attempt uses: the character an enhancement is played on, or the card whose ability
    it is; None when not known (a negate entry does not say which character uses its enhancement)."""
    user = by_card.get((x.played_on if x.kind == "play_card" else x.card) or "")
    if x.kind == "negate_ability" and user is not None and user.type in ("GE", "EE"):
        return None
    return user


def settle_user_guards(cards: list[Card], abilities: list[Ability], attempts: list[Attempt]) -> list[Ability]:
    """The abilities with their guards settled for this case where they hold only for some users ("cannot be negated
    if used by a Prophet", CBN-6-R2): kept when every use of the ability is known to be by such a user, dropped when
    every use is known not to be; otherwise left unsettled (`guard_condition`), and a negate reaching the ability is
    refused. An ability the case does not use keeps them (nothing reaches them)."""
    by_card = {c.name: c for c in cards}
    out = []
    for a in abilities:
        d = read_description(a.guard_user) if a.guard_user else None
        if d is None or isinstance(d, str):
            out.append(a)
            continue
        fits: set[bool | None] = set()
        for x in _every_use(attempts, a.id):
            user = _user_of(x, by_card)
            known = user is not None and not (d.alignment and user.alignment is None) and not user.unsettled(d.traits)
            fits.add(fits_description(user, d.types, d.brigade, d.alignment, d.traits) if known and user else None)
        if fits == {False}:
            a = a._replace(cannot_be_negated=False, cannot_be_interrupted=False, cannot_be_prevented=False)
        elif fits - {True}:
            guards = [g for g, on in (("negated", a.cannot_be_negated), ("interrupted", a.cannot_be_interrupted),
                                      ("prevented", a.cannot_be_prevented)) if on]
            a = a._replace(guard_condition=f"cannot be {' or '.join(guards)} if used by {a.guard_user}")
        out.append(a)
    return out


def _description_uses(cards: list[Card], abilities: list[Ability], attempts: list[Attempt]
                       ) -> list[tuple[str | None, tuple[str, ...], Location | None]]:
    """Each use of an ability with the cards its description is checked against: the cards it targets, the
    card whose ability a negate names, every card of the case for an "all" ability, the characters it adds."""
    by_ability = {a.id: a for a in abilities}
    by_attempt = {x.id: x for x in attempts}
    every = tuple(c.name for c in cards)
    uses: list[tuple[str | None, tuple[str, ...], Location | None]] = []
    for x in attempts:
        if x.ability is None:
            continue
        a = by_ability.get(x.ability)
        names = x.targets
        if a is not None and a.targets_every:
            names = every
        elif x.negated_attempt is not None:
            negated_card = by_attempt[x.negated_attempt].card
            names = (*names, negated_card) if negated_card is not None else names
        uses.append((x.ability, names, x.loc))
    uses += [(a.id, a.adds, None) for a in abilities if a.adds]
    return uses


def _refuse_unsettled_alignment(unmodelled: Unmodelled, cards: list[Card], abilities: list[Ability],
                                attempts: list[Attempt]) -> None:
    """An ability that names an alignment for its targets ("an evil card") used where a card of the case has
    an alignment neither its type nor the case gives is refused: none is assumed."""
    by_card = {c.name: c for c in cards}
    by_ability = {a.id: a for a in abilities}
    for ability_id, names, where in _description_uses(cards, abilities, attempts):
        a = by_ability.get(ability_id or "")
        for (types, alignment, brigade, traits), name in itertools.product(a.checked_descriptions() if a else (), names):
            c = by_card.get(name)
            if (alignment is None or c is None or c.alignment is not None
                    or not fits_description(c, types, brigade, None, traits)):
                continue
            named = alignment.replace("/", " or ")
            assert a is not None
            raise CaseRefused(f"{a.id} names {named} cards for its targets, and the case does not say "
                              f"whether '{name}' (a {c.type.replace('_', ' ')}) is good, evil or neutral: "
                              f"state it as 'alignment: good', 'alignment: evil' or 'alignment: neutral'",
                              where or unmodelled.locate(name))


def _refuse_unsettled_states(unmodelled: Unmodelled, cards: list[Card], abilities: list[Ability],
                             attempts: list[Attempt]) -> None:
    """An ability whose effect waits on a state naming cards of a description ("If a priest is in play", TRIG-3-R1),
    used in a case with a card whose alignment or traits, which the description asks for, are not settled, is
    refused: whether the state holds could turn on them, and none is assumed."""
    for a in abilities:
        if not a.if_description or not _every_use(attempts, a.id):
            continue
        d = read_description(a.if_description)
        assert not isinstance(d, str)
        named = state_cards(a.if_description, a.if_another)
        for c in cards:
            if (a.if_another and c.name == a.card) or not fits_description(c, d.types, d.brigade, None, ()):
                continue
            if d.alignment is not None and c.alignment is None:
                raise CaseRefused(f"the effect of {a.id} waits on {named} (TRIG-3-R1), and the case does not say "
                                  f"whether '{c.name}' is good, evil or neutral: state it as 'alignment: ...'",
                                  unmodelled.locate(c.name))
            missing = c.unsettled(d.traits)
            if missing:
                raise CaseRefused(f"the effect of {a.id} waits on {named} (TRIG-3-R1), and the case does not say "
                                  f"whether '{c.name}' is {' and '.join(t.removeprefix(NAMED) for t in missing)}: "
                                  f"list its traits under 'traits:' (or 'traits: []' for none), or, for a title, "
                                  "name it a real card with 'card:'", unmodelled.locate(c.name))


def _refuse_unsettled_guard_alignment(unmodelled: Unmodelled, cards: list[Card], abilities: list[Ability],
                                      attempts: list[Attempt]) -> None:
    """A guard limited to cards of an alignment ("cannot be negated by an evil card"), in a case where a card whose
    alignment neither its type nor the case gives negates (a negate attempt of the card, or its ongoing negation of
    ability kinds), is refused: none is assumed."""
    by_card = {c.name: c for c in cards}
    used = {x.card for x in attempts if x.kind == "negate_ability"}
    negaters = [by_card[a.card] for a in abilities if a.negates_kinds or (a.kind == "negate_effect" and a.card in used)]
    for a in abilities:
        described = read_description(a.guard_by) if a.guard_by else None
        if described is None or isinstance(described, str) or described.alignment is None:
            continue
        for c in negaters:
            if c.alignment is None:
                raise CaseRefused(f"{a.id} cannot be negated by {a.guard_by}, and the case does not say whether "
                                  f"'{c.name}' (a {c.type.replace('_', ' ')}), which can negate, is good, evil or "
                                  "neutral: state it as 'alignment: good', 'alignment: evil' or 'alignment: neutral'",
                                  unmodelled.locate(c.name))


def _refuse_negates_the_model_cannot_follow(cards: list[Card], abilities: list[Ability],
                                            attempts: list[Attempt]) -> None:
    """A negate (a negate attempt, or the ongoing negate of the ability's kind of a card of the case) that may reach
    an ability whose guard has a condition regcheck does not read ("cannot be negated if ..."), an ability that
    adds characters to battle (what took effect through it is negated with it, NEG-7-R1, which regcheck does not
    follow) or a move already carried out (a withdraw, a return to hand, a shuffle, a capture, a place in a deck, a
    banish or a reserve: `_MOVES`), is refused."""
    by_ability = {a.id: a for a in abilities}
    by_attempt = {x.id: x for x in attempts}
    by_card = {c.name: c for c in cards}
    negated_kinds = {kind: a for a in abilities for kind in a.negates_kinds}
    for x in attempts:
        a = _used(x, by_ability)
        if a is not None and a.guard_condition and a.kind in negated_kinds:
            # an ongoing negate of the ability's kind ("negate heal abilities", GLOSS-12) may reach this use
            raise CaseRefused(f"{x.id} uses {a.id}, whose ability says '{a.guard_condition}', a guard regcheck does "
                              f"not read whole, and {negated_kinds[a.kind].id} negates such abilities while its card "
                              "is in play; write the ability by hand for this case", x.loc)
    for y in attempts:
        if y.kind != "negate_ability" or y.ability is None:
            continue
        negate = by_ability[y.ability]
        reached = [by_attempt[y.negated_attempt]] if y.negated_attempt is not None else []
        if negate.targets_every:
            reached += [x for x in attempts if x.step < y.step and x.kind in ("play_card", "activate_ability")]
        for x in reached:
            a = by_ability.get(x.ability or "")
            if a is None:
                continue
            if a.kind in _MOVES:
                raise CaseRefused(f"{y.id} may negate {x.id}, {_MOVES[a.kind]} already carried out (instantaneous, "
                                  "WDR-2, RET-1, SHUF-1, CAPT-2, PLACE-1, BAN-1-R1, RSV-3-R2): what undoing it would do "
                                  "to the cards it moved is not in the rules text, and regcheck does not follow it",
                                  y.loc)
            if a.guard_condition:
                raise _guard_refused(y, x, a)
            if a.adds:
                raise CaseRefused(f"{y.id} may negate {x.id}, whose ability adds characters to battle: what took "
                                  "effect through a negated ability is negated with it (NEG-7-R1), which regcheck "
                                  "does not follow", y.loc)
        # a guard also keeps out the prevent of a negate of all that fit from abilities used later (NEG-4, CBN-9)
        for x in attempts if negate.targets_every else ():
            a = by_ability.get(x.ability or "")
            if (x.step > y.step and x.kind in ("activate_ability", "negate_ability") and a is not None
                    and a.guard_condition and negate.fits(by_card[a.card])):
                raise _guard_refused(y, x, a)


def _refuse_prevents_the_model_cannot_follow(cards: list[Card], abilities: list[Ability], steps: list[Step],
                                             attempts: list[Attempt]) -> None:
    """A prevent of the next cards played (PREV-11-R1) that may take as its target what regcheck cannot follow is
    refused: a card played outside the Battle Phase (where a card whose ability is prevented as it is played outside
    battle goes is not in the rules text, SA-15, GLOSS-15), a card played whose ability adds characters to battle, is
    paid for with its own card, is a prevent itself or a guard not read whole, a Territory Class card, or a negate
    played from hand (a negate attempt, whose card regcheck does not play)."""
    by_ability = {a.id: a for a in abilities}
    by_card = {c.name: c for c in cards}
    at = {s.position: s for s in steps}
    for y in attempts:
        prevent = _used(y, by_ability)
        if prevent is None or prevent.kind != "prevent_effect":
            continue
        for x in attempts:
            c = by_card.get(x.card or "")
            if (x.step <= y.step or c is None or (at[x.step].turn, at[x.step].phase) != (at[y.step].turn, at[y.step].phase)
                    or x.kind not in ("play_card", "negate_ability") or not prevent.fits(c)
                    or (prevent.prevents_opponents_plays and x.player == y.player)
                    or (prevent.prevents_plays_in_battle and at[x.step].phase != "Battle")):
                continue
            a = by_ability.get(x.ability or "")
            why = ("a negate, which regcheck does not model as a card played" if x.kind == "negate_ability"
                   else "played outside the Battle Phase, where the rules text does not say where a card whose ability "
                        "is prevented goes (SA-15, GLOSS-15)" if at[x.step].phase != "Battle"
                   else "a Territory Class card" if c.territory_class
                   else "" if a is None
                   else "an ability adding characters to battle" if a.adds or a.effect_class != "plain_effect"
                   else "paid for with its own card" if a.discards_itself
                   else "a prevent itself" if a.kind == "prevent_effect"
                   else f"guarded by '{a.guard_condition}', which regcheck does not read whole" if a.guard_condition
                   else "")
            if why:
                raise CaseRefused(f"{y.id} is a prevent of the next cards played that fit it (PREV-11-R1), and {x.id} "
                                  f"uses '{x.card}' after it in its phase: {why}; regcheck does not follow that "
                                  "prevent", x.loc)


def _guard_refused(y: Attempt, x: Attempt, a: Ability) -> CaseRefused:
    """The refusal of the negate `y` reaching `x`, a use of `a`, whose guard is kept aside (`Ability.guard_condition`):
    for some users only and not settled by the case's uses (CBN-6-R2), or not read whole."""
    if a.guard_user:
        return CaseRefused(f"{y.id} may negate {x.id}, whose ability says '{a.guard_condition}' (CBN-6-R2), and the "
                           "case's uses of it are neither all known to be nor all known not to be by such a user: state "
                           "the users' traits and alignment, or write the ability by hand for this case", y.loc)
    return CaseRefused(f"{y.id} may negate {x.id}, whose ability says '{a.guard_condition}', a guard regcheck does not "
                       "read whole; write the ability by hand (with its guards true or false) for this case", y.loc)


# The zones of the field of play (GLOSS-4; `in_play` in encodings/glossary.yaml).
_IN_PLAY = ("field_of_battle", "territory", "artifact_pile", "land_of_bondage")


def _refuse_prices_of_a_card_itself_the_model_cannot_follow(cards: list[Card], abilities: list[Ability],
                                                             attempts: list[Attempt]) -> None:
    """A price that is the ability's own card (CORE-19-R1) is paid by a use from play: a play of the card that uses
    the ability (where the card goes, played and discarded at once, is not in the rules text found), a negate made
    with such a card that does not start in play, and a negate that may reach such a use (whether it gives the price
    back is not in the rules text found either) are refused."""
    by_card = {c.name: c for c in cards}
    by_ability = {a.id: a for a in abilities}
    by_id = {x.id: x for x in attempts}
    for x in attempts:
        a = _used(x, by_ability)
        if x.kind == "play_card" and a is not None and a.discards_itself:
            raise CaseRefused(f"{x.id} plays '{x.card}', using {a.id}, whose price is the card itself (CORE-19-R1): "
                              "where a card goes that is played and discarded by one use is not modelled; activate "
                              "it from play instead", x.loc)
        made_with = by_ability.get(x.ability or "") if x.kind == "negate_ability" else None
        start = by_card[made_with.card].zone if made_with is not None else ""
        if made_with is not None and made_with.discards_itself and start not in _IN_PLAY:
            raise CaseRefused(f"{x.id} negates with '{made_with.card}', whose price for {made_with.id} is the card "
                              f"itself (CORE-19-R1), paid by a use from play, and '{made_with.card}' starts in the "
                              f"{display_value(start)}: start it in play", x.loc)
        y = by_id.get(x.negated_attempt or "") if x.kind == "negate_ability" else None
        b = _used(y, by_ability) if y is not None else None
        if y is not None and b is not None and b.discards_itself:
            raise CaseRefused(f"{x.id} may negate {y.id}, which used {b.id}, whose price is its own card "
                              "(CORE-19-R1): whether a negate gives back a price paid is not in the rules text found",
                              x.loc)


def _refuse_grants_aside(unmodelled: Unmodelled, abilities: list[Ability], attempts: list[Attempt]) -> None:
    """A card whose text gives "cannot be ..." to abilities on other cards in words the reader does not read whole
    (`Ability.grant_aside`), in a case where anything negates (a negate attempt, or an ongoing negate of ability
    kinds), is refused: which abilities it keeps from the negate is not read."""
    negate = next((x.id for x in attempts if x.kind == "negate_ability"), None) or next(
        (a.id for a in abilities if a.negates_kinds), None)
    if negate is None:
        return
    for a in abilities:
        if a.grant_aside:
            raise CaseRefused(f"{a.card} says '{a.grant_aside}', a 'cannot be ...' given to other cards that regcheck "
                              f"does not read whole, and {negate} negates: which abilities it covers is not read; write "
                              "the ability by hand for this case", unmodelled.locate(a.card))


_NOT_INTERRUPTED = ("which abilities the interrupt suspends and which reactivate (INT-17 to INT-20, INT-9 to INT-14) "
                    "is not carried out by regcheck; write the ability by hand for this case")


def _refuse_interrupts_that_could_matter(cards: list[Card], abilities: list[Ability], steps: list[Step],
                                         attempts: list[Attempt]) -> None:
    """A use of an ability that interrupts the battle (`Ability.interrupts_battle`) is refused where an ability
    activated on a card in the current battle could be there for it to interrupt (INT-17 to INT-20): an attempt
    earlier in the same Battle Phase that uses an ability or brings a card with a text into battle, or a card with
    a text that starts in the field of battle. What it suspends and what reactivates is not carried out."""
    by_ability = {a.id: a for a in abilities}
    by_card = {c.name: c for c in cards}
    at = {s.position: s for s in steps}
    for x in attempts:
        a = _used(x, by_ability)
        if a is None or not a.interrupts_battle or at[x.step].phase != "Battle":
            continue
        for y in attempts:
            if y.step >= x.step or at[y.step].turn != at[x.step].turn or at[y.step].phase != "Battle":
                continue
            entering = [n for n in y.targets if y.kind == "enter_battle" and _has_text(by_card.get(n))]
            if y.ability is not None or entering:
                what = (f"brings '{entering[0]}', whose abilities activate as it enters battle," if entering
                        else "uses an ability")
                raise CaseRefused(f"{x.id} interrupts the battle ({a.card}), and {y.id} (line {y.loc.line}) {what} "
                                  f"earlier in this battle: {_NOT_INTERRUPTED}", x.loc)
        there = next((c.name for c in cards if c.zone == "field_of_battle" and c.name != x.card and _has_text(c)), None)
        if there is not None:
            raise CaseRefused(f"{x.id} interrupts the battle ({a.card}), and '{there}' starts in the field of battle "
                              f"with abilities activated in this battle: {_NOT_INTERRUPTED}", x.loc)


def _has_text(card: Card | None) -> bool:
    """The card has an ability in the case, or a printed special ability (read or not)."""
    return card is not None and bool(card.abilities or card.text.strip())


# The abilities that move their targets at once to another place, by kind (WDR-3, RET-1, SHUF-1, CAPT-2, PLACE-1,
# BAN-1-R1, RSV-3-R2).
_MOVES = {"withdraw_effect": "a withdraw", "return_to_hand_effect": "a return to hand",
          "shuffle_effect": "a shuffle", "capture_effect": "a capture", "place_in_deck_effect": "a place in a deck",
          "banish_effect": "a banish", "reserve_effect": "a reserve"}


def _move_of(x: Attempt, by_ability: dict[str, Ability],
             by_attempt: dict[str, Attempt]) -> tuple[str, tuple[str, ...]] | None:
    """The kind of move an attempt makes (`_MOVES`) and the cards it moves: those it targets, or for a negate that
    also underdecks, banishes or reserves (PLACE-1-R2, BAN-1-R2, RSV-3-R3) the card whose ability it negates; None
    for an attempt that moves no card so."""
    a = _used(x, by_ability)
    if a is not None and a.kind in _MOVES:
        return a.kind, x.targets
    negating = by_ability.get(x.ability or "")
    if x.kind == "negate_ability" and negating is not None and x.negated_attempt:
        negated_card = by_attempt[x.negated_attempt].card
        moved = (negated_card,) if negated_card is not None else ()
        kind = _NEGATE_MOVES.get(negating.moves_what_it_negates)
        if kind is not None:
            return kind, moved
    return None


# What a negate that also moves the card whose ability it negates does to it, as the move it makes (`_MOVES`).
_NEGATE_MOVES = {"into_draw_pile": "place_in_deck_effect", "into_banish_pile": "banish_effect",
                 "into_reserve": "reserve_effect"}


def _refuse_moves_of_cards_being_discarded(abilities: list[Ability], steps: list[Step],
                                           attempts: list[Attempt]) -> None:
    """A withdraw, a return to hand, a shuffle, a capture or a place in a deck (a negate's too, PLACE-1-R2) aimed at a
    card that a discard used earlier in the same phase may be discarding is refused: a discard in progress completes
    at the end of the phase (CORE-13), and whether it still does once the card has been moved away is not in the
    rules text."""
    by_ability = {a.id: a for a in abilities}
    by_attempt = {x.id: x for x in attempts}
    at = {s.position: s for s in steps}
    for x in attempts:
        move = _move_of(x, by_ability, by_attempt)
        if move is None:
            continue
        kind, targets = move
        for y in attempts:
            b = by_ability.get(y.ability or "")
            if (y.kind == "negate_ability" and b is not None and b.moves_what_it_negates == "into_discard_pile"
                    and y.negated_attempt):
                negated_card = by_attempt[y.negated_attempt].card
                caught = {negated_card} if negated_card is not None else set()
            elif y.kind == "discard_card" or getattr(_used(y, by_ability), "kind", None) == "discard_effect":
                caught = set(y.targets)
            else:
                continue
            moved = caught & set(targets)
            if (moved and y.step < x.step and at[y.step].turn == at[x.step].turn
                    and at[y.step].phase == at[x.step].phase):
                raise CaseRefused(f"{x.id} is {_MOVES[kind]} of '{sorted(moved)[0]}', whose discard by {y.id} (line "
                                  f"{y.loc.line}) may still be in progress (CORE-13): whether the discard completes "
                                  "once the card has been moved is not in the rules text", x.loc)


def _refuse_returns_to_hand_of_conditioned_cards(abilities: list[Ability], attempts: list[Attempt],
                                                 conditioned: frozenset[str]) -> None:
    """A return to hand aimed at a card that could have a condition when it is returned (the case starts it with
    one, or an affliction is aimed at it earlier) is refused: RET-2 returns the card to face value, which the
    conditions' rule (CORE-12) does not follow."""
    by_ability = {a.id: a for a in abilities}
    afflictions = [y for y in attempts if getattr(_used(y, by_ability), "kind", None) == "affliction_effect"]
    for x in attempts:
        a = _used(x, by_ability)
        if a is None or a.kind != "return_to_hand_effect":
            continue
        afflicted = {c for y in afflictions if y.step < x.step for c in y.targets}
        for name in x.targets:
            if name in conditioned or name in afflicted:
                raise CaseRefused(f"{x.id} returns '{name}' to hand, and '{name}' could have a condition then: a card "
                                  "returned to hand goes back to face value (RET-2), which regcheck does not follow "
                                  "for conditions", x.loc)


def _refuse_what_captured_cards_could_meet(cards: list[Card], abilities: list[Ability],
                                            attempts: list[Attempt]) -> None:
    """A captured character stops being a character, and every card placed on it is discarded (CAPT-1), which
    regcheck does not carry out: a case where a card a capture may reach holds a card placed on it, has an
    ongoing ability, or could be used, targeted or named by a later attempt (or reached by a later ability of
    "all" the cards that fit) is refused."""
    by_ability = {a.id: a for a in abilities}
    by_card = {c.name: c for c in cards}

    def reaches_the_captive(b: Ability | None, name: str) -> bool:
        # a later ability of "all" that fit looking where the captive is held (a Land of Bondage is in play)
        return (b is not None and b.targets_every and name in by_card and b.fits(by_card[name])
                and (b.target_zone in (None, "land_of_bondage") or b.also_in_play))

    for x in attempts:
        a = _used(x, by_ability)
        if a is None or a.kind != "capture_effect":
            continue
        for name in x.targets:
            placed = next((c.name for c in cards if c.equipped_to == name), None)
            ongoing = next((b.id for b in abilities if b.card == name and (b.negates_kinds or b.grants_unnegatable)),
                           None)
            later = next((y for y in attempts if y.step > x.step and (
                name in (y.card, y.played_on) or name in y.targets or reaches_the_captive(_used(y, by_ability), name)
                or name in getattr(by_ability.get(y.ability or ""), "adds", ()))), None)
            why = (f"'{placed}' is placed on it, and would be discarded" if placed is not None
                   else f"its ability {ongoing} acts while it is in play" if ongoing is not None
                   else f"attempt '{later.id}' (line {later.loc.line}) comes after and could meet it" if later
                   else "")
            if why:
                raise CaseRefused(f"{x.id} may capture '{name}': a captured character stops being a character "
                                  f"(CAPT-1), which regcheck does not follow, and {why}", x.loc)


def _refuse_unsettled_traits(unmodelled: Unmodelled, cards: list[Card], abilities: list[Ability],
                             attempts: list[Attempt]) -> None:
    """An ability that names traits for its targets ("a human Hero") used on a card whose traits the case
    does not settle is refused: the card list does not record them all, and none is assumed."""
    by_card = {c.name: c for c in cards}
    by_ability = {a.id: a for a in abilities}
    uses = _description_uses(cards, abilities, attempts)
    for ability_id, names, where in uses:
        a = by_ability.get(ability_id or "")
        for (types, alignment, brigade, traits), name in itertools.product(a.checked_descriptions() if a else (), names):
            c = by_card.get(name)
            if not traits or c is None or not fits_description(c, types, brigade, alignment, ()):
                continue
            missing = c.unsettled(traits)
            titles = [t.removeprefix(NAMED) for t in missing if t.startswith(NAMED)]
            if titles:
                assert a is not None
                raise CaseRefused(f"{a.id} names {titles[0]} for its targets (CORE-15-R1), and whether '{name}' "
                                  f"({c.real_card or 'a card of no title'}) is {titles[0]} is not settled by a title "
                                  "(the REG leaves who a card is to its identifiers): name it a real card of that title "
                                  "with 'card:', or one of another title", where or unmodelled.locate(name))
            if missing:
                assert a is not None
                raise CaseRefused(f"{a.id} names {', '.join(missing)} for its targets, and the case does not say whether "
                                f"'{name}' is {' and '.join(missing)}: list its traits under 'traits:' "
                                f"(e.g. 'traits: [{', '.join(missing)}]', or 'traits: []' for none)",
                                where or unmodelled.locate(name))




def _refuse_unsettled_use_limits(unmodelled: Unmodelled, cards: list[Card], abilities: list[Ability],
                                 attempts: list[Attempt]) -> None:
    """What CORE-17 leaves unsaid about a limited ability is refused, not guessed: whether a negated use
    counts (a limited ability used again after a negated use), and whether the limit counts each copy of a
    printed card apart (two copies of a real card with a limited ability)."""
    limited = {a.id: a for a in abilities if a.uses_per_game or a.uses_per_turn}
    if not limited:
        return
    negated = {x.negated_attempt for x in attempts if x.negated_attempt is not None}
    by_id = {x.id: x for x in attempts}
    for n in sorted(negated):
        first = by_id[n]
        if first.ability not in limited:
            continue
        later = [x for x in attempts if x.ability == first.ability and x.step > first.step
                 and x.kind in ("play_card", "activate_ability", "return_early", "negate_ability")]
        if later:
            raise CaseRefused(f"{first.ability} may be used {_limit_text(limited[first.ability])} (CORE-17), and "
                            f"'{first.id}' is negated before '{later[0].id}' uses it again: whether a negated use "
                            "counts toward the limit is not stated, so this case is not answered", later[0].loc)
    printed: dict[str, list[str]] = {}
    for c in cards:
        if c.real_card and any(a.card == c.name and a.id in limited for a in abilities):
            printed.setdefault(c.real_card, []).append(c.name)
    for name, copies in sorted(printed.items()):
        if len(copies) > 1:
            raise CaseRefused(f"'{copies[0]}' and '{copies[1]}' are both {quoted(name)}, whose ability may be used "
                            f"{_limit_text(limited[next(a for a in limited if limited[a].card == copies[0])])} "
                            "(CORE-17): whether the limit counts each copy apart is not stated, so this case is "
                            "not answered", unmodelled.locate(copies[1]))


def _limit_text(a: Ability) -> str:
    return " and ".join(f"{'once' if n == 1 else 'twice' if n == 2 else f'{n} times'} per {per}"
                        for n, per in ((a.uses_per_game, "game"), (a.uses_per_turn, "turn")) if n)


# Attempts that harm no card: a protection never meets them.
_HARMLESS = ("choose_return", "end_battle", "enter_battle")


def _refuse_protections_that_could_matter(unmodelled: Unmodelled, cards: list[Card], abilities: list[Ability],
                                          attempts: list[Attempt]) -> None:
    """A real card's protection ("protect ... from ...", "immune ... while set aside") is not modelled: a case
    holding the card (for a set-aside's paired protection: using that set-aside) is refused when it holds
    an attempt the protection could meet.

    Read as broadly as its words could go: an attempt of another card, other than a heal or an attempt
    that harms no card, could meet it, unless the protection is against capture, conversion or removal from
    the game and the attempt neither captures nor banishes (the model has no conversion), or against evil
    cards and the attempt's card is a Hero or a Good Enhancement, or it guards only the cards the ability sets
    aside (or cards in set-aside areas) and the attempt targets none of them.
    """
    by_card = {c.name: c for c in cards}
    by_ability = {a.id: a for a in abilities}
    set_aside_kinds = {"set_aside_effect"}
    maybe_set_aside = {c.name for c in cards if c.zone == "set_aside_area"} | {
        t for x in attempts if by_ability.get(x.ability or "") is not None
        and by_ability[x.ability or ""].kind in set_aside_kinds for t in x.targets}
    for name, own_card, protections, said, where, ability_id in unmodelled.protections.values():
        uses = _uses(attempts, ability_id)
        guarded = {t for x in uses for t in x.targets}
        for y in attempts:
            if y.kind in _HARMLESS or y.card == own_card:
                continue
            used = by_ability.get(y.ability or "")
            if used is not None and used.kind == "heal_effect":
                continue
            card = by_card.get(y.card or "")
            for protection in protections:
                whom, against, whose = protection.split("/")
                if (whose == "paired" and not uses) or (against == "capture" and not _captures_or_banishes(y, used)):
                    continue
                if against == "evil" and card is not None and card.type in ("Hero", "GE"):
                    continue
                if whom == "set_aside_cards" and not guarded & set(y.targets):
                    continue
                if whom == "set_aside_areas" and not (maybe_set_aside & set(y.targets) or (
                        used is not None and used.target_zone == "set_aside_area")):
                    continue
                listed = "; ".join(f"'{t}'" for t in said)
                raise CaseRefused(
                    f"{quoted(name)} protects cards ({listed}), and regcheck does not model protection: attempt "
                    f"'{y.id}' (line {y.loc.line}) could be one it protects against. Keep 'card: {name}' for its "
                    "type and brigade and write the ability by hand under 'abilities:', deciding what the "
                    "protection does in this case", where.loc)


def _captures_or_banishes(y: Attempt, used: Ability | None) -> bool:
    """Whether an attempt could meet a protection against capture, conversion or removal from the game: it uses a
    capture, a banish (a removal from the game is read as one, BAN-2-R1), or a negate that banishes the card whose
    ability it negates (BAN-1-R2)."""
    return used is not None and (used.kind in ("capture_effect", "banish_effect") or (
        y.kind == "negate_ability" and used.moves_what_it_negates == "into_banish_pile"))


def _could_be_discarded(abilities: list[Ability], steps: list[Step],
                        attempts: list[Attempt]) -> Callable[[Card, int | None], bool]:
    """Whether a card of the case could be in a discard pile at a step (at any step, for None), read broadly: the case
    puts it there; an attempt before that step could discard cards (a discard, an ability that discards, a negate that
    discards what it negates, a price paid with its own card), or a battle ended before it (its characters are
    discarded at battle resolution, after the Battle phase: GLOSS-3), for a card the case starts in the field of
    battle the battle of turn 1; or it is not a character played or used before it, or at all for any step (the rules
    discard an enhancement after use and other cards after battle)."""
    by_ability = {a.id: a for a in abilities}

    def discarding(y: Attempt, s: int | None) -> bool:
        if s is not None and y.step >= s:
            return False
        if y.kind == "enter_battle":
            return s is None or steps[s].turn != steps[y.step].turn or steps[s].phase != steps[y.step].phase
        a = by_ability.get(y.ability or "") if y.kind in ("play_card", "activate_ability", "negate_ability") else None
        return y.kind == "discard_card" or (a is not None and (
            a.kind == "discard_effect" or a.discards_itself
            or (y.kind == "negate_ability" and a.moves_what_it_negates == "into_discard_pile")))

    def battle_ended_before(s: int | None) -> bool:
        # a card the case starts in the field of battle is in a battle of turn 1, over once that Battle phase is
        return s is None or steps[s].turn > 1 or steps[s].phase == "Discard"

    def could_be(c: Card, s: int | None) -> bool:
        return (c.zone == "discard_pile" or any(discarding(y, s) for y in attempts)
                or (c.zone == "field_of_battle" and battle_ended_before(s)) or (
            c.type not in ("Hero", "Evil_Character") and (s is None or any(
                y.card == c.name and y.step < s for y in attempts))))
    return could_be


_ZONE_WORDS = {"hand": "in a hand", "draw_pile": "in a draw pile", "discard_pile": "that may be in a discard pile",
               "reserve": "in a Reserve"}


def _refuse_on_return_effects_that_could_matter(unmodelled: Unmodelled, cards: list[Card], abilities: list[Ability],
                                                steps: list[Step], attempts: list[Attempt]) -> None:
    """A real card's on-return effect (SA-11) is not carried out: a case using the ability is refused when the
    effect could change one of its cards or attempts (see `AbilityReading.on_return_changes`).

    Read as broadly as its words could go: an effect on cards in play, or anywhere, could change any card of the
    types it names; one that takes cards from a hand or a draw pile, any card the case puts there; one that takes
    cards from a discard pile, any card that could be there (put there by the case, a card other than a
    character, which the rules discard after use or after battle, or any card of a case that discards or
    battles); one that picks a blocker, any entry into battle after the first use (for a duration of N turns,
    from the N-th turn after it: an on-return clause fires only once the duration is reached, SA-12). One
    that discards its own card changes nothing when that card is an enhancement (the rules have discarded it
    by the time a card returns: SA-15, CORE-8, SA-5).
    """
    by_card = {c.name: c for c in cards}
    by_ability = {a.id: a for a in abilities}
    discarded = _could_be_discarded(abilities, steps, attempts)
    for ability_id, (name, own_card, changes, clause, where) in unmodelled.on_return_effects.items():
        uses = _uses(attempts, ability_id)
        if not uses:
            continue
        first = min(x.step for x in uses)
        hit = ""
        for change in changes:
            if change == "this_card":
                if by_card[own_card].type not in ("GE", "EE"):
                    hit = f"card '{own_card}', which it discards and which is not an enhancement"
            elif change == "blocking":
                a = by_ability[ability_id]
                wait = a.duration_turns if a.duration_kind == "for_turns" else 0
                later = [x for x in attempts if x.kind == "enter_battle" and x.step > first
                         and steps[x.step].turn >= steps[first].turn + wait]
                if later:
                    hit = f"who may block in attempt '{later[0].id}' (line {later[0].loc.line})"
            else:
                zone, types = change.split(":")
                for c in cards:
                    if c.name == own_card or (types != "any" and c.type not in types.split("/")):
                        continue
                    if zone in ("anywhere", "in_play") or c.zone == zone or (zone == "discard_pile" and discarded(c, None)):
                        where_words = "" if zone in ("anywhere", "in_play") else f" ({_ZONE_WORDS[zone]})"
                        hit = f"card '{c.name}'{where_words}"
                        break
            if hit:
                raise CaseRefused(
                    f"{quoted(name)} has an on-return effect ('{clause}') that regcheck does not carry out, and it "
                    f"could change {hit}. Keep 'card: {name}' for its type and brigade and write the ability by "
                    "hand under 'abilities:', deciding what the on-return effect does in this case", where.loc)


# Where a card's ongoing words act: in play, or active in an artifact pile.
_ACTING_ZONES = ("territory", "field_of_battle", "land_of_bondage", "artifact_pile")
# The labels of a block that acts only when its card is used as that type (a dual card's GE and EE blocks).
_TYPE_LABELS = {"GE": "GE", "EE": "EE", "HERO": "Hero", "EC": "Evil_Character"}


def _refuse_unread_blocks_in_play(unmodelled: Unmodelled, cards: list[Card], abilities: list[Ability],
                                  attempts: list[Attempt]) -> None:
    """A real card with a block regcheck does not read, whose words could act without being chosen ("Restrict
    players from ..."), is refused when the case has the card where they could act: a character's when it is in
    battle (or, Territory Class, in play); an artifact block's (A, ART) in an artifact pile; another card's when
    it starts in play or in an artifact pile, or, for an unlabelled block, when it is played (a play uses the block
    it names). A block labelled for another type (the EE block of a dual card the case states as a GE) never acts."""
    by_card = {c.name: c for c in cards}
    played = {x.card for x in attempts if x.kind == "play_card"}
    in_battle = {n for x in attempts if x.kind == "enter_battle" for n in x.targets} | {n for a in abilities for n in a.adds}
    for name, own_card, label, text, where in unmodelled.unread_blocks.values():
        c = by_card.get(own_card)
        if c is None or (label in _TYPE_LABELS and _TYPE_LABELS[label] != c.type):
            continue
        if c.type in ("Hero", "Evil_Character"):
            acts = own_card in in_battle or c.zone == "field_of_battle" or (c.territory_class and c.zone in _ACTING_ZONES)
        elif label in ("A", "ART", "ARTIFACT"):
            acts = c.zone == "artifact_pile"
        else:
            # a play uses the block it names (a labelled block other than that one is not used by it)
            acts = c.zone in _ACTING_ZONES or (own_card in played and not label)
        if acts:
            raise CaseRefused(f"{quoted(name)} also says '{text}', which regcheck does not read, and it could act in "
                              f"this case. Keep 'card: {name}' for its type and brigade and write its abilities by hand "
                              "under 'abilities:', deciding what that block does in this case", where.loc)


def _refuse_use_effects_that_could_matter(unmodelled: Unmodelled, cards: list[Card], abilities: list[Ability],
                                          steps: list[Step], attempts: list[Attempt]) -> None:
    """A real card's effect that regcheck does not carry out, besides the one it models ("Discard all evil cards
    placed on that Hero" after a heal, "Each player may draw X"): a case using the ability is refused when the
    effect could change one of its cards. Read as broadly as its words could go: a card placed on a target is
    one played on it or equipped to it, at any step, and it could be evil unless it is a Hero or a Good
    Enhancement; a card drawn is any card the case puts in a draw pile; a card taken from a discard pile, any card
    that could be there when the ability is used (`_could_be_discarded`); a card a second effect moves
    ("Discard all evil Enhancements in battle"), or a price discards (CORE-19), is any card of a type and
    alignment it names (or of unknown alignment), wherever the case puts it, or for one taken from a hand, a
    card the case starts in a hand or returns to one.
    """
    by_card = {c.name: c for c in cards}
    by_ability = {a.id: a for a in abilities}
    returned_to_hand = {t for x in attempts if getattr(_used(x, by_ability), "kind", None) == "return_to_hand_effect"
                        for t in x.targets}
    discarded = _could_be_discarded(abilities, steps, attempts)
    for ability_id, (name, own_card, changes, said, where) in unmodelled.use_effects.items():
        uses = _every_use(attempts, ability_id)
        targets = {t for x in uses for t in x.targets}
        hit = []
        if "placed_on_targets:evil" in changes:
            placed = sorted({x.card for x in attempts if x.kind == "play_card" and x.played_on in targets and x.card}
                            | {c.name for c in cards if c.equipped_to in targets})
            hit = [f"card '{c}', which could be placed on a card it targets" for c in placed
                   if c != own_card and by_card[c].type not in ("Hero", "GE")]
        for change in changes:
            zone, _, types = change.partition(":")
            reach = reach_of(change)
            if reach is not None and uses:
                hit += [f"card '{c.name}', which it could reach" for c in cards if c.name != own_card
                        and (not reach.types or c.type in reach.types)
                        and (reach.alignment is None or c.alignment is None or c.alignment in reach.alignment.split("/"))
                        and (not reach.in_hand or c.zone == "hand" or c.name in returned_to_hand)]
            if zone in _ZONE_WORDS and uses:
                hit += [f"card '{c.name}' ({_ZONE_WORDS[zone]})" for c in cards if c.name != own_card
                        and (c.zone == zone or (zone == "discard_pile" and any(discarded(c, x.step) for x in uses)))
                        and (types == "any" or c.type in types.split("/"))]
        if hit:
            raise CaseRefused(
                f"{quoted(name)} also says '{said}', which regcheck does not carry out, and it could change {hit[0]}. "
                f"Keep 'card: {name}' for its type and brigade and write the ability by hand under 'abilities:', "
                "deciding what that effect does in this case", where.loc)


def _refuse_unmet_requirements(unmodelled: Unmodelled, cards: list[Card], steps: list[Step],
                               attempts: list[Attempt]) -> None:
    """A real card's ability that does something only when used as its text requires ("If used by a N.T. Hero",
    "If played during your Preparation or Battle phase"): a use not known to meet it is refused, since the model
    cannot state a use whose effect does not happen. The user of an enhancement is the character it is played on
    (none is known for a negate entry); of any other card's ability, the card. A set-aside whose card gains an
    ability ("Demon gains the ability '...'") is refused when an attempt could return its cards early (an early
    return, or a negate of the use). A use naming two targets of an ability that allows two only to some users
    ("Capture a human (or two humans if used by an Assyrian)", CORE-15-R4: requirements `two:...`) is refused
    unless its user is known to be one."""
    by_card = {c.name: c for c in cards}
    for ability_id, (name, requires, where) in unmodelled.requirements.items():
        phases = [r.split(":")[1] for r in requires if r.startswith("phase:")]
        for x in _every_use(attempts, ability_id):
            step = steps[x.step]
            user = _user_of(x, by_card)
            named = requires if len(x.targets) > 1 else tuple(r for r in requires if not r.startswith("two:"))
            types = [r.split(":")[-1] for r in named if r.removeprefix("two:").startswith("used_by:")]
            traits = [r.split(":")[-1] for r in named if r.removeprefix("two:").startswith("used_by_trait:")]
            why = ""
            early = [y for y in attempts if (y.kind == "return_early" and set(y.targets) & set(x.targets))
                     or (y.kind == "negate_ability" and y.negated_attempt == x.id)]
            if "no_early_return" in requires and early:
                raise CaseRefused(
                    f"{quoted(name)} gives the cards it sets aside an ability, and attempt '{early[0].id}' (line "
                    f"{early[0].loc.line}) could return them early from the use '{x.id}' (line {x.loc.line}): whether "
                    f"a card returned early gains the ability is not read. Keep 'card: {name}' for its type and "
                    "brigade and write the ability by hand under 'abilities:' (grants: true or false)", where.loc)
            if "own_turn" in requires and step.active_player != x.player:
                why = f"it is used in {step.active_player}'s turn, not its player's"
            elif phases and step.phase not in phases:
                why = f"it is used in the {step.phase} Phase, not the {' or '.join(phases)} Phase"
            elif types and (user is None or user.type not in types or not set(traits) <= set(user.traits)):
                shown = ' '.join(traits + ['/'.join(display_value(t) for t in types)])
                why = (f"its user ('{user.name}', {display_value(user.type)} with traits "
                       f"{', '.join(user.traits) or 'none known'}) is not known to be a {shown}" if user is not None
                       else f"a negate entry does not say which character uses the enhancement, and it must be a "
                            f"{shown}" if x.kind == "negate_ability"
                       else f"it names no user known to be a {shown}")
            if why:
                raise CaseRefused(
                    f"{quoted(name)} does something only when used as its text says, and attempt '{x.id}' (line "
                    f"{x.loc.line}) may not be: {why}. regcheck cannot state a use whose effect does not happen: "
                    f"keep 'card: {name}' for its type and brigade and write the ability by hand under 'abilities:'"
                    f"{', or give the user its traits' if types and x.kind != 'negate_ability' else ''}", where.loc)
