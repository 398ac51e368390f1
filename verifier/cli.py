"""The `regcheck` command line."""

from __future__ import annotations

__all__ = ["main", "run", "find_root", "collect_cases"]

import gc
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

import click

from . import api
from .errors import InputError, RegcheckError
from .escaping import escape_text, quoted
from .files import WriteError, display_path, ignore_file_size_signal, write_file
from .report import (
    explanations_json,
    explore_json,
    render_case,
    render_explanations,
    render_explore,
    render_rules,
    render_ruling,
    results_json,
    rule_statuses,
    rules_json,
    ruling_json,
)
from .runner import CaseInputError
from .scenario.loader import DEFAULTS
from .solver.backend import prepare_context
from .solver.engine import DEFAULT_TIMEOUT_MS
from .verdicts import CaseResult, RulingVerdict

EXIT_OK, EXIT_FINDING, EXIT_INPUT = 0, 1, 2


def find_root(start: Path) -> Path | None:
    """The nearest folder at or above `start` holding both `rules/` and `encodings/`."""
    for folder in [start, *start.parents]:
        if (folder / "rules").is_dir() and (folder / "encodings").is_dir():
            return folder
    return None


def collect_cases(paths: tuple[str, ...]) -> list[Path]:
    """Case files named directly, or found recursively (*.yaml, *.yml) in named folders, sorted.

    Every such entry that is not a folder is listed, regular file or not: one that is not (a
    dangling link, a FIFO, a device) is reported as bad input when it is checked, never skipped.
    """
    found: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found += sorted(f for f in path.rglob("*") if f.suffix in (".yaml", ".yml") and not f.is_dir())
        elif path.exists() or path.is_symlink():
            found.append(path)
        else:
            raise click.BadParameter(f"no such file or folder: {p}", param_hint="PATH")
    seen: set[Path] = set()
    unique = []
    for f in found:
        if f.resolve() not in seen:
            seen.add(f.resolve())
            unique.append(f)
    return unique


def _repository(root_opt: str | None) -> Path:
    """The rules repository named by --root, or found from the current folder."""
    root = Path(root_opt) if root_opt else find_root(Path.cwd())
    if root is None or not (root / "encodings").is_dir() or not (root / "rules").is_dir():
        raise click.UsageError(
            "no rules repository found: need folders rules/ and encodings/ in the current folder "
            "or above it (or pass --root)")
    return root


def _fail_input(err: InputError | RegcheckError) -> None:
    click.echo(f"error: {err}", err=True)


_leave_at_once = False


def _exit(code: int) -> None:
    """End the command; in the command-line program, without tearing down the solver's objects one by one."""
    if _leave_at_once:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


root_option = click.option("--root", type=click.Path(file_okay=False, exists=True),
                           help="The rules repository (holding rules/ and encodings/); "
                                "found from the current folder by default.")
format_option = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
                             show_default=True, help="Output for people or for programs.")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="regcheck")
def main() -> None:
    """regcheck: check Redemption card combinations against the encoded rules."""
    # Grounding allocates many small objects that live until the case is done; collecting
    # garbage less often saves a third of the time of a one-case run and keeps memory bounded.
    gc.set_threshold(100_000, 50, 100)
    ignore_file_size_signal()  # a write past `ulimit -f` fails with an error regcheck reports


timeout_option = click.option("--timeout", type=click.FloatRange(0.01, 3600), default=DEFAULT_TIMEOUT_MS / 1000,
                              show_default=True, help="Seconds the solver may spend on one check.")
memory_option = click.option("--memory", type=click.IntRange(16, 1_000_000), default=None,
                             help="Megabytes of memory the solver may use.")
jobs_option = click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
                           help="Cases checked at once (default: one per processor).")


