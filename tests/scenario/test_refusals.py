"""Refusals of cases whose answer would rest on what regcheck does not model, checked on loaded scenarios."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from verifier.errors import CaseRefused, Location
from verifier.scenario.model import Scenario
from verifier.scenario.refusals import Unmodelled, refuse_unanswerable


def _unmodelled(sc: Scenario) -> Unmodelled:
    """Where the case's cards are written does not matter to these checks: the case file's first line."""
    return Unmodelled(lambda name: Location(sc.path, 1))


def test_an_ongoing_negate_of_a_kind_reaching_a_guard_with_an_unread_condition_is_refused(
        repo_root: Path, make_case: Callable[..., Scenario]) -> None:
    # Incurable negates heal abilities while in play; a Balm of Gilead whose text said "Cannot be negated if ..."
    # would be kept out of it or not depending on a condition regcheck does not read
    sc = make_case((repo_root / "cases/negate/incurable-negates-balm-of-gilead-played-while-it-is-in-play.yaml")
                   .read_text("utf-8"))
    guarded = [a._replace(guard_condition="cannot be negated if a king is in play") if a.card == "balm" else a
               for a in sc.abilities]
    with pytest.raises(CaseRefused, match=r"play_balm uses .*, whose ability says 'cannot be negated if a king is in "
                                          r"play', a guard regcheck does not read whole, and .* negates such "
                                          r"abilities while its card is in play"):
        refuse_unanswerable(_unmodelled(sc), list(sc.cards), guarded, list(sc.steps), list(sc.attempts))
    refuse_unanswerable(_unmodelled(sc), list(sc.cards), list(sc.abilities), list(sc.steps), list(sc.attempts))



def test_a_negate_of_all_that_fit_reaching_a_later_use_of_a_guard_with_an_unread_condition_is_refused(
        repo_root: Path, make_case: Callable[..., Scenario]) -> None:
    # joshua's "Negate all Evil Characters in battle" keeps out the Taskmaster's later negate (PREV-7), unless the
    # Taskmaster's ability cannot be prevented, which a condition regcheck does not read would decide
    sc = make_case((repo_root / "cases/negate/negate-all-evil-characters-in-battle-keeps-out-a-taskmaster-who-enters-"
                                "later.yaml").read_text("utf-8"))
    guarded = [a._replace(guard_condition="cannot be prevented if a king is in play") if a.card == "taskmaster" else a
               for a in sc.abilities]
    with pytest.raises(CaseRefused, match=r"joshua_negates may negate taskmaster_negates, whose ability says 'cannot "
                                          r"be prevented if a king is in play'"):
        refuse_unanswerable(_unmodelled(sc), list(sc.cards), guarded, list(sc.steps), list(sc.attempts))



_STRIKING = "cases/negate/striking-herod-interrupts-a-battle-with-nothing-active-and-discards-the-blocker.yaml"


def test_an_interrupt_of_the_battle_after_an_ability_used_in_that_battle_is_refused(
        repo_root: Path, make_case: Callable[..., Scenario]) -> None:
    # Striking Herod's "interrupt the battle" reaches nothing in its case; Coliseum Lions, played by bob earlier in
    # the battle, would be an ability it interrupts, and whether that reactivates is not carried out (INT-9 to INT-14)
    text = (repo_root / _STRIKING).read_text("utf-8")
    text = text.replace("  striking:\n", "  lions:\n    card: Coliseum Lions (E)\n    owner: bob\n  striking:\n")
    text = text.replace("  - id: strike\n", "  - id: lions_play\n    turn: 1\n    phase: Battle\n    player: bob\n"
                                            "    play: lions\n    on: herod\n    targets: [john]\n  - id: strike\n")
    with pytest.raises(CaseRefused, match=r"strike interrupts the battle \(striking\), and lions_play \(line \d+\) "
                                          r"uses an ability earlier in this battle"):
        make_case(text)
    make_case((repo_root / _STRIKING).read_text("utf-8"))


@pytest.mark.parametrize("where", ["enter_battle", "field_of_battle"])
def test_an_interrupt_of_the_battle_with_a_card_of_text_in_battle_is_refused(
        repo_root: Path, make_case: Callable[..., Scenario], where: str) -> None:
    # a blocker with a printed ability activates it as it enters battle, and "interrupt the battle" may reach it
    # (INT-18); the bundled case's blocker has none and gives it nothing to interrupt
    text = (repo_root / _STRIKING).read_text("utf-8").replace(
        "  herod:\n    type: Evil_Character\n    brigade: Crimson\n", "  herod:\n    card: Herod Antipas\n")
    if where == "field_of_battle":
        text = text.replace("    traits: [male, human]\n", "    traits: [male, human]\n    zone: field_of_battle\n")
        text = text.replace("  - turn: 1\n    phase: Battle\n    player: bob\n    enter_battle: [herod]\n", "")
    expected = (r"strike interrupts the battle \(striking\), and 'herod' starts in the field of battle"
                if where == "field_of_battle" else
                r"strike interrupts the battle \(striking\), and enter_battle_2 \(line \d+\) brings 'herod'")
    with pytest.raises(CaseRefused, match=expected):
        make_case(text)


_AUTHORITY = "cases/targeting/authority-of-peter-discards-a-demon-or-a-beast-not-a-human.yaml"


def test_a_trait_an_alternative_description_names_is_settled_or_the_case_refused(
        repo_root: Path, make_case: Callable[..., Scenario]) -> None:
    # Authority of Peter (Ap) discards "any demon or beast": whether lion is a beast decides whether it is a target
    text = (repo_root / _AUTHORITY).read_text("utf-8")
    sc = make_case(text)
    authority = next(a for a in sc.abilities if a.card == "authority")
    lion = next(c for c in sc.cards if c.name == "lion")
    assert authority.target_traits == ("demon",) and authority.fits(lion)
    assert not authority._replace(target_alternatives=()).fits(lion)
    refuse_unanswerable(_unmodelled(sc), list(sc.cards), list(sc.abilities), list(sc.steps), list(sc.attempts))
    with pytest.raises(CaseRefused, match=r"names demon for its targets, and the case does not say whether 'lion' is "
                                          r"demon"):
        make_case(text.replace("    traits: [Beast]\n", ""))


_BONDAGE = "cases/zones/hard-bondage-captures-a-human-hero-in-territory-not-one-in-battle.yaml"


def test_a_card_captured_earlier_met_again_is_refused(repo_root: Path, make_case: Callable[..., Scenario]) -> None:
    # CAPT-1: a captured character stops being a character, which the model's fixed card types do not follow
    text = (repo_root / _BONDAGE).read_text("utf-8")
    make_case(text)
    later = text.replace("questions:\n", "  - id: baruch_enters\n    turn: 1\n    phase: Battle\n"
                                         "    enter_battle: [baruch]\nquestions:\n")
    with pytest.raises(CaseRefused, match=r"capture_baruch may capture 'baruch': a captured character stops being a "
                                          r"character \(CAPT-1\).* attempt 'baruch_enters' \(line \d+\) comes after"):
        make_case(later)
    placed = text.replace("  bondage:\n", "  sword:\n    type: Weapon\n    brigade: Gray\n    equipped_to: baruch\n"
                                          "  bondage:\n")
    with pytest.raises(CaseRefused, match=r"'sword' is placed on it, and would be discarded"):
        make_case(placed)


def test_a_trait_an_exception_names_is_settled_or_the_case_refused(repo_root: Path,
                                                                   make_case: Callable[..., Scenario]) -> None:
    # a discard of any character "(except a human)": whether herod is a human decides whether he is a target
    text = (repo_root / _AUTHORITY).read_text("utf-8").replace("    traits: [human]\n", "")
    sc = make_case(text.replace("targets: [herod]", "targets: [lion]"))
    authority = next(a for a in sc.abilities if a.card == "authority_three")
    humans = authority._replace(target_traits=(), target_alternatives=(),
                                target_exceptions=((("Hero", "Evil_Character"), None, None, ("human",)),))
    herod = next(c for c in sc.cards if c.name == "herod")
    assert humans.fits(herod) and not humans._replace(target_exceptions=((("Hero",), None, None, ()),)).fits(
        next(c for c in sc.cards if c.name == "peter"))
    abilities = [humans if a.card == "authority_three" else a for a in sc.abilities]
    attempts = [x._replace(targets=("herod",)) if x.id == "discard_herod" else x for x in sc.attempts]
    with pytest.raises(CaseRefused, match=r"names human for its targets, and the case does not say whether 'herod' "
                                          r"is human"):
        refuse_unanswerable(_unmodelled(sc), list(sc.cards), abilities, list(sc.steps), attempts)


def test_a_card_whose_title_holds_the_name_among_other_words_is_refused(repo_root: Path,
                                                                        make_case: Callable[..., Scenario]) -> None:
    # CORE-15-R1: "Korah, the Rebellious" may or may not be the Korah Dathan's band names
    text = (repo_root / "cases/band/dathan-cannot-band-balaam-whose-title-is-neither.yaml").read_text("utf-8")
    make_case(text)
    with pytest.raises(CaseRefused, match=r"names Abiram for its targets \(CORE-15-R1\), and whether 'balaam' "
                                          r"\(Korah, the Rebellious\) is Abiram|names Korah for its targets"):
        make_case(text.replace("card: Balaam (Pr)", "card: Korah, the Rebellious"))
