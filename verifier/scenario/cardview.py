"""What `regcheck cards` shows: each card's reading, and the coverage of the card list, as text or JSON."""

from __future__ import annotations

__all__ = ["card_json", "render_card", "coverage_json", "render_coverage", "lookup"]

from ..escaping import escape_text
from ..vocabulary import display_value
from .cardreading import NEGATE_MOVE_PLACES, AbilityReading
from .cards import (
    COVERAGE_LINES,
    DEFINITIONS,
    STATUSES,
    CardReading,
    RealCard,
    count_blockers,
    count_coverage,
    find_card,
    read_card,
    survey,
    text_hash,
)
from .descriptions import Description, describe, state_cards


def lookup(name: str) -> CardReading | list[str]:
    """The reading of the card called `name`, or the close names when there is no such card."""
    found = find_card(name)
    if isinstance(found, RealCard):
        return read_card(found)
    return found


def _ability_json(a: AbilityReading) -> dict[str, object]:
    turns = a.duration_turns if a.duration_kind in ("for_turns", "for_chosen_turns") else None
    return {
        "number": a.number,
        "label": a.label or None,
        "text": a.text,
        "kind": a.kind,
        "effect_class": a.effect_class,
        "duration": {"kind": a.duration_kind, "turns": turns,
                     "min_turns": a.duration_min_turns if a.duration_kind == "for_chosen_turns" else None},
        "paired": a.paired,
        "on_return": a.on_return,
        "grants_ability": a.grants_ability,
        "target_zone": a.target_zone,
        "also_in_play": a.also_in_play,
        "targets_opponents_cards": a.targets_opponents_cards,
        "targets_own_cards": a.targets_own_cards,
        "targets_all_in_location": a.targets_all_in_location,
        "targets": {"min": a.min_targets, "max": a.max_targets, "every": a.targets_every,
                    "types": list(a.target_types), "alignment": a.target_alignment,
                    "brigade": a.target_brigade, "traits": list(a.target_traits),
                    "or": [{"types": list(types), "alignment": alignment, "brigade": brigade, "traits": list(traits)}
                           for types, alignment, brigade, traits in a.target_alternatives],
                    "except": [{"types": list(types), "alignment": alignment, "brigade": brigade, "traits": list(traits)}
                               for types, alignment, brigade, traits in a.target_exceptions]},
        "cannot_be_negated": a.cannot_be_negated,
        "cannot_be_interrupted": a.cannot_be_interrupted,
        "cannot_be_prevented": a.cannot_be_prevented,
        "guard_condition": a.guard_condition or None,
        "guard_by": a.guard_by or None,
        "guard_user": a.guard_user or None,
        "grant_aside": a.grant_aside or None,
        "parts": list(a.parts),
        "heals_only": list(a.heals_only),
        "inflicts": list(a.inflicts),
        "negates_kinds": list(a.negates_kinds),
        "moves_what_it_negates": a.moves_what_it_negates,
        "negates_the_last_played": a.negates_the_last_played,
        "reaches_the_last_played": a.reaches_the_last_played,
        "prevents_plays_in_battle": a.prevents_plays_in_battle,
        "prevents_opponents_plays": a.prevents_opponents_plays,
        "waits_on": ({"state": a.if_state, "cards": a.if_description or None, "another": a.if_another,
                      "words": a.if_words or None} if a.if_state != "no_state" else None),
        "discards_itself": a.discards_itself,
        "targets_itself": a.targets_itself,
        "offers_a_price": a.offers_a_price,
        "interrupts_battle": a.interrupts_battle,
        "use_limit": ({"uses": int(a.use_limit.split("/")[0]), "per": a.use_limit.split("/")[1]}
                      if a.use_limit else None),
        "alternatives": list(a.alternatives),
        "on_return_changes": list(a.on_return_changes),
        "use_changes": list(a.use_changes),
        "requires": list(a.requires),
        "protections": [dict(zip(("guards", "against", "whose"), p.split("/"), strict=True)) for p in a.protections],
        "read": [{"kind": p.kind, "text": p.text, "maps_to": dict(p.mapped), "unsupported": p.reason or None}
                 for p in a.pieces],
    }


def card_json(r: CardReading) -> dict[str, object]:
    """One card's reading in the shape of `regcheck cards --format json`."""
    return {
        "name": r.name,
        "text": r.text,
        "text_sha256": text_hash(r.text),
        "status": r.status,
        "note": r.note or None,
        "abilities": [_ability_json(a) for a in r.abilities],
        "unsupported": list(r.unsupported),
    }


