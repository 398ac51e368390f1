"""The search over a scope's scenarios: findings, each with a minimal witness, and the unused statements.

Every scenario of the scope is first screened by symbol: is there a conflict, and which symbols'
questions can two outcomes sharing the inputs and the players' choices answer differently. Where the
scope asks no questions of its own, a templated question's value is the outcome it asks about, so the
outcomes are screened without building the questions (`screen_asked`). Otherwise the scenario is
first screened for whether any outcome can differ at all (`screen_scenario`), and only where one can
are the questions built and screened by symbol (`screen_groups`). A scenario the screen finds a
conflict or an open question in, or whose screen gave up, is answered in full (`check_scenario`, with
a contradiction's ways out; only the questions the screen leaves open), which names the statements at
fault behind each finding. A scenario's rules and facts are grounded once for all of it: the check of
which attempts can be legal, the screens and the full answer start from that grounding (`ScenarioScreen`),
each on a solver as its own check would be. The brute-force path answers every scenario in full; it is
the reference the search is tested against.

A templated question about an attempt (other than whether it is legal) is asked only where the
attempt can be legal (see `scenario_of`).

A finding is one cause: its verdict and its statements at fault (`statements_at_fault`), whatever
question and scenario show it; it counts the scenarios that show it. Statements at fault found from an
ambiguity's open outcomes name its cause exactly. Those drawn from the rules involved (where no open
outcome tells the witnesses apart) or from a contradiction's correction sets grow with whatever else a
scenario holds: such a set goes with the smallest set of the same verdict and kind in the scope that it
contains (`cause_of`). Its witness is the first scenario
that shows it (scenarios come with the fewest attempts first), shrunk further by leaving out attempts
no other needs, then cards, then turns, while the finding stays.
"""

from __future__ import annotations

__all__ = ["ExploreOptions", "ExploreFinding", "ExploreResult", "explore_scope", "finding_keys"]

import itertools
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from typing import NamedTuple

from ..errors import CaseRefused, InputError
from ..language.encoding import RuleBase
from ..language.syntax import Call
from ..processes import run_in_processes
from ..rulesdoc import in_statement_order, statement_order
from ..scenario.model import Question, Scenario
from ..solver.engine import DEFAULT_TIMEOUT_MS, ScenarioScreen, check_scenario
from ..verdicts import CaseResult, GroupScreening, QuestionResult, Verdict
from .scenarios import (
    MAX_TEMPLATE_QUESTIONS,
    Plan,
    about_attempts,
    case_text,
    count_plans,
    never_legal,
    plans,
    scenario_of,
    slots,
    template_applications,
)
from .scope import Scope

# (verdict, what the statements at fault come from, the statements): one cause (see `statements_at_fault`)
Key = tuple[str, str, tuple[str, ...]]
OPEN_OUTCOMES, RULES_INVOLVED, CORRECTION_SETS, CONFLICTING_SET = (
    "open outcomes", "rules involved", "correction sets", "conflicting set")
DEFAULT_MAX_SCENARIOS = 20_000
COUNT_CAP = 1_000_000  # a scope past this many scenarios is said to hold "more than" it


@dataclass(frozen=True)
class ExploreOptions:
    """How a search runs: per-check time and memory, worker processes, and how much it may look at."""

    timeout_ms: int = DEFAULT_TIMEOUT_MS
    memory_mb: int | None = None
    jobs: int | None = None
    max_scenarios: int = DEFAULT_MAX_SCENARIOS
    brute_force: bool = False
    shrink: bool = True


@dataclass(frozen=True)
class ExploreFinding:
    """One finding of a scope: what it is, the rules behind it, and the smallest scenario that shows it."""

    scope: str
    verdict: str  # `ambiguous` or `contradiction`
    symbol: str  # the symbol of the question ("" for a contradiction)
    rules: tuple[str, ...]
    question: str  # the witness's question, as written
    attempts: tuple[str, ...]  # the witness's attempts: "turn 1 Preparation: play_provisions"
    turns: int
    cards: tuple[str, ...]
    scenarios: int  # how many scenarios of the scope show it
    case: str  # the witness as a case file
    at_fault: tuple[str, ...] = ()  # the statements at fault, its cause (see `statements_at_fault`)
    at_fault_from: str = ""  # what they come from: OPEN_OUTCOMES, RULES_INVOLVED, CORRECTION_SETS, CONFLICTING_SET


