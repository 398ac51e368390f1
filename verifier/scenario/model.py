"""The scenario model: a card combination as plain values (named tuples), with every input pinned."""

from __future__ import annotations

__all__ = [
    "Fact", "Step", "Ability", "Modifier", "Card", "Attempt", "Question", "Expectation", "Claim", "Scenario",
    "NEVER_LABEL", "step_label", "fits_description", "ADDING_CLASSES",
]

from typing import NamedTuple

from ..errors import Location
from ..language.syntax import Expr
from .cardreading import BRIGADE_COUNT_TRAITS
from .descriptions import read_description
from .titles import NAMED, may_be_named

NEVER_LABEL = "never"


class Fact(NamedTuple):
    """One input value stated by the case (or by a documented default), with where it comes from."""

    symbol: str
    args: tuple[str, ...]
    value: object
    text: str
    loc: Location
    default: bool = False

    @property
    def name(self) -> str:
        return f"{self.symbol}({', '.join(self.args)})"


def step_label(turn: int, phase: str, active_player: str | None, attempt: str | None = None) -> str:
    """A step as people read it: 'turn 2 Preparation (bob)', or 'turn 2 Preparation (bob), bring_back'
    for an attempt within the phase; without `active_player`, the shorter form a case may still write."""
    whose = f" ({active_player})" if active_player is not None else ""
    return f"turn {turn} {phase}{whose}" + (f", {attempt}" if attempt is not None else "")


class Step(NamedTuple):
    """A point of the timeline: the beginning of a phase, or one attempt within it, in the turn of
    `active_player`; `label` names all three."""

    position: int
    turn: int
    phase: str
    phase_start: bool
    active_player: str
    label: str


# The effect classes of an ability that adds characters to battle (AAO-9, AAO-12, AAO-14).
ADDING_CLASSES = ("adds_same_side", "adds_opposite_side", "side_battle_effect")


