"""The project's own code stays clean under the linters configured in pyproject.toml."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("command", [
    ["ruff", "check", "verifier", "tests", "benchmarks", "fuzz"],
    ["mypy"],
], ids=["ruff", "mypy"])
def test_linter_is_clean(command: list[str]) -> None:
    # the linter installed beside this interpreter, which is the version pyproject.toml asks for
    beside = Path(sys.executable).parent / command[0]
    tool = str(beside) if beside.exists() else shutil.which(command[0]) or ""
    if not tool:
        pytest.skip(f"{command[0]} is not installed (pip install '.[test]')")
    done = subprocess.run([tool, *command[1:]], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
