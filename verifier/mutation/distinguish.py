"""Distinguishing cases: for a surviving mutant, a scenario the rules and the mutant answer differently.

A mutant survives when every case of the table answers every question as before. Its scope is built from
the sorts of the rules it changes, as the case table instantiates them: the cases in which those rules
are in force, each with its players and cards (the card kinds), its attempts (the attempt kinds) placed
over its turns and one more and over its phases and the phases the rules and the mutant name, and as
questions the case's own and every application of the outcome symbols the rules and the definitions
they use name (`explore`'s templates). The cases come in tiers: first those with the most of the card
types, attempt kinds, ability kinds, durations, effect classes and discard causes the rules name, then
those whose `about` names a statement the rules cite, then the table's order. Within a tier, the
scenarios are searched level by level across its cases, so that the first found is as close to a
reviewed case as any:

1. each case as written;
2. each case with one more turn;
3. each case with one attempt left out (and the attempts that refer to it);
4. each case with one attempt moved to another phase of its turns and one more: one of the case's own
   phases, the Preparation or Battle Phase, or a phase the rules or the mutant name.

Each scenario is grounded once (`solver.swap.SwitchedCase`) and answered with the rules as they are and
with the mutant's version of them. The first scenario in which a question gets another verdict or value,
where the rules themselves are consistent and the solver gave up on nothing, is written as a case file
whose `expect` holds the rules' answers: a candidate case for a rules expert to review, re-checked here
(the rules answer it as it expects; the mutant does not). A mutant none of whose scope's scenarios
tells it apart is *equivalent in scope*; a search that stops at `max_scenarios` is *cut short*. A mutant
of a definition no rule uses has no scope to search: only a case's question asking the definition can
tell it apart (as the mutation run does).
"""

from __future__ import annotations

__all__ = ["DistinctionStatus", "Distinction", "DEFAULT_MAX_SCENARIOS", "distinguish", "distinguish_each", "case_name"]

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

import yaml

from ..errors import CaseError, EncodingError, InputError
from ..explore.scenarios import Plan, case_text, scenario_of, slots, template_applications
from ..explore.scope import OUTCOME_SYMBOLS, PHASES, Scope, ScopeText, load_scope
from ..language.encoding import RuleBase
from ..language.syntax import Call, Name, walk
from ..rulesdoc import statement_order
from ..scenario.loader import ACTIONS, scenario_from_tree
from ..scenario.model import Scenario
from ..solver.grounding import RuleGrounder
from ..solver.swap import SwitchedCase
from ..verdicts import CaseResult, QuestionResult, Verdict
from ..vocabulary import MEMBER_OF
from ..yamlsource import load_yaml, load_yaml_text, plain
from .mutants import Mutation
from .run import changes_in

DEFAULT_MAX_SCENARIOS = 100
MAX_QUESTIONS = 400  # templated questions of one scenario; outcome symbols named farther from the rule go first
MAX_SCOPE_TURNS = 12  # as in a scope file
CASE_QUESTIONS = 3  # questions a distinguishing case asks at most
MOVED_TO = ("Preparation", "Battle")  # phases an attempt may be moved to besides its case's and the rules'


class DistinctionStatus(StrEnum):
    """What the search over a surviving mutant's scope found."""

    DISTINGUISHED = "distinguished"  # a scenario the rules and the mutant answer differently
    EQUIVALENT = "equivalent in scope"  # every scenario of the scope answered alike
    CUT_SHORT = "cut short"  # none of the scenarios searched told them apart; the scope holds more
    UNKNOWN = "unknown"  # none told them apart, but the solver gave up on some
    NO_SCOPE = "no scope"  # no case has the rules in force: nothing to build a scope from


