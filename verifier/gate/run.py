"""The gate: traceability, the lock, every case against its expectations and the accepted findings."""

from __future__ import annotations

__all__ = ["GateOptions", "run_gate", "renew_lock", "question_places", "check_folder", "check_report"]

import contextlib
import functools
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..errors import CaseError, InputError, Location, RegcheckError
from ..explore import ExploreOptions, ExploreResult, explore_scope, load_scope
from ..files import display_path, file_state, irregular
from ..language.cache import cached_rule_base
from ..language.encoding import RuleBase, load_rule_base
from ..resultcache import ResultCache, result_cache
from ..rulesdoc import RulesDocument, load_rules_document
from ..runner import CaseInputError, CaseTask, input_error_of, run_cases
from ..scenario.loader import load_case
from ..verdicts import CaseResult, QuestionResult, Verdict
from ..yamlsource import YMap, load_yaml
from .cardlock import check_cards, write_cards_lock
from .findings import FINDINGS_FILE, default_note, findings_of, read_baseline, write_baseline
from .lock import LOCK_FILE, check_lock, locked_statements, read_lock, write_lock
from .model import CHECKS, AcceptedFinding, Change, Finding, GateReport, Place, Places, Problem, QuestionOutcome
from .revision import answers, compare_answers, extract_revision
from .survivors import SURVIVORS_FILE, AcceptedSurvivor, read_survivors
from .traceability import check_traceability

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


def _explore(root: Path, rules: RuleBase, options: GateOptions, files: Iterable[Path],
             progress: Progress | None = None, cache: ResultCache | None = None, statements: str = ""
             ) -> tuple[dict[str, tuple[Finding, str]], list[Problem], set[str]]:
    """Each scope's findings (keyed by fingerprint, with a first note), the problems of scopes that could
    not be read or searched in full, and the scopes that could not be read. With `cache`, a scope searched in
    full before, in this state of the repository, is not searched again."""
    found: dict[str, tuple[Finding, str]] = {}
    problems: list[Problem] = []
    unreadable: set[str] = set()
    for path in files:
        name = _relative(path, root) if _inside(path, root) else display_path(path)
        try:
            scope = load_scope(path, rules, name)
        except InputError as err:
            unreadable.add(name)
            place = Place.of(err.location, root) if err.location else Place(name, 1)
            problems.append(Problem("input", err.message, place, case=name))
            continue
        step = (lambda done, total, name=name: progress(f"scope {name}", done, total)) if progress else None
        content = f"{name}\0{options.timeout_ms}:{options.memory_mb}\0{statements}\0".encode() + path.read_bytes()
        result = cache.recall("scope", content, ExploreResult) if cache is not None else None
        if result is None:
            result = explore_scope(scope, rules, ExploreOptions(options.timeout_ms, options.memory_mb, options.jobs),
                                   step)
            if cache is not None and result.complete:
                cache.keep("scope", content, result)
        for why in result.incomplete:
            problems.append(Problem("unknown", f"the search of the scope was cut short: {why}", Place(name, 1),
                                    case=name))
        for f in result.findings:
            finding = Finding(name, f.symbol or None, f.verdict, f.rules)
            witness = "; ".join(f.attempts) or "no attempts"
            note = (f"{f.verdict} of {f.symbol or 'the whole scenario'} in the scope ({f.scenarios} scenarios); "
                    f"smallest witness: {witness}")
            found.setdefault(finding.fingerprint, (finding, note))
    return found, problems, unreadable


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
                 checked: list[tuple[str, str]] | None = None) -> CaseChecker:
    """The usual way to check case files: `regcheck check`'s, with the gate's limits; with `cache`, a case the
    result cache holds is not checked again, and `checked` gains each case that was, with why."""

    def checker(rules: RuleBase, doc: Callable[[], RulesDocument], files: list[Path]) -> Iterator[CaseResult | str]:
        # the gate fails or passes on the verdicts alone: a contradiction's ways out are not worked out
        case_task = CaseTask(rules, doc, options.timeout_ms, options.memory_mb, False, resolve=False, cache=cache)
        task = _Answering(case_task)
        # the cases this very state of the repository answered before are read here, without worker processes
        kept = {path: kept for path in files if (kept := case_task.kept(path)) is not None}
        todo = [path for path in files if path not in kept]
        checked_now = iter(run_cases(task, todo, options.jobs, options.memory_mb))
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

    def __call__(self, path: Path) -> tuple[CaseResult, str] | CaseInputError:
        try:
            result, _, why = self.task.answer(path)
        except RegcheckError as err:
            return input_error_of(path, err)
        return result, why


