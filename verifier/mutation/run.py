"""Running mutants against the case table: which case, if any, notices each one.

Each case is grounded once (see `solver.swap.SwitchedCase`) and answered under every mutant still
alive that can change it: one that changes a rule with an instance in the case, or whose own rules
ground to something else there, or that changes a definition one of the case's questions uses (the
question's terms are then grounded once more, with the mutant's definitions, and read in its place).
A mutant is killed by the first case (in the table's order) with a question that was answered as
expected and is no longer; it is then run on no further case.

With several jobs, the cases are split between worker processes, each running every mutant on its
cases, and each mutant's fate is then the one the first case (in the table's order) that decides it
gives, as if the cases had been run in turn: each case is grounded and answered in one process only.

`answer_and_mutate` runs the mutants on the cases as a caller answers them (the gate, which answers every
case anyway): each case's grounding, made for the caller's answer, is taken up by the mutants' run.
"""

from __future__ import annotations

__all__ = ["MutantStatus", "MutantResult", "run_mutations", "naive_status", "changes_in", "Change", "CaseRun", "Tally",
           "merged", "answer_and_mutate", "Answering"]

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, NamedTuple, TypeVar

from ..errors import EncodingError
from ..language.encoding import RuleBase
from ..language.syntax import Call, walk
from ..scenario.model import Scenario
from ..solver.engine import check_scenario
from ..solver.grounding import GroundedBase, RuleGrounder
from ..solver.swap import SwitchedCase
from ..verdicts import CaseResult, Verdict
from .mutants import Mutation


class MutantStatus(StrEnum):
    """What the case table makes of a mutant."""

    KILLED = "killed"  # some case answers a question otherwise than it did
    SURVIVED = "survived"  # every case answers every question as before
    INVALID = "invalid"  # not a valid encoding: it does not type-check, or a case cannot be grounded with it
    UNKNOWN = "unknown"  # no case kills it, but the solver gave up on some question
    EQUIVALENT = "equivalent"  # no case kills it, and none could: it is proven to say what the rules say


@dataclass(frozen=True)
class MutantResult:
    """One mutant's fate: the case and question that killed it (with the answer expected and the one
    given), or why it is invalid or unknown; and on how many cases it was run."""

    mutant_id: str
    status: MutantStatus
    case: str | None = None
    question: str | None = None
    expected: str | None = None
    got: str | None = None
    reason: str = ""
    cases_run: int = 0


# Told how many cases a run has gone through, and how many it will.
Progress = Callable[[int, int], None]


def _kill(before: CaseResult, after: CaseResult, ok: set[str]) -> tuple[str, str, str, bool] | None:
    """The first question answered as expected before and not after: (question, expected, got, whether
    the solver gave up on it), or None."""
    for b, a in zip(before.results, after.results):
        if a.question in ok and not a.ok:
            expected = b.expected_answer if b.expected is not None else b.answer
            return a.question, expected or "", a.answer, a.verdict is Verdict.UNKNOWN
    return None


class Change(NamedTuple):
    """What a mutant changes in a case: the rules it leaves out there, the instance bodies it puts in their
    place, and the questions read from other terms (see `SwitchedCase.ground_questions`)."""

    left_out: list[str]
    put_in: list[str]
    asked: dict[str, str]


def changes_in(sw: SwitchedCase, m: Mutation, grounder: RuleGrounder) -> Change | None:
    """What the mutant changes in the case grounded as `sw` (its rules and questions grounded by `grounder`,
    the mutant's); None when it changes nothing there (a deleted rule with no instance, or edited rules and
    questions that ground to the very same instances and terms). Raises `EncodingError` when the mutant's
    rules or questions cannot be grounded over the case."""
    left_out = [rid for rid in m.left_out if rid in sw.active]
    put_in = [r for r in m.put_in if r.id in sw.active]
    change: Change | None = None
    if not put_in:
        if any(rid in sw.instances for rid in left_out):
            change = Change(left_out, [], {})
    else:
        grounded = sw.ground_rules(grounder, put_in)
        if not all(grounded[rid] == sw.instances.get(rid, ()) for rid in left_out):
            change = Change(left_out, [b for rid in left_out for b in grounded[rid]], {})
    questions = [q for q in (m.question(q) for q in sw.sc.questions) if q is not None]
    asked = sw.ground_questions(grounder, questions) if questions else {}
    if not asked:
        return change
    return Change(change.left_out, change.put_in, asked) if change else Change([], [], asked)


