"""What the scope tests share: the cards and attempts of a set-aside with an on-return clause and a negate, and of
Provisions played on a Hero who may enter battle."""

from __future__ import annotations

SET_ASIDE_AND_NEGATE_CARDS = """\
players: [alice, bob]
cards:
  hezekiah:
    type: Hero
    brigade: Blue
    abilities:
      - kind: set aside
        on_return: true
  isaiah: {type: Hero, brigade: Blue}
  confusion:
    type: EE
    brigade: Black
    owner: bob
    abilities: [{kind: negate}]
attempts:
  - {id: sets_aside, activate: hezekiah, targets: [isaiah]}
  - {id: negates, negate: sets_aside, by: confusion}
"""

# Provisions (real: a two-turn set-aside whose on-return effect picks a later blocker) on a Hero who may enter battle
PROVISIONS_CARDS = """\
players: [alice, bob]
cards:
  elijah: {type: Hero, brigade: Green}
  provisions: {card: Provisions}
attempts:
  - {id: play_provisions, play: provisions, on: elijah, targets: [elijah]}
  - {id: elijah_enters, enter_battle: [elijah]}
"""
