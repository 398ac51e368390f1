"""The engine: turns a scenario and the rule base into one verdict per question.

Semantics (R: grounded rules, F: facts, C: choices, q: a question):
contradiction iff R and F are unsatisfiable; determined iff R, F and q != v are unsatisfiable
for the value v of some model; ambiguous iff two copies of the outcomes, sharing inputs and
choices, can give q two values; choice-dependent otherwise. Cores are minimised and re-checked;
witnesses, and the first model behind every answer, are re-checked against the rules by the
solver and by the plain-Python reference evaluator before they are reported; one that fails
turns the verdict into `unknown`. Answering a case with `fold`, once it is found satisfiable and a question is
left open, the checks go on over the grounding narrowed to the constants that can take more than one value
(see `_Case.narrow`): the same answers, on a problem a fraction of the size.

A contradiction can also be worked out of (`resolve`): its minimal correction sets (sets of
statements whose rules, left out, leave the case consistent, found by hitting every conflict
found so far with as few statements as possible) and the interpretation rules that make it
consistent, each with every question's answer once it is taken.
"""

from __future__ import annotations

__all__ = ["check_scenario", "explain_scenario", "check_ruling", "screen_scenario", "screen_groups", "possibly_true",
           "screen_asked", "ScenarioScreen",
           "DEFAULT_TIMEOUT_MS", "RULING_SECTION"]

import operator
from collections.abc import Callable, Collection, Mapping
from dataclasses import replace
from functools import cached_property
from itertools import combinations, compress
from typing import NamedTuple

from ..errors import Location, SolverError
from ..language.encoding import RuleBase
from ..language.openness import open_outcomes, statements_naming
from ..reference import Key, Reference, Value, plain_key
from ..rulesdoc import RulesDocument, Statement, in_statement_order, statement_order
from ..scenario.model import Claim, Fact, Question, Scenario
from ..verdicts import (
    Answer,
    CaseResult,
    CoreItem,
    Derivation,
    GroupScreening,
    QuestionResult,
    Resolution,
    RulingCheck,
    RulingVerdict,
    Screening,
    Verdict,
    VerdictChange,
    Witness,
)
from ..vocabulary import SYMBOLS, SymbolKind, display_value
from .backend import SAT, UNKNOWN, UNSAT, Check, Session
from .grounding import (
    GroundedBase,
    Grounding,
    RuleInstance,
    SymbolRef,
    Term,
    Tracked,
    copied,
    ground,
    mentioned,
    narrowed,
    second_copy,
    smt_symbol,
    value_smt,
)

DEFAULT_TIMEOUT_MS = 10_000
RULING_SECTION = "ruling"  # the section of the rules a ruling file proposes
CLAIM = "claim"  # the symbol of a ruling's claimed answer, as a fact
MAX_CHOICE_VALUES = 12
# The search for a contradiction's correction sets stops at the first of these limits.
MAX_CORRECTIONS = 6  # correction sets found
MAX_CORRECTION_CHECKS = 60  # solver checks spent looking for them
MAX_HITTING_SETS = 100_000  # sets of statements tried, in all, when choosing which to check next
# Statements held fixed in a correction set: the game principles the REG takes for granted
# (rules/core.md). A correction set leaves out statements of the REG entries and the glossary.
FIXED_STATEMENTS = "CORE-"
_NO_CORRECTION = (f"no correction set: the core principles ({FIXED_STATEMENTS}), which are held fixed, "
                  "and the case's facts conflict on their own")


class _Unfold(Exception):
    """An answer needs the grounding whose rule bodies name the inputs (see `_Case.unfold`)."""


class Settling(NamedTuple):
    """What `_Case.settled` found: the questions no outcome gives another value, and those some outcome did."""

    settled: frozenset[str]
    moved: frozenset[str]


