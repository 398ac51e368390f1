"""Case files read into scenarios: layout of the timeline, pinned inputs, defaults and errors."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from verifier.errors import CaseError, CaseRefused, EncodingError, InputError
from verifier.scenario.loader import ACTIONS, DEFAULTS, VERDICT_NAMES
from verifier.scenario.model import NEVER_LABEL, Scenario
from verifier.vocabulary import SYMBOLS, VALUE_SETS, display_value


def one_of(value_set: str) -> str:
    return ", ".join(display_value(v) for v in VALUE_SETS[value_set])

MINIMAL = """\
players: [alice, bob]
cards:
  elijah:
    type: Hero
questions:
  where: zone(elijah, 0)
"""


def test_minimal_case(make_case: Callable[..., Scenario]) -> None:
    sc = make_case(MINIMAL, name="my-case.yaml")
    assert sc.path == "my-case.yaml"
    assert sc.title == "my-case"  # the file name when no title is given
    assert sc.note == ""
    assert sc.players == ("alice", "bob")
    (card,) = sc.cards
    assert (card.name, card.type, card.owner, card.zone, card.zone_of) == ("elijah", "Hero", "alice", "territory", "alice")
    assert card.brigades == () and not card.territory_class and card.real_card is None
    assert sc.attempts == () and sc.abilities == () and sc.expectations == () and sc.interpretations == ()
    (q,) = sc.questions
    assert (q.name, q.type, q.text) == ("where", "zone", "zone(elijah, 0)")
    # no timeline and no durations: turn 1 plus one more, each with its five phase beginnings
    assert [s.label for s in sc.steps][:6] == ["turn 1 Draw (alice)", "turn 1 Upkeep (alice)", "turn 1 Preparation (alice)",
                                              "turn 1 Battle (alice)", "turn 1 Discard (alice)", "turn 2 Draw (bob)"]
    assert len(sc.steps) == 10 and all(s.phase_start for s in sc.steps)
    assert sc.step_label(10) == NEVER_LABEL and sc.step_label(-1) == NEVER_LABEL


def test_timeline_layout(make_case: Callable[..., Scenario], provisions_text: str) -> None:
    sc = make_case(provisions_text.replace("questions:", "  - turn: 2\n    phase: Battle\n    enter_battle: [elijah]\n"
                                                          "  - turn: 2\n    phase: Battle\n    end_battle: true\n"
                                                          "questions:"))
    # turns: the last turn of the timeline (2) plus the longest duration (2), plus one
    assert max(s.turn for s in sc.steps) == 5
    labels = [s.label for s in sc.steps]
    assert labels[:6] == ["turn 1 Draw (alice)", "turn 1 Upkeep (alice)", "turn 1 Preparation (alice)",
                          "turn 1 Preparation (alice), play_provisions", "turn 1 Battle (alice)", "turn 1 Discard (alice)"]
    assert "turn 2 Battle (bob), enter_battle_2" in labels and "turn 2 Battle (bob), end_battle_3" in labels
    assert [s.position for s in sc.steps] == list(range(len(sc.steps)))
    assert {s.active_player for s in sc.steps if s.turn == 2} == {"bob"}
    assert {s.active_player for s in sc.steps if s.turn == 3} == {"alice"}
    play, enter, end = sc.attempts
    assert (play.id, play.kind, play.step, play.player, play.card, play.played_on, play.targets) == (
        "play_provisions", "play_card", 3, "alice", "provisions", "elijah", ("elijah",))
    assert play.ability == "provisions_a1"
    assert (enter.id, enter.kind, enter.player, enter.targets) == ("enter_battle_2", "enter_battle", "bob", ("elijah",))
    assert (end.id, end.kind, end.card) == ("end_battle_3", "end_battle", None)
    assert not sc.steps[play.step].phase_start and sc.steps[play.step - 1].phase_start


def test_stated_turns(make_case: Callable[..., Scenario], provisions_text: str) -> None:
    sc = make_case(provisions_text.split("expect:")[0].replace("players:", "turns: 2\nplayers:"))
    assert max(s.turn for s in sc.steps) == 2


def test_real_card_is_read_from_the_card_list(make_case: Callable[..., Scenario], provisions_text: str) -> None:
    sc = make_case(provisions_text)
    provisions = next(c for c in sc.cards if c.name == "provisions")
    assert provisions.real_card == "Provisions"
    assert (provisions.type, provisions.brigades, provisions.zone) == ("GE", ("Green",), "hand")
    (ability,) = sc.abilities
    assert (ability.id, ability.card, ability.kind) == ("provisions_a1", "provisions", "set_aside_effect")
    assert (ability.duration_kind, ability.duration_turns) == ("for_turns", 2)
    assert ability.paired and ability.on_return and not ability.grants_ability and not ability.cannot_be_negated
    assert ability.text.startswith("Set Hero aside for 2 turns")
    texts = [f.text for f in sc.facts if f.args == ("provisions_a1",)]
    assert texts and all(t.endswith("(read from the card's text)") for t in texts)


@pytest.mark.parametrize(("x", "cannot"), [(2, False), (3, False), (4, True), (9, True)])
def test_x_decides_cannot_be_negated(make_case: Callable[..., Scenario], x: int, cannot: bool) -> None:
    sc = make_case(MINIMAL.replace("questions:", f"  darkness:\n    card: Darkness (FoM)\n    x: {x}\nquestions:"))
    (ability,) = sc.abilities
    assert ability.cannot_be_negated is cannot
    assert ability.target_zone == "field_of_battle"


def test_stated_abilities(make_case: Callable[..., Scenario]) -> None:
    text = MINIMAL.replace("questions:", """\
  watchman:
    type: Hero
    abilities:
      - kind: set-aside
        duration: until end of battle
        on_return: true
        grants: true
        target_zone: set-aside area
        targets_opponents: true
        text: "Set aside a Hero."
      - kind: Negate
      - kind: return
        duration: 3
questions:""")
    sc = make_case(text)
    a1, a2, a3 = sc.abilities
    assert (a1.id, a1.kind, a1.duration_kind, a1.paired, a1.on_return, a1.grants_ability) == (
        "watchman_a1", "set_aside_effect", "until_end_of_battle", True, True, True)
    assert (a1.target_zone, a1.targets_opponents_cards, a1.text) == ("set_aside_area", True, "Set aside a Hero.")
    assert (a2.kind, a2.duration_kind, a2.duration_turns) == ("negate_effect", "no_duration", 0)
    assert (a3.kind, a3.duration_kind, a3.duration_turns) == ("return_effect", "for_turns", 3)
    assert next(c for c in sc.cards if c.name == "watchman").abilities == ("watchman_a1", "watchman_a2", "watchman_a3")


def test_ability_names_its_targets(make_case: Callable[..., Scenario]) -> None:
    text = MINIMAL.replace("questions:", """\
  samson:
    type: Hero
    abilities:
      - kind: other
        class: adds_same_side
        target_type: [evil character, GE]
        targets_own: true
        adds: [elijah]
      - kind: other
questions:""")
    sc = make_case(text)
    named, plain = sc.abilities
    assert (named.target_types, named.targets_own_cards) == (("Evil_Character", "GE"), True)
    assert (plain.target_types, plain.targets_own_cards) == ((), False)
    fits = {f.args: f.value for f in sc.facts if f.symbol == "fits_description"}
    assert (fits[("samson_a1", "elijah")], fits[("samson_a2", "elijah")]) == (False, True)
    with pytest.raises(CaseError, match="unknown target type 'Angel'"):
        make_case(text.replace("[evil character, GE]", "Angel"))



@pytest.mark.parametrize(("key", "symbol"), [("last_played", "negates_the_last_played"),
                                             ("or_last_played", "reaches_the_last_played")])
def test_a_negate_of_the_last_enhancement_played_is_a_fact_of_its_ability(make_case: Callable[..., Scenario], key: str,
                                                                          symbol: str) -> None:
    text = MINIMAL.replace("questions:", f"""\
  rod:
    type: EE
    owner: bob
    abilities:
      - kind: negate
        target_type: GE
        {key}: true
questions:""")
    sc = make_case(text)
    assert getattr(sc.abilities[0], symbol)
    facts = {f.args: f.value for f in sc.facts if f.symbol == symbol}
    assert facts == {("rod_a1",): True}
    with pytest.raises(CaseError, match=rf"case.yaml:\d+:\d+: '{key}' describes a negate ability"):
        make_case(text.replace("kind: negate", "kind: discard"))
    if key == "or_last_played":
        with pytest.raises(CaseError, match=r"'or_last_played' describes .* without 'last_played'"):
            make_case(text.replace("or_last_played: true", "or_last_played: true\n        last_played: true"))


OPPOSITE = """\
players: [alice, bob]
turns: 1
cards:
  josiah:
    type: Hero
    brigade: Purple
  kinsmen:
    card: Kinsmen's Agreement
    type: GE
    brigade: White
    zone: territory
questions:
  where: zone(kinsmen, 0)
"""


def test_a_description_of_opposite_alignment_is_read_against_the_type_of_its_card(
        make_case: Callable[..., Scenario]) -> None:
    # Kinsmen's Agreement: "... the last Enhancement of opposite alignment played or an Enhancement of opposite
    # alignment in play." (CORE-15-R2)
    assert make_case(OPPOSITE).abilities[0].target_alignment == "evil"
    assert make_case(OPPOSITE.replace("type: GE", "type: EE").replace("White", "Brown")
                     ).abilities[0].target_alignment == "good"
    with pytest.raises(CaseError, match=r"names cards 'of opposite alignment': give the card a type of one alignment"):
        make_case(OPPOSITE.replace("type: GE", "type: Artifact"))
    # placed in territory, its price is the card itself: a negate made with it from a hand is refused
    from_hand = OPPOSITE.replace("    zone: territory\n", "    zone: hand\n").replace("questions:", """\
  idol:
    type: EE
    brigade: Brown
    owner: bob
    abilities:
      - kind: negate
timeline:
  - id: idol_negates
    turn: 1
    phase: Preparation
    player: bob
    activate: idol
  - id: kinsmen_negates
    turn: 1
    phase: Preparation
    negate: idol_negates
    by: kinsmen
questions:""")
    with pytest.raises(CaseRefused, match=r"kinsmen_negates negates with 'kinsmen', whose price for kinsmen_a1 is the "
                                          r"card itself \(CORE-19-R1\), paid by a use from play, and 'kinsmen' starts "
                                          r"in the hand"):
        make_case(from_hand)


PRICED = """\
players: [alice, bob]
turns: 2
cards:
  daniel:
    type: Hero
    brigade: Purple
  haman:
    type: Evil_Character
    brigade: Gray
    owner: bob
    abilities:
      - kind: discard
        target_type: Hero
        target_count: 1
        price_itself: true
        text: "You may discard this card to discard a Hero."
  scroll:
    type: GE
    brigade: Purple
    abilities:
      - kind: negate
timeline:
  - id: haman_pays
    turn: 2
    phase: Preparation
    activate: haman
    targets: [daniel]
questions:
  where: zone(haman, 1)
"""


def test_a_price_of_the_card_itself_is_paid_by_a_use_from_play_only(make_case: Callable[..., Scenario]) -> None:
    # CORE-19-R1: a use from play is followed; a play that uses it, and a negate that may reach a use, are refused
    sc = make_case(PRICED)
    assert sc.abilities[0].discards_itself
    with pytest.raises(CaseRefused, match=r"haman_pays plays 'haman', using haman_a1, whose price is the card itself"):
        make_case(PRICED.replace("    owner: bob\n    abilities", "    owner: bob\n    zone: hand\n    abilities")
                  .replace("activate: haman", "play: haman"))
    negated = PRICED.replace("questions:", """\
  - id: negate_it
    turn: 2
    phase: Preparation
    negate: haman_pays
    by: scroll
questions:""")
    with pytest.raises(CaseRefused, match=r"negate_it may negate haman_pays, which used haman_a1, whose price is its "
                                          r"own card \(CORE-19-R1\)"):
        make_case(negated)


BAND = MINIMAL.replace("questions:", """\
    traits: [O.T.]
  elder:
    card: Tribal Elder
    adds: [elijah]
questions:""")


def test_a_real_cards_band_adds_the_characters_named_beside_the_card(make_case: Callable[..., Scenario]) -> None:
    (band,) = make_case(BAND).abilities
    assert (band.effect_class, band.adds, band.target_traits, band.max_targets) == (
        "adds_same_side", ("elijah",), ("O.T.", "human"), 1)
    with pytest.raises(CaseError, match=r"case.yaml:6:3: ability elder_a1 names 2 characters to add to battle, and its "
                                        r"text adds at most 1"):
        make_case(BAND.replace("adds: [elijah]", "adds: [elijah, elder]"))
    with pytest.raises(CaseError, match=r"case.yaml:8:\d+: Bathsheba has no ability read from its text that adds "
                                        r"characters to battle"):
        make_case(BAND.replace("Tribal Elder", "Bathsheba"))
    with pytest.raises(CaseError, match=r"case.yaml:8:\d+: 'adds' beside a card names what a real card's band ability"):
        make_case(BAND.replace("card: Tribal Elder", "type: Hero"))



def test_an_enhancements_band_takes_the_battle_status_of_its_players_side(
        repo_root: Path, make_case: Callable[..., Scenario]) -> None:
    # the characters an Enhancement bands in join its player's side of the battle with that side's status (AAO-2):
    # the status the entries into that battle state, the other side's for its opponent
    text = (repo_root / "cases/band/ambush-bands-an-nt-crimson-evil-character-not-a-crimson-hero.yaml").read_text("utf-8")
    facts = {(f.symbol, f.args): f.value for f in make_case(text).facts}
    assert (facts[("entry_role", ("band",))], facts[("opposing_role", ("band",))]) == ("blocking", "rescuing")
    stated = text.replace("    enter_battle: [stephen]\n", "    enter_battle: [stephen]\n    role: taunting\n"
                                                            "    opposing_role: defending\n", 1)
    facts = {(f.symbol, f.args): f.value for f in make_case(stated).facts}
    assert (facts[("entry_role", ("band",))], facts[("opposing_role", ("band",))]) == ("defending", "taunting")
    # with no entry into the battle before it, its player's side is the one an entry would default to: the active
    # player's rescuing, the other's blocking; a default the case is told of
    alone = make_case(text.replace("  - turn: 1\n    phase: Battle\n    enter_battle: [stephen]\n", "").replace(
        "  - turn: 1\n    phase: Battle\n    player: bob\n    enter_battle: [caiaphas]\n", ""))
    facts = {(f.symbol, f.args): f for f in alone.facts}
    assert (facts[("entry_role", ("band",))].value, facts[("opposing_role", ("band",))].value) == ("blocking", "rescuing")
    assert facts[("entry_role", ("band",))].default
    assert not next(f for f in make_case(text).facts if (f.symbol, f.args) == ("entry_role", ("band",))).default


GUARDED = MINIMAL.replace("questions:", """\
  luke:
    type: Hero
    abilities:
      - kind: heal
        cannot_be_negated: true
        cannot_be_negated_by: an evil card
  sorcerer:
    type: Evil_Character
    abilities:
      - kind: negate
        negates: [heal]
