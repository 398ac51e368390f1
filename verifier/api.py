"""The public API: every front end (the command line, the gate, the pytest plugin, benchmarks) runs the
pipeline through these functions and reads the frozen results they return.

    repo = open_repository(Path("."))
    for outcome in check(repo, [Path("cases/set-aside")]):
        ...                                        # (CaseResult, defaults text) or CaseInputError
    report = explore(repo, [Path("scopes/set-aside.yaml")])

Bad input raises an `InputError` (file, line, message); every error is a `RegcheckError`.
"""

from __future__ import annotations

__all__ = [
    "Repository", "open_repository", "load", "answer", "scenario_warnings", "check", "explain", "ruling", "explore",
    "gate", "sweep", "sweep_report", "ExploreReport", "ScopeReport", "ExploreOptions", "ScopeText", "DEFAULT_MAX_SCENARIOS",
    "CaseReport", "report_cases", "mutate", "distinguish",
]

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import RegcheckError, UsageError
from .explanation import explain_case
from .explore import ExploreOptions, ScopeText, load_scope
from .explore.baseline import ExploreReport, ScopeReport, explore
from .explore.search import DEFAULT_MAX_SCENARIOS
from .files import display_path
from .language.encoding import RuleBase
from .processes import run_in_processes
from .repository import Repository, open_repository, shown_path
from .resultcache import result_cache
from .rulesdoc import RulesDocument
from .ruling import load_ruling, ruling_check, ruling_verdict, scope_scenarios
from .runner import CaseInputError, CaseTask, RulingTask, input_error_of
from .scenario.defaultcheck import warning_lines
from .scenario.loader import load_case
from .scenario.model import Scenario
from .solver.engine import DEFAULT_TIMEOUT_MS, check_ruling, check_scenario
from .timeline import Timeline, timeline_of, timeline_scenario
from .verdicts import CaseResult, Explanation, RulingCheck, RulingResult, SweepImpact, Verdict

if TYPE_CHECKING:  # the gate and the sweep are read only by the commands that use them
    from .gate import GateOptions, GateReport
    from .mutation import MutationReport
    from .mutation.distinguish import Distinction
    from .sweep import CardPool, SweepOptions, SweepProgress, SweepReport, SweepSummary


def load(repo: Repository, case: Path) -> Scenario:
    """Read and validate one case file."""
    return load_case(case, repo.rules, display_path(case))


def answer(repo: Repository, scenario: Scenario, timeout_ms: int = DEFAULT_TIMEOUT_MS,
           memory_mb: int | None = None) -> CaseResult:
    """Every question's verdict for a scenario already read (a contradiction with its ways out)."""
    return check_scenario(scenario, repo.rules, repo.document, timeout_ms, memory_mb, resolve=True)


def scenario_warnings(scenario: Scenario) -> tuple[tuple[str, int, int, str], ...]:
    """The defaults of a scenario that may not be what it means (a card left to the first player that another
    uses, a blocker with no player): (file, line, column, message) each, in order."""
    return warning_lines(scenario)


def check(repo: Repository, files: Sequence[Path], timeout_ms: int = DEFAULT_TIMEOUT_MS,
          memory_mb: int | None = None, jobs: int | None = None,
          show_defaults: bool = False, use_cache: bool = False,
          readings: bool = False) -> Iterator[tuple[CaseResult, str] | CaseInputError]:
    """Each case file's result (with its defaults as text when asked), or its input error, in order.
    A contradiction comes with its ways out: the interpretation rules and minimal correction sets
    that make the case consistent, and every question's answer under each. With `readings`, each
    determined answer comes with the readings it rests on (`QuestionResult.rests_on`; a grounding of the
    case more for each reading its rules or questions use). With `use_cache`, a case file
    whose result the repository's result cache holds for this very input is not checked again
    (see `resultcache`)."""
    cache = result_cache(repo.root) if use_cache else None
    task = CaseTask(repo.rules, repo.document, timeout_ms, memory_mb, show_defaults, cache=cache,
                    readings=_with_rests_on() if readings else None)
    yield from run_in_processes(task, files, jobs, memory_mb)


