"""The cards a sweep combines: chosen by category of card text, or named by a deck list, each either
usable (its ability of the category is read in full, by the grammar or a reviewed override) or
skipped with the reason it cannot be used. Nothing is guessed: a card whose ability, type or
targets the sweep's template cannot place is skipped and says why.

Printings with the same text, type and brigades are one card of the sweep (the first printing in
the card list stands for them; the others are listed with it), since they play the same.
"""

from __future__ import annotations

__all__ = ["SweepCard", "SkippedCard", "CardPool", "select_cards", "SWEEP_CATEGORIES", "cards_fingerprint"]

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from ..errors import UsageError
from ..scenario.cardreading import AbilityReading
from ..scenario.cards import RealCard, all_cards, categories_of, read_card
from ..scenario.cardview import card_json

# the categories of card text (`cards.CATEGORIES`) whose cards the sweep's template can place
SWEEP_CATEGORIES = ("set-aside", "heal", "negate", "cannot-be-negated", "duration")
# the kind of ability that carries a category, for the categories that are a kind of effect
_KIND = {"set-aside": "set_aside_effect", "heal": "heal_effect", "negate": "negate_effect"}
# which side plays a card of each printed type (the other types have no user in the template)
SIDES = {"GE": "good", "Hero": "good", "EE": "evil", "Evil_Character": "evil"}
TARGETS = ("Hero", "Evil_Character")
ZONES = (None, "territory", "hand", "field_of_battle", "set_aside_area")


class SweepCard(NamedTuple):
    """A card the sweep combines: the printing that stands for its text, the ability it uses, and
    what the template needs to know to place it."""

    name: str
    also: tuple[str, ...]  # other printings with the same text
    categories: tuple[str, ...]  # the categories (of those asked) its usable ability carries
    status: str  # modelled or override
    ability: int  # the number of the ability it uses
    abilities: int  # how many ability blocks the card has
    type: str
    side: str  # good (alice's) or evil (bob's)
    brigades: tuple[str, ...]
    target: str  # Hero or Evil_Character
    target_zone: str | None
    target_brigade: str | None
    needs_x: bool
    kind: str  # the ability's kind: set_aside_effect, heal_effect, ...
    target_traits: tuple[str, ...] = ()  # what its text names its targets as ("human", "N.T.")


class SkippedCard(NamedTuple):
    """A card the sweep leaves out, with the reason."""

    name: str
    categories: tuple[str, ...]
    reason: str


class CardPool(NamedTuple):
    """The cards a sweep combines, and those it leaves out."""

    cards: tuple[SweepCard, ...]
    skipped: tuple[SkippedCard, ...]
    readings: tuple[str, ...]  # a JSON line per usable card: its full reading, for the fingerprint


def _relevant(a: AbilityReading, category: str) -> bool:
    if category in _KIND:
        return a.kind == _KIND[category]
    if category == "cannot-be-negated":
        return any(p.kind == "cannot" and "negated" in p.text for p in a.pieces)
    return any(p.kind == "duration" for p in a.pieces)