questions:""")


def test_a_guard_limited_to_a_description_bars_only_the_cards_that_fit_it(make_case: Callable[..., Scenario]) -> None:
    sc = make_case(GUARDED)
    covers = {f.args: f.value for f in sc.facts if f.symbol == "guard_covers"}
    assert (covers[("luke_a1", "sorcerer")], covers[("luke_a1", "elijah")], covers[("sorcerer_a1", "elijah")]) == (
        True, False, True)
    with pytest.raises(CaseError, match=r"case.yaml:10:\d+: cannot_be_negated_by: the word 'meek'"):
        make_case(GUARDED.replace("an evil card", "a meek card"))
    with pytest.raises(CaseError, match="cannot_be_negated_by names types, alignment and brigade only"):
        make_case(GUARDED.replace("an evil card", "a human"))
    with pytest.raises(CaseError, match="'cannot_be_negated_by' limits the guards of an ability that cannot be negated"):
        make_case(GUARDED.replace("        cannot_be_negated: true\n", ""))
    with pytest.raises(CaseRefused, match="luke_a1 cannot be negated by evil card, and the case does not say whether "
                                          "'fortress' .* which can negate, is good, evil or neutral"):
        make_case(GUARDED.replace("questions:", """\
  fortress:
    type: Fortress
    abilities:
      - kind: negate
        negates: [heal]
questions:"""))
    # a negate of unknown alignment that the case never uses decides nothing about the guard
    assert make_case(GUARDED.replace("questions:", """\
  fortress:
    type: Fortress
    abilities:
      - kind: negate
questions:""")).cards



LAW = MINIMAL.replace("questions:", """\
    brigade: Gold
  law:
    card: Bound to the Law [2026 - State]
    owner: bob
    zone: artifact_pile
    zone_of: bob
questions:""")


def test_a_real_card_with_an_unread_block_that_could_act_is_refused(make_case: Callable[..., Scenario]) -> None:
    """Bound to the Law's "A: Restrict players from controlling more than one Hero in battle." is not read: a case
    with the card active in an artifact pile is refused; in a hand it cannot act, nor when played as the Evil
    Enhancement whose block the play names."""
    with pytest.raises(CaseRefused, match=r"case.yaml:7:\d+: 'Bound to the Law \[2026 - State\]' also says 'Restrict "
                                          r"players from controlling more than one Hero in battle.', which regcheck does "
                                          r"not read, and it could act in this case"):
        make_case(LAW)
    assert make_case(LAW.replace("zone: artifact_pile", "zone: hand")).cards
    played = LAW.replace("zone: artifact_pile", "zone: hand").replace("questions:", """\
  sisera:
    type: Evil_Character
    brigade: Gray
    owner: bob
timeline:
  - turn: 1
    phase: Battle
    enter_battle: [elijah]
  - turn: 1
    phase: Battle
    player: bob
    enter_battle: [sisera]
  - id: law_played
    turn: 1
    phase: Battle
    player: bob
    play: law
    ability: EE
    on: sisera
    targets: [elijah]
questions:""")
    assert make_case(played).attempts


def test_ability_triggered_by_an_entry_into_battle(make_case: Callable[..., Scenario]) -> None:
    text = MINIMAL.replace("questions:", """\
  gilgal:
    type: Site
    abilities:
      - kind: other
        when_enters_battle: Hero
questions:""")
    (ability,) = make_case(text).abilities
    assert (ability.effect_class, ability.entry_trigger) == ("triggered_effect", ("Hero",))
    facts = {f.args: f.value for f in make_case(text).facts if f.symbol == "triggered_by_entry"}
    assert facts == {("gilgal_a1", "elijah"): True, ("gilgal_a1", "gilgal"): False}
    with pytest.raises(CaseError, match="an ability with 'when_enters_battle' has a triggered effect"):
        make_case(text.replace("when_enters_battle: Hero", "when_enters_battle: Hero\n        class: adds_same_side"))


def test_every_input_is_pinned(make_case: Callable[..., Scenario], provisions_text: str) -> None:
    sc = make_case(provisions_text)
    pinned = {(f.symbol, f.args) for f in sc.facts}
    assert len(pinned) == len(sc.facts), "an input is stated twice"
    domains: dict[str, list[str]] = {"card": [c.name for c in sc.cards], "ability": [a.id for a in sc.abilities],
                                     "attempt": [a.id for a in sc.attempts]}
    domains.update({name: list(members) for name, members in VALUE_SETS.items()})
    # the inputs over the sorts this scenario has (cards, abilities, attempts, value sets)
    inputs = [s for s in SYMBOLS.values() if s.kind.value == "input" and all(p in domains for p in s.params)]
    assert len(inputs) > 10
    for sym in inputs:
        combos: list[tuple[str, ...]] = [()]
        for p in sym.params:
            combos = [c + (v,) for c in combos for v in domains[p]]
        for combo in combos:
            assert (sym.name, combo) in pinned, f"{sym.name}{combo} is not pinned"


def test_defaults_are_marked(make_case: Callable[..., Scenario]) -> None:
    sc = make_case(MINIMAL.replace("    type: Hero\n", "    type: Hero\n    owner: bob\n    zone: hand\n"))
    facts = {f.name: f for f in sc.facts}
    assert not facts["owner(elijah)"].default and facts["owner(elijah)"].value == "bob"
    assert not facts["start_zone(elijah)"].default and facts["start_zone(elijah)"].value == "hand"
    assert facts["permanent_controller(elijah)"].default and facts["permanent_controller(elijah)"].value == "bob"
    assert facts["territory_class(elijah)"].default and facts["territory_class(elijah)"].value is False
    assert facts["start_zone_of(elijah)"].value == "bob"
    assert facts["owner(elijah)"].loc.line == 5


def test_defaults_are_documented() -> None:
    for key in ("owner", "controller", "territory_class", "zone", "turns"):
        assert DEFAULTS[key]
    assert VERDICT_NAMES == ("determined", "choice-dependent", "ambiguous", "contradiction", "unknown")


@pytest.mark.parametrize(
    ("given", "stored"),
    [("set-aside area", "set-aside area"), ("Set-Aside Area", "set-aside area"), ("field of battle", "field of battle"),
     ("field_of_battle", "field of battle")],
)
def test_expected_values_are_normalised(make_case: Callable[..., Scenario], given: str, stored: str) -> None:
    sc = make_case(MINIMAL + f"expect:\n  where: {{verdict: determined, value: {given}}}\n")
    (e,) = sc.expectations
    assert (e.question, e.verdict, e.value) == ("where", "determined", stored)


@pytest.mark.parametrize(
    ("question", "value", "stored"),
    [
        ("legal(play_provisions)", "yes", "yes"),
        ("legal(play_provisions)", "true", "yes"),
        ("legal(play_provisions)", "No", "no"),
        ("return_step(play_provisions, elijah)", "turn 3 preparation", "turn 3 Preparation (alice)"),
        ("return_step(play_provisions, elijah)", "turn 3 Preparation (alice)", "turn 3 Preparation (alice)"),
        ("return_step(play_provisions, elijah)", "'turn 1 Preparation, play_provisions'",
         "turn 1 Preparation (alice), play_provisions"),
        ("return_step(play_provisions, elijah)", "'turn 1 Preparation (Alice), play provisions'",
         "turn 1 Preparation (alice), play_provisions"),
        ("return_step(play_provisions, elijah)", "never", "never"),
        ("zone_of(elijah, 0)", "Alice", "alice"),
        ("card_of(play_provisions)", "provisions", "provisions"),
        ("card_type(elijah)", "Evil Character", "Evil Character"),
        ("count(legal(y) for y in attempts)", "1", "1"),
    ],
)
def test_expected_value_of_each_type(make_case: Callable[..., Scenario], provisions_text: str,
                                     question: str, value: str, stored: str) -> None:
    text = provisions_text.split("questions:")[0]
    text += f"questions:\n  q: {question}\nexpect:\n  q: {{verdict: determined, value: {value}}}\n"
    (e,) = make_case(text).expectations
    assert e.value == stored


def test_a_step_value_naming_the_wrong_player_is_refused(make_case: Callable[..., Scenario],
                                                         provisions_text: str) -> None:
    text = provisions_text.split("questions:")[0]
    text += "questions:\n  q: return_step(play_provisions, elijah)\n"
    text += "expect:\n  q: {verdict: determined, value: turn 2 Preparation (alice)}\n"
    with pytest.raises(InputError, match=r"'turn 2 Preparation \(alice\)' names the wrong player: turn 2 is "
                                         r"bob's turn \(write 'turn 2 Preparation \(bob\)', or leave the player out\)"):
        make_case(text)


def test_interpretations(make_case: Callable[..., Scenario]) -> None:
    assert make_case("interpretations: SA-5-I1\n" + MINIMAL).interpretations == ("SA-5-I1",)


# -- errors, each at its place (the CLI path is in test_malformed.py) ---------------------------


@pytest.mark.parametrize(("written", "low", "high"), [
    ("1", 1, 1), ("3", 3, 3), ("up to 2", 0, 2), ("At least 1", 1, -1), ("any number", 0, -1), (None, 0, -1),
])
def test_ability_names_how_many_targets(make_case: Callable[..., Scenario], written: str | None, low: int,
                                        high: int) -> None:
    count = f"        target_count: {written}\n" if written is not None else ""
    sc = make_case(MINIMAL.replace("questions:", f"""\
  samson:
    type: Hero
    abilities:
      - kind: set aside
{count}questions:"""))
    (ability,) = sc.abilities
    assert (ability.min_targets, ability.max_targets) == (low, high)
    facts = {f.symbol: f.value for f in sc.facts if f.args == ("samson_a1",)}
    assert (facts["min_targets"], facts["max_targets"]) == (low, high)


@pytest.mark.parametrize(("written", "message"), [
    ("0", "target_count must be between 1 and 250, got 0"),
    ("up to 0", "a target count is a whole number of cards (1 to 250), 'up to N', 'at least N', 'any number' or 'all'"),
    ("a few", "a target count is a whole number of cards (1 to 250), 'up to N', 'at least N', 'any number' or 'all'"),
])
def test_a_target_count_it_cannot_read_is_refused(make_case: Callable[..., Scenario], written: str,
                                                  message: str) -> None:
    text = MINIMAL.replace("questions:", f"""\
  samson:
    type: Hero
    abilities:
      - kind: set aside
        target_count: {written}
questions:""")
    assert error(make_case, text) == (message, 9, 23)


def error(make_case: Callable[..., Scenario], text: str) -> tuple[str, int, int]:
    with pytest.raises(InputError) as info:
        make_case(text)
    loc = info.value.location
    assert loc is not None and loc.path == "case.yaml"
    return info.value.message, loc.line, loc.column


@pytest.mark.parametrize(
    ("text", "message", "line", "column"),
    [
        (MINIMAL.replace("[alice, bob]", "[alice]"), "players must be a list of 2 to 4 names; the first takes turn 1", 1, 10),
        (MINIMAL.replace("[alice, bob]", "[alice, alice]"), "player names must differ", 1, 10),
        (MINIMAL.replace("[alice, bob]", "[alice, Bob]"),
         "player 'Bob' must be a lower-case name (letters, digits, _; at most 40)", 1, 18),
        (MINIMAL.replace("  elijah:", "  alice:").replace("zone(elijah", "zone(alice"),
         "card 'alice' has the same name as a player", 3, 3),
        (MINIMAL.replace("  elijah:", "  hand:"), "card name 'hand' is a word of the rules vocabulary; pick another", 3, 3),
        (MINIMAL.replace("type: Hero", "type: Heroo"),
         f"unknown card type 'Heroo' (did you mean 'Hero'?); one of: {one_of('card_type')}", 4, 11),
        (MINIMAL.replace("type: Hero", "typ: Hero"), "unknown field 'typ' in card 'elijah' (did you mean 'type'?)", 4, 5),
        (MINIMAL.replace("    type: Hero\n", "    type: Hero\n    owner: carol\n"), "unknown player 'carol'", 5, 12),
        (MINIMAL.replace("    type: Hero\n", "    type: Hero\n    owner: bbo\n"),
         "unknown player 'bbo' (did you mean 'bob'?)", 5, 12),
        (MINIMAL.replace("    type: Hero\n", "    card: Elijahh\n"),
         "no card named 'Elijahh' in the card list; did you mean 'Elijah', 'Elijah (PoC)', 'Elisabeth'?", 4, 11),
        (MINIMAL.replace("    type: Hero\n", "    card: Dragon Raid (Wa)\n"),
         "the card list gives the brigade of 'Dragon Raid (Wa)' as 'Multi', a multicolored brigade regcheck reads only "
         "for a Hero, Evil Character or enhancement printed with 'Multi' alone; state its 'brigade'", 4, 11),
        (MINIMAL.replace("zone(elijah, 0)", "zone(elijha, 0)"), "unknown name 'elijha' (did you mean 'elijah'?)", 6, 15),
        (MINIMAL.replace("zone(elijah, 0)", "zone(elijah)"), "zone takes 2 argument(s), got 1", 6, 10),
        (MINIMAL + "expect:\n  wher: ambiguous\n", "expect names unknown question 'wher' (did you mean 'where'?)", 8, 3),
        (MINIMAL + "expect:\n  where: determind\n",
         f"unknown verdict 'determind' (did you mean 'determined'?); one of: {', '.join(VERDICT_NAMES)}", 8, 10),
        (MINIMAL + "expect:\n  where: determined\n",
         "a 'determined' expectation needs the value: {verdict: determined, value: ...}", 8, 10),
        (MINIMAL + "expect:\n  where: {verdict: ambiguous, value: hand}\n",
         "only a 'determined' expectation has a value", 8, 38),
        (MINIMAL + "expect:\n  where: {verdict: determined, value: hnad}\n",
         "'hnad' is not a possible zone value (did you mean 'hand'?)", 8, 39),
        ("interpretations: [SA-5]\n" + MINIMAL, "'SA-5' is not an interpretation rule (did you mean 'SA-5-I1'?)", 1, 19),
        (MINIMAL.replace("players:", "turns: 0\nplayers:"), "turns must be between 1 and 60, got 0", 1, 8),
    ],
)
def test_errors(make_case: Callable[..., Scenario], text: str, message: str, line: int, column: int) -> None:
    assert error(make_case, text) == (message, line, column)


TIMELINE = MINIMAL.replace("questions:", """\
  watchman:
    type: Hero
    abilities:
      - kind: set aside
