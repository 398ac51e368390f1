"""What is read from a card's printed text: its ability blocks, their vocabulary fields and parts.

Plain values, kept apart from the grammar (`cardtext`) so that a reading from the cache is used
without loading the parser.
"""

from __future__ import annotations

__all__ = ["Part", "AbilityReading", "TextReadingResult"]

from typing import NamedTuple


class Part(NamedTuple):
    """One part read from a sentence: its kind, the words it was read from, and what it maps to.

    `mapped` lists the vocabulary fields it sets, as (field, value) pairs; an unsupported part
    has no mapping and says in `reason` why it is not modelled.
    """

    kind: str
    text: str
    mapped: tuple[tuple[str, str], ...]
    reason: str

    @property
    def supported(self) -> bool:
        """The part maps to the vocabulary."""
        return not self.reason


class AbilityReading(NamedTuple):
    """One ability block of a card as read: its label, its vocabulary fields, and its parts."""

    number: int
    label: str
    text: str
    kind: str | None
    duration_kind: str
    duration_turns: int | str
    paired: bool
    on_return: bool
    grants_ability: bool
    cannot_be_negated: bool | str
    target_zone: str | None
    also_in_play: bool
    targets_opponents_cards: bool
    targets_own_cards: bool
    targets_all_in_location: bool
    parts: tuple[str, ...]
    heals_only: tuple[str, ...]
    target_types: tuple[str, ...]
    target_brigade: str | None
    min_targets: int | str
    max_targets: int | str | None
    pieces: tuple[Part, ...]
    duration_min_turns: int = 0
    inflicts: tuple[str, ...] = ()
    negates_kinds: tuple[str, ...] = ()

    @property
    def unsupported(self) -> tuple[Part, ...]:
        """The parts of this ability that are not modelled."""
        return tuple(p for p in self.pieces if not p.supported)


class TextReadingResult(NamedTuple):
    """A card text as read: its ability blocks."""

    text: str
    abilities: tuple[AbilityReading, ...]
