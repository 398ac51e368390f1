"""Fixtures of the mutation tests: a small rules repository (the whole rule base, four cases)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

SMALL_CASES = ("set-aside/provisions-returns-after-two-turns.yaml",
               "set-aside/upkeep-set-aside-counts-its-own-upkeep.yaml",
               "set-aside/darkness-negated-in-battle.yaml",
               "heal/balm-of-gilead-heals-hero-discarded-by-opponents-ability.yaml")


def copy_small_repo(repo_root: Path, root: Path) -> Path:
    """A rules repository at `root` with every rule and the four small cases."""
    for folder in ("rules", "encodings"):
        shutil.copytree(repo_root / folder, root / folder)
    for case in SMALL_CASES:
        (root / "cases" / case).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(repo_root / "cases" / case, root / "cases" / case)
    return root


@pytest.fixture(scope="session")
def small_repo(tmp_path_factory: pytest.TempPathFactory, repo_root: Path) -> Path:
    """A rules repository with every rule and four cases: determined, ambiguous, contradiction, a heal."""
    return copy_small_repo(repo_root, tmp_path_factory.mktemp("mutation") / "repo")