timeline:
  - id: first
    turn: 2
    phase: Battle
    activate: watchman
    targets: [elijah]
ENTRY
questions:""")


@pytest.mark.parametrize(
    ("entry", "message", "line", "column"),
    [
        ("  - turn: 1\n    phase: Draw\n    enter_battle: [elijah]",
         "timeline entries must be in time order; turn 1 Draw comes before an earlier entry", 15, 5),
        ("  - turn: 2\n    phase: Upkeep\n    enter_battle: [elijah]",
         "timeline entries must be in time order; turn 2 Upkeep comes before an earlier entry", 15, 5),
        ("  - turn: 2\n    phase: Battel\n    enter_battle: [elijah]",
         f"unknown phase 'Battel' (did you mean 'Battle'?); one of: {one_of('phase')}", 16, 12),
        ("  - turn: 61\n    phase: Battle\n    enter_battle: [elijah]", "turn must be between 1 and 60, got 61", 15, 11),
        ("  - turn: two\n    phase: Battle\n    enter_battle: [elijah]", "turn must be a whole number, got text", 15, 11),
        ("  - turn: 3\n    phase: Battle", f"a timeline entry needs exactly one of: {', '.join(ACTIONS)}", 15, 5),
        ("  - turn: 3\n    phase: Battle\n    enter_battle: [elija]", "unknown card 'elija' (did you mean 'elijah'?)", 17, 20),
        ("  - turn: 3\n    phase: Battle\n    negate: frist\n    by: watchman",
         "no earlier attempt 'frist' (did you mean 'first'?)", 17, 13),
        ("  - turn: 3\n    phase: Battle\n    negate: first\n    by: elijah",
         "card 'elijah' has no special ability to use (give it 'abilities' or a real 'card')", 18, 9),
        ("  - turn: 3\n    phase: Battle\n    negate: first\n    by: watchman", "card 'watchman' has no negate effect ability",
         18, 9),
        ("  - id: first\n    turn: 3\n    phase: Battle\n    end_battle: true",
         "attempt id 'first' is already used by another name", 15, 9),
        ("  - turn: 3\n    phase: Battle\n    end_battle: now", "write 'end_battle: true'", 17, 17),
        ("  - turn: 3\n    phase: Battle\n    enter_battle: [elijah]\n    by: watchman",
         "'by' does not apply to a enter_battle entry", 18, 9),
        ("  - turn: 3\n    phase: Battle\n    activate: watchman\n    targets: [elijah, elijah]",
         "a card is listed twice among the targets", 15, 5),
    ],
)
def test_timeline_errors(make_case: Callable[..., Scenario], entry: str, message: str, line: int, column: int) -> None:
    assert error(make_case, TIMELINE.replace("ENTRY", entry)) == (message, line, column)


def test_turns_must_reach_the_timeline(make_case: Callable[..., Scenario]) -> None:
    text = "turns: 1\n" + TIMELINE.replace("ENTRY\n", "")
    assert error(make_case, text) == ("turns is 1 but the timeline reaches turn 2", 1, 8)


def test_enhancement_needs_on(make_case: Callable[..., Scenario], provisions_text: str) -> None:
    message, line, _ = error(make_case, provisions_text.replace("    on: elijah\n", ""))
    assert message == "playing an enhancement needs 'on': the character it is played on"
    assert line == 10


def test_real_card_needs_x(make_case: Callable[..., Scenario]) -> None:
    text = MINIMAL.replace("questions:", "  darkness:\n    card: Darkness (FoM)\nquestions:")
    message, line, column = error(make_case, text)
    assert message.startswith("Darkness (FoM) says 'cannot be negated if ") and message.endswith("': give the card's x")
    assert (line, column) == (6, 5)


def test_real_card_needs_x_quotes_the_card(make_case: Callable[..., Scenario]) -> None:
    text = MINIMAL.replace("questions:", "  darkness:\n    card: Darkness (FoM)\nquestions:")
    assert error(make_case, text)[0] == "Darkness (FoM) says 'cannot be negated if X is 4 or greater': give the card's x"


def test_expected_value_in_vocabulary_spelling(make_case: Callable[..., Scenario]) -> None:
    (e,) = make_case(MINIMAL + "expect:\n  where: {verdict: determined, value: set_aside_area}\n").expectations
    assert e.value == "set-aside area"


def test_errors_are_case_errors(make_case: Callable[..., Scenario]) -> None:
    with pytest.raises(CaseError):
        make_case(MINIMAL.replace("zone(elijah, 0)", "zoen(elijah, 0)"))


def test_question_outside_the_timeline_fails_when_grounded(make_case: Callable[..., Scenario], rule_base: object) -> None:
    from verifier.solver.grounding import ground

    sc = make_case(MINIMAL.replace("zone(elijah, 0)", "zone(elijah, at(3, Draw))"))
    with pytest.raises(EncodingError) as info:
        ground(sc, rule_base)  # type: ignore[arg-type]
    assert info.value.message == "at(3, Draw) has no value: turn 3 is not in the timeline"
    assert info.value.location is not None and (info.value.location.line, info.value.location.column) == (6, 23)


PLAY_HERO = """\
players: [alice, PLAYER]
cards:
  elijah:
    type: Hero
    zone: hand
    abilities:
      - kind: other
  moses:
    type: Hero
timeline:
  - id: play_elijah
    turn: 1
    phase: Preparation
    play: elijah
    on: moses
questions:
  where: zone(elijah, at(1, Preparation))
"""


def test_played_hero_goes_to_territory(make_case: Callable[..., Scenario], rule_base: object) -> None:
    from verifier.solver.engine import check_scenario

    (r,) = check_scenario(make_case(PLAY_HERO.replace("PLAYER", "bob")), rule_base).results  # type: ignore[arg-type]
    assert (r.verdict.value, r.value) == ("determined", "territory")


def test_player_named_like_a_zone_is_refused(make_case: Callable[..., Scenario]) -> None:
    with pytest.raises(CaseError) as info:
        make_case(PLAY_HERO.replace("PLAYER", "territory"))
    assert "territory" in info.value.message


def _weapons(equipped: dict[str, str]) -> str:
    text = "players: [alice, bob]\ncards:\n  samson:\n    type: Hero\n"
    for name in ("sword", "sling", "spear"):
        text += f"  {name}:\n    type: Weapon\n" + (f"    equipped_to: {equipped[name]}\n" if name in equipped else "")
    return text + "questions:\n  where: zone(sword, 0)\n"


@pytest.mark.parametrize(
    ("equipped", "message", "line"),
    [
        ({"sword": "sword"}, "card 'sword' is equipped to itself", 7),
        ({"sword": "sling", "sling": "sword"}, "cards are equipped to each other in a cycle: sword -> sling -> sword", 7),
        ({"sword": "sling", "sling": "spear", "spear": "sling"},
         "cards are equipped to each other in a cycle: sling -> spear -> sling", 10),
    ],
)
def test_equipping_in_a_cycle_is_refused(make_case: Callable[..., Scenario], equipped: dict[str, str],
                                         message: str, line: int) -> None:
    """Defect 7: a Weapon equipped to itself, or Weapons equipped to each other, is no game position."""
    assert error(make_case, _weapons(equipped)) == (message, line, 18)


def test_a_chain_of_equipping_without_a_cycle_loads(make_case: Callable[..., Scenario]) -> None:
    sc = make_case(_weapons({"sword": "samson", "sling": "samson"}))
    assert {c.name: c.equipped_to for c in sc.cards} == {"samson": None, "sword": "samson", "sling": "samson",
                                                         "spear": None}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (MINIMAL.replace("zone(elijah, 0)", "yes"),
         "question 'where': 'yes' is read by YAML as true: write True for the truth value, "
         "or quote it ('yes') for a name"),
        (MINIMAL.replace("type: Hero", "type: Hero\n    zone: off"),
         "zone must be one of: " + one_of("zone") + " ('off' is read by YAML as false: write it in quotes ('off') "
         "for the word)"),
        (MINIMAL.replace("players: [alice, bob]", "players: [alice, bob]\nturns: on"),
         "turns must be a whole number, got true/false ('on' is read by YAML as true)"),
    ],
)
def test_yaml11_truth_words_are_refused_with_a_hint(make_case: Callable[..., Scenario], text: str,
                                                    message: str) -> None:
    assert error(make_case, text)[0] == message


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        (MINIMAL.replace("elijah", "holder"), "card 'holder'", 3),
        (MINIMAL.replace("[alice, bob]", "[alice, in_play]"), "player 'in_play'", 1),
        (MINIMAL + "timeline:\n  - id: active\n    turn: 1\n    phase: Battle\n    enter_battle: [elijah]\n",
         "attempt 'active'", 8),
    ],
)
def test_a_name_of_the_case_may_not_be_a_definitions(make_case: Callable[..., Scenario], text: str, message: str,
                                                     line: int) -> None:
    """Defect 12: a definition and a card of the same name both existed, and questions read the card."""
    got, got_line, _ = error(make_case, text)
    name = message.split("'")[1]
    assert got.startswith(f"{message} has the same name as the definition '{name}' of the rules (")
    assert got.endswith("); pick another") and got_line == line


# -- real cards: which ability an entry uses, and refusing what is not modelled ----------------------

TWO_ABILITIES = """\
players: [alice, bob]
cards:
  elijah:
    type: Hero
    abilities:
      - kind: set aside
      - kind: heal
  moses:
    type: Hero
timeline:
  - turn: 1
    phase: Preparation
    activate: elijah
    targets: [moses]
{extra}questions:
  where: zone(moses, 0)
"""


def test_two_usable_abilities_need_ability(make_case: Callable[..., Scenario]) -> None:
    with pytest.raises(CaseError, match=r"case.yaml:13:15: card 'elijah' has 2 abilities this entry could use "
                                        r"\(1: set aside effect, 2: heal effect\); say which with 'ability:'"):
        make_case(TWO_ABILITIES.format(extra=""))


@pytest.mark.parametrize(("named", "used"), [("1", "elijah_a1"), ("2", "elijah_a2")])
def test_ability_by_number(make_case: Callable[..., Scenario], named: str, used: str) -> None:
    sc = make_case(TWO_ABILITIES.format(extra="").replace("    targets: [moses]\n",
                                                          f"    targets: [moses]\n    ability: {named}\n"))
    assert sc.attempts[0].ability == used


def test_unknown_ability_number(make_case: Callable[..., Scenario]) -> None:
    text = TWO_ABILITIES.format(extra="").replace("    targets: [moses]\n", "    targets: [moses]\n    ability: 3\n")
    with pytest.raises(CaseError, match=r"card 'elijah' has no ability '3'; its abilities: 1, 2"):
        make_case(text)


def test_ability_by_block_label(make_case: Callable[..., Scenario]) -> None:
    text = """\
players: [alice, bob]
cards:
  fire:
    card: Burning Fire
    type: EE
  elijah:
    type: Hero
timeline:
  - turn: 1
    phase: Preparation
    play: fire
    on: elijah
    ability: EE
questions:
  where: zone(elijah, 0)
"""
    with pytest.raises(CaseError, match=r"'Burning Fire' is used at line 11, but its text has parts regcheck does not "
                                        r"model: ability 2 \(EE\)"):
        make_case(text)


def test_real_card_with_unsupported_part_is_refused_where_it_is_named(make_case: Callable[..., Scenario]) -> None:
    text = """\
players: [alice, bob]
cards:
  training:
    card: Training in Righteousness
  moses:
    type: Hero
timeline:
  - turn: 1
    phase: Preparation
    play: training
    on: moses
    targets: [moses]
questions:
  where: zone(moses, 0)
"""
    with pytest.raises(CaseError) as info:
        make_case(text)
    message = str(info.value)
    assert message.startswith("case.yaml:4:11: 'Training in Righteousness' is used at line 10")
    assert ("'on return, hero gains two additional brigade colors of holder's choice' (what the card gains on return "
            "is not modelled") in message
    assert "write the ability by hand under 'abilities:'" in message
    # the same card with its ability written by hand is read
    sc = make_case(text.replace("    card: Training in Righteousness\n",
                                "    card: Training in Righteousness\n    abilities:\n      - kind: set aside\n"
                                "        duration: 4\n"))
    assert sc.abilities[0].duration_turns == 4


BOOTHS = """\
players: [alice, bob]
cards:
  booths:
    card: Feast of Booths
  moses:
    type: Hero
    brigade: Purple
timeline:
  - turn: 1
    phase: Preparation
    play: booths
    on: moses
    targets: [moses]
questions:
  where: zone(moses, 0)
