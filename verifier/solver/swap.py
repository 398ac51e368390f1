"""A case grounded once, answered under variants of the rule base that differ from it in a few rules.

Every rule's instances are asserted behind one literal per rule, and a variant's own versions of the
rules it changes behind a literal of their own: answering the case under a variant is a set of
literals to assume, never a grounding afresh. A variant that changes a definition a question uses has
that question's terms grounded once more, beside the case's own, and read in their place. The answers
are the engine's verdicts and values (an open question's verdict without its witnesses); nothing is
minimised or re-checked.
"""

from __future__ import annotations

__all__ = ["SwitchedCase"]

from collections.abc import Collection, Mapping, Sequence

from ..errors import Location, SolverError
from ..language.encoding import Rule, RuleBase
from ..scenario.model import Fact, Question, Scenario
from ..verdicts import CaseResult, Verdict
from .backend import SAT, UNKNOWN, UNSAT, Session
from .engine import _Case
from .grounding import (
    GroundedBase,
    RuleGrounder,
    RuleInstance,
    Term,
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

    def __init__(self, scenario: Scenario, rules: RuleBase, timeout_ms: int, memory_mb: int | None = None,
                 base: GroundedBase | None = None) -> None:
        """`base`: the scenario's rules and facts as grounded already (see `ground`), when they are. A folded
        base (`GroundedBase.folded`) serves a variant that only leaves rules out (see `CaseRun.case`)."""
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
            self.g, self.memo = ground_with_memo(scenario, rules, base)
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
        where = Location(scenario.path, 0)
        self.literal = {rid: smt_symbol(f"t:{rid}") for rid in bodies}
        # a rule whose every instance the pinned inputs make hold (on a folded base) has instances, none in force
        self.instances = {rid: tuple(b) for rid, b in bodies.items()}
        self.instances.update((rid, ()) for rid in sorted(self.g.held_by_inputs) if rid not in bodies)
        self.g.tracked = [Tracked(self.literal[rid], f"(and true {' '.join(b)})",
                                  Fact("rule", (rid,), True, f"{rid} holds", where)) for rid, b in bodies.items()]
        self.session = Session(self.g, timeout_ms, memory_mb, tracked=True)
        self.session.parsed = {}  # answers, not witnesses, are read here: any model will do
        self.session.extend(facts)  # outright: facts are inputs, which the second copy shares
        self.variants: dict[tuple[str, ...], str] = {}  # bodies of rules put in -> their literal
        self.copied_up_to = 0  # the background the second copy covers
        self.all = list(self.literal.values())
        # literals that, in force, keep the answers as they are (`unchanged`), by the questions' terms read
        self.proofs: dict[tuple[tuple[str, str], ...], list[frozenset[str]]] = {}
        self.asked: dict[tuple[str, str], str] = {}  # (question, its expression) -> the name of its terms
        self.asking: Mapping[str, str] = {}  # question -> the name of the terms read for it now

    def parts(self, name: str) -> tuple[Term, ...]:
        second = name.startswith("@2:")
        bare = name[3:] if second else name
        return self.g.questions[("@2:" if second else "") + self.asking.get(bare, bare)]

    def ground_questions(self, grounder: RuleGrounder, chosen: Sequence[Question]) -> dict[str, str]:
        """The questions of `chosen` (the case's questions, each with a variant's expression, read with that
        variant's `grounder`; a definition the variant changes has another name) whose terms differ from the
        case's own: each question's name -> the name under which its terms are grounded (to pass to `answers`
        and `unchanged`). Raises `EncodingError` when one cannot be grounded."""
        out: dict[str, str] = {}
        for q in chosen:
            key = (q.name, repr(q.expr))
            name = self.asked.get(key)
            if name is None:
                name = f"{q.name}@v{len(self.asked)}"
                parts = grounder.ground_question(self.sc, self.g, q, name, self.memo)
                if parts is None:
                    name = q.name
                else:
                    self.g.questions[name] = parts
                    if self.has_copy:
                        self._extend_copy()
                    self.session.extend(())
                self.asked[key] = name
            if name != q.name:
                out[q.name] = name
        return out

    def ground_rules(self, grounder: RuleGrounder, chosen: Sequence[Rule]) -> dict[str, tuple[str, ...]]:
        """The instances' bodies of `chosen` (rules of a variant of the case's rule base, whose `grounder`
        is given; a definition the variant changes has another name), by rule ID, grounded over the case.
        Raises `EncodingError` when one cannot be."""
        out: dict[str, list[str]] = {r.id: [] for r in chosen}
        for inst, body in grounder.ground(self.sc, self.g, list(chosen), self.memo):
            out[inst.rule.id].append(body)
        return {rid: tuple(b) for rid, b in out.items()}

    def answers(self, left_out: Collection[str] = (), put_in: Sequence[str] = (),
                asked: Mapping[str, str] | None = None) -> CaseResult:
        """Every question's verdict and value (an open question's without witnesses) with the instances of
        the rules `left_out` out of force and the rule instance bodies `put_in` in force, each question named
        in `asked` read from the terms of the name given (see `ground_questions`)."""
        if self.limit_hit:
            return self.finish(lambda q: self.result(q, Verdict.UNKNOWN, reason=self.limit_hit))
        self.asking = asked or {}
        try:
            return self._answers(left_out, put_in)
        finally:
            self.asking = {}

    def _answers(self, left_out: Collection[str], put_in: Sequence[str]) -> CaseResult:
        assume = [lit for rid, lit in self.literal.items() if rid not in left_out]
        if put_in:
            assume.append(self._literal_of(tuple(put_in)))
        self.all = assume
        first = self.session.check(assume)
        if first.status == UNKNOWN:
            return self.finish(lambda q: self.result(q, Verdict.UNKNOWN, reason=first.reason))
        if first.status == UNSAT:
            return self.finish(lambda q: self.result(q, Verdict.CONTRADICTION))
        base = {q.name: self.raws(self.parts(q.name)) for q in self.sc.questions}
        if not left_out and not put_in and not self.asking:
            self.baseline = base
        settling = self.settled(base)
        return self.finish(lambda q: self.question(q, base[q.name], settling))

    def unchanged(self, before: CaseResult, left_out: Collection[str] = (), put_in: Sequence[str] = (),
                  asked: Mapping[str, str] | None = None) -> bool:
        """Whether the answers `before` (the case's answers with every rule in force) provably stay the same
        with the rules `left_out` out of force, the bodies `put_in` in force and the questions named in `asked`
        read from other terms (as `answers` takes them), in at most two solver checks and often none; False
        when that would take more.

        A determined question keeps its value when the case stays consistent and no outcome can give it
        another value; a contradiction stays when the rules in force still conflict. Both are unsatisfiable
        checks, whose cores (sets of rules, or of rules and variants) are kept: a later variant that keeps
        every rule of one in force needs no check. Leaving rules out only allows more outcomes: an outcome
        allowed before still is (the case stays consistent, an ambiguous question ambiguous). A
        choice-dependent question could become ambiguous, and, with rules put in, an ambiguous one
        determined, and so could a question read from other terms: with one of those, this says False."""
        asked = asked or {}
        verdicts = {r.verdict for r in before.results}
        assume = [lit for rid, lit in self.literal.items() if rid not in left_out]
        if put_in:
            assume.append(self._literal_of(tuple(put_in)))
        extra: list[str] = []
        if verdicts != {Verdict.CONTRADICTION}:
            allowed = {Verdict.DETERMINED} if put_in or asked else {Verdict.DETERMINED, Verdict.AMBIGUOUS}
            if not verdicts <= allowed or self.baseline is None:
                return False
            if put_in and self.session.check(assume).status != SAT:
                return False
            base = self.baseline
            differ = []
            for r in before.results:
                if r.verdict is not Verdict.DETERMINED:
                    continue
                parts = self.g.questions[asked.get(r.question, r.question)]
                if all(t.known for t in parts):
                    if self.raws(parts) != base[r.question]:
                        return False
                    continue
                differ.append(self.differs(parts, base[r.question]))
            if not differ:
                return True
            extra = [f"(or {' '.join(differ)})"]
        assumed = set(assume)
        proofs = self.proofs.setdefault(tuple(sorted(asked.items())), [])
        if any(proof <= assumed for proof in proofs):
            return True
        if self.session.check(assume, extra).status != UNSAT:
            return False
        proofs.append(frozenset(self.session.core()))
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
        for name, parts in list(self.g.questions.items()):
            if not name.startswith("@2:") and "@2:" + name not in self.g.questions:
                self.g.questions["@2:" + name] = tuple(t if t.smt is None else t._replace(smt=copied(t.smt))
                                                       for t in parts)

    def _load_copy(self, always: bool = False) -> bool:
        if not always and not any(not t.known for q in self.sc.questions for t in self.parts(q.name)):
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
