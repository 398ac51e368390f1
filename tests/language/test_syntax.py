"""The rule language's expression syntax: what it accepts, what it refuses, and where it says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from verifier.errors import EncodingError, InputError, Location
from verifier.language.encoding import parse_at
from verifier.language.syntax import (
    MAX_LENGTH,
    QUANTIFIERS,
    Arith,
    BoolOp,
    Call,
    Compare,
    Const,
    Expr,
    IfElse,
    InSet,
    Name,
    Neg,
    Not,
    Quant,
    SourceText,
    parse_expression,
)
from verifier.yamlsource import YMap, load_yaml


def one_of(words: tuple[str, ...]) -> str:
    """'a, b or c', as the messages list the quantifiers."""
    return ", ".join(words[:-1]) + " or " + words[-1]


def parse(text: str, line: int = 1, column: int = 0, block: bool = False) -> Expr:
    """Parse as if the text sat in file `f.yaml` at `line`, starting after `column` characters."""
    if block:
        # A block's lines stand in the file indented by `column`: parse them as written there.
        text = "\n".join(" " * column + part if part else part for part in text.split("\n"))
        return parse_expression(text, SourceText("f.yaml", line, 0), InputError)
    return parse_expression(text, SourceText("f.yaml", line, column), InputError)


def error_of(text: str, line: int = 1, column: int = 0, block: bool = False) -> InputError:
    with pytest.raises(InputError) as info:
        parse(text, line, column, block)
    return info.value


# -- accepted constructs ------------------------------------------------------------------


def test_name_and_literals() -> None:
    assert isinstance(parse("hand"), Name)
    assert parse("hand").id == "hand"  # type: ignore[attr-defined]
    assert parse("True") == Const(Location("f.yaml", 1, 1), True)
    assert parse("False").value is False  # type: ignore[attr-defined]
    assert parse("42").value == 42  # type: ignore[attr-defined]
    assert parse("1000000").value == 1_000_000  # type: ignore[attr-defined]


def test_call_with_nested_arguments() -> None:
    e = parse("zone(c, step_of(x))")
    assert isinstance(e, Call) and e.func == "zone"
    assert isinstance(e.args[0], Name) and e.args[0].id == "c"
    inner = e.args[1]
    assert isinstance(inner, Call) and inner.func == "step_of" and len(inner.args) == 1


def test_call_without_arguments() -> None:
    e = parse("f()")
    assert isinstance(e, Call) and e.args == ()


def test_logical_operators() -> None:
    e = parse("a and b and c")
    assert isinstance(e, BoolOp) and e.op == "and" and len(e.operands) == 3
    e = parse("a or not b")
    assert isinstance(e, BoolOp) and e.op == "or"
    assert isinstance(e.operands[1], Not)


def test_negation_and_arithmetic() -> None:
    e = parse("-s + 1 - t")
    assert isinstance(e, Arith) and e.op == "-"
    assert isinstance(e.left, Arith) and e.left.op == "+"
    assert isinstance(e.left.left, Neg)


@pytest.mark.parametrize("op", ["==", "!=", "<", "<=", ">", ">="])
def test_each_comparison(op: str) -> None:
    e = parse(f"s {op} t")
    assert isinstance(e, Compare) and e.op == op


def test_chained_comparison_is_a_conjunction() -> None:
    e = parse("a < s <= b")
    assert isinstance(e, BoolOp) and e.op == "and"
    first, second = e.operands
    assert isinstance(first, Compare) and first.op == "<"
    assert isinstance(second, Compare) and second.op == "<="
    assert first.right == second.left


def test_conditional_expression() -> None:
    e = parse("field_of_battle if in_battle(x) else territory")
    assert isinstance(e, IfElse)
    assert isinstance(e.cond, Call) and e.cond.func == "in_battle"


@pytest.mark.parametrize("text", ["z in (hand, territory)", "z in [hand, territory]"])
def test_membership_in_a_written_list(text: str) -> None:
    e = parse(text)
    assert isinstance(e, InSet) and len(e.options) == 2


def test_not_in_is_negated_membership() -> None:
    e = parse("z not in (hand, territory)")
    assert isinstance(e, Not) and isinstance(e.operand, InSet) and len(e.operand.options) == 2


@pytest.mark.parametrize("kind", QUANTIFIERS)
def test_quantifiers(kind: str) -> None:
    e = parse(f"{kind}(zone(c, s) == hand for c in cards)")
    assert isinstance(e, Quant)
    assert (e.kind, e.var, e.domain, e.cond) == (kind, "c", "cards", None)


def test_quantifier_with_condition() -> None:
    e = parse("all(legal(y) for y in attempts if step_of(y) < s and legal(y))")
    assert isinstance(e, Quant) and isinstance(e.cond, BoolOp)


def test_implies_is_an_ordinary_call() -> None:
    e = parse("implies(a, b)")
    assert isinstance(e, Call) and e.func == "implies"


def test_multiline_text_is_one_expression() -> None:
    e = parse("(a\n   and b)\n\n", block=True)
    assert isinstance(e, BoolOp)


def test_outer_parentheses_and_blank_edges() -> None:
    assert isinstance(parse("\n\n(a or b)\n"), BoolOp)


# -- refused constructs -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("lambda: 1", "lambda is not part of the rule language"),
        ("card.owner", "attribute access is not part of the rule language"),
        ("cards[0]", "indexing is not part of the rule language"),
        ('f"{x}"', "f-strings is not part of the rule language"),
        ("[c for c in cards]", "list comprehension is not part of the rule language"),
        ("{1: 2}", "dictionaries is not part of the rule language"),
        ("(y := 1)", "assignment is not part of the rule language"),
        ("{1, 2}", "Set is not part of the rule language"),
        ("zone(c, s, key=1)", "keyword arguments are not allowed"),
        ("zone(*args)", "starred arguments is not part of the rule language"),
        ("max(c for c in cards)", f"'max(... for ...)' is not a quantifier; use {one_of(QUANTIFIERS)}"),
        ("(c for c in cards)", f"a generator must be the argument of {one_of(QUANTIFIERS)}"),
        ("all(cards)", "all takes one 'expression for variable in domain' argument"),
        ("count(a, b)", "count takes one 'expression for variable in domain' argument"),
        ("all(a for c in cards for d in cards)", "a quantifier ranges over exactly one domain"),
        ("all(a for (c, d) in cards)", "a quantifier binds exactly one variable name"),
        ("all(a for c in f(x))", "a quantifier ranges over a domain name such as cards or steps"),
        ("all(a for c in cards if b if d)", "write one 'if' condition, joined with 'and'"),
        ("1000001", "number 1000001 is too large (at most 1000000)"),
        ("-99999999999999999999", "number 99999999999999999999 is too large (at most 1000000)"),
        ("s == 10**100", "only + and - are allowed in arithmetic"),
        ("1.5", "only whole numbers and True/False may be written, not 1.5"),
        ("'hand'", "only whole numbers and True/False may be written, not 'hand'"),
        ("None", "only whole numbers and True/False may be written, not None"),
        ("~a", "only 'not' and '-' may stand before a value"),
        ("+a", "only 'not' and '-' may stand before a value"),
        ("a * 2", "only + and - are allowed in arithmetic"),
        ("a is b", "unsupported comparison (use ==, !=, <, <=, >, >=, in or not in)"),
        ("a is not b", "unsupported comparison (use ==, !=, <, <=, >, >=, in or not in)"),
        ("a in cards", "'in' must be followed by a written list such as (a, b)"),
        ("f(x)(y)", "only named functions may be called"),
        ("", "expression is empty"),
        ("   \n  ", "expression is empty"),
        ("a ==", "syntax error: invalid syntax"),
        ("zone(c, s", "syntax error: '(' was never closed"),
    ],
)
def test_refused(text: str, message: str) -> None:
    assert error_of(text).message == message


def test_await_and_yield_are_refused() -> None:
    # Not valid outside functions: Python's own parser refuses them, with the place.
    err = error_of("await x")
    assert err.message.startswith("syntax error") or "await" in err.message


def test_too_long() -> None:
    err = error_of("a or " * (MAX_LENGTH // 5) + "b")
    assert err.message == f"expression longer than {MAX_LENGTH} characters"


def test_too_deeply_nested_parentheses() -> None:
    err = error_of("(" * 300 + "a" + ")" * 300)
    assert err.location is not None and err.location.line == 1
    assert "nested" in err.message or err.message.startswith("syntax error")


def test_very_long_conjunction_is_flat_and_accepted() -> None:
    e = parse(" and ".join(["a"] * 800))
    assert isinstance(e, BoolOp) and len(e.operands) == 800


def test_error_factory_decides_the_class() -> None:
    with pytest.raises(EncodingError):
        parse_expression("a.b", SourceText("f.yaml", 1, 0), EncodingError)


# -- exact places of errors ---------------------------------------------------------------


def loc_of(text: str, line: int = 1, column: int = 0, block: bool = False) -> tuple[int, int]:
    err = error_of(text, line, column, block)
    assert err.location is not None and err.location.path == "f.yaml"
    return err.location.line, err.location.column


def test_place_on_a_single_line() -> None:
    # `card.owner` starts right at the expression's first character
    assert loc_of("card.owner") == (1, 1)
    assert loc_of("a and card.owner") == (1, 7)
    assert loc_of("a and card.owner", line=7, column=5) == (7, 12)


def test_place_of_a_too_large_number() -> None:
    assert loc_of("s == 1000001", line=3, column=10) == (3, 16)


def test_place_of_a_keyword_argument_is_the_call() -> None:
    assert loc_of("a or zone(c, s, key=1)", line=2, column=4) == (2, 10)


def test_place_in_a_block_uses_the_text_line() -> None:
    # A block expression starting at file line 10, indented 4 spaces
    text = "legal(x)\nand zone(c, s) == hand\nand card.owner == alice\n"
    assert loc_of(text, line=10, column=4, block=True) == (12, 9)


def test_syntax_error_place_in_a_block() -> None:
    text = "legal(x)\nand and zone(c, s)\n"
    line, column = loc_of(text, line=20, column=6, block=True)
    assert line == 21
    assert column == 11


# -- expressions held in YAML: places relative to the file --------------------------------


def load_expression(tmp_path: Path, body: str, key: str = "q") -> Expr:
    path = tmp_path / "e.yaml"
    path.write_text(body, encoding="utf-8")
    root, text = load_yaml(path, EncodingError, display="e.yaml")
    assert isinstance(root, YMap)
    node = root.get(key)
    assert node is not None
    return parse_at(node, text.splitlines(), EncodingError, key)


def yaml_error_place(tmp_path: Path, body: str) -> tuple[str, int, int]:
    with pytest.raises(EncodingError) as info:
        load_expression(tmp_path, body)
    loc = info.value.location
    assert loc is not None
    return info.value.message, loc.line, loc.column


@pytest.mark.parametrize(
    ("body", "line", "column"),
    [
        # plain scalar
        ("other: 1\nq: a and card.owner\n", 2, 10),
        # double- and single-quoted scalars: the quote is not part of the expression
        ('q: "a and card.owner"\n', 1, 11),
        ("q: 'a and card.owner'\n", 1, 11),
        # flow mapping
        ("{q: card.owner}\n", 1, 5),
        # literal block scalar: line and column inside the block
        ("rule:\n  x: 1\nq: |\n  legal(x)\n  and zone(c, s) == hand\n  and card.owner\n", 6, 7),
        # literal block scalar with leading blank lines and the strip indicator
        ("q: |-\n\n\n    legal(x) and\n      card.owner\n", 5, 7),
        # folded block scalar whose later line is more indented keeps its line
        ("q: >\n    zone(c, s) ==\n      hand and card.owner\n", 3, 16),
    ],
    ids=["plain", "double-quoted", "single-quoted", "flow", "literal-block", "block-strip", "folded-indented"],
)
def test_error_place_in_yaml(tmp_path: Path, body: str, line: int, column: int) -> None:
    message, got_line, got_column = yaml_error_place(tmp_path, body)
    assert message == "attribute access is not part of the rule language"
    assert (got_line, got_column) == (line, column)


def test_error_place_in_folded_block_on_a_later_line(tmp_path: Path) -> None:
    body = "q: >\n  zone(c, s) == hand\n  and card.owner\n"
    assert yaml_error_place(tmp_path, body)[1:] == (3, 7)


def test_error_place_in_multiline_plain_scalar(tmp_path: Path) -> None:
    body = "q: zone(c, s) == hand\n   and card.owner\n"
    assert yaml_error_place(tmp_path, body)[1:] == (2, 8)


def test_error_column_after_non_ascii_text(tmp_path: Path) -> None:
    body = "q: élan and card.owner\n"
    assert yaml_error_place(tmp_path, body)[1:] == (1, 13)


def test_error_column_with_indentation_indicator(tmp_path: Path) -> None:
    body = "k:\n  q: |2\n      a and card.owner\n"
    path = tmp_path / "e.yaml"
    path.write_text(body, encoding="utf-8")
    root, text = load_yaml(path, EncodingError, display="e.yaml")
    assert isinstance(root, YMap)
    inner = root.get("k")
    assert isinstance(inner, YMap)
    node = inner.get("q")
    assert node is not None
    with pytest.raises(EncodingError) as info:
        parse_at(node, text.splitlines(), EncodingError, "q")
    assert info.value.location is not None
    assert (info.value.location.line, info.value.location.column) == (3, 13)


def test_numbers_and_truth_values_in_yaml_are_expressions(tmp_path: Path) -> None:
    assert load_expression(tmp_path, "q: 3\n") == Const(Location("e.yaml", 1, 4), 3)
    e = load_expression(tmp_path, "q: true\n")
    assert isinstance(e, Const) and e.value is True


@pytest.mark.parametrize(("body", "kind"), [("q: [a, b]\n", "a list"), ("q:\n", "nothing"), ("q: {a: 1}\n", "a mapping")])
def test_non_expression_yaml_values(tmp_path: Path, body: str, kind: str) -> None:
    message, line, _column = yaml_error_place(tmp_path, body)
    assert message == f"q must be an expression, got {kind}"
    assert line == 1


def test_python_warnings_stay_out_of_the_output() -> None:
    """`1if` makes Python warn on stderr ("invalid decimal literal"); the parser keeps it quiet."""
    import warnings

    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        parse_expression("1if True else 2", SourceText("q.yaml", 1, 0), InputError)
    assert [str(w.message) for w in seen] == []
