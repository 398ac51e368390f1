"""The gate: traceability, the lock, every case against its expectations and the accepted findings."""

from __future__ import annotations

__all__ = ["GateOptions", "run_gate", "renew_lock", "question_places", "check_folder", "check_report"]

import contextlib
import functools
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import CaseError, EncodingError, InputError, Location, RegcheckError
from ..explore import ExploreOptions, ExploreResult, explore_scope, load_scope
from ..explore.baseline import finding_of
from ..files import display_path, file_state, irregular
from ..language.cache import cached_rule_base
from ..language.encoding import RuleBase, load_rule_base
from ..processes import run_in_processes
from ..resultcache import ResultCache, result_cache
from ..rulesdoc import RulesDocument, load_rules_document
from ..runner import CaseInputError, CaseTask, input_error_of
from ..scenario.loader import load_case
from ..verdicts import CaseResult, QuestionResult, Verdict
from ..yamlsource import YMap, load_yaml
from .cardlock import check_cards, write_cards_lock
from .findings import FINDINGS_FILE, default_note, findings_of, read_baseline, write_baseline
from .lock import LOCK_FILE, check_lock, locked_statements, read_lock, write_lock
from .model import (
    CHECKS,
    AcceptedFinding,
    BaseChecks,
    Change,
    Finding,
    GateReport,
    Place,
    Places,
    Problem,
    QuestionOutcome,
)
from .reach import EncodingChanges, Grounds, case_grounds, encoding_changes, scope_grounds, why_reached
from .revision import answers, compare_answers, extract_revision
from .survivors import SURVIVORS_FILE, AcceptedSurvivor, read_survivors
from .traceability import check_traceability

if TYPE_CHECKING:  # the mutation check is imported where it runs
    from ..mutation import MutantResult, Mutation
    from ..scenario.model import Scenario
    from ..solver.grounding import GroundedBase

# Told what is being checked, how many of it are done and how many there are.
Progress = Callable[[str, int, int], None]
# Checks case files in order, giving each one's result or the message of its input error.
CaseChecker = Callable[[RuleBase, Callable[[], RulesDocument], list[Path]], Iterator[CaseResult | str]]


@dataclass(frozen=True)
class GateOptions:
    """How the gate runs: solver limits, parallel cases, the revision to compare with, what to renew."""

    timeout_ms: int
    memory_mb: int | None = None
    jobs: int | None = None
    base: str | None = None
    accept_findings: bool = False
    scopes: tuple[Path, ...] = ()  # scope files to compare with --base (default: the repository's scopes/)
    mutate: bool = True  # delete every rule in turn and check the deletion against the cases
    cache: bool = False  # answer unchanged cases from the result cache (see `resultcache`)


def case_files(root: Path) -> list[Path]:
    """Every case file under the repository's cases/ folder, sorted; shown relative to the current folder.

    Every *.yaml or *.yml entry that is not a folder is listed, so that one that is not a regular
    file (a dangling link, a FIFO, a device) is reported as bad input rather than passed over.
    """
    folder = root / "cases"
    if not folder.is_dir():
        return []
    return [Path(display_path(f)) for f in sorted(f for f in folder.rglob("*") if f.suffix in (".yaml", ".yml")
                                                  and not f.is_dir())]


def scope_files(root: Path) -> list[Path]:
    """Every scope file under the repository's scopes/ folder, sorted; shown relative to the current folder."""
    folder = root / "scopes"
    if not folder.is_dir():
        return []
    return [Path(display_path(f)) for f in sorted(f for f in folder.rglob("*") if f.suffix in (".yaml", ".yml")
                                                  and not f.is_dir())]


@dataclass(frozen=True)
class _Searched:
    """What the search of some scopes found: each finding (keyed by fingerprint, with a first note), the problems
    of scopes that could not be read or searched in full, and the names of the scopes that could not be read and
    of those whose search was cut short."""

    found: dict[str, tuple[Finding, str]]
    problems: list[Problem]
    unreadable: set[str]
    cut_short: set[str]