def _describe(a: AbilityReading) -> list[str]:
    if a.kind is None:
        return ["no effect the model uses: not an ability of the case"]
    duration = (f"{a.duration_turns} turn(s)" if a.duration_kind == "for_turns"
                else (f"up to {a.duration_turns} turn(s), as the player picks" if a.duration_turns != -1
                      else f"at least {a.duration_min_turns} turn(s), as the player picks")
                if a.duration_kind == "for_chosen_turns" else display_value(a.duration_kind))
    cbn = a.cannot_be_negated if isinstance(a.cannot_be_negated, str) else display_value(a.cannot_be_negated)
    high = "any number" if a.max_targets is None else a.max_targets
    count = ("all (every card that fits, when it is used):" if a.targets_every
             else f"none when used; then the next {high} played of" if a.kind == "prevent_effect"
             else f"exactly {high}" if high == a.min_targets else f"{a.min_targets} to {high}")
    fields = [
        f"kind: {display_value(a.kind)}",
        f"duration: {duration}",
        f"paired: {display_value(a.paired)}, on return: {display_value(a.on_return)}, "
        f"gives an ability on return: {display_value(a.grants_ability)}",
        f"targets: {count}"
        + (f" {a.target_alignment.replace('/', ' or ')}" if a.target_alignment else "")
        + (f" {'/'.join(display_value(t) for t in a.target_types)}" if a.target_types else "")
        + (f" of the {a.target_brigade} brigade" if a.target_brigade else "")
        + (f" that {'is' if a.max_targets == 1 else 'are'} {' and '.join(a.target_traits)}" if a.target_traits else "")
        + "".join(f", or {describe(Description(*alt)).replace('_', ' ')}" for alt in a.target_alternatives)
        + "".join(f", except {describe(Description(*exc)).replace('_', ' ')}" for exc in a.target_exceptions)
        + (f" in the {display_value(a.target_zone)}" if a.target_zone else "")
        + (" or in play" if a.also_in_play else "")
        + (", the opponent's" if a.targets_opponents_cards else "")
        + (", its user's own" if a.targets_own_cards else "")
        + (", any or all in the location" if a.targets_all_in_location else ""),
        f"cannot be negated: {cbn}"
        + (", cannot be interrupted" if a.cannot_be_interrupted else "")
        + (", cannot be prevented" if a.cannot_be_prevented else "")
        + (f"; '{a.guard_condition}' (not modelled: a negate reaching it is refused)" if a.guard_condition else "")
        + (f"; only against abilities on {a.guard_by}" if a.guard_by else "")
        + (f"; only for a use by {a.guard_user} (CBN-6-R2)" if a.guard_user else "")
        + (f"; gives '{a.grant_aside}' (not modelled: a case with a negate is refused)" if a.grant_aside else ""),
    ]
    if a.interrupts_battle:
        fields.append("interrupts the battle first (INT-17 to INT-20; not carried out: a case where it could "
                      "interrupt an ability is refused)")
    if a.effect_class != "plain_effect":
        fields.append(f"class: {display_value(a.effect_class)} (the characters it adds are the case's 'adds:')")
    if a.parts:
        fields.append(f"parts: {', '.join(display_value(p) for p in a.parts)}")
    if a.heals_only:
        fields.append(f"heals only: {', '.join(display_value(c) for c in a.heals_only)}")
    if a.inflicts:
        fields.append(f"inflicts: {', '.join(display_value(c) for c in a.inflicts)}")
    if a.negates_kinds:
        fields.append(f"negates, while its card is in play: {', '.join(display_value(k) for k in a.negates_kinds)}")
    if a.moves_what_it_negates != "stays_put":
        pile, said = NEGATE_MOVE_PLACES[a.moves_what_it_negates]
        fields.append(f"also discards the card whose ability it negates ({said})" if pile == "discard pile"
                      else f"also puts the card whose ability it negates into its owner's {pile} ({said})")
    if a.targets_itself:
        fields.append("its one target is its own card")
    if a.offers_a_price:
        fields.append("its effect happens only if the opponent does not make the move it offers them, their choice "
                      "(CORE-19-R2)")
    if a.discards_itself:
        fields.append("its price is its own card, discarded as it is used from play (CORE-19-R1)")
    if a.negates_the_last_played:
        fields.append("reaches only the latest play of a card it names in the current battle (TGT-27-R1)")
    if a.reaches_the_last_played:
        fields.append("also reaches the latest play of a card it names, wherever that card is now (TGT-27-R2)")
    if a.prevents_plays_in_battle:
        fields.append("prevents only cards played in battle (PREV-11-R1)")
    if a.prevents_opponents_plays:
        fields.append("prevents only cards an opponent of its user plays (PREV-11-R1)")
    if a.if_state == "state_the_case_states":
        fields.append(f"its effect waits on a state the case states for each use (TRIG-3-R2): '{a.if_words}'")
    elif a.if_state != "no_state":
        named = f" ({state_cards(a.if_description, a.if_another)})" if a.if_description else ""
        fields.append(f"its effect waits on a state, checked as it is used (TRIG-3-R1): {display_value(a.if_state)}"
                      + named)
    if a.use_limit:
        times, per = a.use_limit.split("/")
        fields.append(f"may be used: at most {times} time(s) per {per}")
    if a.alternatives:
        fields.append(f"or, as its player picks (not modelled): {'; '.join(a.alternatives)}")
    if a.on_return_changes:
        fields.append("on return may change (not carried out: a case it could change is refused): "
                      + "; ".join(a.on_return_changes))
    if a.use_changes:
        fields.append("as used may also change (not carried out: a case it could change is refused): "
                      + "; ".join(a.use_changes))
    if a.requires:
        fields.append("works only when used as it requires (a use not known to meet it is refused): "
                      + "; ".join(a.requires))
    if a.protections:
        fields.append("protects (not modelled: a case where it could matter is refused): "
                      + "; ".join(p.replace("/", ", against ", 1).replace("/", ", ") for p in a.protections))
    return fields