def _with_rests_on() -> Callable[[CaseResult, Scenario, RuleBase, int, int | None], CaseResult]:
    from .mutation.readings import with_rests_on

    return with_rests_on


def explain(repo: Repository, case: Path, question: str | None = None, timeout_ms: int = DEFAULT_TIMEOUT_MS,
            memory_mb: int | None = None) -> tuple[Scenario, tuple[Explanation, ...]]:
    """Why the rules answer a case's questions (or the one named) as they do, each determined answer with
    the readings it rests on."""
    scenario = load_case(case, repo.rules)
    return scenario, explain_case(scenario, repo.rules, repo.document(), question, timeout_ms, memory_mb,
                                  readings=_with_rests_on())


@dataclass(frozen=True)
class CaseReport:
    """A case as the HTML report shows it: its answers, why each is so, and its timeline."""

    result: CaseResult
    explanations: tuple[Explanation, ...]
    timeline: Timeline
    resolved: tuple[tuple[str, Timeline], ...] = ()  # for a contradiction: the timeline under each resolving interpretation


@dataclass(frozen=True)
class _ReportTask:
    rules: RuleBase
    doc: Callable[[], RulesDocument]
    timeout_ms: int
    memory_mb: int | None
    readings: bool = False

    def __call__(self, path: Path) -> CaseReport | CaseInputError:
        try:
            scenario = load_case(path, self.rules)
            explanations = explain_case(scenario, self.rules, self.doc(), None, self.timeout_ms, self.memory_mb,
                                        readings=_with_rests_on() if self.readings else None)
            result = CaseResult(scenario.path, scenario.title, scenario.note, tuple(e.result for e in explanations))
            timeline = self.timeline(scenario)
            ways = next((r.resolutions for r in result.results if r.verdict is Verdict.CONTRADICTION), ())
            resolved = tuple((w.interpretation, self.timeline(scenario._replace(
                interpretations=(*scenario.interpretations, w.interpretation))))
                for w in ways if w.interpretation and w.verified)
            return CaseReport(result, explanations, timeline, resolved)
        except RegcheckError as err:
            return input_error_of(path, err)

    def timeline(self, scenario: Scenario) -> Timeline:
        pictured = check_scenario(timeline_scenario(scenario, self.rules), self.rules, self.doc, self.timeout_ms,
                                  self.memory_mb)
        return timeline_of(scenario, pictured)


def report_cases(repo: Repository, files: Sequence[Path], timeout_ms: int = DEFAULT_TIMEOUT_MS,
                 memory_mb: int | None = None, jobs: int | None = None,
                 readings: bool = False) -> Iterator[CaseReport | CaseInputError]:
    """Each case file's answers, explanations and timeline (or its input error), in order; with `readings`,
    each determined answer with the readings it rests on."""
    yield from run_in_processes(_ReportTask(repo.rules, repo.document, timeout_ms, memory_mb, readings), files, jobs,
                         memory_mb)