class _Case:
    screen_only = False  # only screens are asked of it: its session may share the process's context

    def __init__(self, scenario: Scenario, rules: RuleBase, doc: RulesDocument | Callable[[], RulesDocument] | None,
                 timeout_ms: int, memory_mb: int | None, tracked: bool = False, base: GroundedBase | None = None,
                 keep: list[GroundedBase] | None = None, fold: bool = False, screen_only: bool = False) -> None:
        self.sc = scenario
        self.screen_only = screen_only
        self.rules = rules
        self.doc = doc
        self.limit_hit = ""
        self.left_out: tuple[str, ...] = ()  # rules whose instances are not in force, though grounded
        self.witnesses = True  # an open question's verdict comes with its witnesses, re-checked
        self.first_status = ""  # the first check's status (sat, unsat, unknown), once run
        self.model_checked = False  # the model behind the answers passed the reference evaluator
        self.core_names: list[str] = []  # the last conflict found, by assertion name
        # the first values the reference evaluator was given: the reading they came by, their raw and plain values
        self.first_read: tuple[list[tuple[str, Key, str, tuple[str, ...] | None]], tuple[object, ...],
                               dict[Key, Value]] | None = None
        # the rule bodies read the inputs the facts pin as their values (see `ground`), until a conflict is met
        self.folded = fold and base is None and not tracked
        try:
            self.g: Grounding = ground(scenario, rules, base, keep, self.folded)
        except SolverError as exc:  # the only one grounding raises: the case is too large to ground
            self.limit_hit = str(exc)
            return
        self._load(timeout_ms, memory_mb, tracked)

    def _load(self, timeout_ms: int, memory_mb: int | None, tracked: bool) -> None:
        """The claims of a ruling added to the grounding, and the session that holds it."""
        scenario = self.sc
        for claim in scenario.claims:
            fact = Fact(CLAIM, (claim.question,), claim.value, f"the ruling claims {claim.question} = {claim.value}",
                        claim.loc)
            self.g.tracked.append(Tracked(smt_symbol(f"f:{len(self.g.tracked)}"), self.claimed(claim), fact))
        self.session = Session(self.g, timeout_ms, memory_mb, tracked=tracked, shared_context=self.screen_only)
        self.limits = (timeout_ms, memory_mb)
        self.all = [t.name for t in self.g.tracked]
        self.by_name = {t.name: t for t in self.g.tracked}
        self.has_copy = False  # the second copy of the outcomes is asserted
        self.copy_bodies: list[str] | None = None  # its rule bodies, once made (see `second_copy`)
        self.copy_fixed: Mapping[str, bool | int] = {}  # what a narrowed copy reads as values (`_load_narrowed_copy`)

    # -- values ------------------------------------------------------------------------
    def show(self, type_name: str, raw: object) -> str:
        """A raw solver value as the game would say it."""
        if type_name == "step" and isinstance(raw, int):
            return self.sc.step_label(raw)
        return display_value(self.g.decode(type_name, raw))

    def show_ref(self, ref: SymbolRef) -> str:
        params = SYMBOLS[ref.symbol].params
        args = [self.sc.step_label(int(a)) if p == "step" else a for p, a in zip(params, ref.args)]
        return f"{ref.symbol}({', '.join(args)})"

    def value_of(self, term: Term) -> object:
        """The raw value of a question's term in the last model."""
        if term.known:
            return self.g.encode(term.type, term.const)  # type: ignore[arg-type]
        return self.session.read([str(term.smt)])[str(term.smt)]

    def refs(self, kinds: tuple[SymbolKind, ...], prefix: str = "|o:") -> list[SymbolRef]:
        """The grounding's constants of `kinds`, in the order they were declared (of the outcomes, those whose
        names start with `prefix`). Constants are only ever added, so the list is kept until the grounding has more."""
        constants = self.g.constants
        lists: dict[tuple[tuple[SymbolKind, ...], str], tuple[dict[str, SymbolRef], int, list[SymbolRef]]]
        lists = self.__dict__.setdefault("_refs", {})  # made here: the subclasses set up their own attributes
        kept = lists.get((kinds, prefix))
        if kept is not None and kept[0] is constants and kept[1] == len(constants):
            return list(kept[2])
        out = []
        for name, ref in constants.items():
            if ref.kind in kinds and (ref.kind is not SymbolKind.OUTCOME or name.startswith(prefix)):
                out.append(ref)
        lists[(kinds, prefix)] = (constants, len(constants), out)
        return list(out)

    # -- explanation of cores ----------------------------------------------------------
    @cached_property
    def statements(self) -> dict[str, Statement]:
        """The rules document's statements; read only when a conflict is explained."""
        doc = self.doc() if callable(self.doc) else self.doc
        return doc.by_id() if doc else {}

    def describe(self, name: str) -> CoreItem:
        origin = self.by_name[name].origin
        if isinstance(origin, RuleInstance):
            cited = tuple((sid, self.statements[sid].text if sid in self.statements else "(not in the rules document)")
                          for sid in origin.rule.cites)
            return CoreItem("ruling" if origin.rule.section == RULING_SECTION else "rule", origin.label,
                            origin.sentence, str(origin.rule.loc), cited, origin.rule.interpretation,
                            origin.rule.id, origin.binding)
        assert isinstance(origin, Fact)
        text = origin.text + (" (default)" if origin.default else "")
        return CoreItem("fact", origin.name, text, str(origin.loc))

    def minimise(self, session: Session, core: list[str], extra: list[str]) -> tuple[list[str], bool, str]:
        order = {n: i for i, n in enumerate(self.all)}
        current = sorted(core, key=order.__getitem__)
        i = 0
        while i < len(current):
            trial = current[:i] + current[i + 1:]
            result = session.check(trial, extra)
            if result.status == UNSAT:
                keep = set(session.core())
                current = [n for n in trial if n in keep]
            elif result.status == UNKNOWN:
                return current, False, f"minimising stopped: {result.reason}"
            else:
                i += 1
        if session.check(current, extra).status != UNSAT:
            return current, False, "the reported set did not re-check as conflicting"
        for n in current:
            if session.check([m for m in current if m != n], extra).status != SAT:
                return current, False, "the reported set did not re-check as minimal"
        return current, True, ""

    # -- witnesses ---------------------------------------------------------------------
    def recheck(self, values: dict[SymbolRef, object]) -> bool:
        """Whether the rules and facts hold with every outcome and choice fixed to `values`."""
        return self.session.check_pinned({r.smt: v for r, v in values.items()}).status == SAT

    def recheck_choice(self, parts: tuple[Term, ...], value: tuple[object, ...], chosen: dict[SymbolRef, object]) -> bool:
        """Whether the rules and facts hold with every choice fixed to `chosen` and the question's terms
        (`parts`) to `value`: a choice witness as it is shown (a value and the choices that give it)."""
        pins = [f"(= {r.smt} {value_smt(v)})" for r, v in chosen.items()]
        pins += [f"(= {t.smt} {value_smt(v)})" for t, v in zip(parts, value) if not t.known]
        return self.session.check(self.all, [f"(and true {' '.join(pins)})"]).status == SAT

    def refuted(self, values: dict[SymbolRef, object], alone: bool = False) -> str | None:
        """The first rule instance the reference evaluator finds broken by `values` (every outcome and choice);
        with `alone`, no other witness is expected to be re-checked (see `Reference.first_failure`)."""
        return self.refuted_read({r.smt: v for r, v in values.items()}, alone)

    def refuted_read(self, read: Mapping[str, object], alone: bool = False) -> str | None:
        """`refuted` of the raw values of every outcome and choice by solver name, as `Session.read` gives them.

        The values given first are kept: a later read on the same grounding is turned into the reference
        evaluator's values from those, only the raw values that differ from them decoded afresh."""
        reading = self.plain_reading
        raws = self.raw_getter(read) if len(reading) > 1 else tuple(read[name] for name, _, _, _ in reading)
        kept = self.first_read
        if kept is not None and kept[0] is reading:
            before, plain = kept[1], dict(kept[2])
            if raws != before:
                for i in compress(range(len(raws)), map(operator.ne, raws, before)):
                    plain[reading[i][1]] = self.decoded(reading[i], raws[i])
        else:
            plain = {entry[1]: self.decoded(entry, v) for entry, v in zip(reading, raws)}
            if kept is None:
                self.first_read = (reading, raws, plain)
        return self.reference.first_failure(plain, self.left_out, alone)

    def decoded(self, entry: tuple[str, Key, str, tuple[str, ...] | None], raw: object) -> Value:
        """A raw value of the outcome or choice `entry` (of `plain_reading`) as the reference evaluator's value."""
        table = entry[3]
        if table is not None and isinstance(raw, int) and 0 <= raw < len(table):
            return table[raw]
        return self.g.decode(entry[2], raw)

    @cached_property
    def raw_getter(self) -> Callable[[Mapping[str, object]], tuple[object, ...]]:
        """The raw values of `plain_reading`'s outcomes and choices, in its order, from a read by solver name."""
        return operator.itemgetter(*(name for name, _, _, _ in self.plain_reading))

    @cached_property
    def plain_reading(self) -> list[tuple[str, Key, str, tuple[str, ...] | None]]:
        """For every outcome and choice (what a witness gives values to): its solver name, the reference
        evaluator's key of it, its type and the names of that type's values (None for a number or a truth value)."""
        names = self.g.names
        return [(r.smt, plain_key(r.symbol, r.args), r.type, names.get(r.type)) for r in self.model_refs]

    @cached_property
    def reference(self) -> Reference:
        return Reference(self.sc, self.rules)

    # -- verdicts ----------------------------------------------------------------------
    def run(self, resolve: bool = False) -> CaseResult:
        """Every question's verdict; with `resolve`, a contradiction comes with its ways out."""
        if self.limit_hit:
            return self.finish(lambda q: self.result(q, Verdict.UNKNOWN, reason=self.limit_hit))
        first = self.session.check(self.all)
        self.first_status = first.status
        if first.status == UNKNOWN:
            return self.finish(lambda q: self.result(q, Verdict.UNKNOWN, reason=first.reason))
        if first.status == UNSAT:
            self.unfold()
            conflict = self.conflict(self.all)
            if conflict is None:
                return self.finish(lambda q: self.result(q, Verdict.UNKNOWN, reason="the conflict did not re-check"))
            described, verified, why = conflict
            ways, note = self.resolutions(self.core_names) if resolve else ((), "")
            return self.finish(lambda q: self.result(q, Verdict.CONTRADICTION, core=described,
                                                     core_verified=verified, reason=why,
                                                     resolutions=ways, resolutions_note=note))
        base = {q.name: self.raws(self.g.questions[q.name]) for q in self.sc.questions}
        # A case the rule bodies fold may be narrowed below, and then reads the narrowed session's model: its first
        # model is kept, and read only if it is not.
        kept = self.session.model() if self.folded else None
        model = {} if kept is not None else self.session.read(self.model_names)
        settling = self.settled(base)
        if self.folded and self.left_open(settling):
            # a question left open is answered on the grounding narrowed to the constants that can take another
            # value (see `narrow`), and the model behind the answers is then one of it
            again = self.narrow()
            if again.status != SAT:
                return self.finish(lambda q: self.result(q, Verdict.UNKNOWN, reason=again.reason))
            base = {q.name: self.raws(self.g.questions[q.name]) for q in self.sc.questions}
            model = self.session.read(self.model_names)
        elif kept is not None:
            model = self.session.read(self.model_names, kept)
        self.first_model = model
        # re-checked after `settled` (which asks the solver only), so that the reference evaluator knows whether
        # witnesses of questions that may take other values are to be re-checked after this model
        alone = all(q.name in settling.settled or all(t.known for t in self.parts(q.name)) for q in self.sc.questions)
        broken = self.refuted_read(model, alone)
        if broken is not None:
            return self.finish(lambda q: self.result(
                q, Verdict.UNKNOWN, reason=f"the model behind the answer breaks {broken} (reference evaluator)"))
        self.model_checked = True
        if not self.witnesses:
            return self.finish(lambda q: self.question(q, base[q.name], settling))
        try:
            answers = self.questions(base, settling)
        except _Unfold:
            self.unfold()
            return self.run(resolve)
        return self.finish(lambda q: answers[q.name])

    def left_open(self, settling: Settling) -> bool:
        """Whether some question may take more than one value, after `settled` (`settling`)."""
        return any(q.name not in settling.settled and not all(t.known for t in self.parts(q.name))
                   for q in self.sc.questions)

    def narrow(self) -> Check:
        """Go on with a session on the grounding narrowed to the constants that can take more than one value (see
        `Session.forced` and `narrowed`), once a check found the case satisfiable: its checks have the same answers,
        its models with the others' values are outcomes of the scenario, and each check, model and copy of the
        outcomes is a fraction of the size. Returns its first check, which leaves a model to read; where Z3 fixed
        no constant, or that check gives up, the session stays as it was, and is checked again."""
        fixed = self.session.forced()
        if fixed:
            session = Session(narrowed(self.g, fixed), *self.limits, fixed=fixed, context_of=self.session)
            check = session.check()
            if check.status == SAT:
                self.session = session
                return check
        return self.session.check()

    def unfold(self) -> None:
        """Ground the scenario again with the inputs as solver constants in every rule body, when its grounding
        read them as their values (see `ground`): a conflict and its ways out are worked out on that grounding,
        so that a conflict names the facts it rests on, and so is an ambiguity (its witnesses, the rules they
        involve and the statements at fault), as without `fold`."""
        if not self.folded:
            return
        self.folded = False
        self.g = ground(self.sc, self.rules)
        for made in _FROM_THE_GROUNDING:
            self.__dict__.pop(made, None)  # worked out from the grounding before
        self._load(*self.limits, self.session.tracked)

    @cached_property
    def rule_order(self) -> dict[str, int]:
        """Each rule's position in the rule base: rules are listed in this order."""
        return {r.id: i for i, r in enumerate(self.rules.rules)}

    @cached_property
    def used_rules(self) -> tuple[str, ...]:
        """The rules with at least one instance in the scenario (as grounded with the inputs named)."""
        return tuple(sorted({t.origin.rule.id for t in self.g.tracked if isinstance(t.origin, RuleInstance)}
                            | self.g.held_by_inputs))

    def screen(self, every_outcome: bool, asked: Collection[tuple[str, tuple[str, ...]]]) -> Screening:
        """At most two solver checks: is there an outcome at all, and can two outcomes that share the
        inputs and choices answer some question (with `every_outcome`: give any outcome) differently?
        Nothing is minimised or re-checked."""
        if self.limit_hit:
            return Screening(Verdict.UNKNOWN, self.limit_hit, ())
        used = self.used_rules
        # an earlier check of the same assertions (`possibly_true`'s) had an outcome
        first = Check(SAT) if self.session.known_sat else self.session.check(self.all)
        if first.status != SAT:
            verdict = Verdict.CONTRADICTION if first.status == UNSAT else Verdict.UNKNOWN
            return Screening(verdict, first.reason, used)
        if every_outcome:
            outcomes = self.refs((SymbolKind.OUTCOME,), "|o:")
            grounded = {(r.symbol, r.args) for r in outcomes}
            free = next((f"{s}({', '.join(a)})" for s, a in asked if (s, a) not in grounded), None)
            if free is not None:  # no rule constrains it: a question about it has any value
                return Screening(Verdict.AMBIGUOUS, f"no rule constrains {free}", used)
            fixed = self._load_narrowed_copy()
            differ = [f"(not (= {r.smt} {r.smt.replace('|o:', '|o2:', 1)}))" for r in outcomes if r.smt not in fixed]
        else:
            differ = [f"(not (= {a.smt} {b.smt}))" for q in self.sc.questions
                      for a, b in zip(self.g.questions[q.name], self.g.questions.get("@2:" + q.name, ()))
                      if not a.known] if self._load_copy() else []
        if not differ:
            return Screening(Verdict.DETERMINED, "", used)
        # The last check on this session: asserted, the term is read by Z3 itself, much faster than
        # building it in Python as an assumption (the screen reads no model).
        self.session.extend([f"(or {' '.join(differ)})"])
        split = self.session.check(self.all)
        verdict = {SAT: Verdict.AMBIGUOUS, UNSAT: Verdict.DETERMINED}.get(split.status, Verdict.UNKNOWN)
        return Screening(verdict, split.reason, used)

    def _without_outcome(self) -> GroupScreening | None:
        """A group screen's first check: why the scenario has no outcome (too large to ground, a conflict,
        or a check that gave up), or None when it has one."""
        if self.limit_hit:
            return GroupScreening(Verdict.UNKNOWN, self.limit_hit, ())
        if self.session.known_sat:  # an earlier check of the same assertions had an outcome
            return None
        first = self.session.check(self.all)
        if first.status == SAT:
            return None
        verdict = Verdict.CONTRADICTION if first.status == UNSAT else Verdict.UNKNOWN
        return GroupScreening(verdict, first.reason, (), self.used_rules)

    def screen_groups(self, groups: Mapping[str, str]) -> GroupScreening:
        """Which groups of questions (`groups`: each question's group) two outcomes that share the inputs
        and choices can answer differently (see `_split`). Nothing is minimised or re-checked."""
        inconsistent = self._without_outcome()
        if inconsistent is not None:
            return inconsistent
        used = self.used_rules
        if not self._load_copy():
            return GroupScreening(Verdict.DETERMINED, "", (), used)
        open_questions: dict[str, list[tuple[set[str], list[tuple[str, str]]]]] = {}
        for q in self.sc.questions:
            pairs = [(str(a.smt), str(b.smt)) for a, b in zip(self.g.questions[q.name], self.g.questions["@2:" + q.name])
                     if not a.known]
            if pairs:
                names = self.g.closure(mentioned(self.g.question_terms.get(q.name, "")))
                open_questions.setdefault(groups[q.name], []).append((names, pairs))
        return replace(self._split(open_questions), rules=used)

    def screen_asked(self, asked: Collection[tuple[str, tuple[str, ...]]]) -> GroupScreening:
        """`screen_groups` for the questions that ask the outcomes in `asked` (symbol, arguments as the
        solver names them), grouped by symbol, without building them: such a question's value is the
        outcome's own constant. `unknown` when one of them is no rule's (a question about it would
        have a constant of its own), or when the scenario is too large to ground."""
        inconsistent = self._without_outcome()
        if inconsistent is not None:
            return inconsistent
        used = self.used_rules
        outcomes = {(r.symbol, r.args): r.smt for r in self.refs((SymbolKind.OUTCOME,), "|o:")}
        free = next((f"{s}({', '.join(a)})" for s, a in asked if (s, a) not in outcomes), None)
        if free is not None:
            return GroupScreening(Verdict.UNKNOWN, f"no rule constrains {free}", (), used)
        if not asked:
            return GroupScreening(Verdict.DETERMINED, "", (), used)
        fixed = self._load_narrowed_copy()
        by_symbol: dict[str, list[tuple[set[str], list[tuple[str, str]]]]] = {}
        for s, a in asked:
            name = outcomes[(s, a)]
            if name in fixed:
                continue
            by_symbol.setdefault(s, []).append(({name}, [(name, copied(name))]))
        return replace(self._split(by_symbol), rules=used)

    def _split(self, groups: dict[str, list[tuple[set[str], list[tuple[str, str]]]]]) -> GroupScreening:
        """Which `groups` of questions (each question the constants its value is read from, and the pairs
        of its first and second copy's terms) two outcomes that share the inputs and choices can answer
        differently: one check for whether any can split, the groups of the questions its model splits
        taken out, and again until none can. With each group that can, the rules every one of its
        questions rests on (see `resting_on`)."""
        remaining = dict(groups)
        split: list[str] = []
        while remaining:
            # one flag per group, true where the model splits one of its questions; only the flags are read
            flags = {group: f"|split:{len(split)}:{i}|" for i, group in enumerate(remaining)}
            lines = [f"(declare-const {flag} Bool)" for flag in flags.values()]
            lines += [f"(assert (= {flags[group]} (or {' '.join(f'(not (= {a} {b}))' for _, ps in asked for a, b in ps)})))"
                      for group, asked in remaining.items()]
            lines.append(f"(assert (or {' '.join(flags.values())}))")
            result, values = self.session.check_asserting(lines, list(flags.values()))
            if result.status == UNSAT:
                break
            moved = [group for group, flag in flags.items() if values.get(flag)]
            if result.status != SAT or not moved:
                return GroupScreening(Verdict.UNKNOWN, result.reason or "a split model split no question", ())
            split += moved
            remaining = {group: asked for group, asked in remaining.items() if group not in moved}
        if not split:
            return GroupScreening(Verdict.DETERMINED, "", ())
        resting = {group: frozenset.intersection(*(frozenset(self.resting_on(names)) for names, _ in groups[group]))
                   for group in split}
        return GroupScreening(Verdict.AMBIGUOUS, "",
                              tuple((group, tuple(sorted(resting[group], key=self.rule_order.__getitem__))) for group in split))

    def possibly_true(self, atoms: Collection[tuple[str, tuple[str, ...]]]) -> frozenset[tuple[str, tuple[str, ...]]] | None:
        """The Boolean outcomes among `atoms` (symbol, arguments as the solver names them) that hold in some
        outcome of the scenario (one no rule constrains may hold); None when the scenario has no outcome or
        a check gave up. Each check asks for one more of those not yet seen to hold."""
        if self.limit_hit or self.session.check(self.all).status != SAT:
            return None
        names = {(r.symbol, r.args): r.smt for r in self.refs((SymbolKind.OUTCOME,), "|o:")}
        possible = {a for a in atoms if a not in names}
        remaining = {a: names[a] for a in atoms if a in names}
        while remaining:
            values = self.session.read(list(remaining.values()))
            possible.update(a for a, name in remaining.items() if values[name])
            remaining = {a: name for a, name in remaining.items() if not values[name]}
            if not remaining:
                break
            found = self.session.check(self.all, [f"(or {' '.join(remaining.values())})"])
            if found.status == UNSAT:
                break
            if found.status != SAT:
                return None
        return frozenset(possible)

    def _load_copy(self, always: bool = False) -> bool:
        """Load the second copy of the outcomes (once); False when no question needs it (unless `always`)."""
        if not always and not any(not t.known for q in self.sc.questions for t in self.g.questions[q.name]):
            return False
        assert not self.copy_fixed, "a narrowed copy (of a screen) holds no question's second terms"
        if not self.has_copy:
            if self.copy_bodies is None:
                copy_of = self.session.g  # the grounding the session holds: this one, or it narrowed
                self.copy_bodies = second_copy(copy_of)
                if copy_of is not self.g:
                    self.g.questions.update((q, t) for q, t in copy_of.questions.items() if q.startswith("@2:"))
            self.session.extend(self.copy_bodies)
            self.has_copy = True
        return True

    def _load_narrowed_copy(self) -> Mapping[str, bool | int]:
        """Load the second copy of the outcomes (once) for a screen, narrowed: without the constants Z3 found to
        take one value in every outcome (see `Session.forced`), which the copy reads as those values (see
        `narrowed`), and return them. No outcome of the pair can differ in such a constant, and the copy is a
        fraction of the size (a check of both copies has the answer it has with the whole copy). After a
        satisfiable check; the first copy stays as loaded."""
        if self.has_copy:
            return self.copy_fixed
        fixed = self.copy_fixed = self.session.forced()
        copy_of = narrowed(self.g, fixed)
        start = len(copy_of.background)
        bodies = second_copy(copy_of)
        # the copy's constants, shared terms and background join this grounding, for the session to declare them
        g = self.g
        for name, ref in copy_of.constants.items():
            g.constants.setdefault(name, ref)
        for name, type_name in copy_of.derived.items():
            g.derived.setdefault(name, type_name)
        for name, term in copy_of.shared.items():
            g.shared.setdefault(name, term)
        g.background += copy_of.background[start:]
        self.session.extend(bodies)
        self.has_copy = True
        return fixed

    @cached_property
    def model_refs(self) -> list[SymbolRef]:
        """Every outcome (of the first copy) and choice: what a witness is."""
        return self.refs((SymbolKind.OUTCOME, SymbolKind.CHOICE), "|o:")

    @cached_property
    def model_names(self) -> list[str]:
        return [r.smt for r in self.model_refs]

    @cached_property
    def tracked_session(self) -> Session:
        """A session in which any subset of the rule instances and facts can be assumed."""
        return self.session if self.session.tracked else Session(self.g, *self.limits, tracked=True)

    def conflict(self, assume: list[str], extra: list[str] = ()) -> tuple[tuple[CoreItem, ...], bool, str] | None:  # type: ignore[assignment]
        """A minimal set of the assumed rule instances and facts that cannot hold together with
        `extra`, described, whether it re-checked as conflicting and minimal, and why not;
        None when the assertions do not conflict on a second look."""
        if self.tracked_session.check(assume, extra).status != UNSAT:
            return None
        first_core = self.tracked_session.core()
        # Minimise on a solver that holds only the core's assertions: each check is then quick.
        items = [self.by_name[n] for n in first_core]
        used = self.g.closure(set().union(*(t.mentions for t in items), *(mentioned(e) for e in extra)))
        small = Grounding(self.g.names, {n: r for n, r in self.g.constants.items() if n in used},
                          [b for b in self.g.background if mentioned(b) <= used], items,
                          derived={n: t for n, t in self.g.derived.items() if n in used})
        core, verified, why = self.minimise(Session(small, *self.limits, tracked=True), first_core, list(extra))
        self.core_names = core
        return tuple(self.describe(n) for n in core), verified, why

    # -- ways out of a contradiction ---------------------------------------------------------
    def resolutions(self, core: list[str]) -> tuple[tuple[Resolution, ...], str]:
        """The ways out of the conflict `core` (assertion names): the interpretation rules that make the
        case consistent, then its minimal correction sets, smallest first; with a note when the search
        for them stopped short or found none."""
        ways: list[Resolution] = []
        notes: list[str] = []
        for rule in self.rules.rules:
            if not rule.interpretation or rule.id in self.sc.interpretations:
                continue
            # the conflict holds on if the interpretation replaces none of its rules
            if not any(isinstance(o := self.by_name[n].origin, RuleInstance) and o.rule.id in rule.replaces
                       for n in core):
                continue
            taken = _Case(self.sc._replace(interpretations=self.sc.interpretations + (rule.id,)), self.rules,
                          self.doc, *self.limits)
            taken.witnesses = False  # the answers under a resolution are verdicts and values only
            result = taken.run()
            if taken.first_status == UNSAT:
                continue
            if not taken.model_checked:
                notes.append(f"whether {rule.id} resolves it is unknown: "
                             f"{result.results[0].reason if result.results else taken.limit_hit}")
                continue
            ways.append(Resolution("interpretation", (), rule.replaces, rule.id, True, _answers(result)))
        found, note = self.corrections(core)
        if note:
            notes.append(note)
        ways += [self.correction(statements) for statements in found]
        return tuple(ways), "; ".join(notes)

    @cached_property
    def statements_solver(self) -> _Statements:
        return _Statements(self)

    def corrections(self, core: list[str]) -> tuple[list[tuple[str, ...]], str]:
        """The minimal correction sets over the statements the conflict's rules cite, smallest first,
        and a note when the search stopped at a limit or none exists.

        Each round takes the smallest set of statements that meets every conflict found so far (and
        holds no correction set already found) and checks the case without it: consistent, it is a
        correction set, minimal since any smaller part misses a conflict; otherwise the new conflict
        (which it misses) joins the others. Every minimal correction set meets every conflict, so when
        no such set is left, all were found.
        """
        first = frozenset(sid for n in core if isinstance(o := self.by_name[n].origin, RuleInstance)
                          for sid in o.rule.cites if not sid.startswith(FIXED_STATEMENTS))
        if not first:
            return [], _NO_CORRECTION
        solver = self.statements_solver
        conflicts = [first]
        found: list[frozenset[str]] = []

        def listed() -> list[tuple[str, ...]]:
            return sorted((in_statement_order(f) for f in found), key=lambda f: (len(f), [statement_order(s) for s in f]))

        for _ in range(MAX_CORRECTION_CHECKS):
            candidate = _smallest_hitting_set(conflicts, found)
            if candidate is None:
                return listed(), ""
            if not candidate:
                return listed(), f"the search for correction sets stopped after trying {MAX_HITTING_SETS:,} sets of statements"
            if len(found) == MAX_CORRECTIONS:
                return listed(), f"the search for correction sets stopped at {MAX_CORRECTIONS}; more may exist"
            check = solver.session.check(solver.without(candidate))
            if check.status == SAT:
                found.append(candidate)
                self.answers_without(candidate)  # while the solver is warm from this very check
            elif check.status == UNSAT:
                again = solver.statements(solver.session.core())
                if not again:
                    return [], _NO_CORRECTION
                conflicts.append(again)
            else:
                return listed(), f"the search for correction sets stopped: {check.reason}"
        if _smallest_hitting_set(conflicts, found) is None:  # the last check found the last one
            return listed(), ""
        return listed(), f"the search for correction sets stopped after {MAX_CORRECTION_CHECKS} solver checks; more may exist"

    def correction(self, statements: tuple[str, ...]) -> Resolution:
        """A correction set re-checked (minimal: without any smaller part of it the conflict holds; and
        consistent without it, the model re-checked by the reference evaluator), with every question's
        answer once the rules citing it are left out."""
        solver = self.statements_solver
        # without none of it is the case as it stands, already found conflicting
        minimal = all(solver.session.check(solver.without(rest)).status == UNSAT
                      for sid in statements if (rest := [t for t in statements if t != sid]))
        rules, checked, answers = self.answers_without(statements)
        return Resolution("correction", statements, rules, None, minimal and checked, answers)

    def answers_without(self, statements: Collection[str]) -> tuple[tuple[str, ...], bool, tuple[Answer, ...]]:
        """The rules citing `statements` (with an instance in the scenario), and every question's
        answer once they are left out, with whether the model behind the answers re-checked."""
        solver = self.statements_solver
        left_out = set(statements)
        rules = tuple(r.id for r in self.rules.active_rules(self.sc.interpretations)
                      if left_out & set(r.cites) and r.id in solver.grounded)
        # correction sets that leave out the same rules give the same answers
        if rules not in solver.answers:
            view = _Without(self, statements, rules)
            result = view.run()
            solver.answers[rules] = view.model_checked, _answers(result)
        checked, answers = solver.answers[rules]
        return rules, checked, answers

    def claimed(self, claim: Claim) -> str:
        """An SMT-LIB term saying a question has the value a ruling claims."""
        q = next(q for q in self.sc.questions if q.name == claim.question)
        parts = self.g.questions[q.name]
        if q.type == "sequence":
            ids = [a.id for a in self.sc.abilities]
            order = [] if claim.value == "nothing activates" else claim.value.split(" -> ")
            terms = [f"(<= {self.rank_smt(parts[i])} 0)" for i, a in enumerate(ids) if a not in order]
            ranks = [self.rank_smt(parts[ids.index(a)]) for a in order]
            terms += [f"(< 0 {ranks[0]})"] if ranks else []
            terms += [f"(< {a} {b})" for a, b in zip(ranks, ranks[1:])]
            return f"(and {' '.join(terms)})" if terms else "true"
        raw = self.raw_of(q.type, claim.value)
        term = parts[0]
        if term.known:
            return "true" if self.g.encode(term.type, term.const) == raw else "false"  # type: ignore[arg-type]
        return f"(= {term.smt} {value_smt(raw)})"

    def rank_smt(self, term: Term) -> str:
        return value_smt(self.g.encode(term.type, term.const)) if term.known else str(term.smt)  # type: ignore[arg-type]

    def raw_of(self, type_name: str, shown: str) -> object:
        """The raw value the game's wording `shown` (as the case loader writes values) stands for."""
        if type_name == "step":
            labels = [s.label for s in self.sc.steps]
            return labels.index(shown) if shown in labels else len(labels)
        if type_name in self.g.names:
            return next(i for i, v in enumerate(self.g.names[type_name]) if display_value(v) == shown)
        if type_name == "bool":
            return shown == display_value(True)
        return int(shown)

    def derivation(self, q: Question, result: QuestionResult) -> Derivation:
        """What forces a determined question's value: a minimal set of rule instances and facts."""
        parts = self.g.questions[q.name]
        if all(t.known for t in parts):
            return Derivation((), False, "the value is fixed by the scenario's structure (its timeline and cards)")
        assert result.value is not None
        value = self.raws(parts) if self.session.check(self.all).status == SAT else ()
        if not value or self.show_value(q, value) != result.value:
            return Derivation((), False, "the value did not re-check")
        found = self.conflict(self.all, [self.differs(parts, value)])
        if found is None:
            return Derivation((), False, "the value did not re-check as forced")
        core, verified, why = found
        return Derivation(core, verified, why, tuple(self.reads(self.by_label[c.label].mentions) for c in core),
                          self.reads(mentioned(self.g.question_terms[q.name])))

    @cached_property
    def by_label(self) -> dict[str, Tracked]:
        """Each rule instance and fact by the label its description gives it."""
        return {t.origin.label if isinstance(t.origin, RuleInstance) else t.origin.name: t for t in self.g.tracked}

    def reads(self, names: frozenset[str]) -> tuple[str, ...]:
        """The outcomes and inputs that SMT-LIB constants stand for, with the shared terms among them
        expanded, as people read them."""
        return tuple(sorted(self.show_ref(self.g.constants[n]) for n in self.g.closure(names) if n in self.g.constants))

    def proposed(self, t: Tracked) -> bool:
        """Whether an assertion comes from a ruling: an instance of a rule it proposes, or a claim."""
        o = t.origin
        return (o.rule.section == RULING_SECTION) if isinstance(o, RuleInstance) else o.symbol == CLAIM

    def ruling(self, explain_own_conflict: bool) -> RulingCheck:
        """Whether the rules and facts already imply what a ruling adds, conflict with it, or leave it room.

        Where the rules conflict without the ruling, that conflict is worked out only with
        `explain_own_conflict`.
        """
        if self.limit_hit:
            return RulingCheck(self.sc.path, RulingVerdict.UNKNOWN, reason=self.limit_hit)
        proposed = [t for t in self.g.tracked if self.proposed(t)]
        base = [t.name for t in self.g.tracked if not self.proposed(t)]
        for assume, already in ((base, True), (self.all, False)):
            check = self.tracked_session.check(assume)
            if check.status == UNKNOWN:
                return RulingCheck(self.sc.path, RulingVerdict.UNKNOWN, reason=check.reason)
            if check.status == UNSAT and already and not explain_own_conflict:
                return RulingCheck(self.sc.path, RulingVerdict.CONTRADICTS, rules_conflict_already=True)
            if check.status == UNSAT:
                found = self.conflict(assume)
                if found is None:
                    return RulingCheck(self.sc.path, RulingVerdict.UNKNOWN, reason="the conflict did not re-check")
                core, verified, why = found
                return RulingCheck(self.sc.path, RulingVerdict.CONTRADICTS, core=core, core_verified=verified,
                                   rules_conflict_already=already, reason=why)
        if not proposed:
            return RulingCheck(self.sc.path, RulingVerdict.ENTAILED, reason="the ruling does not apply to this scenario")
        others = self.tracked_session.check(base, [f"(not (and true {' '.join(t.body for t in proposed)}))"])
        if others.status == UNKNOWN:
            return RulingCheck(self.sc.path, RulingVerdict.UNKNOWN, reason=others.reason)
        return RulingCheck(self.sc.path, RulingVerdict.ENTAILED if others.status == UNSAT else RulingVerdict.NARROWS)

    def finish(self, each: Callable[[Question], QuestionResult]) -> CaseResult:
        return CaseResult(self.sc.path, self.sc.title, self.sc.note, tuple(each(q) for q in self.sc.questions))

    # A question's value is a tuple of raw values, one per part: one part for a single value,
    # one per ability for an activation order.
    def raws(self, parts: tuple[Term, ...]) -> tuple[object, ...]:
        return tuple(self.value_of(t) for t in parts)

    @staticmethod
    def differs(parts: tuple[Term, ...], raws: tuple[object, ...]) -> str:
        """An SMT-LIB term saying the question's value is not `raws`."""
        terms = [f"(not (= {t.smt} {value_smt(v)}))" for t, v in zip(parts, raws) if not t.known]
        return f"(or {' '.join(terms)})" if terms else "false"

    def show_value(self, q: Question, raws: tuple[object, ...]) -> str:
        if q.type != "sequence":
            return self.show(q.type, raws[0])
        ranked = sorted((int(r), a.id) for a, r in zip(self.sc.abilities, raws) if isinstance(r, int) and r > 0)
        return " -> ".join(a for _, a in ranked) or "nothing activates"

    def settled(self, base: dict[str, tuple[object, ...]]) -> Settling:
        """Questions whose base value no outcome can change, found with as few solver calls as possible.

        One check asks whether any open question can take another value; the questions the
        answering model moves are open (`moved`), and the rest are asked again until the check
        fails. A check that gives up settles none of those left: each is then asked on its own (see
        `closed`), where a check that gives up makes it `unknown`.
        """
        moved: set[str] = set()
        open_parts = {q.name: self.parts(q.name) for q in self.sc.questions
                      if not all(t.known for t in self.parts(q.name))}
        while open_parts:
            any_differs = " ".join(self.differs(parts, base[n]) for n, parts in open_parts.items())
            result = self.session.check(self.all, [f"(or {any_differs})"])
            if result.status != SAT:
                return Settling(frozenset(open_parts) if result.status == UNSAT else frozenset(), frozenset(moved))
            changed = {n for n, parts in open_parts.items() if self.raws(parts) != base[n]}
            moved |= changed
            open_parts = {n: t for n, t in open_parts.items() if n not in changed}
        return Settling(frozenset(), frozenset(moved))

    def parts(self, name: str) -> tuple[Term, ...]:
        """The grounded terms of the question called `name` (`@2:` and the name: in the second copy)."""
        return self.g.questions[name]

    def question(self, q: Question, value: tuple[object, ...], settling: Settling) -> QuestionResult:
        """The question's verdict (`value`: its value in the first model; `settling`: what `settled` found),
        an open one without its witnesses (see `questions` for those)."""
        closed = self.closed(q, value, settling)
        if closed is not None:
            return closed
        self._load_copy()
        split = self.session.check(self.all, [self.split_term(q)])
        if split.status == UNKNOWN:
            return self.result(q, Verdict.UNKNOWN, reason=split.reason)
        return self.result(q, Verdict.AMBIGUOUS if split.status == SAT else Verdict.CHOICE_DEPENDENT)

    def questions(self, base: dict[str, tuple[object, ...]], settling: Settling) -> dict[str, QuestionResult]:
        """Every question's verdict by name (`base`: each one's value in the first model; `settling`: what
        `settled` found), an open one with its witnesses.

        Whether an open question can split is checked on the second copy of the outcomes, loaded once for
        all of them in a scope of the solver; the ambiguous ones are explained there. The scope is then
        taken back, and the values of the choice-dependent ones listed on the first copy alone: each model
        read and each witness re-checked holds half as many outcomes."""
        out: dict[str, QuestionResult] = {}
        open_questions: list[Question] = []
        for q in self.sc.questions:
            closed = self.closed(q, base[q.name], settling)
            if closed is None:
                open_questions.append(q)
            else:
                out[q.name] = closed
        if not open_questions:
            return out
        self.session.push()
        self._load_copy()
        listed: list[Question] = []
        for q in open_questions:
            split_term = self.split_term(q)
            split = self.session.check(self.all, [split_term])
            if split.status == UNKNOWN:
                out[q.name] = self.result(q, Verdict.UNKNOWN, reason=split.reason)
            elif split.status == SAT:
                if self.folded:  # an ambiguity is explained from the outcomes of the grounding that names the inputs
                    raise _Unfold
                out[q.name] = self.ambiguous(q, self.parts(q.name), self.parts("@2:" + q.name), split_term)
            else:
                listed.append(q)
        if listed:
            self.session.pop()
            self.has_copy = False
        for q in listed:  # the first model's values, already read and re-checked by the reference evaluator, come first
            out[q.name] = self.choice_dependent(q, self.parts(q.name), (base[q.name], self.first_model))
        return out

    def closed(self, q: Question, value: tuple[object, ...], settling: Settling) -> QuestionResult | None:
        """The question's verdict when no outcome gives it another value than `value` (or a check gives up);
        None when some does."""
        parts = self.parts(q.name)
        shown = self.show_value(q, value)
        if all(t.known for t in parts):
            return self.result(q, Verdict.DETERMINED, shown, reason="fixed by the scenario's structure")
        if q.name in settling.settled:
            return self.result(q, Verdict.DETERMINED, shown)
        if q.name in settling.moved:  # `settled` found an outcome with another value
            return None
        other = self.session.check(self.all, [self.differs(parts, value)])
        if other.status == UNKNOWN:
            return self.result(q, Verdict.UNKNOWN, reason=other.reason)
        if other.status == UNSAT:
            return self.result(q, Verdict.DETERMINED, shown)
        return None

    def split_term(self, q: Question) -> str:
        """An SMT-LIB term saying the question's two copies (see `_load_copy`) differ."""
        pairs = zip(self.parts(q.name), self.parts("@2:" + q.name))
        return f"(or {' '.join(f'(not (= {a.smt} {b.smt}))' for a, b in pairs if not a.known)})"

    def ambiguous(self, q: Question, parts: tuple[Term, ...], parts2: tuple[Term, ...], split: str) -> QuestionResult:
        one = self.refs((SymbolKind.OUTCOME,), "|o:")
        two = {r.smt.replace("|o:", "|o2:", 1): r for r in one}
        choices = self.refs((SymbolKind.CHOICE,))
        vals = self.session.read([r.smt for r in one] + list(two) + [c.smt for c in choices])
        v1, v2 = self.raws(parts), self.raws(parts2)
        chosen = {c: vals[c.smt] for c in choices}
        first = {r: vals[r.smt] for r in one}
        second = {r: vals[s] for s, r in two.items()}
        if not (self.recheck({**first, **chosen}) and self.recheck({**second, **chosen})):
            return self.result(q, Verdict.UNKNOWN, reason="an ambiguity witness did not re-check against the rules")
        broken = self.refuted({**first, **chosen}) or self.refuted({**second, **chosen})
        if broken is not None:
            return self.result(q, Verdict.UNKNOWN, reason=f"an ambiguity witness breaks {broken} (reference evaluator)")
        differs = [r for r in one if first[r] != second[r]]
        never = len(self.sc.steps)
        # a step-valued choice left at `never`, or a number left at 0, is one the player did not make
        choice_text = tuple((self.show_ref(c), self.show(c.type, v)) for c, v in chosen.items()
                            if not (c.type == "step" and v == never) and not (c.type == "int" and v == 0))
        w1 = Witness(self.show_value(q, v1), choice_text,
                     tuple((self.show_ref(r), self.show(r.type, first[r])) for r in differs))
        w2 = Witness(self.show_value(q, v2), choice_text,
                     tuple((self.show_ref(r), self.show(r.type, second[r])) for r in differs))
        known = {r.smt: (first[r], second[r]) for r in one}
        return self.result(q, Verdict.AMBIGUOUS, witnesses=(w1, w2), rules=self.involved(q, differs),
                           at_fault=self.at_fault(split, known))

    def at_fault(self, split: str, known: dict[str, tuple[object, object]]) -> tuple[str, ...]:
        """The statements at fault for an ambiguity (`split`: the question's two copies differ): those the rules and
        definitions naming an open outcome the split needs cite, the REG's first, then the core principles. An open
        outcome is needed when the question cannot split with every instance of it held equal in both copies
        (besides the outcomes held already), the open outcomes tried in the order of their names, so the answer
        does not rest on which two witnesses were found: an open outcome the witnesses differ in by chance names no
        statement.

        `known` gives each outcome's values in both copies in a model of the split (the witnesses' model). While
        the last model found gives every instance of an open outcome one value in both copies, that model shows
        the split with them held equal, so no check is run for it; after a check that finds another model, the
        outcomes still to try are read from it."""
        interpretations = self.sc.interpretations
        open_symbols = open_outcomes(self.rules, interpretations)
        instances: dict[str, list[SymbolRef]] = {}
        for ref in self.refs((SymbolKind.OUTCOME,), "|o:"):
            if ref.symbol in open_symbols:
                instances.setdefault(ref.symbol, []).append(ref)
        held: list[str] = []
        needed: set[str] = set()
        order = sorted(instances)
        for i, symbol in enumerate(order):
            same = [*held, *(f"(= {r.smt} {copied(r.smt)})" for r in instances[symbol])]
            if all(known[r.smt][0] == known[r.smt][1] for r in instances[symbol]):
                held = same
                continue
            if self.session.check(self.all, [split, *same]).status == SAT:
                held = same
                later = [r.smt for s in order[i + 1:] for r in instances[s]]
                if later:
                    vals = self.session.read([*later, *map(copied, later)])
                    known = {n: (vals[n], vals[copied(n)]) for n in later}
            else:  # unsat, or a check that gave up: the outcome is kept among those at fault
                needed.add(symbol)
        found = statements_naming(self.rules, needed, interpretations)
        return tuple(sorted(found, key=lambda sid: (sid.startswith(FIXED_STATEMENTS), statement_order(sid))))

    def choice_dependent(self, q: Question, parts: tuple[Term, ...],
                         first: tuple[tuple[object, ...], dict[str, object]] | None = None) -> QuestionResult:
        """The values a choice-dependent question takes, each with a witness re-checked: `first`, a value and
        the model it was read from (every outcome and choice, by name), is listed first without a check."""
        choices = self.refs((SymbolKind.CHOICE,))
        found: list[tuple[object, ...]] = []
        witnesses: list[Witness] = []
        reason = ""
        while len(found) < MAX_CHOICE_VALUES:
            if first is not None:
                (value, every), first = first, None
            else:
                r = self.session.check(self.all, [self.differs(parts, v) for v in found])
                if r.status == UNSAT:
                    break
                if r.status == UNKNOWN:
                    reason = f"listing values stopped: {r.reason}"
                    break
                value = self.raws(parts)
                every = self.session.read(self.model_names)
            chosen = {c: every[c.smt] for c in choices}
            if not self.recheck_choice(parts, value, chosen):
                return self.result(q, Verdict.UNKNOWN, reason="a choice witness did not re-check against the rules")
            broken = self.refuted_read(every)
            if broken is not None:
                return self.result(q, Verdict.UNKNOWN, reason=f"a choice witness breaks {broken} (reference evaluator)")
            found.append(value)
            witnesses.append(Witness(self.show_value(q, value),
                                     tuple((self.show_ref(c), self.show(c.type, v)) for c, v in chosen.items()), ()))
        else:
            more = self.session.check(self.all, [self.differs(parts, v) for v in found])
            if more.status == SAT:
                reason = f"more than {MAX_CHOICE_VALUES} values; the first {MAX_CHOICE_VALUES} are listed"
            elif more.status == UNKNOWN:
                reason = f"whether there are more than {MAX_CHOICE_VALUES} values is not known: {more.reason}"
        # show the choices that tell the values apart
        varying = {n for n, _ in witnesses[0].choices
                   if len({dict(w.choices)[n] for w in witnesses}) > 1} if witnesses else set()
        witnesses = [Witness(w.value, tuple((n, v) for n, v in w.choices if n in varying), w.outcomes)
                     for w in witnesses]
        witnesses.sort(key=lambda w: w.value)
        return self.result(q, Verdict.CHOICE_DEPENDENT, witnesses=tuple(witnesses), reason=reason,
                           rules=self.involved(q))

    @cached_property
    def rules_naming(self) -> dict[str, set[str]]:
        """For each solver constant, the rules with an instance that names it, worked out once per case (from
        the text of each rule's instances together)."""
        bodies: dict[str, list[str]] = {}
        for t in self.g.tracked:
            if isinstance(t.origin, RuleInstance):
                bodies.setdefault(t.origin.rule.id, []).append(t.body)
        out: dict[str, set[str]] = {}
        for rule, texts in bodies.items():
            for name in mentioned(" ".join(texts)):
                out.setdefault(name, set()).add(rule)
        return out

    @cached_property
    def sharing(self) -> dict[str, set[str]]:
        """For each solver constant, the shared terms whose definitions name it."""
        out: dict[str, set[str]] = {}
        for shared, term in self.g.shared.items():
            for name in mentioned(term):
                out.setdefault(name, set()).add(shared)
        return out

    def involved(self, q: Question, extra: list[SymbolRef] = ()) -> tuple[str, ...]:  # type: ignore[assignment]
        """The rules with an instance that rests on the question's value or on `extra`: one that names
        such a constant, or a shared term defined from one (however deeply). Where the rule bodies read the
        inputs the facts pin as their values (see `ground`), an instance that named such a constant only through
        an input no longer does."""
        return self.resting_on(self.g.closure(mentioned(self.g.question_terms.get(q.name, ""))) | {r.smt for r in extra})

    def resting_on(self, names: set[str]) -> tuple[str, ...]:
        """The rules with an instance that names one of the constants `names`, or a shared term defined
        from one (however deeply)."""
        names = set(names)
        todo = list(names)
        while todo:
            for shared in self.sharing.get(todo.pop(), ()):
                if shared not in names:
                    names.add(shared)
                    todo.append(shared)
        wanted = set().union(*(self.rules_naming.get(n, ()) for n in names))
        return tuple(sorted(wanted, key=self.rule_order.__getitem__))

    def result(self, q: Question, verdict: Verdict, value: str | None = None, *,
               witnesses: tuple[Witness, ...] = (), core: tuple[CoreItem, ...] = (),
               core_verified: bool = False, rules: tuple[str, ...] = (), reason: str = "",
               resolutions: tuple[Resolution, ...] = (), resolutions_note: str = "",
               at_fault: tuple[str, ...] = ()) -> QuestionResult:
        exp = next((e for e in self.sc.expectations if e.question == q.name), None)
        if exp is None:
            ok = verdict not in (Verdict.CONTRADICTION, Verdict.UNKNOWN)
        else:
            # a solver that gave up is never a pass, even where a case expects it
            ok = (verdict is not Verdict.UNKNOWN and exp.verdict == verdict.value
                  and (exp.value is None or exp.value == value))
        return QuestionResult(self.sc.path, self.sc.title, q.name, verdict, value,
                              exp.verdict if exp else None, exp.value if exp else None, ok,
                              witnesses, core, core_verified, rules, reason, resolutions, resolutions_note,
                              at_fault)


