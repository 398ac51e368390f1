"""Fixtures of the gate's tests: a small rules repository (three cases) with its lock and accepted findings,
and the same with its accepted survivors."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from verifier.gate import GateOptions, renew_lock, run_gate
from verifier.solver.engine import DEFAULT_TIMEOUT_MS

from .helpers import CONTRADICTION, SMALL_CASES, accept_every_survivor


@pytest.fixture(scope="session")
def gate_template(tmp_path_factory: pytest.TempPathFactory, repo_root: Path, tiny_contradiction_text: str) -> Path:
    """A small rules repository that passes the gate: its lock renewed and its findings accepted."""
    root = tmp_path_factory.mktemp("gate") / "template"
    for folder in ("rules", "encodings"):
        shutil.copytree(repo_root / folder, root / folder)
    for case in SMALL_CASES:
        (root / "cases" / case).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(repo_root / "cases" / case, root / "cases" / case)
    (root / CONTRADICTION).write_text(tiny_contradiction_text, encoding="utf-8")
    renew_lock(root)
    report = run_gate(root, GateOptions(DEFAULT_TIMEOUT_MS, jobs=1, accept_findings=True, mutate=False))
    assert report.passed, report.problems
    return root


@pytest.fixture(scope="session")
def survivors_template(gate_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The small rules repository with every rule whose deletion its cases do not notice accepted: it passes
    the gate's mutation check too."""
    root = Path(shutil.copytree(gate_template, tmp_path_factory.mktemp("gate") / "survivors"))
    accept_every_survivor(root)
    return root


@pytest.fixture
def gate_repo(gate_template: Path, tmp_path: Path) -> Path:
    """A private copy of the small rules repository, to change on purpose (it has no accepted survivors:
    see `survivors_repo`)."""
    return Path(shutil.copytree(gate_template, tmp_path / "repo"))


@pytest.fixture
def survivors_repo(survivors_template: Path, tmp_path: Path) -> Path:
    """A private copy of the small rules repository with its accepted survivors, to change on purpose."""
    return Path(shutil.copytree(survivors_template, tmp_path / "repo"))


@pytest.fixture
def gate(cli: Callable[..., Result], assert_no_crash: Callable[[Result], None]) -> Callable[..., Result]:
    """Run `regcheck gate --root ROOT ...` in-process, one case at a time; with `--no-mutate` unless the test
    is about the mutation check (`mutate=True`): deleting every rule in turn triples the time of a run."""

    def run(root: Path, *args: str, mutate: bool = False) -> Result:
        result = cli("gate", "--root", root, "--jobs", "1", *args, *(() if mutate or "--no-mutate" in args else ("--no-mutate",)))
        assert_no_crash(result)
        return result

    return run
