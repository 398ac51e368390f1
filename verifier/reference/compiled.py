"""Rule expressions compiled once into Python closures that the reference evaluator calls per binding.

Each syntax node becomes a function of an environment: a list holding the values of the
variables in scope, each at the slot the compiler gave it. The closures share one `State`:
the assignment to read outcomes and choices from, the memo of definition values, and, when
`reads` is a set, the keys each evaluation reads. A memoised definition is recorded as read
under its own key `(name, args)` (definition names are never symbol names); the keys its body
read are kept in `deps` under that key, so a memo hit stands for the reads made when the entry
was computed.

Evaluation is three-valued, exactly as `Reference` documents it.
"""

from __future__ import annotations

__all__ = ["State", "Compiler", "Fn", "compiler_for", "free_names", "MISSING", "UNDECIDED"]

import operator
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from ..errors import Location
from ..language.encoding import RuleBase
from ..language.syntax import (
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
    children,
    step_bound,
)
from ..language.types import RECURRENCE_START, recurrence_place
from ..vocabulary import DOMAINS, MEMBER_OF, SYMBOLS, SymbolKind


class Evaluating(Protocol):
    """What the closures read off the evaluator running them (`evaluator.Reference`)."""

    named: dict[str, str]
    domains: dict[str, list[Any]]
    never: int

    def symbol(self, name: str, args: tuple[Any, ...], loc: Location) -> Any: ...

    def structure(self, name: str, args: tuple[Any, ...], loc: Location) -> Any: ...

    def attempts_by_step(self, op: str, step: Any) -> list[Any]: ...


_COMPILERS: dict[int, tuple[RuleBase, Compiler]] = {}


def compiler_for(rules: RuleBase) -> Compiler:
    """The compiler of `rules`, made once per process so its closures are made once too."""
    entry = _COMPILERS.get(id(rules))
    if entry is None or entry[0] is not rules:
        entry = _COMPILERS[id(rules)] = (rules, Compiler(rules))
    return entry[1]

Fn = Callable[[list[Any]], Any]
MISSING: Any = object()


class _Undecided:
    """The value of an expression that reads an application the assignment leaves out."""

    def __repr__(self) -> str:
        return "UNDECIDED"


UNDECIDED: Any = _Undecided()
_U = UNDECIDED

_COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}


class State:
    """What the closures read while they run: the reference evaluating now (its scenario), the
    assignment, the memo of definition values, the keys read, and that reference's cache of
    structure and input values."""

    __slots__ = ("ref", "generation", "asg", "memo", "reads", "deps", "known")

    def __init__(self) -> None:
        self.ref: Evaluating | None = None
        self.generation = 0
        self.asg: Mapping[Any, Any] = {}
        self.memo: dict[tuple[str, tuple[Any, ...]], Any] = {}
        self.reads: set[Any] | None = None
        self.deps: dict[tuple[str, tuple[Any, ...]], set[Any]] = {}
        self.known: dict[tuple[str, tuple[Any, ...]], Any] = {}


def free_names(e: Expr, bound: frozenset[str] = frozenset()) -> set[str]:
    """The names `e` uses that no quantifier inside it binds."""
    if isinstance(e, Name):
        return set() if e.id in bound else {e.id}
    if isinstance(e, Quant):
        bound = bound | {e.var}
    found: set[str] = set()
    for child in children(e):
        found |= free_names(child, bound)
    return found


