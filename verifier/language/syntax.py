"""The expression syntax of the rule language: a small, declarative subset of Python's.

Expressions are read with Python's own parser (`ast.parse`, never evaluated) and turned into
the node types below; anything outside the subset is an error at its file, line and column.

    implies(set_aside(x, c), zone(c, step_of(x)) == set_aside_area)
    all(zone(c, s) != hand for c in cards if card_type(c) == Hero)
    count(phase_start(t) for t in steps if step_of(x) < t <= s)
"""

from __future__ import annotations

__all__ = [
    "Expr", "Name", "Const", "Call", "Not", "Neg", "BoolOp", "Compare", "Arith", "IfElse",
    "InSet", "Quant", "parse_expression", "SourceText", "EXPR_TYPES", "children", "walk", "step_bound",
]

import ast
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from ..errors import InputError, Location

MAX_LENGTH = 5000
MAX_DEPTH = 100
QUANTIFIERS = ("all", "any", "count", "sum")


class Name(NamedTuple):
    """A bound variable, a named thing of the scenario, or a member of a value set."""

    loc: Location
    id: str


class Const(NamedTuple):
    """A whole number or truth value written literally."""

    loc: Location
    value: int | bool


class Call(NamedTuple):
    """A symbol, definition or built-in applied to arguments."""

    loc: Location
    func: str
    args: tuple[Expr, ...]


class Not(NamedTuple):
    """Logical negation."""

    loc: Location
    operand: Expr


class Neg(NamedTuple):
    """Arithmetic negation."""

    loc: Location
    operand: Expr


class BoolOp(NamedTuple):
    """`and` / `or` over two or more operands."""

    loc: Location
    op: str
    operands: tuple[Expr, ...]


class Compare(NamedTuple):
    """One comparison: ==, !=, <, <=, >, >=."""

    loc: Location
    op: str
    left: Expr
    right: Expr


class Arith(NamedTuple):
    """Addition or subtraction."""

    loc: Location
    op: str
    left: Expr
    right: Expr


class IfElse(NamedTuple):
    """`a if cond else b`."""

    loc: Location
    cond: Expr
    then: Expr
    other: Expr


class InSet(NamedTuple):
    """`x in (a, b, c)`: membership in a written list of values."""

    loc: Location
    item: Expr
    options: tuple[Expr, ...]


class Quant(NamedTuple):
    """`all(...)`, `any(...)` or `count(...)` over one finite domain of the scenario."""

    loc: Location
    kind: str
    body: Expr
    var: str
    domain: str
    cond: Expr | None


# Expression nodes are named tuples: plain, immutable values that are quick to make.
Expr = Name | Const | Call | Not | Neg | BoolOp | Compare | Arith | IfElse | InSet | Quant
EXPR_TYPES = (Name, Const, Call, Not, Neg, BoolOp, Compare, Arith, IfElse, InSet, Quant)


def children(e: Expr) -> list[Expr]:
    """The expressions directly inside `e`."""
    out: list[Expr] = []
    for value in e[1:]:
        if isinstance(value, EXPR_TYPES):
            out.append(value)
        elif isinstance(value, tuple):
            out.extend(v for v in value if isinstance(v, EXPR_TYPES))
    return out


def walk(e: Expr) -> list[Expr]:
    """`e` and every expression inside it."""
    found = [e]
    i = 0
    while i < len(found):
        found.extend(children(found[i]))
        i += 1
    return found