# What `_Case` works out once and keeps (its cached properties), less what it works out from the scenario, the
# rules and their document alone: the rest comes from the grounding and is worked out again after `_Case.unfold`.
_FROM_THE_GROUNDING = tuple(name for name, value in vars(_Case).items() if isinstance(value, cached_property)
                            and name not in ("statements", "reference", "rule_order"))


def check_scenario(scenario: Scenario, rules: RuleBase, doc: RulesDocument | Callable[[], RulesDocument] | None = None,
                   timeout_ms: int = DEFAULT_TIMEOUT_MS, memory_mb: int | None = None,
                   resolve: bool = False, keep: list[GroundedBase] | None = None, fold: bool = True) -> CaseResult:
    """Every question's verdict for one scenario (with a ruling's claims, when it has any). With
    `resolve`, a contradiction comes with the ways out of it: the interpretation rules and minimal
    correction sets that make the scenario consistent, with every question's answer under each. With
    `keep`, the scenario's rules and facts as grounded are appended to it (see `ground`), so that the
    scenario can be grounded again from there.

    With `fold`, the rule bodies read the inputs the facts pin as their values (see `ground`; the base kept in
    `keep` is then a folded one), and a scenario found in conflict or with an ambiguous question is grounded
    again with the inputs named and answered on that grounding, as without `fold`. Otherwise the verdicts and
    values are those without `fold`; the choice witnesses, found on another problem, may differ, and the rules a
    choice-dependent question involves are those whose instances, as grounded, name its value (see
    `_Case.involved`)."""
    return _Case(scenario, rules, doc, timeout_ms, memory_mb, keep=keep, fold=fold).run(resolve)


