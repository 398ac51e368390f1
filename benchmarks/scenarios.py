"""Generated cases of a chosen size, for scaling measurements and solver-limit tests.

`scenario(cards, turns)` writes a valid case as YAML text: two players, each with Heroes and Evil
Characters in territory; every third character has a set-aside ability (with a duration of one or
two turns, until end of battle, or none), and some have a negate or a heal ability instead. Each
turn the active player uses a set-aside ability on an opponent's character in the Preparation
Phase; every third turn the opponent negates that set-aside at once and a Hero enters battle,
every fourth a heal is attempted. Six questions ask about legality, zones and returns. The same arguments give
the same text.

    python benchmarks/scenarios.py 200 20 > big.yaml
"""

from __future__ import annotations

__all__ = ["scenario"]

import random
import sys

BRIGADES = ["Blue", "Gold", "Green", "Purple", "Red", "Silver", "White"]
EVIL_BRIGADES = ["Black", "Brown", "Crimson", "Gray", "Orange", "Pale_Green"]
SET_ASIDE_DURATIONS = ["1 turn", "2 turns", "until end of battle", "none"]
PLAYERS = ("alice", "bob")


def scenario(cards: int, turns: int, seed: int = 0) -> str:
    """A valid case with `cards` characters (at least 4) over `turns` turns (1 to 60)."""
    if cards < 4 or not 1 <= turns <= 60:
        raise ValueError("a generated case needs at least 4 cards and 1 to 60 turns")
    rng = random.Random(seed)
    lines = [f"title: generated, {cards} cards over {turns} turns", f"players: [{', '.join(PLAYERS)}]",
             f"turns: {turns}", "cards:"]
    # owner -> kind of ability -> names of characters with one
    have: dict[str, dict[str, list[str]]] = {p: {"set aside": [], "negate": [], "heal": [], "any": []} for p in PLAYERS}
    heroes: dict[str, list[str]] = {p: [] for p in PLAYERS}
    for i in range(cards):
        owner = PLAYERS[i % 2]
        hero = (i // 2) % 2 == 0
        name = f"{'hero' if hero else 'evil'}_{owner}_{i}"
        lines += [f"  {name}:", f"    type: {'Hero' if hero else 'Evil_Character'}",
                  f"    brigade: {rng.choice(BRIGADES if hero else EVIL_BRIGADES)}", f"    owner: {owner}"]
        have[owner]["any"].append(name)
        (heroes[owner].append(name) if hero else None)
        role = i % 6
        if role in (0, 3):
            duration = rng.choice(SET_ASIDE_DURATIONS)
            lines += ["    abilities:", "      - kind: set aside", f"        duration: {duration}"]
            have[owner]["set aside"].append(name)
        elif role == 1:
            lines += ["    abilities:", "      - kind: negate"]
            have[owner]["negate"].append(name)
        elif i % 12 in (4, 11):  # one of each player's in twelve
            lines += ["    abilities:", "      - kind: heal"]
            have[owner]["heal"].append(name)
    lines.append("timeline:")
    first_set_aside = None
    for turn in range(1, turns + 1):
        active, other = PLAYERS[(turn - 1) % 2], PLAYERS[turn % 2]
        set_aside_id = None
        if have[active]["set aside"]:
            user = rng.choice(have[active]["set aside"])
            target = rng.choice(have[other]["any"])
            set_aside_id = f"set_aside_t{turn}"
            first_set_aside = first_set_aside or (set_aside_id, target)
            lines += [f"  - id: {set_aside_id}", f"    turn: {turn}", "    phase: Preparation",
                      f"    activate: {user}", f"    targets: [{target}]"]
        if turn % 3 == 0 and set_aside_id and have[other]["negate"]:
            lines += [f"  - id: negate_t{turn}", f"    turn: {turn}", "    phase: Preparation",
                      f"    negate: {set_aside_id}", f"    by: {rng.choice(have[other]['negate'])}"]
        if turn % 3 == 0 and heroes[active]:
            lines += [f"  - id: enters_t{turn}", f"    turn: {turn}", "    phase: Battle",
                      f"    enter_battle: [{rng.choice(heroes[active])}]"]
        if turn % 4 == 0 and have[active]["heal"]:
            lines += [f"  - id: heal_t{turn}", f"    turn: {turn}", "    phase: Battle",
                      f"    activate: {rng.choice(have[active]['heal'])}",
                      f"    targets: [{rng.choice(have[active]['any'])}]"]
    if first_set_aside is None:
        raise ValueError("no set-aside was attempted; give more cards")
    attempt, target = first_set_aside
    last = turns
    lines += ["questions:",
              f"  first_legal: legal({attempt})",
              f"  first_target_zone: zone({target}, step_of({attempt}))",
              f"  first_returns_at: return_step({attempt}, {target})",
              f"  target_at_the_end: zone({target}, at({last}, Discard))",
              f"  a_hero_at_the_end: zone({heroes['alice'][0]}, at({last}, Discard))",
              f"  an_evil_character_at_the_end: zone({have['bob']['any'][-1]}, at({last}, Discard))"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(scenario(int(sys.argv[1]), int(sys.argv[2]), *(int(a) for a in sys.argv[3:4])))