@main.command()
@click.argument("paths", nargs=-1, required=True)
@format_option
@root_option
@timeout_option
@memory_option
@click.option("--show-defaults", is_flag=True, help="List the inputs each case left to a default.")
@jobs_option
def check(paths: tuple[str, ...], fmt: str, root: str | None, timeout: float, memory: int | None,
          show_defaults: bool, jobs: int | None) -> None:
    """Check the case files in PATHS (files or folders, searched recursively)."""
    files = collect_cases(paths)
    if not files:
        raise click.UsageError("no case files (*.yaml) found in the given paths")
    if len(files) == 1:
        prepare_context()  # while the rules are read; no workers are forked for one case
    try:
        repo = api.open_repository(_repository(root))
    except RegcheckError as err:
        _fail_input(err)
        sys.exit(EXIT_INPUT)
    results: list[CaseResult] = []
    errors: list[CaseInputError] = []
    for outcome in api.check(repo, files, int(timeout * 1000), memory, jobs, show_defaults):
        if isinstance(outcome, CaseInputError):
            click.echo(f"error: {outcome}", err=True)
            errors.append(outcome)
            continue
        result, defaults_text = outcome
        results.append(result)
        if fmt == "text":
            click.echo(render_case(result))
            if show_defaults:
                click.echo(defaults_text)
            click.echo()
    if fmt == "json":
        out = results_json(results)
        if errors:  # case files that could not be checked; the output of a run without any is unchanged
            summary = {**out["summary"], "errors": len(errors)}
            out = {"results": out["results"], "errors": [e.json() for e in errors], "summary": summary}
        click.echo(json.dumps(out, indent=2, sort_keys=False))
    else:
        qs = [r for c in results for r in c.results]
        failed = [r for r in qs if not r.ok]
        click.echo(f"{len(results)} cases, {len(qs)} questions: {len(qs) - len(failed)} ok, {len(failed)} not ok"
                   + (f"; {len(errors)} case files could not be checked" if errors else ""))
    if errors:
        _exit(EXIT_INPUT)
    _exit(EXIT_FINDING if any(not r.ok for c in results for r in c.results) else EXIT_OK)


@main.command()
@click.argument("case", type=click.Path(dir_okay=False, exists=True))
@click.option("--question", "-q", default=None, help="Explain only this question (by its name in the case).")
@format_option
@root_option
@timeout_option
@memory_option
def explain(case: str, question: str | None, fmt: str, root: str | None, timeout: float, memory: int | None) -> None:
    """Explain why the rules answer CASE's questions as they do.

    A determined value is shown with a minimal set of rule instances and facts that force it;
    an ambiguous one with its two outcomes and the statements that would have to say more; a
    contradiction with the conflict.
    """
    try:
        scenario, explanations = api.explain(api.open_repository(_repository(root)), Path(case), question,
                                             int(timeout * 1000), memory)
    except RegcheckError as err:
        _fail_input(err)
        sys.exit(EXIT_INPUT)
    if fmt == "json":
        click.echo(json.dumps(explanations_json(scenario.path, explanations), indent=2))
    else:
        click.echo(render_explanations(scenario.path, scenario.title, explanations))
    _exit(EXIT_OK if all(e.result.ok for e in explanations) else EXIT_FINDING)


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, exists=True))
@click.option("--cases", "case_paths", multiple=True,
              help="Case files or folders to measure a general rule's impact on (default: the repository's cases/).")
@format_option
@root_option
@timeout_option
@memory_option
@jobs_option
@click.option("--scope", type=click.Path(dir_okay=False, exists=True), default=None,
              help="Also check a ruling's rules on every scenario of this scope file.")
