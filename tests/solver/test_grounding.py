"""Grounding: rules instantiated over a scenario's finite sorts, folded where the structure is known."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from verifier.errors import EncodingError
from verifier.language.encoding import RuleBase
from verifier.scenario.loader import load_case
from verifier.scenario.model import Fact, Scenario
from verifier.solver.grounding import (
    GroundedBase,
    Grounding,
    RuleInstance,
    Term,
    ground,
    mentioned,
    second_copy,
)

BASE = """\
title: grounding
players: [alice, bob]
turns: 2
cards:
  elijah:
    type: Hero
    brigade: Green
  moses:
    type: Hero
    brigade: Green
  provisions:
    card: Provisions
timeline:
  - id: play_provisions
    turn: 1
    phase: Preparation
    play: provisions
    on: elijah
    targets: [elijah]
  - id: attack
    turn: 1
    phase: Battle
    enter_battle: [moses]
questions:
"""


@pytest.fixture
def grounded(make_case: Callable[..., Scenario], rule_base: RuleBase) -> Callable[..., tuple[Scenario, Grounding]]:
    """Ground the base scenario with the given questions (name: expression)."""

    def run(**questions: str) -> tuple[Scenario, Grounding]:
        body = "".join(f"  {name}: {text}\n" for name, text in questions.items()) or "  q: legal(attack)\n"
        sc = make_case(BASE + body)
        return sc, ground(sc, rule_base)

    return run


def term_of(g: Grounding, name: str) -> Term:
    """The question's term (a question of one value has one term)."""
    found: object = g.questions[name]
    if isinstance(found, tuple) and not isinstance(found, Term):
        assert len(found) == 1
        found = found[0]
    assert isinstance(found, Term)
    return found


def question(grounded: Callable[..., tuple[Scenario, Grounding]], text: str) -> Term:
    return term_of(grounded(q=text)[1], "q")


# -- constant folding -------------------------------------------------------------------------

FOLDED = [
    ("1 + 2 == 3", True),
    ("1 - 2", -1),
    ("-(3) + 1", -2),
    ("phase_of(step_of(play_provisions)) == Preparation", True),
    ("phase_of(step_of(attack)) == Preparation", False),
    ("attempt_kind(play_provisions) in (activate_ability, play_card)", True),
    ("attempt_kind(attack) in (activate_ability, play_card)", False),
    ("attempt_kind(attack) in ()", False),
    ("card_of(play_provisions) == provisions", True),
    ("source(provisions_a1) == provisions", True),
    ("active_player(at(2, Draw)) == bob", True),
    ("turn_of(at(2, Battle)) == 2", True),
    ("step_of(attack) > step_of(play_provisions)", True),
    # turn 1: Draw, Upkeep, Preparation, play_provisions, Battle, attack, ...
    ("step_of(play_provisions) == 3", True),
    ("step_of(attack) == 5", True),
    ("count(phase_start(t) for t in steps if turn_of(t) == 1)", 5),
    ("count(not phase_start(t) for t in steps)", 2),
    ("all(phase_of(t) != Upkeep for t in steps if t < 1)", True),
    ("any(attempt_kind(y) == enter_battle for y in attempts)", True),
    ("Battle if turn_of(at(1, Draw)) == 1 else Draw", "Battle"),
    ("never > step_of(attack)", True),
    ("implies(False, legal(attack))", True),
    ("implies(True, True)", True),
    # a known operand decides and/or, whatever the unknown ones are
    ("legal(play_provisions) or True", True),
    ("False and legal(play_provisions)", False),
    ("legal(play_provisions) and phase_of(step_of(attack)) == Draw", False),
    ("not (1 == 2)", True),
]

