"""Rule instances with everything the scenario fixes worked out once: what is left to evaluate per assignment.

Exhaustive enumeration evaluates the same instances on many assignments. Structure, inputs,
definitions with known arguments and quantifiers over the scenario's sorts do not change
between assignments, so they are folded here once; what remains is a `Residual`: a function
of the assignment (three-valued, like the evaluator) and the set of applications it may read.
The result of every fold agrees with `Reference.evaluate` on every assignment.
"""

from __future__ import annotations

__all__ = ["Residual", "Residuals"]

import itertools
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from ..errors import EncodingError
from ..language.syntax import Arith, BoolOp, Call, Compare, Const, Expr, IfElse, InSet, Name, Neg, Not, Quant
from ..language.types import RECURRENCE_START, recurrence_place
from ..vocabulary import DOMAINS, MEMBER_OF, SYMBOLS, SymbolKind
from .evaluator import UNDECIDED, Key, Reference, Value

U = UNDECIDED
Assignment = Mapping[Key, Value]


class Residual(NamedTuple):
    """What is left of an expression once the scenario is fixed: a function of the assignment."""

    fn: Callable[[Assignment], Any]
    keys: frozenset[Key]


def _value(x: Any, a: Assignment) -> Any:
    return x.fn(a) if isinstance(x, Residual) else x


_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": lambda x, y: x == y, "!=": lambda x, y: x != y, "<": lambda x, y: x < y,
    "<=": lambda x, y: x <= y, ">": lambda x, y: x > y, ">=": lambda x, y: x >= y,
}


