"""Type checking of rule-language expressions: names, arity, argument and operator types."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from verifier.errors import InputError, Location
from verifier.language.encoding import RuleBase
from verifier.language.syntax import SourceText, parse_expression
from verifier.language.types import TypeScope, compatible, infer
from verifier.vocabulary import DOMAINS, SYMBOLS, TYPE_NAMES, VALUE_SETS

VARIABLES = {"c": "card", "s": "step", "x": "attempt", "t": "turn", "p": "player", "a": "ability"}


@pytest.fixture
def scope(rule_base: RuleBase) -> TypeScope:
    """The real definitions, plus two named things of a scenario."""
    return TypeScope(rule_base.definitions, {"elijah": "card", "alice": "player"}, InputError)


def type_of(text: str, scope: TypeScope, variables: Mapping[str, str] = VARIABLES) -> str:
    expr = parse_expression(text, SourceText("f.yaml", 1, 0), InputError)
    return infer(expr, variables, scope)


def type_error(text: str, scope: TypeScope, variables: Mapping[str, str] = VARIABLES) -> InputError:
    with pytest.raises(InputError) as info:
        type_of(text, scope, variables)
    return info.value


# -- well-typed expressions ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("True", "bool"),
        ("3", "int"),
        ("hand", "zone"),
        ("Upkeep", "phase"),
        ("Gold", "brigade"),
        ("Hero", "card_type"),
        ("c", "card"),
        ("elijah", "card"),
        ("alice", "player"),
        ("never", "step"),
        ("zone(c, s)", "zone"),
        ("zone_of(elijah, s)", "player"),
        ("legal(x)", "bool"),
        ("step_of(x)", "step"),
        ("step_of(x) + 1", "step"),
        ("1 + step_of(x)", "step"),
        ("s - 1", "step"),
        ("s - step_of(x)", "int"),
        ("t + 1", "turn"),
        ("-3", "int"),
        ("s > 0 and not legal(x)", "bool"),
        ("s == 0", "bool"),
        ("s < never", "bool"),
        ("zone(c, s) in (hand, territory)", "bool"),
        ("hand if legal(x) else territory", "zone"),
        ("s if legal(x) else 0", "step"),
        ("0 if legal(x) else s", "step"),
        ("implies(legal(x), negated(x))", "bool"),
        ("all(zone(d, s) == hand for d in cards)", "bool"),
        ("any(legal(y) for y in attempts if step_of(y) < s)", "bool"),
        ("count(phase_start(u) for u in steps)", "int"),
        ("count(phase_start(u) for u in steps) >= duration_turns(a)", "bool"),
        ("any(has_brigade(c, b) for b in brigades)", "bool"),
        ("at(1, Preparation)", "step"),
        # definitions from the encodings are used like symbols
        ("character(c)", "bool"),
        ("before(x)", "step"),
        ("in_play(zone(c, s))", "bool"),
    ],
)
def test_types(text: str, expected: str, scope: TypeScope) -> None:
    assert type_of(text, scope) == expected


def test_compatible() -> None:
    assert compatible("step", "int")
    assert compatible("turn", "int")
    assert not compatible("int", "step")
    assert not compatible("step", "turn")
    assert compatible("zone", "zone")
    assert not compatible("zone", "player")


def test_vocabulary_is_consistent() -> None:
    # every symbol's argument and result types are types the checker knows
    for sym in SYMBOLS.values():
        assert sym.result in TYPE_NAMES, sym
        assert all(p in TYPE_NAMES for p in sym.params), sym
    assert set(DOMAINS.values()) <= set(TYPE_NAMES)
    members = [m for ms in VALUE_SETS.values() for m in ms]
    assert len(members) == len(set(members)), "value-set members must be unique across sets"


# -- unknown names, with a suggestion -----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("zone(c, s) == hnad", "unknown name 'hnad' (did you mean 'hand'?)"),
        ("zone(c, s) == territroy", "unknown name 'territroy' (did you mean 'territory'?)"),
        ("owner(elijha) == alice", "unknown name 'elijha' (did you mean 'elijah'?)"),
        ("zone(c, s) == qqqqqq", "unknown name 'qqqqqq'"),
        ("zoen(c, s) == hand", "unknown function 'zoen' (did you mean 'zone'?)"),
        ("charcter(c)", "unknown function 'charcter' (did you mean 'character'?)"),
        ("implie(legal(x), True)", "unknown function 'implie' (did you mean 'implies'?)"),
        ("all(True for d in crads)", "unknown domain 'crads' (did you mean 'cards'?)"),
        ("all(True for d in widgets)", "unknown domain 'widgets'"),
    ],
)
def test_unknown_names(text: str, message: str, scope: TypeScope) -> None:
    assert type_error(text, scope).message == message


def test_symbol_used_without_arguments(scope: TypeScope) -> None:
    assert type_error("legal", scope).message == "'legal' needs arguments: write legal(...)"
    assert type_error("character", scope).message == "'character' needs arguments: write character(...)"


def test_quantifier_variable_may_not_hide_a_name(scope: TypeScope) -> None:
    assert type_error("all(True for c in cards)", scope).message == "variable 'c' hides another name; pick a new one"
    assert type_error("all(True for hand in cards)", scope).message == (
        "variable 'hand' hides another name; pick a new one")
    assert type_error("all(True for zone in cards)", scope).message == (
        "variable 'zone' hides another name; pick a new one")


# -- arity and types ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("zone(c)", "zone takes 2 argument(s), got 1"),
        ("legal(x, x)", "legal takes 1 argument(s), got 2"),
        ("implies(True)", "implies takes 2 argument(s), got 1"),
        ("character()", "character takes 1 argument(s), got 0"),
        ("at(1)", "at takes 2 argument(s), got 1"),
        ("never(1)", "never takes 0 argument(s), got 1"),
    ],
)
def test_arity(text: str, message: str, scope: TypeScope) -> None:
    assert type_error(text, scope).message == message


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("zone(s, c)", "argument 1 of zone must be card, got step"),
        ("zone(c, hand)", "argument 2 of zone must be step, got zone"),
        ("zone(c, t)", "argument 2 of zone must be step, got turn"),
        ("legal(c)", "argument 1 of legal must be attempt, got card"),
        ("character(alice)", "argument 1 of character must be card, got player"),
        ("implies(1, True)", "argument 1 of implies must be bool, got int"),
        ("zone(c, s) == alice", "cannot compare zone with player"),
        ("s == t", "cannot compare step with turn"),
        ("hand < territory", "'<' compares numbers, steps or turns, got zone and zone"),
        ("legal(x) + 1", "'+' needs numbers, steps or turns, got bool and int"),
        ("s + t", "cannot combine step and turn with '+'"),
        ("1 - s", "cannot combine int and step with '-'"),
        ("not s", "the operand of 'not' must be bool, got step"),
        ("-legal(x)", "the operand of '-' must be int, got bool"),
        ("legal(x) and s", "each operand of 'and' must be bool, got step"),
        ("s or legal(x)", "each operand of 'or' must be bool, got step"),
        ("hand if s else territory", "the condition must be bool, got step"),
        ("hand if legal(x) else alice", "both branches must have one type, got zone and player"),
        ("zone(c, s) in (hand, alice)", "each listed value must be zone, got player"),
        ("all(zone(d, s) for d in cards)", "the body of all(...) must be bool, got zone"),
        ("count(s for d in cards)", "the body of count(...) must be bool, got step"),
        ("any(True for d in cards if zone(d, s))", "the 'if' condition must be bool, got zone"),
    ],
)
def test_type_mismatch(text: str, message: str, scope: TypeScope) -> None:
    assert type_error(text, scope).message == message


def test_error_points_at_the_offending_argument(scope: TypeScope) -> None:
    expr = parse_expression("legal(x) and zone(c, hand) == territory", SourceText("f.yaml", 4, 6), InputError)
    with pytest.raises(InputError) as info:
        infer(expr, VARIABLES, scope)
    assert info.value.message == "argument 2 of zone must be step, got zone"
    assert info.value.location == Location("f.yaml", 4, 28)


def test_unknown_name_points_at_the_name(scope: TypeScope) -> None:
    expr = parse_expression("  legal(x)\n  and zone(c, s) == hnad", SourceText("f.yaml", 9, 0), InputError)
    with pytest.raises(InputError) as info:
        infer(expr, VARIABLES, scope)
    assert info.value.location == Location("f.yaml", 10, 21)


def test_scope_error_class_is_used(rule_base: RuleBase) -> None:
    from verifier.errors import CaseError

    scope = TypeScope(rule_base.definitions, {}, CaseError)
    with pytest.raises(CaseError):
        type_of("zoen(c, s)", scope)