_MIRRORED = {"==": "==", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


def step_bound(q: Quant) -> tuple[str, Expr] | None:
    """For a quantifier over attempts whose condition first compares the attempt's step with an expression `E`
    of names, numbers and sums that does not name the attempt, `(op, E)` such that the condition is false,
    before any other part of it is read, wherever `step_of(attempt) op E` is false; None for any other.

    Only tests of the attempt's kind (`attempt_kind(x) == play_card`, `attempt_kind(x) in (...)`) may come
    before the comparison in the condition's conjunction: they read nothing but the timeline, so leaving
    out an attempt at another step leaves out nothing else. `all(... for x in attempts if step_of(x) == s)`
    thus ranges over the attempts at step `s` alone."""
    if q.domain != "attempts" or q.cond is None:
        return None
    parts = q.cond.operands if isinstance(q.cond, BoolOp) and q.cond.op == "and" else (q.cond,)
    var = q.var

    def is_step(e: Expr) -> bool:
        return (isinstance(e, Call) and e.func == "step_of" and len(e.args) == 1 and isinstance(e.args[0], Name)
                and e.args[0].id == var)

    def plain(e: Expr) -> bool:  # names, numbers and sums of them, none the attempt
        return all(isinstance(n, (Name, Const, Arith)) and not (isinstance(n, Name) and n.id == var) for n in walk(e))

    def kind_test(e: Expr) -> bool:
        return isinstance(e, (Compare, InSet)) and all(
            isinstance(n, (Compare, InSet, Name, Const))
            or (isinstance(n, Call) and n.func == "attempt_kind" and len(n.args) == 1
                and isinstance(n.args[0], Name) and n.args[0].id == var)
            for n in walk(e)) and any(isinstance(n, Call) for n in walk(e))

    for part in parts:
        if isinstance(part, Compare) and part.op in _MIRRORED:
            if is_step(part.left) and plain(part.right):
                return part.op, part.right
            if is_step(part.right) and plain(part.left):
                return _MIRRORED[part.op], part.left
        if not kind_test(part):
            return None
    return None


@dataclass(frozen=True)
class SourceText:
    """Where an expression's text sits in its file: its first line and the column that line starts at.

    Later lines of the text are the file's lines as written, so their columns are the file's. When
    `last_line` is set, the text's line breaks are not all the file's (a quoted YAML scalar may write
    them as escapes): a place past it is given as where the text starts.
    """

    path: str
    line: int
    column: int
    last_line: int = 0


_CMP = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}

_WHAT = {
    ast.Lambda: "lambda", ast.Attribute: "attribute access", ast.Subscript: "indexing",
    ast.ListComp: "list comprehension", ast.Dict: "dictionaries", ast.Starred: "starred arguments",
    ast.NamedExpr: "assignment", ast.JoinedStr: "f-strings", ast.Await: "await",
}