class ScenarioScreen:
    """One scenario grounded once and screened several ways on one solver: which Boolean outcomes can hold
    (`possibly_true`), then a screen of the whole scenario (`screen`) or of the outcomes asked (`screen_asked`).
    Each answers as its function of the same name does on the scenario alone: a screen's verdict rests on
    which checks are satisfiable, never on a model, and the checks before it leave nothing asserted.

    The scenario with other questions (`screen_groups`, `answer`) is checked on a solver of its own, as its
    function does, its rules and facts taken as grounded here rather than grounded again."""

    def __init__(self, scenario: Scenario, rules: RuleBase, timeout_ms: int = DEFAULT_TIMEOUT_MS,
                 memory_mb: int | None = None) -> None:
        self._limits = (timeout_ms, memory_mb)
        self._bases: list[GroundedBase] = []
        self._case = _Case(scenario, rules, None, timeout_ms, memory_mb, keep=self._bases, screen_only=True)

    def possibly_true(self, atoms: Collection[tuple[str, tuple[str, ...]]]) -> frozenset[tuple[str, tuple[str, ...]]] | None:
        """See the function `possibly_true`."""
        return self._case.possibly_true(atoms)

    def screen(self, every_outcome: bool = False, asked: Collection[tuple[str, tuple[str, ...]]] = ()) -> Screening:
        """See `screen_scenario`; the last screen of this scenario (it asserts the second copy's difference)."""
        return self._case.screen(every_outcome, asked)

    def screen_asked(self, asked: Collection[tuple[str, tuple[str, ...]]]) -> GroupScreening:
        """See the function `screen_asked`."""
        return self._case.screen_asked(asked)

    def _other(self, scenario: Scenario) -> _Case:
        base = self._bases[0] if self._bases else None
        return _Case(scenario, self._case.rules, None, *self._limits, base=base)

    def screen_groups(self, scenario: Scenario, groups: Mapping[str, str]) -> GroupScreening:
        """`screen_groups` of `scenario`: this one with other questions (any other scenario is grounded afresh)."""
        return self._other(scenario).screen_groups(groups)

    def answer(self, scenario: Scenario, resolve: bool = False) -> CaseResult:
        """`check_scenario` of `scenario` without `fold`: this one with other questions (any other scenario is
        grounded afresh)."""
        return self._other(scenario).run(resolve)


