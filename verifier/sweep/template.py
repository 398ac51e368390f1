"""The scope template of a sweep: one small scope per combination of cards.

Every scope has two players, alice (who uses the Good cards: GE and Heroes) and bob (who uses the
Evil ones: EE and Evil Characters), and one character each that the combination's cards act on:
alice's Hero `hero` and bob's Evil Character `evil`. Each character carries the brigades of its
player's cards and the brigades the cards' targets must have, so that every card of the
combination may be played on it; `hero` is poisoned when a card of the combination heals. A card
whose ability targets cards in the hand acts on a second character of the same side, in the hand
(`hero_in_hand`, `evil_in_hand`). A card whose text counts X is given `x: 1`.

The attempts that may happen (`ATTEMPT_KINDS`; the template names which):

- `play`: each card of the combination is used, its ability of the swept category: an enhancement
  is played on its player's character, a character card activates its ability; either targets the
  character of its target's side;
- `battle`: `hero` and `evil` enter battle in a Battle Phase;
- `discard`: `evil` discards `hero` (for heals of a Hero that is being discarded);
- `negate`: the other player negates a card's use with a plain negate enhancement.

They may happen in the template's phases of each of its turns, at most `per_phase` to a phase and
`max_attempts` in one scenario.
"""

from __future__ import annotations

__all__ = ["SweepTemplate", "ATTEMPT_KINDS", "DEFAULT_TEMPLATE", "scope_text", "combination_key", "combination_name"]

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass

import yaml

from ..errors import UsageError
from ..explore.scope import OUTCOME_SYMBOLS, PHASES
from .pool import SweepCard

ATTEMPT_KINDS = ("play", "battle", "discard", "negate")


@dataclass(frozen=True)
class SweepTemplate:
    """The shape of every scope of a sweep (see the module's description)."""

    turns: int = 1
    phases: tuple[str, ...] = ("Preparation",)
    attempts: tuple[str, ...] = ("play", "discard")
    per_phase: int = 2
    max_attempts: int = 2
    templates: tuple[str, ...] = ()  # outcome symbols asked; empty: every one

    def __post_init__(self) -> None:
        if not 1 <= self.turns <= 12:
            raise UsageError("the template's turns must be between 1 and 12")
        for p in self.phases:
            if p not in PHASES:
                raise UsageError(f"unknown phase {p} (choose from {', '.join(PHASES)})")
        if not self.phases:
            raise UsageError("the template needs at least one phase")
        for a in self.attempts:
            if a not in ATTEMPT_KINDS:
                raise UsageError(f"unknown attempt kind {a} (choose from {', '.join(ATTEMPT_KINDS)})")
        if "play" not in self.attempts:
            raise UsageError("the template's attempts must include play: a sweep combines cards' uses")
        for t in self.templates:
            if t not in OUTCOME_SYMBOLS:
                raise UsageError(f"unknown outcome symbol {t}")
        if not 1 <= self.per_phase <= 8 or not 1 <= self.max_attempts <= 40:
            raise UsageError("per_phase must be between 1 and 8, max_attempts between 1 and 40")

    def json(self) -> dict[str, object]:
        return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()}


DEFAULT_TEMPLATE = SweepTemplate()


def combination_key(cards: Sequence[SweepCard]) -> str:
    """The combination's key in the results database: its card names, in order, joined by ' + '."""
    return " + ".join(c.name for c in cards)


def combination_name(cards: Sequence[SweepCard]) -> str:
    """The name of a combination's scope in findings and messages."""
    return f"sweep: {combination_key(cards)}"


def _brigades(found: list[str]) -> list[str] | str | None:
    unique = sorted(set(found))
    return None if not unique else unique[0] if len(unique) == 1 else unique