def parse_expression(
    text: str, source: SourceText, error: Callable[[str, Location], InputError]
) -> Expr:
    """Parse one expression of the rule language; raise `error` with the place of any problem."""

    text_lines = re.split(r"\r\n|\r|\n", text)

    def place(lineno: int, col: int) -> Location:
        if lineno > len(text_lines):
            # the closing parenthesis the parser is given on a line of its own: the end of the text
            lineno, col = len(text_lines), len(text_lines[-1].rstrip())
        line = source.line + lineno - 1
        if source.last_line and line > source.last_line:
            return Location(source.path, source.line, source.column + 1)
        return Location(source.path, line, (source.column if lineno == 1 else 0) + col + 1)

    if len(text) > MAX_LENGTH:
        raise error(f"expression longer than {MAX_LENGTH} characters", place(1, 0))
    # Only the line breaks Python knows: str.splitlines() would also break at form feeds and the like.
    stripped = "\n".join(line.rstrip() for line in text_lines)
    if not stripped.strip():
        raise error("expression is empty", place(1, 0))
    wrapped = "(" + stripped + "\n)"
    wrapped_lines = wrapped.split("\n")
    try:
        with warnings.catch_warnings():
            # Python warns on stderr about forms like `1if`; the rule language reports its own errors.
            warnings.simplefilter("ignore")
            tree = ast.parse(wrapped, mode="eval")
    except SyntaxError as exc:
        lineno = exc.lineno or 1
        col = max((exc.offset or 1) - 1 - (1 if lineno == 1 else 0), 0)
        raise error(f"syntax error: {exc.msg}", place(lineno, col)) from None
    except (ValueError, RecursionError, MemoryError):
        raise error("expression cannot be parsed (too deeply nested or malformed)", place(1, 0)) from None

    def at(node: ast.AST) -> Location:
        lineno = getattr(node, "lineno", 1)
        # Python counts columns in UTF-8 bytes; people count characters.
        line = wrapped_lines[lineno - 1] if lineno <= len(wrapped_lines) else ""
        chars = getattr(node, "col_offset", 0)
        if not line.isascii():
            chars = len(line.encode("utf-8")[:chars].decode("utf-8", "ignore"))
        return place(lineno, max(chars - (1 if lineno == 1 else 0), 0))

    def fail(node: ast.AST, message: str) -> InputError:
        return error(message, at(node))

    depth = 0

    def conv(node: ast.AST) -> Expr:
        nonlocal depth
        depth += 1
        try:
            if depth > MAX_DEPTH:
                raise error("expression is too deeply nested", place(1, 0))
            return convert(node)
        finally:
            depth -= 1

    def convert(node: ast.AST) -> Expr:
        loc = at(node)
        if isinstance(node, ast.Name):
            if node.id in ("True", "False"):
                return Const(loc, node.id == "True")
            return Name(loc, node.id)
        if isinstance(node, ast.Constant):
            if isinstance(node.value, (bool, int)):
                if not isinstance(node.value, bool) and abs(node.value) > 1_000_000:
                    raise fail(node, f"number {node.value} is too large (at most 1000000)")
                return Const(loc, node.value)
            raise fail(node, f"only whole numbers and True/False may be written, not {node.value!r}")
        if isinstance(node, ast.BoolOp):
            return BoolOp(loc, "and" if isinstance(node.op, ast.And) else "or", tuple(conv(v) for v in node.values))
        if isinstance(node, ast.UnaryOp):
            if isinstance(node.op, ast.Not):
                return Not(loc, conv(node.operand))
            if isinstance(node.op, ast.USub):
                return Neg(loc, conv(node.operand))
            raise fail(node, "only 'not' and '-' may stand before a value")
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Add):
                return Arith(loc, "+", conv(node.left), conv(node.right))
            if isinstance(node.op, ast.Sub):
                return Arith(loc, "-", conv(node.left), conv(node.right))
            raise fail(node, "only + and - are allowed in arithmetic")
        if isinstance(node, ast.Compare):
            parts: list[Expr] = []
            left = node.left
            for op, right in zip(node.ops, node.comparators):
                if isinstance(op, (ast.In, ast.NotIn)):
                    if not isinstance(right, (ast.Tuple, ast.List)):
                        raise fail(right, "'in' must be followed by a written list such as (a, b)")
                    member = InSet(loc, conv(left), tuple(conv(e) for e in right.elts))
                    parts.append(member if isinstance(op, ast.In) else Not(loc, member))
                elif type(op) in _CMP:
                    parts.append(Compare(loc, _CMP[type(op)], conv(left), conv(right)))
                else:
                    raise fail(node, "unsupported comparison (use ==, !=, <, <=, >, >=, in or not in)")
                left = right
            return parts[0] if len(parts) == 1 else BoolOp(loc, "and", tuple(parts))
        if isinstance(node, ast.IfExp):
            return IfElse(loc, conv(node.test), conv(node.body), conv(node.orelse))
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name):
                raise fail(node, "only named functions may be called")
            if node.keywords:
                raise fail(node, "keyword arguments are not allowed")
            func = node.func.id
            if len(node.args) == 1 and isinstance(node.args[0], ast.GeneratorExp):
                if func not in QUANTIFIERS:
                    raise fail(node, f"'{func}(... for ...)' is not a quantifier; use all, any, count or sum")
                return quant(func, node.args[0], loc)
            if func in QUANTIFIERS:
                raise fail(node, f"{func} takes one 'expression for variable in domain' argument")
            return Call(loc, func, tuple(conv(a) for a in node.args))
        if isinstance(node, ast.GeneratorExp):
            raise fail(node, "a generator must be the argument of all, any, count or sum")
        what = _WHAT.get(type(node), type(node).__name__)
        raise fail(node, f"{what} is not part of the rule language")

    def quant(kind: str, gen: ast.GeneratorExp, loc: Location) -> Quant:
        if len(gen.generators) != 1:
            raise fail(gen, "a quantifier ranges over exactly one domain")
        comp = gen.generators[0]
        if not isinstance(comp.target, ast.Name):
            raise fail(comp.target, "a quantifier binds exactly one variable name")
        if not isinstance(comp.iter, ast.Name):
            raise fail(comp.iter, "a quantifier ranges over a domain name such as cards or steps")
        if len(comp.ifs) > 1:
            raise fail(comp, "write one 'if' condition, joined with 'and'")
        cond = conv(comp.ifs[0]) if comp.ifs else None
        return Quant(loc, kind, conv(gen.elt), comp.target.id, comp.iter.id, cond)

    try:
        return conv(tree.body)
    except RecursionError:
        raise error("expression is too deeply nested", place(1, 0)) from None