"""


def test_a_trait_the_text_names_for_its_targets_must_be_settled(make_case: Callable[..., Scenario]) -> None:
    # "Set aside all of your human Heroes": the card list does not say who is human, and nothing is assumed
    with pytest.raises(CaseError, match=r"case.yaml:9:5: booths_a1 names human for its targets, and the case does not "
                                        r"say whether 'moses' is human: list its traits under 'traits:' "
                                        r"\(e.g. 'traits: \[human\]', or 'traits: \[\]' for none\)"):
        make_case(BOOTHS)
    sc = make_case(BOOTHS.replace("    brigade: Purple\n", "    brigade: Purple\n    traits: [human, male]\n"))
    assert sc.abilities[0].target_traits == ("human",)
    assert sc.cards[1].traits == ("human", "male") and sc.cards[1].traits_stated
    assert {f.args[1]: f.value for f in sc.facts if f.symbol == "fits_description"} == {"booths": False, "moses": True}
    sc = make_case(BOOTHS.replace("    brigade: Purple\n", "    brigade: Purple\n    traits: []\n"))
    assert {f.args[1]: f.value for f in sc.facts if f.symbol == "fits_description"} == {"booths": False, "moses": False}
    # a card the text does not name anyway (an Evil Character for "Heroes") needs no traits
    sc = make_case(BOOTHS.replace("    type: Hero\n", "    type: Evil_Character\n"))
    assert {f.args[1]: f.value for f in sc.facts if f.symbol == "fits_description"} == {"booths": False, "moses": False}


MIGHTY_MEN = """\
players: [alice, bob]
cards:
  abishai:
    card: Abishai (Ki)
  lahmi:
    card: Lahmi (I)
    owner: bob
  abaddon:
    card: Abaddon the Destroyer (L)
    owner: bob
  ner:
    type: Evil_Character
    brigade: Black
    owner: bob
  mighty_men:
    card: David's Mighty Men
timeline:
  - turn: 1
    phase: Battle
    enter_battle: [abishai]
  - turn: 1
    phase: Battle
    play: mighty_men
    on: abishai
    targets: [lahmi, abaddon, ner]
questions:
  where: zone(lahmi, 0)
"""


def test_the_card_lists_class_settles_a_real_characters_warrior_trait(make_case: Callable[..., Scenario]) -> None:
    # "discard a warrior class Evil Character": the class field records every class icon, so a real character
    # without the Warrior class is known to lack it; a card of the case's own still needs its traits listed
    with pytest.raises(CaseError, match=r"mighty_men_a1 names warrior for its targets, and the case does not say "
                                        r"whether 'ner' is warrior"):
        make_case(MIGHTY_MEN)
    sc = make_case(MIGHTY_MEN.replace("    brigade: Black\n", "    brigade: Black\n    traits: []\n"))
    by_name = {c.name: c for c in sc.cards}
    assert by_name["lahmi"].traits == ("from I Chronicles", "named Lahmi", "warrior")
    assert by_name["abaddon"].traits == ("from Revelation", "named Abaddon the Destroyer")
    assert not by_name["abaddon"].traits_stated and by_name["abaddon"].settled_traits[0] == "warrior"
    fits = {f.args[1]: f.value for f in sc.facts if f.symbol == "fits_description" and f.args[0] == "mighty_men_a1"}
    assert (fits["lahmi"], fits["abaddon"], fits["ner"]) == (True, False, False)
    # the Enhancement itself: the class field settles no trait of a card other than a character (its reference
    # settles the books of the Bible, CORE-15-R3)
    assert not any(not t.startswith("from ") for t in by_name["mighty_men"].settled_traits)


def test_a_real_cards_class_cannot_be_stated_otherwise(make_case: Callable[..., Scenario]) -> None:
    abaddon = "    card: Abaddon the Destroyer (L)\n"
    text = MIGHTY_MEN.replace(abaddon, abaddon + "    traits: [warrior]\n")
    with pytest.raises(CaseError, match=r"case.yaml:\d+:\d+: 'abaddon' is not warrior: the card list gives Abaddon the "
                                        r"Destroyer \(L\) the class 'none', and a real card's class is the card list's"):
        make_case(text)
    # nor the books of its reference (CORE-15-R3)
    text = MIGHTY_MEN.replace(abaddon, abaddon + "    traits: [from Exodus]\n")
    with pytest.raises(CaseError, match=r"'abaddon' is not from Exodus: the card list gives Abaddon the Destroyer \(L\) "
                                        r"the reference 'Revelation 9:11', and a real card's reference is the card list's"):
        make_case(text)


def test_traits_are_words_the_card_grammar_knows(make_case: Callable[..., Scenario]) -> None:
    sc = make_case(BOOTHS.replace("    brigade: Purple\n", "    brigade: Purple\n    traits: [Humans, nt]\n"))
    assert sc.cards[1].traits == ("N.T.", "human")
    with pytest.raises(CaseError, match=r"case.yaml:8:14: unknown trait 'humn' \(did you mean 'human'\?\); one of: human, male"):
        make_case(BOOTHS.replace("    brigade: Purple\n", "    brigade: Purple\n    traits: [humn]\n"))
    # a book of the Bible, as "from <book>" (CORE-15-R3)
    sc = make_case(BOOTHS.replace("    brigade: Purple\n", "    brigade: Purple\n    traits: [from I samuel]\n"))
    assert sc.cards[1].traits == ("from I Samuel",)
    with pytest.raises(CaseError, match=r"unknown trait 'from Exodos' \(did you mean 'from Exodus'\?\); one of: .*, or "
                                        r"'from <book of the Bible>'"):
        make_case(BOOTHS.replace("    brigade: Purple\n", "    brigade: Purple\n    traits: [from Exodos]\n"))


def test_the_card_lists_identifiers_give_a_real_card_traits(make_case: Callable[..., Scenario]) -> None:
    text = """\
players: [alice, bob]
cards:
  phoebe:
    card: Phoebe
  crispus:
    card: Crispus
  titus:
    type: Hero
    brigade: Clay
    traits: [Corinth]
timeline:
  - turn: 1
    phase: Battle
    enter_battle: [phoebe]
  - turn: 1
    phase: Battle
    activate: phoebe
    targets: [crispus, titus]
questions:
  where: zone(crispus, 0)
"""
    sc = make_case(text)
    crispus = next(c for c in sc.cards if c.name == "crispus")
    # identifiers "Corinth, Priest", the book of its reference (CORE-15-R3) and its title (CORE-15-R1)
    assert crispus.traits == ("Corinth", "Priest", "from Acts", "named Crispus") and not crispus.traits_stated
    assert sc.abilities[0].target_traits == ("Corinth",)
    fits = {f.args[1]: f.value for f in sc.facts if f.symbol == "fits_description" and f.args[0] == "phoebe_a1"}
    assert fits == {"phoebe": True, "crispus": True, "titus": True}


def test_real_card_targets_are_read(make_case: Callable[..., Scenario], provisions_text: str) -> None:
    sc = make_case(provisions_text)
    (a,) = sc.abilities
    assert (a.target_types, a.min_targets, a.max_targets, a.targets_own_cards) == (("Hero",), 1, 1, False)
    fits = {f.args[1]: f.value for f in sc.facts if f.symbol == "fits_description"}
    assert fits == {"elijah": True, "provisions": False}


def test_a_card_with_several_blocks_needs_ability(make_case: Callable[..., Scenario]) -> None:
    text = """\
players: [alice, bob]
cards:
  fountain:
    card: Fountain of Living Water (PoC)
  elijah:
    type: Hero
timeline:
  - turn: 1
    phase: Preparation
    play: fountain
    on: elijah
    targets: [elijah]
questions:
  where: zone(elijah, 0)
"""
    with pytest.raises(CaseError, match=r"the text of 'fountain' has 2 abilities \(1 \(STAR\): set aside effect, "
                                        r"2 \(GE\): other effect\); say which this entry uses with 'ability:'"):
        make_case(text)
    sc = make_case(text.replace("    targets: [elijah]\n", "    targets: [elijah]\n    ability: STAR\n"))
    assert sc.attempts[0].ability == "fountain_a1"
    # Samaria: "SITE: You may take ... from deck. FORT: If your evil king of Israel blocks, you may take ..."
    site = text.replace("card: Fountain of Living Water (PoC)", "card: Samaria").replace("    on: elijah\n", "")
    with pytest.raises(CaseError, match=r"the text of 'fountain' has 2 abilities \(1 \(SITE\): other effect, "
                                        r"2 \(FORT\): nothing the model uses\)"):
        make_case(site.replace("    targets: [elijah]\n", ""))


WORSHIPPING = """\
players: [alice, bob]
cards:
  worship:
    card: Worshipping God
  moses:
    type: Hero
    brigade: Purple
  covenant:
    type: Covenant
  other:
    type: TYPE
    owner: bob
    abilities:
      - kind: discard
timeline:
  - turn: 1
    phase: Preparation
    play: worship
    on: moses
    targets: [moses]
  - id: discard_it
    turn: 2
    phase: Preparation
    discard: [covenant]
    by: other
questions:
  where: zone(covenant, 0)
"""


def test_a_protection_is_refused_where_it_could_matter(make_case: Callable[..., Scenario]) -> None:
    # "While set aside, holder's covenants are protected from being discarded ... by evil cards": protection is
    # not modelled, so a discard by an Evil Character (an evil card) refuses the case
    with pytest.raises(CaseError) as info:
        make_case(WORSHIPPING.replace("TYPE", "Evil_Character"))
    message = str(info.value)
    assert message.startswith("case.yaml:4:11: 'Worshipping God' protects cards ('while set aside, holder's covenants")
    assert "attempt 'discard_it' (line 21) could be one it protects against" in message
    # a Hero is no evil card: the protection cannot meet its discard
    assert make_case(WORSHIPPING.replace("TYPE", "Hero")).abilities[0].card == "worship"
    # unused, the paired protection never starts
    unused = WORSHIPPING.replace("TYPE", "Evil_Character").replace(
        "  - turn: 1\n    phase: Preparation\n    play: worship\n    on: moses\n    targets: [moses]\n", "")
    assert make_case(unused).attempts[0].id == "discard_it"


def test_a_card_protection_is_refused_even_when_the_card_is_not_used(make_case: Callable[..., Scenario]) -> None:
    # "Protect holder's Heroes from having their abilities reduced" holds while the card is there, used or not
    text = """\
players: [alice, bob]
cards:
  sustainer:
    card: I am Sustainer
  moses:
    type: Hero
  plague:
    type: EE
    owner: bob
    abilities:
      - kind: afflict
        inflicts: [decreased]
timeline:
  - id: decrease_moses
    turn: 2
    phase: Preparation
    play: plague
    on: moses
    targets: [moses]
questions:
  where: zone(moses, 0)
"""
    with pytest.raises(CaseError, match=r"'I am Sustainer' protects cards .* attempt 'decrease_moses' \(line 14\)"):
        make_case(text)


AHIMELEK = """\
players: [alice, bob]
cards:
  ahimelek:
    card: Ahimelek the Hittite
  stephen:
    type: Hero
  beast:
    type: Evil_Character
    owner: bob
    abilities:
      - kind: KIND
timeline:
  - id: take_stephen
    turn: 2
    phase: Preparation
    activate: beast
    targets: [stephen]
questions:
  where: zone(stephen, 0)
"""


@pytest.mark.parametrize("kind", ["capture", "banish"])
def test_a_protection_from_capture_is_refused_where_a_capture_or_a_banish_could_meet_it(
        make_case: Callable[..., Scenario], kind: str) -> None:
    # "Protect your warrior class Heroes from capture": the model captures and banishes, and carries out no protection
    with pytest.raises(CaseError, match=r"'Ahimelek the Hittite' protects cards .* attempt 'take_stephen' \(line 13\)"):
        make_case(AHIMELEK.replace("KIND", kind))
    # a discard is not a capture: the protection cannot meet it
    assert make_case(AHIMELEK.replace("KIND", "discard")).attempts[0].id == "take_stephen"


LIMITED = """\
players: [alice, bob]
cards:
  deborah:
    type: Hero
    abilities:
      - kind: set aside
        limit: LIMIT
  barak:
    type: Hero
  confusion:
    type: EE
    owner: bob
    abilities:
      - kind: negate
timeline:
  - id: first_use
    turn: 1
    phase: Preparation
    activate: deborah
    targets: [barak]
  - id: undo
    turn: 1
    phase: Preparation
    negate: first_use
    by: confusion
  - id: second_use
    turn: 3
    phase: Preparation
    activate: deborah
    targets: [barak]
questions:
  where: zone(barak, 0)
"""


def test_a_use_limit_is_read_and_pinned(make_case: Callable[..., Scenario]) -> None:
    unnegated = LIMITED.replace("  - id: undo\n    turn: 1\n    phase: Preparation\n    negate: first_use\n"
                                "    by: confusion\n", "")
    sc = make_case(unnegated.replace("LIMIT", "twice per game"))
    assert (sc.abilities[0].uses_per_game, sc.abilities[0].uses_per_turn) == (2, 0)
    facts = {f.name: f.value for f in sc.facts}
    assert (facts["uses_per_game(deborah_a1)"], facts["uses_per_turn(deborah_a1)"]) == (2, 0)
    assert len(sc.attempts) == 2
    assert make_case(unnegated.replace("LIMIT", "3 Times per Turn")).abilities[0].uses_per_turn == 3
    with pytest.raises(CaseError, match=r"case.yaml:7:16: unknown limit 'once per round'"):
        make_case(unnegated.replace("LIMIT", "once per round"))


def test_what_a_use_limit_leaves_unsaid_is_refused(make_case: Callable[..., Scenario]) -> None:
    # whether a negated use counts toward the limit is not stated
    with pytest.raises(CaseError, match=r"case.yaml:26:5: deborah_a1 may be used once per game \(CORE-17\), and "
                                        r"'first_use' is negated before 'second_use' uses it again"):
        make_case(LIMITED.replace("LIMIT", "once per game"))
    # without the later use, or without a limit, nothing is left unsaid
    assert len(make_case(LIMITED.replace("LIMIT", "once per game").split("  - id: second_use")[0]
                         + "questions:\n  where: zone(barak, 0)\n").attempts) == 2
    assert len(make_case(LIMITED.replace("        limit: LIMIT\n", "")).attempts) == 3
    # whether the limit counts each copy of a printed card apart is not stated
    two = """\
players: [alice, bob]
cards:
  crispus:
    card: Crispus
  crispus_again:
    card: Crispus
questions:
  where: zone(crispus, 0)
"""
    with pytest.raises(CaseError, match=r"case.yaml:5:3: 'crispus' and 'crispus_again' are both 'Crispus', whose "
                                        r"ability may be used once per game"):
        make_case(two)


TORMENT = """\
players: [alice, bob]
cards:
  sisera:
    type: Evil_Character
    brigade: Orange
    owner: bob
    poisoned: true
  torment:
    card: Torment (Roots)
    owner: bob
timeline:
  - turn: 2
    phase: Preparation
    play: torment
    on: sisera
    targets: [sisera]
