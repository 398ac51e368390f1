"""Shared fixtures: the repository, the rule base (loaded once), case helpers and the CLI."""

from __future__ import annotations

import multiprocessing
import os
import shutil
import tempfile
import textwrap
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

# The caches of a test run (rule bases, card readings, the card list's coverage) are kept apart from the
# user's own, and shared by the run's workers under pytest-xdist.
# Each test checks its cases afresh: the result cache (see tests/test_resultcache.py) is off unless a test
# turns it on.
os.environ.setdefault("REGCHECK_NO_CACHE", "1")
os.environ.setdefault("REGCHECK_CACHE_DIR",
                      os.path.join(tempfile.gettempdir(), "regcheck-test-cache-" + os.environ["PYTEST_XDIST_TESTRUNUID"])
                      if "PYTEST_XDIST_TESTRUNUID" in os.environ else tempfile.mkdtemp(prefix="regcheck-test-cache-"))

from verifier.cli import main
from verifier.errors import RegcheckError
from verifier.language.encoding import RuleBase, load_rule_base
from verifier.rulesdoc import RulesDocument, load_rules_document
from verifier.runner import CaseTask
from verifier.scenario.loader import load_case
from verifier.scenario.model import Scenario
from verifier.solver.engine import DEFAULT_TIMEOUT_MS
from verifier.verdicts import CaseResult

REPO_ROOT = Path(__file__).resolve().parents[1]

# A small, fast, well-understood case: Provisions (2 turns) on alice's Green Hero.
PROVISIONS = """\
title: Provisions sets a Hero aside for 2 turns
players: [alice, bob]
cards:
  elijah:
    type: Hero
    brigade: Green
  provisions:
    card: Provisions
timeline:
  - id: play_provisions
    turn: 1
    phase: Preparation
    play: provisions
    on: elijah
    targets: [elijah]
questions:
  legal: legal(play_provisions)
  returns_at: return_step(play_provisions, elijah)
expect:
  legal: {verdict: determined, value: yes}
  returns_at: {verdict: determined, value: turn 3 Preparation}
"""

