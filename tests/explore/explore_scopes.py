"""What the explore tests share: the cards and attempts of a set-aside with an on-return clause and a negate."""

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
