"""The descriptions table: what a description of cards asks of a card."""

import pytest

from verifier.scenario.descriptions import Description, read_description


@pytest.mark.parametrize(("words", "expected"), [
    # a trait of several words before a noun, as the card list's identifiers write it
    ("empty tomb hero", Description(("Hero",), None, None, ("Empty Tomb",))),
    ("son of jacob hero", Description(("Hero",), None, None, ("Son of Jacob",))),
    ("roman emperor", Description(("Hero", "Evil_Character"), None, None, ("Roman Emperor",))),
    # one word still reads as before: "a Roman Hero" is a Hero with the trait Roman
    ("roman hero", Description(("Hero",), None, None, ("Roman",))),
    ("minor prophet", Description(("Hero", "Evil_Character"), None, None, ("Minor Prophet",))),
])
def test_a_trait_of_several_words_names_the_identifier_it_is(words: str, expected: Description) -> None:
    assert read_description(words) == expected


def test_an_idol_alone_is_a_card_of_any_type() -> None:
    # the card list gives the identifier Idol to Artifacts and a Curse: the noun does not name characters
    assert read_description("idols") == Description((), None, None, ("Idol",))
    assert read_description("evil idol") == Description((), "evil", None, ("Idol",))


def test_a_trait_noun_alone_names_characters() -> None:
    assert read_description("demons") == Description(("Hero", "Evil_Character"), None, None, ("demon",))