def _called(sc: Scenario) -> frozenset[str]:
    """The names the case's questions call (definitions among them)."""
    return frozenset(c.func for q in sc.questions for c in walk(q.expr) if isinstance(c, Call))


class CaseRun:
    """Mutants run over the cases in turn (in the table's order), each case grounded once."""

    def __init__(self, rules: RuleBase, mutations: Sequence[Mutation], timeout_ms: int, memory_mb: int | None) -> None:
        self.rules = rules
        self.limits = (timeout_ms, memory_mb)
        self.results: dict[str, MutantResult] = {}
        self.alive = []
        for m in mutations:
            if m.invalid:
                self.results[m.mutant.id] = MutantResult(m.mutant.id, MutantStatus.INVALID, reason=m.invalid)
            else:
                self.alive.append(m)
        # by mutant: the cases it was run on, the first that left it undecided (with why), and the case that
        # killed it or could not be grounded with it; a case is its place in the table
        self.runs: dict[str, list[int]] = {}
        self.unknown: dict[str, tuple[int, str]] = {}
        self.ended: dict[str, int] = {}
        self.grounders: dict[str, RuleGrounder] = {}

    def case(self, sc: Scenario, at: int = 0, grounded: GroundedBase | None = None) -> None:
        """Run every mutant still alive that can change `sc`, the case at place `at` in the table, on it
        (`grounded`: its rules and facts as grounded already, when they are)."""
        active = {r.id for r in self.rules.active_rules(sc.interpretations)}
        called = _called(sc)
        candidates = [m for m in self.alive if active.intersection(m.mutant.rules) or called & m.definitions]
        if not candidates:
            return
        if grounded is not None and grounded.folded and any(m.put_in or m.definitions for m in candidates):
            grounded = None  # a variant's own rules and questions are grounded beside rules that name the inputs
        sw = SwitchedCase(sc, self.rules, *self.limits, base=grounded)
        if sw.limit_hit:
            for m in candidates:
                self.unknown.setdefault(m.mutant.id, (at, f"{sc.path}: {sw.limit_hit}"))
            return
        before = sw.answers()
        ok = {r.question for r in before.results if r.ok}
        # a question the solver gave up on under the rules as they are can notice no mutant
        unanswered = next((f"{sc.path}::{r.question}: {r.reason}" for r in before.results
                           if r.verdict is Verdict.UNKNOWN), "")
        if not ok and not unanswered:
            return
        killed: set[str] = set()
        for m in candidates:
            mid = m.mutant.id
            try:
                change = changes_in(sw, m, self.grounder(m))
            except EncodingError as exc:
                self.results[mid] = MutantResult(mid, MutantStatus.INVALID, case=sc.path,
                                                 reason=f"cannot be grounded over {sc.path}: {exc.message}")
                self.ended[mid] = at
                killed.add(mid)
                continue
            if change is None:
                continue
            left_out, bodies, asked = change
            self.runs.setdefault(mid, []).append(at)
            if unanswered:
                self.unknown.setdefault(mid, (at, unanswered))
            if not ok or sw.unchanged(before, left_out, bodies, asked):
                continue
            after = sw.answers(left_out, bodies, asked)
            found = _kill(before, after, ok)
            if found is None:
                continue
            question, expected, got, gave_up = found
            if gave_up:
                reason = next(a.reason for a in after.results if a.question == question)
                self.unknown.setdefault(mid, (at, f"{sc.path}::{question}: {reason}"))
                continue
            self.results[mid] = MutantResult(mid, MutantStatus.KILLED, sc.path, question, expected, got,
                                             cases_run=len(self.runs[mid]))
            self.ended[mid] = at
            killed.add(mid)
        self.alive = [m for m in self.alive if m.mutant.id not in killed]
        for mid in killed:
            self.grounders.pop(mid, None)

    def grounder(self, m: Mutation) -> RuleGrounder:
        found = self.grounders.get(m.mutant.id)
        if found is None:
            found = self.grounders[m.mutant.id] = RuleGrounder(m.rule_base)
        return found

    def finish(self) -> list[MutantResult]:
        for m in self.alive:
            mid = m.mutant.id
            if mid in self.unknown:
                self.results[mid] = MutantResult(mid, MutantStatus.UNKNOWN, reason=self.unknown[mid][1],
                                                 cases_run=len(self.runs.get(mid, ())))
            else:
                self.results[mid] = MutantResult(mid, MutantStatus.SURVIVED, cases_run=len(self.runs.get(mid, ())))
        return list(self.results.values())

    def tally(self) -> Tally:
        """What this run found, to be merged with the runs of the other cases (see `merged`)."""
        self.finish()
        return Tally(self.results, self.runs, self.unknown, self.ended)