@dataclass(frozen=True)
class Distinction:
    """One surviving mutant's search: its outcome, the scope (as people read it), how many of its
    scenarios were searched, and for a distinguished mutant the scenario as a case file."""

    mutant_id: str
    status: DistinctionStatus
    scope: str
    searched: int
    held: int
    based_on: str = ""  # the case the scenario varies
    variation: str = ""  # how: "as written", "without play_1", ...
    questions: tuple[tuple[str, str, str], ...] = ()  # (question as written, the rules' answer, the mutant's)
    case: str = ""  # the case file's text
    reason: str = ""  # for `unknown`: where the solver gave up; for `no scope`, why, when no rule uses the definition


def case_name(mutant_id: str) -> str:
    """The file name of a mutant's distinguishing case: `distinguishes-sa-6-negate-2.yaml`."""
    return "distinguishes-" + re.sub(r"[^a-z0-9]+", "-", mutant_id.lower()).strip("-") + ".yaml"


@dataclass(frozen=True)
class _Base:
    """A case of the table as a scope: where each of its attempts stands, and what refers to what."""

    path: str
    title: str
    tree: dict[str, Any]  # the case file, read as plain values
    turns: int
    placed: tuple[tuple[int, str], ...]  # each timeline entry's (turn, phase)
    refers: tuple[int | None, ...]  # the entry each entry refers to (negates, chooses the return of)
    ids: tuple[str, ...]
    about: frozenset[str]


def _base(path: Path, sc: Scenario) -> _Base | None:
    """The case at `path` (read as `sc`), or None when its file cannot be read again."""
    try:
        tree = plain(load_yaml(path, CaseError, sc.path)[0])
    except InputError:
        return None
    if not isinstance(tree, dict):
        return None
    timeline = tree.get("timeline") or []
    steps = {s.position: s for s in sc.steps}
    ids: list[str] = []
    refers: list[int | None] = []
    for i, entry in enumerate(timeline):
        action = next(k for k in ACTIONS if k in entry)
        ids.append(str(entry.get("id", f"{action}_{i + 1}")))
        target = entry.get(action) if action in ("negate", "choose_return") else None
        refers.append(ids.index(str(target)) if isinstance(target, str) and str(target) in ids else None)
    by_id = {a.id: a for a in sc.attempts}
    placed = tuple((steps[by_id[i].step].turn, steps[by_id[i].step].phase) for i in ids)
    about = tree.get("about") or []
    return _Base(sc.path, sc.title, tree, sc.steps[-1].turn if sc.steps else 1, placed, tuple(refers), tuple(ids),
                 frozenset(str(a) for a in (about if isinstance(about, list) else [about])))


def _scope(base: _Base, phases: tuple[str, ...], templates: tuple[str, ...], rules: RuleBase) -> Scope:
    """The case as a scope: its timeline's entries as the attempts that may happen, in the given phases of
    its turns and one more."""
    doc = {k: v for k, v in base.tree.items() if k not in ("expect", "timeline", "turns")}
    attempts = []
    for i, entry in enumerate(base.tree.get("timeline") or []):
        kept = {k: v for k, v in entry.items() if k not in ("turn", "phase", "id")}
        attempts.append({"id": base.ids[i], **kept})
    doc["turns"] = min(base.turns + 1, MAX_SCOPE_TURNS)
    doc["attempts"] = attempts
    doc["phases"] = list(phases)
    doc["per_phase"] = max(1, min(8, max((base.placed.count(p) for p in base.placed), default=1) + 1))
    doc["templates"] = list(templates)
    text = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=100)
    return load_scope(ScopeText(base.path, text), rules)