EFFECT
questions:
  where: zone(sisera, 0)
"""


def test_an_ability_offering_another_effect_is_used_for_the_one_modelled(make_case: Callable[..., Scenario]) -> None:
    assert make_case(TORMENT.replace("EFFECT", "    effect: Heal")).attempts[0].ability == "torment_a1"
    with pytest.raises(CaseError, match=r"case.yaml:12:5: 'Torment \(Roots\)' lets its player pick an effect \(heal, "
                                        r"or 'underdeck a hero'\): say which this entry uses with 'effect: heal'"):
        make_case(TORMENT.replace("EFFECT\n", ""))
    with pytest.raises(CaseError, match=r"case.yaml:17:13: the other effect of 'Torment \(Roots\)' \('underdeck a "
                                        r"hero'\) is not modelled"):
        make_case(TORMENT.replace("EFFECT", "    effect: underdeck"))
    with pytest.raises(CaseError, match=r"'effect' picks one of the effects an ability's text offers .* "
                                        r"torment_a1 offers no choice"):
        make_case(TORMENT.replace("card: Torment (Roots)", "card: Miracle of Healing")
                  .replace("EFFECT", "    effect: heal"))


def test_a_protection_in_a_block_with_no_ability_of_the_case_still_refuses(make_case: Callable[..., Scenario]) -> None:
    # "Protect Lost Souls from evil cards" holds while the card is there, though nothing of its text is usable
    text = """\
players: [alice, bob]
cards:
  handkerchiefs:
    card: Miraculous Handkerchiefs (EC)
  soul:
    type: Lost_Soul
  other:
    type: TYPE
    owner: bob
    abilities:
      - kind: discard
timeline:
  - id: discard_it
    turn: 2
    phase: Preparation
    discard: [soul]
    by: other
questions:
  where: zone(soul, 0)
"""
    with pytest.raises(CaseError, match=r"case.yaml:4:11: 'Miraculous Handkerchiefs \(EC\)' protects cards \('protect "
                                        r"lost souls from evil cards'\), .* attempt 'discard_it' \(line 13\)"):
        make_case(text.replace("TYPE", "Evil_Character"))
    assert make_case(text.replace("TYPE", "Hero")).attempts[0].id == "discard_it"


# -- on-return effects that regcheck does not carry out (SA-11) --------------------------------------

def _on_return_case(extra_cards: str = "", extra_timeline: str = "", card: str = "Provisions") -> str:
    return f"""\
players: [alice, bob]
cards:
  elijah:
    type: Hero
    brigade: Green
  provisions:
    card: {card}
{extra_cards}timeline:
  - id: play_provisions
    turn: 1
    phase: Preparation
    play: provisions
    on: elijah
    targets: [elijah]
{extra_timeline}questions:
  returns_at: return_step(play_provisions, elijah)
"""


def test_an_on_return_effect_that_picks_a_later_blocker_refuses_a_later_battle(
        make_case: Callable[..., Scenario]) -> None:
    # Provisions: "On return holder may ... choose the Evil Character his opponent uses to block Hero's next
    # rescue attempt": a battle after the use could have a blocker the holder picked
    battle = "  - id: rescue\n    turn: 3\n    phase: Battle\n    enter_battle: [elijah]\n"
    with pytest.raises(CaseError, match=r"'Provisions' has an on-return effect .* could change who may block in "
                                        r"attempt 'rescue' \(line 1[0-9]\)"):
        make_case(_on_return_case(extra_timeline=battle))
    assert make_case(_on_return_case()).attempts[0].id == "play_provisions"


def test_an_on_return_draw_refuses_a_card_in_a_draw_pile(make_case: Callable[..., Scenario]) -> None:
    # Pentecost (FoM): "On return, you may draw 3."
    in_deck = "  jonah:\n    type: Hero\n    zone: draw pile\n    traits: [human]\n"
    pentecost = _on_return_case(in_deck, card="Pentecost (FoM)").replace("brigade: Green", "traits: [human]")
    with pytest.raises(CaseError, match=r"'Pentecost \(FoM\)' has an on-return effect \('on return, you may draw 3'\)"
                                        r" .* could change card 'jonah' \(in a draw pile\)"):
        make_case(pentecost)
    assert make_case(pentecost.replace("draw pile", "hand")).attempts[0].id == "play_provisions"


def test_an_on_return_discard_or_conversion_refuses_a_card_of_the_type_it_names(
        make_case: Callable[..., Scenario]) -> None:
    # Zeresh Advises Haman: "On return discard X Heroes and a random face-down Artifact from each opponent's
    # territory"; Crispus: "On return, convert a human Evil Character to a clay Corinth Hero"
    zeresh = _on_return_case("  haman:\n    type: Evil_Character\n    traits: [Persian]\n", card="Zeresh Advises Haman")
    zeresh = zeresh.replace("on: elijah\n    targets: [elijah]", "on: haman\n    targets: [haman]").replace(
        "return_step(play_provisions, elijah)", "return_step(play_provisions, haman)")
    with pytest.raises(CaseError, match=r"'Zeresh Advises Haman' has an on-return effect .* could change card 'elijah'"):
        make_case(zeresh)
    crispus = """\
players: [alice, bob]
cards:
  crispus:
    card: Crispus
  titius:
    type: Hero
    traits: [Corinth]
  OTHER
timeline:
  - id: use
    turn: 1
    phase: Preparation
    activate: crispus
    targets: [titius]
questions:
  legal: legal(use)
"""
    assert make_case(crispus.replace("  OTHER\n", "")).attempts[0].id == "use"
    with pytest.raises(CaseError, match=r"'Crispus' has an on-return effect .* could change card 'haman'"):
        make_case(crispus.replace("OTHER", "haman:\n    type: Evil_Character\n    owner: bob"))


def test_an_on_return_clause_that_discards_its_own_enhancement_changes_nothing(
        make_case: Callable[..., Scenario]) -> None:
    # Passover (a Good Enhancement): "Discard Passover when Hero(s) returns to play"; the rules have discarded it
    assert make_case(_on_return_case(card="Passover")).attempts[0].id == "play_provisions"


def test_an_effect_not_carried_out_refuses_an_evil_card_placed_on_the_target(
        make_case: Callable[..., Scenario]) -> None:
    # Purifying the Unclean: "Heal a Hero ... Discard all evil cards placed on that Hero."
    text = """\
players: [alice, bob]
cards:
  aaron:
    type: Hero
    poisoned: true
  venom:
    type: EE
    owner: bob
    abilities:
      - kind: afflict
        inflicts: [poisoned]
  purifying:
    card: Purifying the Unclean
timeline:
  - id: poison_aaron
    turn: 1
    phase: Preparation
    player: bob
    play: venom
    on: aaron
    targets: [aaron]
  - id: heal_aaron
    turn: 1
    phase: Preparation
    play: purifying
    on: aaron
    targets: [aaron]
questions:
  legal: legal(heal_aaron)
"""
    with pytest.raises(CaseError, match=r"'Purifying the Unclean' also says 'discard all evil cards placed on that "
                                        r"hero', which regcheck does not carry out, and it could change card 'venom', "
                                        r"which could be placed on a card it targets"):
        make_case(text)
    # a Good Enhancement played on the Hero is no evil card
    assert make_case(text.replace("type: EE", "type: GE")).attempts[-1].id == "heal_aaron"


def _paralyze_negated(cards: str, by: str, entry: str = "") -> str:
    """A case: alice's O.T. Hero david rescues, bob's goliath blocks and paralyzes him ("Paralyze a Hero.", written
    by hand), and the card `by` negates the paralyze; `cards` are the case's other cards (lines under `cards:`),
    `entry` more lines of the negate entry."""
    return f"""\
players: [alice, bob]
turns: 1
cards:
  david:
    type: Hero
    brigade: Green
    traits: [O.T.]
  goliath:
    type: Evil_Character
    brigade: Crimson
    owner: bob
    abilities:
      - kind: afflict
        inflicts: paralyzed
        target_type: Hero
        target_count: 1
        text: "Paralyze a Hero."
{cards}timeline:
  - turn: 1
    phase: Battle
    enter_battle: [david]
  - turn: 1
    phase: Battle
    player: bob
    enter_battle: [goliath]
  - id: paralyze
    turn: 1
    phase: Battle
    player: bob
    activate: goliath
    targets: [david]
  - id: negate_it
    turn: 1
    phase: Battle
    negate: paralyze
    by: {by}
{entry}questions:
  paralyzed: paralyzed(david, step_of(negate_it))
"""


CYMBALS = _paralyze_negated("  cymbals:\n    card: Cymbals of the Levites (Roots)\nEXTRA\n", "cymbals")


def test_a_second_effect_moving_cards_refuses_a_case_holding_a_card_it_could_reach(
        make_case: Callable[..., Scenario]) -> None:
    # Cymbals of the Levites (Roots): "Negate an evil card. Discard an evil Enhancement. ...": the discard is not
    # carried out; a case with no card it could discard is answered
    assert make_case(CYMBALS.replace("EXTRA\n", "")).attempts[-1].id == "negate_it"
    with pytest.raises(CaseError, match=r"'Cymbals of the Levites \(Roots\)' also says 'Discard an evil Enhancement\.', "
                                        r"which regcheck does not carry out, and it could change card 'venom', which "
                                        r"it could reach"):
        make_case(CYMBALS.replace("EXTRA", "  venom:\n    type: EE\n    owner: bob"))
    # a Good Enhancement is no card it could discard
    assert make_case(CYMBALS.replace("EXTRA", "  song:\n    type: GE")).attempts[-1].id == "negate_it"


LOYALTY = _paralyze_negated("""\
  jonathan:
    type: Hero
    brigade: Green
    traits: [O.T.]
    zone: hand
    abilities:
      - kind: other
  loyalty:
    card: Loyalty to David (1st Print - K)
    adds: [jonathan]
""", "loyalty", "    ability: 1\n")


def test_a_band_written_beside_another_effect_is_used_only_as_the_card_carries_it_out(
        make_case: Callable[..., Scenario]) -> None:
    # Loyalty to David (1st Print - K): "Negate an evil card. Hero may band to an O.T. Hero." (AAO-4-R1)
    with pytest.raises(CaseError, match=r"'loyalty' bands jonathan with ability 2, written beside the negate in one "
                                        r"block: a negate entry carries out the negate alone"):
        make_case(LOYALTY)
    assert make_case(LOYALTY.replace("    adds: [jonathan]\n", "")).attempts[-1].id == "negate_it"
    played = LOYALTY.replace("    negate: paralyze\n    by: loyalty\n    ability: 1\n",
                             "    play: loyalty\n    on: david\n    ability: ABILITY\n")
    with pytest.raises(CaseError, match=r"ability 2 of 'loyalty' is a band written beside ability 1 in one block: a "
                                        r"play carries out both, so the entry uses ability 1"):
        make_case(played.replace("ABILITY", "2"))


WARDEN = """\
players: [alice, bob]
cards:
  david:
    type: Hero
    brigade: Green
    traits: [human]
  warden:
    card: Egyptian Warden
    owner: bob
EXTRA
timeline:
  - turn: 1
    phase: Battle
    enter_battle: [david]
  - turn: 1
    phase: Battle
    player: bob
    enter_battle: [warden]
  - id: capture_david
    turn: 1
    phase: Battle
    player: bob
    activate: warden
    targets: [david]
questions:
  where: zone(david, step_of(capture_david))
"""


def test_a_price_taken_from_a_hand_refuses_a_case_with_a_card_it_could_take_in_a_hand(
        make_case: Callable[..., Scenario]) -> None:
    # Egyptian Warden: "You may discard an evil gold Enhancement from hand to capture a human Hero in battle." (CORE-19)
    assert make_case(WARDEN.replace("EXTRA\n", "")).attempts[-1].id == "capture_david"
    # an evil Enhancement in a discard pile is none it could take from a hand
    assert make_case(WARDEN.replace("EXTRA", "  chains:\n    type: EE\n    owner: bob\n    zone: discard_pile")
                     ).attempts[-1].id == "capture_david"
    with pytest.raises(CaseError, match=r"'Egyptian Warden' also says 'Discard an evil gold Enhancement from hand', "
                                        r"which regcheck does not carry out, and it could change card 'chains'"):
        make_case(WARDEN.replace("EXTRA", "  chains:\n    type: EE\n    owner: bob\n    zone: hand"))


def test_an_override_reads_a_card_naming_itself_and_the_effect_it_offers_instead(
        make_case: Callable[..., Scenario]) -> None:
    # Luke: "Luke may heal one Hero or prevent one Hero, not himself, from being discarded." (reviewed override)
    luke = """\
players: [alice, bob]
cards:
  peter:
    type: Hero
    poisoned: true
  luke:
    card: Luke
timeline:
  - turn: 1
    phase: Preparation
    activate: luke
    targets: [peter]
EFFECT
questions:
  where: zone(peter, 0)
"""
    assert make_case(luke.replace("EFFECT", "    effect: heal")).abilities[0].kind == "heal_effect"
    with pytest.raises(CaseError, match=r"'Luke' lets its player pick an effect \(heal, or 'prevent one Hero, not "
                                        r"himself, from being discarded'\): say which this entry uses"):
        make_case(luke.replace("EFFECT\n", ""))


def test_an_override_that_needs_a_kind_of_card_absent_refuses_a_case_holding_one(
        make_case: Callable[..., Scenario]) -> None:
    # Torment: "Heal any Evil Character that is being discarded, except by a dominant."
    torment = TORMENT.replace("card: Torment (Roots)", "card: Torment").replace("EFFECT\n", "")
    assert make_case(torment).abilities[0].heals_only == ("discarded_condition",)
    with pytest.raises(CaseError, match=r"the reviewed reading of 'Torment' leaves out what it says about a Dominant, "
                                        r"and this case holds one \('son_of_god'\)"):
        make_case(torment.replace("timeline:", "  son_of_god:\n    type: Dominant\ntimeline:"))


WORK = """\
players: [alice, bob]
cards:
  timothy:
    type: Hero
    brigade: Clay
    traits: [Thessalonian]
  work:
    card: Work with Your Hands
timeline:
  - id: play_work
    turn: TURN
    phase: PHASE
    play: work
    on: timothy
    targets: [timothy]