def render_card(r: CardReading) -> str:
    """One card's reading for people: its blocks, the parts read from each, the fields they set, what is not modelled."""
    lines = [f"{escape_text(r.name)}  [{r.status}]  text {text_hash(r.text)}", f"  {escape_text(r.text)}"]
    if r.note:
        lines.append(f"  override: {escape_text(r.note)}")
    for a in r.abilities:
        label = f" ({a.label})" if a.label else ""
        lines.append(f"  ability {a.number}{label}: {escape_text(a.text)}")
        lines += [f"    {f}" for f in _describe(a)]
        for p in a.pieces:
            what = (f"not modelled: {p.reason}" if p.reason
                    else ", ".join(f"{k} = {v}" for k, v in p.mapped) or "read")
            lines.append(f"      - {p.kind}: '{escape_text(p.text)}' -> {escape_text(what)}")
    if not r.abilities:
        lines.append("  (no special ability text)")
    return "\n".join(lines)


def coverage_json() -> dict[str, object]:
    """The coverage of the bundled card list in `regcheck cards --coverage --format json`: per line (each category
    of words, then every distinct text), the definition of the line (`cards.DEFINITIONS`), the texts per status,
    how many in all and the share modelled or read through an override; and what blocks the unsupported texts of
    each line (`cards.blockers`), both counted from one reading of the survey (`cards.survey`)."""
    rows = survey()
    counts = count_coverage(rows)
    out: dict[str, object] = {}
    for line in COVERAGE_LINES:
        c = counts[line]
        total = sum(c.values())
        usable = c["modelled"] + c["override"]
        out[line] = {"definition": DEFINITIONS[line], **c, "texts": total,
                     "modelled_or_override_percent": round(100 * usable / total, 1) if total else 0.0}
    return {"coverage": out, "statuses": list(STATUSES), "blockers": count_blockers(rows)}


# The categories whose blockers the text output lists in full; of the others it lists the first few.
ALL_BLOCKERS = ("set-aside", "heal")
FEW_BLOCKERS = 5
REASON_WIDTH = 80


def _cut(reason: str) -> str:
    """A reason of at most `REASON_WIDTH` characters: a longer one without its explanation in parentheses, or
    cut at a word, with "..." for what is left out."""
    if len(reason) <= REASON_WIDTH:
        return reason
    aside = reason.rfind(" (", 0, REASON_WIDTH - 6)
    if aside > 0:
        return reason[:aside] + " (...)"
    return reason[: reason.rfind(" ", 0, REASON_WIDTH - 3)].rstrip(" ,;(") + "..."


def render_coverage() -> str:
    """The coverage of the bundled card list for people: one line per category of words and one for every
    distinct text, then what each category's words are, then, per line, what blocks its unsupported texts: one
    line per reason, most texts first, with how many texts it blocks and a few cards (every reason for set-aside
    and heal, the first few for the others)."""
    data = coverage_json()
    lines = ["distinct printed texts per category of words: " + ", ".join(STATUSES)]
    for category, c in data["coverage"].items():  # type: ignore[attr-defined]
        lines.append(f"  {category:34} {c['texts']:5} texts: " + ", ".join(f"{c[s]} {s}" for s in STATUSES)
                     + f" ({c['modelled_or_override_percent']}% modelled or override)")
    lines += ["", "a text is in a category when its printed words say (whatever the grammar read):"]
    lines += [f"  {category}: {escape_text(str(c['definition']))}"
              for category, c in data["coverage"].items()]  # type: ignore[attr-defined]
    found: dict[str, list[dict[str, object]]] = data["blockers"]  # type: ignore[assignment]
    for category in COVERAGE_LINES:
        reasons = found.get(category, [])
        if not reasons:
            continue
        shown = reasons if category in ALL_BLOCKERS else reasons[:FEW_BLOCKERS]
        lines += ["", f"what blocks the unsupported {category} texts (texts blocked, reason, [first cards]; a "
                      "text counts under each of its reasons):"]
        for b in shown:
            cards = "; ".join(escape_text(str(n)) for n in b["cards"])  # type: ignore[attr-defined]
            lines.append(f"  {b['texts']:4}  {escape_text(_cut(str(b['reason'])))}  [{cards}]")
        if len(shown) < len(reasons):
            lines.append(f"  ... and {len(reasons) - len(shown)} more reasons (--format json lists them all)")
    return "\n".join(lines)