@dataclass(frozen=True)
class ExploreResult:
    """What a search over one scope found, and how much of the scope it covered."""

    scope: str
    title: str
    scenarios: int  # in the scope; past COUNT_CAP, COUNT_CAP + 1 ("more than" it: see `scenarios_shown`)
    checked: int  # looked at and answered (all of them unless the search was cut short or refused some)
    answered_in_full: int  # scenarios answered by the full engine
    findings: tuple[ExploreFinding, ...]
    unused: tuple[str, ...]  # statements no rule instance of any scenario checked rests on
    incomplete: tuple[str, ...]  # why parts of the search were cut short; empty when it was complete
    seconds: float

    @property
    def complete(self) -> bool:
        return not self.incomplete

    @property
    def scenarios_shown(self) -> str:
        """How many scenarios the scope holds, as people read it."""
        return f"more than {COUNT_CAP:,}" if self.scenarios > COUNT_CAP else f"{self.scenarios:,}"


@dataclass(frozen=True)
class _Outcome:
    keys: tuple[Shown, ...]  # each finding with the question that shows it
    rules_used: tuple[str, ...]
    unknown: str  # why a check gave up ("" when none did)
    full: bool
    refused: str = ""  # why regcheck will not answer the scenario (see `CaseRefused`); "" when it does


def symbol_of(q: Question) -> str:
    """The symbol a question asks about (its outermost call), or its name when it is no call."""
    return q.expr.func if isinstance(q.expr, Call) else q.name


def question_symbol(sc: Scenario, name: str) -> str:
    """The symbol the scenario's question `name` asks about (see `symbol_of`)."""
    return symbol_of(next(q for q in sc.questions if q.name == name))


class Shown(NamedTuple):
    """A finding as one scenario shows it: its cause, and the question, its symbol and the rules involved."""

    key: Key
    question: str
    symbol: str  # "" for a contradiction, which holds for the whole scenario
    rules: tuple[str, ...]


def statements_at_fault(rules: RuleBase, r: QuestionResult) -> tuple[str, tuple[str, ...]]:
    """The statements at fault for a finding, in statement order, with what they come from. For an
    ambiguity, those the engine names from its open outcomes (`QuestionResult.at_fault`), or where it names
    none, those the rules involved cite. For a contradiction, the statements of its smallest correction
    sets (any one of them left out, the scenario is consistent), or where the core principles leave no
    correction, those its conflicting set cites."""
    if r.verdict is Verdict.CONTRADICTION:
        sets = [c.statements for c in r.resolutions if c.kind == "correction" and c.statements]
        if sets:
            size = min(len(c) for c in sets)
            return CORRECTION_SETS, in_statement_order({sid for c in sets if len(c) == size for sid in c})
        return CONFLICTING_SET, in_statement_order({sid for item in r.core if item.kind == "rule"
                                                    for sid in rules.rule(item.label.split("[", 1)[0]).cites})
    if r.at_fault:
        return OPEN_OUTCOMES, in_statement_order(r.at_fault)
    return RULES_INVOLVED, in_statement_order({sid for rid in r.rules_involved for sid in rules.rule(rid).cites})


def cause_of(key: Key, keys: Collection[Key]) -> Key:
    """The cause a finding's key belongs to among `keys` (those of a scope, or of a sweep): itself when its
    statements come from open outcomes; otherwise the first, in statement order, of the smallest keys of
    the same verdict and kind whose statements its own contain."""
    if key[1] == OPEN_OUTCOMES:
        return key
    mine = set(key[2])
    within = [k for k in keys if k[:2] == key[:2] and set(k[2]) <= mine]
    smallest = [k for k in within if not any(set(o[2]) < set(k[2]) for o in within)]
    return min(smallest, key=lambda k: [statement_order(sid) for sid in k[2]])


def finding_keys(sc: Scenario, result: CaseResult, rules: RuleBase) -> tuple[Shown, ...]:
    """The findings of one answered scenario (answered with its ways out, for a contradiction's statements
    at fault), each with the first question that shows it."""
    out: dict[Key, Shown] = {}
    for r in result.results:
        if r.verdict is Verdict.CONTRADICTION:
            involved = in_statement_order({item.label.split("[", 1)[0] for item in r.core if item.kind == "rule"})
            key = (r.verdict.value, *statements_at_fault(rules, r))
            out.setdefault(key, Shown(key, r.question, "", involved))
        elif r.verdict is Verdict.AMBIGUOUS:
            key = (r.verdict.value, *statements_at_fault(rules, r))
            out.setdefault(key, Shown(key, r.question, question_symbol(sc, r.question), in_statement_order(r.rules_involved)))
    return tuple(out.values())