class Compiler:
    """Compiles the expressions of one rule base, once for every scenario; each definition's body
    is compiled once. The closures read the scenario from `state.ref` when they run."""

    def __init__(self, rules: RuleBase) -> None:
        self.rules = rules
        self.st = State()
        self.defs: dict[str, tuple[Fn, int]] = {}
        self.done: dict[tuple[int, tuple[str, ...]], tuple[Expr, Fn, int]] = {}

    def compiled(self, e: Expr, names: tuple[str, ...]) -> tuple[Fn, int]:
        """The closure of `e` with the variables `names` at slots 0, 1, ..., and the slots it needs; made once."""
        found = self.done.get((id(e), names))
        if found is None or found[0] is not e:  # the node is kept with its closure so its id cannot be reused
            width = [len(names)]
            fn = self.compile(e, {n: i for i, n in enumerate(names)}, width)
            found = self.done[(id(e), names)] = (e, fn, width[0])
        return found[1], found[2]

    def compile(self, e: Expr, scope: dict[str, int], width: list[int]) -> Fn:
        """The closure of `e`; variables in `scope` are read at their slots, `width[0]` grows to the slots used."""
        width[0] = max(width[0], len(scope))
        return _BUILDERS[type(e)](self, e, scope, width)

    def definition(self, name: str) -> tuple[Fn, int]:
        """A definition's compiled body and the number of slots its environment needs."""
        found = self.defs.get(name)
        if found is None:
            d = self.rules.definitions[name]
            width = [len(d.params)]
            scope = {p: i for i, (p, _) in enumerate(d.params)}
            found = self.defs[name] = (self.compile(d.body, scope, width), width[0])
        return found

    # -- nodes -------------------------------------------------------------------------
    def _const(self, e: Const, scope: dict[str, int], width: list[int]) -> Fn:
        value = e.value
        return lambda env: value

    def _name(self, e: Name, scope: dict[str, int], width: list[int]) -> Fn:
        ident = e.id
        if ident in scope:
            return operator.itemgetter(scope[ident])
        if ident in MEMBER_OF:
            return lambda env: ident
        st, loc = self.st, e.loc

        def named_or_structure(env: list[Any]) -> Any:
            ref = st.ref
            return ident if ident in ref.named else ref.structure(ident, (), loc)  # type: ignore[union-attr]
        return named_or_structure

    def _not(self, e: Not, scope: dict[str, int], width: list[int]) -> Fn:
        f = self.compile(e.operand, scope, width)
        U = _U

        def fn(env: list[Any]) -> Any:
            v = f(env)
            return U if v is U else not v
        return fn

    def _neg(self, e: Neg, scope: dict[str, int], width: list[int]) -> Fn:
        f = self.compile(e.operand, scope, width)
        U = _U

        def fn(env: list[Any]) -> Any:
            v = f(env)
            return U if v is U else -v
        return fn

    def _boolop(self, e: BoolOp, scope: dict[str, int], width: list[int]) -> Fn:
        parts = tuple(self.compile(p, scope, width) for p in e.operands)
        absorbing = e.op == "or"
        U = _U

        def fn(env: list[Any]) -> Any:
            undecided = False
            for part in parts:
                v = part(env)
                if v is U:
                    undecided = True
                elif bool(v) == absorbing:
                    return absorbing
            return U if undecided else not absorbing
        return fn

    def _compare(self, e: Compare, scope: dict[str, int], width: list[int]) -> Fn:
        return self._binary(_COMPARE[e.op], e.left, e.right, scope, width)

    def _arith(self, e: Arith, scope: dict[str, int], width: list[int]) -> Fn:
        return self._binary(operator.add if e.op == "+" else operator.sub, e.left, e.right, scope, width)

    def _binary(self, op: Callable[[Any, Any], Any], left: Expr, right: Expr, scope: dict[str, int],
                width: list[int]) -> Fn:
        f = self.compile(left, scope, width)
        U = _U
        if isinstance(right, Const):
            b = right.value

            def constant(env: list[Any]) -> Any:
                a = f(env)
                return U if a is U else op(a, b)
            return constant
        g = self.compile(right, scope, width)

        def fn(env: list[Any]) -> Any:
            a = f(env)
            b = g(env)
            return U if a is U or b is U else op(a, b)
        return fn

    def _ifelse(self, e: IfElse, scope: dict[str, int], width: list[int]) -> Fn:
        c = self.compile(e.cond, scope, width)
        t = self.compile(e.then, scope, width)
        o = self.compile(e.other, scope, width)
        U = _U

        def fn(env: list[Any]) -> Any:
            cond = c(env)
            if cond is not U:
                return t(env) if cond else o(env)
            then = t(env)
            other = o(env)
            return then if then is not U and other is not U and then == other else U
        return fn

    def _inset(self, e: InSet, scope: dict[str, int], width: list[int]) -> Fn:
        f = self.compile(e.item, scope, width)
        U = _U
        fixed: tuple[Any, ...] = ()
        for o in e.options:
            if isinstance(o, Const):
                fixed += (o.value,)
            elif isinstance(o, Name) and o.id not in scope and o.id in MEMBER_OF:
                fixed += (o.id,)
        if len(fixed) == len(e.options):
            # options that are all written values: none is undecided, so membership decides

            def constant(env: list[Any]) -> Any:
                item = f(env)
                return U if item is U else item in fixed
            return constant
        options = tuple(self.compile(o, scope, width) for o in e.options)

        def fn(env: list[Any]) -> Any:
            item = f(env)
            undecided = item is U
            for option in options:
                v = option(env)
                if v is U:
                    undecided = True
                elif not undecided and v == item:
                    return True
            return U if undecided else False
        return fn

    def _quant(self, e: Quant, scope: dict[str, int], width: list[int]) -> Fn:
        slot = len(scope)
        inner = {**scope, e.var: slot}
        width[0] = max(width[0], slot + 1)
        body = self.compile(e.body, inner, width)
        cond_f = None if e.cond is None else self.compile(e.cond, inner, width)
        sort = DOMAINS[e.domain]
        st = self.st
        kind = e.kind
        U = _U
        # Over attempts whose condition first compares their step with a value the timeline knows, only the
        # attempts that comparison keeps are tried: the condition is false at every other, reading nothing else.
        bound = step_bound(e)
        step_op, step_f = (bound[0], self.compile(bound[1], scope, width)) if bound is not None else ("", None)

        def fn(env: list[Any]) -> Any:
            undecided = False
            total = 0
            values = st.ref.domains[sort]  # type: ignore[union-attr]
            if step_f is not None:
                step = step_f(env)
                if step is not U:
                    values = st.ref.attempts_by_step(step_op, step)  # type: ignore[union-attr]
            for value in values:
                env[slot] = value
                cond = True if cond_f is None else cond_f(env)
                if cond is False:
                    continue
                v = body(env)
                if kind == "all":
                    if v is False and cond is True:
                        return False
                    if v is U or cond is U and v is False:
                        undecided = True
                elif kind == "any":
                    if v is True and cond is True:
                        return True
                    if v is U or cond is U and v is True:
                        undecided = True
                elif kind == "count":
                    if cond is U or v is U:
                        undecided = undecided or v is not False
                    elif v:
                        total += 1
                else:
                    if cond is U or v is U:
                        undecided = undecided or v != 0
                    else:
                        total += v
            if kind in ("count", "sum"):
                return U if undecided else total
            if undecided:
                return U
            return kind == "all"
        return fn

    def _call(self, e: Call, scope: dict[str, int], width: list[int]) -> Fn:
        U = _U
        if e.func == "implies":
            c = self.compile(e.args[0], scope, width)
            b = self.compile(e.args[1], scope, width)

            def implies(env: list[Any]) -> Any:
                cond = c(env)
                if cond is False:
                    return True
                v = b(env)
                if v is True:
                    return True
                if cond is True:
                    return v
                return U
            return implies
        fns = tuple(self.compile(a, scope, width) for a in e.args)
        args_of = _arguments(fns)
        name, loc, st = e.func, e.loc, self.st
        if name in self.rules.definitions:
            d = self.rules.definitions[name]
            place = recurrence_place(d)
            # a recurrence's body holds this very call: its closure is looked up once the body is compiled
            slot: list[tuple[Fn, int]] = [] if place is not None else [self.definition(name)]
            MISS = MISSING

            def define(env: list[Any]) -> Any:
                args = args_of(env)
                if U in args:
                    return U
                if place is not None and (name, args) not in st.memo:
                    memo = st.memo
                    at = args[place]
                    if not 0 <= at < st.ref.never:  # type: ignore[union-attr]
                        return RECURRENCE_START[d.result]
                    # the steps before, from the first not yet known, each from the one before it: no chain of
                    # calls as long as the timeline
                    first = at
                    while first > 0 and (name, args[:place] + (first - 1,) + args[place + 1:]) not in memo:
                        first -= 1
                    if first < at:
                        kept = st.reads
                        st.reads = None if kept is None else set()
                        try:
                            for t in range(first, at):
                                define_at(args[:place] + (t,) + args[place + 1:])
                        finally:
                            st.reads = kept
                return define_at(args)

            def define_at(args: tuple[Any, ...]) -> Any:
                key = (name, args)
                memo = st.memo
                v = memo.get(key, MISS)
                reads = st.reads
                if v is not MISS:
                    if reads is not None:
                        reads.add(key)
                    return v
                if not slot:
                    slot.append(self.definition(name))
                body, size = slot[0]
                inner_env = [*args, *([None] * (size - len(args)))]
                if reads is None:
                    v = memo[key] = body(inner_env)
                    return v
                inner: set[Any] = set()
                st.reads = inner
                try:
                    v = body(inner_env)
                finally:
                    st.reads = reads
                memo[key] = v
                st.deps[key] = inner
                reads.add(key)
                return v
            return define
        sym = SYMBOLS.get(name)
        if sym is None:
            def unknown(env: list[Any]) -> Any:
                args = args_of(env)
                if U in args:
                    return U
                raise KeyError(name)
            return unknown
        if sym.kind is SymbolKind.STRUCTURE and len(fns) == 1:
            f = fns[0]
            # this node's own cache, valid for the scenario of one generation of the state
            box: list[Any] = [-1, {}]

            def structure1(env: list[Any]) -> Any:
                a = f(env)
                if box[0] != st.generation:
                    box[0], box[1] = st.generation, {}
                by_arg = box[1]
                v = by_arg.get(a, MISSING)
                if v is MISSING:
                    if a is U:
                        return U
                    v = by_arg[a] = st.ref.structure(name, (a,), loc)  # type: ignore[union-attr]
                return v
            return structure1
        if sym.kind in (SymbolKind.STRUCTURE, SymbolKind.INPUT):
            # read off the scenario (its timeline and cards, or its facts) once per scenario
            structural = sym.kind is SymbolKind.STRUCTURE

            def known_value(env: list[Any]) -> Any:
                args = args_of(env)
                if U in args:
                    return U
                key = (name, args)
                known = st.known
                v = known.get(key, MISSING)
                if v is MISSING:
                    ref = st.ref
                    v = known[key] = (ref.structure(name, args, loc) if structural  # type: ignore[union-attr]
                                      else ref.symbol(name, args, loc))  # type: ignore[union-attr]
                return v
            return known_value
        steps = tuple(i for i, p in enumerate(sym.params) if p == "step")

        def read(env: list[Any]) -> Any:
            args = args_of(env)
            if U in args:
                return U
            ref = st.ref
            for i in steps:
                if not 0 <= args[i] < ref.never:  # type: ignore[union-attr]
                    ref.symbol(name, args, loc)  # type: ignore[union-attr]  # raises: the step is outside the timeline
            key = (name, args)
            reads = st.reads
            if reads is not None:
                reads.add(key)
            return st.asg.get(key, U)
        return read


def _arguments(fns: tuple[Fn, ...]) -> Callable[[list[Any]], tuple[Any, ...]]:
    """A function giving the tuple of argument values, every argument evaluated in order."""
    if len(fns) == 0:
        return lambda env: ()
    if len(fns) == 1:
        f = fns[0]
        return lambda env: (f(env),)
    if len(fns) == 2:
        f, g = fns
        return lambda env: (f(env), g(env))
    if len(fns) == 3:
        f, g, h = fns
        return lambda env: (f(env), g(env), h(env))
    return lambda env: tuple([f(env) for f in fns])


_BUILDERS: dict[type, Callable[[Compiler, Any, dict[str, int], list[int]], Fn]] = {
    Const: Compiler._const, Name: Compiler._name, Not: Compiler._not, Neg: Compiler._neg, BoolOp: Compiler._boolop,
    Compare: Compiler._compare, Arith: Compiler._arith, IfElse: Compiler._ifelse, InSet: Compiler._inset,
    Quant: Compiler._quant, Call: Compiler._call,
}
