"""The gate keeps the coverage of the card list from falling, and every reviewed override current."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from verifier.gate import cardlock
from verifier.gate.cardlock import CARDS_LOCK_FILE, card_counts, check_cards, read_cards_lock

Gate = Callable[..., Result]


def test_the_repository_lock_matches_the_card_list(repo_root: Path) -> None:
    locked = {c: n for c, (n, _) in read_cards_lock(repo_root / CARDS_LOCK_FILE).items()}
    assert locked == card_counts()


def test_a_fall_in_coverage_fails_the_gate(gate: Gate, gate_repo: Path) -> None:
    lock = gate_repo / CARDS_LOCK_FILE
    count = card_counts()["set-aside"]
    lock.write_text(lock.read_text(encoding="utf-8").replace(f"set-aside {count}\n", f"set-aside {count + 1}\n"),
                    encoding="utf-8")
    result = gate(gate_repo)
    assert result.exit_code == 1
    assert (f"set-aside: {count} printed texts are modelled or overridden, fewer than the {count + 1} of the lock"
            in result.output)
    renewed = gate(gate_repo, "--renew-lock")
    assert renewed.exit_code == 0 and f"cards.lock set-aside {count + 1} -> {count}" in renewed.output
    assert gate(gate_repo).exit_code == 0


def test_a_missing_lock_fails(gate_repo: Path) -> None:
    (gate_repo / CARDS_LOCK_FILE).unlink()
    (problem,) = check_cards(gate_repo)
    assert problem.check == "cards" and "there is no cards.lock" in problem.message


def test_a_stale_override_fails(gate_repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cardlock, "override_problems", lambda: ["card-overrides.yaml:9: the text of X changed"])
    assert [p.message for p in check_cards(gate_repo)] == ["card-overrides.yaml:9: the text of X changed"]


def test_counting_the_coverage_afresh_shows_how_far_it_got(repo_root: Path, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from verifier.scenario import cards

    few = cards.texts_of_card_list()[:3]
    monkeypatch.setenv("REGCHECK_CACHE_DIR", str(tmp_path / "cache"))  # no coverage kept: it is counted
    monkeypatch.setattr(cards, "texts_of_card_list", lambda: few)
    told: list[tuple[int, int]] = []
    cards._read_every_text.cache_clear()
    try:
        check_cards(repo_root, lambda done, total: told.append((done, total)))  # reads cards.lock only
    finally:  # the survey of three texts is not left for the other tests
        cards._read_every_text.cache_clear()
    assert told == [(1, 3), (2, 3), (3, 3)]