def scope_text(cards: Sequence[SweepCard], template: SweepTemplate) -> str:
    """The scope of one combination of cards, as YAML text."""
    side_of = {"good": ("alice", "hero", "Hero"), "evil": ("bob", "evil", "Evil_Character")}
    target_side = {"Hero": "good", "Evil_Character": "evil"}
    brigades: dict[str, list[str]] = {"hero": [], "evil": [], "hero_in_hand": [], "evil_in_hand": []}
    traits: dict[str, list[str]] = {k: [] for k in brigades}  # what the cards name their targets as
    for c in cards:
        brigades[side_of[c.side][1]] += c.brigades
        target = side_of[target_side[c.target]][1] + ("_in_hand" if c.target_zone == "hand" else "")
        if c.target_brigade:
            brigades[target].append(c.target_brigade)
        traits[target] += c.target_traits
        if c.side == target_side[c.target]:
            brigades[target] += c.brigades
    heals = any(c.kind == "heal_effect" for c in cards)
    entries: dict[str, dict[str, object]] = {}
    for side in ("good", "evil"):
        player, name, ctype = side_of[side]
        for character in (name, f"{name}_in_hand"):
            if character.endswith("_in_hand") and not any(
                    c.target_zone == "hand" and target_side[c.target] == side for c in cards):
                continue
            body: dict[str, object] = {"type": ctype, "owner": player}
            shown = _brigades(brigades[character])
            if shown is not None:
                body["brigade"] = shown
            # stated even when empty: a description with traits is checked against every character of a scope
            body["traits"] = sorted(set(traits[character]))
            if character.endswith("_in_hand"):
                body["zone"] = "hand"
            if character == "hero" and heals:
                body["poisoned"] = True
            if character == "evil" and "discard" in template.attempts and heals:
                body["abilities"] = [{"kind": "discard"}]
            entries[character] = body
    attempts: list[dict[str, object]] = []
    for i, c in enumerate(cards, 1):
        player, own, _ = side_of[c.side]
        body = {"card": c.name, "owner": player}
        if c.needs_x:
            body["x"] = 1
        entries[f"card_{i}"] = body
        target = side_of[target_side[c.target]][1] + ("_in_hand" if c.target_zone == "hand" else "")
        use: dict[str, object] = {"id": f"use_card_{i}"}
        if c.type in ("Hero", "Evil_Character"):
            use["activate"] = f"card_{i}"
        else:
            use["play"] = f"card_{i}"
            use["on"] = own
        if c.abilities > 1:
            use["ability"] = c.ability
        use["targets"] = [target]
        attempts.append(use)
    if "negate" in template.attempts:
        for side, player in (("good", "alice"), ("evil", "bob")):
            if any(c.side != side for c in cards):
                entries[f"negate_by_{player}"] = {"type": "GE" if side == "good" else "EE", "owner": player,
                                                  "abilities": [{"kind": "negate"}]}
        for i, c in enumerate(cards, 1):
            player = "bob" if c.side == "good" else "alice"
            attempts.append({"id": f"negate_card_{i}", "negate": f"use_card_{i}", "by": f"negate_by_{player}"})
    if "battle" in template.attempts and "Battle" in template.phases:
        attempts.append({"id": "hero_enters", "enter_battle": ["hero"], "phase": "Battle"})
        attempts.append({"id": "evil_enters", "enter_battle": ["evil"], "player": "bob", "phase": "Battle"})
    if "discard" in template.attempts and heals:
        attempts.append({"id": "hero_discarded", "discard": ["hero"], "by": "evil"})
    names = ", ".join(c.name for c in cards)
    doc: dict[str, object] = {
        "title": f"sweep: {names}",
        "note": "Written by regcheck sweep from its scope template: alice's hero and bob's evil character, "
                "and the cards of one combination used on them.",
        "players": ["alice", "bob"],
        "turns": template.turns,
        "cards": entries,
        "attempts": attempts,
        "phases": list(template.phases),
        "per_phase": template.per_phase,
        "max_attempts": min(template.max_attempts, len(attempts)),
    }
    if template.templates:
        doc["templates"] = list(template.templates)
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=100)


def template_fingerprint(template: SweepTemplate) -> str:
    """A fingerprint of the template (a run's scopes depend on it)."""
    return hashlib.sha256(json.dumps(template.json(), sort_keys=True).encode()).hexdigest()[:16]