class Tally(NamedTuple):
    """A run over some of the cases: each mutant's result there, and by mutant the cases it was run on, the
    first that left it undecided (with why) and the one that ended it (see `CaseRun`)."""

    results: dict[str, MutantResult]
    runs: dict[str, list[int]]
    unknown: dict[str, tuple[int, str]]
    ended: dict[str, int]


def merged(mutations: Sequence[Mutation], tallies: Sequence[Tally]) -> list[MutantResult]:
    """Each mutant's result over every case, from runs over parts of them: what the first case that ended it
    found (its cases run counted up to that case), else undecided or surviving over all of them."""
    out = []
    for m in mutations:
        mid = m.mutant.id
        if m.invalid:
            out.append(tallies[0].results[mid])
            continue
        runs = [at for t in tallies for at in t.runs.get(mid, ())]
        ends = [(t.ended[mid], t) for t in tallies if mid in t.ended]
        if ends:
            at, tally = min(ends, key=lambda end: end[0])
            result = tally.results[mid]
            if result.status is MutantStatus.KILLED:
                result = replace(result, cases_run=sum(1 for run in runs if run <= at))
            out.append(result)
            continue
        unknown = min((t.unknown[mid] for t in tallies if mid in t.unknown), default=None)
        out.append(MutantResult(mid, MutantStatus.UNKNOWN, reason=unknown[1], cases_run=len(runs)) if unknown
                   else MutantResult(mid, MutantStatus.SURVIVED, cases_run=len(runs)))
    return out


# What a part of the run tells as it goes: a case passed ("case", 1), how many survivors it will try to prove
# equivalent ("survivors", n), a survivor tried ("tried", 1).
Tell = Callable[[str, int], None]


def _run_part(rules: RuleBase, scenarios: Sequence[Scenario], mutations: Sequence[Mutation], timeout_ms: int,
              memory_mb: int | None, tell: Tell, prove: bool = False) -> list[MutantResult]:
    run = CaseRun(rules, mutations, timeout_ms, memory_mb)
    for at, sc in enumerate(scenarios):
        if run.alive:
            run.case(sc, at)
        tell("case", 1)
    results = run.finish()
    if prove:
        results = _proven(rules, scenarios, mutations, results, timeout_ms, memory_mb, tell)
    return results


def _proven(rules: RuleBase, scenarios: Sequence[Scenario], mutations: Sequence[Mutation],
            results: list[MutantResult], timeout_ms: int, memory_mb: int | None, tell: Tell) -> list[MutantResult]:
    """`results` with each survivor proven equivalent (see `equivalence`) marked so, with the reason."""
    from ..solver.grounding import RuleGrounder
    from .equivalence import proven_equivalent

    made = {m.mutant.id: m for m in mutations}
    original = RuleGrounder(rules, free_structure=True)
    tell("survivors", sum(r.status is MutantStatus.SURVIVED for r in results))
    out = []
    for r in results:
        if r.status is MutantStatus.SURVIVED:
            why = proven_equivalent(rules, scenarios, made[r.mutant_id], timeout_ms, memory_mb, original)
            if why:
                r = MutantResult(r.mutant_id, MutantStatus.EQUIVALENT, reason=why, cases_run=r.cases_run)
            tell("tried", 1)
        out.append(r)
    return out


_forked: tuple[RuleBase, Sequence[Scenario], list[list[Mutation]], int, int | None, object, bool] | None = None
_workers = 1  # how many workers share the cases (see `_case_worker`)


def _worker(part: int) -> list[MutantResult]:
    assert _forked is not None
    rules, scenarios, parts, timeout_ms, memory_mb, queue, prove = _forked
    return _run_part(rules, scenarios, parts[part], timeout_ms, memory_mb,
                     lambda what, n: queue.put((what, n)), prove)  # type: ignore[attr-defined]


def _case_worker(part: int) -> Tally:
    """Every mutant run on the cases whose place in the table is `part` modulo the number of workers."""
    assert _forked is not None
    rules, scenarios, parts, timeout_ms, memory_mb, queue, _ = _forked
    (mutations,) = parts
    run = CaseRun(rules, mutations, timeout_ms, memory_mb)
    for at in range(part, len(scenarios), _workers):
        if run.alive:
            run.case(scenarios[at], at)
        queue.put(("case", 1))  # type: ignore[attr-defined]
    return run.tally()