def _explore(root: Path, rules: RuleBase, options: GateOptions, files: Iterable[Path],
             progress: Progress | None = None, cache: ResultCache | None = None, statements: str = "",
             at: str = "") -> _Searched:
    """Each scope's search over `rules` (shown in `progress` as `scope NAME` and `at`). With `cache`, a scope
    searched in full before, with this code and these encodings, is not searched again."""
    searched = _Searched({}, [], set(), set())
    for path in files:
        name = _relative(path, root) if _inside(path, root) else display_path(path)
        try:
            scope = load_scope(path, rules, name)
        except InputError as err:
            searched.unreadable.add(name)
            place = Place.of(err.location, root) if err.location else Place(name, 1)
            searched.problems.append(Problem("input", err.message, place, case=name))
            continue
        step = (lambda done, total, name=name: progress(f"scope {name}{at}", done, total)) if progress else None
        content = f"{name}\0{options.timeout_ms}:{options.memory_mb}\0{statements}\0".encode() + path.read_bytes()
        result = cache.recall("scope", content, ExploreResult) if cache is not None else None
        if result is None:
            result = explore_scope(scope, rules, ExploreOptions(options.timeout_ms, options.memory_mb, options.jobs),
                                   step)
            if cache is not None and result.complete:
                cache.keep("scope", content, result)
        elif step is not None:
            step(result.checked, result.checked)
        if result.incomplete:
            searched.cut_short.add(name)
        for why in result.incomplete:
            searched.problems.append(Problem("unknown", f"the search of the scope was cut short: {why}",
                                             Place(name, 1), case=name))
        for f in result.findings:
            finding = finding_of(f)
            witness = "; ".join(f.attempts) or "no attempts"
            note = (f"{f.verdict} in the scope ({f.scenarios} scenarios), statements at fault: "
                    f"{', '.join(f.at_fault) or 'none'}; smallest witness: {witness}")
            searched.found.setdefault(finding.fingerprint, (finding, note))
    return searched


def _inside(path: Path, root: Path) -> bool:
    return (path.parent.resolve() / path.name).is_relative_to(root.resolve())


def _relative(path: Path, root: Path) -> str:
    # The folder is resolved, not the file: a case that is a link is named where the link is.
    return (path.parent.resolve() / path.name).relative_to(root.resolve()).as_posix()


def question_places(path: Path, root: Path) -> dict[str, Place]:
    """The line of each question of a case file inside or outside the repository, read from its YAML; empty
    when the file cannot be read."""
    try:
        node, _ = load_yaml(path, CaseError)
    except InputError:
        return {}
    questions = node.get("questions") if isinstance(node, YMap) else None
    if not isinstance(questions, YMap):
        return {}
    try:
        case = _relative(path, root)
    except ValueError:
        return {str(key.value): Place.of(key.loc, root) for key, _ in questions.entries}
    return {str(key.value): Place(case, key.loc.line) for key, _ in questions.entries}


def _question_places(path: Path, case: str, root: Path, cache: ResultCache | None) -> dict[str, Place]:
    """`question_places` of a case file in the repository (named `case` there), kept in the result cache by its
    text."""
    text = None
    if cache is not None and not irregular(path):
        with contextlib.suppress(OSError):
            text = path.read_bytes()
    if cache is None or text is None:
        return question_places(path, root)
    content = case.encode() + b"\0" + text
    lines = cache.recall("question lines", content, tuple[tuple[str, int], ...], code_only=True)
    if lines is not None:
        return {q: Place(case, line) for q, line in lines}
    found = question_places(path, root)
    with contextlib.suppress(OSError):
        if path.read_bytes() == text:  # kept only under the text it was read from
            cache.keep("question lines", content, tuple((q, p.line) for q, p in found.items()), code_only=True)
    return found


def check_folder(options: GateOptions, cache: ResultCache | None = None,
                 checked: list[tuple[str, str]] | None = None, shown: Callable[[Path], str] | None = None
                 ) -> CaseChecker:
    """The usual way to check case files: `regcheck check`'s, with the gate's limits; with `cache`, a case the
    result cache holds is not checked again, and `checked` gains each case that was, with why. `shown` names each
    case file in its result and in the cache's keys (default: its path as regcheck shows it)."""

    def checker(rules: RuleBase, doc: Callable[[], RulesDocument], files: list[Path]) -> Iterator[CaseResult | str]:
        # the gate fails or passes on the verdicts alone: a contradiction's ways out are not worked out
        case_task = CaseTask(rules, doc, options.timeout_ms, options.memory_mb, False, resolve=False, cache=cache)
        task = _Answering(case_task, shown)
        # the cases this very state of the repository answered before are read here, without worker processes
        kept = {path: kept for path in files
                if (kept := case_task.kept(path, shown(path) if shown else None)) is not None}
        todo = [path for path in files if path not in kept]
        checked_now = iter(run_in_processes(task, todo, options.jobs, options.memory_mb))
        for path in files:
            outcome = (kept[path][0], "") if path in kept else next(checked_now)
            if isinstance(outcome, tuple):
                if outcome[1] and checked is not None:
                    checked.append((display_path(path), outcome[1]))
                yield outcome[0]
            else:
                yield str(outcome) if isinstance(outcome, CaseInputError) else outcome

    return checker


