"""Real cards: the bundled card list, the reading of each card, and the reviewed overrides."""

from __future__ import annotations

from pathlib import Path

import pytest

from verifier.errors import CaseError
from verifier.scenario import cards as cards_module
from verifier.scenario.cardmechanics import NOT_UNDERSTOOD, mechanic_reason
from verifier.scenario.cardreading import BOOK_TRAITS, books_of
from verifier.scenario.cards import (
    ALL_TEXTS,
    BAND_OFF_A_CHARACTER,
    CATEGORIES,
    COVERAGE_LINES,
    DEFINITIONS,
    ITSELF_OFF_A_CHARACTER,
    OFFERED_INSTEAD,
    SHOWN_CARDS,
    STATE_OFF_A_CHARACTER,
    STATUSES,
    CardReading,
    RealCard,
    blocker_reason,
    blockers_of,
    categories_of,
    coverage,
    find_card,
    override_problems,
    printings,
    read_card,
    statuses_of,
    survey,
    text_hash,
    texts_of_card_list,
)
from verifier.scenario.cardtext import normalise, read_text
from verifier.scenario.cardview import coverage_json
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


def test_a_multi_brigade_card_belongs_to_every_brigade_of_its_alignment() -> None:
    assert card("Torment").brigades == tuple(sorted(cards_module.EVIL_BRIGADES))
    assert card("Fountain of Living Water (PoC)").brigades == tuple(sorted(cards_module.GOOD_BRIGADES))
    # a Site has no alignment, and a dual card's "Multi/Brown" is not one box: not read, the case states it
    assert (card("Dragon Raid (Wa)").brigades, card("Dragon Raid (Wa)").brigade_unread) == ((), "Multi")
    assert (card("Coat of Many Colors (FoM)").brigades, card("Coat of Many Colors (FoM)").brigade_unread) == (
        (), "Multi/Brown")
    # Saul/Paul's "Gray/Multi": Saul, as the card enters play, is Gray (Paul's brigade is stated by a case)
    assert (card("Saul/Paul").brigades, card("Saul/Paul").brigade_unread) == (("Gray",), "")
    assert card("Provisions").brigade_unread == "" and len(printings()) > 5600


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


def test_a_card_with_two_identities_is_found_by_either() -> None:
    saul = card("Saul")
    assert (saul.name, saul.identity, saul.later_identity, saul.type) == ("Saul/Paul", "Saul", False, "Evil_Character")
    paul = card("Paul (Saul/Paul)")
    assert (paul.name, paul.identity, paul.later_identity) == ("Saul/Paul", "Paul", True)
    assert card("Saul/Paul").identity is None
    # "Paul" is also the name of another card's printing: both are offered, never one picked
    assert find_card("Paul") == ["Paul (Promo)", "Paul (Saul/Paul)"]
    # an identity followed by its card's set, as printings are named
    assert card("David, Heart After God (LoC)").name == "David, Heart After God / David, the Contrite (LoC)"
    assert find_card("David, Heart After God") == ["David, Heart After God (LoC Plus)", "David, Heart After God (LoC)"]
    # a slash inside the set name is not two identities
    assert cards_module.identities_of("Denarius (I/J+)") == ()
    assert cards_module.identities_of("Adam, the Exile / Adam (Man) (LoC)") == ("Adam, the Exile", "Adam (Man)")


def test_brigades_are_vocabulary_members() -> None:
    for name in ("Provisions", "Passover", "Darkness (FoM)"):
        assert set(card(name).brigades) <= set(VALUE_SETS["brigade"])


# -- reading a card ---------------------------------------------------------------------------------


def test_provisions_is_modelled() -> None:
    r = read_card(card("Provisions"))
    assert r.status == "modelled" and r.unsupported == ()
    (a,) = r.abilities
    assert (a.kind, a.duration_kind, a.duration_turns) == ("set_aside_effect", "for_turns", 2)
    assert a.paired and a.on_return and not a.grants_ability
    assert (a.min_targets, a.max_targets, a.target_types) == (1, 1, ("Hero",))


def test_passover_targets_its_users_heroes() -> None:
    (a,) = read_card(card("Passover")).abilities
    assert a.duration_kind == "no_duration" and a.paired and a.on_return
    assert a.targets_own_cards and (a.min_targets, a.max_targets) == (1, None)


