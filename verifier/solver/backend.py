"""The only module that talks to Z3: loads a grounding, answers checks, returns plain values.

Everything that leaves this module is a Python value: a `Check` status, a list of assertion
names, a dict of raw values (whole numbers and truth values, as the grounding encodes them).
Z3's own errors are wrapped in `SolverError`.
"""

from __future__ import annotations

__all__ = ["Session", "Check", "SAT", "UNSAT", "UNKNOWN"]

import ctypes
import os
import re
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cached_property
from typing import Any, NamedTuple

import z3

from ..errors import SolverError
from ..interruption import raise_if_requested
from .grounding import Grounding, copied, mentioned, value_smt

SAT, UNSAT, UNKNOWN = "sat", "unsat", "unknown"
SEED = 0


class Check(NamedTuple):
    """The outcome of one solver call."""

    status: str
    reason: str = ""


_prepared: dict[str, object] = {}


def prepare_context() -> None:
    """Start making a Z3 context in the background, for the next session to take.

    Making a context is C work that does not hold Python's lock, so it overlaps with reading
    the rules and the case. A fork waits for the thread to finish.
    """
    if "worker" not in _prepared:
        made: list[z3.Context] = []
        worker = threading.Thread(target=lambda: made.append(z3.Context()), daemon=True)
        worker.start()
        _prepared.update(worker=worker, made=made)


def _finish_preparing() -> None:
    worker = _prepared.get("worker")
    if isinstance(worker, threading.Thread):
        worker.join()


# A process forked while the thread makes its context would hang at its first check: the child gets
# Z3's state half made, with no thread to finish it.
os.register_at_fork(before=_finish_preparing)


def _fresh_context() -> z3.Context:
    worker = _prepared.pop("worker", None)
    made = _prepared.pop("made", None)
    if isinstance(worker, threading.Thread) and isinstance(made, list):
        worker.join()
        if made:
            return made[0]  # type: ignore[no-any-return]
    return z3.Context()


_SHARED: dict[int, tuple[z3.Context, _Names]] = {}


def _shared_context() -> z3.Context:
    """This process's context for sessions whose answers rest on which checks are satisfiable alone."""
    return _shared()[0]


def _shared() -> tuple[z3.Context, _Names]:
    """`_shared_context`, and the names of its constants read so far (see `_Names`)."""
    pid = os.getpid()
    if pid not in _SHARED:
        _SHARED.clear()  # a forked process makes its own
        ctx = z3.Context()
        _SHARED[pid] = (ctx, _Names(ctx.ref().value, lasting=True))
    return _SHARED[pid]


