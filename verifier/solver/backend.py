"""The only module that talks to Z3: loads a grounding, answers checks, returns plain values.

Everything that leaves this module is a Python value: a `Check` status, a list of assertion
names, a dict of symbol values. Z3's own errors are wrapped in `SolverError`.
"""

from __future__ import annotations

__all__ = ["Session", "Check", "SAT", "UNSAT", "UNKNOWN"]

from dataclasses import dataclass
from typing import Iterable, Sequence

import z3

from ..errors import SolverError
from .grounding import Grounding

SAT, UNSAT, UNKNOWN = "sat", "unsat", "unknown"
SEED = 0


@dataclass(frozen=True)
class Check:
    """The outcome of one solver call."""

    status: str
    reason: str = ""


def _configure(memory_mb: int | None) -> None:
    z3.set_param("smt.random_seed", SEED)
    z3.set_param("sat.random_seed", SEED)
    if memory_mb:
        z3.set_param("memory_max_size", memory_mb)


class Session:
    """A Z3 solver loaded with one grounding's declarations and assertions."""

    def __init__(self, grounding: Grounding, timeout_ms: int, memory_mb: int | None = None) -> None:
        _configure(memory_mb)
        self.g = grounding
        self.ctx = z3.Context()
        self.solver = z3.Solver(ctx=self.ctx)
        self.solver.set("random_seed", SEED)
        self.solver.set("timeout", int(timeout_ms))
        self.sorts: dict[str, z3.SortRef] = {}
        self.decls: dict[str, z3.AstRef] = {}
        self.model_cache: z3.ModelRef | None = None
        self.last_core: list[str] = []
        try:
            self._declare()
            self.literals = {t.name: z3.Bool(t.name.strip("|"), self.ctx) for t in grounding.tracked}
            for lit in self.literals.values():
                self.decls[str(lit)] = lit
            text = ["(assert " + b + ")" for b in grounding.background]
            text += [f"(assert (=> {t.name} {t.body}))" for t in grounding.tracked]
            self.background_done = len(grounding.background)
            self.solver.add(self.parse("\n".join(text)))
        except z3.Z3Exception as exc:
            raise SolverError(f"the solver rejected the grounded rules: {exc}") from None

    def _declare(self) -> None:
        for name, members in self.g.datatypes.items():
            dt = z3.Datatype(name.strip("|"), ctx=self.ctx)
            for m in members:
                dt.declare(m.strip("|"))
            self.sorts[name] = dt.create()
        self._declare_constants()

    def _declare_constants(self) -> None:
        for name, ref in self.g.constants.items():
            if name.strip("|") not in self.decls:
                self.decls[name.strip("|")] = z3.Const(name.strip("|"), self._sort(ref.type))
        for name, type_name in self.g.derived.items():
            if name.strip("|") not in self.decls:
                self.decls[name.strip("|")] = z3.Const(name.strip("|"), self._sort(type_name))

    def extend(self, bodies: Sequence[str]) -> None:
        """Declare constants the grounding gained since loading and assert `bodies` untracked."""
        self._declare_constants()
        fresh = self.g.background[self.background_done:]
        self.background_done = len(self.g.background)
        self.add([*fresh, *bodies])

    def _sort(self, type_name: str) -> z3.SortRef:
        if type_name == "bool":
            return z3.BoolSort(self.ctx)
        if type_name in ("int", "step", "turn"):
            return z3.IntSort(self.ctx)
        return self.sorts["|S:" + type_name + "|"]

    def add(self, terms: Sequence[str]) -> None:
        """Assert `terms` for every later check."""
        try:
            self.solver.add(self.parse("\n".join(f"(assert {t})" for t in terms)))
        except z3.Z3Exception as exc:
            raise SolverError(f"the solver rejected an assertion: {exc}") from None

    def parse(self, text: str) -> z3.AstVector:
        sorts = {k.strip("|"): v for k, v in self.sorts.items()}
        return z3.parse_smt2_string(text, sorts=sorts, decls=self.decls, ctx=self.ctx)

    def check(self, assume: Iterable[str], extra: Sequence[str] = ()) -> Check:
        """Check the assertions whose names are in `assume`, plus `extra` terms, for one call."""
        lits = [self.literals[n] for n in assume]
        self.model_cache = None
        try:
            if extra:
                self.solver.push()
                self.solver.add(self.parse("\n".join(f"(assert {e})" for e in extra)))
            try:
                result = self.solver.check(*lits)
                if result == z3.sat:
                    self.model_cache = self.solver.model()
                elif result == z3.unsat:
                    self.last_core = sorted("|" + str(c) + "|" for c in self.solver.unsat_core())
            finally:
                if extra:
                    self.solver.pop()
        except z3.Z3Exception as exc:
            return Check(UNKNOWN, f"solver error: {exc}")
        if result == z3.sat:
            return Check(SAT)
        if result == z3.unsat:
            return Check(UNSAT)
        return Check(UNKNOWN, self.solver.reason_unknown() or "unknown")

    def core(self) -> list[str]:
        """Names of the assumed assertions in the last unsatisfiable check's core."""
        return list(self.last_core)

    def values(self, names: Iterable[str]) -> dict[str, object]:
        """Values of named constants in the last satisfiable check's model, as plain Python."""
        if self.model_cache is None:
            raise SolverError("no model is available")
        out: dict[str, object] = {}
        for name in names:
            out[name] = _plain(self.model_cache.eval(self.decls[name.strip("|")], model_completion=True))
        return out


def _plain(v: z3.ExprRef) -> object:
    if z3.is_true(v):
        return True
    if z3.is_false(v):
        return False
    if z3.is_int_value(v):
        return v.as_long()
    name = v.decl().name()
    return name.split(":", 2)[2] if name.startswith("v:") else name