@dataclass(frozen=True)
class _Answering:
    """A case file's result and why it was checked (empty: answered from the cache), or its input error."""

    task: CaseTask
    shown: Callable[[Path], str] | None = None

    def __call__(self, path: Path) -> tuple[CaseResult, str] | CaseInputError:
        try:
            result, _, why = self.task.answer(path, self.shown(path) if self.shown else None)
        except RegcheckError as err:
            return input_error_of(path, err)
        return result, why


def _results(root: Path, files: Iterable[Path], outcomes: Iterable[CaseResult | str]) -> dict[str, CaseResult | str]:
    return {_relative(f, root): o for f, o in zip(files, outcomes, strict=True)}


def renew_lock(root: Path) -> tuple[int, list[str]]:
    """Write the lock for the rules as they are, and the cards lock; returns how many statements it holds and what changed.
    Raises `EncodingError`, writing nothing, when a rule, a definition or a waiver names a statement the rules document
    does not hold (the lock could not say what it cites)."""
    rules = cached_rule_base(root / "encodings", load_rule_base)
    doc = load_rules_document(root / "rules")
    unknown = [p for p in check_traceability(root, doc, rules)[1] if p.check == "citations"]
    if unknown:
        more = f" ({len(unknown) - 1} more such citations)" if len(unknown) > 1 else ""
        raise EncodingError(f"{unknown[0].message}; the locks are not renewed{more}",
                            Location(unknown[0].place.path, unknown[0].place.line) if unknown[0].place else None)
    path = root / LOCK_FILE
    state = file_state(path)
    try:
        before = {sid: fp for sid, (fp, _) in read_lock(path).items()} if path.is_file() else {}
    except InputError:
        before = {}  # a damaged lock is simply written afresh
    after = locked_statements(doc, rules)
    changed = [f"added {sid}" for sid in after if sid not in before]
    changed += [f"renewed {sid}" for sid in after if sid in before and before[sid] != after[sid]]
    changed += [f"removed {sid}" for sid in before if sid not in after]
    write_lock(path, after, state)
    changed += [f"cards.lock {c}" for c in write_cards_lock(root)]
    return len(after), changed


def evidence_places(r: QuestionResult, rules: RuleBase, doc: RulesDocument, root: Path,
                    places: Places | None = None) -> tuple[tuple[Place, str], ...]:
    """The lines behind a verdict: each core item (rule instance or case fact), or each rule involved,
    with the rules-document statements the rules cite. `places` finds them under `root` (one for many verdicts
    resolves each file once)."""
    place = places or Places(root)
    statements = doc.by_id()
    out: dict[Place, str] = {}

    def cite(sids: Iterable[str]) -> None:
        for sid in sids:
            if sid in statements:
                out.setdefault(place(statements[sid].loc), f"statement {sid}")

    by_id = {rule.id: rule for rule in rules.rules}
    for item in r.core:
        out.setdefault(place(item.location), f"{item.kind} {item.label}")
        cite(sid for sid, _ in item.statements)
    for rule_id in r.rules_involved:
        if rule_id in by_id:
            out.setdefault(place(by_id[rule_id].loc), f"rule {rule_id}")
            cite(by_id[rule_id].cites)
    return tuple(out.items())


def _input_problem(root: Path, case: str, rules: RuleBase, message: str) -> Problem:
    """A case that cannot be read, at the place of its first error (read again here, where it is cheap)."""
    why = irregular(root / case)
    if why:
        return Problem("input", f"the case file is {why}", Place(case, 1), case=case)
    try:
        load_case(root / case, rules, display_path(root / case))
    except InputError as err:
        if err.location is not None:
            return Problem("input", err.message, Place.of(err.location, root), case=case)
    return Problem("input", message, Place(case, 1), case=case)


def _question_problems(outcome: QuestionOutcome) -> list[Problem]:
    r: QuestionResult = outcome.result
    problems = []
    if r.verdict is Verdict.UNKNOWN:
        problems.append(Problem("unknown", f"the solver gave up: {r.reason or 'no reason given'}", outcome.place,
                                outcome.related, outcome.case, outcome.question))
    elif r.expected is not None and not r.ok:
        problems.append(Problem("regressions", f"expected {r.expected_answer}, got {r.answer}", outcome.place, outcome.related,
                                outcome.case, outcome.question))
    return problems


def _replaced(finding: Finding, previous: list[AcceptedFinding]) -> list[AcceptedFinding]:
    """The accepted findings a new finding replaces: those of its case, question and verdict."""
    return [a for a in previous if (a.finding.case, a.finding.question, a.finding.verdict)
            == (finding.case, finding.question, finding.verdict)]