def _variants(base: _Base, scope: Scope, level: int) -> list[tuple[Plan, int, str]]:
    """The scenarios of one level (see the module) of a case's scope: (plan, turns, what it changes)."""
    places = slots(scope)
    index = {p: i for i, p in enumerate(places)}
    own = [(i, index[p]) for i, p in enumerate(base.placed)]
    written = Plan(tuple(own))
    if level == 0:
        return [(written, base.turns, "as written")]
    if level == 1:
        return [(written, scope.turns, "with one more turn")] if scope.turns > base.turns else []
    out: list[tuple[Plan, int, str]] = []
    for i, attempt in enumerate(base.ids):
        if level == 2:
            gone = {i}
            for j in range(len(base.ids)):
                if base.refers[j] in gone:
                    gone.add(j)
            out.append((Plan(tuple(p for p in own if p[0] not in gone)), base.turns, f"without {attempt}"))
            continue
        for slot, (turn, phase) in enumerate(places):
            if slot == own[i][1]:
                continue
            moved = [p for p in own if p[0] != i] + [(i, slot)]
            moved.sort(key=lambda p: p[1])  # stable: the moved attempt comes last in its phase
            out.append((Plan(tuple(moved)), max(turn, base.turns), f"{attempt} moved to turn {turn} {phase}"))
    return out


def _features(sc: Scenario) -> set[str]:
    """The value-set members a scenario's inputs take: its cards' types, its abilities' kinds, durations and
    effect classes, its attempts' kinds and discard causes."""
    out = {c.type for c in sc.cards} | {a.kind for a in sc.attempts}
    out |= {a.discard_cause for a in sc.attempts if a.discard_cause}
    out |= {v for a in sc.abilities for v in (a.kind, a.duration_kind, a.effect_class)}
    return out


def _count(base: _Base, phases: tuple[str, ...]) -> int:
    """How many scenarios `_variants` gives for a case over all levels, without building its scope."""
    turns = min(base.turns + 1, MAX_SCOPE_TURNS)
    attempts = len(base.ids)
    return 1 + (turns > base.turns) + attempts + attempts * (turns * len(phases) - 1)


def _named(rules: RuleBase, mutation: Mutation) -> tuple[set[str], set[str], set[str]]:
    """The outcome symbols, the phases and the other value-set members (card types, attempt kinds, ability
    kinds...) named by the rules the mutant changes, by their mutated versions, and by the definitions either
    uses (directly or through others)."""
    bodies = [r.body for r in rules.rules if r.id in mutation.mutant.rules] + [r.body for r in mutation.put_in]
    definitions = {**rules.definitions, **mutation.rule_base.definitions}
    seen: set[str] = set()
    todo = list(bodies)
    symbols: set[str] = set()
    phases: set[str] = set()
    members: set[str] = set()
    while todo:
        for e in walk(todo.pop()):
            if isinstance(e, Call):
                if e.func in OUTCOME_SYMBOLS:
                    symbols.add(e.func)
                elif e.func in definitions and e.func not in seen:
                    seen.add(e.func)
                    todo.append(definitions[e.func].body)
            elif isinstance(e, Name) and e.id in PHASES:
                phases.add(e.id)
            elif isinstance(e, Name) and e.id in MEMBER_OF:
                members.add(e.id)
    return symbols, phases, members


def _templates(base_sc: Scenario, symbols: Sequence[str]) -> tuple[str, ...]:
    """The symbols to ask about: all of them, or as many as keep a scenario within MAX_QUESTIONS."""
    chosen: list[str] = []
    for symbol in symbols:
        if len(template_applications(base_sc, (*chosen, symbol))) <= MAX_QUESTIONS:
            chosen.append(symbol)
    return tuple(chosen)


def _answer(r: QuestionResult) -> str:
    return r.answer


def _expect(r: QuestionResult) -> dict[str, str]:
    return {"verdict": r.verdict.value} | ({"value": r.value} if r.value is not None else {})


