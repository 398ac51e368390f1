"""Which outcomes the rules leave open, and which statements speak of a symbol.

An outcome is *given* by the rules when a rule states its value as an equation (`zone(c, s) == ...`,
`(scheduled_return(x) == s) == ...`), possibly under a guard, inside an `all(...)` or a branch of an
`if ... else`. An outcome no rule gives is *open*: the rules only bound it (`implies(..., not
counts_own_upkeep(x))`), so where they do not pin it down, nothing in the rules document decides it.
When two outcomes of an ambiguity differ in an open outcome, the statements at fault are those the
rules and definitions naming that outcome cite: they are where the text would have to say more.
"""

from __future__ import annotations

__all__ = ["open_outcomes", "statements_naming"]

from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from ..vocabulary import SYMBOLS, SymbolKind
from .encoding import RuleBase
from .syntax import BoolOp, Call, Compare, Expr, IfElse, Quant, walk

T = TypeVar("T")


def _heads(e: Expr) -> Iterator[Expr]:
    """The constraints `e` states, past its guards, conjunctions, `all` and branches."""
    while isinstance(e, Call) and e.func == "implies":
        e = e.args[1]
    if isinstance(e, BoolOp) and e.op == "and":
        for operand in e.operands:
            yield from _heads(operand)
    elif isinstance(e, Quant) and e.kind == "all":
        yield from _heads(e.body)
    elif isinstance(e, IfElse):
        yield from _heads(e.then)
        yield from _heads(e.other)
    else:
        yield e


def _given(e: Expr) -> str | None:
    """The symbol an equation gives the value of: the leftmost call of `a == b`, or of `(a == v) == b`."""
    if not (isinstance(e, Compare) and e.op == "=="):
        return None
    left = e.left
    while isinstance(left, Compare) and left.op == "==":
        left = left.left
    return left.func if isinstance(left, Call) and left.func in SYMBOLS else None


_MADE: dict[tuple[str, int, tuple[str, ...]], tuple[RuleBase, object]] = {}


def _once(what: str, rules: RuleBase, interpretations: tuple[str, ...], make: Callable[[], T]) -> T:
    """`make()`, worked out once per rule base (kept while it is) and interpretations."""
    key = (what, id(rules), interpretations)
    entry = _MADE.get(key)
    if entry is None or entry[0] is not rules:
        entry = _MADE[key] = (rules, make())
    return entry[1]  # type: ignore[return-value]


def open_outcomes(rules: RuleBase, interpretations: tuple[str, ...] = ()) -> frozenset[str]:
    """The outcome symbols no rule in force gives by an equation."""
    return _once("open", rules, interpretations, lambda: _open(rules, interpretations))


def _open(rules: RuleBase, interpretations: tuple[str, ...]) -> frozenset[str]:
    given = {symbol for rule in rules.active_rules(interpretations) for head in _heads(rule.body)
             if (symbol := _given(head)) is not None}
    return frozenset(name for name, sym in SYMBOLS.items() if sym.kind is SymbolKind.OUTCOME and name not in given)


def statements_naming(rules: RuleBase, symbols: Iterable[str], interpretations: tuple[str, ...] = ()) -> frozenset[str]:
    """The statements cited by the rules in force and the definitions whose own text names one of `symbols`."""
    naming = _once("naming", rules, interpretations, lambda: _naming(rules, interpretations))
    return frozenset(sid for symbol in frozenset(symbols) for sid in naming.get(symbol, ()))


def _naming(rules: RuleBase, interpretations: tuple[str, ...]) -> dict[str, frozenset[str]]:
    found: dict[str, set[str]] = {}
    parts = [(r.body, r.cites) for r in rules.active_rules(interpretations)]
    parts += [(d.body, d.cites) for d in rules.definitions.values()]
    for body, cites in parts:
        for node in walk(body):
            if isinstance(node, Call) and node.func in SYMBOLS:
                found.setdefault(node.func, set()).update(cites)
    return {symbol: frozenset(sids) for symbol, sids in found.items()}