def _finding_problem(finding: Finding, place: Place | None, previous: list[AcceptedFinding],
                     related: tuple[tuple[Place, str], ...], in_scope: bool) -> Problem:
    check = "consistency" if finding.verdict == Verdict.CONTRADICTION.value else "findings"
    where = "in scenarios of this scope" if in_scope else "in this case"
    what = (f"the rules contradict each other {where}" if finding.verdict == Verdict.CONTRADICTION.value
            else f"the rules leave {finding.question} open {where}" if in_scope
            else "the rules leave this open")
    was = _replaced(finding, previous)
    if was:
        message = (f"new {finding.verdict} finding {finding.fingerprint} ({what}; rules {', '.join(finding.rules)}), "
                   f"which replaces accepted finding {was[0].finding.fingerprint}: the rules involved changed")
    else:
        message = (f"new {finding.verdict} finding {finding.fingerprint} ({what}; rules {', '.join(finding.rules)}): "
                   f"rule on it, or accept it in {FINDINGS_FILE} with `regcheck gate --accept-findings`")
    return Problem(check, message, place, related, case=finding.case, question=finding.question)


def run_gate(root: Path, options: GateOptions, checker: CaseChecker | None = None,
             progress: Progress | None = None) -> GateReport:
    """Run every check of the gate on the rules repository at `root`; `progress` is told what is being
    checked (cases, each scope) and how far it got."""
    rules = cached_rule_base(root / "encodings", load_rule_base)
    doc = load_rules_document(root / "rules")
    counts, problems = check_traceability(root, doc, rules)
    locked, lock_problems = check_lock(root, doc, rules)
    problems += lock_problems
    problems += check_cards(root, (lambda done, total: progress("card texts", done, total)) if progress else None,
                            options.jobs)
    baseline_state = file_state(root / FINDINGS_FILE)  # before it is read, so that any later edit shows
    baseline = read_baseline(root / FINDINGS_FILE, root)
    survivors = read_survivors(root / SURVIVORS_FILE, root, rules)

    cache = result_cache(root) if options.cache and checker is None else None
    checked: list[tuple[str, str]] = []
    files = case_files(root)
    deleted = _kept_deletions(rules, files, options, cache) if options.mutate and files else None
    if options.mutate and files and deleted is None and checker is None and options.memory_mb is None:
        # the cases are answered, and the deletions checked on the groundings made for the answers
        answered, deleted = _answered_with_deletions(rules, doc, files, options, cache, checked, progress)
        results = _results(root, files, answered)
    else:
        check = checker or check_folder(options, cache, checked)
        results = _results(root, files, _counted(check(rules, lambda: doc, files), len(files), progress))
    rechecked = tuple(checked) if cache is not None else None
    places: dict[tuple[str, str | None], Place] = {}
    for f in files:
        case = _relative(f, root)
        places[(case, None)] = Place(case, 1)
        places.update({(case, q): p for q, p in _question_places(f, case, root, cache).items()})

    found: dict[str, tuple[Finding, str]] = {}
    for case, result in results.items():
        if isinstance(result, str):
            problems.append(_input_problem(root, case, rules, result))
            continue
        for finding in findings_of(case, result).values():
            found.setdefault(finding.fingerprint, (finding, default_note(result)))
    scopes = scope_files(root)
    statement_ids = ",".join(sorted(s.id for s in doc.statements))
    searched = _explore(root, rules, options, scopes, progress, cache, statement_ids)
    from_scopes, unreadable_scopes = searched.found, searched.unreadable
    problems += searched.problems
    for fingerprint, entry in from_scopes.items():
        found.setdefault(fingerprint, entry)

    if options.accept_findings:
        # a finding keeps its note; one that replaces an accepted finding (same place, rules involved changed)
        # takes over that one's note
        gone = [a for a in baseline if a.finding.fingerprint not in found]
        notes = {a.finding.fingerprint: a.note for a in baseline}
        write_baseline(root / FINDINGS_FILE,
                       [(f, notes.get(fp) or next((a.note for a in _replaced(f, gone)), note))
                        for fp, (f, note) in found.items()],
                       baseline_state)
        baseline = read_baseline(root / FINDINGS_FILE, root)
    accepted = {a.finding.fingerprint: a for a in baseline}

    outcomes: list[QuestionOutcome] = []
    found_in = Places(root)
    for case, result in results.items():
        if isinstance(result, str):
            continue
        case_findings = findings_of(case, result)
        for r in result.results:
            of_question = case_findings.get(r.question)
            place = places.get((case, r.question), places[(case, None)])
            outcome = QuestionOutcome(case, r.question, place, r, of_question,
                                      accepted.get(of_question.fingerprint) if of_question else None,
                                      evidence_places(r, rules, doc, root, found_in))
            outcomes.append(outcome)
            problems += _question_problems(outcome)
    unreadable = {case for case, result in results.items() if isinstance(result, str)} | unreadable_scopes
    first_outcome = {o.finding.fingerprint: o for o in reversed(outcomes) if o.finding}
    for fingerprint, (finding, _) in sorted(found.items(), key=lambda kv: _finding_order(kv[1][0])):
        if fingerprint not in accepted:
            shown = first_outcome.get(fingerprint)
            problems.append(_finding_problem(finding, shown.place if shown else Place(finding.case, 1), baseline,
                                             shown.related if shown else (), fingerprint in from_scopes))
    for a in baseline:
        if a.finding.fingerprint not in found and a.finding.case not in unreadable:
            problems.append(Problem(
                "baseline", f"accepted {a.finding.verdict} finding {a.finding.fingerprint} ({a.finding.name}) is no "
                            f"longer found: resolved? remove it from {FINDINGS_FILE}", a.place,
                case=a.finding.case, question=a.finding.question))

    deletions: tuple[int, int] | None = None
    if options.mutate and files and not any(isinstance(r, str) for r in results.values()):
        deletions, found_problems = _deletions(root, rules, files, survivors, options, progress, cache, deleted)
        problems += found_problems

    changes: tuple[Change, ...] = ()
    base_checks: BaseChecks | None = None
    if options.base is not None:
        compared = list(options.scopes) or scopes
        now_searched = (_explore(root, rules, options, compared, progress, cache, statement_ids) if options.scopes
                        else searched)
        since, base_checks = _since_base(root, options, rules, checker, results, places, compared, now_searched,
                                         progress)
        changes = tuple(since)
    problems.sort(key=_problem_order)
    return GateReport(counts["encoded"] + counts["waived"] + counts["missing"], counts["encoded"], counts["waived"],
                      locked, len(files), tuple(outcomes), tuple(problems), tuple(baseline), options.base, changes,
                      LOCK_FILE, FINDINGS_FILE, len(scopes), deletions,
                      tuple((a.rule, a.reason, a.place) for a in survivors), SURVIVORS_FILE, rechecked, base_checks)