# The smallest contradiction known: a set-aside negated in the Draw Phase brings its card back
# outside a Preparation Phase (GLOSS-12 against SA-5). Fast to minimise: one turn, three cards.
TINY_CONTRADICTION = """\
title: A set-aside negated in the Draw Phase returns outside a Preparation Phase
players: [alice, bob]
turns: 1
cards:
  joshua:
    type: Hero
    owner: bob
  goliath:
    type: Evil_Character
    abilities:
      - kind: set aside
        duration: 1 turn
  angel:
    type: Hero
    owner: bob
    abilities:
      - kind: negate
timeline:
  - id: zap
    turn: 1
    phase: Draw
    activate: goliath
    targets: [joshua]
  - id: undo
    turn: 1
    phase: Draw
    negate: zap
    by: angel
questions:
  zap_legal: legal(zap)
expect:
  zap_legal: contradiction
"""


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The rules repository: pyproject.toml, verifier/, encodings/, rules/, cases/."""
    return REPO_ROOT


@pytest.fixture(scope="session")
def rule_base(repo_root: Path) -> RuleBase:
    """The real rule base, loaded once per test session."""
    return load_rule_base(repo_root / "encodings")


@pytest.fixture(scope="session")
def rules_doc(repo_root: Path) -> RulesDocument:
    """The real rules document, loaded once per test session."""
    return load_rules_document(repo_root / "rules")


class CaseResults:
    """Results of case files as `regcheck check` run from the repository's root gives them (the same task, a
    case inside the repository shown by its path from there), each checked at most once per session.

    `prefetch` checks many files at once in forked workers (which inherit the loaded rule base);
    a file that fails there is checked again in this process, so its error is raised here.
    """

    def __init__(self, rules: RuleBase, doc: RulesDocument) -> None:
        self.rules = rules
        self.task = CaseTask(rules, lambda: doc, DEFAULT_TIMEOUT_MS, None, show_defaults=False)
        self.cache: dict[Path, CaseResult] = {}

    def __call__(self, path: Path) -> CaseResult:
        key = path.resolve()
        if key not in self.cache:
            shown = key.relative_to(REPO_ROOT).as_posix() if key.is_relative_to(REPO_ROOT) else str(path)
            self.cache[key] = self.task.check(path, shown)[0]
        return self.cache[key]

    def prefetch(self, paths: Iterable[Path]) -> None:
        todo = sorted({p.resolve() for p in paths} - set(self.cache))
        workers = min(os.cpu_count() or 1, len(todo), 8)
        if workers <= 1 or "fork" not in multiprocessing.get_all_start_methods():
            return
        global _PREFETCH
        _PREFETCH = self
        try:
            with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
                for path, result in zip(todo, pool.map(_check_quietly, todo), strict=True):
                    if result is not None:
                        self.cache[path] = result
        finally:
            _PREFETCH = None


_PREFETCH: CaseResults | None = None


def _check_quietly(path: Path) -> CaseResult | None:
    assert _PREFETCH is not None
    try:
        return _PREFETCH(path)
    except RegcheckError:
        return None


@pytest.fixture(scope="session")
def case_results(rule_base: RuleBase, rules_doc: RulesDocument) -> CaseResults:
    """Check a case file with the engine, at most once per session (results are cached)."""
    return CaseResults(rule_base, rules_doc)


@pytest.fixture
def write_case(tmp_path: Path) -> Callable[..., Path]:
    """Write case text (dedented) to a file in a temporary folder and return its path."""

    def write(text: str, name: str = "case.yaml") -> Path:
        path = tmp_path / name
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        return path

    return write


@pytest.fixture
def make_case(write_case: Callable[..., Path], rule_base: RuleBase) -> Callable[..., Scenario]:
    """Load case text as a scenario against the real rule base; file shown as its bare name."""

    def make(text: str, name: str = "case.yaml") -> Scenario:
        path = write_case(text, name)
        return load_case(path, rule_base, display=name)

    return make


@pytest.fixture
def repo_copy(tmp_path: Path, repo_root: Path) -> Path:
    """A private copy of the rules repository (rules/ and encodings/) to break on purpose."""
    root = tmp_path / "repo"
    root.mkdir()
    for folder in ("rules", "encodings"):
        shutil.copytree(repo_root / folder, root / folder)
    return root


@pytest.fixture
def chdir() -> Iterator[Callable[[Path], None]]:
    """Change the current folder for one test, and change it back afterwards."""
    old = Path.cwd()

    def go(folder: Path) -> None:
        os.chdir(folder)

    yield go
    os.chdir(old)


_LOADED: dict[tuple[str, Path, tuple[tuple[str, int, int], ...]], object] = {}


# Under pytest-xdist (`--dist loadgroup`, in pyproject.toml) the tests that share an expensive session
# fixture run on one worker: the case files' results, the gate's small repository, the sweep of a small
# deck, the HTML report, the mutation runs. Every other file's tests stay together too, for their module
# fixtures. A test marked with a group of its own keeps it (the tests that count the card list's coverage
# join the gate's, which counts it: once per run, not once per worker).
#
# Each group runs on one worker, and a worker takes the next group in the order of the collected tests
# (`--no-loadscope-reorder`, in pyproject.toml). The groups that take longest come first, longest first, so
# that the run does not end with one worker busy on a long group while the other has nothing left to do;
# the other groups follow in the order they are collected.
_CASE_RESULTS = {"test_cases.py", "test_snapshot.py", "gate/test_gate_repository.py"}
_SHARED_FOLDERS = {"gate", "sweep", "htmlreport", "mutation"}
LONGEST_GROUPS = ("sweep", "case-results", "gate", "mutation", "explore/test_search.py", "solver/test_pruned_grounding.py",
                  "solver/test_grounding.py", "explore/test_rediscovery.py", "test_cli_controls.py", "test_docs_commands.py",
                  "differential/test_differential.py", "test_malformed.py", "test_explanation.py", "test_determinism.py",
                  "htmlreport", "fuzz/test_fuzzed_inputs.py", "test_cli.py", "solver/test_engine.py", "test_resultcache.py",
                  "explore/test_explore_cli.py", "test_style.py")
_TESTS = Path(__file__).resolve().parent


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("xdist_group"):
            continue
        try:
            where = Path(item.path).resolve().relative_to(_TESTS)
        except ValueError:
            continue
        name = where.as_posix()
        group = ("case-results" if name in _CASE_RESULTS
                 else where.parts[0] if len(where.parts) > 1 and where.parts[0] in _SHARED_FOLDERS else name)
        item.add_marker(pytest.mark.xdist_group(group))
    rank = {group: number for number, group in enumerate(LONGEST_GROUPS)}
    items.sort(key=lambda item: rank.get(group_of(item), len(rank)))  # stable: a group's tests keep their order


def group_of(item: pytest.Item) -> str | None:
    """The xdist group a test runs in (None for a test outside tests/, which has none)."""
    marker = item.get_closest_marker("xdist_group")
    if marker is None:
        return None
    return str(marker.args[0] if marker.args else marker.kwargs.get("name"))


@pytest.fixture(scope="session")
def longest_groups() -> tuple[str, ...]:
    """The groups the run hands out first, longest first (see `pytest_collection_modifyitems`)."""
    return LONGEST_GROUPS


def _memoised(kind: str, load: Callable[[Path], object]) -> Callable[[Path], object]:
    """`load`, remembering what it returned for a folder whose files have not changed since."""

    def cached(folder: Path) -> object:
        files = tuple(sorted((p.name, p.stat().st_mtime_ns, p.stat().st_size) for p in Path(folder).iterdir()
                             if p.is_file()))
        key = (kind, Path(folder).resolve(), files)
        if key not in _LOADED:
            _LOADED[key] = load(folder)  # an error is raised, never remembered
        return _LOADED[key]

    return cached


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch) -> Callable[..., Result]:
    """Run the real `regcheck` command line in-process; exceptions are kept in the result.

    The API reads the rule base and the rules document on every run; here an unchanged folder
    is read once per session, which keeps the many CLI tests fast.
    """
    import verifier.repository

    monkeypatch.setattr(verifier.repository, "load_rule_base", _memoised("encodings", load_rule_base))
    monkeypatch.setattr(verifier.repository, "load_rules_document", _memoised("rules", load_rules_document))
    runner = CliRunner()

    def run(*args: str | os.PathLike[str]) -> Result:
        return runner.invoke(main, [str(a) for a in args], catch_exceptions=True)

    return run


def no_crash(result: Result) -> None:
    """Assert that a CLI run ended on purpose (an exit code), not by an unhandled exception."""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"the CLI crashed: {result.exception!r}\n{result.output}")
    assert "Traceback" not in result.output


@pytest.fixture
def assert_no_crash() -> Callable[[Result], None]:
    return no_crash


@pytest.fixture(scope="session")
def provisions_text() -> str:
    return PROVISIONS


@pytest.fixture(scope="session")
def tiny_contradiction_text() -> str:
    return TINY_CONTRADICTION