def _split(mutations: Sequence[Mutation], parts: int) -> list[list[Mutation]]:
    """The mutations in `parts` parts of about equal size, every mutant of a rule or definition in one part."""
    targets: dict[str, list[Mutation]] = {}
    for m in mutations:
        targets.setdefault(m.mutant.target, []).append(m)
    out: list[list[Mutation]] = [[] for _ in range(parts)]
    for group in sorted(targets.values(), key=len, reverse=True):
        min(out, key=len).extend(group)
    return out


def run_mutations(rules: RuleBase, scenarios: Sequence[Scenario], mutations: Sequence[Mutation], timeout_ms: int,
                  memory_mb: int | None = None, jobs: int | None = None,
                  progress: Progress | None = None, prove: bool = False,
                  proving: Progress | None = None) -> list[MutantResult]:
    """Each mutation's result against the cases `scenarios` (in the order given), in the order of `mutations`.
    With `prove`, a survivor proven equivalent over the cases' universes (`equivalence.proven_equivalent`) is
    `equivalent` instead. `progress` is told how many case passes are done of how many; `proving`, how many
    survivors were tried of those known so far (each part of the run tells its own once its case passes end).

    With several jobs, the cases are split between worker processes, each running every mutant on its cases
    (see `merged`); with `prove`, the mutants are split instead, each part run over every case (a survivor is
    proven over every case's universe).
    """
    global _forked, _workers
    order = {m.mutant.id: i for i, m in enumerate(mutations)}
    by_case = not prove
    workers = max(1, min(jobs or os.cpu_count() or 1, len(scenarios) if by_case else len(mutations), 8))
    total = len(scenarios) * (1 if by_case else workers)
    done = survivors = tried = 0

    def tell(what: str, n: int) -> None:
        nonlocal done, survivors, tried
        if what == "case":
            done += n
            if progress is not None:
                progress(done, total)
            return
        if what == "survivors":
            survivors += n
        else:
            tried += n
        if proving is not None:
            proving(tried, survivors)

    if workers == 1:
        results = _run_part(rules, scenarios, mutations, timeout_ms, memory_mb, tell, prove)
        return sorted(results, key=lambda r: order[r.mutant_id])
    import multiprocessing
    import queue as queues
    from concurrent.futures import Future, wait

    from ..processes import forked_pool

    ticks = multiprocessing.get_context("fork").Queue()
    _forked = (rules, scenarios, [list(mutations)] if by_case else _split(mutations, workers), timeout_ms, memory_mb,
               ticks, prove)
    _workers = workers
    try:
        with forked_pool(workers) as pool:
            futures: list[Future[Any]] = [pool.submit(_case_worker if by_case else _worker, part)
                                          for part in range(workers)]
            while not all(f.done() for f in futures):
                try:
                    tell(*ticks.get(timeout=0.2))
                except queues.Empty:
                    wait(futures, timeout=0)
            while True:  # a worker's last ticks may still be on their way when its part is done
                try:
                    tell(*ticks.get(timeout=1 if done < total else 0.05))
                except queues.Empty:
                    break
            results = (merged(mutations, [f.result() for f in futures]) if by_case
                       else [r for f in futures for r in f.result()])
    finally:
        _forked = None
        _workers = 1
    return sorted(results, key=lambda r: order[r.mutant_id])


T = TypeVar("T")
# Answers the case at a place in the table: the caller's answer, with the case as read and its rules and facts as
# grounded (None when they were not); the case as read is None when it cannot be read or grounded, and the
# mutants' results are then not wanted.
Answering = Callable[[int], tuple[T, Scenario | None, GroundedBase | None]]
# Told what (cases answered, or cases the mutants ran on) is done, how many, and of how many.
Told = Callable[[str, int, int], None]

_answering: tuple[Answering[Any], RuleBase, Sequence[Mutation], tuple[int, int | None], int, int, Any] | None = None