def _deletion_mutants(rules: RuleBase) -> list[Mutation]:
    """Every rule's deletion, but an interpretation's."""
    from ..mutation import mutations

    return [m for m in mutations(rules, kinds=("delete",)) if not rules.rule(m.mutant.target).interpretation]


def _deletions_content(options: GateOptions, files: list[Path]) -> bytes:
    """What the deletions' fates are kept by in the result cache: the solver's limits and every case file's name
    and text."""
    content = f"{options.timeout_ms}:{options.memory_mb}\0".encode()
    for f in files:
        content += display_path(f).encode() + b"\0" + f.read_bytes() + b"\0"
    return content


def _kept_deletions(rules: RuleBase, files: list[Path], options: GateOptions, cache: ResultCache | None
                    ) -> tuple[MutantResult, ...] | None:
    """The deletions' fates the result cache holds for these very cases in this state of the repository, or None."""
    from ..mutation import MutantResult

    if cache is None:
        return None
    results = cache.recall("deletions", _deletions_content(options, files), tuple[MutantResult, ...])
    if results is None or [r.mutant_id for r in results] != [m.mutant.id for m in _deletion_mutants(rules)]:
        return None
    return results


def _keep_deletions(files: list[Path], options: GateOptions, cache: ResultCache | None,
                    results: tuple[MutantResult, ...]) -> None:
    from ..mutation import MutantStatus

    if cache is not None and not any(r.status is MutantStatus.UNKNOWN for r in results):
        cache.keep("deletions", _deletions_content(options, files), results)


@dataclass(frozen=True)
class _AnsweringCase:
    """The gate's answer of the case file at a place in the table, as `check_folder` gives it, with the case as
    read and its rules and facts as grounded (see `mutation.answer_and_mutate`)."""

    task: CaseTask
    files: list[Path]

    def __call__(self, at: int) -> tuple[tuple[CaseResult, str] | CaseInputError, Scenario | None, GroundedBase | None]:
        path = self.files[at]
        try:
            answered = self.task.answer_grounded(path)
        except RegcheckError as err:
            return input_error_of(path, err), None, None
        outcome = answered.result, answered.why
        if answered.scenario is not None:
            return outcome, answered.scenario, answered.grounded
        try:  # the answer was kept in the result cache: the mutants' run reads the case itself
            return outcome, load_case(path, self.task.rules, display_path(path)), None
        except RegcheckError:
            return outcome, None, None


