"""The same input gives byte-identical output, whatever Python's hash seed and however many workers."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# a choice-dependent, an ambiguous and a contradictory case: the verdicts whose evidence comes from models
CASES = [
    "cases/set-aside/passover-controller-chooses-return.yaml",
    "cases/set-aside/upkeep-set-aside-counts-its-own-upkeep.yaml",
    "cases/set-aside/darkness-negated-in-battle.yaml",
]


def run(seed: str, *extra: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    done = subprocess.run([sys.executable, "-m", "verifier", "check", "--format", "json", *extra, *CASES],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_output_is_the_same_across_hash_seeds_and_workers() -> None:
    first = run("1")
    assert run("4242") == first
    assert run("7", "--jobs", "1") == first