questions:
  where: zone(timothy, 0)
"""


def test_a_use_at_a_time_the_text_does_not_allow_is_refused(make_case: Callable[..., Scenario]) -> None:
    # Work with Your Hands: "If played during your Preparation or Battle phase, set aside ..."
    assert make_case(WORK.replace("TURN", "1").replace("PHASE", "Preparation")).attempts[0].id == "play_work"
    with pytest.raises(CaseError, match=r"'Work with Your Hands' does something only when used as its text says, and "
                                        r"attempt 'play_work' \(line 10\) may not be: it is used in the Discard Phase"):
        make_case(WORK.replace("TURN", "1").replace("PHASE", "Discard"))
    with pytest.raises(CaseError, match=r"it is used in bob's turn, not its player's"):
        make_case(WORK.replace("TURN", "2").replace("PHASE", "Preparation"))


def test_a_use_by_a_user_not_known_to_be_the_one_named_is_refused(make_case: Callable[..., Scenario]) -> None:
    # Jesus Appears (GoC), GE: "If used by a N.T. Hero, set aside all Evil Characters for X turns. Each player
    # may draw X."
    text = """\
players: [alice, bob]
cards:
  peter:
    type: Hero
    traits: [N.T., human]
  sisera:
    type: Evil_Character
    owner: bob
  appears:
    card: Jesus Appears (GoC)
    x: 1
timeline:
  - id: play_it
    turn: 1
    phase: Preparation
    play: appears
    ability: GE
    on: peter
    targets: [sisera]
questions:
  where: zone(sisera, 0)
"""
    assert make_case(text).attempts[0].id == "play_it"
    with pytest.raises(CaseError, match=r"its user \('peter', Hero with traits human\) is not known to be a N.T. Hero"):
        make_case(text.replace("[N.T., human]", "[human]"))
    with pytest.raises(CaseError, match=r"also says 'Each player may draw X.', which regcheck does not carry out, and "
                                        r"it could change card 'jonah' \(in a draw pile\)"):
        make_case(text.replace("  appears:", "  jonah:\n    type: Hero\n    zone: draw pile\n  appears:"))


@pytest.mark.parametrize(("zone", "words"), [("draw pile", "in a draw pile"), ("reserve", "in a Reserve")])
def test_a_take_from_a_pile_refuses_a_case_holding_a_card_in_it(make_case: Callable[..., Scenario], zone: str,
                                                               words: str) -> None:
    # Wheel Within a Wheel (Roots), GE: "Negate an evil card. You may take up to 2 O.T. angels from deck or
    # Reserve. Cannot be interrupted."
    text = """\
players: [alice, bob]
cards:
  michael:
    type: Hero
    brigade: Silver
  goliath:
    type: Evil_Character
    owner: bob
    abilities:
      - {kind: afflict, inflicts: paralyzed, target_type: Hero, target_count: 1, text: "Paralyze a Hero."}
  wheel:
    card: Wheel Within a Wheel (Roots)
timeline:
  - {turn: 1, phase: Battle, enter_battle: [michael]}
  - {turn: 1, phase: Battle, player: bob, enter_battle: [goliath]}
  - {id: paralyze, turn: 1, phase: Battle, player: bob, activate: goliath, targets: [michael]}
  - {id: negate_it, turn: 1, phase: Battle, negate: paralyze, by: wheel}
questions:
  negated: negated(paralyze)
"""
    assert make_case(text).attempts[-1].id == "negate_it"
    held = text.replace("  wheel:", f"  gabriel:\n    type: Hero\n    zone: {zone}\n  wheel:")
    with pytest.raises(CaseError, match=rf"also says 'You may take up to 2 OT angels from deck or Reserve.', which "
                                        rf"regcheck does not carry out, and it could change card 'gabriel' \({words}\)"):
        make_case(held)
    # unused, the take changes nothing
    assert make_case(held.replace("  - {id: negate_it, turn: 1, phase: Battle, negate: paralyze, by: wheel}\n", ""))


def test_a_search_of_a_discard_pile_refuses_a_case_with_a_card_that_could_be_there(
        make_case: Callable[..., Scenario]) -> None:
    # Lost Coin Found: "Holder may search discard pile for any good enhancement worth 3/3 or less."
    text = """\
players: [alice, bob]
turns: 2
cards:
  ruth:
    type: Hero
    brigade: White
  sisera:
    type: Evil_Character
    owner: bob
  coin:
    card: Lost Coin Found
timeline:
  - {turn: 2, phase: Battle, enter_battle: [ruth]}
  - {turn: 2, phase: Battle, player: bob, enter_battle: [sisera]}
  - {id: play_it, turn: 2, phase: Battle, play: coin, on: ruth}
questions:
  legal: legal(play_it)
"""
    # the characters of the battle it is played in are discarded, if at all, after it (GLOSS-3)
    assert make_case(text).attempts[-1].id == "play_it"
    refused = r"also says 'Holder may search discard pile for any good enhancement worth 3/3 or less.', which " \
              r"regcheck does not carry out, and it could change card '{}' \(that may be in a discard pile\)"
    with pytest.raises(CaseError, match=refused.format("boaz")):
        make_case(text.replace("  coin:", "  boaz:\n    type: Hero\n    zone: discard pile\n  coin:"))
    # a battle of an earlier turn may have discarded any card of the case
    with pytest.raises(CaseError, match=refused.format("ruth")):
        make_case(text.replace("timeline:\n", "timeline:\n  - {turn: 1, phase: Battle, player: bob, "
                                               "enter_battle: [sisera]}\n"))
    # a character the case starts in the field of battle is discarded, if at all, once the battle of turn 1 is over
    with pytest.raises(CaseError, match=refused.format("gideon")):
        make_case(text.replace("  coin:", "  gideon:\n    type: Hero\n    zone: field of battle\n  coin:"))
    # an enhancement played before it may have been discarded after use
    with pytest.raises(CaseError, match=refused.format("lamp")):
        make_case(text.replace("  coin:", "  lamp:\n    type: GE\n    brigade: White\n"
                                          "    abilities: [{kind: other, text: Draw 1.}]\n  coin:")
                  .replace("  - {id: play_it", "  - {turn: 2, phase: Battle, play: lamp, on: ruth}\n  - {id: play_it"))
    # unused, the search changes nothing
    assert make_case(text.replace("  - {id: play_it, turn: 2, phase: Battle, play: coin, on: ruth}\n", "")
                     .replace("legal(play_it)", "zone(ruth, 0)").replace("  coin:", "  boaz:\n    type: Hero\n"
                                                                          "    zone: discard pile\n  coin:"))


def test_a_negate_entry_of_an_enhancement_that_needs_a_user_is_refused(make_case: Callable[..., Scenario]) -> None:
    # My Lord and My God (GoC), GE: "If used by a disciple, negate and discard an evil card in play or a set-aside
    # area."; a negate entry names no character using the enhancement
    text = """\
players: [alice, bob]
cards:
  thomas:
    type: Hero
    traits: [Disciple]
  goliath:
    type: Evil_Character
    owner: bob
    abilities:
      - {kind: afflict, inflicts: paralyzed, target_type: Hero, target_count: 1, text: "Paralyze a Hero."}
  faith:
    card: My Lord and My God (GoC)
timeline:
  - {turn: 1, phase: Battle, enter_battle: [thomas]}
  - {turn: 1, phase: Battle, player: bob, enter_battle: [goliath]}
  - {id: paralyze, turn: 1, phase: Battle, player: bob, activate: goliath, targets: [thomas]}
  - {id: negate_it, turn: 1, phase: Battle, negate: paralyze, by: faith}
questions:
  negated: negated(paralyze)
"""
    with pytest.raises(CaseError, match=r"attempt 'negate_it' \(line 17\) may not be: a negate entry does not say "
                                        r"which character uses the enhancement, and it must be a Disciple"):
        make_case(text)


def test_a_card_that_gains_an_ability_refuses_an_early_return(make_case: Callable[..., Scenario]) -> None:
    # Gathering of Demons: "Set a demon aside for 3 turns. Demon gains the ability 'May band with a demon from
    # another brigade.'"; whether a demon returned early gains it is not read
    text = """\
players: [alice, bob]
cards:
  legion:
    type: Evil_Character
    owner: bob
    traits: [demon]
  gathering:
    card: Gathering of Demons
    owner: bob
  angel:
    type: GE
    abilities:
      - kind: negate
timeline:
  - id: gather
    turn: 2
    phase: Preparation
    play: gathering
    on: legion
    targets: [legion]
NEGATE
questions:
  gains: has_gained_ability(legion, at(5, Battle))
"""
    sc = make_case(text.replace("NEGATE\n", ""))
    (ability,) = [a for a in sc.abilities if a.card == "gathering"]
    assert (ability.paired, ability.on_return, ability.grants_ability) == (True, True, True)
    negate = "  - turn: 2\n    phase: Preparation\n    negate: gather\n    by: angel\n"
    with pytest.raises(CaseError, match=r"'Gathering of Demons' gives the cards it sets aside an ability, and attempt "
                                        r"'negate_2' \(line 21\) could return them early from the use 'gather' "
                                        r"\(line 15\): whether a card returned early gains the ability is not read"):
        make_case(text.replace("NEGATE\n", negate))


DUAL = """\
players: [alice, bob]
cards:
  haman:
    type: Evil_Character
    brigade: Brown
    zone: field_of_battle
  honor:
    card: Honor Thy Enemy
    type: EE
timeline:
  - turn: 1
    phase: Battle
    play: honor
    ability: GE
    on: haman
    targets: [haman]
questions:
  where: zone(haman, 0)
"""


def test_a_dual_cards_block_is_used_only_as_the_enhancement_its_label_names(make_case: Callable[..., Scenario]) -> None:
    assert error(make_case, DUAL) == (
        "ability 1 (GE) of 'honor' is used only when the card is played as a Good Enhancement, by a Hero (CORE-18), "
        "and this case states 'honor' as an Evil Enhancement: state its type GE to use this block", 14, 14)
    # stated as a Good Enhancement, the block is its ability (and CORE-18 decides who may use it)
    sc = make_case(DUAL.replace("    type: EE\n", "    type: GE\n"))
    assert [a.kind for a in sc.abilities] == ["set_aside_effect"]
    # its EE block, read as nothing the model uses, is no ability of the case either way
    assert "has no ability 'EE'" in error(make_case, DUAL.replace("ability: GE", "ability: EE"))[0]


UNTIL_PLAYED = """\
players: [alice, bob]
turns: 2
cards:
  peter:
    type: Hero
    traits: [human]
  andrew:
    type: Hero
    traits: [human]
  legion:
    type: Evil_Character
    brigade: Orange
    owner: bob
  possessed:
    card: Two Possessed by Demons
    owner: bob
  sog:
    card: Son of God (A)
    zone: hand
    abilities:
      - kind: other
  other:
    type: Hero
    zone: hand
    abilities:
      - kind: other
timeline:
  - id: aside
    turn: 1
    phase: Preparation
    player: bob
    play: possessed
    on: legion
    targets: [peter, andrew]
  - id: plays_other
    turn: 2
    phase: Preparation
    play: other
  - id: plays_sog
    turn: 2
    phase: Preparation
    play: sog
questions:
  where: zone(peter, 0)
"""


def test_a_duration_until_a_card_is_played_ends_at_a_play_of_a_card_of_that_name(make_case: Callable[..., Scenario]) -> None:
    sc = make_case(UNTIL_PLAYED)
    ends = {f.args: f.value for f in sc.facts if f.symbol == "ends_duration" and f.args[0] == "aside"}
    assert ends[("aside", "plays_sog")] is True and ends[("aside", "plays_other")] is False
    # naming another attempt as the event is bad input
    named = UNTIL_PLAYED.replace("    targets: [peter, andrew]\n", "    targets: [peter, andrew]\n    until: plays_other\n")
    assert error(make_case, named)[0] == (
        "the duration of possessed_a1 ends when a card named 'Son of God' is played (any printing of the card list); "
        "'plays_other' is no later play of such a card: leave 'until' out")
    # a card without the card list's name is not the event, whatever the case calls it
    unnamed = UNTIL_PLAYED.replace("    card: Son of God (A)\n", "    type: Dominant\n")
    assert not any(f.value for f in make_case(unnamed).facts if f.symbol == "ends_duration")


def test_a_card_played_after_a_negate_of_all_that_fits_it_is_answered(make_case: Callable[..., Scenario]) -> None:
    # its ability is prevented as it is played (prevented_by_a_negate_of_all), the card still played (PREV-2-R1): see
    # cases/negate/selfish-kinsman-keeps-an-enhancement-played-after-it-from-activating-and-the-card-is-still-played.yaml
    text = (Path(__file__).resolve().parents[2] / "cases" / "negate"
            / "selfish-kinsman-negates-enhancements-played-before-it.yaml").read_text("utf-8")
    later = text.replace(
        "  - {id: second_play, turn: 1, phase: Battle, play: second_stone, on: caleb, targets: [ishbi]}\n"
        "  - {id: kinsman_negates, turn: 1, phase: Battle, player: bob, negate: first_play, by: kinsman}\n",
        "  - {id: kinsman_negates, turn: 1, phase: Battle, player: bob, negate: first_play, by: kinsman}\n"
        "  - {id: second_play, turn: 1, phase: Battle, play: second_stone, on: caleb, targets: [ishbi]}\n")
    assert later != text
    assert [x.id for x in make_case(later).attempts][-2:] == ["kinsman_negates", "second_play"]
    assert make_case(text).attempts[-1].id == "kinsman_negates"


@pytest.mark.parametrize(("card", "said"), [("{type: Evil_Character, brigade: Gray, alignment: good}",
                                             "an Evil Character is evil; 'alignment: good' contradicts its type"),
                                            ("{type: Hero, brigade: Blue, alignment: evil}",
                                             "a Hero is good; 'alignment: evil' contradicts its type")])
def test_an_alignment_against_the_cards_type_is_refused(card: str, said: str,
                                                        make_case: Callable[..., Scenario]) -> None:
    with pytest.raises(CaseError, match=said):
        make_case(f"title: t\nplayers: [alice, bob]\nturns: 1\ncards:\n  c: {card}\nquestions:\n  q: zone(c, 0)\n")


MICHAEL = """\
title: Michael's grant
players: [alice, bob]
turns: 1
cards:
  michael:
    card: Michael, Dragon Slayer (Roots)
  caleb:
    type: Hero
    brigade: Silver
  sling:
    type: GE
    brigade: Silver
    abilities:
      - kind: other