def _answered_with_deletions(rules: RuleBase, doc: RulesDocument, files: list[Path], options: GateOptions,
                             cache: ResultCache | None, checked: list[tuple[str, str]], progress: Progress | None
                             ) -> tuple[list[CaseResult | str], tuple[MutantResult, ...] | None]:
    """Each case file's result (or the message of its input error), as `check_folder` checks them, and every
    deletion's fate against the cases (None when some case cannot be read), each case grounded once for both;
    `checked` gains each case that was checked, with why. With `cache`, a case's answer and the fates are kept
    in the result cache."""
    from ..mutation import answer_and_mutate

    task = CaseTask(rules, lambda: doc, options.timeout_ms, options.memory_mb, False, resolve=False, cache=cache)
    told = (lambda what, done, total: progress(what, done, total)) if progress else None
    outcomes, fates = answer_and_mutate(rules, _deletion_mutants(rules), len(files), _AnsweringCase(task, files),
                                        options.timeout_ms, options.memory_mb, options.jobs, told)
    results: list[CaseResult | str] = []
    for path, outcome in zip(files, outcomes):
        if isinstance(outcome, CaseInputError):
            results.append(str(outcome))
            continue
        if outcome[1]:
            checked.append((display_path(path), outcome[1]))
        results.append(outcome[0])
    deleted = tuple(fates) if fates is not None else None
    if deleted is not None:
        _keep_deletions(files, options, cache, deleted)
    return results, deleted


def _deletions(root: Path, rules: RuleBase, files: list[Path], survivors: list[AcceptedSurvivor],
               options: GateOptions, progress: Progress | None, cache: ResultCache | None = None,
               results: tuple[MutantResult, ...] | None = None) -> tuple[tuple[int, int], list[Problem]]:
    """Every rule (not an interpretation) deleted in turn and checked against the cases: how many deletions
    some case notices and how many none does, and the problems: a surviving deletion not accepted, an
    accepted survivor whose deletion is now noticed, a deletion the solver could not decide. `results`: the
    deletions' fates when found already (kept in the result cache, or found on the cases' groundings); else
    they are sought here, and kept in `cache`."""
    from ..mutation import MutantStatus, run_mutations

    found = _deletion_mutants(rules)
    if results is None:
        scenarios = [load_case(f, rules, display_path(f)) for f in files]
        step = (lambda done, total: progress("mutation", done, total)) if progress else None
        results = tuple(run_mutations(rules, scenarios, found, options.timeout_ms, options.memory_mb, options.jobs,
                                      step))
        _keep_deletions(files, options, cache, results)
    accepted = {a.rule: a for a in survivors}
    problems: list[Problem] = []
    for m, r in zip(found, results):
        rule = rules.rule(m.mutant.target)
        place = Place.of(rule.loc, root)
        if r.status is MutantStatus.SURVIVED and rule.id not in accepted:
            reach = f"run on {r.cases_run} cases that ground it" if r.cases_run else "no case grounds it"
            problems.append(Problem("mutation", f"rule {rule.id} can be deleted without any case noticing ({reach}): "
                                                f"add a case whose answer depends on it, or list it with the reason "
                                                f"in {SURVIVORS_FILE}", place))
        elif r.status is MutantStatus.KILLED and rule.id in accepted:
            problems.append(Problem("mutation", f"accepted survivor {rule.id} is no longer one: deleting it changes "
                                                f"{r.case}::{r.question} (expected {r.expected}, got {r.got}); remove "
                                                f"it from {SURVIVORS_FILE}", accepted[rule.id].place))
        elif r.status is MutantStatus.UNKNOWN:
            problems.append(Problem("unknown", f"whether deleting rule {rule.id} changes any case's answer is "
                                               f"unknown: {r.reason}", place))
    killed = sum(1 for r in results if r.status is MutantStatus.KILLED)
    survived = sum(1 for r in results if r.status is MutantStatus.SURVIVED)
    return (killed, survived), problems


def _counted(outcomes: Iterable[CaseResult | str], total: int, progress: Progress | None, what: str = "cases"
             ) -> Iterator[CaseResult | str]:
    for done, outcome in enumerate(outcomes, 1):
        if progress is not None:
            progress(what, done, total)
        yield outcome


def _finding_order(f: Finding) -> tuple[object, ...]:
    return (f.case, f.question or "", f.verdict, f.rules)


def _problem_order(p: Problem) -> tuple[object, ...]:
    return (list(CHECKS).index(p.check), p.place or Place("", 0), p.question or "", p.message)


