"""The search over a scope's scenarios: findings, each with a minimal witness, and the unused statements.

Every scenario of the scope is first screened by symbol: is there a conflict, which symbols'
questions can two outcomes sharing the inputs and the players' choices answer differently, and which
rules every open question of each such symbol rests on. Where the scope asks no questions of its
own, a templated question's value is the outcome it asks about, so the outcomes are screened without
building the questions (`screen_asked`). Otherwise the scenario is first screened for whether any
outcome can differ at all (`screen_scenario`), and only where one can are the questions built and
screened by symbol (`screen_groups`). A scenario with a conflict, or whose screen gave up, is
answered in full (`check_scenario`), which names the rules behind each finding. The brute-force path
answers every scenario in full; it is the reference the search is tested against.

A scenario with ambiguous questions need not be answered in full to be counted (see `_settle`): an
ambiguity's rules are those resting on the question's value (which the screen names) plus those the
two witnesses' differing outcomes add. Once a scenario answered in full shows an ambiguity of a
symbol whose rules all its screened symbol's questions rest on, every later scenario whose screen
gives the same symbol and rules that contain these shows a finding of the symbol whose rules contain
them too, and brute force merges them all into that one finding (see `_cause`): such a scenario is
counted toward it without its full answer. This holds only while every ambiguity of the symbol
answered in full contains the same rules; where one does not, every scenario so counted for the
symbol is answered in full after all, so the findings and their counts are brute force's. A scenario
so counted is checked by the solver's screen alone, not by the reference evaluator or witnesses'
re-checks: were a witness of it to fail its re-check, or one of its full answer's checks to give up,
brute force would answer that question `unknown` where the search counts the finding.

A finding is grouped by its verdict, the symbol of its question and the rules involved (for an
ambiguity, the smallest such set among those of the same symbol that it contains; see `_cause`):
one gap in the rules text is one finding however many scenarios show it. Its witness is the first scenario
that shows it (scenarios come with the fewest attempts first), shrunk further by leaving out cards
and turns while the finding stays.
"""

from __future__ import annotations

__all__ = ["ExploreOptions", "ExploreFinding", "ExploreResult", "explore_scope", "finding_keys"]

import itertools
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace

from ..errors import CaseRefused, InputError
from ..language.encoding import RuleBase
from ..language.syntax import Call
from ..rulesdoc import statement_order
from ..runner import run_cases
from ..scenario.model import Scenario
from ..solver.engine import DEFAULT_TIMEOUT_MS, check_scenario, screen_asked, screen_groups, screen_scenario
from ..verdicts import CaseResult, GroupScreening, Verdict
from .scenarios import MAX_TEMPLATE_QUESTIONS, Plan, case_text, count_plans, plans, scenario_of, slots, template_applications
from .scope import Scope

# (verdict, question symbol ("" for a contradiction, which holds for the whole scenario), rules involved)
Key = tuple[str, str, tuple[str, ...]]
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
    at_fault: tuple[str, ...] = ()  # for an ambiguity, the witness's statements at fault (see QuestionResult)


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
    keys: tuple[tuple[Key, str], ...]  # each key with the question that shows it
    rules_used: tuple[str, ...]
    unknown: str  # why a check gave up ("" when none did)
    full: bool
    # each symbol some question about which may be ambiguous, with the rules all its open questions rest on
    split: tuple[tuple[str, tuple[str, ...]], ...] = ()
    refused: str = ""  # why regcheck will not answer the scenario (see `CaseRefused`); "" when it does


def question_symbol(sc: Scenario, name: str) -> str:
    """The symbol a question asks about (its outermost call), or its name when it is no call."""
    q = next(q for q in sc.questions if q.name == name)
    return q.expr.func if isinstance(q.expr, Call) else q.name