class Session:
    """A Z3 solver loaded with one grounding's declarations and assertions.

    With `tracked`, every rule instance and fact is asserted behind its own literal, so a
    check may assume any subset of them and an unsatisfiable one has a core; without, they
    are asserted outright, which is much faster, and `assume` is ignored.
    """

    def __init__(self, grounding: Grounding, timeout_ms: int, memory_mb: int | None = None,
                 tracked: bool = False, shared_context: bool = False,
                 fixed: Mapping[str, bool | int] | None = None, context_of: Session | None = None) -> None:
        """With `shared_context`, the session's solver is made in a context the process keeps for such sessions
        (making a context takes a few milliseconds): for checks whose answers rest on which checks are
        satisfiable, never on a model, which Z3 may find otherwise in a context that held other terms before.

        With `fixed`, the values of constants every outcome gives one value (see `forced`) that `grounding`
        reads as those values and no longer declares (see `narrowed`): every text given to the session later
        (terms assumed, assertions, pins) reads them, and their second copy's (see `second_copy`), as those
        values too, and `read` gives them. With `context_of`, the solver is made in that session's context (which
        then holds the terms of both)."""
        self.g = grounding
        self.fixed: dict[str, bool | int] = {}
        self.with_fixed: dict[tuple[str, ...], tuple[dict[str, object], list[str]]] = {}  # see `read`
        self.fixed_smt: dict[str, str] = {}
        if fixed:
            self.fixed = dict(fixed)
            self.fixed.update({copied(n): v for n, v in fixed.items() if _COPIED.match(n)})
            self.fixed_smt = {n: value_smt(v) for n, v in self.fixed.items()}
        self.tracked = tracked
        self.timeout_ms = timeout_ms
        self.memory_mb = memory_mb
        # Else a context of its own: what Z3 does must not depend on which cases were checked before.
        self.ctx: z3.Context = (context_of.ctx if context_of is not None else _shared_context() if shared_context
                    else _fresh_context())
        # Z3 keeps this setting for the whole process. It is in force only while a check runs:
        # out of memory while loading, Z3 may end the process.
        z3.set_param("memory_max_size", 0)
        # A model is read, never shown: Z3 need not compact it, which halves the time to get one.
        z3.set_param("model.compact", False)
        # Z3's plain incremental solver: on these problems it answers the many small checks
        # (with assumptions, one after another) faster than the tactic-based ones.
        self.solver = z3.SimpleSolver(ctx=self.ctx)
        self.solver.set("random_seed", SEED)
        self.solver.set("timeout", int(timeout_ms))
        # Z3's own Ctrl-C handler is off: it takes the signal from Python, and a Ctrl-C that arrived as a check
        # was ending was lost (the run went on), or cancelled the check into an `unknown` answer. Left to
        # Python, a Ctrl-C ends the command once the running check returns (each is bounded by --timeout),
        # and a process that ignores Ctrl-C (a worker, a job in the background) keeps every answer.
        self.solver.set("ctrl_c", False)
        self.model_cache: z3.ModelRef | None = None
        self.packs: dict[tuple[str, ...], _Pack] = {}
        self.has_model = False
        # With a dict here, the terms of checks' `extra` are parsed once. Parsing again makes new terms in
        # the context, which changes the models later checks find: the engine's answers rest on that order.
        self.parsed: dict[str, list[z3.BoolRef]] | None = None
        self.last_core: list[str] = []
        self.core_ready = True
        self.handles: dict[str, z3.ExprRef] = {}
        self.readable: dict[str, tuple[int, bool]] = {}  # each constant read so far: its term's address, whether Boolean
        self.declared: set[str] = set()
        self.background_done = 0
        self.scopes: list[int] = []  # at each open scope, how much of the background was asserted
        # a check of the assertions as they stand, with nothing assumed, was satisfiable (see `known_sat`)
        self._sat_as_loaded = False
        lines = self._declarations()
        self.literals: dict[str, z3.ExprRef] = {}
        if tracked:
            lines += [f"(declare-const {t.name} Bool)" for t in grounding.tracked]
            lines += [f"(assert (=> {t.name} {t.body}))" for t in grounding.tracked]
        else:
            lines += [f"(assert {t.body})" for t in grounding.tracked]
        self._load(lines)
        if tracked:
            self.literals = {t.name: self.handle(t.name) for t in grounding.tracked}

    def _declarations(self) -> list[str]:
        lines: list[str] = []
        for name, ref in self.g.constants.items():
            if name not in self.declared:
                self.declared.add(name)
                lines.append(self.g.declaration(name, ref.type))
        for name, type_name in self.g.derived.items():
            if name not in self.declared:
                self.declared.add(name)
                lines.append(self.g.declaration(name, type_name))
        lines += [f"(assert {b})" for b in self.g.background[self.background_done:]]
        self.background_done = len(self.g.background)
        return lines

    @property
    def known_sat(self) -> bool:
        """Whether the assertions as they stand are known to be satisfiable: an untracked check with nothing
        assumed found them so, and nothing was asserted since."""
        return self._sat_as_loaded

    def _load(self, lines: list[str]) -> None:
        self._sat_as_loaded = False
        try:
            self.solver.from_string(self.reading_fixed("\n".join(lines)))
        except z3.Z3Exception as exc:
            raise SolverError(f"the solver rejected the grounded rules: {exc}") from None

    def extend(self, bodies: Sequence[str]) -> None:
        """Declare constants the grounding gained since loading and assert `bodies` untracked."""
        self._load(self._declarations() + [f"(assert {b})" for b in bodies])

    def extend_tracked(self, named: Sequence[tuple[str, str]], bodies: Sequence[str] = ()) -> None:
        """Like `extend`, and assert each (name, body) of `named` behind its literal `name` (a tracked session's
        checks may then assume it); a name may be a literal already. It must start with `t:`, like a rule
        instance's."""
        fresh = sorted({n for n, _ in named if n not in self.literals})
        lines = self._declarations() + [f"(declare-const {n} Bool)" for n in fresh]
        lines += [f"(assert (=> {n} {b}))" for n, b in named] + [f"(assert {b})" for b in bodies]
        self._load(lines)
        self.literals.update({n: self.handle(n) for n in fresh})

    def push(self) -> None:
        """Open a scope: what `extend` asserts from here on holds until the matching `pop`."""
        self.solver.push()
        self._sat_as_loaded = False
        self.scopes.append(self.background_done)

    def pop(self) -> None:
        """Take back what was asserted since the matching `push`. The constants declared since stay
        declared (Z3 keeps the declarations it parsed): a later `extend` asserts their background again."""
        self.solver.pop()
        self._sat_as_loaded = False
        self.background_done = self.scopes.pop()
        self.model_cache = None
        self.has_model = False

    def handle(self, name: str) -> z3.ExprRef:
        """The Z3 constant called `name` (with or without its |quotes|)."""
        bare = name.strip("|")
        if bare not in self.handles:
            quoted = "|" + bare + "|"
            ref = self.g.constants.get(quoted)
            type_name = ref.type if ref else self.g.derived.get(quoted)
            if type_name is None and (bare.startswith(("t:", "f:"))):
                type_name = "bool"
            if type_name is None:
                raise SolverError(f"unknown solver constant {name}")
            ctx = self.ctx.ref()
            boolean = type_name == "bool"
            sort = self.sorts[boolean]
            # without the wrappers' error checks (see `_raw`): neither call fails on a name and a sort of the context
            made = _MAKE_CONSTANT(ctx, _MAKE_SYMBOL(ctx, bare.encode()), sort.ast)
            self.handles[bare] = z3.BoolRef(made, self.ctx) if boolean else z3.ArithRef(made, self.ctx)
        return self.handles[bare]

    @cached_property
    def sorts(self) -> tuple[z3.SortRef, z3.SortRef]:
        """Z3's Int and Bool sorts, indexed by whether the sort is Bool."""
        return z3.IntSort(self.ctx), z3.BoolSort(self.ctx)

    def reading_fixed(self, text: str) -> str:
        """`text` with every constant of `fixed` (see `__init__`) written as its value."""
        if not self.fixed_smt:
            return text
        table = self.fixed_smt
        return "".join([table.get(part, part) for part in _SPLIT.split(text)])

    def parse(self, text: str) -> list[z3.BoolRef]:
        """The assertions of `text` as terms of the session's context, its constants those the session declared."""
        text = self.reading_fixed(text)
        names = sorted(mentioned(text))
        ref = self.ctx.ref()
        # the parser's table of declarations, made as `z3.parse_smt2_string` makes it, without its checks
        symbols, decls = (z3.Symbol * len(names))(), (z3.FuncDecl * len(names))()
        for i, name in enumerate(names):
            symbols[i] = _MAKE_SYMBOL(ref, name.strip("|").encode())
            decls[i] = _DECL_OF(ref, self.handle(name).as_ast())
        parsed = z3.Z3_parse_smtlib2_string(ref, text, 0, None, None, len(names), symbols, decls)
        return list(z3.AstVector(parsed, self.ctx))

    def check(self, assume: Iterable[str] = (), extra: Sequence[str] = ()) -> Check:
        """Check the assertions (those named in `assume`, when tracked) with `extra` terms assumed."""
        try:
            lits: list[z3.ExprRef] = [self.literals[n] for n in assume] if self.tracked else []
            if extra:
                text = "\n".join(f"(assert {e})" for e in extra)
                parsed = self.parsed.get(text) if self.parsed is not None else None
                if parsed is None:
                    parsed = self.parse(text)
                    if self.parsed is not None and len(self.parsed) < _PARSED:
                        self.parsed[text] = parsed
                lits += parsed
            result = self._check(lits)
            if not self.tracked and not lits and result.status == SAT:
                self._sat_as_loaded = True
            return result
        except z3.Z3Exception as exc:
            return Check(UNKNOWN, self.gave_up(_message(exc)))

    def check_pinned(self, values: dict[str, object]) -> Check:
        """Check with each named constant fixed to a raw value."""
        pins = "\n".join(f"(assert (= {n} {value_smt(v)}))" for n, v in values.items())
        try:
            self.solver.push()
            try:
                # The solver keeps the declarations it was loaded with, so the text parses in C.
                self.solver.from_string(self.reading_fixed(pins))
                return self._check([])
            finally:
                self.solver.pop()
        except z3.Z3Exception as exc:
            return Check(UNKNOWN, self.gave_up(_message(exc)))

    def check_asserting(self, lines: Sequence[str], flags: Sequence[str]) -> tuple[Check, dict[str, bool]]:
        """Check with `lines` (SMT-LIB declarations and assertions) in force for this check only and, when
        it is satisfiable, the value in its model of each Boolean constant `lines` declares that `flags`
        names. The text is parsed by Z3 itself (in C), much faster for long terms than building them as
        assumptions. Its terms are made in the solver's context: for checks whose models are not read as
        answers."""
        try:
            self.solver.push()
            try:
                self.solver.from_string(self.reading_fixed("\n".join(lines)))
                result = self._check([])
                values: dict[str, bool] = {}
                if result.status == SAT:
                    model = self.solver.model()
                    terms = {f: z3.Bool(f.strip("|"), self.ctx) for f in flags}
                    values = {f: bool(_read_value(self.ctx, model, t.as_ast(), True)) for f, t in terms.items()}
            finally:
                self.solver.pop()
                self.model_cache = None
                self.has_model = False
        except z3.Z3Exception as exc:
            return Check(UNKNOWN, self.gave_up(_message(exc))), {}
        return result, values

    def _check(self, assumptions: list[z3.ExprRef]) -> Check:
        self.model_cache = None
        self.has_model = False
        self.last_core = []
        self.core_ready = True
        # Z3's Python check() re-casts every assumption on each call; pass them to the C API as they are.
        raise_if_requested()
        array = (z3.Ast * len(assumptions))(*(a.as_ast() for a in assumptions))
        z3.set_param("memory_max_size", self.memory_mb or 0)
        try:
            code = z3.Z3_solver_check_assumptions(self.ctx.ref(), self.solver.solver, len(assumptions), array)
        finally:
            z3.set_param("memory_max_size", 0)
        raise_if_requested()
        result = z3.CheckSatResult(code)
        if result == z3.sat:
            self.has_model = True
            return Check(SAT)
        if result == z3.unsat:
            self.core_ready = False  # read from the solver when asked for, before the next check
            return Check(UNSAT)
        return Check(UNKNOWN, self.gave_up(self.solver.reason_unknown()))

    def gave_up(self, reason: str) -> str:
        """Z3's reason for giving up, in the words of the limit the user set."""
        if reason in ("timeout", "canceled"):
            return f"the solver hit the --timeout of {self.timeout_ms / 1000:g} s for one check"
        if "memory" in reason:
            limit = f"the --memory of {self.memory_mb} MB" if self.memory_mb else "the memory available"
            return f"the solver hit {limit} ({reason})"
        if reason.startswith("solver error"):
            return reason
        return f"the solver gave up: {reason or 'no reason given'}"

    def core(self) -> list[str]:
        """Names of the assumed assertions in the last unsatisfiable check's core."""
        if not self.core_ready:
            # only named assertions matter; printing an assumed term (a long disjunction) would cost more than the check
            names = (c.decl().name() for c in self.solver.unsat_core() if z3.is_const(c))
            self.last_core = sorted("|" + n + "|" for n in names if n.startswith(("t:", "f:")))
            self.core_ready = True
        return list(self.last_core)

    def forced(self) -> dict[str, bool | int]:
        """The constants of the grounding that Z3 found to take one value in every outcome, with that value:
        after a satisfiable check, the literals it holds at its base level (its units) that fix a truth value,
        or bound a whole number from both sides to one value. Each follows from the assertions alone, so every
        outcome gives it. Read through Z3's C API one unit at a time (writing them as text costs more)."""
        ref = self.ctx.ref()
        units = z3.Z3_solver_get_units(ref, self.solver.solver)
        z3.Z3_ast_vector_inc_ref(ref, units)
        try:
            ctx, names = _SHARED.get(os.getpid(), (None, None))
            found, low, high = _units(ref, units, names if ctx is self.ctx else None)
        finally:
            z3.Z3_ast_vector_dec_ref(ref, units)
        found.update((n, v) for n, v in low.items() if high.get(n) == v)
        known = self.g.constants.keys() | self.g.derived.keys()
        return {quoted: v for n, v in found.items() if (quoted := f"|{n}|") in known}

    def _model(self) -> z3.ModelRef:
        if self.model_cache is None:
            if not self.has_model:
                raise SolverError("no model is available")
            self.model_cache = self.solver.model()
        return self.model_cache

    def model(self) -> z3.ModelRef:
        """The last satisfiable check's model, kept to be read after later checks (see `read`)."""
        return self._model()

    def read(self, names: Sequence[str], model: z3.ModelRef | None = None) -> dict[str, object]:
        """Raw values of the named constants in the last satisfiable check's model (or in `model`, which `model()`
        gave).

        A constant the model leaves out reads as false or 0 (any value satisfies the rules).
        Long lists are read in one batch: the values of constants with a bounded range are
        packed into a few bit-vector terms, each evaluated in one call.
        """
        if model is None:
            model = self._model()
        if not self.fixed:
            return self._read(model, names)
        key = tuple(names)
        known = self.with_fixed.get(key)
        if known is None:
            fixed = self.fixed
            # every name in order, with its fixed value or (to be read) None, and the names to read
            known = self.with_fixed[key] = ({n: fixed.get(n) for n in names}, [n for n in names if n not in fixed])
        out = dict(known[0])
        out.update(self._read(model, known[1]))
        return out

    def _read(self, model: z3.ModelRef, names: Sequence[str]) -> dict[str, object]:
        if len(names) <= _FEW:
            return self._evaluate(model, names)
        key = tuple(names)
        pack = self.packs.get(key)
        if pack is None:
            pack = self.packs[key] = self._pack(names)
        out: dict[str, object] = {}
        for term, fields, width in pack.chunks:
            bits = format(_read_value(self.ctx, model, term.as_ast(), False), f"0{width}b")
            at = 0
            for name, size, boolean in fields:
                out[name] = bits[at] == "1" if boolean else int(bits[at:at + size], 2)
                at += size
        out.update(self._evaluate(model, pack.loose))
        return out

    def _evaluate(self, model: z3.ModelRef, names: Sequence[str]) -> dict[str, object]:
        """The values of the named constants in `model`, read one at a time."""
        readable = self.readable
        out: dict[str, object] = {}
        # Z3's C functions called directly (see `_Direct`): a failed evaluation returns false, which is checked; the
        # value stays alive until the next call that returns a term.
        ref, held = self.ctx.ref().value, model.model.value
        value = ctypes.c_void_p()
        into = ctypes.byref(value)
        evaluate, truth, numeral, true = _C.evaluate, _C.truth, _C.numeral, z3.Z3_L_TRUE
        for name in names:
            found = readable.get(name)
            if found is None:
                found = readable[name] = (self.handle(name).as_ast().value, self.type_of(name) == "bool")
            if not evaluate(ref, held, found[0], True, into):
                raise SolverError("the solver could not evaluate a term in its model")
            out[name] = truth(ref, value.value) == true if found[1] else int(numeral(ref, value.value))
        return out

    def _pack(self, names: Sequence[str]) -> _Pack:
        """Bit-vector terms that hold the values of the bounded constants among `names`."""
        chunks: list[list[tuple[str, int, bool]]] = [[]]
        loose: list[str] = []
        width = 0
        for name in names:
            type_name = self.type_of(name)
            # only a constant of the scenario's vocabulary has its range asserted
            largest = self.g.largest(type_name) if name in self.g.constants else None
            if largest is None:
                loose.append(name)
                continue
            if width >= _CHUNK_BITS:
                chunks.append([])
                width = 0
            size = max(largest.bit_length(), 1)
            chunks[-1].append((name, size, type_name == "bool"))
            width += size
        chunks = [c for c in chunks if c]
        # declared afresh by name and sort, the constants are the solver's own
        lines = [self.g.declaration(n, self.type_of(n)) for c in chunks for n, _, _ in c]
        for chunk in chunks:
            parts = " ".join(f"(ite {n} #b1 #b0)" if boolean else f"((_ int2bv {size}) {n})"
                             for n, size, boolean in chunk)
            term = f"(concat {parts} #b0)"  # a trailing bit keeps a one-constant chunk a valid concat
            lines.append(f"(assert (= {term} {term}))")
        try:
            parsed = z3.parse_smt2_string("\n".join(lines), ctx=self.ctx)
        except z3.Z3Exception as exc:
            raise SolverError(f"the solver rejected a batch read: {_message(exc)}") from None
        packed = [z3.BitVecRef(z3.Z3_get_app_arg(self.ctx.ref(), a.as_ast(), 0), self.ctx) for a in parsed]
        terms = [z3.Extract(t.size() - 1, 1, t) for t in packed]
        return _Pack([(t, c, sum(size for _, size, _ in c)) for t, c in zip(terms, chunks)], loose)

    def type_of(self, name: str) -> str:
        ref = self.g.constants.get(name)
        if ref is not None:
            return ref.type
        type_name = self.g.derived.get(name)
        if type_name is None:
            raise SolverError(f"unknown solver constant {name}")
        return type_name


