"""Card titles: the names a description may give its cards (CORE-15-R1)."""

from __future__ import annotations

from verifier.scenario.titles import may_be_named, named, title_of, types_titled


def test_a_title_is_the_printed_name_without_the_printing_marks() -> None:
    assert title_of("Barak (CoW AB)") == "Barak"
    assert title_of("Son of God \"Manger\" (Promo)") == "Son of God"
    assert title_of("Captain Nebuzaradan [RR2]") == "Captain Nebuzaradan"
    assert title_of("Aaron, Peacemaker") == "Aaron, Peacemaker"


def test_the_card_list_gives_each_title_its_cards_types() -> None:
    assert types_titled("barak") == ("Barak", ("Hero",))
    assert types_titled("herod antipas") == ("Herod Antipas", ("Evil_Character",))
    assert types_titled("a hero of no title") is None


def test_a_real_card_of_another_title_may_be_the_person_only_when_its_title_holds_the_name() -> None:
    assert not may_be_named("Barak (CoW AB)", named("Barak"))  # it is Barak: the trait is among its traits
    assert may_be_named("Aaron, Peacemaker", named("Aaron"))
    assert not may_be_named("Aaron's Rod (G)", named("Aaron"))
    assert not may_be_named("Balaam (Pr)", named("Korah"))
    assert may_be_named(None, named("Korah"))  # a card the case gives no real card for