class Ability(NamedTuple):
    """A special ability written on a card, as the rules see it."""

    id: str
    card: str
    kind: str
    duration_kind: str
    duration_turns: int
    paired: bool
    on_return: bool
    grants_ability: bool
    cannot_be_negated: bool
    target_zone: str | None
    targets_opponents_cards: bool
    targets_all_in_location: bool
    text: str
    also_in_play: bool = False
    parts: tuple[str, ...] = ()
    effect_class: str = "plain_effect"
    gained_order: int = 0
    adds: tuple[str, ...] = ()
    heals_only: tuple[str, ...] = ()
    target_types: tuple[str, ...] = ()
    target_brigade: str | None = None
    targets_own_cards: bool = False
    min_targets: int = 0
    max_targets: int = -1
    duration_min_turns: int = 0
    inflicts: tuple[str, ...] = ()
    negates_kinds: tuple[str, ...] = ()
    entry_trigger: tuple[str, ...] = ()  # the character types whose entry into battle triggers it
    target_traits: tuple[str, ...] = ()
    uses_per_game: int = 0  # how many times in a game the card's text lets it be used (0: no limit)
    uses_per_turn: int = 0  # how many times in a turn (0: no limit)
    target_alignment: str | None = None  # "good" or "evil": the alignment its text names for its targets
    targets_every: bool = False  # its text names "all" its targets: every card that fits (TGT-18-R1)
    # "negate and discard", "negate and underdeck" (or shuffle), "negate and banish", "negate and reserve": what it
    # also does to the card it negates (DISC-1-R1, PLACE-1-R2, BAN-1-R2, RSV-3-R3); "stays_put" for none of them
    moves_what_it_negates: str = "stays_put"
    # "negate the last evil Enhancement played in battle": it reaches only the latest play of a card of its
    # description in the current battle before it (TGT-27-R1)
    negates_the_last_played: bool = False
    # "negate an Enhancement or the last Enhancement played": the negate also reaches the latest play before it of a
    # card of its description, wherever that card is now (TGT-27-R2)
    reaches_the_last_played: bool = False
    # a prevent of "the next ... played in battle", "... played by opponent": it names only cards played while a
    # battle is under way, or played by an opponent of its user (PREV-11-R1)
    prevents_plays_in_battle: bool = False
    prevents_opponents_plays: bool = False
    # "If another Moabite is in play, ...": the state its effect waits on, checked as it is used (TRIG-3, TRIG-3-R1):
    # card_in_play, card_you_control, card_in_battle, battle_under_way or no_state; the description of the cards it
    # names, and whether it names a card other than the ability's own ("another")
    if_state: str = "no_state"
    if_description: str = ""
    if_another: bool = False
    if_words: str = ""  # the words of a state the case states ("if blocking", TRIG-3-R2); "" for any other
    targets_itself: bool = False  # "You may withdraw this Hero.": its one target is its own card
    # "You may discard this card to ...": a use of it from play discards its own card (CORE-19-R1)
    discards_itself: bool = False
    # "Opponent may ... If they do not, ...": its effect happens only if the opponent does not make the move it offers
    # them (CORE-19-R2)
    offers_a_price: bool = False
    cannot_be_interrupted: bool = False  # its card says it cannot be interrupted
    cannot_be_prevented: bool = False  # its card says it cannot be prevented
    guard_condition: str = ""  # a guard sentence the card reader does not read whole (a negate reaching it is refused)
    # "cannot be negated by <description>": the cards whose abilities its guards bar ("" for every card, CBN-6-R3)
    guard_by: str = ""
    # "cannot be negated if used by <description>": the description a use's user must fit for its guards to hold
    # (CBN-6-R2), settled by the case loader from the case's uses ("" when they hold whoever uses it)
    guard_user: str = ""
    # "<description> cannot be negated": the cards whose abilities it makes unnegatable ("" for none, CBN-3)
    grants_unnegatable: str = ""
    # "... used by <this card | description>": whose Enhancements that covers ("this card" or a description of
    # characters; "" when it names no user)
    grant_users: str = ""
    # a "cannot be ..." given to other cards that the card reader does not read whole (a case with a negate is refused)
    grant_aside: str = ""
    # "interrupt the battle": what it interrupts is not carried out (a case where it could interrupt is refused)
    interrupts_battle: bool = False
    # descriptions its targets may fit instead ("any demon or beast"): (types, alignment, brigade, traits) each
    target_alternatives: tuple[tuple[tuple[str, ...], str | None, str | None, tuple[str, ...]], ...] = ()
    # descriptions its targets must not fit ("an evil card (except a human)"), written as the alternatives are
    target_exceptions: tuple[tuple[tuple[str, ...], str | None, str | None, tuple[str, ...]], ...] = ()

    def descriptions(self) -> tuple[tuple[tuple[str, ...], str | None, str | None, tuple[str, ...]], ...]:
        """Every description its targets may fit, as (types, alignment, brigade, traits): the one its fields
        name first, then its alternatives."""
        return ((self.target_types, self.target_alignment, self.target_brigade, self.target_traits),
                *self.target_alternatives)

    def checked_descriptions(self) -> tuple[tuple[tuple[str, ...], str | None, str | None, tuple[str, ...]], ...]:
        """Every description a target is checked against: those it may fit (`descriptions`), then its exceptions."""
        return self.descriptions() + self.target_exceptions

    def state_fits(self, card: Card) -> bool:
        """The card fits the description the ability's state names (`if_description`); never the ability's own card
        for "another", and no card when the state names none."""
        if not self.if_description or (self.if_another and card.name == self.card):
            return False
        d = read_description(self.if_description)
        return not isinstance(d, str) and fits_description(card, d.types, d.brigade, d.alignment, d.traits)

    def fits(self, card: Card) -> bool:
        """The card is of the type, brigade and alignment, and has the traits, of a description the ability names
        for its targets and of none its exceptions name (any card when none is named; a card of unknown alignment
        does not fit an alignment named, and the case loader refuses a case where that matters); for an ability
        whose one target is its own card ("this Hero", `targets_itself`), that card alone fits."""
        if self.targets_itself:
            return card.name == self.card
        return (any(fits_description(card, types, brigade, alignment, traits)
                    for types, alignment, brigade, traits in self.descriptions())
                and not any(fits_description(card, types, brigade, alignment, traits)
                            for types, alignment, brigade, traits in self.target_exceptions))


