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


def regcheck(seed: str, *args: str, code: int = 0) -> str:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    done = subprocess.run([sys.executable, "-m", "verifier", *args], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == code, done.stderr
    return done.stdout


def run(seed: str, *extra: str) -> str:
    return regcheck(seed, "check", "--format", "json", *extra, *CASES)


def test_output_is_the_same_across_hash_seeds_and_workers() -> None:
    first = run("1")
    assert run("4242") == first
    assert run("7", "--jobs", "1") == first


def test_text_report_is_the_same_across_hash_seeds_and_workers() -> None:
    first = regcheck("3", "check", *CASES)
    assert "contradiction" in first and "ambiguous" in first and "choice-dependent" in first
    assert regcheck("99", "check", "--jobs", "1", *CASES) == first


def test_rules_listing_is_the_same_across_hash_seeds() -> None:
    for fmt in ("text", "json"):
        first = regcheck("5", "rules", "--format", fmt)
        assert first.strip()
        assert regcheck("6006", "rules", "--format", fmt) == first


def test_defaults_listing_is_the_same_across_hash_seeds() -> None:
    first = regcheck("11", "defaults")
    assert first.strip()
    assert regcheck("12", "defaults") == first


def test_explanations_are_the_same_across_hash_seeds() -> None:
    case = "cases/set-aside/provisions-returns-after-two-turns.yaml"
    first = regcheck("21", "explain", case, "--question", "returns_at")
    assert "therefore returns_at = turn 3 Preparation (alice)" in first
    assert regcheck("8080", "explain", case, "--question", "returns_at") == first


def test_ruling_reports_are_the_same_across_hash_seeds() -> None:
    ruling = ("ruling", "--format", "json", "--cases", CASES[1], "rulings/upkeep-of-the-set-aside-does-not-count.yaml",
              "rulings/healed-hero-goes-back-to-the-battle.yaml")
    first = regcheck("31", *ruling, code=1)
    assert '"verdict": "contradicts"' in first and '"verdict": "narrows"' in first
    assert regcheck("1313", *ruling, code=1) == first
