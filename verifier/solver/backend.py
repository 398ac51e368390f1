"""The only module that talks to Z3: loads a grounding, answers checks, returns plain values.

Everything that leaves this module is a Python value: a `Check` status, a list of assertion
names, a dict of raw values (whole numbers and truth values, as the grounding encodes them).
Z3's own errors are wrapped in `SolverError`.
"""

from __future__ import annotations

__all__ = ["Session", "Check", "SAT", "UNSAT", "UNKNOWN"]

import re
import threading
from collections.abc import Iterable, Sequence
from typing import NamedTuple

import z3

from ..errors import SolverError
from .grounding import Grounding, mentioned, value_smt

SAT, UNSAT, UNKNOWN = "sat", "unsat", "unknown"
SEED = 0
_DEFINITION = re.compile(r"\(define-fun (\|[^|]*\||\S+) \(\) \w+\s+(\(- \d+\)|-?\d+|true|false)\)")


class Check(NamedTuple):
    """The outcome of one solver call."""

    status: str
    reason: str = ""


_prepared: dict[str, object] = {}


def prepare_context() -> None:
    """Start making a Z3 context in the background, for the next session to take.

    Making a context is C work that does not hold Python's lock, so it overlaps with reading
    the rules and the case. Only for a process that will not fork while the thread runs.
    """
    if "worker" not in _prepared:
        made: list[z3.Context] = []
        worker = threading.Thread(target=lambda: made.append(z3.Context()), daemon=True)
        worker.start()
        _prepared.update(worker=worker, made=made)


def _fresh_context() -> z3.Context:
    worker = _prepared.pop("worker", None)
    made = _prepared.pop("made", None)
    if isinstance(worker, threading.Thread) and isinstance(made, list):
        worker.join()
        if made:
            return made[0]  # type: ignore[no-any-return]
    return z3.Context()


class Session:
    """A Z3 solver loaded with one grounding's declarations and assertions.

    With `tracked`, every rule instance and fact is asserted behind its own literal, so a
    check may assume any subset of them and an unsatisfiable one has a core; without, they
    are asserted outright, which is much faster, and `assume` is ignored.
    """

    def __init__(self, grounding: Grounding, timeout_ms: int, memory_mb: int | None = None,
                 tracked: bool = False) -> None:
        self.g = grounding
        self.tracked = tracked
        self.timeout_ms = timeout_ms
        self.memory_mb = memory_mb
        # A context of its own: what Z3 does must not depend on which cases were checked before.
        self.ctx = _fresh_context()
        # Z3 keeps this setting for the whole process. It is in force only while a check runs:
        # out of memory while loading, Z3 may end the process.
        z3.set_param("memory_max_size", 0)
        # Z3's plain incremental solver: on these problems it answers the many small checks
        # (with assumptions, one after another) faster than the tactic-based ones.
        self.solver = z3.SimpleSolver(ctx=self.ctx)
        self.solver.set("random_seed", SEED)
        self.solver.set("timeout", int(timeout_ms))
        self.model_cache: z3.ModelRef | None = None
        self.has_model = False
        self.last_core: list[str] = []
        self.handles: dict[str, z3.ExprRef] = {}
        self.declared: set[str] = set()
        self.background_done = 0
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
        lines = []
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

    def _load(self, lines: list[str]) -> None:
        try:
            self.solver.from_string("\n".join(lines))
        except z3.Z3Exception as exc:
            raise SolverError(f"the solver rejected the grounded rules: {exc}") from None

    def extend(self, bodies: Sequence[str]) -> None:
        """Declare constants the grounding gained since loading and assert `bodies` untracked."""
        self._load(self._declarations() + [f"(assert {b})" for b in bodies])

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
            self.handles[bare] = (z3.Bool(bare, self.ctx) if type_name == "bool" else z3.Int(bare, self.ctx))
        return self.handles[bare]

    def parse(self, text: str) -> list[z3.BoolRef]:
        decls = {n.strip("|"): self.handle(n) for n in sorted(mentioned(text))}
        return list(z3.parse_smt2_string(text, decls=decls, ctx=self.ctx))

    def check(self, assume: Iterable[str] = (), extra: Sequence[str] = ()) -> Check:
        """Check the assertions (those named in `assume`, when tracked) with `extra` terms assumed."""
        try:
            lits: list[z3.ExprRef] = [self.literals[n] for n in assume] if self.tracked else []
            if extra:
                lits += self.parse("\n".join(f"(assert {e})" for e in extra))
            return self._check(lits)
        except z3.Z3Exception as exc:
            return Check(UNKNOWN, self.gave_up(_message(exc)))

    def check_pinned(self, values: dict[str, object]) -> Check:
        """Check with each named constant fixed to a raw value."""
        pins = "\n".join(f"(assert (= {n} {value_smt(v)}))" for n, v in values.items())
        try:
            self.solver.push()
            try:
                # The solver keeps the declarations it was loaded with, so the text parses in C.
                self.solver.from_string(pins)
                return self._check([])
            finally:
                self.solver.pop()
        except z3.Z3Exception as exc:
            return Check(UNKNOWN, self.gave_up(_message(exc)))

    def _check(self, assumptions: list[z3.ExprRef]) -> Check:
        self.model_cache = None
        self.has_model = False
        # Z3's Python check() re-casts every assumption on each call; pass them to the C API as they are.
        array = (z3.Ast * len(assumptions))(*(a.as_ast() for a in assumptions))
        z3.set_param("memory_max_size", self.memory_mb or 0)
        try:
            code = z3.Z3_solver_check_assumptions(self.ctx.ref(), self.solver.solver, len(assumptions), array)
        finally:
            z3.set_param("memory_max_size", 0)
        result = z3.CheckSatResult(code)
        if result == z3.sat:
            self.has_model = True
            return Check(SAT)
        if result == z3.unsat:
            names = (str(c) for c in self.solver.unsat_core())
            self.last_core = sorted("|" + n + "|" for n in names if n.startswith(("t:", "f:")))
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
        return list(self.last_core)

    def model_values(self) -> dict[str, object]:
        """Every constant's raw value in the last satisfiable check's model, read in one go."""
        if not self.has_model:
            raise SolverError("no model is available")
        if self.model_cache is None:
            self.model_cache = self.solver.model()
        text = z3.Z3_model_to_string(self.ctx.ref(), self.model_cache.model)
        out: dict[str, object] = {}
        for name, value in _DEFINITION.findall(text):
            quoted = name if name.startswith("|") else "|" + name + "|"
            value = value.strip()
            if value in ("true", "false"):
                out[quoted] = value == "true"
            elif value.startswith("(-"):
                out[quoted] = -int(value[2:-1])
            else:
                out[quoted] = int(value)
        return out

    def values(self, names: Iterable[str]) -> dict[str, object]:
        """Raw values of named constants in the last satisfiable check's model."""
        if self.model_cache is None:
            if not self.has_model:
                raise SolverError("no model is available")
            self.model_cache = self.solver.model()
        out: dict[str, object] = {}
        for name in names:
            v = self.model_cache.evaluate(self.handle(name), model_completion=True)
            out[name] = True if z3.is_true(v) else False if z3.is_false(v) else v.as_long()  # type: ignore[attr-defined]
        return out


def _message(exc: z3.Z3Exception) -> str:
    """A Z3 exception's message as text ("out of memory"), for `Session.gave_up`."""
    value = exc.value
    text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    return text if "memory" in text else f"solver error: {text}"