def fits_description(card: Card, types: tuple[str, ...], brigade: str | None, alignment: str | None,
                     traits: tuple[str, ...]) -> bool:
    """The card is of one of the types (any when none), of the brigade and alignment (one, or two joined by "/"),
    and has every trait (`multi-brigade` and `single-brigade` by its brigades); a card of unknown alignment does not
    fit an alignment named."""
    return ((not types or card.type in types)
            and (brigade is None or brigade in card.brigades)
            and (alignment is None or card.alignment in alignment.split("/"))
            and all(t in card.traits or t in _brigade_count_traits(card.brigades) for t in traits))


def _brigade_count_traits(brigades: tuple[str, ...]) -> tuple[str, ...]:
    """The trait a card of these brigades has by their number (CORE-15-R5): none for a card of no brigade."""
    return ("multi-brigade",) if len(brigades) > 1 else ("single-brigade",) if brigades else ()


class Modifier(NamedTuple):
    """A modifier: the part of an ability that changes how other abilities or effects behave."""

    id: str
    ability: str
    scope: str
    part: str
    effect: str
    condition: bool
    granted_to: tuple[str, ...]


class Card(NamedTuple):
    """A card of the scenario with its stated (or defaulted) attributes."""

    name: str
    real_card: str | None
    text: str
    type: str
    brigades: tuple[str, ...]
    owner: str
    permanent_controller: str
    temporary_controller: str
    territory_class: bool
    zone: str
    zone_of: str
    abilities: tuple[str, ...]
    equipped_to: str | None = None
    traits: tuple[str, ...] = ()  # what the card is, of the traits target descriptions name (human, male, ...)
    traits_stated: bool = False  # the case lists the card's traits: a trait not listed is one it lacks
    alignment: str | None = None  # "good", "evil" or "neutral": given by its type, or as the case states; None: unknown
    # traits the card list records for every card like it (a character's warrior class): one not given is lacking
    settled_traits: tuple[str, ...] = ()

    def unsettled(self, traits: tuple[str, ...]) -> list[str]:
        """Of the traits, those the card is not known to have and not known to lack: not among its traits, while
        the case does not list its traits and the card list does not settle them; a title it may have though its
        own is another (`titles.may_be_named`), whatever the case lists."""
        return [t for t in traits if t not in self.traits and t not in BRIGADE_COUNT_TRAITS and (
            may_be_named(self.real_card, t) if t.startswith(NAMED)
            else not self.traits_stated and t not in self.settled_traits)]


class Attempt(NamedTuple):
    """Something a player attempts at one step of the timeline."""

    id: str
    kind: str
    step: int
    player: str
    card: str | None
    ability: str | None
    played_on: str | None
    negated_attempt: str | None
    set_aside_attempt: str | None
    targets: tuple[str, ...]
    loc: Location
    discard_cause: str | None = None
    stated_turns: int = 0
    until: str | None = None


class Question(NamedTuple):
    """A named question: an expression whose value the rules should decide."""

    name: str
    expr: Expr
    type: str
    text: str
    loc: Location


class Expectation(NamedTuple):
    """The verdict (and, for `determined`, the value) a case expects for one question."""

    question: str
    verdict: str
    value: str | None
    loc: Location


class Claim(NamedTuple):
    """A ruling's claimed answer to one question of its scenario."""

    question: str
    value: str
    loc: Location


class Scenario(NamedTuple):
    """A whole case: the players, cards, timeline, pinned inputs, questions and expectations."""

    path: str
    title: str
    note: str
    players: tuple[str, ...]
    cards: tuple[Card, ...]
    abilities: tuple[Ability, ...]
    steps: tuple[Step, ...]
    attempts: tuple[Attempt, ...]
    facts: tuple[Fact, ...]
    questions: tuple[Question, ...]
    expectations: tuple[Expectation, ...]
    interpretations: tuple[str, ...]
    modifiers: tuple[Modifier, ...] = ()
    claims: tuple[Claim, ...] = ()

    def step_label(self, index: int) -> str:
        return self.steps[index].label if 0 <= index < len(self.steps) else NEVER_LABEL

    def constants(self) -> dict[str, str]:
        """Every name the scenario gives, with its sort: players, cards, abilities, attempts, modifiers."""
        out = {p: "player" for p in self.players}
        out.update({c.name: "card" for c in self.cards})
        out.update({a.id: "ability" for a in self.abilities})
        out.update({a.id: "attempt" for a in self.attempts})
        out.update({m.id: "modifier" for m in self.modifiers})
        return out