def test_darkness_needs_x() -> None:
    (a,) = read_card(card("Darkness (FoM)")).abilities
    assert a.cannot_be_negated == "x is 4 or greater" and a.target_zone == "field_of_battle"
    assert (a.min_targets, a.max_targets) == (0, "x")


def test_an_unsupported_card_says_what_and_why() -> None:
    r = read_card(card("Training in Righteousness"))
    assert r.status == "unsupported"
    assert any("hero gains two additional brigade colors" in u and "what the card gains on return is not modelled" in u
               for u in r.unsupported)


def test_texts_that_set_nothing_aside_are_not_set_asides() -> None:
    r = read_card(card("Pestilence"))
    assert "set-aside" not in categories_of(r)
    assert all(a.kind != "set_aside_effect" for a in r.abilities)


# -- overrides -------------------------------------------------------------------------------------


def test_the_bundled_overrides_are_current() -> None:
    assert override_problems() == []


def test_an_override_reads_gideons_300() -> None:
    r = read_card(card("Gideon's 300"))
    assert r.status == "override" and r.note and r.unsupported == ()
    (a,) = r.abilities
    assert (a.duration_kind, a.target_zone, a.targets_all_in_location) == ("until_end_of_battle", "territory", True)


def test_an_override_reads_a_misprinted_text() -> None:
    # "Set a hero aside (our of play) for 3 turns. Hero returns with abilities increased 6/6."
    r = read_card(card("Listening to God"))
    assert r.status == "override" and r.unsupported == () and "misprint" in r.note
    (a,) = r.abilities
    assert (a.kind, a.duration_kind, a.duration_turns, a.paired, a.on_return, a.grants_ability) == (
        "set_aside_effect", "for_turns", 3, True, True, False)
    assert (a.min_targets, a.max_targets, a.target_types, a.parts) == (1, 1, ("Hero",), ("set_aside_part",))
    assert categories_of(r)["set-aside"] == "override"