def ruling(repo: Repository, files: Sequence[Path], case_files: Sequence[Path] = (),
           timeout_ms: int = DEFAULT_TIMEOUT_MS, memory_mb: int | None = None, jobs: int | None = None,
           scope: Path | None = None, progress: Callable[[str, int, int], None] | None = None,
           sweep: Path | None = None, scheduler: str | None = None) -> tuple[list[RulingResult], list[str]]:
    """Proposed rulings checked against the rule base: on their own scenario, on `case_files` (for a
    ruling that proposes rules), on every scenario of `scope` when one is given, and on every combination of
    cards of the sweep's results database `sweep` when one is given (see `sweep.impact`; on the Dask cluster of
    `scheduler` when one is given, else on `jobs` local processes). Also returns the messages of case files that
    could not be read; `progress` is told how far each check got (what is checked, done, total)."""
    doc = repo.document()
    rulings = [load_ruling(f, repo.rules, doc) for f in files]
    general = [r for r in rulings if r.rules]
    if general and not case_files and scope is None and sweep is None:
        raise UsageError("no case files (*.yaml) to check the ruling's rules on; name them with --cases")
    if scheduler is not None and sweep is None:
        raise UsageError("--scheduler runs the check over a sweep (--sweep DATABASE) on a Dask cluster; name the sweep")
    if sweep is not None and not general:
        raise UsageError("--sweep checks a ruling's general rules over a sweep's combinations of cards, and none of "
                         "these rulings proposes rules")
    if sweep is not None:
        from .sweep.impact import read_sweep

        combinations = read_sweep(sweep, repo.root)  # refused before any check
    scenarios: list[Scenario | RulingCheck] = []  # a check already: a scenario regcheck refuses to answer
    if scope is not None and general:  # a scope measures a general rule's impact
        scenarios = scope_scenarios(load_scope(scope, repo.rules, shown_path(repo, scope)), repo.rules)
    checked = "cases and scenarios" if case_files and scenarios else "scenarios" if scenarios else "cases"
    partial: list[tuple[RulingCheck | None, tuple[RulingCheck, ...]]] = []
    errors: list[str] = []
    for r in rulings:
        with_ruling = r.rule_base(repo.rules)
        task = RulingTask(repo.rules, with_ruling, lambda: doc, timeout_ms, memory_mb)
        own = (replace(check_ruling(r.scenario, repo.rules, with_ruling, doc, True, timeout_ms, memory_mb),
                       warnings=warning_lines(r.scenario)) if r.scenario else None)
        impact: list[RulingCheck] = []
        total = (len(case_files) + len(scenarios)) if r.rules else 0
        for done, outcome in enumerate(run_in_processes(task, case_files, jobs, memory_mb) if r.rules else (), 1):
            if progress is not None:
                progress(f"{r.id}: {checked}", done, total)
            if isinstance(outcome, str):
                errors.append(outcome)
            else:
                impact.append(outcome)
        for done, sc in enumerate(scenarios if r.rules else (), len(case_files) + 1):
            check = ruling_check(sc, repo.rules, with_ruling, doc, timeout_ms, memory_mb)
            impact.append(check if isinstance(sc, RulingCheck) else replace(check, warnings=warning_lines(sc)))
            if progress is not None:
                progress(f"{r.id}: {checked}", done, total)
        partial.append((own, tuple(impact)))
    swept: dict[int, SweepImpact] = {}  # by the ruling's place in `rulings`
    if sweep is not None:
        from .sweep.impact import rulings_over_sweep

        what = f"{', '.join(r.id for r in general)}: sweep combinations"
        swept = dict(zip((i for i, r in enumerate(rulings) if r.rules), rulings_over_sweep(
            repo.root, sweep, combinations, general, timeout_ms, memory_mb, jobs, scheduler,
            (lambda done, total: progress(what, done, total)) if progress is not None else None)))
    results = []
    for i, (r, (own, checks)) in enumerate(zip(rulings, partial)):
        over = swept.get(i)
        verdict = ruling_verdict(own, checks + (over.checks if over else ()))
        results.append(RulingResult(r.path, r.id, r.title, verdict, own, checks, over))
    return results, errors


def gate(root: Path, options: GateOptions, progress: Callable[[str, int, int], None] | None = None) -> GateReport:
    """Every check of the CI gate on the rules repository at `root`; `progress` is told what is being checked
    (cases, each scope) and how far it got."""
    from .gate import run_gate

    return run_gate(root, options, progress=progress)