@dataclass(frozen=True)
class _PlanTask:
    scope: Scope
    rules: RuleBase
    options: ExploreOptions

    def __call__(self, plan: Plan) -> _Outcome:
        try:
            return self.search(plan)
        except CaseRefused as exc:  # this timeline only: the scope's other scenarios are searched on
            return _Outcome((), (), "", False, refused=str(exc))

    def search(self, plan: Plan) -> _Outcome:
        """The plan's outcome: screened (see the module), or answered in full as brute force answers it."""
        limits = (self.options.timeout_ms, self.options.memory_mb)
        if self.options.brute_force:
            sc = scenario_of(self.scope, plan, self.rules, limits=limits)
            # answered on the grounding the screens use, the inputs named (see `check_scenario`'s `fold`)
            return self.outcome(sc, check_scenario(sc, self.rules, None, *limits, resolve=True, fold=False), ())
        # First without the templated questions. A templated question's value is the outcome it asks
        # about, so where the scope asks no questions of its own the outcomes are screened by symbol at once.
        bare = scenario_of(self.scope, plan, self.rules, templates=(), not_legal=frozenset())
        screen = ScenarioScreen(bare, self.rules, *limits)  # grounded once for the checks below
        not_legal = never_legal(bare, self.rules, self.scope.templates, limits, screen)
        asked = [(symbol, raw) for symbol, _, raw in template_applications(bare, self.scope.templates, not_legal)]
        if not self.scope.questions and len(asked) <= MAX_TEMPLATE_QUESTIONS:  # more: refused as building them is
            by_symbol = screen.screen_asked(asked)
            if by_symbol.verdict is not Verdict.UNKNOWN:  # unknown: an outcome no rule constrains, or a limit
                return self.settled(plan, by_symbol, not_legal, screen)
            used = by_symbol.rules
        else:
            # when no outcome at all can differ, no question can
            first = screen.screen(every_outcome=True, asked=asked)
            if first.verdict is Verdict.DETERMINED:
                return _Outcome((), first.rules, "", False)
            if first.verdict is not Verdict.AMBIGUOUS:  # a conflict, or a check that gave up: answered in full
                return self.full(plan, screen, first.rules, not_legal, first.verdict)
            used = first.rules
        # Some outcome may differ: the templated questions built and screened by symbol.
        sc = scenario_of(self.scope, plan, self.rules, not_legal=not_legal)
        groups = {q.name: symbol_of(q) for q in sc.questions}
        screened = screen.screen_groups(sc, groups)
        return self.settled(plan, replace(screened, rules=used), not_legal, screen)

    def settled(self, plan: Plan, screened: GroupScreening, not_legal: frozenset[str],
                screen: ScenarioScreen) -> _Outcome:
        """What a screen by symbol settles: nothing to find, or the plan answered in full (an open question,
        a conflict, or a screen that gave up)."""
        if screened.verdict is Verdict.DETERMINED:
            return _Outcome((), screened.rules, "", False)
        return self.full(plan, screen, screened.rules, not_legal, screened.verdict,
                         frozenset(group for group, _ in screened.split))

    def full(self, plan: Plan, screen: ScenarioScreen, used: tuple[str, ...] = (), not_legal: frozenset[str] | None = None,
             screened: Verdict = Verdict.UNKNOWN, split: frozenset[str] = frozenset()) -> _Outcome:
        """The plan's scenario answered in full, as the brute-force path answers it, with the questions the
        screen (`screened`, `split`) leaves open: where it found a conflict, one question, which shows it
        as every question does (the ways out are the scenario's, whatever is asked); where some groups can
        split, their questions, the others being determined. Its rules and facts are taken as `screen`
        grounded them."""
        limits = (self.options.timeout_ms, self.options.memory_mb)
        sc = scenario_of(self.scope, plan, self.rules, not_legal=not_legal, limits=limits)
        if screened is Verdict.CONTRADICTION:
            sc = sc._replace(questions=sc.questions[:1])
        elif screened is Verdict.AMBIGUOUS:
            sc = sc._replace(questions=tuple(q for q in sc.questions if symbol_of(q) in split))
        return self.outcome(sc, screen.answer(sc, resolve=True), used)

    def outcome(self, sc: Scenario, result: CaseResult, used: tuple[str, ...]) -> _Outcome:
        unknown = next((r.reason or "the solver gave up" for r in result.results if r.verdict is Verdict.UNKNOWN), "")
        return _Outcome(finding_keys(sc, result, self.rules), used, unknown, True)


