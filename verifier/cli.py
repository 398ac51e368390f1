"""The `regcheck` command line."""

from __future__ import annotations

__all__ = ["main", "run", "find_root", "collect_cases"]

import functools
import gc
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

import click

from .errors import InputError, RegcheckError
from .escaping import quoted
from .explanation import explain_case
from .files import WriteError, ignore_file_size_signal, write_file
from .language.cache import cached_rule_base
from .language.encoding import RuleBase, load_rule_base
from .report import (
    explanations_json,
    render_case,
    render_explanations,
    render_rules,
    render_ruling,
    results_json,
    rule_statuses,
    rules_json,
    ruling_json,
)
from .rulesdoc import RulesDocument, load_rules_document
from .ruling import load_ruling, ruling_verdict
from .runner import CaseInputError, CaseTask, RulingTask, run_cases
from .scenario.cardview import card_json, coverage_json, lookup, render_card, render_coverage
from .scenario.loader import DEFAULTS, load_case
from .solver.backend import prepare_context
from .solver.engine import DEFAULT_TIMEOUT_MS, check_ruling
from .verdicts import CaseResult, RulingCheck, RulingResult, RulingVerdict

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


def _load_base(root_opt: str | None) -> tuple[Path, RuleBase, RulesDocument]:
    root = _repository(root_opt)
    return root, cached_rule_base(root / "encodings", load_rule_base), load_rules_document(root / "rules")


def _load_for_checking(root_opt: str | None) -> tuple[RuleBase, Callable[[], RulesDocument]]:
    """The rule base, and the rules document to read when a conflict must be explained."""
    root = _repository(root_opt)
    rules_folder = root / "rules"
    return (cached_rule_base(root / "encodings", load_rule_base),
            functools.cache(lambda: load_rules_document(rules_folder)))


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
        rules, doc = _load_for_checking(root)
    except RegcheckError as err:
        _fail_input(err)
        sys.exit(EXIT_INPUT)
    results: list[CaseResult] = []
    errors: list[CaseInputError] = []
    task = CaseTask(rules, doc, int(timeout * 1000), memory, show_defaults)
    for outcome in run_cases(task, files, jobs):
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
        _root, base, doc = _load_base(root)
        scenario = load_case(Path(case), base)
        explanations = explain_case(scenario, base, doc, question, int(timeout * 1000), memory)
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
def ruling(files: tuple[str, ...], case_paths: tuple[str, ...], fmt: str, root: str | None, timeout: float,
           memory: int | None, jobs: int | None) -> None:
    """Check proposed rulings (FILES) against the rule base.

    A ruling is `entailed` (the rules already imply it), `contradicts` them (with the minimal
    conflicting set), or `narrows` what they allow (with the questions whose verdict changes).
    A ruling that proposes general rules is also checked on every case, to show its impact.
    Exits 1 when a ruling contradicts the rules or a check was left unknown.
    """
    try:
        root_path, base, doc = _load_base(root)
        rulings = [load_ruling(Path(f), base, doc) for f in files]
    except RegcheckError as err:
        _fail_input(err)
        sys.exit(EXIT_INPUT)
    general = any(r.rules for r in rulings)
    case_files = collect_cases(case_paths or (os.path.relpath(root_path / "cases"),)) if general else []
    if general and not case_files:
        raise click.UsageError("no case files (*.yaml) to check the ruling's rules on; name them with --cases")
    results: list[RulingResult] = []
    bad_input = False
    for r in rulings:
        with_ruling = r.rule_base(base)
        task = RulingTask(base, with_ruling, lambda: doc, int(timeout * 1000), memory)
        own = check_ruling(r.scenario, base, with_ruling, doc, True, task.timeout_ms, memory) if r.scenario else None
        impact: list[RulingCheck] = []
        for outcome in (run_cases(task, case_files, jobs) if r.rules else ()):
            if isinstance(outcome, str):
                click.echo(f"error: {outcome}", err=True)
                bad_input = True
            else:
                impact.append(outcome)
        results.append(RulingResult(r.path, r.id, r.title, ruling_verdict(own, tuple(impact)), own, tuple(impact)))
    if fmt == "json":
        click.echo(json.dumps({"rulings": [ruling_json(r) for r in results]}, indent=2))
    else:
        click.echo("\n\n".join(render_ruling(r) for r in results))
    if bad_input:
        sys.exit(EXIT_INPUT)
    failed = any(r.verdict in (RulingVerdict.CONTRADICTS, RulingVerdict.UNKNOWN) for r in results)
    _exit(EXIT_FINDING if failed else EXIT_OK)


@main.command()
@format_option
@root_option
def rules(fmt: str, root: str | None) -> None:
    """List every rules-document statement with its encoding status."""
    try:
        _root, base, doc = _load_base(root)
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
def gate(root: str | None, base: str | None, fmt: str, junit_file: str | None, sarif_file: str | None,
         timeout: float, memory: int | None, jobs: int | None, renew_lock: bool, accept_findings: bool) -> None:
    """Check the rules repository for CI: traceability, the lock, every case, accepted findings."""
    from .gate import GateOptions, gate_json, gate_junit, gate_sarif, render_gate, run_gate
    from .gate import renew_lock as write_lock

    repository = _repository(root)
    _refuse_outputs_that_are_inputs(repository, {"--junit-file": junit_file, "--sarif-file": sarif_file})
    try:
        if renew_lock:
            count, changed = write_lock(repository)
            click.echo(f"rules.lock: {count} statements" + (f"; {', '.join(changed)}" if changed else "; unchanged"))
            return
        report = run_gate(repository, GateOptions(int(timeout * 1000), memory, jobs, base, accept_findings))
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