def mutate(repo: Repository, targets: Sequence[str] = (), kinds: Sequence[str] | None = None,
           timeout_ms: int = DEFAULT_TIMEOUT_MS, memory_mb: int | None = None, jobs: int | None = None,
           progress: Callable[[int, int], None] | None = None, prove: bool = False,
           proving: Callable[[int, int], None] | None = None) -> MutationReport:
    """Mutation analysis: the mutants of the rules and definitions named in `targets` (every one, when empty)
    of the given `kinds` (every kind, when None), each checked against the repository's case table (cases/):
    killed by the first case that answers a question otherwise than it expects, survived, or invalid; with
    `prove`, a survivor proven to say what the rules say over the cases' universes is equivalent instead
    (see `mutation.equivalence`).
    `progress` is told how many cases the run has gone through; `proving`, how many survivors were tried for
    equivalence, of those known so far. A case file that cannot be read, an unknown rule or definition, or an
    unknown kind is bad input."""
    from .gate.run import case_files
    from .mutation import KINDS, MutationReport, mutations, run_mutations
    from .yamlsource import did_you_mean

    names = [r.id for r in repo.rules.rules] + list(repo.rules.definitions)
    for target in targets:
        if target not in names:
            raise UsageError(f"no rule or definition '{target}' in the encodings{did_you_mean(target, names)}")
    chosen = tuple(kinds) if kinds is not None else tuple(KINDS)
    for kind in chosen:
        if kind not in KINDS:
            raise UsageError(f"no mutant kind '{kind}'{did_you_mean(kind, list(KINDS))}; "
                             f"the kinds are {', '.join(KINDS)}")
    scenarios = [load_case(f, repo.rules, display_path(f)) for f in case_files(repo.root)]
    found = mutations(repo.rules, tuple(targets), chosen)
    results = run_mutations(repo.rules, scenarios, found, timeout_ms, memory_mb, jobs, progress, prove, proving)
    return MutationReport(tuple(m.mutant for m in found), tuple(results), len(scenarios))


def distinguish(repo: Repository, report: MutationReport, max_scenarios: int | None = None,
                timeout_ms: int = DEFAULT_TIMEOUT_MS, memory_mb: int | None = None, jobs: int | None = None,
                progress: Callable[[Distinction, int, int], None] | None = None) -> MutationReport:
    """For each mutant that survived `report` (a `mutate` run on this repository), search a scope built from the
    rules it changes for a scenario the rules and the mutant answer differently (at most `max_scenarios` of it;
    see `mutation.distinguish`): the report again, with each survivor's distinguishing case (a case file's
    text, the rules' answers as `expect`) or its being equivalent in scope. `progress` is told each survivor's
    result as it comes."""
    from dataclasses import replace

    from .gate.run import case_files
    from .mutation import mutations
    from .mutation.distinguish import DEFAULT_MAX_SCENARIOS, distinguish_each

    survivors = report.survivors()
    if not survivors:
        return report
    wanted = {m.id for m in survivors}
    made = {m.mutant.id: m for m in mutations(repo.rules, tuple(sorted({m.target for m in survivors})),
                                              tuple(sorted({m.kind for m in survivors})))
            if m.mutant.id in wanted}
    files = case_files(repo.root)
    scenarios = [load_case(f, repo.rules, shown_path(repo, f)) for f in files]  # named in the repository, as notes say
    found = distinguish_each(repo.rules, scenarios, files, [made[m.id] for m in survivors], timeout_ms, memory_mb,
                             max_scenarios or DEFAULT_MAX_SCENARIOS, jobs, progress)
    return replace(report, distinctions=tuple(found))


def sweep(repo: Repository, database: Path, options: SweepOptions, categories: Sequence[str] = ("set-aside", "heal"),
          deck: Path | None = None, progress: Callable[[SweepProgress], None] | None = None) -> tuple[CardPool, SweepSummary]:
    """Search every combination of the modelled cards of `categories` (of the bundled card list, or of a
    deck list) with `explore`, one small scope per combination, writing each result to the SQLite
    `database` as it arrives; run again, it continues where it stopped. Returns the cards (used and left
    out) and what this run did."""
    from .sweep import read_deck, run_sweep, select_cards

    names = [e.name for e in read_deck(deck)] if deck is not None else None
    pool = select_cards(categories, names)
    return pool, run_sweep(repo.root, pool, database, options, progress)


def sweep_report(repo: Repository, database: Path) -> SweepReport:
    """A sweep's results database read for a report: its findings grouped by their statements at fault, those
    with the verdict and rules of a finding in the repository's accepted-findings file told apart."""
    from .gate.findings import FINDINGS_FILE, read_baseline
    from .sweep import sweep_report as read_report

    return read_report(database, read_baseline(repo.root / FINDINGS_FILE, repo.root))