def describe(scope: Scope, plan: Plan) -> tuple[str, ...]:
    """A plan's attempts as people read them."""
    places = slots(scope)
    return tuple(f"turn {places[s][0]} {places[s][1]}: {scope.candidates[i].id}" for i, s in plan.placements)


def explore_scope(scope: Scope, rules: RuleBase, options: ExploreOptions | None = None,
                  progress: Callable[[int, int], None] | None = None) -> ExploreResult:
    """Search every scenario of the scope (up to `options.max_scenarios`) for contradictions and
    ambiguities; each finding comes with a minimal witness written as a case file."""
    options = options or ExploreOptions()
    started = time.perf_counter()
    incomplete: list[str] = []
    every = list(itertools.islice(plans(scope), options.max_scenarios + 1))
    total = len(every)
    if total > options.max_scenarios:
        total = count_plans(scope, COUNT_CAP)
        every = every[:options.max_scenarios]
        held = f"more than {COUNT_CAP:,}" if total > COUNT_CAP else f"{total:,}"
        incomplete.append(f"the scope holds {held} scenarios; only the first {options.max_scenarios} "
                          "(the fewest attempts first) were checked (raise --max-scenarios)")
    groups: dict[Key, list[tuple[Plan, Shown]]] = {}
    used: set[str] = set()
    full = 0
    task = _PlanTask(scope, rules, options)
    answered: list[tuple[Plan, _Outcome]] = []
    refused: dict[str, list[Plan]] = {}
    for done, (plan, outcome) in enumerate(zip(every, run_in_processes(task, every, options.jobs, options.memory_mb)), 1):
        used.update(outcome.rules_used)
        if outcome.refused:
            refused.setdefault(outcome.refused, []).append(plan)
        else:
            answered.append((plan, outcome))
        if progress:
            progress(done, len(every))
    for why, plans_refused in refused.items():
        first = ", ".join(describe(scope, plans_refused[0])) or "no attempts"
        incomplete.append(f"{len(plans_refused):,} scenario(s) not answered, the first with {first}: {why}")
    for plan, outcome in answered:
        full += outcome.full
        if outcome.unknown:
            incomplete.append(f"{', '.join(describe(scope, plan)) or 'no attempts'}: {outcome.unknown}")
        for shown in outcome.keys:
            groups.setdefault(shown.key, []).append((plan, shown))
    causes: dict[Key, list[tuple[Plan, Shown]]] = {}
    for key, found in groups.items():
        causes.setdefault(cause_of(key, groups), []).extend(found)
    order_of = {plan: i for i, plan in enumerate(every)}.__getitem__
    # scenarios the search found to show nothing: a smaller witness tried while shrinking cannot be one of them
    clear = frozenset(plan for plan, outcome in answered if not outcome.keys and not outcome.unknown)
    findings = tuple(_finding(scope, rules, options, key, sorted(found, key=lambda s: order_of(s[0])), clear)
                     for key, found in causes.items())
    findings = tuple(sorted(findings, key=lambda f: (f.verdict, [statement_order(r) for r in f.at_fault])))
    unused = () if options.brute_force else _unused(rules, used)
    checked = len(every) - sum(len(p) for p in refused.values())
    return ExploreResult(scope.path, scope.title, total, checked, full, findings, unused, tuple(incomplete),
                         round(time.perf_counter() - started, 3))


def _unused(rules: RuleBase, used: set[str]) -> tuple[str, ...]:
    """Statements cited by encoded rules none of which had an instance in any scenario checked."""
    cited: dict[str, bool] = {}
    for r in rules.rules:
        for sid in r.cites:
            cited[sid] = cited.get(sid, False) or r.id in used
    return tuple(sorted((sid for sid, hit in cited.items() if not hit), key=statement_order))