timeline:
  - turn: 1
    phase: Battle
    enter_battle: [michael, caleb]
  - id: first
    turn: 1
    phase: Battle
    play: sling
    on: michael
questions:
  granted: granted_to(michael_a1_m1, sling_a1)
"""


def test_a_cannot_be_negated_given_to_enhancements_a_character_uses_is_a_modifier(
        make_case: Callable[..., Scenario]) -> None:
    """"Enhancements used by this card cannot be negated." is a modifier of Michael's ability making the whole of
    each ability on an Enhancement played on him unnegatable (CBN-3, CBN-4, CORE-18), not his own ability, which
    cannot be negated itself (CBN-2)."""
    case = make_case(MICHAEL)
    (m,) = case.modifiers
    assert (m.id, m.ability, m.scope, m.effect, m.granted_to) == (
        "michael_a1_m1", "michael_a1", "whole_ability", "unnegatable", ("sling_a1",))
    assert next(a for a in case.abilities if a.id == "michael_a1").cannot_be_negated
    on_caleb = make_case(MICHAEL.replace("on: michael", "on: caleb"))
    assert on_caleb.modifiers[0].granted_to == ()


def test_an_enhancement_played_both_inside_and_outside_a_grant_is_refused(make_case: Callable[..., Scenario]) -> None:
    twice = MICHAEL.replace("questions:", """\
  - id: second
    turn: 1
    phase: Battle
    play: sling
    on: caleb
questions:""")
    with pytest.raises(CaseRefused, match=r"'sling' is played on characters both inside and outside what michael_a1 "
                                          r"covers"):
        make_case(twice)


def test_a_grant_to_cards_of_unstated_traits_is_refused(make_case: Callable[..., Scenario]) -> None:
    """Faith in Our High Priest covers Enhancements used by N.T. human Heroes: a Hero it could cover whose traits
    the case does not list is refused; with its traits listed, the grant is settled."""
    faith = MICHAEL.replace("card: Michael, Dragon Slayer (Roots)", "type: Hero\n    brigade: Silver").replace(
        "  sling:", "  faith:\n    card: Faith in Our High Priest\n    brigade: Silver\n  sling:").replace(
        "  - id: first", "  - id: faith_played\n    turn: 1\n    phase: Battle\n    play: faith\n    on: michael\n"
                         "  - id: first").replace("michael_a1_m1", "faith_a1_m1")
    with pytest.raises(CaseRefused, match=r"faith_a1 covers cards that are N\.T\. and human .* whether 'michael' is "
                                          r"N\.T\. and human"):
        make_case(faith)
    settled = make_case(faith.replace("    type: Hero\n    brigade: Silver\n  caleb",
                                      "    type: Hero\n    brigade: Silver\n    traits: [N.T., human]\n  caleb"))
    assert settled.modifiers[0].granted_to == ("sling_a1",)


WITHDRAW = """\
players: [alice, bob]
cards:
  caleb:
    type: Hero
    brigade: Red
  doeg:
    type: Evil_Character
    brigade: Gray
    owner: bob
  flight:
    type: GE
    brigade: Red
    abilities:
      - kind: withdraw
        target_type: Evil_Character
  undo:
    type: EE
    brigade: Gray
    owner: bob
    abilities:
      - kind: negate
timeline:
  - turn: 1
    phase: Battle
    enter_battle: [caleb]
  - turn: 1
    phase: Battle
    player: bob
    enter_battle: [doeg]
  - id: withdraw_doeg
    turn: 1
    phase: Battle
    play: flight
    on: caleb
    targets: [doeg]
questions:
  where: zone(doeg, step_of(withdraw_doeg))
"""


def test_a_negate_of_a_withdraw_carried_out_is_refused(make_case: Callable[..., Scenario]) -> None:
    # WDR-2: a withdraw is instantaneous; what undoing it would do to the card it withdrew is not in the rules text
    assert make_case(WITHDRAW).abilities[0].kind == "withdraw_effect"
    negated = WITHDRAW.replace("questions:\n", "  - id: negate_it\n    turn: 1\n    phase: Battle\n    player: bob\n"
                                               "    negate: withdraw_doeg\n    by: undo\nquestions:\n")
    with pytest.raises(CaseRefused, match=r"negate_it may negate withdraw_doeg, a withdraw already carried out "
                                          r"\(instantaneous, WDR-2, RET-1, SHUF-1, CAPT-2, PLACE-1, BAN-1-R1, "
                                          r"RSV-3-R2\)"):
        make_case(negated)
    # SHUF-1: a shuffle is instantaneous too
    shuffled = negated.replace("      - kind: withdraw\n", "      - kind: shuffle\n")
    with pytest.raises(CaseRefused, match=r"negate_it may negate withdraw_doeg, a shuffle already carried out"):
        make_case(shuffled)
    # RSV-3-R2: and so is a reserve
    reserved = negated.replace("      - kind: withdraw\n", "      - kind: reserve\n")
    with pytest.raises(CaseRefused, match=r"negate_it may negate withdraw_doeg, a reserve already carried out"):
        make_case(reserved)


def test_a_shuffle_written_by_hand_of_cards_in_a_draw_pile_is_an_error(make_case: Callable[..., Scenario]) -> None:
    # SHUF-4: a card whose place the shuffle would not change is no target; regcheck does not model such a shuffle
    in_pile = WITHDRAW.replace("      - kind: withdraw\n", "      - kind: shuffle\n        target_zone: draw pile\n")
    with pytest.raises(CaseError, match=r"a shuffle of cards already in a draw pile would not change their place "
                                        r"\(SHUF-4\)"):
        make_case(in_pile)


def test_a_withdraw_of_a_card_being_discarded_is_refused(make_case: Callable[..., Scenario]) -> None:
    discarded = WITHDRAW.replace("  - id: withdraw_doeg\n", "  - id: doeg_discarded\n    turn: 1\n    phase: Battle\n"
                                 "    discard: [doeg]\n    cause: by triggered rule\n  - id: withdraw_doeg\n")
    with pytest.raises(CaseRefused, match=r"withdraw_doeg is a withdraw of 'doeg', whose discard by doeg_discarded "
                                          r"\(line 30\) may still be in progress \(CORE-13\)"):
        make_case(discarded)
    # a discard of another card leaves the withdraw alone
    sc = make_case(discarded.replace("    discard: [doeg]", "    discard: [caleb]"))
    assert [x.id for x in sc.attempts if x.kind == "play_card"] == ["withdraw_doeg"]


UNDERDECK = _paralyze_negated("""\
  scroll:
    type: GE
    brigade: Green
    abilities:
      - kind: negate
        target_alignment: evil
        and_place: true
        text: "Negate and underdeck an evil card."
""", "scroll")


@pytest.mark.parametrize(("key", "verb", "move"), [("and_place", "underdeck", "a place in a deck"),
                                                    ("and_banish", "banish", "a banish"),
                                                    ("and_reserve", "reserve", "a reserve")])
def test_a_negate_that_moves_a_card_being_discarded_is_refused(make_case: Callable[..., Scenario], key: str, verb: str,
                                                               move: str) -> None:
    # PLACE-1-R2, BAN-1-R2, RSV-3-R3: the negate moves the card whose ability it negates; whether a discard in progress of that
    # card still completes once it has been moved is not in the rules text (CORE-13)
    text = UNDERDECK.replace("and_place: true", f"{key}: true").replace("Negate and underdeck", f"Negate and {verb}")
    assert make_case(text).attempts[-1].id == "negate_it"
    discarded = text.replace("  - id: negate_it\n", "  - id: goliath_discarded\n    turn: 1\n    phase: Battle\n"
                             "    discard: [goliath]\n    cause: by triggered rule\n  - id: negate_it\n")
    with pytest.raises(CaseRefused, match=rf"negate_it is {move} of 'goliath', whose discard by "
                                          r"goliath_discarded \(line \d+\) may still be in progress \(CORE-13\)"):
        make_case(discarded)
    # a negate does not both discard and move what it negates
    with pytest.raises(CaseError, match=key):
        make_case(text.replace(f"{key}: true", f"{key}: true\n        and_discard: true"))


CAGE = """\
players: [alice, bob]
cards:
  daniel:
    type: Hero
    brigade: Purple
  arioch:
    type: Evil_Character
    brigade: Brown
    owner: bob
  cage:
    card: Cage (L)
    owner: bob
timeline:
  - turn: 1
    phase: Battle
    enter_battle: [daniel]
  - turn: 1
    phase: Battle
    player: bob
    enter_battle: [arioch]
  - id: return_daniel
    turn: 1
    phase: Battle
    player: bob
    play: cage
    on: arioch
    targets: [daniel]
questions:
  where: zone(daniel, step_of(return_daniel))
"""


def test_a_return_to_hand_of_a_card_that_could_have_a_condition_is_refused(make_case: Callable[..., Scenario]) -> None:
    # RET-2: a card returned to hand goes back to face value, which the conditions' rule (CORE-12) does not follow
    assert make_case(CAGE).abilities[0].kind == "return_to_hand_effect"
    poisoned = CAGE.replace("    brigade: Purple\n", "    brigade: Purple\n    poisoned: true\n")
    with pytest.raises(CaseRefused, match=r"return_daniel returns 'daniel' to hand, and 'daniel' could have a condition "
                                          r"then: a card returned to hand goes back to face value \(RET-2\)"):
        make_case(poisoned)
    afflicted = CAGE.replace("  - id: return_daniel\n", """\
  - id: paralyze_daniel
    turn: 1
    phase: Battle
    player: bob
    play: chains
    on: arioch
    targets: [daniel]
  - id: return_daniel
""").replace("timeline:\n", """\
  chains:
    type: EE
    brigade: Brown
    owner: bob
    abilities:
      - kind: afflict
        inflicts: paralyzed
timeline:
""")
    with pytest.raises(CaseRefused, match=r"return_daniel returns 'daniel' to hand, and 'daniel' could have a condition"):
        make_case(afflicted)


PRIESTHOOD = """\
players: [alice, bob]
cards:
  stephen:
    type: Hero
    brigade: White
  demetrius:
    type: Evil_Character
    brigade: Gray
    owner: bob
  venom:
    type: EE
    brigade: Gray
    owner: bob
    zone: territory
  priesthood:
    card: Holy Priesthood
  rage:
    type: EE
    brigade: Gray
    owner: bob
    abilities:
      - kind: negate
timeline:
  - turn: 1
    phase: Battle
    enter_battle: [stephen]
  - turn: 1
    phase: Battle
    player: bob
    enter_battle: [demetrius]
  - id: by_stephen
    turn: 1
    phase: Battle
    play: priesthood
    on: stephen
    targets: [venom]
  - id: negate_it
    turn: 1
    phase: Battle
    player: bob
    negate: by_stephen
    by: rage
questions:
  legal: legal(negate_it)
"""


def test_a_guard_for_some_users_is_settled_by_the_cases_uses(make_case: Callable[..., Scenario]) -> None:
    # "Cannot be negated if used by a N.T. Hero" (CBN-6-R2): whether stephen is N.T. decides, and nothing is assumed
    with pytest.raises(CaseRefused, match=r"negate_it may negate by_stephen, whose ability says 'cannot be negated if "
                                          r"used by nt hero' \(CBN-6-R2\), and the case's uses of it are neither all "
                                          r"known to be nor all known not to be by such a user"):
        make_case(PRIESTHOOD)
    nt = make_case(PRIESTHOOD.replace("    brigade: White\n", "    brigade: White\n    traits: [N.T.]\n"))
    ot = make_case(PRIESTHOOD.replace("    brigade: White\n", "    brigade: White\n    traits: [O.T.]\n"))
    assert [a.cannot_be_negated for a in nt.abilities if a.card == "priesthood"] == [True]
    assert [a.cannot_be_negated for a in ot.abilities if a.card == "priesthood"] == [False]
    assert {f.value for f in ot.facts if f.symbol == "cannot_be_negated" and f.args == ("priesthood_a1",)} == {False}
    # with no negate reaching it, an unsettled guard matters nowhere and the case is answered
    unreached = make_case(PRIESTHOOD.split("  - id: negate_it")[0] + "questions:\n  legal: legal(by_stephen)\n")
    assert [a.guard_condition for a in unreached.abilities if a.card == "priesthood"] == [
        "cannot be negated if used by nt hero"]


# PRIESTHOOD's battle, with Appointing Judges (LoC) played by a Gold Hero and no negate yet
JUDGES = (PRIESTHOOD.split("  - id: negate_it")[0].replace("brigade: White", "brigade: Gold")
          .replace("card: Holy Priesthood", "card: Appointing Judges (LoC)").replace("priesthood", "judges")
          .replace("by_stephen", "judged"))


def test_a_negate_reaching_a_guard_with_an_unread_condition_is_refused(make_case: Callable[..., Scenario]) -> None:
    # "Cannot be negated if you control a meek Hero": whether stephen's player controls one is not read
    text = JUDGES + "  - id: negate_it\n    turn: 1\n    phase: Battle\n    player: bob\n    negate: judged\n    by: rage\n"
    with pytest.raises(CaseRefused, match=r"negate_it may negate judged, whose ability says 'cannot be negated if you "
                                          r"control a meek hero', a guard regcheck does not read whole"):
        make_case(text + "questions:\n  legal: legal(negate_it)\n")
    # with no negate, the guard matters nowhere and the case is answered
    sc = make_case(JUDGES + "questions:\n  legal: legal(judged)\n")
    assert [a.guard_condition for a in sc.abilities if a.card == "judges"] == [
        "cannot be negated if you control a meek hero"]


def test_a_cannot_be_negated_given_to_other_cards_not_read_whole_refuses_a_case_with_a_negate(
        make_case: Callable[..., Scenario]) -> None:
    # Bartimaeus: "Good enhancements with 'Faith' in the title cannot be negated." (which titles: not read)
    text = JUDGES.replace("timeline:\n", "  bartimaeus:\n    card: Bartimaeus\n    zone: territory\ntimeline:\n").replace(
        "    card: Appointing Judges (LoC)\n", "    type: GE\n    brigade: Gold\n    abilities:\n      - kind: discard\n")
    with pytest.raises(CaseRefused, match=r"bartimaeus says 'good enhancements with 'faith' in the title cannot be "
                                          r"negated', a 'cannot be \.\.\.' given to other cards that regcheck does not "
                                          r"read whole, and negate_it negates"):
        make_case(text + "  - id: negate_it\n    turn: 1\n    phase: Battle\n    player: bob\n    negate: judged\n"
                         "    by: rage\nquestions:\n  legal: legal(negate_it)\n")
    assert make_case(text + "questions:\n  legal: legal(judged)\n").cards


LOOKED_AT = """\
players: [alice, bob]
turns: 2
cards:
  mary:
    type: Hero
    brigade: Blue
    zone: {zone}
  herod:
    type: Evil_Character
    brigade: Gray
    owner: bob
  sorrow:
    card: {card}
    owner: bob
    zone: hand