GUARDED = [
    "attempt_kind(attack) == play_card and card_of(attack) == elijah",
    "attempt_kind(attack) != enter_battle and played_on(attack) == elijah",
    "attempt_kind(attack) == enter_battle or ability_of(attack) == provisions_a1",
    "implies(attempt_kind(attack) == play_card, card_of(attack) == elijah)",
    "card_of(attack) == elijah if attempt_kind(attack) == play_card else False",
    "any(card_of(y) == provisions for y in attempts if attempt_kind(y) == play_card)",
    "all(zone(elijah, t - 1) == zone(elijah, t) for t in steps if t > 0 and t < 3)",
    "step_of(attack) > 100 and zone(elijah, step_of(attack) + 100) == hand",
]


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory, rule_base: RuleBase) -> tuple[Scenario, Grounding]:
    """The base scenario grounded once with every folding and guard question (not to be changed)."""
    from verifier.scenario.loader import load_case

    body = "".join(f"  f{i}: {text}\n" for i, (text, _) in enumerate(FOLDED))
    body += "".join(f"  g{i}: {text}\n" for i, text in enumerate(GUARDED))
    path = tmp_path_factory.mktemp("grounding") / "case.yaml"
    path.write_text(BASE + body, encoding="utf-8")
    sc = load_case(path, rule_base, display="case.yaml")
    return sc, ground(sc, rule_base)


@pytest.fixture(scope="module")
def many(base: tuple[Scenario, Grounding]) -> Grounding:
    return base[1]


@pytest.mark.parametrize(("index", "text", "value"), [(i, t, v) for i, (t, v) in enumerate(FOLDED)],
                         ids=[t for t, _ in FOLDED])
def test_constant_folding(many: Grounding, index: int, text: str, value: object) -> None:
    term = term_of(many, f"f{index}")
    assert term.known, f"{text} should fold to a value"
    assert term.const == value


def test_folded_questions_add_nothing_to_the_solver(grounded: Callable[..., tuple[Scenario, Grounding]]) -> None:
    _sc, g = grounded(q="1 + 2 == 3")
    assert term_of(g, "q").known
    assert not any("|q:q|" in b for b in g.background)


def test_open_question_is_a_named_solver_term(grounded: Callable[..., tuple[Scenario, Grounding]]) -> None:
    _sc, g = grounded(q="legal(play_provisions) and True")
    term = term_of(g, "q")
    assert not term.known and term.type == "bool"
    # the known operand is dropped: the question is exactly the outcome constant
    legal = next(n for n, r in g.constants.items() if r.display == "legal(play_provisions)")
    assert legal.startswith("|o:")
    assert f"(= |q:q| {legal})" in g.background


def test_unknown_condition_keeps_both_branches(grounded: Callable[..., tuple[Scenario, Grounding]]) -> None:
    _sc, g = grounded(q="zone(elijah, 0) if legal(play_provisions) else hand")
    assert not term_of(g, "q").known
    assert any(b.startswith("(= |q:q| (ite ") for b in g.background)


# -- short-circuit guards ---------------------------------------------------------------------


@pytest.mark.parametrize(("index", "text"), list(enumerate(GUARDED)), ids=GUARDED)
def test_guards_keep_undefined_values_out(many: Grounding, index: int, text: str) -> None:
    # grounding `many` raised nothing: each guard kept its undefined value from being read
    assert f"g{index}" in many.questions


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("card_of(attack) == elijah",
         "card_of(attack) has no value: attempt 'attack' (enter battle) has none; guard the use with attempt_kind(...)"),
        ("played_on(attack) == elijah",
         "played_on(attack) has no value: attempt 'attack' (enter battle) has none; guard the use with attempt_kind(...)"),
        ("zone(elijah, 0 - 1) == hand",
         "zone(...) is applied to step -1, outside the timeline (guard it with a condition on the step)"),
        ("zone(elijah, step_of(attack) + 100) == hand",
         "zone(...) is applied to step 105, outside the timeline (guard it with a condition on the step)"),
        ("phase_of(never) == Draw", "phase_of(12) has no value: the step is outside the timeline"),
        ("at(9, Draw) > 0", "at(9, Draw) has no value: turn 9 is not in the timeline"),
    ],
)
def test_unguarded_undefined_values_are_errors(grounded: Callable[..., tuple[Scenario, Grounding]],
                                               text: str, message: str) -> None:
    with pytest.raises(EncodingError) as info:
        question(grounded, text)
    assert info.value.message == message
    assert info.value.location is not None
    assert info.value.location.path == "case.yaml"
    assert info.value.location.line == BASE.count("\n") + 1