def ruling(files: tuple[str, ...], case_paths: tuple[str, ...], fmt: str, root: str | None, timeout: float,
           memory: int | None, jobs: int | None, scope: str | None) -> None:
    """Check proposed rulings (FILES) against the rule base.

    A ruling is `entailed` (the rules already imply it), `contradicts` them (with the minimal
    conflicting set), or `narrows` what they allow (with the questions whose verdict changes).
    A ruling that proposes general rules is also checked on every case (and, with --scope, on every
    scenario of a scope), to show its impact.
    Exits 1 when a ruling contradicts the rules or a check was left unknown.
    """
    repository = _repository(root)
    cases_given = case_paths or ((os.path.relpath(repository / "cases"),) if (repository / "cases").is_dir() else ())
    case_files = collect_cases(cases_given)
    try:
        results, errors = api.ruling(api.open_repository(repository), [Path(f) for f in files], case_files,
                                     int(timeout * 1000), memory, jobs, Path(scope) if scope else None)
    except RegcheckError as err:
        _fail_input(err)
        sys.exit(EXIT_INPUT)
    for message in errors:
        click.echo(f"error: {message}", err=True)
    bad_input = bool(errors)
    if fmt == "json":
        click.echo(json.dumps({"rulings": [ruling_json(r) for r in results]}, indent=2))
    else:
        click.echo("\n\n".join(render_ruling(r) for r in results))
    if bad_input:
        sys.exit(EXIT_INPUT)
    failed = any(r.verdict in (RulingVerdict.CONTRADICTS, RulingVerdict.UNKNOWN) for r in results)
    _exit(EXIT_FINDING if failed else EXIT_OK)


def _collect_scopes(paths: tuple[str, ...]) -> list[Path]:
    found = collect_cases(paths)
    if not found:
        raise click.UsageError("no scope files (*.yaml) found in the given paths")
    return found


def _progress_printer() -> Callable[[str, int, int], None]:
    """Progress of a long search on standard error: one updating line on a terminal, a line per tenth elsewhere."""
    tty = sys.stderr.isatty()
    shown: dict[str, int] = {}

    def show(scope: str, done: int, total: int) -> None:
        if tty:
            click.echo(f"\r{escape_text(scope)}: {done}/{total} scenarios", err=True, nl=done == total)
        elif done == total or done * 10 // max(total, 1) > shown.get(scope, -1):
            shown[scope] = done * 10 // max(total, 1)
            click.echo(f"{escape_text(scope)}: {done}/{total} scenarios", err=True)
    return show


@main.command()
@click.argument("paths", nargs=-1, required=True)
@format_option
@root_option
@timeout_option
@memory_option
@jobs_option
@click.option("--write-cases", "write_cases", type=click.Path(file_okay=False), default=None,
              help="Write each new finding's smallest witness as a case file in this folder.")
@click.option("--max-scenarios", type=click.IntRange(1, 10_000_000), default=api.DEFAULT_MAX_SCENARIOS,
              show_default=True, help="Check at most this many scenarios of a scope (a larger scope is reported cut short).")
@click.option("--brute-force", is_flag=True,
              help="Answer every scenario in full instead of screening it first (the reference path; slow).")
def explore(paths: tuple[str, ...], fmt: str, root: str | None, timeout: float, memory: int | None, jobs: int | None,
            write_cases: str | None, max_scenarios: int, brute_force: bool) -> None:
    """Search every scenario of the scope files in PATHS for contradictions and ambiguities.

    Each finding is reported once per cause (its verdict, the symbol of its question and the rules
    involved) with the smallest scenario that shows it. Findings listed in accepted-findings.yaml are
    shown apart. Exits 1 when a finding is new or a search was cut short by a limit.
    """
    scopes = _collect_scopes(paths)
    options = api.ExploreOptions(int(timeout * 1000), memory, jobs, max_scenarios, brute_force)
    try:
        repo = api.open_repository(_repository(root))
        report = api.explore(repo, scopes, options, _progress_printer())
        if write_cases:
            for path in _write_witnesses(Path(write_cases), report):
                click.echo(f"wrote {display_path(path)}", err=True)
    except (RegcheckError, WriteError) as err:
        _fail_input(err)
        sys.exit(EXIT_INPUT)
    click.echo(json.dumps(explore_json(report), indent=2) if fmt == "json" else render_explore(report))
    _exit(EXIT_OK if report.passed else EXIT_FINDING)