timeline:
  - id: look
    turn: 2
    phase: Preparation
    play: sorrow
    on: herod
questions:
  where: zone(mary, step_of(look))
"""


def test_a_move_after_a_look_or_by_the_opponent_refuses_a_case_holding_a_card_it_could_reach(
        make_case: Callable[..., Scenario]) -> None:
    # Sorrow of Mary [RR2]: "You may reveal an opponent's hand: Underdeck a good card." reaches a hand;
    # Divination (1st Print - K): "You may look at the top 6 cards of deck: Take up to 1 evil card and underdeck
    # the rest." reaches a draw pile
    sorrow, divination = "Sorrow of Mary [RR2]", "Divination (1st Print - K)"
    with pytest.raises(CaseError, match=r"'Sorrow of Mary \[RR2\]' also says 'You may reveal an opponent's hand: "
                                        r"Underdeck a good card\.', .* could change card 'mary', which it could reach"):
        make_case(LOOKED_AT.format(zone="hand", card=sorrow))
    # Roman Whip: "Opponent must underdeck a card from hand."
    with pytest.raises(CaseError, match=r"'Roman Whip' also says 'Opponent must underdeck a card from hand\.', .* "
                                        r"could change card 'mary', which it could reach"):
        make_case(LOOKED_AT.format(zone="hand", card="Roman Whip"))
    with pytest.raises(CaseError, match=r"could change card 'mary' \(in a draw pile\)"):
        make_case(LOOKED_AT.format(zone="draw pile", card=divination))
    assert make_case(LOOKED_AT.format(zone="territory", card=sorrow)).attempts[0].id == "look"
    assert make_case(LOOKED_AT.format(zone="hand", card=divination)).attempts[0].id == "look"


CAPTURED_BY_ASSYRIA = """\
players: [alice, bob]
turns: 1
cards:
  jonah:
    type: Hero
    brigade: Blue
    traits: [human, male]
  hezekiah:
    type: Hero
    brigade: Blue
    traits: [human, male]
  sennacherib:
    type: Evil_Character
    brigade: Pale_Green
    owner: bob
    traits: [Assyrian, human, male]
  captured:
    card: Captured by Assyria
    owner: bob
timeline:
  - turn: 1
    phase: Battle
    enter_battle: [jonah]
  - turn: 1
    phase: Battle
    player: bob
    enter_battle: [sennacherib]
  - id: capture_two
    turn: 1
    phase: Battle
    player: bob
    play: captured
    on: sennacherib
    targets: [jonah, hezekiah]
questions:
  capture_legal: legal(capture_two)
  jonah_zone: zone(jonah, step_of(capture_two))
  hezekiah_zone: zone(hezekiah, step_of(capture_two))
  hezekiah_whose: zone_of(hezekiah, step_of(capture_two))
expect:
  capture_legal: {verdict: determined, value: yes}
  jonah_zone: {verdict: determined, value: land of bondage}
  hezekiah_zone: {verdict: determined, value: land of bondage}
  hezekiah_whose: {verdict: determined, value: bob}
"""


def test_two_targets_for_some_users_are_refused_for_a_user_not_known_to_be_one(
        make_case: Callable[..., Scenario]) -> None:
    # CORE-15-R4: "Capture a human (or two humans if used by an Assyrian)": one target for any user, two only for an
    # Assyrian; the Enhancement's user is the character it is played on
    text = CAPTURED_BY_ASSYRIA
    assert [x.targets for x in make_case(text).attempts if x.id == "capture_two"] == [("jonah", "hezekiah")]
    not_assyrian = text.replace("traits: [Assyrian, human, male]", "traits: [human, male]")
    with pytest.raises(CaseRefused, match=r"'Captured by Assyria' does something only when used as its text says, and "
                                          r"attempt 'capture_two' \(line \d+\) may not be: its user \('sennacherib', "
                                          r"Evil Character with traits human, male\) is not known to be a Assyrian"):
        make_case(not_assyrian)
    one = not_assyrian.replace("targets: [jonah, hezekiah]", "targets: [jonah]")
    assert [x.targets for x in make_case(one).attempts if x.id == "capture_two"] == [("jonah",)]


PREVENT_CASE = (Path(__file__).resolve().parents[2] / "cases" / "negate"
                / "a-negated-prevent-prevents-no-enhancement-played-after-the-negate.yaml")


@pytest.mark.parametrize(("old", "new", "said"), [
    ("{id: bob_prevents, turn: 1, phase: Battle, player: bob, play: hush, on: goliath}",
     "{id: bob_prevents, turn: 1, phase: Battle, player: bob, play: hush, on: goliath, targets: [veil]}",
     r"a prevent names no cards when it is used: it takes as its targets the next cards played that fit it"),
    ("{kind: prevent, target_type: GE, target_count: 1,", "{kind: prevent, target_type: GE, target_count: all,",
     r"a prevent ability \(kind: prevent\) names how many of the next cards played it prevents"),
    ("{kind: negate, target_type: EE, target_count: 1,", "{kind: negate, target_type: EE, target_count: 1, "
                                                          "played_in_battle: true,",
     r"'played_in_battle' describes a prevent of the next cards played: give it 'kind: prevent'"),
])
def test_a_prevent_written_by_hand_is_checked(make_case: Callable[..., Scenario], old: str, new: str, said: str) -> None:
    text = PREVENT_CASE.read_text("utf-8")
    assert text.count(old) == 1
    with pytest.raises(CaseError, match=said):
        make_case(text.replace(old, new))


@pytest.mark.parametrize(("old", "new", "said"), [
    # a negate played from hand is a negate attempt, not a card regcheck plays
    ("  - {id: veil_play, turn: 1, phase: Battle, play: veil, on: caleb, targets: [goliath]}\n",
     "  - {id: veil_play, turn: 1, phase: Battle, play: veil, on: caleb, targets: [goliath]}\n"
     "  - {id: seal_negates, turn: 1, phase: Battle, negate: bob_prevents, by: seal}\n"
     "cards_extra:\n",
     r"seal_negates uses 'seal' after it in its phase: a negate, which regcheck does not model as a card played"),
    # a card whose ability is prevented as it is played outside battle: where it goes is not in the rules text
    ("  - {turn: 1, phase: Battle, enter_battle: [caleb]}\n  - {turn: 1, phase: Battle, player: bob, enter_battle: "
     "[goliath]}\n", "", r"veil_play uses 'veil' after it in its phase: played outside the Battle Phase"),
])
def test_a_prevent_regcheck_cannot_follow_is_refused(make_case: Callable[..., Scenario], old: str, new: str,
                                                     said: str) -> None:
    text = PREVENT_CASE.read_text("utf-8")
    assert text.count(old) == 1
    text = text.replace(old, new)
    if not new:  # a prevent of any next good Enhancement played, and one played in the Preparation Phase
        text = text.replace("phase: Battle", "phase: Preparation").replace(" played_in_battle: true,", "")
    if "cards_extra:\n" in text:
        text = text.replace("cards_extra:\n", "").replace(
            "  veil:\n", "  seal:\n    type: GE\n    brigade: Gold\n    zone: hand\n    abilities:\n"
            "      - {kind: negate, target_type: EE, target_count: 1, text: \"Negate an evil Enhancement.\"}\n  veil:\n")
    with pytest.raises(CaseRefused, match=said):
        make_case(text)


def test_the_brigade_count_of_a_card_is_its_brigades_not_a_stated_trait(make_case: Callable[..., Scenario]) -> None:
    # CORE-15-R5: a card is multi-brigade or single-brigade by the brigades the case gives it, never by a stated trait
    text = (Path(__file__).resolve().parents[2] / "cases" / "targeting"
            / "a-multi-brigade-description-counts-the-brigades-a-case-states.yaml").read_text("utf-8")
    assert [x.id for x in make_case(text).attempts][-1] == "at_wanderer"
    with pytest.raises(CaseError, match=r"unknown trait 'multi-brigade'"):
        make_case(text.replace("caleb: {type: Hero, brigade: Gold}",
                               "caleb: {type: Hero, brigade: Gold, traits: [multi-brigade]}"))


WAITING = MINIMAL.replace("questions:", """\
    traits: []
  gideon:
    type: Hero
    abilities:
      - kind: discard
        target_type: Evil_Character
        if_state: card_in_play
        if_description: a priest
        if_another: true
  eli:
    type: Hero
    traits: [Priest]
  midian:
    type: Evil_Character
    owner: bob
    traits: []
timeline:
  - turn: 1
    phase: Preparation
    activate: gideon
    targets: [midian]
questions:""")


def test_a_state_an_ability_waits_on_is_a_fact_of_every_card(make_case: Callable[..., Scenario]) -> None:
    # TRIG-3-R1: the cards the state names, never the ability's own card for "another"
    sc = make_case(WAITING)
    facts = {(f.symbol, f.args): f.value for f in sc.facts}
    assert facts[("if_state", ("gideon_a1",))] == "card_in_play"
    assert [facts[("if_fits", ("gideon_a1", c))] for c in ("eli", "gideon", "midian", "elijah")] == [
        True, False, False, False]
    with pytest.raises(CaseRefused, match="the effect of gideon_a1 waits on another priest .*'elijah' is Priest"):
        make_case(WAITING.replace("    type: Hero\n    traits: []\n", "    type: Hero\n", 1))
    with pytest.raises(CaseError, match=r"if_description: the word 'meek'"):
        make_case(WAITING.replace("a priest", "a meek Hero"))
    with pytest.raises(CaseError, match="'if_state: card_in_play' names cards: give them as 'if_description'"):
        make_case(WAITING.replace("        if_description: a priest\n", ""))
    with pytest.raises(CaseError, match="'if_another' names the cards of a state"):
        make_case(WAITING.replace("if_state: card_in_play", "if_state: battle_under_way").replace(
            "        if_description: a priest\n", ""))


MANASSEH = """\
title: t
players: [alice, bob]
turns: 1
cards:
  manasseh:
    card: Manasseh, the Calming (Roots)
  goliath:
    type: Evil_Character
    brigade: Gray
    owner: bob
    abilities:
      - {kind: afflict, inflicts: paralyzed, target_type: Hero, target_count: 1, text: "Paralyze a Hero."}
timeline:
  - {turn: 1, phase: Battle, enter_battle: [manasseh]}
  - {turn: 1, phase: Battle, player: bob, enter_battle: [goliath]}
  - {id: goliath_paralyzes, turn: 1, phase: Battle, player: bob, activate: goliath, targets: [manasseh]}
  - {id: manasseh_negates, turn: 1, phase: Battle, negate: goliath_paralyzes, by: manasseh}
questions:
  negated: negated(goliath_paralyzes)"""


def test_a_price_offered_to_the_opponent_refuses_a_case_holding_a_card_that_could_pay_it(
        make_case: Callable[..., Scenario]) -> None:
    """CORE-19-R2: "Opponent may underdeck an evil card from hand. If they do not, negate Evil Characters." The move
    is not carried out: a case where bob holds a card in hand, which the move could take, is refused; 'opponent_pays'
    is for an entry whose ability offers such a move."""
    assert make_case(MANASSEH).cards
    with_a_card = MANASSEH.replace("timeline:", """\
  whip:
    type: EE
    brigade: Gray
    owner: bob
    zone: hand
timeline:""")
    with pytest.raises(CaseRefused, match=r"Manasseh, the Calming \(Roots\).*could change card 'whip'"):
        make_case(with_a_card)
    with pytest.raises(CaseError, match=r"'opponent_pays' says whether the opponent makes the move an ability offers "
                                        r"them .*goliath_a1 offers none"):
        make_case(MANASSEH.replace("targets: [manasseh]}", "targets: [manasseh], opponent_pays: true}"))


STATED_STATE = """\
players: [alice, bob]
cards:
  eli:
    card: Eli, the Judge [RR2]
  hophni:
    type: Evil_Character
    owner: bob
timeline:
  - {turn: 1, phase: Battle, enter_battle: [eli]}
  - {id: judge, turn: 1, phase: Battle, activate: eli, targets: [hophni]STATED}
questions:
  where: zone(hophni, step_of(judge))
"""


def test_a_state_the_case_states_must_be_stated_by_each_entry_using_it(make_case: Callable[..., Scenario]) -> None:
    """'If opponent has evil card advantage, you may discard an evil card.': a state regcheck does not check from the
    cards (TRIG-3-R2), which an entry using the ability states with 'state_holds'; left out, the case is refused
    (not answered) naming the state; on an entry whose ability waits on no such state, 'state_holds' is an error."""
    scenario = make_case(STATED_STATE.replace("STATED", ", state_holds: true"))
    assert [a.if_words for a in scenario.abilities if a.card == "eli"] == ["if opponent has evil card advantage"]
    with pytest.raises(CaseRefused, match=r"judge uses eli_a1, whose effect waits on a state regcheck does not check "
                                        r"from the cards \('if opponent has evil card advantage', TRIG-3-R2\): say "
                                        r"whether it holds .*'state_holds: true' or 'state_holds: false'"):
        make_case(STATED_STATE.replace("STATED", ""))
    unconditional = STATED_STATE.replace("card: Eli, the Judge [RR2]", "type: Hero\n    abilities:\n"
                                         "      - {kind: discard, target_count: 1}")
    assert make_case(unconditional.replace("STATED", "")).attempts
    with pytest.raises(CaseError, match=r"'state_holds' says whether a state .* eli_a1 waits on none"):
        make_case(unconditional.replace("STATED", ", state_holds: false"))