# -- rule instances and facts -------------------------------------------------------------------


def labels(g: Grounding) -> dict[str, RuleInstance]:
    return {t.origin.label: t.origin for t in g.tracked if isinstance(t.origin, RuleInstance)}


def test_instance_labels(base: tuple[Scenario, Grounding]) -> None:
    _sc, g = base
    found = labels(g)
    inst = found["SA-4[x=play_provisions, c=elijah]"]
    assert inst.rule.id == "SA-4"
    assert inst.binding == (("x", "play_provisions"), ("c", "elijah"))
    assert inst.sentence == inst.rule.says.format(x="play_provisions", c="elijah")
    assert "elijah" in inst.sentence and "{" not in inst.sentence
    # steps are shown by their labels on the timeline
    assert "CORE-2[c=elijah, s=turn 1 Upkeep (alice)]" in found
    assert "CORE-2[c=moses, s=turn 1 Battle (alice), attack]" in found


def test_label_without_variables(rule_base: RuleBase) -> None:
    rule = rule_base.rules[0]
    assert RuleInstance(rule, ()).label == rule.id
    assert RuleInstance(rule, (("x", "a"), ("c", "b"))).label == f"{rule.id}[x=a, c=b]"


def test_instances_cover_every_binding(base: tuple[Scenario, Grounding], rule_base: RuleBase) -> None:
    sc, g = base
    # CORE-3 ({c: card}) cannot fold: it pins each card's start to inputs
    core3 = [lbl for lbl in labels(g) if lbl.startswith("CORE-3[")]
    assert sorted(core3) == sorted(f"CORE-3[c={c.name}]" for c in sc.cards)


def test_only_active_rules_are_grounded(base: tuple[Scenario, Grounding], rule_base: RuleBase) -> None:
    _sc, g = base
    grounded_ids = {i.rule.id for i in labels(g).values()}
    assert not any(rule_base.rule(r).interpretation for r in grounded_ids)


def test_no_tracked_assertion_is_trivially_true(base: tuple[Scenario, Grounding]) -> None:
    _sc, g = base
    assert all(t.body != "true" for t in g.tracked)
    names = [t.name for t in g.tracked]
    assert len(names) == len(set(names))


def test_inputs_are_solver_constants_pinned_by_facts(base: tuple[Scenario, Grounding]) -> None:
    sc, g = base
    facts = [t for t in g.tracked if isinstance(t.origin, Fact)]
    assert len(facts) == len(sc.facts)
    by_name = {t.origin.name: t for t in facts}  # type: ignore[union-attr]
    card_type = by_name["card_type(elijah)"]
    hero = g.names["card_type"].index("Hero")
    solver_name = {r.display: n for n, r in g.constants.items()}
    assert card_type.body == f"(= {solver_name['card_type(elijah)']} {hero})"
    assert solver_name["card_type(elijah)"].startswith("|i:")
    # rules read the input, not a value baked in: CORE-3 for elijah mentions the start-zone input
    core3 = next(t for t in g.tracked if isinstance(t.origin, RuleInstance) and t.origin.label == "CORE-3[c=elijah]")
    assert solver_name["start_zone(elijah)"] in core3.body


def test_facts_keep_their_case_lines(base: tuple[Scenario, Grounding]) -> None:
    sc, _g = base
    fact = next(f for f in sc.facts if f.name == "card_type(elijah)")
    assert (fact.loc.path, fact.loc.line) == ("case.yaml", BASE.splitlines().index("  elijah:") + 1)
    assert not fact.default