def finding_keys(sc: Scenario, result: CaseResult) -> tuple[tuple[Key, str], ...]:
    """The findings of one answered scenario, each with the question that shows it."""
    out: dict[Key, str] = {}
    for r in result.results:
        if r.verdict is Verdict.CONTRADICTION:
            rules = tuple(sorted({item.label.split("[", 1)[0] for item in r.core if item.kind == "rule"},
                                 key=statement_order))
            out.setdefault((r.verdict.value, "", rules), r.question)
        elif r.verdict is Verdict.AMBIGUOUS:
            out.setdefault((r.verdict.value, question_symbol(sc, r.question),
                            tuple(sorted(r.rules_involved, key=statement_order))), r.question)
    return tuple(out.items())


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
            sc = scenario_of(self.scope, plan, self.rules)
            return self.outcome(sc, check_scenario(sc, self.rules, None, *limits), ())
        # First without the templated questions. A templated question's value is the outcome it asks
        # about, so where the scope asks no questions of its own the outcomes are screened by symbol at once.
        bare = scenario_of(self.scope, plan, self.rules, templates=())
        asked = [(symbol, raw) for symbol, _, raw in template_applications(bare, self.scope.templates)]
        if not self.scope.questions and len(asked) <= MAX_TEMPLATE_QUESTIONS:  # more: refused as building them is
            by_symbol = screen_asked(bare, self.rules, asked, *limits)
            if by_symbol.verdict is not Verdict.UNKNOWN:  # unknown: an outcome no rule constrains, or a limit
                return self.settled(plan, by_symbol)
            used = by_symbol.rules
        else:
            # when no outcome at all can differ, no question can
            first = screen_scenario(bare, self.rules, *limits, every_outcome=True, asked=asked)
            if first.verdict is Verdict.DETERMINED:
                return _Outcome((), first.rules, "", False)
            if first.verdict is not Verdict.AMBIGUOUS:  # a conflict, or a check that gave up: answered in full
                return self.full(plan, first.rules)
            used = first.rules
        # Some outcome may differ: the templated questions built and screened by symbol.
        sc = scenario_of(self.scope, plan, self.rules)
        groups = {q.name: q.expr.func if isinstance(q.expr, Call) else q.name for q in sc.questions}
        screened = screen_groups(sc, self.rules, groups, *limits)
        return self.settled(plan, replace(screened, rules=used))

    def settled(self, plan: Plan, screened: GroupScreening) -> _Outcome:
        """What a screen by symbol settles: nothing to find, symbols to settle later (`_settle`), or the
        plan answered in full (a conflict, or a screen that gave up)."""
        if screened.verdict is Verdict.DETERMINED:
            return _Outcome((), screened.rules, "", False)
        if screened.verdict is Verdict.AMBIGUOUS:
            return _Outcome((), screened.rules, "", False, screened.split)
        return self.full(plan, screened.rules)

    def full(self, plan: Plan, used: tuple[str, ...] = ()) -> _Outcome:
        """The plan's scenario answered in full, as the brute-force path answers it."""
        sc = scenario_of(self.scope, plan, self.rules)
        return self.outcome(sc, check_scenario(sc, self.rules, None, self.options.timeout_ms, self.options.memory_mb),
                            used)

    @staticmethod
    def outcome(sc: Scenario, result: CaseResult, used: tuple[str, ...]) -> _Outcome:
        unknown = next((r.reason or "the solver gave up" for r in result.results if r.verdict is Verdict.UNKNOWN), "")
        return _Outcome(finding_keys(sc, result), used, unknown, True)


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
    groups: dict[Key, list[tuple[Plan, str]]] = {}
    used: set[str] = set()
    order_of = {plan: i for i, plan in enumerate(every)}.__getitem__
    full = 0
    task = _PlanTask(scope, rules, options)
    pending: list[tuple[Plan, tuple[tuple[str, tuple[str, ...]], ...]]] = []
    answered: list[tuple[Plan, _Outcome]] = []
    refused: dict[str, list[Plan]] = {}
    for done, (plan, outcome) in enumerate(zip(every, run_cases(task, every, options.jobs, options.memory_mb)), 1):
        used.update(outcome.rules_used)
        if outcome.refused:
            refused.setdefault(outcome.refused, []).append(plan)
        elif outcome.split:
            pending.append((plan, outcome.split))
        else:
            answered.append((plan, outcome))
        if progress:
            progress(done, len(every))
    for why, plans_refused in refused.items():
        first = ", ".join(describe(scope, plans_refused[0])) or "no attempts"
        incomplete.append(f"{len(plans_refused):,} scenario(s) not answered, the first with {first}: {why}")
    settled, counted = _settle(task, pending)
    for plan, outcome in sorted(answered + settled, key=lambda a: order_of(a[0])):
        full += outcome.full
        if outcome.unknown:
            incomplete.append(f"{', '.join(describe(scope, plan)) or 'no attempts'}: {outcome.unknown}")
        for key, question in outcome.keys:
            groups.setdefault(key, []).append((plan, question))  # in order: the first is the smallest
    for plan, keys in counted:
        for key in keys:
            groups.setdefault(key, []).append((plan, ""))  # never a key's first plan: one answered in full comes first
    merged: dict[Key, list[tuple[Plan, str]]] = {}
    for key, shown in groups.items():
        merged.setdefault(_cause(key, groups), []).extend(shown)
    findings = tuple(_finding(scope, rules, options, key, sorted(shown, key=lambda s: order_of(s[0])))
                     for key, shown in merged.items())
    findings = tuple(sorted(findings, key=lambda f: (f.verdict, f.symbol, [statement_order(r) for r in f.rules])))
    unused = () if options.brute_force else _unused(rules, used)
    checked = len(every) - sum(len(p) for p in refused.values())
    return ExploreResult(scope.path, scope.title, total, checked, full, findings, unused, tuple(incomplete),
                         round(time.perf_counter() - started, 3))