def screen_scenario(scenario: Scenario, rules: RuleBase, timeout_ms: int = DEFAULT_TIMEOUT_MS,
                    memory_mb: int | None = None, every_outcome: bool = False,
                    asked: Collection[tuple[str, tuple[str, ...]]] = ()) -> Screening:
    """Whether the scenario has a conflict or an ambiguous question, without witnesses or cores:
    `check_scenario` gives an `ambiguous` or `contradiction` verdict for it exactly when this does
    (unless a witness fails to re-check).

    With `every_outcome`, `ambiguous` means only that some outcome may differ between two outcomes
    sharing the inputs and choices, or that an outcome in `asked` (symbol, arguments as the solver
    names them) is one no rule constrains; `determined` then still means that no question about the
    scenario's outcomes, nor about those in `asked`, can have two values."""
    return _Case(scenario, rules, None, timeout_ms, memory_mb).screen(every_outcome, asked)


def possibly_true(scenario: Scenario, rules: RuleBase, atoms: Collection[tuple[str, tuple[str, ...]]],
                  timeout_ms: int = DEFAULT_TIMEOUT_MS, memory_mb: int | None = None
                  ) -> frozenset[tuple[str, tuple[str, ...]]] | None:
    """The Boolean outcomes among `atoms` (symbol, arguments as the solver names them) that hold in some
    outcome of the scenario; None when it has no outcome or a check gave up."""
    return _Case(scenario, rules, None, timeout_ms, memory_mb).possibly_true(atoms)


