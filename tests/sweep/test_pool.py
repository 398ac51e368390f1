"""The cards a sweep combines: modelled or override readings only, one per printed text, the rest left out with a reason."""

from __future__ import annotations

import pytest

from verifier.errors import UsageError
from verifier.scenario.cards import categories_of, find_card, read_card
from verifier.sweep import select_cards
from verifier.sweep.pool import cards_fingerprint


@pytest.mark.slow  # reads the whole card list (about a minute when the reading cache is empty)
def test_every_card_combined_is_modelled_or_override_in_its_category() -> None:
    pool = select_cards(["set-aside", "heal"])
    assert pool.cards
    for card in pool.cards:
        real = find_card(card.name)
        assert not isinstance(real, list)
        statuses = categories_of(read_card(real, cached=True))
        assert all(statuses[c] in ("modelled", "override") for c in card.categories)
        ability = read_card(real, cached=True).abilities[card.ability - 1]
        assert ability.kind is not None and not ability.unsupported


@pytest.mark.slow  # reads the whole card list (about a minute when the reading cache is empty)
def test_cards_not_modelled_are_left_out_with_their_reason() -> None:
    pool = select_cards(["set-aside", "heal"])
    names = {c.name for c in pool.cards}
    skipped = {s.name: s.reason for s in pool.skipped}
    assert not names & set(skipped)
    assert skipped["Honor Thy Enemy"].startswith("its printed type")
    assert any(r.startswith("not modelled (set-aside: unsupported)") for r in skipped.values())


@pytest.mark.slow  # reads the whole card list (about a minute when the reading cache is empty)
def test_printings_of_one_text_are_one_card() -> None:
    pool = select_cards(["set-aside"])
    provisions = [c for c in pool.cards if c.name.startswith("Chastisement of the Lord (L")]
    assert [(c.name, c.also) for c in provisions] == [("Chastisement of the Lord (L)", ("Chastisement of the Lord (UL)",))]
    # same text, another type or brigade: another card
    heal = {c.name for c in select_cards(["heal"]).cards}
    assert {"A Roman Soldier's Faith", "Guardian Angel (Ap)"} <= heal


def test_a_deck_names_its_cards_only() -> None:
    pool = select_cards(["set-aside", "heal"], ["Provisions", "Elijah", "Miracle of Healing"])
    assert [c.name for c in pool.cards] == ["Miracle of Healing", "Provisions"]
    assert [s.name for s in pool.skipped] == ["Elijah"]


def test_the_fingerprint_follows_the_cards() -> None:
    one = select_cards(["set-aside"], ["Provisions", "Passover"])
    assert cards_fingerprint(one) == cards_fingerprint(select_cards(["set-aside"], ["Passover", "Provisions"]))
    assert cards_fingerprint(one) != cards_fingerprint(select_cards(["set-aside"], ["Provisions", "Charred Vine"]))


def test_an_unknown_category_is_refused() -> None:
    with pytest.raises(UsageError, match="unknown card categories: sets-aside"):
        select_cards(["sets-aside"])
