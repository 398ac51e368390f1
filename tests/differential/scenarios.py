"""Hypothesis strategies for small random cases, written as case files so the loader's defaults apply.

A case has two players, one or two turns, one to three cards of several types, brigades, owners,
alignments and traits (some with abilities: set aside with or without a duration, paired, on-return,
negate (and discard, and underdeck, of the last played), heal, discard, return, afflict, modifiers,
prices paid with the card itself ...; the descriptions of their targets: type,
alignment, traits, how many, 'all', whose; what they cannot be: negated, interrupted, prevented; the
kinds an ongoing negation negates; use limits), a short timeline of attempts in time order (negates
among them), and a few questions over outcome symbols and definitions (activation_order, paired_active,
discard_suspended).
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

PLAYERS = ("alice", "bob")
CARD_NAMES = ("abel", "boaz", "caleb")
CARD_TYPES = ("Hero", "Hero", "Evil_Character", "GE", "EE", "Weapon", "Lost_Soul", "Artifact")
CHARACTERS = ("Hero", "Evil_Character")
BRIGADES = ("Green", "Blue", "Gold", "Black", "Crimson")
ZONES = ("territory", "hand", "discard_pile", "set_aside_area", "field_of_battle", "land_of_bondage")
PHASES = ("Draw", "Upkeep", "Preparation", "Battle", "Discard")
KINDS = ("set aside", "set aside", "return", "negate", "negate", "negate", "heal", "discard", "afflict", "prevent",
         "other")
CLASSES = ("plain_effect", "adds_same_side", "adds_opposite_side", "side_battle_effect", "triggered_effect")
ROLES = ("rescuing", "blocking", "attacking", "defending", "taunting", "no_role")
CAUSES = ("by special ability", "by triggered rule", "by battle resolution")
# the words of the descriptions, negation and cannot-be sections (CORE-15, CORE-17, TGT-, NEG-, PREV-, CBN-)
TARGET_TYPES = ("Hero", "Evil Character", "GE", "EE", "Lost Soul", "Artifact")
ALIGNMENTS = ("good", "evil", "neutral")
TRAITS = ("human", "male", "Prophet", "N.T.")
TARGET_COUNTS = (1, 1, 2, "up to 2", "at least 1", "all", "all", "any number")
LIMITS = ("once per game", "once per turn", "twice per game")
NEGATED_KINDS = ("heal", "afflict", "restore abilities")
INFLICTED = ("poisoned", "diseased", "paralyzed", "decreased")
# the states an effect may wait on (TRIG-3-R1) and the cards they name
STATES = ("card_in_play", "card_you_control", "card_in_battle", "battle_under_way", "state_the_case_states")
STATE_CARDS = ("a Hero", "an Evil Character", "a Lost Soul")


def _maybe(draw: Any, strategy: st.SearchStrategy[Any], chance: int = 3) -> Any:
    """A value of `strategy` about one time in `chance`, else None."""
    return draw(strategy) if draw(st.integers(1, chance)) == 1 else None


@st.composite
def _ability(draw: Any, names: list[str]) -> dict[str, Any]:
    kind = draw(st.sampled_from(KINDS))
    out: dict[str, Any] = {"kind": kind}
    duration = draw(st.sampled_from((None, None, "1 turn", "2 turns", "until end of battle")))
    if duration:
        out["duration"] = duration
    on_return = kind == "set aside" and draw(st.booleans())
    if on_return:
        out["on_return"] = True
        if draw(st.booleans()):
            out["grants"] = True
    elif kind == "set aside" and draw(st.booleans()):
        out["paired"] = True
    for flag in ("cannot_be_negated", "targets_opponents", "targets_all_in_location"):
        if draw(st.integers(1, 5)) == 1:
            out[flag] = True
    zone = _maybe(draw, st.sampled_from(ZONES), 4)
    if zone:
        out["target_zone"] = zone
        if draw(st.booleans()):
            out["also_in_play"] = True
    klass = _maybe(draw, st.sampled_from(CLASSES), 3)
    if klass:
        out["class"] = klass
        if klass.startswith("adds") and names:
            out["adds"] = draw(st.lists(st.sampled_from(names), min_size=1, max_size=2, unique=True))
            if draw(st.integers(1, 3)) == 1:
                out["target_type"] = draw(st.sampled_from(CHARACTERS))
            if draw(st.integers(1, 3)) == 1:
                out["targets_own"] = True
    if klass == "triggered_effect" and draw(st.booleans()):
        out["when_enters_battle"] = draw(st.sampled_from(CHARACTERS))
    if kind == "heal" and draw(st.booleans()):
        out["heals_only"] = draw(st.lists(st.sampled_from(("poisoned", "diseased", "paralyzed", "being discarded")),
                                          min_size=1, max_size=2, unique=True))
    if kind == "afflict":
        out["inflicts"] = draw(st.sampled_from(INFLICTED))
    if kind == "negate" and draw(st.integers(1, 4)) == 1:
        out["negates"] = draw(st.lists(st.sampled_from(NEGATED_KINDS), min_size=1, max_size=2, unique=True))
    if kind == "negate":
        # "negate and discard", "negate and underdeck", "negate the last ... played in battle"
        also = draw(st.sampled_from((None, None, None, "and_discard", "and_place", "last_played", "or_last_played")))
        if also:
            out[also] = True
    if draw(st.integers(1, 8)) == 1:
        out["price_itself"] = True  # "You may discard this card to ..."
    for flag in ("cannot_be_interrupted", "cannot_be_prevented"):
        if draw(st.integers(1, 6)) == 1:
            out[flag] = True
    if "target_type" not in out and draw(st.integers(1, 3)) == 1:
        types = draw(st.lists(st.sampled_from(TARGET_TYPES), min_size=1, max_size=2, unique=True))
        out["target_type"] = types[0] if len(types) == 1 else types
    if draw(st.integers(1, 4)) == 1:
        out["target_alignment"] = draw(st.sampled_from(ALIGNMENTS[:2]))
    if draw(st.integers(1, 5)) == 1:
        out["target_traits"] = draw(st.sampled_from(TRAITS))
    if kind == "prevent":
        # "Prevent the next (two) ... played [in battle] [by opponent]" (PREV-11-R1)
        out["target_count"] = draw(st.sampled_from((1, 1, 2)))
        for flag in ("played_in_battle", "played_by_opponent"):
            if draw(st.booleans()):
                out[flag] = True
    elif draw(st.integers(1, 3)) == 1:
        out["target_count"] = draw(st.sampled_from(TARGET_COUNTS))
    if "targets_own" not in out and draw(st.integers(1, 6)) == 1:
        out["targets_own"] = True
    if draw(st.integers(1, 6)) == 1:
        out["limit"] = draw(st.sampled_from(LIMITS))
    if draw(st.integers(1, 5)) == 1:
        out["gained"] = draw(st.integers(1, 2))
    if draw(st.integers(1, 6)) == 1:
        out["modifiers"] = [{"scope": "whole_ability", "effect": "cannot be negated",
                             "condition": draw(st.booleans())}]
    if draw(st.integers(1, 5)) == 1:
        out["if_state"] = draw(st.sampled_from(STATES))
        if out["if_state"] not in ("battle_under_way", "state_the_case_states"):
            out["if_description"] = draw(st.sampled_from(STATE_CARDS))
            if draw(st.booleans()):
                out["if_another"] = True
    if draw(st.integers(1, 6)) == 1:
        out["offers_a_price"] = True  # its effect waits on the opponent's choice not to pay (CORE-19-R2)
    return out


@st.composite
def _card(draw: Any, name: str, others: list[str], coherent: bool) -> dict[str, Any]:
    ctype = draw(st.sampled_from(CARD_TYPES))
    card: dict[str, Any] = {"type": ctype}
    brigades = ["Green"] if coherent else draw(st.lists(st.sampled_from(BRIGADES), max_size=2, unique=True))
    if brigades:
        card["brigade"] = brigades
    owner = _maybe(draw, st.sampled_from(PLAYERS), 4 if coherent else 2)
    if owner:
        card["owner"] = owner
    zone = _maybe(draw, st.sampled_from(ZONES), 8 if coherent else 3)
    if zone:
        card["zone"] = zone
    if draw(st.integers(1, 6)) == 1:
        card["territory_class"] = True
    # alignment: a card whose type gives none mostly states one, and traits are mostly listed, so that
    # descriptions naming them are answered (a case that leaves one open where it matters is refused)
    if ctype not in ("Hero", "Evil_Character", "GE", "EE") and draw(st.integers(1, 4)) > 1:
        card["alignment"] = draw(st.sampled_from(ALIGNMENTS))
    if draw(st.integers(1, 4)) > 1:
        card["traits"] = draw(st.lists(st.sampled_from(TRAITS), max_size=2, unique=True))
    for condition in ("poisoned", "diseased", "paralyzed"):
        if ctype in CHARACTERS and draw(st.integers(1, 10 if coherent else 6)) == 1:
            card[condition] = True
    bearers = [o for o in others if o != name]  # a Weapon equipped to itself is an input error
    if ctype == "Weapon" and bearers and draw(st.booleans()):
        card["equipped_to"] = draw(st.sampled_from(bearers))
    n_abilities = draw(st.sampled_from((0, 1, 1, 1, 2)))
    if n_abilities:
        card["abilities"] = [draw(_ability([o for o in others if o != name])) for _ in range(n_abilities)]
    return card


def _stated_state(draw: Any, entry: dict[str, Any], card: dict[str, Any]) -> None:
    """An entry using a card whose ability waits on a state the case states says whether it holds (TRIG-3-R2)."""
    if any(a.get("if_state") == "state_the_case_states" for a in card["abilities"]):
        entry["state_holds"] = draw(st.booleans())


@st.composite
def _attempt(draw: Any, i: int, turns: int, cards: dict[str, dict[str, Any]],
             earlier: list[dict[str, Any]]) -> dict[str, Any]:
    names = list(cards)
    with_ability = [n for n, c in cards.items() if c.get("abilities")]
    by_kind = {k: [n for n, c in cards.items() if any(a["kind"] == k for a in c.get("abilities", []))]
               for k in ("return", "negate", "discard")}
    uses = [e for e in earlier if "play" in e or "activate" in e or "negate" in e or "return" in e]
    set_asides = [e for e in earlier if "play" in e or "activate" in e]
    options = ["enter_battle", "end_battle", "discard_other"]
    if with_ability:
        options += ["play", "play", "activate", "activate"]
    if by_kind["return"]:
        options.append("return")
    if by_kind["negate"] and uses:
        options += ["negate"] * 4
    if by_kind["discard"]:
        options.append("discard_by")
    if set_asides:
        options.append("choose_return")
    action = draw(st.sampled_from(options))
    entry: dict[str, Any] = {"id": f"x{i}"}
    targets = draw(st.lists(st.sampled_from(names), min_size=0, max_size=2, unique=True))
    if action in ("play", "activate"):
        card = draw(st.sampled_from(with_ability))
        entry[action] = card
        characters = [n for n, c in cards.items() if c["type"] in CHARACTERS]
        if cards[card]["type"] in ("GE", "EE") and action == "play":
            entry["on"] = draw(st.sampled_from(characters or names))
        elif characters and draw(st.integers(1, 3)) == 1:
            entry["on"] = draw(st.sampled_from(characters))
        if targets and not all(a["kind"] == "prevent" for a in cards[card]["abilities"]):  # a prevent names none
            entry["targets"] = targets
        _stated_state(draw, entry, cards[card])
    elif action == "return":
        entry["return"] = targets or [draw(st.sampled_from(names))]
        entry["by"] = draw(st.sampled_from(by_kind["return"]))
        _stated_state(draw, entry, cards[entry["by"]])
    elif action == "negate":
        entry["negate"] = draw(st.sampled_from(uses))["id"]
        entry["by"] = draw(st.sampled_from(by_kind["negate"]))
        _stated_state(draw, entry, cards[entry["by"]])
    elif action == "enter_battle":
        entry["enter_battle"] = targets or [draw(st.sampled_from(names))]
        role = _maybe(draw, st.sampled_from(ROLES), 3)
        if role:
            entry["role"] = role
        opposing = _maybe(draw, st.sampled_from(ROLES), 3)
        if opposing:
            entry["opposing_role"] = opposing
    elif action == "end_battle":
        entry["end_battle"] = True
    elif action == "discard_other":
        entry["discard"] = targets or [draw(st.sampled_from(names))]
        entry["cause"] = draw(st.sampled_from(CAUSES[1:]))
    elif action == "discard_by":
        entry["discard"] = targets or [draw(st.sampled_from(names))]
        entry["by"] = draw(st.sampled_from(by_kind["discard"]))
    else:
        entry["choose_return"] = draw(st.sampled_from(set_asides))["id"]
    if draw(st.integers(1, 5)) == 1:
        entry["player"] = draw(st.sampled_from(PLAYERS))
    return entry


def _steps(turns: int, attempts: list[dict[str, Any]]) -> list[str]:
    out = [f"at({t}, {p})" for t in range(1, turns + 1) for p in PHASES]
    out += [f"step_of({a['id']})" for a in attempts]
    return out


@st.composite
def _question(draw: Any, turns: int, cards: list[str], attempts: list[dict[str, Any]]) -> str:
    forms = ["card_step", "card_step", "step"]
    if attempts:
        forms += ["attempt", "attempt", "attempt_card", "attempt_card", "sequence", "attempt_step"]
    form = draw(st.sampled_from(forms))
    if form == "card_step":
        symbol = draw(st.sampled_from(("zone", "zone", "zone_of", "controller", "moved", "poisoned", "healed",
                                       "has_gained_ability", "being_discarded", "diseased")))
        return f"{symbol}({draw(st.sampled_from(cards))}, {draw(st.sampled_from(_steps(turns, attempts)))})"
    if form == "step":
        return f"battle_ongoing({draw(st.sampled_from(_steps(turns, attempts)))})"
    x = draw(st.sampled_from(attempts))["id"]
    if form == "attempt":
        symbol = draw(st.sampled_from(("legal", "legal", "negated", "on_return_fires", "scheduled_return",
                                       "paired_ends", "blocked", "counts_own_upkeep", "prevented")))
        return f"{symbol}({x})"
    if form == "attempt_card":
        symbol = draw(st.sampled_from(("set_aside", "return_step", "legal_target", "premature",
                                       "discard_completes", "participates", "battle_role")))
        return f"{symbol}({x}, {draw(st.sampled_from(cards))})"
    if form == "attempt_step":  # definitions worked out where a question reads them
        symbol = draw(st.sampled_from(("paired_active", "discard_suspended")))
        return f"{symbol}({x}, {draw(st.sampled_from(_steps(turns, attempts)))})"
    return f"activation_order({x})"


# the fields of the later sections' vocabulary a generated case may hold (counted by the differential run)
SECTION_FIELDS = ("alignment", "traits", "owner", "brigade", "target_type", "target_alignment", "target_traits",
                  "target_count", "targets_own", "limit", "negates", "inflicts", "cannot_be_negated",
                  "cannot_be_interrupted", "cannot_be_prevented", "negate", "played_in_battle", "if_state",
                  "offers_a_price", "state_holds")


def case_texts(max_turns: int = 2) -> st.SearchStrategy[str]:
    """The text of a small random case file: anything at all, or a set-aside story."""
    return st.one_of(_random_case(max_turns), _set_aside_story(max_turns))


@st.composite
def _set_aside_story(draw: Any, max_turns: int) -> str:
    """alice plays a set-aside enhancement on her Hero; bob may answer; the timeline goes on."""
    turns = min(draw(st.sampled_from((1, 1, 1, 2))), max_turns)
    ability = draw(_ability([]))
    ability["kind"] = "set aside"
    hero: dict[str, Any] = {"type": "Hero", "brigade": ["Green"]}
    if draw(st.integers(1, 4)) == 1:
        hero[draw(st.sampled_from(("poisoned", "diseased", "territory_class")))] = True
    cards: dict[str, dict[str, Any]] = {
        "abel": hero,
        "boaz": {"type": draw(st.sampled_from(("GE", "GE", "Hero"))), "brigade": ["Green"], "abilities": [ability]},
    }
    answer = draw(st.sampled_from((None, "negate", "return", "discard")))
    if answer:
        kind = {"negate": "negate", "return": "return", "discard": "discard"}[answer]
        cards["caleb"] = {"type": draw(st.sampled_from(CHARACTERS)), "owner": draw(st.sampled_from(PLAYERS)),
                          "abilities": [{"kind": kind}]}
    play_turn, play_phase = 1, draw(st.sampled_from((2, 2, 2, 3, 0)))
    verb = "play" if cards["boaz"]["type"] == "GE" else "activate"
    attempts: list[dict[str, Any]] = [{"id": "x1", "turn": play_turn, "phase": PHASES[play_phase], verb: "boaz",
                                       **({"on": "abel"} if verb == "play" else {}), "targets": ["abel"]}]
    _stated_state(draw, attempts[0], cards["boaz"])
    if answer == "negate" and draw(st.booleans()):  # bob's negate in the phase of the set-aside, its likeliest time
        attempts.append({"id": "x2", "turn": play_turn, "phase": PHASES[play_phase], "negate": "x1", "by": "caleb"})
    later = sorted(draw(st.lists(st.tuples(st.integers(1, turns), st.sampled_from((0, 2, 2, 3, 4))), max_size=2)))
    for turn, phase in later:
        if (turn, phase) < (play_turn, play_phase):
            continue
        options = ["choose_return", "enter_battle", "end_battle"]
        if answer == "negate":
            options += ["negate"] * 4
        elif answer == "return":
            options += ["return", "return"]
        elif answer == "discard":
            options.append("discard")
        action = draw(st.sampled_from(options))
        entry: dict[str, Any] = {"id": f"x{len(attempts) + 1}", "turn": turn, "phase": PHASES[phase]}
        if action == "choose_return":
            entry["choose_return"] = "x1"
        elif action == "enter_battle":
            entry["enter_battle"] = ["abel"]
        elif action == "end_battle":
            entry["end_battle"] = True
        elif action == "negate":
            entry.update(negate="x1", by="caleb")
        else:
            entry.update({action: ["abel"], "by": "caleb"})
        attempts.append(entry)
    questions = draw(st.lists(_question(turns, list(cards), attempts), min_size=1, max_size=4, unique=True))
    return _text(turns, cards, attempts, questions)


@st.composite
def _random_case(draw: Any, max_turns: int) -> str:
    """Cards, attempts and questions drawn with few constraints."""
    turns = min(draw(st.sampled_from((1, 1, 1, 2))), max_turns)
    n_cards = draw(st.integers(1, 3))
    names = list(CARD_NAMES[:n_cards])
    # A coherent case: one brigade, mostly alice's cards where they start, attempts mostly in
    # Preparation Phases, so that more attempts are legal and set-asides really happen.
    coherent = draw(st.booleans())
    cards = {n: draw(_card(n, names, coherent)) for n in names}
    n_attempts = draw(st.sampled_from((0, 1, 1, 2, 2, 3)))
    phases = st.sampled_from((0, 1, 2, 2, 2, 3, 4)) if coherent else st.integers(0, 4)
    when = sorted(draw(st.lists(st.tuples(st.integers(1, turns), phases),
                                min_size=n_attempts, max_size=n_attempts)))
    attempts: list[dict[str, Any]] = []
    for i, (turn, phase) in enumerate(when, 1):
        entry = draw(_attempt(i, turns, cards, attempts))
        attempts.append({"id": entry.pop("id"), "turn": turn, "phase": PHASES[phase], **entry})
    questions = draw(st.lists(_question(turns, names, attempts), min_size=1, max_size=4, unique=True))
    return _text(turns, cards, attempts, questions)


def _text(turns: int, cards: dict[str, dict[str, Any]], attempts: list[dict[str, Any]], questions: list[str]) -> str:
    lines = ["title: a random case", "players: [alice, bob]", f"turns: {turns}", "cards:"]
    for n, card in cards.items():
        lines.append(f"  {n}:")
        lines += [f"    {k}: {_yaml(v)}" for k, v in card.items()]
    if attempts:
        lines.append("timeline:")
        for a in attempts:
            first, *rest = a.items()
            lines.append(f"  - {first[0]}: {_yaml(first[1])}")
            lines += [f"    {k}: {_yaml(v)}" for k, v in rest]
    lines.append("questions:")
    lines += [f"  q{i}: {q}" for i, q in enumerate(questions, 1)]
    return "\n".join(lines) + "\n"


def _yaml(value: Any) -> str:
    """A value written in YAML's flow style."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_yaml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_yaml(v)}" for k, v in value.items()) + "}"
    return str(value)