def screen_groups(scenario: Scenario, rules: RuleBase, groups: Mapping[str, str], timeout_ms: int = DEFAULT_TIMEOUT_MS,
                  memory_mb: int | None = None) -> GroupScreening:
    """Which groups of the scenario's questions (`groups` gives each question's group) two outcomes that
    share the inputs and the players's choices can answer differently. `check_scenario` answers some
    question of a group `ambiguous` exactly when the group is in `split` (unless a check gives up or a
    witness fails to re-check), and then names, among the rules involved, every rule `split` gives the
    group: the rules an ambiguous question rests on are those with an instance that names its value
    (however deeply through shared terms), and the witnesses only add to them."""
    return _Case(scenario, rules, None, timeout_ms, memory_mb).screen_groups(groups)


def screen_asked(scenario: Scenario, rules: RuleBase, asked: Collection[tuple[str, tuple[str, ...]]],
                 timeout_ms: int = DEFAULT_TIMEOUT_MS, memory_mb: int | None = None) -> GroupScreening:
    """`screen_groups` for the questions about the outcomes `asked` (symbol, arguments as the solver names
    them), grouped by symbol, on the scenario without those questions: such a question's value is the
    outcome's constant, which grounding the scenario with the question or without it names alike.
    `unknown` when an outcome asked is no rule's."""
    return _Case(scenario, rules, None, timeout_ms, memory_mb).screen_asked(asked)