class _Search:
    """One mutant's search over its scope."""

    def __init__(self, rules: RuleBase, scenarios: Sequence[Scenario], files: Sequence[Path], mutation: Mutation,
                 timeout_ms: int, memory_mb: int | None, max_scenarios: int) -> None:
        self.rules = rules
        self.m = mutation
        self.limits = (timeout_ms, memory_mb)
        self.max_scenarios = max_scenarios
        cites = {sid for r in rules.rules if r.id in mutation.mutant.rules for sid in r.cites}
        symbols, named_phases, members = _named(rules, mutation)
        reaching: list[tuple[int, bool, int, _Base, Scenario]] = []
        for path, sc in zip(files, scenarios):
            active = {r.id for r in rules.active_rules(sc.interpretations)}
            if active.intersection(mutation.mutant.rules):
                base = _base(path, sc)
                if base is not None:
                    reaching.append((-len(members & _features(sc)), not base.about & cites, len(reaching), base, sc))
        self.cases: list[tuple[_Base, Scenario, tuple[str, ...]]] = []  # each case, with its scope's phases
        self.tiers: list[tuple[int, bool]] = []  # each case's tier: how near it is to the rules (see the module)
        for matched, far, _, base, sc in sorted(reaching, key=lambda r: r[:3]):
            phases = tuple(p for p in PHASES if p in named_phases or p in MOVED_TO or p in {ph for _, ph in base.placed})
            self.cases.append((base, sc, phases))
            self.tiers.append((matched, far))
        self.ordered = sorted(symbols, key=lambda s: (s not in _own_symbols(rules, mutation), s))
        self.scopes: dict[int, Scope | None] = {}  # built when first searched
        self.phases = tuple(p for p in PHASES if p in named_phases)
        self.symbols = tuple(sorted(symbols))

    def scope(self, index: int) -> Scope | None:
        """The scope of the case at `index`, or None when its attempts cannot all stand in it."""
        if index not in self.scopes:
            base, sc, phases = self.cases[index]
            try:
                self.scopes[index] = _scope(base, phases, _templates(sc, self.ordered), self.rules)
            except InputError:
                self.scopes[index] = None
        return self.scopes[index]

    def describe(self) -> str:
        if not self.cases:
            return "no case has the rules it changes in force"
        names = ", ".join(b.path for b, _, _ in self.cases[:3]) + (f" and {len(self.cases) - 3} more"
                                                                    if len(self.cases) > 3 else "")
        return (f"the {len(self.cases)} case{'s' if len(self.cases) != 1 else ''} with its rules in force ({names}): "
                f"as written, with one more turn, with one attempt left out, with one attempt moved to another "
                f"phase ({', '.join(p for p in PHASES if p in {*MOVED_TO, *self.phases})} or the case's own) of its "
                f"turns and one more"
                + f"; asking their questions and {', '.join(self.symbols) or 'no outcome symbol'} of everything")

    def run(self, progress: Callable[[int, int], None] | None = None) -> Distinction:
        """The search, over the scenarios in the module's order; how many the scope holds is counted without
        building each case's scope, and a case whose scope cannot be built leaves the count when it is reached."""
        mid = self.m.mutant.id
        if not self.m.mutant.rules:  # a definition no rule uses: it changes only the questions asking it
            return Distinction(mid, DistinctionStatus.NO_SCOPE, "none: no rule uses the definition", 0, 0,
                               reason="no rule uses the definition; only a case's question asking it can tell "
                                      "the mutant apart")
        held = sum(_count(base, phases) for base, _, phases in self.cases)
        if not held:
            return Distinction(mid, DistinctionStatus.NO_SCOPE, self.describe(), 0, 0)
        grounder = RuleGrounder(self.m.rule_base)
        unknown = ""
        searched = 0
        order = [(i, level) for tier in sorted(set(self.tiers)) for level in range(4)
                 for i, t in enumerate(self.tiers) if t == tier]
        for index, level in order:
            if searched >= self.max_scenarios:
                break
            base = self.cases[index][0]
            scope = self.scope(index)
            if scope is None:
                if level == 0:
                    held -= _count(base, self.cases[index][2])
                continue
            for plan, turns, what in _variants(base, scope, level):
                if searched >= self.max_scenarios:
                    break
                searched += 1
                if progress is not None:
                    progress(searched, min(held, self.max_scenarios))
                found = self._one(grounder, scope, plan, turns)
                if isinstance(found, str):
                    unknown = unknown or (found and f"{base.path} {what}: {found}")
                    continue
                if found is None:
                    continue
                sc, before, after = found
                return self._written(base, scope, plan, turns, what, sc, before, after, searched, held)
        if unknown:
            return Distinction(mid, DistinctionStatus.UNKNOWN, self.describe(), searched, held, reason=unknown)
        status = DistinctionStatus.EQUIVALENT if searched == held else DistinctionStatus.CUT_SHORT
        return Distinction(mid, status, self.describe(), searched, held)

    def _one(self, grounder: RuleGrounder, scope: Scope, plan: Plan,
             turns: int) -> tuple[Scenario, CaseResult, CaseResult] | str | None:
        """The scenario with both answers when they differ; None when they do not (or the scenario is no
        case the language accepts, or the rules conflict in it); the reason when the solver gave up."""
        try:
            sc = scenario_of(scope, plan, self.rules, turns=turns)
        except InputError:
            return None
        sw = SwitchedCase(sc, self.rules, *self.limits)
        if sw.limit_hit:
            return sw.limit_hit
        try:
            change = changes_in(sw, self.m, grounder)
        except EncodingError:
            return None
        if change is None:
            return None
        left_out, bodies, asked = change
        before = sw.answers()
        gave_up = next((r.reason or "the solver gave up" for r in before.results if r.verdict is Verdict.UNKNOWN), "")
        if gave_up:
            return gave_up
        if any(r.verdict is Verdict.CONTRADICTION for r in before.results):
            return None  # a conflict of the rules themselves is a finding for `explore`, not a case
        if sw.unchanged(before, left_out, bodies, asked):
            return None
        after = sw.answers(left_out, bodies, asked)
        if any(a.verdict is Verdict.UNKNOWN for a in after.results):
            return next(a.reason for a in after.results if a.verdict is Verdict.UNKNOWN) or "the solver gave up"
        if all(_answer(b) == _answer(a) for b, a in zip(before.results, after.results)):
            return None
        return sc, before, after

    def _written(self, base: _Base, scope: Scope, plan: Plan, turns: int, what: str, sc: Scenario,
                 before: CaseResult, after: CaseResult, searched: int, held: int) -> Distinction:
        own = {str(q) for q in (base.tree.get("questions") or {})}
        differ = [(b, a) for b, a in zip(before.results, after.results) if _answer(b) != _answer(a)]
        differ.sort(key=lambda ba: ba[0].question not in own)  # the case's own questions first
        shown = differ[:CASE_QUESTIONS]
        text_of = {q.name: q.text for q in sc.questions}
        m = self.m.mutant
        cites = sorted({sid for r in self.rules.rules if r.id in m.rules for sid in r.cites}, key=statement_order)
        where = "" if m.kind == "delete" else f" ({m.description} at {m.place})"
        lines = [f"{text_of[b.question]}: {_answer(b)} (the mutant: {_answer(a)})" for b, a in shown]
        note = (f"Candidate case, to review against the rules text before it joins cases/. Found by "
                f"`regcheck mutate --distinguish` for the surviving mutant {m.id}{where}: it is {base.path} "
                f"{what}, and the rules as encoded answer it otherwise than the mutant does. "
                + "; ".join(lines) + f". Statements the mutated rules cite: {', '.join(cites) or 'none'}.")
        title = base.title if what == "as written" else f"{base.title}, {what}"
        text = case_text(scope, plan, title, note, {b.question: text_of[b.question] for b, _ in shown},
                         {b.question: _expect(b) for b, _ in shown}, turns, about=tuple(cites))
        questions = tuple((text_of[b.question], _answer(b), _answer(a)) for b, a in shown)
        return Distinction(m.id, DistinctionStatus.DISTINGUISHED, self.describe(), searched, held, base.path, what,
                           questions, text)