def write_overrides(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "overrides.yaml"
    path.write_text(body, encoding="utf-8")
    return path


def test_an_override_of_a_changed_text_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_overrides(tmp_path, """overrides:
  - card: Provisions
    text_sha256: 0000000000000000
    note: reviewed once
    set: {duration_turns: 3}
""")
    monkeypatch.setattr(cards_module, "overrides", lambda: cards_module._read_overrides(path))
    cards_module.read_card.cache_clear()
    try:
        assert any("changed since its override was reviewed" in p for p in override_problems())
        r = read_card(card("Provisions"))
        assert r.status == "unsupported" and any("no longer matches" in u for u in r.unsupported)
    finally:
        cards_module.read_card.cache_clear()


def test_an_override_sets_fields_and_needs_a_note(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    provisions = card("Provisions")
    path = write_overrides(tmp_path, f"""overrides:
  - card: Provisions
    text_sha256: {text_hash(provisions.text)}
    note: a test of the mechanism
    set: {{duration_turns: 3}}
""")
    monkeypatch.setattr(cards_module, "overrides", lambda: cards_module._read_overrides(path))
    cards_module.read_card.cache_clear()
    try:
        r = read_card(provisions)
        assert r.status == "override" and r.abilities[0].duration_turns == 3
    finally:
        cards_module.read_card.cache_clear()
    bad = write_overrides(tmp_path, "overrides:\n  - card: Provisions\n    text_sha256: 0000000000000000\n    note: ''\n")
    with pytest.raises(CaseError, match="needs a note"):
        cards_module._read_overrides(bad)
    bad = write_overrides(tmp_path, "overrides:\n  - card: Provisions\n    text_sha256: 0000000000000000\n"
                                    "    note: listed fields\n    set: {target_types: [Hero, Angel]}\n")
    with pytest.raises(CaseError, match="'target_types' must be a list of: Hero, Evil_Character"):
        cards_module._read_overrides(bad)


# -- coverage --------------------------------------------------------------------------------------


@pytest.mark.xdist_group("gate")  # counts the card list's coverage, as the gate does
def test_coverage_counts_every_category_and_status() -> None:
    counts = coverage()
    assert set(counts) == set(COVERAGE_LINES) and set(DEFINITIONS) == set(COVERAGE_LINES)
    for by_status in counts.values():
        assert set(by_status) == set(STATUSES)
    assert counts["set-aside"]["override"] >= 1
    assert sum(counts["set-aside"].values()) > 100


@pytest.mark.xdist_group("gate")  # counts the card list's coverage, as the gate does
def test_a_category_holds_every_text_its_words_say_whatever_the_grammar_read() -> None:
    counts = coverage()
    texts = {line.split("\t")[5] for line in cards_module._text().split("\n")[1:]
             if not line.startswith("#") and line.count("\t") == 6 and line.split("\t")[5].strip()}
    assert sum(counts[ALL_TEXTS].values()) == len(texts) == len(texts_of_card_list()) > 4400
    for category in CATEGORIES:
        assert sum(counts[category].values()) == sum(1 for t in texts if cards_module.WORDS[category].search(t)), category
    # a second printing under a name already listed is counted: its text is not the first printing's
    seconds = [c for c in texts_of_card_list() if not isinstance(find_card(c.name), RealCard)
               or find_card(c.name).text != c.text]  # type: ignore[union-attr]
    assert [c.name for c in seconds if c.name == "Glad Tidings"] == ["Glad Tidings"] and len(printings()) > 5600


@pytest.mark.parametrize(("text", "categories"), [
    # the grammar reads no ability here; the words still put the text in its categories
    ("Xyzzy the plugh. Cannot be interrupted, negated, or prevented.",
     {"cannot-be-negated": "unsupported", "cannot-be-interrupted-or-prevented": "unsupported"}),
    ("Discard a Hero. Can [not] be prevented.", {"cannot-be-interrupted-or-prevented": "modelled"}),
    ("Discard a Hero. Xyzzy the plugh. Can [not] be prevented.", {"cannot-be-interrupted-or-prevented": "unsupported"}),
    ("Set aside a Hero for 2 turns.", {"set-aside": "modelled", "duration": "modelled"}),
    ("Set Peter aside until the end of their next turn.", {"set-aside": "unsupported", "duration": "unsupported"}),
    ("Hero may not enter battle until healed. Negate heal and resurrect abilities.", {"negate": "unsupported"}),
    ("Return a Hero from a set-aside area. Discard all set-aside cards on that Hero.", {}),
    ("Capture a Hero that was or is set aside.", {}),
    ("Negate a Hero for the remainder of the game.", {"negate": "unsupported", "duration": "unsupported"}),
    ("Discard a Hero. Cannot be negated by an evil card, but may be prevented.", {"cannot-be-negated": "modelled"}),
])
def test_a_text_is_in_a_category_by_its_words(text: str, categories: dict[str, str]) -> None:
    reading = _reading_of(text)
    assert categories_of(reading) == categories
    assert statuses_of(reading) == {**categories, ALL_TEXTS: reading.status}


def _reading_of(text: str) -> CardReading:
    abilities = read_text(text).abilities
    return CardReading("a card", text, cards_module._status(abilities), abilities, "")


@pytest.mark.parametrize(("text", "blocked"), [
    ("Set aside a Hero. Capture a human to a player.", {"set-aside": (mechanic_reason("capture"),)}),
    ("Set aside a Hero. If Peter is captured, convert an Acts angel.",
     {"set-aside": (mechanic_reason("capture"), mechanic_reason("conversion"))}),
    ("Set aside a Hero for 2 turns.", {}),
    ("Heal a Hero or negate an Evil Character.", {"negate": (OFFERED_INSTEAD,)}),
    ("Set aside a male hero (face down).",
     {"set-aside": ("a word of the description '...' is not one the model can check",)}),
])
def test_what_blocks_a_text_is_each_reason_of_its_unsupported_category(text: str, blocked: dict[str, tuple[str, ...]]) -> None:
    reading = _reading_of(text)
    assert {c: r for c, r in blockers_of(reading).items() if c != ALL_TEXTS} == blocked
    assert set(blockers_of(reading)) == {c for c, status in statuses_of(reading).items() if status == "unsupported"}
    # on the line of every text, the reasons of every block
    every = tuple(dict.fromkeys(r for c in blocked.values() for r in c if r != OFFERED_INSTEAD))
    assert blockers_of(reading).get(ALL_TEXTS, ()) == (every if reading.status == "unsupported" else ())


def test_a_reason_quoting_the_cards_words_is_counted_without_them() -> None:
    assert blocker_reason("what the negate applies to ('negate opponent's heroes') is not checked by the model") == (
        "what the negate applies to ('...') is not checked by the model")
    assert blocker_reason("an exception to the kinds the negate names ('except cloud cards') is not modelled") == (
        "an exception to the kinds the negate names ('...') is not modelled")
    assert blocker_reason("a place after a list of kinds ('in territories'): whether it applies to every kind or to "
                          "the last is not read") == ("a place after a list of kinds ('...'): whether it applies to "
                                                      "every kind or to the last is not read")
    assert blocker_reason("a list of kinds that differ in their alignment, brigade or trait words ('evil characters "
                          "and neutral cards') is not modelled: one alignment") == (
        "a list of kinds that differ in their alignment, brigade or trait words ('...') is not modelled: one alignment")
    for fixed in ("'cannot be negated' given to other cards is not modelled", mechanic_reason("a cost"),
                  mechanic_reason("instead")):
        assert blocker_reason(fixed) == fixed


@pytest.mark.xdist_group("gate")  # reads the whole card list, as the gate does
def test_the_blockers_list_every_unsupported_text_under_its_reasons(repo_root: Path) -> None:
    found = coverage_json()
    assert {"coverage", "statuses", "blockers"} <= set(found)
    listed: dict[str, list[dict[str, object]]] = found["blockers"]  # type: ignore[assignment]
    texts: dict[str, dict[str, list[str]]] = {c: {} for c in COVERAGE_LINES}  # line -> reason -> cards
    unsupported: dict[str, int] = dict.fromkeys(COVERAGE_LINES, 0)
    surveyed = survey()
    assert [name for name, _, _ in surveyed] == [c.name for c in texts_of_card_list()]
    for name, statuses, blocked in surveyed:
        for category, status in statuses.items():
            if status == "unsupported":
                unsupported[category] += 1
                assert blocked.get(category), (name, category)  # every unsupported text has a reason
            for reason in blocked.get(category, ()):
                texts[category].setdefault(reason, []).append(name)
    # the survey is what the texts' readings say (a sample read again here: the whole list is the gate's cost)
    for c, (_, statuses, blocked) in list(zip(texts_of_card_list(), surveyed, strict=True))[::40]:
        reading = read_card(c)
        assert (statuses, blocked) == (statuses_of(reading), {k: list(v) for k, v in blockers_of(reading).items()})
    lock = {line.split()[0]: int(line.split()[1]) for line in (repo_root / "cards.lock").read_text("utf-8").splitlines()
            if line.strip() and not line.startswith("#")}
    for category in COVERAGE_LINES:
        counts = found["coverage"][category]  # type: ignore[index]
        assert counts["definition"] == DEFINITIONS[category]
        assert counts["unsupported"] == unsupported[category]
        assert counts["modelled"] + counts["override"] == lock[category]
        rows = listed[category]
        assert {r["reason"]: (r["texts"], r["cards"]) for r in rows} == {
            reason: (len(names), names[:SHOWN_CARDS]) for reason, names in texts[category].items()}
        assert [r["texts"] for r in rows] == sorted((r["texts"] for r in rows), reverse=True)
    # set-aside and heal: the reasons name what blocks them; few stay "not understood"
    for category in ("set-aside", "heal"):
        reasons = {r["reason"]: r["texts"] for r in listed[category]}
        assert reasons.get(NOT_UNDERSTOOD, 0) < found["coverage"][category]["unsupported"] / 4  # type: ignore[index]


@pytest.mark.parametrize("name", ["Judah's Sin", "King Jeroboam I", "Leah (TxP)", "Persian Presidents", "Pestilence"])
def test_texts_that_only_name_a_set_aside_or_heal_are_in_no_such_category(name: str) -> None:
    # "until healed", "set-aside enhancement", "in play or set-aside", "was or is set aside"
    assert not {"set-aside", "heal"} & set(categories_of(read_card(card(name))))


@pytest.mark.parametrize("name", ["Bound", "Foolishness of Five Virgins", "The Vineyard"])
def test_a_set_aside_inside_a_longer_sentence_still_counts(name: str) -> None:
    assert categories_of(read_card(card(name)))["set-aside"] == "unsupported"


def test_every_trait_is_named_by_its_own_spelling() -> None:
    from verifier.scenario.cardreading import TRAITS, trait_named

    assert all(trait_named(t) == t and trait_named(t.lower()) == t for t in TRAITS)


def test_an_effect_offered_instead_counts_in_its_category_as_unsupported() -> None:
    # "GE: Heal a human Hero or negate and banish an evil Enhancement": the heal is read, the negate is not (the
    # card's GE block alone, and the card, whose STAR block "Banish all evil cards in a discard pile." is read)
    printed = card("By His Wounds")
    ge_block = printed._replace(text=printed.text[printed.text.index("GE:"):])
    assert categories_of(read_card(ge_block)) == {"heal": "modelled", "negate": "unsupported"}
    assert categories_of(read_card(printed)) == {"heal": "modelled", "negate": "unsupported"}
    # with a STAR block that is not read and could act, every category is unsupported
    unread = printed._replace(text=printed.text.replace("Banish all evil cards", "Convert all evil cards"))
    assert categories_of(read_card(unread)) == {"heal": "unsupported", "negate": "unsupported"}


def test_a_block_that_could_act_unread_makes_the_text_unsupported() -> None:
    # Bound to the Law: its Curse block is read, its "A: Restrict players from controlling more than one Hero in
    # battle." is not and is no ability its player chooses: a case with the card where it acts is refused
    reading = read_card(card("Bound to the Law [2026 - State]"))
    assert [a.acts_unread for a in reading.abilities] == [False, True]
    assert reading.status == "unsupported"
    assert blockers_of(reading)["all"]


def test_a_block_that_begins_with_a_choice_but_holds_a_sentence_that_could_act_unread_is_not_modelled() -> None:
    # King Xerxes: "You may play an evil O.T. Fortress from Reserve. If opponent has play advantage, set aside X cards
    # in their territory for X turns. May band to ...": the set-aside is no choice of its player
    reading = read_card(card("King Xerxes"))
    assert [(a.kind, a.acts_unread) for a in reading.abilities] == [(None, True), ("other_effect", False)]
    assert reading.status == "unsupported"
    # "If you do, ..." after a choice is chosen with it; a condition not read on a protection does not act
    assert not read_card(card("The Winged Lion (PoC)")).abilities[0].acts_unread
    assert not read_card(card("Simeon (Di)")).abilities[0].acts_unread


def test_a_move_not_carried_out_that_could_reach_an_enhancements_user_is_not_modelled() -> None:
    # Just a Hireling (EE): "Discard your Sadducee or Pharisee to shuffle ...": the price could be the Evil Character
    # using it, so every use would be refused; Intent to Kill (EE) takes its price from a hand, where its user is not
    assert read_card(card("Just a Hireling")).status == "unsupported"
    assert "could reach the character using the Enhancement" in " ".join(
        p.reason for a in read_card(card("Just a Hireling")).abilities for p in a.unsupported)
    assert read_card(card("Intent to Kill")).status == "modelled"
    # a dual card's GE block is used by a Hero: Avenged!'s "GE: Discard your Judges human Hero to ..."
    assert [a.label for a in read_card(card("Avenged!")).abilities if a.unsupported] == ["GE"]


def test_an_ability_triggered_by_what_happens_to_its_card_is_no_ability_its_player_chooses() -> None:
    # Panic Demon (Brown): "If this character is banded into battle, return a Lost Soul ... May band to Panic Demon.":
    # the band is read (AAO-4-R1); the trigger is no "<verb> this card to ..." its player chooses, and could act
    reading = read_card(card("Panic Demon (Brown)"))
    assert [(a.kind, a.acts_unread) for a in reading.abilities] == [(None, True), ("other_effect", False)]
    assert reading.status == "unsupported"
    # "Discard this card to ...": a price its player chooses to pay
    chosen = read_card(card("Ishbibenob's Spear (I)"))
    assert not any(a.acts_unread for a in chosen.abilities)


@pytest.mark.parametrize("name", ["Bringing Fear (LoC)", "Commitment of Paul [RR2]", "Foul Spirit [RR2]",
                                  "King of Tyrus (Roots)", "Mask of Fear (GoC)", "The Strong Angel (Promo)"])
def test_a_negate_of_every_card_of_a_list_of_kinds_is_modelled(name: str) -> None:
    # "Negate characters and good Enhancements", "Negate evil and neutral cards", "Negate Enhancements and other
    # characters": every card of any of the kinds listed
    reading = read_card(card(name))
    assert reading.status == "modelled" and categories_of(reading)["negate"] == "modelled"
    assert all(a.targets_every for a in reading.abilities)


@pytest.mark.parametrize(("text", "covered", "users"), [
    ("Enhancements used by this card cannot be negated.", "enhancements", "this card"),
    ("O.T. Enhancements played on this Hero cannot be negated.", "ot enhancements", "this card"),
    ("Enhancements used by N.T. human Heroes cannot be negated.", "enhancements", "nt human heroes"),
    ("Good Enhancements cannot be negated.", "good enhancements", ""),
])
def test_a_cannot_be_negated_given_to_other_cards_is_read(text: str, covered: str, users: str) -> None:
    (block,) = read_text(text).abilities
    assert (block.kind, block.grants_unnegatable, block.grant_users, block.cannot_be_negated, block.unsupported) == (
        "other_effect", covered, users, True, ())


@pytest.mark.parametrize(("text", "kind", "reason"), [
    ("Enhancements used by this Hero cannot be interrupted.", "other_effect",
     "for 'cannot be interrupted' or 'cannot be prevented'"),
    ("Enhancements used by Nazirites cannot be negated.", "other_effect", "its user, the word 'nazirites'"),
    ("Heroes used by this card cannot be negated.", "other_effect", "only Enhancements are used by a character"),
    ("Negate a good card. Evil O.T. weapons cannot be negated.", "negate_effect",
     "a second effect (grant) in the same ability"),
    ("Good Enhancements involving music cannot be negated by evil cards.", "other_effect",
     "with a limit ('by evil cards')"),
    ("Enhancements used by this card cannot be negated (except by an angel).", "other_effect",
     "with a limit ('(except by an angel)')"),
    ("Evil banding enhancements cannot be prevented or negated this battle.", "other_effect",
     "with a limit ('this battle')"),
    ("NT evil cards cannot be negated unless Peter is in play.", "other_effect", "with a limit ('unless peter is"),
    ("If blocking, O.T. Enhancements cannot be negated.", "other_effect", "with a condition"),
])
def test_a_cannot_be_negated_given_to_other_cards_not_read_whole_is_kept_aside_naming_why(text: str, kind: str,
                                                                                          reason: str) -> None:
    # it matters only where something negates: the case loader refuses a case with it and a negate
    (block,) = read_text(text).abilities
    assert (block.kind, block.grant_aside, block.grants_unnegatable, block.unsupported) == (
        kind, normalise(text).lower().split(". ")[-1].rstrip("."), "", ())
    assert any(reason in dict(p.mapped).get("grant_aside", "") for p in block.pieces)


@pytest.mark.parametrize("text", ["Withdraw all Heroes. If used by a priest, you may draw 1 and this card cannot be prevented.",
                                  "Draw 1. If used by a Joshua Hero, repeat 1 time and this card cannot be negated."])
def test_an_effect_before_a_guard_in_one_sentence_is_not_read_as_a_grant(text: str) -> None:
    # the words before "cannot be" hold an effect ("you may draw 1", "repeat 1 time"), which a grant kept aside would
    # hide from the case loader
    (block,) = read_text(text).abilities
    assert block.grant_aside == "" and [p.kind for p in block.unsupported][-1] == "sentence"


def test_an_enhancements_band_is_read_when_it_names_its_user() -> None:
    # "Hero may band to ...": the character the Enhancement is played on bands (BAND-4-R1); "May band to ..." on a
    # card that is not a character names no one who bands
    assert read_card(card("Deborah's Directive (Roots)")).status == "modelled"
    (block,) = read_card(card("Deborah's Directive (Roots)")._replace(text="May band to an O.T. Hero.")).abilities
    assert [p.reason for p in block.unsupported] == [BAND_OFF_A_CHARACTER]
    (block,) = read_card(card("Moses' Rod")._replace(text="Hero may band to an O.T. Hero.")).abilities
    assert [p.reason for p in block.unsupported] == [BAND_OFF_A_CHARACTER]


def test_a_grant_does_not_cover_the_blocks_before_it() -> None:
    # CBN-6 covers earlier abilities only for a "cannot be negated" that does not say what it covers
    first, _ = read_text("GE: Discard an evil card. / EE: Good Enhancements cannot be negated.").abilities
    assert first.cannot_be_negated is False


def test_a_grant_on_a_card_that_stays_in_play_is_not_modelled() -> None:
    reading = read_card(card("Moses' Rod")._replace(text="Good Enhancements cannot be negated."))
    assert reading.status == "unsupported"


def test_a_negate_offering_another_effect_is_read_with_the_other_left_unmodelled() -> None:
    # "Negate a good Enhancement or bounce a Hero": the negate is read; an entry using it says 'effect: negate'
    (block,) = read_text("Negate a good Enhancement or bounce a Hero.").abilities
    assert (block.kind, block.target_types, block.alternatives, block.unsupported) == (
        "negate_effect", ("GE",), ("bounce a hero",), ())


@pytest.mark.parametrize(("text", "types", "traits"), [
    ("Negate the special ability of one female Hero in battle.", ("Hero",), ("female",)),
    ("Negate the special ability on an Evil Character in battle.", ("Evil_Character",), ()),
])
def test_the_special_ability_of_a_card_is_what_a_negate_of_the_card_targets(text: str, types: tuple[str, ...],
                                                                            traits: tuple[str, ...]) -> None:
    (block,) = read_text(text).abilities
    assert (block.kind, block.target_types, block.target_traits, block.target_zone, block.max_targets,
            block.unsupported) == ("negate_effect", types, traits, "field_of_battle", 1, ())


def test_the_special_abilities_on_cards_named_with_the_are_not_read() -> None:
    # PREV-12-R1 reads "negate [all] special abilities on ..."; "the special abilities on" is not read
    (block,) = read_text("Negate the special abilities on opponents' N.T. Fortresses.").abilities
    assert block.unsupported


@pytest.mark.parametrize(("text", "types", "traits"), [
    ("Negate all special abilities on Curses.", ("Curse",), ()),
    ("Negate special abilities on demons.", ("Hero", "Evil_Character"), ("demon",)),
    ("Negate special abilities on Sites and Evil Characters.", ("Site", "Evil_Character"), ()),
])
def test_the_special_abilities_on_cards_are_the_negate_of_every_card_that_fits(
        text: str, types: tuple[str, ...], traits: tuple[str, ...]) -> None:
    # PREV-12-R1: the abilities on every card that fits, as the negate of those cards
    (block,) = read_text(text).abilities
    assert (block.kind, block.targets_every, block.target_types, block.target_traits, block.unsupported) == (
        "negate_effect", True, types, traits, ())
    assert any("PREV-12-R1" in value for p in block.pieces for _, value in p.mapped)


@pytest.mark.parametrize(("text", "against"), [
    ("Protect hand and other evil cards in territory from opponents' good cards.", "any"),
    ("Protect evil cards in this Site from DragonRaid.", "any"),
    ("Protect holder's hand and draw pile from discard abilities on evil cards.", "evil"),
    ("Protect your hand and human Heroes from opponent's evil cards.", "evil"),
])
def test_a_protection_is_against_evil_cards_only_when_it_names_them_as_what_it_guards_from(text: str,
                                                                                            against: str) -> None:
    (block,) = read_text(text).abilities
    assert [p.split("/")[1] for p in block.protections] == [against]


def test_a_draw_beside_a_grant_is_refused() -> None:
    # "You may draw 2. N.T. Enhancements used by this card cannot be negated.": only the grant is kept from negates
    (block,) = read_text("You may draw 2. N.T. Enhancements used by this card cannot be negated.").abilities
    assert any("beside another ability" in p.reason for p in block.unsupported)


def test_what_the_opponent_may_do_is_not_the_abilitys_users_effect() -> None:
    # "Opponent may discard a good Enhancement from hand": the opponent decides and discards from their own hand
    (block,) = read_text("Opponent may discard a good Enhancement from hand.").abilities
    assert any("the opponent, carries out" in p.reason for p in block.unsupported)


def test_a_condition_on_a_protection_after_the_effect_is_the_protections_alone() -> None:
    # "Negate a good card. If used by a Moabite, protect ...": the negate needs no Moabite; the protection, refused
    # wherever it could matter, is read as if it held
    (block,) = read_text("Negate a good card. If used by a Moabite, protect O.T. Lost Souls from rescue.").abilities
    assert (block.kind, block.requires, block.unsupported, bool(block.protections)) == ("negate_effect", (), (), True)


def test_the_identifiers_descriptions_name_are_traits_of_real_cards() -> None:
    # "May band to a generic Roman", "Discard a Philistine giant": identifiers of the card list
    assert card("Devouring Philistines").traits == ("Generic", "Philistine", "warrior", "from Isaiah",
                                                    "named Devouring Philistines")
    # a compound identifier is not split into words ("Philistine Giant"): a case states such a card's traits
    assert card("Lahmi (I)").traits == ("warrior", "from I Chronicles", "named Lahmi")
    # "May band to a Tabernacle priest": the identifier Tabernacle Priest, not a Tabernacle High Priest's, which a case
    # states for such a card where it decides a target
    assert card("Ahimelech, Priest at Nob").traits[0] == "Tabernacle Priest"
    assert "Tabernacle Priest" not in card("Aaron (Di)").traits


@pytest.mark.parametrize(("reference", "books"), [
    ("Ruth 3:11", ("from Ruth",)),
    ("II Kings 5:1; Luke 4:27", ("from II Kings", "from Luke")),
    ("I Samuel 17:4/II Samuel 21:19", ("from I Samuel", "from II Samuel")),
    ("Hebrews 6:4,6", ("from Hebrews",)),  # a comma between verses
    ("Psalm 23:1", ("from Psalms",)),
    ("I Corinthians 1:20,25 (Good); Proverbs 1:29, 32 (Evil)", ("from I Corinthians", "from Proverbs")),
    ("Judges 7:5", ("from Judges",)),
    # no book of the Bible: which books the card is from is not known
    ("Old Testament", None),
    ("Josephus, Antiquities 18:6", None),
    ("", None),
])
def test_a_cards_reference_names_the_books_it_is_from(reference: str, books: tuple[str, ...] | None) -> None:
    # CORE-15-R3
    assert books_of(reference) == books


def test_the_books_of_a_real_cards_reference_are_its_traits_and_settled() -> None:
    ruth = card("Ruth (J)")
    assert "from Ruth" in ruth.traits and set(BOOK_TRAITS) <= set(ruth.settled_traits)
    # a reference that names no book settles none
    joshua = card("Joshua")
    assert joshua.reference == "Old Testament" and not any(t.startswith("from ") for t in joshua.traits)
    assert not set(BOOK_TRAITS) & set(joshua.settled_traits)


def test_a_state_is_read_for_a_character_or_an_enhancement_only() -> None:
    # TRIG-3, TRIG-3-R1 say when a character's or an Enhancement's ability checks the state leading its effect
    shout = card("Crumbled from a Shout")
    (a,) = read_card(shout).abilities
    assert (shout.type, a.if_state, a.unsupported) == ("GE", "card_in_play", ())
    as_fortress = read_card(shout._replace(type="Fortress"))
    assert as_fortress.status == "unsupported"
    assert STATE_OFF_A_CHARACTER in as_fortress.unsupported[0]


def test_a_move_of_its_own_card_is_read_for_a_character_only() -> None:
    (a,) = [x for x in read_card(card("Hannah [K]")).abilities if x.kind is not None]
    assert a.targets_itself and not a.unsupported
    enhancement = read_card(card("Intervening of Prophecy"))
    assert enhancement.status == "unsupported"
    assert any(ITSELF_OFF_A_CHARACTER in r for r in enhancement.unsupported)
