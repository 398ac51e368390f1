"""A small sweep shared by the sweep tests: four real cards of a deck list, a one-turn template."""

from __future__ import annotations

from pathlib import Path

import pytest

from verifier import api
from verifier.sweep import SweepOptions

from .sweep_helpers import SMALL_DECK, SMALL_TEMPLATE


@pytest.fixture(scope="session")
def small_deck(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("deck") / "small-deck.txt"
    path.write_text(SMALL_DECK, "utf-8")
    return path


@pytest.fixture(scope="session")
def small_sweep(tmp_path_factory: pytest.TempPathFactory, small_deck: Path, repo_root: Path) -> Path:
    """The results database of the small sweep, run without interruption on one worker."""
    database = tmp_path_factory.mktemp("sweep") / "small.db"
    api.sweep(api.open_repository(repo_root), database, SweepOptions(template=SMALL_TEMPLATE, jobs=1),
              deck=small_deck)
    return database