def _write_witnesses(folder: Path, report: api.ExploreReport) -> list[Path]:
    """Each new finding's witness as a case file named after its scope, verdict and symbol."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for s in report.scopes:
        stem = Path(s.result.scope).stem
        for number, f in enumerate(s.new, 1):
            path = folder / f"{stem}-{f.verdict}-{f.symbol or 'scenario'}-{number}.yaml".replace("_", "-")
            write_file(path, f.case)
            written.append(path)
    return written


@main.command()
@format_option
@root_option
def rules(fmt: str, root: str | None) -> None:
    """List every rules-document statement with its encoding status."""
    try:
        repo = api.open_repository(_repository(root))
        base, doc = repo.rules, repo.document()
    except RegcheckError as err:
        _fail_input(err)
        sys.exit(EXIT_INPUT)
    statuses = rule_statuses(doc, base)
    known = {s.id for s in doc.statements}
    unknown = sorted({(sid, r.id, str(r.loc)) for r in base.rules for sid in r.cites if sid not in known})
    if fmt == "json":
        out = rules_json(statuses)
        out["unknown_citations"] = [{"statement": s, "rule": r, "location": loc} for s, r, loc in unknown]
        click.echo(json.dumps(out, indent=2))
    else:
        click.echo(render_rules(statuses))
        for sid, rid, loc in unknown:
            click.echo(f"{loc}: rule {rid} cites {sid}, which is not in the rules document")
    if unknown or any(s.status == "missing" for s in statuses):
        sys.exit(EXIT_FINDING)


@main.command()
@click.argument("names", nargs=-1)
@click.option("--coverage", "show_coverage", is_flag=True,
              help="Count, per category, the printed texts that are modelled, override, unsupported or not read.")
@format_option
def cards(names: tuple[str, ...], show_coverage: bool, fmt: str) -> None:
    """Show what regcheck reads from real cards' printed text, or the coverage of the card list."""
    from .scenario.cardview import card_json, coverage_json, lookup, render_card, render_coverage

    if show_coverage == bool(names):
        raise click.UsageError("give card names, or --coverage")
    if show_coverage:
        click.echo(json.dumps(coverage_json(), indent=2) if fmt == "json" else render_coverage())
        return
    readings = []
    for name in names:
        found = lookup(name)
        if isinstance(found, list):
            hint = f"; did you mean {', '.join(quoted(f) for f in found)}?" if found else ""
            click.echo(f"error: no card named {quoted(name)} in the card list{hint}", err=True)
            sys.exit(EXIT_INPUT)
        readings.append(found)
    if fmt == "json":
        click.echo(json.dumps({"cards": [card_json(r) for r in readings]}, indent=2))
    else:
        click.echo("\n\n".join(render_card(r) for r in readings))


@main.command()
def defaults() -> None:
    """Show the defaults the case loader applies to what a case leaves unsaid."""
    for key, value in DEFAULTS.items():
        click.echo(f"{key}: {value}")


@main.command()
@click.option("--write", is_flag=True,
              help="Write the reference to docs/case-format.md and the JSON Schemas to schemas/ in the repository.")
@root_option
def docs(write: bool, root: str | None) -> None:
    """Show the reference of the case language: every field of case, scope and ruling files, the defaults
    and the vocabulary, made from regcheck's own code."""
    from .caseformat import REFERENCE_FILE, SCHEMA_FILES, reference_markdown, schema_text

    if not write:
        click.echo(reference_markdown(), nl=False)
        return
    repository = _repository(root)
    outputs = {REFERENCE_FILE: reference_markdown(), **{f: schema_text(k) for k, f in SCHEMA_FILES.items()}}
    try:
        for name, text in outputs.items():
            (repository / name).parent.mkdir(parents=True, exist_ok=True)
            write_file(repository / name, text)
            click.echo(f"wrote {name}", err=True)
    except OSError as err:  # the folder could not be made
        click.echo(f"error: {err}", err=True)
        sys.exit(EXIT_INPUT)
    except WriteError as err:
        _fail_input(err)
        sys.exit(EXIT_INPUT)