_PARSED = 256  # the most `extra` texts a session keeps parsed
_FEW = 1000  # shorter lists are read one constant at a time: cheaper than making a batch
_CHUNK_BITS = 2048
_SPLIT = re.compile(r"(\|[^|]*\|)")  # splits SMT-LIB text around its constants' names
_COPIED = re.compile(r"\|(o|od|q):")  # a first copy's constant (see `second_copy`)


def _raw(function: Callable[..., object]) -> Callable[..., Any]:
    """The C function behind one of z3core's wrappers, called without its error check (for calls that cannot
    fail on the terms they are given)."""
    return function.__defaults__[0].f  # type: ignore[index]


def _units(ref: Any, units: Any, names: _Names | None) -> tuple[dict[str, bool | int], dict[str, int], dict[str, int]]:
    """The truth values Z3's `units` (an AST vector) give Boolean constants, by name, and the lower and upper
    bounds they give whole-number ones. `names`: the names of the context's constants met before (see `_Names`),
    which the constants met first are added to."""
    get, size, decl_of, kind_of, arg_of, args_of, name_of, text_of, ast_kind, numeral = (
        _C.vector_get, _C.vector_size, _C.decl_of, _C.kind_of, _C.arg_of, _C.args_of, _C.name_of, _C.text_of,
        _C.ast_kind, _C.numeral)
    uninterpreted, negation, equal, at_least, at_most = (z3.Z3_OP_UNINTERPRETED, z3.Z3_OP_NOT, z3.Z3_OP_EQ,
                                                         z3.Z3_OP_GE, z3.Z3_OP_LE)
    number = z3.Z3_NUMERAL_AST
    ref = ref.value
    units = units.value
    if names is None:
        names = _Names(ref, lasting=False)
    named, add = names.by_address.get, names.add

    def name_of_decl(d: int, term: int) -> str | None:
        """The name of the constant `term` (whose declaration is `d`), None when it is no constant."""
        known = named(d)
        if known is not None:
            return known
        if kind_of(ref, d) != uninterpreted or args_of(ref, term) != 0:
            return None
        text: str = text_of(ref, name_of(ref, d)).decode()
        add(d, term, text)
        return text

    def constant(term: int) -> str | None:
        """The name of `term` when it is a constant (every term of a unit is an application, a number too)."""
        d = decl_of(ref, term)
        known = named(d)
        if known is not None or d in kinds:
            return known
        return name_of_decl(d, term)

    found: dict[str, bool | int] = {}
    low: dict[str, int] = {}
    high: dict[str, int] = {}
    kinds = names.kinds  # the declarations of not, =, the bounds, +, * and ite met, by address, with their kinds
    lasting = (negation, equal, at_least, at_most, z3.Z3_OP_ADD, z3.Z3_OP_MUL, z3.Z3_OP_ITE)

    def kind_of_decl(d: int) -> int:
        kind = kinds.get(d)
        if kind is None:
            kind = kind_of(ref, d)
            if kind in lasting:  # Z3 keeps these declarations (one for each sort) for the context's life
                kinds[d] = kind
        return kind

    for i in range(size(ref, units)):
        term = get(ref, units, i)
        d = decl_of(ref, term)
        known = named(d)
        if known is not None:
            found[known] = True
            continue
        kind = kind_of_decl(d)
        negated = kind == negation
        if negated:
            term = arg_of(ref, term, 0)
            d = decl_of(ref, term)
            known = named(d)
            if known is not None:
                found[known] = False
                continue
            kind = kind_of_decl(d)
        if kind == uninterpreted:
            name = name_of_decl(d, term)
            if name is not None:
                found[name] = not negated
            continue
        if kind not in (equal, at_least, at_most):  # each of them has two arguments
            continue
        left, right = arg_of(ref, term, 0), arg_of(ref, term, 1)
        if ast_kind(ref, right) == number:
            name, value = constant(left), right
        elif kind == equal and ast_kind(ref, left) == number:
            name, value = constant(right), left
        else:
            continue
        if name is None:
            continue
        v = int(numeral(ref, value))
        if kind == equal:
            if not negated:
                low[name] = high[name] = v
        elif (kind == at_least) != negated:  # name >= v, or not (name <= v - 1)
            v = v + 1 if negated else v
            low[name] = max(low.get(name, v), v)
        else:  # name <= v, or not (name >= v + 1)
            v = v - 1 if negated else v
            high[name] = min(high.get(name, v), v)
    return found, low, high


