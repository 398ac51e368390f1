"""The scope template: every pair of the modelled set-aside and heal cards gives a scope that loads."""

from __future__ import annotations

import itertools

import pytest
import yaml

from verifier.errors import UsageError
from verifier.explore.scope import ScopeText, load_scope
from verifier.language.encoding import RuleBase
from verifier.sweep import DEFAULT_TEMPLATE, SweepTemplate, select_cards
from verifier.sweep.template import scope_text


@pytest.mark.slow  # reads the whole card list (about a minute when the reading cache is empty)
def test_every_pair_gives_a_scope_that_loads(rule_base: RuleBase) -> None:
    pool = select_cards(["set-aside", "heal"])
    for pair in itertools.combinations(pool.cards, 2):
        scope = load_scope(ScopeText("pair", scope_text(pair, DEFAULT_TEMPLATE)), rule_base)
        assert {c.id for c in scope.candidates} >= {"use_card_1", "use_card_2"}


def _cards(*names: str):  # type: ignore[no-untyped-def]
    by_name = {c.name: c for c in select_cards(["set-aside", "heal"], names).cards}
    return [by_name[n] for n in names]


def test_the_characters_carry_what_the_cards_need() -> None:
    template = SweepTemplate(phases=("Preparation", "Battle"), attempts=("play", "battle", "discard", "negate"), max_attempts=4)
    doc = yaml.safe_load(scope_text(_cards("Authority of Christ (GoC)", "Balm of Gilead (B)"), template))
    cards = doc["cards"]
    assert cards["hero"]["poisoned"] is True  # a heal is combined
    assert sorted(cards["hero"]["brigade"]) == ["Blue", "Clay", "Purple"]
    assert cards["hero_in_hand"]["zone"] == "hand"  # Authority of Christ sets aside a Hero from hand
    ids = [a["id"] for a in doc["attempts"]]
    assert ids == ["use_card_1", "use_card_2", "negate_card_1", "negate_card_2", "hero_enters", "evil_enters",
                   "hero_discarded"]
    assert doc["attempts"][0]["targets"] == ["hero_in_hand"] and doc["attempts"][0]["ability"] == 1


def test_a_character_card_activates_and_an_evil_card_is_bobs() -> None:
    doc = yaml.safe_load(scope_text(_cards("Achaicus", "Molten Calf Worship"), DEFAULT_TEMPLATE))
    achaicus, calf = doc["attempts"][:2]
    assert achaicus == {"id": "use_card_1", "activate": "card_1", "targets": ["hero"]}
    assert calf == {"id": "use_card_2", "play": "card_2", "on": "evil", "targets": ["evil"]}
    assert doc["cards"]["card_2"]["owner"] == "bob" and "poisoned" not in doc["cards"]["hero"]


@pytest.mark.parametrize("fields, message", [
    ({"attempts": ("battle",)}, "must include play"),
    ({"attempts": ("play", "fly")}, "unknown attempt kind fly"),
    ({"phases": ("Lunch",)}, "unknown phase Lunch"),
    ({"templates": ("nothing",)}, "unknown outcome symbol"),
])
def test_a_bad_template_is_refused(fields: dict[str, object], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        SweepTemplate(**fields)  # type: ignore[arg-type]


def test_the_target_has_the_traits_the_cards_name(rule_base: RuleBase) -> None:
    # "your human Heroes" and "a N.T. Hero": the template's Hero is both, so that each card can target it
    cards = _cards("Pentecost", "Miracle at Troas")
    assert [c.target_traits for c in cards] == [("human",), ("N.T.",)]
    text = scope_text(cards, DEFAULT_TEMPLATE)
    assert yaml.safe_load(text)["cards"]["hero"]["traits"] == ["N.T.", "human"]
    scope = load_scope(ScopeText("pair", text), rule_base)
    hero = next(c for c in scope.base.cards if c.name == "hero")
    assert hero.traits == ("N.T.", "human") and hero.traits_stated


def test_a_character_no_card_names_traits_for_has_none(rule_base: RuleBase) -> None:
    # the template's Evil Character is no target of these cards: it is stated to have no traits, so that a
    # description with traits checked against every card of a scope is answered for it
    text = scope_text(_cards("Pentecost", "Miracle at Troas"), DEFAULT_TEMPLATE)
    assert yaml.safe_load(text)["cards"]["evil"]["traits"] == []
    scope = load_scope(ScopeText("pair", text), rule_base)
    evil = next(c for c in scope.base.cards if c.name == "evil")
    assert evil.traits == () and evil.traits_stated