def _own_symbols(rules: RuleBase, mutation: Mutation) -> set[str]:
    """The outcome symbols named by the mutated rule or definition itself."""
    target = mutation.mutant.target
    body = (rules.definitions[target].body if target in rules.definitions
            else next(r.body for r in rules.rules if r.id == target))
    return {e.func for e in walk(body) if isinstance(e, Call) and e.func in OUTCOME_SYMBOLS}


def distinguish(rules: RuleBase, scenarios: Sequence[Scenario], files: Sequence[Path], mutation: Mutation,
                timeout_ms: int, memory_mb: int | None = None, max_scenarios: int = DEFAULT_MAX_SCENARIOS,
                progress: Callable[[int, int], None] | None = None) -> Distinction:
    """Search a surviving mutant's scope (see the module) for a scenario the rules and the mutant answer
    differently; `scenarios` are the case table's cases, read from `files`. A case found is re-checked
    before it is returned: the rules answer it as it expects, and the mutant does not."""
    search = _Search(rules, scenarios, files, mutation, timeout_ms, memory_mb, max_scenarios)
    found = search.run(progress)
    if found.status is DistinctionStatus.DISTINGUISHED:
        wrong = _recheck(rules, mutation, found, timeout_ms, memory_mb)
        if wrong:
            return Distinction(found.mutant_id, DistinctionStatus.UNKNOWN, found.scope, found.searched, found.held,
                               reason=f"{found.based_on} {found.variation}: {wrong}")
    return found