def _settle(task: _PlanTask, pending: list[tuple[Plan, tuple[tuple[str, tuple[str, ...]], ...]]]
            ) -> tuple[list[tuple[Plan, _Outcome]], list[tuple[Plan, tuple[Key, ...]]]]:
    """The plans whose screens found questions that may be ambiguous (in order, each with its screen's
    symbols and the rules their open questions rest on): those answered in full, and those counted
    toward findings without it, each with its keys.

    A plan is counted without its full answer when, for each of its symbols, a plan answered in full
    before it showed an ambiguity of the symbol whose rules the screen's rules contain: its own
    ambiguities of the symbol then contain them too. In the end every ambiguity answered in full must
    contain its symbol's smallest one (its cause, for every plan of the symbol: see `_cause`); for a
    symbol where one does not, the plans counted for it are answered in full after all."""
    ambiguous = Verdict.AMBIGUOUS.value
    causes: dict[str, frozenset[str]] = {}  # each symbol's smallest ambiguity answered in full
    answered: dict[Plan, _Outcome] = {}

    def answer(plan: Plan) -> None:
        outcome = answered[plan] = task.full(plan)
        for (verdict, symbol, rules), _ in outcome.keys:
            if verdict == ambiguous and (symbol not in causes or len(rules) < len(causes[symbol])):
                causes[symbol] = frozenset(rules)

    counted: dict[Plan, tuple[tuple[str, tuple[str, ...]], ...]] = {}
    for plan, split in pending:
        if all(symbol in causes and causes[symbol] <= set(rests) for symbol, rests in split):
            counted[plan] = split
        else:
            answer(plan)
    while True:
        broken = {symbol for o in answered.values() for (verdict, symbol, rules), _ in o.keys
                  if verdict == ambiguous and not causes[symbol] <= set(rules)}
        again = [plan for plan, split in counted.items() if any(symbol in broken for symbol, _ in split)]
        if not again:
            break
        for plan in again:
            del counted[plan]
            answer(plan)
    keys = {symbol: (ambiguous, symbol, tuple(sorted(rules, key=statement_order))) for symbol, rules in causes.items()}
    return (list(answered.items()),
            [(plan, tuple(keys[symbol] for symbol, _ in split)) for plan, split in counted.items()])


def _unused(rules: RuleBase, used: set[str]) -> tuple[str, ...]:
    """Statements cited by encoded rules none of which had an instance in any scenario checked."""
    cited: dict[str, bool] = {}
    for r in rules.rules:
        for sid in r.cites:
            cited[sid] = cited.get(sid, False) or r.id in used
    return tuple(sorted((sid for sid, hit in cited.items() if not hit), key=statement_order))