def explain_scenario(scenario: Scenario, rules: RuleBase, doc: RulesDocument | Callable[[], RulesDocument] | None,
                     questions: tuple[str, ...], timeout_ms: int = DEFAULT_TIMEOUT_MS,
                     memory_mb: int | None = None) -> tuple[CaseResult, dict[str, Derivation]]:
    """The scenario's verdicts (a contradiction with its ways out), and for each determined question
    among `questions` what forces it."""
    case = _Case(scenario, rules, doc, timeout_ms, memory_mb)
    result = case.run(resolve=True)
    derivations = {q.name: case.derivation(q, r) for q, r in zip(scenario.questions, result.results)
                   if q.name in questions and r.verdict is Verdict.DETERMINED}
    return result, derivations


def check_ruling(scenario: Scenario, rules: RuleBase, with_ruling: RuleBase,
                 doc: RulesDocument | Callable[[], RulesDocument] | None, own: bool,
                 timeout_ms: int = DEFAULT_TIMEOUT_MS, memory_mb: int | None = None) -> RulingCheck:
    """A ruling (its rules in `with_ruling`, its claims in `scenario`) checked on one scenario,
    with every question whose verdict it changes. For the ruling's `own` scenario, a conflict
    the rules have there without the ruling is explained too."""
    check = _Case(scenario, with_ruling, doc, timeout_ms, memory_mb, tracked=True).ruling(own)
    if check.verdict is RulingVerdict.ENTAILED or check.rules_conflict_already:
        return check  # nothing the rules allow is ruled out: no verdict can change
    before = _Case(scenario._replace(claims=()), rules, doc, timeout_ms, memory_mb).run()
    after = _Case(scenario, with_ruling, doc, timeout_ms, memory_mb).run()
    changes = tuple(VerdictChange(scenario.path, b.question, b.answer, a.answer)
                    for b, a in zip(before.results, after.results) if b.answer != a.answer)
    return RulingCheck(check.case, check.verdict, changes, check.core, check.core_verified,
                       check.rules_conflict_already, check.reason)