@dataclass(frozen=True)
class _GroundsTask:
    """A case file's grounds over one rule base (see `reach`), kept in the result cache by the case's name and
    text; the message of its error when it cannot be read or grounded."""

    rules: RuleBase
    cache: ResultCache | None
    names: dict[Path, str]

    def content(self, path: Path) -> bytes | None:
        """What the case's grounds are kept by: its name and text (None when there is no cache)."""
        if self.cache is None or irregular(path):
            return None
        with contextlib.suppress(OSError):
            return self.names[path].encode() + b"\0" + path.read_bytes()
        return None

    def kept(self, path: Path) -> Grounds | None:
        """The case's grounds, when the result cache holds them."""
        content = self.content(path)
        return self.cache.recall("grounds", content, Grounds) if content is not None and self.cache else None

    def __call__(self, path: Path) -> Grounds | str:
        content = self.content(path)
        if content is not None and self.cache is not None:
            kept = self.cache.recall("grounds", content, Grounds)
            if kept is not None:
                return kept
        try:
            grounds = case_grounds(load_case(path, self.rules, self.names[path]), self.rules)
        except RegcheckError as err:
            return str(err)
        if content is not None and self.cache is not None:
            self.cache.keep("grounds", content, grounds)
        return grounds


def _case_grounds(files: list[Path], names: dict[Path, str], rules: RuleBase, cache: ResultCache | None,
                  options: GateOptions, progress: Progress | None, what: str) -> dict[str, Grounds | str]:
    """The grounds of each case file over `rules` (by its name), in worker processes."""
    task = _GroundsTask(rules, cache, names)
    kept = {path: grounds for path in files if (grounds := task.kept(path)) is not None}
    todo = [path for path in files if path not in kept]
    worked_out = iter(run_in_processes(task, todo, options.jobs))
    out: dict[str, Grounds | str] = {}
    for done, path in enumerate(files, 1):
        out[names[path]] = kept[path] if path in kept else next(worked_out)
        if progress is not None:
            progress(what, done, len(files))
    return out


def _scope_grounds(path: Path, name: str, rules: RuleBase, cache: ResultCache | None) -> Grounds | str:
    """A scope file's grounds over `rules` (see `reach`), kept in the result cache by its name and text; the
    message of its error when it cannot be read."""
    limit = ExploreOptions().max_scenarios
    content = None
    if cache is not None and not irregular(path):
        with contextlib.suppress(OSError):
            content = f"{name}\0{limit}\0".encode() + path.read_bytes()
            kept = cache.recall("scope grounds", content, Grounds)
            if kept is not None:
                return kept
    try:
        grounds = scope_grounds(load_scope(path, rules, name), rules, limit)
    except RegcheckError as err:
        return str(err)
    if content is not None and cache is not None:
        cache.keep("scope grounds", content, grounds)
    return grounds


def _reason(base: Grounds | str, now: Grounds | str, changes: EncodingChanges, revision: str) -> str:
    if isinstance(now, str):
        return f"it cannot be read or grounded now: {now}"
    if isinstance(base, str):
        return f"it cannot be read or grounded at {revision}: {base}"
    return why_reached(base, now, changes)