def _finding(scope: Scope, rules: RuleBase, options: ExploreOptions, key: Key,
             shown: list[tuple[Plan, Shown]], clear: frozenset[Plan] = frozenset()) -> ExploreFinding:
    """The finding of one cause, its witness the first scenario that shows it, shrunk (see `_shrink`; `clear`:
    the scenarios of the scope the search found to show nothing)."""
    verdict, at_fault_from, at_fault = key
    plan, first = shown[0]  # the smallest scenario that shows it
    limits = (options.timeout_ms, options.memory_mb)
    if options.shrink:
        # only its cards are read before shrinking: no question needed
        sc = scenario_of(scope, plan, rules, templates=(), not_legal=frozenset())
        plan, turns, cards, first = _shrink(scope, rules, options, key, plan, first, sc, clear)
        sc = scenario_of(scope, plan, rules, turns=turns, cards=cards, limits=limits)
    else:
        sc = scenario_of(scope, plan, rules, limits=limits)
        turns, cards = scope.turns, tuple(c.name for c in sc.cards)
    question, symbol, involved = first.question, first.symbol, first.rules
    q = next(q for q in sc.questions if q.name == question)
    what = ("the rules and facts admit no outcome" if verdict == Verdict.CONTRADICTION.value
            else f"two outcomes that share every input and choice answer {q.text} differently")
    note = (f"Found by `regcheck explore` in the scope {scope.path} ({scope.title}): {what}. "
            f"The statements at fault: {', '.join(at_fault) or 'none'}; the rules involved: {', '.join(involved) or 'none'}.")
    title = f"{scope.title}: {verdict} " + (f"of {symbol}" if symbol else "of the whole scenario")
    text = case_text(scope, plan, title, note, {question: q.text}, {question: {"verdict": verdict}}, turns, cards)
    return ExploreFinding(scope.path, verdict, symbol, involved, q.text, describe(scope, plan), turns, cards,
                          len({p for p, _ in shown}), text, at_fault, at_fault_from)


def _shrink(scope: Scope, rules: RuleBase, options: ExploreOptions, key: Key, plan: Plan, first: Shown,
            sc: Scenario, clear: frozenset[Plan] = frozenset()) -> tuple[Plan, int, tuple[str, ...], Shown]:
    """Fewer attempts, then fewer cards, then fewer turns, while the scenario still shows the finding. A
    scenario of the scope itself (every card, every turn) in `clear` shows no finding, as the search found."""
    # a contradiction shows on every question: one is enough to see it
    templates = (first.symbol,) if first.symbol in scope.templates else scope.templates[:1]
    limits = (options.timeout_ms, options.memory_mb)
    cards = tuple(c.name for c in sc.cards)
    every_card = cards
    turns = scope.turns
    contradiction = key[0] == Verdict.CONTRADICTION.value

    def shows(p: Plan, t: int, kept: tuple[str, ...]) -> Shown | None:
        if p in clear and t == scope.turns and kept == every_card:
            return None
        try:
            bare = scenario_of(scope, p, rules, (), turns=t, cards=kept, not_legal=frozenset())
        except InputError:
            return None  # a card the timeline needs, or a turn it reaches
        # grounded once for which attempts can be legal and the answer, as the search does
        screen = ScenarioScreen(bare, rules, *limits) if about_attempts(templates) else None
        not_legal = never_legal(bare, rules, templates, limits, screen) if screen is not None else frozenset()
        smaller = scenario_of(scope, p, rules, templates, turns=t, cards=kept, not_legal=not_legal)
        if contradiction:
            smaller = smaller._replace(questions=smaller.questions[:1])
        result = (screen.answer(smaller, resolve=contradiction) if screen is not None
                  else check_scenario(smaller, rules, None, *limits, resolve=contradiction, fold=False))
        return next((s for s in finding_keys(smaller, result, rules) if cause_of(s.key, (s.key, key)) == key), None)

    needs = {i: c.after for i, c in enumerate(scope.candidates)}
    for placed in reversed(plan.placements):
        kept_plan = Plan(tuple(x for x in plan.placements if x != placed))
        if any(needs[i] == scope.candidates[placed[0]].id for i, _ in kept_plan.placements):
            continue  # a later attempt refers to it
        found = shows(kept_plan, turns, cards)
        if found is not None:
            plan, first = kept_plan, found
    for name in sc.cards:
        kept = tuple(c for c in cards if c != name.name)
        found = shows(plan, turns, kept) if kept else None
        if found is not None:
            cards, first = kept, found
    places = slots(scope)
    last = max((places[s][0] for _, s in plan.placements), default=1)
    for t in range(last, turns):
        found = shows(plan, t, cards)
        if found is not None:
            return plan, t, cards, found
    return plan, turns, cards, first
