"""Helpers of the gate's tests: the small repository's cases, a scope, and editing files on purpose."""

from __future__ import annotations

from pathlib import Path

# A determined case and an ambiguous one, copied from cases/, and a contradictory one (conftest's
# TINY_CONTRADICTION): every kind of result, checked in seconds.
SMALL_CASES = ("set-aside/provisions-returns-after-two-turns.yaml", "set-aside/upkeep-set-aside-counts-its-own-upkeep.yaml")
CONTRADICTION = "cases/set-aside/tiny-contradiction.yaml"

# A scope whose every scenario with the negate has the SA-5 conflict (a set-aside undone in battle).
NEGATED_IN_BATTLE_SCOPE = """\
title: a set-aside negated in the Battle Phase
players: [alice, bob]
turns: 1
cards:
  hezekiah:
    type: Hero
    brigade: Blue
    abilities: [{kind: set aside, duration: 1 turn}]
  isaiah: {type: Hero, brigade: Blue}
  confusion:
    type: EE
    brigade: Black
    owner: bob
    abilities: [{kind: negate}]
attempts:
  - {id: sets_aside, activate: hezekiah, targets: [isaiah], phase: Preparation}
  - {id: negates, negate: sets_aside, by: confusion, phase: Battle}
phases: [Preparation, Battle]
templates: [legal]
"""


def replace_in(path: Path, old: str, new: str) -> None:
    """Replace text in a file, making sure it was there."""
    text = path.read_text("utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
