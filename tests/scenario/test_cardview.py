"""What `regcheck cards` shows of a card's reading."""

from __future__ import annotations

import pytest

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
    assert "targets: all (every card that fits, when it is used): Hero that are human, its user's own" in text
    assert ("'all of your human heroes' -> targets = every card that fits, when it is used, targets_own_cards = true, "
            "target_types = Hero, target_traits = human") in text
    assert "'for up to seven turns' -> duration = up to 7 turns, as the player picks" in text
    text = render_card(reading("Training in Righteousness"))
    assert "[unsupported]" in text
    assert ("'on return, hero gains two additional brigade colors of holder's choice' -> not modelled: what the card "
            "gains on return is not modelled") in text


def test_an_override_shows_its_note_and_why_each_part_was_accepted() -> None:
    text = render_card(reading("Gideon's 300"))
    assert "[override]" in text and "override: The set-aside" in text
    assert "'if gideon is in battle, trumpets and torches cannot be negated' -> override = It concerns only" in text
    assert ("'protect heroes in set-aside areas from harm' -> protects = cards in set-aside areas, against anything"
            in text)


def test_json_blocks_carry_their_labels() -> None:
    data = card_json(reading("Burning Fire"))
    assert [a["label"] for a in data["abilities"]] == ["GE", "EE"]  # type: ignore[attr-defined]


def test_the_coverage_text_lists_what_blocks_each_category(monkeypatch: pytest.MonkeyPatch) -> None:
    from verifier.scenario import cardview
    from verifier.scenario.cards import COVERAGE_LINES, DEFINITIONS, STATUSES

    counts = {c: dict.fromkeys(STATUSES, 1) for c in COVERAGE_LINES}
    long_reason = "banding is not modelled (" + "a long explanation " * 6 + ")"
    rows = [{"reason": long_reason, "texts": 3, "cards": ["Revolt", "Abaddon, the Destroyer (RoJ AB)"]}]
    rows += [{"reason": f"reason {i}", "texts": 1, "cards": ["A"]} for i in range(cardview.FEW_BLOCKERS + 2)]
    monkeypatch.setattr(cardview, "survey", lambda: [])
    monkeypatch.setattr(cardview, "count_coverage", lambda survey: counts)
    monkeypatch.setattr(cardview, "count_blockers", lambda survey: {c: rows for c in COVERAGE_LINES})
    data = cardview.coverage_json()
    assert set(data) == {"coverage", "statuses", "blockers"} and data["blockers"]["heal"] == rows  # type: ignore[index]
    assert data["coverage"]["all"]["definition"] == DEFINITIONS["all"]  # type: ignore[index]
    lines = cardview.render_coverage().splitlines()
    # a line per category and one for every text, then what each category's words are
    assert lines[len(COVERAGE_LINES)].startswith("  all ") and "(50.0% modelled or override)" in lines[1]
    assert f"  negate: {DEFINITIONS['negate']}" in lines
    assert "     3  banding is not modelled (...)  [Revolt; Abaddon, the Destroyer (RoJ AB)]" in lines
    assert all(len(line.split("  [")[0]) <= 8 + cardview.REASON_WIDTH for line in lines if line.endswith("]"))
    # every reason of set-aside and heal; the first few of the other lines, and how many more there are
    others = len(COVERAGE_LINES) - 2
    assert sum(line.endswith("  [A]") for line in lines) == 2 * (len(rows) - 1) + others * (cardview.FEW_BLOCKERS - 1)
    assert lines.count("  ... and 3 more reasons (--format json lists them all)") == others
