"""The pytest plugin: case files of a rules repository as test items, run by pytest in a subprocess."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from verifier.pytest_plugin import rules_repository


@pytest.fixture(scope="module")
def small_repository(tmp_path_factory: pytest.TempPathFactory, repo_root: Path) -> Path:
    """A rules repository with two good cases, one unmet expectation, one unreadable case, and stray YAML."""
    root = tmp_path_factory.mktemp("plugin") / "repo"
    for folder in ("rules", "encodings"):
        shutil.copytree(repo_root / folder, root / folder)
    good = repo_root / "cases" / "set-aside" / "provisions-returns-after-two-turns.yaml"
    (root / "cases" / "set-aside").mkdir(parents=True)
    shutil.copy(good, root / "cases" / "set-aside" / good.name)
    wrong = good.read_text("utf-8").replace("returns_at: {verdict: determined, value: turn 3 Preparation}",
                                            "returns_at: {verdict: determined, value: turn 2 Preparation}")
    assert wrong != good.read_text("utf-8")
    (root / "cases" / "set-aside" / "wrong.yaml").write_text(wrong, encoding="utf-8")
    shutil.copy(repo_root / "tests" / "malformed" / "case-unknown-field.yaml", root / "cases" / "unreadable.yaml")
    (root / "tests" / "malformed").mkdir(parents=True)
    shutil.copy(repo_root / "tests" / "malformed" / "case-unknown-field.yaml", root / "tests" / "malformed")
    (root / "config.yaml").write_text("not: a case\n", encoding="utf-8")
    return root


def _pytest(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args], cwd=root,
                          capture_output=True, text=True, timeout=300)


def test_only_case_files_of_a_rules_repository_are_collected(small_repository: Path) -> None:
    done = _pytest(small_repository, "--collect-only", "-q")
    ids = sorted(line for line in done.stdout.splitlines() if "::" in line)
    good = small_repository / "cases" / "set-aside" / "provisions-returns-after-two-turns.yaml"
    questions = list(yaml.safe_load(good.read_text("utf-8"))["questions"])
    assert "returns_at" in questions
    assert ids == sorted([f"cases/set-aside/provisions-returns-after-two-turns.yaml::{q}" for q in questions]
                         + [f"cases/set-aside/wrong.yaml::{q}" for q in questions]
                         + ["cases/unreadable.yaml::case file"]), done.stdout + done.stderr


def test_failures_show_the_verdict_the_expectation_and_input_errors(small_repository: Path) -> None:
    done = _pytest(small_repository, "cases", "-q")
    assert done.returncode == 1, done.stdout + done.stderr
    out = done.stdout
    assert "2 failed, 13 passed" in out, out  # 7 questions in each of the two readable cases
    assert "FAIL returns_at: determined = turn 3 Preparation (alice)" in out
    assert "expected determined = turn 2 Preparation (bob): does NOT match" in out
    assert "cannot read the case: cases/unreadable.yaml:6:5: unknown field 'brigades'" in out
    assert "Traceback" not in out and "INTERNALERROR" not in out


def test_the_plugin_can_be_turned_off(small_repository: Path) -> None:
    done = _pytest(small_repository, "cases", "-q", "-p", "no:regcheck")
    assert done.returncode == 5, done.stdout + done.stderr  # no tests collected


def test_a_rules_repository_is_recognised_by_its_folders(small_repository: Path) -> None:
    assert rules_repository(small_repository / "cases" / "set-aside" / "wrong.yaml") == small_repository
    assert rules_repository(small_repository / "tests" / "malformed" / "case-unknown-field.yaml") is None
    assert rules_repository(small_repository / "config.yaml") is None