class _Direct:
    """Z3's C functions called with addresses as plain numbers, with no conversion of their arguments in Python
    (the wrappers of z3core convert each argument, which costs more than the call): for loops over many terms.
    None of them fails on the terms they are given."""

    def __init__(self) -> None:
        ptr, uint, text = ctypes.c_void_p, ctypes.c_uint, ctypes.c_char_p

        def made(name: str, result: Any, *arguments: Any) -> Any:
            # the function z3core's wrapper calls, by its address
            address = ctypes.cast(_raw(getattr(z3, name)), ctypes.c_void_p).value  # type: ignore[arg-type]
            assert address is not None
            return ctypes.PYFUNCTYPE(result, *arguments)(address)

        self.vector_get = made("Z3_ast_vector_get", ptr, ptr, ptr, uint)
        self.vector_size = made("Z3_ast_vector_size", uint, ptr, ptr)
        self.decl_of = made("Z3_get_app_decl", ptr, ptr, ptr)
        self.kind_of = made("Z3_get_decl_kind", uint, ptr, ptr)
        self.arg_of = made("Z3_get_app_arg", ptr, ptr, ptr, uint)
        self.args_of = made("Z3_get_app_num_args", uint, ptr, ptr)
        self.name_of = made("Z3_get_decl_name", ptr, ptr, ptr)
        self.text_of = made("Z3_get_symbol_string", text, ptr, ptr)
        self.ast_kind = made("Z3_get_ast_kind", uint, ptr, ptr)
        self.numeral = made("Z3_get_numeral_string", text, ptr, ptr)
        self.inc_ref = made("Z3_inc_ref", None, ptr, ptr)
        self.dec_ref = made("Z3_dec_ref", None, ptr, ptr)
        self.evaluate = made("Z3_model_eval", ctypes.c_bool, ptr, ptr, ptr, ctypes.c_bool, ctypes.POINTER(ptr))
        self.truth = made("Z3_get_bool_value", ctypes.c_int, ptr, ptr)