def _answered_part(answer: Answering[T], rules: RuleBase, mutations: Sequence[Mutation], limits: tuple[int, int | None],
                   count: int, workers: int, part: int, tell: Callable[[str], None]) -> tuple[list[T], Tally | None]:
    """The answers of the cases whose place in the table is `part` modulo `workers`, in order, and every mutant run
    on them (None once one of them cannot be read)."""
    run = CaseRun(rules, mutations, *limits)
    outcomes: list[T] = []
    mutating = True
    for at in range(part, count, workers):
        outcome, sc, grounded = answer(at)
        outcomes.append(outcome)
        tell("cases")
        mutating = mutating and sc is not None
        if mutating and run.alive:
            assert sc is not None
            run.case(sc, at, grounded)
        tell("mutation")
    return outcomes, run.tally() if mutating else None


def _answering_worker(part: int) -> tuple[list[Any], Tally | None]:
    assert _answering is not None
    answer, rules, mutations, limits, count, workers, ticks = _answering
    return _answered_part(answer, rules, mutations, limits, count, workers, part, lambda what: ticks.put(what))


def answer_and_mutate(rules: RuleBase, mutations: Sequence[Mutation], count: int, answer: Answering[T],
                      timeout_ms: int, memory_mb: int | None = None, jobs: int | None = None,
                      told: Told | None = None) -> tuple[list[T], list[MutantResult] | None]:
    """The answers `answer` gives the `count` cases of the table, in order, and each mutation's result against the
    cases (as `run_mutations` gives them, in the order of `mutations`; None when some case cannot be read). Each
    case is answered and then run under the mutants in one process, on the grounding its answer made.

    With several jobs, the cases are split between worker processes as `run_mutations` splits them; `answer` is
    called in the worker (forked: it may be any callable)."""
    global _answering
    workers = max(1, min(jobs or os.cpu_count() or 1, count, 8))
    done = {"cases": 0, "mutation": 0}

    def tell(what: str) -> None:
        done[what] += 1
        if told is not None:
            told(what, done[what], count)

    limits = (timeout_ms, memory_mb)
    if workers == 1:
        parts = [_answered_part(answer, rules, mutations, limits, count, 1, 0, tell)]
    else:
        import multiprocessing
        import queue as queues
        from concurrent.futures import Future, wait

        from ..processes import forked_pool

        ticks = multiprocessing.get_context("fork").Queue()
        _answering = (answer, rules, mutations, limits, count, workers, ticks)
        try:
            with forked_pool(workers) as pool:
                futures: list[Future[tuple[list[T], Tally | None]]] = [pool.submit(_answering_worker, part)
                                                                        for part in range(workers)]
                while not all(f.done() for f in futures):
                    try:
                        tell(ticks.get(timeout=0.2))
                    except queues.Empty:
                        wait(futures, timeout=0)
                while True:  # a worker's last ticks may still be on their way when its part is done
                    try:
                        tell(ticks.get(timeout=1 if done["mutation"] < count else 0.05))
                    except queues.Empty:
                        break
                parts = [f.result() for f in futures]
        finally:
            _answering = None
    outcomes = [parts[at % workers][0][at // workers] for at in range(count)]
    tallies = [tally for _, tally in parts]
    if any(tally is None for tally in tallies):
        return outcomes, None
    return outcomes, merged(mutations, [t for t in tallies if t is not None])


def naive_status(rules: RuleBase, scenarios: Sequence[Scenario], mutation: Mutation, timeout_ms: int,
                 before: Sequence[CaseResult] | None = None) -> tuple[MutantStatus, str | None]:
    """The naive way, for reference: the mutated rule base grounded afresh and checked on every case, in
    full; the mutant's status and the first case that kills it. `before`: the cases' results under the rules
    as they are (worked out when not given). A case with a question the solver gave up on leaves a mutant that
    no case kills unknown, whether or not the mutant could change that case (the fast way looks only where it
    could)."""
    if mutation.invalid:
        return MutantStatus.INVALID, None
    mutated = mutation.mutated_base(rules)
    first: str | None = None
    unknown = False
    for i, sc in enumerate(scenarios):
        original = before[i] if before is not None else check_scenario(sc, rules, None, timeout_ms)
        try:
            after = check_scenario(sc, mutated, None, timeout_ms)
        except EncodingError:
            return MutantStatus.INVALID, sc.path
        if any(r.verdict is Verdict.UNKNOWN for r in original.results):
            unknown = True  # a question the solver gave up on can notice no mutant
        found = _kill(original, after, {r.question for r in original.results if r.ok})
        if found is not None and first is None:
            if found[3]:
                unknown = True
            else:
                first = sc.path
    if first is not None:
        return MutantStatus.KILLED, first
    return (MutantStatus.UNKNOWN if unknown else MutantStatus.SURVIVED), None
