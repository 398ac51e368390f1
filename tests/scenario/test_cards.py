"""Real cards: the bundled card list, and set-aside mechanics read from a card's printed text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verifier.scenario.cards import RealCard, TextReading, find_card, read_set_aside_ability
from verifier.vocabulary import VALUE_SETS


def card(name: str) -> RealCard:
    found = find_card(name)
    assert isinstance(found, RealCard), found
    return found


def test_exact_name() -> None:
    provisions = card("Provisions")
    assert provisions.name == "Provisions"
    assert (provisions.type, provisions.brigades, provisions.territory_class) == ("GE", ("Green",), False)
    assert provisions.text.startswith("Set Hero aside for 2 turns.")


def test_printing_with_set_name() -> None:
    darkness = card("Darkness (FoM)")
    assert (darkness.type, darkness.brigades) == ("EE", ("Black",))


def test_several_printings_are_listed() -> None:
    found = find_card("Darkness")
    assert isinstance(found, list)
    assert "Darkness (FoM)" in found and found == sorted(found) and len(found) > 1


def test_close_names_are_suggested() -> None:
    found = find_card("Provison")
    assert isinstance(found, list) and found[0] == "Provisions"
    assert find_card("Zzzzzzzzzzzzzzzzz") == []


def test_brigades_are_vocabulary_members() -> None:
    for name in ("Provisions", "Passover", "Darkness (FoM)"):
        assert set(card(name).brigades) <= set(VALUE_SETS["brigade"])


# -- reading a card's text -------------------------------------------------------------------------


def reading(text: str) -> TextReading:
    r = read_set_aside_ability(text)
    assert r is not None, text
    return r


def test_no_set_aside() -> None:
    assert read_set_aside_ability("Discard a Hero in battle.") is None
    assert read_set_aside_ability("") is None


@pytest.mark.parametrize(
    ("text", "kind", "turns"),
    [
        ("Set Hero aside for 2 turns.", "for_turns", 2),
        ("Set aside a Hero for one turn.", "for_turns", 1),
        ("Set aside up to three Heroes for three turns.", "for_turns", 3),
        ("Set aside an Evil Character until the end of battle.", "until_end_of_battle", 0),
        ("Set aside a Hero until end of battle.", "until_end_of_battle", 0),
        ("Set aside one of your Heroes.", "no_duration", 0),
    ],
)
def test_duration(text: str, kind: str, turns: int) -> None:
    r = reading(text)
    assert (r.duration_kind, r.duration_turns) == (kind, turns)


def test_provisions_text() -> None:
    r = reading(card("Provisions").text)
    assert (r.duration_kind, r.duration_turns) == ("for_turns", 2)
    assert r.paired and r.on_return and not r.grants_ability
    assert r.cannot_be_negated is False and r.target_zone is None


def test_passover_text() -> None:
    r = reading(card("Passover").text)
    assert r.duration_kind == "no_duration"
    assert r.paired and r.on_return  # "Discard Passover when Hero(s) returns"


def test_darkness_text() -> None:
    r = reading(card("Darkness (FoM)").text)
    assert r.cannot_be_negated == "x is 4 or greater"
    assert r.target_zone == "field_of_battle"
    assert not r.paired


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("Set aside a Hero in battle.", "field_of_battle"),
        ("Set aside a Hero in an opponent's territory.", "territory"),
        ("Set aside a card from your hand.", "hand"),
        ("Set aside a Hero from a discard pile.", "discard_pile"),
        ("Set aside a card in a set-aside area.", "set_aside_area"),
        ("Set aside a Hero.", None),
    ],
)
def test_target_zone(text: str, zone: str | None) -> None:
    assert reading(text).target_zone == zone


def test_all_in_a_location_and_opponents_cards() -> None:
    r = reading("Set aside all Heroes in an opponent's territory.")
    assert r.targets_all_in_location and r.targets_opponents_cards
    r = reading("Set aside a Hero.")
    assert not r.targets_all_in_location and not r.targets_opponents_cards


def test_on_return_grants() -> None:
    r = reading("Set aside a Hero for 1 turn. On return, Hero gains 'Cannot be negated'.")
    assert r.on_return and r.grants_ability and r.paired


def test_while_set_aside_is_a_paired_ability() -> None:
    r = reading("Set aside a Hero. While set aside, you may draw a card each turn.")
    assert r.paired and not r.on_return


def test_cannot_be_negated_only_for_the_cards_own_ability() -> None:
    assert reading("Set aside a Hero. Cannot be negated.").cannot_be_negated is True
    # a clause about another ability is not the card's own
    assert reading("Set aside a Hero that cannot be negated.").cannot_be_negated is False


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("Set aside for two turns until end of battle on return gains "
                                             "cannot be negated if X is 4 or greater in territory hand .,'"
                                             "0123456789")), max_size=200))
def test_any_text_reads_without_error(text: str) -> None:
    r = read_set_aside_ability(text)
    if r is None:
        return
    assert r.duration_kind in VALUE_SETS["duration_kind"]
    assert r.duration_turns >= 0
    assert r.target_zone is None or r.target_zone in VALUE_SETS["zone"]
    assert r.cannot_be_negated in (True, False) or (
        isinstance(r.cannot_be_negated, str) and any(ch.isdigit() for ch in r.cannot_be_negated))
    assert not r.grants_ability or r.on_return
    assert not r.on_return or r.paired
