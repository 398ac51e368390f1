"""A case grounded once, answered under variants of the rule base that differ from it in a few rules.

Every rule's instances are asserted behind one literal per rule, and a variant's own versions of the
rules it changes behind a literal of their own: answering the case under a variant is a set of
literals to assume, never a grounding afresh. The answers are the engine's verdicts and values (an
open question's verdict without its witnesses); nothing is minimised or re-checked.
"""

from __future__ import annotations

__all__ = ["SwitchedCase"]

from collections.abc import Collection, Sequence

from ..errors import Location, SolverError
from ..language.encoding import Rule, RuleBase
from ..scenario.model import Fact, Scenario
from ..verdicts import CaseResult, Verdict
from .backend import SAT, UNKNOWN, UNSAT, Session
from .engine import _Case
from .grounding import (
    RuleGrounder,
    RuleInstance,
    Tracked,
    copied,
    copy_since,
    ground_with_memo,
    second_copy,
    smt_symbol,
)


class SwitchedCase(_Case):
    """One scenario grounded once; `answers` gives every question's verdict with some rules left out
    and others (grounded by `ground_rules`) put in their place."""

    def __init__(self, scenario: Scenario, rules: RuleBase, timeout_ms: int, memory_mb: int | None = None) -> None:
        self.sc = scenario
        self.rules = rules
        self.doc = None
        self.limit_hit = ""
        self.left_out = ()
        self.witnesses = False
        self.first_status = ""
        self.model_checked = False
        self.core_names = []
        self.by_name = {}
        self.has_copy = False
        self.limits = (timeout_ms, memory_mb)
        self.instances: dict[str, tuple[str, ...]] = {}  # rule ID -> its instances' bodies, in binding order
        self.baseline: dict[str, tuple[object, ...]] | None = None  # the questions' raw values, every rule in force
        self.active = frozenset(r.id for r in rules.active_rules(scenario.interpretations))
        try:
            self.g, self.memo = ground_with_memo(scenario, rules)
        except SolverError as exc:  # the case is too large to ground
            self.limit_hit = str(exc)
            return
        facts: list[str] = []
        bodies: dict[str, list[str]] = {}
        for t in self.g.tracked:
            if isinstance(t.origin, RuleInstance):
                bodies.setdefault(t.origin.rule.id, []).append(t.body)
            else:
                facts.append(t.body)
        self.instances = {rid: tuple(b) for rid, b in bodies.items()}
        where = Location(scenario.path, 0)
        self.literal = {rid: smt_symbol(f"t:{rid}") for rid in self.instances}
        self.g.tracked = [Tracked(self.literal[rid], f"(and true {' '.join(b)})",
                                  Fact("rule", (rid,), True, f"{rid} holds", where)) for rid, b in bodies.items()]
        self.session = Session(self.g, timeout_ms, memory_mb, tracked=True)
        self.session.parsed = {}  # answers, not witnesses, are read here: any model will do
        self.session.extend(facts)  # outright: facts are inputs, which the second copy shares
        self.variants: dict[tuple[str, ...], str] = {}  # bodies of rules put in -> their literal
        self.copied_up_to = 0  # the background the second copy covers
        self.all = list(self.literal.values())
        self.proofs: list[frozenset[str]] = []  # literals that, in force, keep the answers as they are (`unchanged`)

    def ground_rules(self, grounder: RuleGrounder, chosen: Sequence[Rule]) -> dict[str, tuple[str, ...]]:
        """The instances' bodies of `chosen` (rules of a variant of the case's rule base, whose `grounder`
        is given; a definition the variant changes has another name), by rule ID, grounded over the case.
        Raises `EncodingError` when one cannot be."""
        out: dict[str, list[str]] = {r.id: [] for r in chosen}
        for inst, body in grounder.ground(self.sc, self.g, list(chosen), self.memo):
            out[inst.rule.id].append(body)
        return {rid: tuple(b) for rid, b in out.items()}

    def answers(self, left_out: Collection[str] = (), put_in: Sequence[str] = ()) -> CaseResult:
        """Every question's verdict and value (an open question's without witnesses) with the instances of
        the rules `left_out` out of force and the rule instance bodies `put_in` in force."""
        if self.limit_hit:
            return self.finish(lambda q: self.result(q, Verdict.UNKNOWN, reason=self.limit_hit))
        assume = [lit for rid, lit in self.literal.items() if rid not in left_out]
        if put_in:
            assume.append(self._literal_of(tuple(put_in)))
        self.all = assume
        first = self.session.check(assume)
        if first.status == UNKNOWN:
            return self.finish(lambda q: self.result(q, Verdict.UNKNOWN, reason=first.reason))
        if first.status == UNSAT:
            return self.finish(lambda q: self.result(q, Verdict.CONTRADICTION))
        base = {q.name: self.raws(self.g.questions[q.name]) for q in self.sc.questions}
        if not left_out and not put_in:
            self.baseline = base
        settled = self.settled(base)
        return self.finish(lambda q: self.question(q, base[q.name], q.name in settled))

    def unchanged(self, before: CaseResult, left_out: Collection[str] = (), put_in: Sequence[str] = ()) -> bool:
        """Whether the answers `before` (the case's answers with every rule in force) provably stay the same
        with the rules `left_out` out of force and the bodies `put_in` in force, in at most two solver checks
        and often none; False when that would take more.

        A determined question keeps its value when the case stays consistent and no outcome can give it
        another value; a contradiction stays when the rules in force still conflict. Both are unsatisfiable
        checks, whose cores (sets of rules, or of rules and variants) are kept: a later variant that keeps
        every rule of one in force needs no check. Leaving rules out only allows more outcomes: an outcome
        allowed before still is (the case stays consistent, an ambiguous question ambiguous). A
        choice-dependent question could become ambiguous, and, with rules put in, an ambiguous one
        determined: with one of those, this says False."""
        verdicts = {r.verdict for r in before.results}
        assume = [lit for rid, lit in self.literal.items() if rid not in left_out]
        if put_in:
            assume.append(self._literal_of(tuple(put_in)))
        extra: list[str] = []
        if verdicts != {Verdict.CONTRADICTION}:
            allowed = {Verdict.DETERMINED} if put_in else {Verdict.DETERMINED, Verdict.AMBIGUOUS}
            if not verdicts <= allowed or self.baseline is None:
                return False
            if put_in and self.session.check(assume).status != SAT:
                return False
            base = self.baseline
            differ = " ".join(self.differs(self.g.questions[r.question], base[r.question])
                              for r in before.results if r.verdict is Verdict.DETERMINED
                              and not all(t.known for t in self.g.questions[r.question]))
            if not differ:
                return True
            extra = [f"(or {differ})"]
        assumed = set(assume)
        if any(proof <= assumed for proof in self.proofs):
            return True
        if self.session.check(assume, extra).status != UNSAT:
            return False
        self.proofs.append(frozenset(self.session.core()))
        return True

    def _literal_of(self, bodies: tuple[str, ...]) -> str:
        literal = self.variants.get(bodies)
        if literal is None:
            literal = self.variants[bodies] = smt_symbol(f"t:v{len(self.variants)}")
            body = f"(and true {' '.join(bodies)})"
            named = [(literal, body)]
            if self.has_copy:
                self._extend_copy()
                named.append((literal, copied(body)))
            self.session.extend_tracked(named)
        return literal

    def _extend_copy(self) -> None:
        copy_since(self.g, self.copied_up_to)
        self.copied_up_to = len(self.g.background)

    def _load_copy(self, always: bool = False) -> bool:
        if not always and not any(not t.known for q in self.sc.questions for t in self.g.questions[q.name]):
            return False
        if not self.has_copy:
            # each rule's copy behind the rule's own literal, and each variant's behind the variant's
            renamed = second_copy(self.g)  # no rule instance is tracked on its own: this adds the copy's terms only
            assert not renamed
            self.copied_up_to = len(self.g.background)
            named = [(t.name, copied(t.body)) for t in self.g.tracked]
            named += [(lit, copied(f"(and true {' '.join(bodies)})")) for bodies, lit in self.variants.items()]
            self.session.extend_tracked(named)
            self.has_copy = True
        return True