_C = _Direct()


class _Names:
    """The names of a context's constants by the address of their declaration, for reading Z3's terms with fewer
    calls into it. With `lasting`, each constant named is kept alive (so no other declaration can take its
    address) until the table is cleared, past `_NAMES` constants."""

    def __init__(self, ref: int, lasting: bool) -> None:
        self.ref = ref
        self.lasting = lasting
        self.by_address: dict[int, str] = {}
        self.kinds: dict[int, int] = {}
        self.kept: list[int] = []

    def add(self, address: int, term: int, name: str) -> None:
        if self.lasting:
            if len(self.kept) >= _NAMES:
                self.clear()
            _C.inc_ref(self.ref, term)
            self.kept.append(term)
        self.by_address[address] = name

    def clear(self) -> None:
        for term in self.kept:
            _C.dec_ref(self.ref, term)
        self.kept.clear()
        self.by_address.clear()


_NAMES = 100_000
_MAKE_SYMBOL, _MAKE_CONSTANT, _DECL_OF = _raw(z3.Z3_mk_string_symbol), _raw(z3.Z3_mk_const), _raw(z3.Z3_get_app_decl)


class _Pack(NamedTuple):
    chunks: list[tuple[z3.BitVecRef, list[tuple[str, int, bool]], int]]
    loose: list[str]


def _read_value(ctx: z3.Context, model: z3.ModelRef, term: z3.Ast, boolean: bool) -> bool | int:
    """The value `model` gives the raw term `term` (a constant it leaves out takes a default): a truth value
    when `boolean`, else a whole number. Z3's C API is called directly: its Python wrappers cost several
    times the evaluation. The value Z3 returns stays alive until the next call that returns a term."""
    ref = ctx.ref()
    value = (z3.Ast * 1)()
    if not z3.Z3_model_eval(ref, model.model, term, True, value):
        raise SolverError("the solver could not evaluate a term in its model")
    if boolean:
        return bool(z3.Z3_get_bool_value(ref, value[0]) == z3.Z3_L_TRUE)
    return int(z3.Z3_get_numeral_string(ref, value[0]))


def _message(exc: z3.Z3Exception) -> str:
    """A Z3 exception's message as text ("out of memory"), for `Session.gave_up`."""
    value = exc.value
    text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    return text if "memory" in text else f"solver error: {text}"