def test_second_copy_shares_inputs_and_choices(grounded: Callable[..., tuple[Scenario, Grounding]]) -> None:
    _sc, g = grounded(q="legal(play_provisions)")
    before = set(g.constants)
    bodies = second_copy(g)
    added = set(g.constants) - before
    assert bodies
    assert added and all(name.startswith("|o2:") for name in added)
    assert "@2:q" in g.questions
    assert not any("|o:" in b or "|od:" in b for b in bodies)


CASES = Path(__file__).resolve().parents[2] / "cases"


@pytest.mark.parametrize("case", sorted(p.relative_to(CASES).as_posix() for p in CASES.rglob("*.yaml")))
def test_second_copy_is_the_first_renamed_and_fully_declared(case: str, rule_base: RuleBase) -> None:
    sc = load_case(CASES / case, rule_base)
    g = ground(sc, rule_base)
    first = [t.body for t in g.tracked if isinstance(t.origin, RuleInstance)]
    background = len(g.background)
    bodies = second_copy(g)
    back = {"|o2:": "|o:", "|o2d:": "|od:", "|q2:": "|q:"}
    assert [re.sub(r"\|(o2|o2d|q2):", lambda m: back[m.group(0)], b) for b in bodies] == first
    declared = set(g.constants) | set(g.derived)
    for text in bodies + g.background[background:]:
        assert mentioned(text) <= declared
        assert not re.search(r"\|(o|od|q):", text)
    for q in sc.questions:
        assert [t.known for t in g.questions["@2:" + q.name]] == [t.known for t in g.questions[q.name]]


def test_grounding_is_deterministic(make_case: Callable[..., Scenario], rule_base: RuleBase) -> None:
    sc = make_case(BASE + "  q: legal(play_provisions)\n")
    one, two = ground(sc, rule_base), ground(sc, rule_base)
    assert [(t.name, t.body) for t in one.tracked] == [(t.name, t.body) for t in two.tracked]
    assert one.background == two.background


def test_value_names_are_numbered_per_type(base: tuple[Scenario, Grounding]) -> None:
    sc, g = base
    assert g.names["player"] == ("alice", "bob")
    assert g.names["card"] == tuple(c.name for c in sc.cards)
    assert g.encode("zone", "hand") == g.names["zone"].index("hand")
    assert g.decode("zone", g.encode("zone", "hand")) == "hand"
    assert g.decode("player", 7) == "<7>"
    assert g.encode("bool", True) is True


KEPT_CASES = sorted((Path(__file__).resolve().parents[2] / "cases").rglob("*.yaml"))[::15]


@pytest.mark.parametrize("path", KEPT_CASES, ids=lambda p: p.stem)
def test_a_scenario_grounded_from_its_kept_base_is_grounded_as_afresh(rule_base: RuleBase, path: Path) -> None:
    sc = load_case(path, rule_base)
    kept: list[GroundedBase] = []
    without = ground(sc._replace(questions=()), rule_base, keep=kept)
    assert kept and not without.questions
    assert kept[0].serves(sc, rule_base)
    assert ground(sc, rule_base, base=kept[0]) == ground(sc, rule_base)
    # the base is a copy: grounding from it, or adding to what was grounded, leaves it as it was
    without.background.append("true")
    assert ground(sc, rule_base, base=kept[0]) == ground(sc, rule_base)


def test_a_kept_base_serves_only_its_own_scenario(rule_base: RuleBase) -> None:
    sc = load_case(KEPT_CASES[0], rule_base)
    kept: list[GroundedBase] = []
    ground(sc, rule_base, keep=kept)
    other = sc._replace(facts=sc.facts[1:])
    assert not kept[0].serves(other, rule_base)
    assert ground(other, rule_base, base=kept[0]) == ground(other, rule_base)
