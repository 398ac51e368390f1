"""The readings of every real set-aside and heal text of the card list, pinned after review.

Each reading in `snapshots/card-readings.json` was checked by hand against the card's printed
text: a `modelled` or `override` reading must say what the card says, field by field; any other
reading must refuse the ability, naming the part it does not model. A change to the card grammar
that alters a reading fails here; review the changed readings, then write the file again with:

    .venv/bin/python tests/scenario/test_card_readings.py
"""

from __future__ import annotations

import json
from pathlib import Path

from verifier.scenario.cards import WORDS, CardReading, all_cards, categories_of, read_card
from verifier.scenario.cardtext import AbilityReading

SNAPSHOT = Path(__file__).resolve().parent / "snapshots" / "card-readings.json"


def _ability(a: AbilityReading) -> dict[str, object]:
    if a.kind is None:
        return {"block": a.number, "label": a.label, "kind": None,
                "unsupported": [f"{p.kind}: {p.text}: {p.reason}" for p in a.unsupported]}
    traits = {"target_traits": list(a.target_traits)} if a.target_traits else {}
    traits |= {"protections": list(a.protections)} if a.protections else {}
    traits |= {"use_limit": a.use_limit} if a.use_limit else {}
    traits |= {"alternatives": list(a.alternatives)} if a.alternatives else {}
    traits |= {"on_return_changes": list(a.on_return_changes)} if a.on_return_changes else {}
    traits |= {"use_changes": list(a.use_changes)} if a.use_changes else {}
    traits |= {"requires": list(a.requires)} if a.requires else {}
    traits |= {"moves_what_it_negates": a.moves_what_it_negates} if a.moves_what_it_negates != "stays_put" else {}
    traits |= {"effect_class": a.effect_class} if a.effect_class != "plain_effect" else {}
    traits |= {"guard_by": a.guard_by} if a.guard_by else {}
    return {
        "block": a.number, "label": a.label, "kind": a.kind, **traits,
        "duration": [a.duration_kind, a.duration_turns, a.duration_min_turns],
        "paired": a.paired, "on_return": a.on_return, "grants": a.grants_ability,
        "cannot_be_negated": a.cannot_be_negated,
        "target_zone": a.target_zone, "also_in_play": a.also_in_play,
        "opponents": a.targets_opponents_cards, "own": a.targets_own_cards, "all_in_location": a.targets_all_in_location,
        "targets": [a.min_targets, a.max_targets, list(a.target_types), a.target_brigade],
        "parts": list(a.parts), "heals_only": list(a.heals_only),
        "inflicts": list(a.inflicts), "negates": list(a.negates_kinds),
        "unsupported": [f"{p.kind}: {p.text}: {p.reason}" for p in a.unsupported],
    }


def readings() -> list[dict[str, object]]:
    """Every distinct printed text that sets aside or heals (or says so in a sentence not read), as read now."""
    seen: set[str] = set()
    out = []
    for card in all_cards():
        if card.text in seen or not card.text.strip():
            continue
        seen.add(card.text)
        # a text is in a category when its printed words say so (`categories_of`): one whose words say neither
        # set-aside nor heal is left unread
        if not any(WORDS[category].search(card.text) for category in ("set-aside", "heal")):
            continue
        r: CardReading = read_card(card)
        categories = categories_of(r)
        if not {"set-aside", "heal"} & set(categories):
            continue
        out.append({"name": r.name, "text": r.text, "status": r.status,
                    "categories": dict(sorted(categories.items())),
                    "abilities": [_ability(a) for a in r.abilities]})
    return out


def test_readings_match_the_reviewed_snapshot() -> None:
    expected = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    now = readings()
    assert len(expected["readings"]) >= 120
    by_name = {r["name"]: r for r in now}
    changed = [r["name"] for r in expected["readings"] if by_name.get(r["name"]) != r]
    added = sorted(set(by_name) - {r["name"] for r in expected["readings"]})
    assert not changed and not added, f"readings changed: {changed[:10]}; new: {added[:10]}"


def test_no_text_that_sets_nothing_aside_or_heals_nothing_is_read_as_one() -> None:
    # "in a set aside area" names a place; "Negate heal ... abilities" negates
    quiet = [c for c in all_cards() if "set aside area" in c.text.lower() or "set-aside area" in c.text.lower()
             or "negate heal" in c.text.lower()]
    assert len(quiet) > 20
    for card in quiet:
        r = read_card(card)
        for a in r.abilities:
            sets_aside = any(p.kind == "set_aside" for p in a.pieces)
            assert (a.kind == "set_aside_effect") == sets_aside, card.name
            heals = any(p.kind in ("heal", "restore", "healed") for p in a.pieces)
            assert (a.kind == "heal_effect") == heals, card.name
    incurable = read_card(next(c for c in all_cards() if c.name == "Incurable (PoC)"))
    # EE: "Withdraw all Heroes. Paralyze them for 3 turns." is a withdraw, its paralyze a second effect not
    # modelled; ART: a negate, of heal abilities too
    assert [a.kind for a in incurable.abilities] == ["withdraw_effect", "negate_effect"]
    assert [p.kind for p in incurable.abilities[0].unsupported] == ["afflict"]
    pestilence = read_card(next(c for c in all_cards() if c.name == "Pestilence"))
    assert [a.kind for a in pestilence.abilities] == ["discard_effect"] and "set-aside" not in categories_of(pestilence)


if __name__ == "__main__":
    SNAPSHOT.write_text(json.dumps({
        "about": "readings of every real set-aside and heal text, each reviewed against the printed text",
        "readings": readings(),
    }, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
