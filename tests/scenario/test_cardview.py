"""What `regcheck cards` shows of a card's reading."""

from __future__ import annotations

from verifier.scenario.cards import CardReading
from verifier.scenario.cardview import card_json, lookup, render_card


def reading(name: str) -> CardReading:
    found = lookup(name)
    assert isinstance(found, CardReading), found
    return found


def test_unknown_names_give_close_names() -> None:
    assert lookup("Provison") == ["Provisions", "God's Provision", "Poison (L)"]


def test_text_lists_each_part_and_what_it_maps_to() -> None:
    text = render_card(reading("Feast of Booths"))
    assert "[modelled]" in text
    assert "targets: 0 to any number Hero that are human, its user's own" in text
    assert "'all of your human heroes' -> targets = any number, targets_own_cards = true, target_types = Hero, " \
           "target_traits = human" in text
    assert "'for up to seven turns' -> duration = up to 7 turns, as the player picks" in text
    text = render_card(reading("Training in Righteousness"))
    assert "[unsupported]" in text
    assert "'a single-color human hero' -> not modelled: the description 'single-color human hero' is not one" in text


def test_an_override_shows_its_note_and_why_each_part_was_accepted() -> None:
    text = render_card(reading("Gideon's 300"))
    assert "[override]" in text and "override: The set-aside" in text
    assert "'if gideon is in battle,' -> override = the condition of the next part" in text
    assert ("'protect heroes in set-aside areas from harm' -> protects = cards in set-aside areas, against anything"
            in text)


def test_json_blocks_carry_their_labels() -> None:
    data = card_json(reading("Burning Fire"))
    assert [a["label"] for a in data["abilities"]] == ["GE", "EE"]  # type: ignore[attr-defined]