def _cause(key: Key, keys: Collection[Key]) -> Key:
    """The finding a key belongs to. A contradiction is its own (a minimal conflict is one cause). The
    rules involved in an ambiguity are the neighbourhood of the open value, which grows with whatever
    else the scenario holds: an ambiguity belongs to the first key of the same symbol whose rules are
    a smallest subset of its own."""
    if key[0] != Verdict.AMBIGUOUS.value:
        return key
    mine = set(key[2])
    smallest = sorted((k for k in keys if k[:2] == key[:2] and set(k[2]) <= mine
                      and not any(o[:2] == key[:2] and set(o[2]) < set(k[2]) for o in keys)),
                      key=lambda k: [statement_order(r) for r in k[2]])
    return smallest[0]


def _belongs(found: Key, cause: Key) -> bool:
    return found[:2] == cause[:2] and (found == cause or (cause[0] == Verdict.AMBIGUOUS.value
                                                          and set(cause[2]) <= set(found[2])))


def _finding(scope: Scope, rules: RuleBase, options: ExploreOptions, key: Key,
             shown: list[tuple[Plan, str]]) -> ExploreFinding:
    verdict, symbol, involved = key
    plan, question = shown[0]
    sc = scenario_of(scope, plan, rules)
    turns, cards = scope.turns, tuple(c.name for c in sc.cards)
    if options.shrink:
        turns, cards, question = _shrink(scope, rules, options, key, plan, question, sc)
        sc = scenario_of(scope, plan, rules, turns=turns, cards=cards)
    q = next(q for q in sc.questions if q.name == question)
    at_fault: tuple[str, ...] = ()
    if verdict == Verdict.AMBIGUOUS.value:
        answered = check_scenario(sc, rules, None, options.timeout_ms, options.memory_mb)
        at_fault = next((r.at_fault for r in answered.results if r.question == question), ())
    rule_list = ", ".join(involved) or "none"
    what = ("the rules and facts admit no outcome" if verdict == Verdict.CONTRADICTION.value
            else f"two outcomes that share every input and choice answer {q.text} differently")
    note = (f"Found by `regcheck explore` in the scope {scope.path} ({scope.title}): {what}. "
            f"The rules involved: {rule_list}.")
    title = f"{scope.title}: {verdict} " + (f"of {symbol}" if symbol else "of the whole scenario")
    text = case_text(scope, plan, title, note, {question: q.text}, {question: {"verdict": verdict}}, turns, cards)
    return ExploreFinding(scope.path, verdict, symbol, involved, q.text, describe(scope, plan), turns, cards,
                          len({p for p, _ in shown}), text, at_fault)


def _shrink(scope: Scope, rules: RuleBase, options: ExploreOptions, key: Key, plan: Plan, question: str,
            sc: Scenario) -> tuple[int, tuple[str, ...], str]:
    """Fewer cards, then fewer turns, while the scenario still shows the finding."""
    # a contradiction shows on every question: one symbol's questions are enough to see it
    templates = (key[1],) if key[1] in scope.templates else scope.templates[:1]
    cards = tuple(c.name for c in sc.cards)
    turns = scope.turns

    def shows(t: int, kept: tuple[str, ...]) -> str | None:
        try:
            smaller = scenario_of(scope, plan, rules, templates, turns=t, cards=kept)
        except InputError:
            return None  # a card the timeline needs, or a turn it reaches
        result = check_scenario(smaller, rules, None, options.timeout_ms, options.memory_mb)
        return next((q for found, q in finding_keys(smaller, result) if _belongs(found, key)), None)

    for name in sc.cards:
        kept = tuple(c for c in cards if c != name.name)
        found = shows(turns, kept) if kept else None
        if found is not None:
            cards, question = kept, found
    places = slots(scope)
    last = max((places[s][0] for _, s in plan.placements), default=1)
    for t in range(last, turns):
        found = shows(t, cards)
        if found is not None:
            return t, cards, found
    return turns, cards, question