def _since_base(root: Path, options: GateOptions, rules: RuleBase, check: CaseChecker | None,
                now: dict[str, CaseResult | str], places: dict[tuple[str, str | None], Place],
                scopes: list[Path], searched: _Searched, progress: Progress | None) -> tuple[list[Change], BaseChecks]:
    """The answers and the scopes' findings that changed since `options.base`, and what was checked there again.

    A case or scope whose grounding holds no instance of a rule the encodings' changes reach and whose questions
    use no changed definition (at the base or now; see `reach`), and whose text is the same at both, keeps its
    answers of now: only the others are checked at the base. With `check` (a case checker of the caller's own),
    every case at the base is checked with it. The scope files are read as they are now."""
    revision = options.base
    assert revision is not None
    with tempfile.TemporaryDirectory(prefix="regcheck-base-") as folder:
        base = extract_revision(root, revision, Path(folder))
        try:
            base_rules = load_rule_base(base / "encodings")
            base_doc = load_rules_document(base / "rules")
        except InputError as err:
            raise InputError(f"--base {revision}: {err}") from None
        changes = encoding_changes(base_rules, rules)
        cache_now = result_cache(root) if options.cache else None
        cache_base = result_cache(base, root) if options.cache else None

        files = case_files(base)
        names = {f: _relative(f, base) for f in files}
        why: dict[str, str] = {}
        if check is not None:
            why = {names[f]: "every case is checked with the gate's own case checker" for f in files}
        else:
            same: list[Path] = []
            for f in files:
                name = names[f]
                answered = now.get(name)
                if answered is None:
                    why[name] = "it is not in the working tree"
                elif isinstance(answered, str):
                    why[name] = "it cannot be read now"
                elif any(r.verdict is Verdict.UNKNOWN for r in answered.results):
                    why[name] = "the solver gave up on it now"
                elif _text(f) is None or _text(f) != _text(root / name):
                    why[name] = "its text changed"
                else:
                    same.append(f)
            now_names = {root / names[f]: names[f] for f in same}
            grounds_base = _case_grounds(same, names, base_rules, cache_base, options, progress,
                                         f"groundings at {revision}")
            grounds_now = _case_grounds(list(now_names), now_names, rules, cache_now, options, progress,
                                        "groundings now")
            for f in same:
                reason = _reason(grounds_base[names[f]], grounds_now[names[f]], changes, revision)
                if reason:
                    why[names[f]] = reason
        todo = [f for f in files if names[f] in why]
        base_check = check or check_folder(options, cache_base, shown=lambda path: f"{revision}:{_relative(path, base)}")
        checked = _results(base, todo, _counted(base_check(base_rules, functools.cache(lambda: base_doc), todo),
                                                len(todo), progress, f"cases at {revision}"))
        before = {name: checked[name] if name in checked else now[name] for name in sorted(names.values())}

        scope_names = {path: _relative(path, root) if _inside(path, root) else display_path(path) for path in scopes}
        scope_why: dict[Path, str] = {}
        for done, path in enumerate(scopes, 1):
            if progress is not None:
                progress("scope groundings", done, len(scopes))
            name = scope_names[path]
            if name in searched.unreadable:
                scope_why[path] = "it cannot be read now"
            elif name in searched.cut_short:
                scope_why[path] = "its search now was cut short"
            else:
                reason = _reason(_scope_grounds(path, name, base_rules, cache_base),
                                 _scope_grounds(path, name, rules, cache_now), changes, revision)
                if reason:
                    scope_why[path] = reason
        statements = ",".join(sorted(s.id for s in base_doc.statements))
        again = _explore(root, base_rules, options, [p for p in scopes if p in scope_why], progress, cache_base,
                         statements, f" at {revision}")
    searched_again = {scope_names[path] for path in scope_why}
    compared = {fp: entry for fp, entry in searched.found.items() if entry[0].case in scope_names.values()}
    found_before = {**{fp: entry for fp, entry in compared.items() if entry[0].case not in searched_again},
                    **again.found}

    def shown(f: Finding) -> str:
        return f"{f.verdict} ({', '.join(f.rules)})"

    scope_changes = [Change(f.case, f.question, "no finding", shown(f), Place(f.case, 1))
                     for fp, (f, _) in compared.items() if fp not in found_before]
    scope_changes += [Change(f.case, f.question, shown(f), "no finding", Place(f.case, 1))
                      for fp, (f, _) in found_before.items() if fp not in compared]
    scope_changes.sort(key=lambda c: (c.case, c.question or "", c.before or "", c.after or ""))
    report = BaseChecks(changes.changed, len(files), len(scopes), tuple(sorted(why.items())),
                        tuple(sorted((scope_names[p], w) for p, w in scope_why.items())))
    return compare_answers(answers(before), answers(now), places) + scope_changes, report


def _text(path: Path) -> bytes | None:
    """A regular file's bytes; None for one that is not regular or cannot be read."""
    if irregular(path):
        return None
    try:
        return path.read_bytes()
    except OSError:
        return None


def check_report(root: Path, rules: RuleBase, doc: RulesDocument, results: Iterable[CaseResult],
                 unreadable: Iterable[tuple[str, Location | None, str]]) -> GateReport:
    """What `regcheck check` found, as a report its JUnit and SARIF outputs read: a problem for each question
    that is not ok (an expectation not met, a contradiction, an unknown) and each case file that could not be
    read (its name, where, and why). Paths are made relative to `root` when they lie inside it."""
    outcomes: list[QuestionOutcome] = []
    problems: list[Problem] = []
    cases = 0
    for result in results:
        cases += 1
        case = Place.of(result.case, root).path
        places = question_places(Path(result.case), root)
        for r in result.results:
            outcome = QuestionOutcome(case, r.question, places.get(r.question, Place(case, 1)), r, None, None,
                                      evidence_places(r, rules, doc, root))
            outcomes.append(outcome)
            found = _question_problems(outcome)
            if not found and not r.ok:
                found = [Problem("consistency", f"unexpected {r.answer}", outcome.place, outcome.related, case,
                                 r.question)]
            problems += found
    for name, location, message in unreadable:
        cases += 1
        place = Place.of(location, root) if location is not None else Place(Place.of(name, root).path, 1)
        problems.append(Problem("input", message, place, case=place.path))
    problems.sort(key=_problem_order)
    return GateReport(0, 0, 0, 0, cases, tuple(outcomes), tuple(problems), ())
