"""Warnings for defaults that change what a case means: a card left to the first player that another
player uses, and a blocker entering battle without saying which player blocks.

A default is never wrong in itself (the loader documents each one); these are the defaults that most
often stand where the writer meant something else. `regcheck check` prints them, and refuses the case
with `--strict`; `regcheck explain` and `regcheck ruling` print them for the scenarios they check.
"""

from __future__ import annotations

__all__ = ["DefaultWarning", "default_warnings", "warning_lines"]

from typing import NamedTuple

from ..errors import Location
from .model import Scenario

# Battle statuses of the side that answers an attack: the player whose turn it is not, as a rule.
ANSWERING_ROLES = ("blocking", "defending")


class DefaultWarning(NamedTuple):
    """A default that may not be what the case means, where it applies, and what to write instead."""

    location: Location
    message: str

    def __str__(self) -> str:
        return f"{self.location}: {self.message}"


def default_warnings(scenario: Scenario) -> tuple[DefaultWarning, ...]:
    """The case's warnings, in the order of the lines they name."""
    defaulted = {(f.symbol, f.args) for f in scenario.facts if f.default}
    facts = {(f.symbol, f.args): f for f in scenario.facts}
    cards = {c.name: c for c in scenario.cards}
    out: list[DefaultWarning] = []

    def side_by_default(card: str) -> bool:
        return ("owner", (card,)) in defaulted and ("permanent_controller", (card,)) in defaulted

    for a in scenario.attempts:
        player_defaulted = ("player_of", (a.id,)) in defaulted
        if a.kind == "enter_battle":
            role = facts.get(("entry_role", (a.id,)))
            if role is not None and role.value in ANSWERING_ROLES and player_defaulted:
                out.append(DefaultWarning(a.loc, f"{a.id} enters battle {role.value} but names no player, so it is "
                                                 f"made by the player whose turn it is ({a.player}); say who "
                                                 "blocks with 'player:'"))
            for name in a.targets:
                card = cards[name]
                if card.permanent_controller != a.player and (side_by_default(name) or player_defaulted):
                    why = (f"{name} has no owner, so it is {card.permanent_controller}'s" if side_by_default(name)
                           else f"{name} is {card.permanent_controller}'s")
                    who = (f"the player whose turn it is ({a.player}), as {a.id} names no player"
                           if player_defaulted else a.player)
                    out.append(DefaultWarning(a.loc, f"{why}, but it enters battle for {who}: give {name} its "
                                                     f"'owner' or {a.id} its 'player'"))
        elif a.card is not None and not player_defaulted and side_by_default(a.card) \
                and cards[a.card].permanent_controller != a.player:
            card = cards[a.card]
            out.append(DefaultWarning(a.loc, f"{a.card} has no owner, so it is {card.permanent_controller}'s, but "
                                             f"{a.player} uses it in {a.id}: give {a.card} 'owner: {a.player}'"))
    return tuple(sorted(out, key=lambda w: (w.location.line, w.location.column, w.message)))


def warning_lines(scenario: Scenario) -> tuple[tuple[str, int, int, str], ...]:
    """The case's warnings as plain values: (file, line, column, message) each, in order."""
    return tuple((w.location.path, w.location.line, w.location.column, w.message)
                 for w in default_warnings(scenario))