def _recheck(rules: RuleBase, mutation: Mutation, found: Distinction, timeout_ms: int,
             memory_mb: int | None) -> str:
    """Why the case written for a distinguished mutant does not do what it should, or "" when it does."""
    from .run import MutantStatus, run_mutations

    name = case_name(found.mutant_id)
    try:
        root, text = load_yaml_text(found.case, CaseError, name)
        sc = scenario_from_tree(root, text, name, rules)
    except InputError as exc:
        return f"the case written cannot be read: {exc}"
    if not all(r.ok for r in SwitchedCase(sc, rules, timeout_ms, memory_mb).answers().results):
        return "the rules do not answer the case written as it expects"
    (result,) = run_mutations(rules, [sc], [mutation], timeout_ms, memory_mb, jobs=1)
    return "" if result.status is MutantStatus.KILLED else f"the case written does not kill the mutant ({result.status})"


@dataclass(frozen=True)
class _Task:
    rules: RuleBase
    scenarios: Sequence[Scenario]
    files: Sequence[Path]
    mutations: Sequence[Mutation]
    timeout_ms: int
    memory_mb: int | None
    max_scenarios: int

    def __call__(self, index: int) -> Distinction:
        return distinguish(self.rules, self.scenarios, self.files, self.mutations[index], self.timeout_ms,
                           self.memory_mb, self.max_scenarios)


def distinguish_each(rules: RuleBase, scenarios: Sequence[Scenario], files: Sequence[Path],
                     mutations: Sequence[Mutation], timeout_ms: int, memory_mb: int | None = None,
                     max_scenarios: int = DEFAULT_MAX_SCENARIOS, jobs: int | None = None,
                     progress: Callable[[Distinction, int, int], None] | None = None) -> list[Distinction]:
    """`distinguish` for each of `mutations` (surviving mutants), in order, several at once with more than one
    job; `progress` is told each result as it comes, with how many are done and how many there are."""
    from ..processes import run_in_processes

    task = _Task(rules, scenarios, files, mutations, timeout_ms, memory_mb, max_scenarios)
    out: list[Distinction] = []
    for done, found in enumerate(run_in_processes(task, list(range(len(mutations))), jobs), 1):
        out.append(found)
        if progress is not None:
            progress(found, done, len(mutations))
    return out