def _place(card: RealCard, categories: dict[str, str], asked: Sequence[str]) -> SweepCard | SkippedCard:
    """The card as the sweep uses it, or why it cannot."""
    reading = read_card(card, cached=True)
    wanted = [c for c in asked if c in categories]
    usable = [c for c in wanted if categories[c] in ("modelled", "override")]
    if not usable:
        statuses = ", ".join(f"{c}: {categories[c]}" for c in wanted) or "no ability of the categories asked"
        parts = "; ".join(reading.unsupported[:3])
        return SkippedCard(card.name, tuple(wanted), f"not modelled ({statuses})" + (f": {parts}" if parts else ""))
    ability = next((a for c in usable for a in reading.abilities
                    if a.kind is not None and not a.unsupported and _relevant(a, c)), None)
    if ability is None:
        return SkippedCard(card.name, tuple(wanted), "no ability of the categories asked is read in full")
    if ability.alternatives:
        return SkippedCard(card.name, tuple(usable), "its text lets the player pick another effect instead "
                           f"({'; '.join(ability.alternatives)}), which the sweep's template does not state")
    if any(p.split("/")[1] != "capture" for p in ability.protections):
        return SkippedCard(card.name, tuple(usable), "it protects cards, which regcheck does not model, and the "
                           "sweep's scenarios discard and negate (a case in which the protection could matter "
                           "is refused)")
    # its own enhancement is discarded by then, and the template puts no card in a draw pile; a later blocker
    # matters only in a template with battles over several turns (a scope where it could is refused when it
    # loads); any other change could meet the template's characters, the cards in hand or a discard
    changes = [c for c in ability.on_return_changes if not (c == "this_card" and card.type in ("GE", "EE"))
               and not c.startswith("draw_pile:") and c != "blocking"]
    if changes:
        return SkippedCard(card.name, tuple(usable), "its on-return effect, which regcheck does not carry out, could "
                           f"change what the sweep's scenarios hold ({', '.join(changes)}; a case in which it could "
                           "is refused)")
    if ability.requires:
        return SkippedCard(card.name, tuple(usable), "its effect happens only when used as its text says "
                           f"({', '.join(ability.requires)}), which the sweep's template does not arrange")
    if card.type is None or card.type not in SIDES:
        return SkippedCard(card.name, tuple(usable), f"its printed type ({card.type or 'not modelled'}) has no "
                           "user in the sweep's template (it places enhancements and characters only)")
    types = [t for t in ability.target_types if t in TARGETS] or (list(TARGETS[:1]) if not ability.target_types else [])
    if not types:
        return SkippedCard(card.name, tuple(usable), f"it targets {'/'.join(ability.target_types)}, for which the "
                           "sweep's template has no card")
    if ability.target_zone not in ZONES:
        return SkippedCard(card.name, tuple(usable), f"it targets cards in the {ability.target_zone}, where the "
                           "sweep's template places none")
    carried = tuple(c for c in usable if _relevant(ability, c))
    return SweepCard(card.name, (), carried, categories[carried[0]], ability.number, len(reading.abilities),
                     card.type, SIDES[card.type], card.brigades, types[0], ability.target_zone,
                     ability.target_brigade, "x" in (ability.min_targets, ability.max_targets, ability.duration_turns),
                     ability.kind or "", ability.target_traits)


def select_cards(categories: Sequence[str], names: Iterable[str] | None = None) -> CardPool:
    """The cards of the bundled card list whose text belongs to one of `categories` (or, with `names`,
    those cards only: a deck's), one per distinct text, usable or skipped with the reason."""
    unknown = [c for c in categories if c not in SWEEP_CATEGORIES]
    if unknown:
        raise UsageError(f"unknown card categories: {', '.join(unknown)} (choose from {', '.join(SWEEP_CATEGORIES)})")
    if names is not None:
        from ..scenario.cards import find_card

        pool = [c for c in (find_card(n) for n in dict.fromkeys(names)) if isinstance(c, RealCard)]
    else:
        pool = all_cards()
    by_text: dict[tuple[str, str | None, tuple[str, ...]], SweepCard | SkippedCard] = {}
    also: dict[tuple[str, str | None, tuple[str, ...]], list[str]] = {}
    skipped: list[SkippedCard] = []
    readings: dict[str, str] = {}  # by card name
    for card in pool:
        if not card.text.strip():
            if names is not None:
                skipped.append(SkippedCard(card.name, (), "no special ability text"))
            continue
        same = (card.text, card.type, card.brigades)
        if same in by_text:
            also[same].append(card.name)
            continue
        reading = read_card(card, cached=True)
        found = categories_of(reading)
        if not any(c in found for c in categories):
            if names is not None:
                skipped.append(SkippedCard(card.name, (), f"no ability of the categories asked ({', '.join(categories)})"))
            continue
        placed = _place(card, found, categories)
        by_text[same] = placed
        also[same] = []
        if isinstance(placed, SweepCard):
            readings[card.name] = json.dumps(card_json(reading), sort_keys=True)
    usable = []
    for same, placed in by_text.items():
        if isinstance(placed, SweepCard):
            usable.append(placed._replace(also=tuple(also[same])))
        else:
            skipped.append(placed)
    usable.sort(key=lambda c: c.name)
    skipped.sort(key=lambda c: c.name)
    return CardPool(tuple(usable), tuple(skipped), tuple(readings[n] for n in sorted(readings)))


def cards_fingerprint(pool: CardPool) -> str:
    """A fingerprint of the cards a sweep combines: their names, texts and full readings (a change of
    the card grammar or of an override that changes a reading changes it)."""
    digest = hashlib.sha256()
    for card in pool.cards:
        digest.update(json.dumps(list(card), sort_keys=True).encode() + b"\0")
    for line in pool.readings:
        digest.update(line.encode() + b"\0")
    return digest.hexdigest()[:16]