class Residuals:
    """Folds the expressions of one scenario; a definition with known arguments is folded once."""

    def __init__(self, ref: Reference) -> None:
        self.ref = ref
        self.defs: dict[tuple[str, tuple[Value, ...]], Any] = {}
        self.of: dict[type, Callable[[Any, dict[str, Any]], Any]] = {
            Const: self._const, Name: self._name, Not: self._not, Neg: self._neg, BoolOp: self._boolop,
            Compare: self._compare, Arith: self._arith, IfElse: self._ifelse, InSet: self._inset,
            Quant: self._quant, Call: self._call,
        }

    def fold(self, e: Expr, env: dict[str, Any]) -> Any:
        """A plain value when the scenario alone decides `e`, else a `Residual`."""
        return self.of[type(e)](e, env)

    def _const(self, e: Const, env: dict[str, Any]) -> Any:
        return e.value

    def _name(self, e: Name, env: dict[str, Any]) -> Any:
        if e.id in env:
            return env[e.id]
        if e.id in self.ref.named or e.id in MEMBER_OF:
            return e.id
        return self.ref.structure(e.id, (), e.loc)

    def _not(self, e: Not, env: dict[str, Any]) -> Any:
        x = self.fold(e.operand, env)
        if not isinstance(x, Residual):
            return not x
        f = x.fn

        def fn(a: Assignment) -> Any:
            v = f(a)
            return U if v is U else not v
        return Residual(fn, x.keys)

    def _neg(self, e: Neg, env: dict[str, Any]) -> Any:
        x = self.fold(e.operand, env)
        if not isinstance(x, Residual):
            return -x
        f = x.fn

        def fn(a: Assignment) -> Any:
            v = f(a)
            return U if v is U else -v
        return Residual(fn, x.keys)

    def _boolop(self, e: BoolOp, env: dict[str, Any]) -> Any:
        absorbing = e.op == "or"
        left: list[Residual] = []
        for part in e.operands:
            x = self.fold(part, env)
            if isinstance(x, Residual):
                left.append(x)
            elif bool(x) == absorbing:
                return absorbing
        if not left:
            return not absorbing
        if len(left) == 1:
            return left[0]
        fns = [x.fn for x in left]

        def fn(a: Assignment) -> Any:
            undecided = False
            for f in fns:
                v = f(a)
                if v is U:
                    undecided = True
                elif bool(v) == absorbing:
                    return absorbing
            return U if undecided else not absorbing
        return Residual(fn, frozenset().union(*(x.keys for x in left)))

    def _binary(self, x: Any, y: Any, op: Callable[[Any, Any], Any]) -> Any:
        if not isinstance(x, Residual) and not isinstance(y, Residual):
            return op(x, y)
        if not isinstance(y, Residual):
            f = x.fn

            def left(a: Assignment) -> Any:
                v = f(a)
                return U if v is U else op(v, y)
            return Residual(left, x.keys)
        g = y.fn
        if not isinstance(x, Residual):
            def right(a: Assignment) -> Any:
                w = g(a)
                return U if w is U else op(x, w)
            return Residual(right, y.keys)
        f = x.fn

        def both(a: Assignment) -> Any:
            v, w = f(a), g(a)
            return U if v is U or w is U else op(v, w)
        return Residual(both, x.keys | y.keys)

    def _compare(self, e: Compare, env: dict[str, Any]) -> Any:
        return self._binary(self.fold(e.left, env), self.fold(e.right, env), _COMPARE[e.op])

    def _arith(self, e: Arith, env: dict[str, Any]) -> Any:
        op = (lambda v, w: v + w) if e.op == "+" else (lambda v, w: v - w)
        return self._binary(self.fold(e.left, env), self.fold(e.right, env), op)

    def _ifelse(self, e: IfElse, env: dict[str, Any]) -> Any:
        cond = self.fold(e.cond, env)
        if not isinstance(cond, Residual):
            return self.fold(e.then if cond else e.other, env)
        then, other = self.fold(e.then, env), self.fold(e.other, env)
        c = cond.fn

        def fn(a: Assignment) -> Any:
            v = c(a)
            if v is not U:
                return _value(then if v else other, a)
            t, o = _value(then, a), _value(other, a)
            return t if t is not U and o is not U and t == o else U
        return Residual(fn, cond.keys.union(*(x.keys for x in (then, other) if isinstance(x, Residual))))

    def _inset(self, e: InSet, env: dict[str, Any]) -> Any:
        item = self.fold(e.item, env)
        options = [self.fold(o, env) for o in e.options]
        if not isinstance(item, Residual) and not any(isinstance(o, Residual) for o in options):
            return item in options

        def fn(a: Assignment) -> Any:
            it = _value(item, a)
            undecided = it is U
            for o in options:
                v = _value(o, a)
                if v is U:
                    undecided = True
                elif not undecided and v == it:
                    return True
            return U if undecided else False
        parts = [item, *options]
        return Residual(fn, frozenset().union(*(x.keys for x in parts if isinstance(x, Residual))))

    def _quant(self, e: Quant, env: dict[str, Any]) -> Any:
        kind = e.kind
        inner = dict(env)
        pairs: list[tuple[Any, Any]] = []
        total = 0
        for value in self.ref.domains[DOMAINS[e.domain]]:
            inner[e.var] = value
            cond = True if e.cond is None else self.fold(e.cond, inner)
            if cond is False:
                continue
            body = self.fold(e.body, inner)
            if not isinstance(cond, Residual) and not isinstance(body, Residual):
                if kind == "all" and body is False:
                    return False
                if kind == "any" and body is True:
                    return True
                if kind == "count":
                    total += 1 if body else 0
                elif kind == "sum":
                    total += body
                continue
            if kind in ("all", "any") and body is (kind == "all"):
                continue  # holds (all) or fails (any) whatever the condition
            if kind == "count" and body is False or kind == "sum" and body == 0 and not isinstance(body, Residual):
                continue
            pairs.append((cond, body))
        if not pairs:
            return total if kind in ("count", "sum") else kind == "all"
        keys = frozenset().union(*(x.keys for p in pairs for x in p if isinstance(x, Residual)))

        def fn(a: Assignment) -> Any:
            undecided = False
            count = total
            for cond_x, body_x in pairs:
                c = _value(cond_x, a)
                if c is False:
                    continue
                v = _value(body_x, a)
                if kind == "all":
                    if v is False and c is True:
                        return False
                    if v is U or c is U and v is False:
                        undecided = True
                elif kind == "any":
                    if v is True and c is True:
                        return True
                    if v is U or c is U and v is True:
                        undecided = True
                elif kind == "count":
                    if c is U or v is U:
                        undecided = undecided or v is not False
                    elif v:
                        count += 1
                elif c is U or v is U:
                    undecided = undecided or v is U or v != 0
                else:
                    count += v
            if kind in ("count", "sum"):
                return U if undecided else count
            return U if undecided else kind == "all"
        return Residual(fn, keys)

    def _call(self, e: Call, env: dict[str, Any]) -> Any:
        if e.func == "implies":
            cond = self.fold(e.args[0], env)
            if cond is False:
                return True
            if cond is True:
                return self.fold(e.args[1], env)
            body = self.fold(e.args[1], env)
            if body is True:
                return True
            c = cond.fn
            b = body.fn if isinstance(body, Residual) else (lambda a: body)

            def implies(a: Assignment) -> Any:
                v = c(a)
                if v is False:
                    return True
                w = b(a)
                if w is True:
                    return True
                return w if v is True else U
            return Residual(implies, cond.keys | (body.keys if isinstance(body, Residual) else frozenset()))
        args = [self.fold(x, env) for x in e.args]
        ref = self.ref
        if e.func in ref.rules.definitions:
            params = [s for _, s in ref.rules.definitions[e.func].params]
            apply: Callable[[tuple[Value, ...]], Any] = lambda fixed: self.define(e.func, fixed)  # noqa: E731
        elif SYMBOLS[e.func].kind is SymbolKind.STRUCTURE:
            params = list(SYMBOLS[e.func].params)
            apply = lambda fixed: ref.structure(e.func, fixed, e.loc)  # noqa: E731
        else:
            params = list(SYMBOLS[e.func].params)
            apply = lambda fixed: self.application(e, fixed)  # noqa: E731
        if not any(isinstance(x, Residual) for x in args):
            return apply(tuple(args))
        # An argument the assignment decides: fold the call for each value it may take.
        options = [ref.value_range(p) if isinstance(x, Residual) else [x] for p, x in zip(params, args)]
        folded: dict[tuple[Value, ...], Any] = {}
        for fixed in itertools.product(*options):
            try:
                folded[fixed] = apply(fixed)
            except EncodingError:
                continue
        keys = frozenset().union(*(x.keys for x in [*args, *folded.values()] if isinstance(x, Residual)))

        def fn(a: Assignment) -> Any:
            fixed = tuple(_value(x, a) for x in args)
            if any(v is U for v in fixed):
                return U
            if fixed not in folded:
                return _value(apply(fixed), a)  # raises the evaluator's error for a value out of range
            return _value(folded[fixed], a)
        return Residual(fn, keys)

    def define(self, name: str, args: tuple[Value, ...]) -> Any:
        key = (name, args)
        if key not in self.defs:
            d = self.ref.rules.definitions[name]
            place = recurrence_place(d)
            if place is not None and not 0 <= args[place] < self.ref.never:  # type: ignore[operator]
                return RECURRENCE_START[d.result]  # a recurrence outside the timeline
            self.defs[key] = self.fold(d.body, {p: v for (p, _), v in zip(d.params, args)})
        return self.defs[key]

    def application(self, e: Call, args: tuple[Value, ...]) -> Any:
        """An input's value, or a Residual reading an outcome or choice off the assignment."""
        ref = self.ref
        sym = SYMBOLS[e.func]
        for param, v in zip(sym.params, args):
            if param == "step" and not 0 <= v < ref.never:  # type: ignore[operator]
                raise EncodingError(f"{e.func}(...) is applied to step {v}, outside the timeline", e.loc)
        key = (e.func, args)
        if sym.kind is SymbolKind.INPUT:
            if key not in ref.inputs:
                raise EncodingError(f"no fact of the scenario gives {e.func}({', '.join(map(str, args))})", e.loc)
            return ref.inputs[key]
        return Residual(lambda a: a.get(key, U), frozenset((key,)))