class _Statements:
    """A contradictory case's rules and facts in one solver, with a literal per statement (of those
    not held fixed) that every rule instance citing it is asserted behind: assuming the literals of
    all but some statements leaves out every rule citing those."""

    def __init__(self, case: _Case) -> None:
        g = case.g
        self.grounded = frozenset(t.origin.rule.id for t in g.tracked if isinstance(t.origin, RuleInstance))
        background = list(g.background)
        facts: list[str] = []
        guarded: dict[str, list[str]] = {}  # statement -> the bodies behind its literal
        for t in g.tracked:
            if not isinstance(t.origin, RuleInstance):
                facts.append(t.body)
                continue
            cited = sorted({sid for sid in t.origin.rule.cites if not sid.startswith(FIXED_STATEMENTS)},
                           key=statement_order)
            if not cited:
                background.append(t.body)  # a rule held fixed: the second copy renames it with the background
                continue
            # behind the first statement's literal, and the others' within it
            others = " ".join(smt_symbol(f"t:{sid}") for sid in cited[1:])
            guarded.setdefault(cited[0], []).append(f"(=> (and {others}) {t.body})" if others else t.body)
            for sid in cited[1:]:
                guarded.setdefault(sid, [])
        where = Location(case.sc.path, 0)
        self.literal = {sid: smt_symbol(f"t:{sid}") for sid in sorted(guarded, key=statement_order)}
        held = [Tracked(lit, f"(and true {' '.join(guarded[sid])})", Fact("statement", (sid,), True, f"{sid} holds", where))
                for sid, lit in self.literal.items()]
        self.statement_of = {lit: sid for sid, lit in self.literal.items()}
        # containers of its own: the second copy of the outcomes, when a question needs it, is added to them
        self.g = g.copy(background=background, tracked=held)
        self.session = Session(self.g, *case.limits, tracked=True)
        self.session.extend(facts)  # not in the background, which the second copy renames: facts are inputs
        self.has_copy = False
        # every question's answer with some rules left out, and whether the model behind them re-checked
        self.answers: dict[tuple[str, ...], tuple[bool, tuple[Answer, ...]]] = {}

    def without(self, statements: Collection[str]) -> list[str]:
        """The literals to assume to leave out the rules citing `statements`."""
        return [lit for sid, lit in self.literal.items() if sid not in statements]

    def statements(self, core: Collection[str]) -> frozenset[str]:
        """The statements whose literals are in an unsatisfiable check's core."""
        return frozenset(self.statement_of[n] for n in core if n in self.statement_of)

    def load_copy(self) -> None:
        if not self.has_copy:
            # the copy of what is behind a statement's literal goes behind the same literal
            self.session.extend(second_copy(self.g) + [f"(=> {t.name} {copied(t.body)})" for t in self.g.tracked])
            self.has_copy = True


class _Without(_Case):
    """A contradictory case with the rules citing some statements left out: the case's statements
    solver, with only the other statements assumed. An open question's answer is its verdict alone."""

    def __init__(self, base: _Case, statements: Collection[str], rules: tuple[str, ...]) -> None:
        self.base = base
        self.solver = base.statements_solver
        self.sc = base.sc
        self.rules = base.rules
        self.doc = base.doc
        self.limit_hit = ""
        self.left_out = rules
        self.witnesses = False
        self.first_status = ""
        self.model_checked = False
        self.core_names = []
        self.first_read = None
        self.folded = False
        self.g = self.solver.g
        self.session = self.solver.session
        self.limits = base.limits
        self.all = self.solver.without(statements)
        self.by_name = {}
        self.has_copy = False

    def _load_copy(self, always: bool = False) -> bool:
        if not always and not any(not t.known for q in self.sc.questions for t in self.g.questions[q.name]):
            return False
        self.solver.load_copy()
        return True

    @property
    def reference(self) -> Reference:
        return self.base.reference  # one grounding in Python serves every way out


def _answers(result: CaseResult) -> tuple[Answer, ...]:
    return tuple(Answer(r.question, r.verdict, r.value, r.reason) for r in result.results)



def _smallest_hitting_set(conflicts: list[frozenset[str]], found: list[frozenset[str]]) -> frozenset[str] | None:
    """The first smallest set of statements that meets every conflict and holds no set of `found`
    (statements in their document order); None when there is none, and the empty set when
    MAX_HITTING_SETS sets were tried without deciding."""
    # a statement that is a correction set on its own is in no other
    alone = {s for f in found if len(f) == 1 for s in f}
    candidates = in_statement_order(set().union(*conflicts) - alone)
    tried = 0
    for size in range(1, len(candidates) + 1):
        for chosen in combinations(candidates, size):
            tried += 1
            if tried > MAX_HITTING_SETS:
                return frozenset()
            picked = frozenset(chosen)
            if all(picked & c for c in conflicts) and not any(f <= picked for f in found):
                return picked
    return None