def _results(root: Path, files: Iterable[Path], outcomes: Iterable[CaseResult | str]) -> dict[str, CaseResult | str]:
    return {_relative(f, root): o for f, o in zip(files, outcomes, strict=True)}


def renew_lock(root: Path) -> tuple[int, list[str]]:
    """Write the lock for the rules as they are, and the cards lock; returns how many statements it holds and what changed."""
    rules = cached_rule_base(root / "encodings", load_rule_base)
    doc = load_rules_document(root / "rules")
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


def _finding_problem(finding: Finding, place: Place | None, previous: list[AcceptedFinding],
                     related: tuple[tuple[Place, str], ...], in_scope: bool) -> Problem:
    check = "consistency" if finding.verdict == Verdict.CONTRADICTION.value else "findings"
    where = "in scenarios of this scope" if in_scope else "in this case"
    what = (f"the rules contradict each other {where}" if finding.verdict == Verdict.CONTRADICTION.value
            else f"the rules leave {finding.question} open {where}" if in_scope
            else "the rules leave this open")
    was = [a for a in previous if (a.finding.case, a.finding.question, a.finding.verdict)
           == (finding.case, finding.question, finding.verdict)]
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
    if progress is not None:
        progress("cards", 0, 1)
    problems += check_cards(root)
    if progress is not None:
        progress("cards", 1, 1)
    baseline_state = file_state(root / FINDINGS_FILE)  # before it is read, so that any later edit shows
    baseline = read_baseline(root / FINDINGS_FILE, root)
    survivors = read_survivors(root / SURVIVORS_FILE, root, rules)

    cache = result_cache(root) if options.cache and checker is None else None
    checked: list[tuple[str, str]] = []
    check = checker or check_folder(options, cache, checked)
    files = case_files(root)
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
    from_scopes, scope_problems, unreadable_scopes = _explore(root, rules, options, scopes, progress, cache,
                                                              statement_ids)
    problems += scope_problems
    for fingerprint, entry in from_scopes.items():
        found.setdefault(fingerprint, entry)

    if options.accept_findings:
        notes = {a.finding.fingerprint: a.note for a in baseline}
        write_baseline(root / FINDINGS_FILE, [(f, notes.get(fp) or note) for fp, (f, note) in found.items()],
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
        deletions, found_problems = _deletions(root, rules, files, survivors, options, progress, cache)
        problems += found_problems

    changes: tuple[Change, ...] = ()
    base_checked: tuple[int, int] | None = None
    if options.base is not None:
        kept_base: list[int] = []
        changes = tuple(_changes_since(root, options.base, check, results, places, progress,
                                       (rules, doc, kept_base) if checker is None else None))
        base_checked = (kept_base[0], kept_base[1]) if kept_base else None
        compared = list(options.scopes) or scopes
        changes += tuple(_scope_changes_since(root, options, compared,
                                              _explore(root, rules, options, compared, None, cache, statement_ids)[0]
                                              if options.scopes else from_scopes, progress, cache is not None))
    problems.sort(key=_problem_order)
    return GateReport(counts["encoded"] + counts["waived"] + counts["missing"], counts["encoded"], counts["waived"],
                      locked, len(files), tuple(outcomes), tuple(problems), tuple(baseline), options.base, changes,
                      LOCK_FILE, FINDINGS_FILE, len(scopes), deletions,
                      tuple((a.rule, a.reason, a.place) for a in survivors), SURVIVORS_FILE, rechecked, base_checked)


def _deletions(root: Path, rules: RuleBase, files: list[Path], survivors: list[AcceptedSurvivor],
               options: GateOptions, progress: Progress | None, cache: ResultCache | None = None
               ) -> tuple[tuple[int, int], list[Problem]]:
    """Every rule (not an interpretation) deleted in turn and checked against the cases: how many deletions
    some case notices and how many none does, and the problems: a surviving deletion not accepted, an
    accepted survivor whose deletion is now noticed, a deletion the solver could not decide. With `cache`,
    the fates found before for these very cases, in this state of the repository, are not sought again."""
    from ..mutation import MutantResult, MutantStatus, mutations, run_mutations

    found = [m for m in mutations(rules, kinds=("delete",)) if not rules.rule(m.mutant.target).interpretation]
    content = f"{options.timeout_ms}:{options.memory_mb}\0".encode()
    for f in files:
        content += display_path(f).encode() + b"\0" + f.read_bytes() + b"\0"
    results = cache.recall("deletions", content, tuple[MutantResult, ...]) if cache is not None else None
    if results is None or [r.mutant_id for r in results] != [m.mutant.id for m in found]:
        scenarios = [load_case(f, rules, display_path(f)) for f in files]
        step = (lambda done, total: progress("mutation", done, total)) if progress else None
        results = tuple(run_mutations(rules, scenarios, found, options.timeout_ms, options.memory_mb, options.jobs,
                                      step))
        if cache is not None and not any(r.status is MutantStatus.UNKNOWN for r in results):
            cache.keep("deletions", content, results)
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


def _changes_since(root: Path, revision: str, check: CaseChecker, now: dict[str, CaseResult | str],
                   places: dict[tuple[str, str | None], Place], progress: Progress | None = None,
                   current: tuple[RuleBase, RulesDocument, list[int]] | None = None) -> list[Change]:
    """The answers that changed since `revision`. With `current` (the rule base and rules document the answers
    `now` were found with, and a list that gains how many base cases were checked and how many kept), a case
    whose text is the same at the base and whose grounding there holds exactly what it holds now keeps its
    answer of now, unchecked."""
    with tempfile.TemporaryDirectory(prefix="regcheck-base-") as folder:
        base = extract_revision(root, revision, Path(folder))
        try:
            rules = load_rule_base(base / "encodings")
            doc = load_rules_document(base / "rules")
        except InputError as err:
            raise InputError(f"--base {revision}: {err}") from None
        files = case_files(base)
        kept: dict[str, CaseResult | str] = {}
        if current is not None:
            for done, f in enumerate(files, 1):
                if progress is not None:
                    progress(f"groundings at {revision}", done, len(files))
                name = _relative(f, base)
                if _same_grounding(f, root / name, now.get(name), rules, doc, current[0], current[1]):
                    kept[name] = now[name]
        todo = [f for f in files if _relative(f, base) not in kept]
        before = {**kept, **_results(base, todo, _counted(check(rules, functools.cache(lambda: doc), todo),
                                                           len(todo), progress, f"cases at {revision}"))}
        if current is not None:
            current[2][:] = [len(todo), len(kept)]
    return compare_answers(answers({name: before[name] for name in sorted(before)}), answers(now), places)


def _same_grounding(base_file: Path, file: Path, answered: CaseResult | str | None, base_rules: RuleBase,
                    base_doc: RulesDocument, rules: RuleBase, doc: RulesDocument) -> bool:
    """Whether the case file has the same text at the base and now, was answered now, and grounds to the same
    problem over both rule bases (so the base would answer it as it is answered now)."""
    from ..resultcache import grounding_key

    if not isinstance(answered, CaseResult) or irregular(file) or irregular(base_file):
        return False
    try:
        if file.read_bytes() != base_file.read_bytes():
            return False
        then = grounding_key(load_case(base_file, base_rules), base_rules, base_doc)
        now = grounding_key(load_case(file, rules), rules, doc)
    except (RegcheckError, OSError):
        return False
    return then is not None and now is not None and then.digest == now.digest


def _scope_changes_since(root: Path, options: GateOptions, scopes: list[Path],
                         now: dict[str, tuple[Finding, str]], progress: Progress | None = None,
                         cached: bool = False) -> list[Change]:
    """Findings over each scope that appear or disappear between the rule base at `options.base` and now.
    The scope files are read as they are now. With `cached`, a scope searched in full before with the base's
    encodings (the same as now's, when only the rules document changed) is not searched again."""
    assert options.base is not None
    with tempfile.TemporaryDirectory(prefix="regcheck-base-") as folder:
        base = extract_revision(root, options.base, Path(folder))
        try:
            rules = load_rule_base(base / "encodings")
            doc = load_rules_document(base / "rules")
        except InputError as err:
            raise InputError(f"--base {options.base}: {err}") from None
        cache = result_cache(base, root) if cached else None
        before, _, _ = _explore(root, rules, options, scopes, progress, cache,
                                ",".join(sorted(s.id for s in doc.statements)))

    def shown(f: Finding) -> str:
        return f"{f.verdict} ({', '.join(f.rules)})"

    changes = [Change(f.case, f.question, "no finding", shown(f), Place(f.case, 1)) for fp, (f, _) in now.items()
               if fp not in before]
    changes += [Change(f.case, f.question, shown(f), "no finding", Place(f.case, 1)) for fp, (f, _) in before.items()
                if fp not in now]
    return sorted(changes, key=lambda c: (c.case, c.question or "", c.before or "", c.after or ""))


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