@main.command()
@root_option
@click.option("--base", metavar="GITREV", default=None,
              help="Also check every case at this git revision and list each answer that changed since.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "junit", "sarif"]), default="text",
              show_default=True, help="The report on standard output.")
@click.option("--junit-file", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Also write the report as JUnit XML to this file.")
@click.option("--sarif-file", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Also write the report as SARIF 2.1.0 to this file.")
@timeout_option
@memory_option
@jobs_option
@click.option("--renew-lock", is_flag=True,
              help="Record the current text of every cited statement in rules.lock (after review), and stop.")
@click.option("--accept-findings", is_flag=True,
              help="Rewrite accepted-findings.yaml with every finding found now (keeping the notes), then check.")
@click.option("--scope", "scopes", multiple=True, type=click.Path(dir_okay=False, exists=True),
              help="With --base: list the findings over this scope file that appear or disappear since the base "
                   "(repeatable; default: the repository's scopes/).")
def gate(root: str | None, base: str | None, fmt: str, junit_file: str | None, sarif_file: str | None,
         timeout: float, memory: int | None, jobs: int | None, renew_lock: bool, accept_findings: bool,
         scopes: tuple[str, ...]) -> None:
    """Check the rules repository for CI: traceability, the lock, every case, every scope's search, accepted findings."""
    from .gate import GateOptions, gate_json, gate_junit, gate_sarif, render_gate
    from .gate import renew_lock as write_lock

    repository = _repository(root)
    _refuse_outputs_that_are_inputs(repository, {"--junit-file": junit_file, "--sarif-file": sarif_file})
    try:
        if renew_lock:
            count, changed = write_lock(repository)
            click.echo(f"rules.lock: {count} statements" + (f"; {', '.join(changed)}" if changed else "; unchanged"))
            return
        if scopes and base is None:
            raise click.UsageError("--scope names the scopes to compare with --base; give --base too")
        report = api.gate(repository, GateOptions(int(timeout * 1000), memory, jobs, base, accept_findings,
                                                  tuple(Path(s) for s in scopes)))
    except RegcheckError as err:
        _fail_input(err)
        sys.exit(EXIT_INPUT)
    outputs = {"text": lambda: render_gate(report), "json": lambda: json.dumps(gate_json(report), indent=2),
               "junit": lambda: gate_junit(report).rstrip("\n"),
               "sarif": lambda: json.dumps(gate_sarif(report), indent=2)}
    for path, kind in ((junit_file, "junit"), (sarif_file, "sarif")):
        if path:
            try:
                write_file(Path(path), outputs[kind]() + "\n")
            except WriteError as err:
                _fail_input(err)
                sys.exit(EXIT_INPUT)
    click.echo(outputs[fmt]())
    _exit(EXIT_INPUT if report.bad_input else EXIT_OK if report.passed else EXIT_FINDING)


def _refuse_outputs_that_are_inputs(root: Path, outputs: dict[str, str | None]) -> None:
    """Refuse (as a usage error, before anything is read or written) an output file that regcheck reads,
    or two outputs naming the same file."""
    from .gate import FINDINGS_FILE, LOCK_FILE

    real_root = Path(os.path.realpath(root))
    inputs = [real_root / name for name in (LOCK_FILE, FINDINGS_FILE)]
    folders = [real_root / name for name in ("rules", "encodings", "cases")]
    seen: dict[Path, str] = {}
    for option, given in outputs.items():
        if given is None:
            continue
        target = Path(os.path.realpath(given))
        if target in inputs or any(target.is_relative_to(folder) for folder in folders):
            raise click.UsageError(f"{option} {given} names a file regcheck reads "
                                   f"({os.path.relpath(target, real_root)} of the rules repository); "
                                   "nothing written: name another file")
        if target in seen:
            raise click.UsageError(f"{option} and {seen[target]} name the same file {given}")
        seen[target] = option


def run() -> None:
    """The `regcheck` program: the command line, ending the process as soon as the answer is out."""
    global _leave_at_once
    _leave_at_once = True
    main()
