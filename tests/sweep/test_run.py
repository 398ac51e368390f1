"""Running a sweep: killed with SIGKILL at random moments and resumed, every combination is in the database
exactly once, with the findings of a run that was never interrupted; the command line's output and exit codes."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

from click.testing import Result

from verifier.solver.engine import DEFAULT_TIMEOUT_MS
from verifier.sweep import DEFAULT_TEMPLATE, select_cards
from verifier.sweep.run import run_combination
from verifier.sweep.store import read_store
from verifier.sweep.template import combination_name, scope_text

from .sweep_helpers import SMALL_OPTIONS

Cli = Callable[..., Result]


def _results(database: Path) -> list[tuple[str, str, int | None, tuple[object, ...]]]:
    return [(r.key, r.status, r.scenarios, r.findings) for r in read_store(database)[1]]


def _done(database: Path) -> int:
    """How many combinations the sweep's database records as done (0 before it is made)."""
    try:
        with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5)) as db:
            return int(db.execute("SELECT count(*) FROM combination WHERE status = 'done'").fetchone()[0])
    except sqlite3.OperationalError:  # not made yet, or its tables not yet
        return 0


def _sweep_command(database: Path, deck: Path) -> list[str]:
    return [sys.executable, "-m", "verifier", "sweep", str(database), "--deck", str(deck), "--jobs", "2", *SMALL_OPTIONS]


def test_killed_at_random_moments_and_resumed_nothing_is_lost_or_counted_twice(
        tmp_path: Path, small_deck: Path, small_sweep: Path, repo_root: Path) -> None:
    database = tmp_path / "killed.db"
    seed = int.from_bytes(os.urandom(4), "big")
    rng = random.Random(seed)
    kills = 0
    for _ in range(3):
        # killed once a random number of combinations is done (fewer than all), a random moment later
        target = rng.randrange(_done(database), 6) if _done(database) < 6 else 6
        process = subprocess.Popen(_sweep_command(database, small_deck), cwd=repo_root, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        while process.poll() is None and _done(database) < target:
            time.sleep(0.05)
        time.sleep(rng.uniform(0.0, 0.5))
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
            kills += 1
        process.wait()
    finished = subprocess.run(_sweep_command(database, small_deck), cwd=repo_root, capture_output=True, text=True,
                              timeout=300)
    assert finished.returncode == 0, finished.stderr  # every finding is accepted in the repository
    assert kills >= 1, f"seed {seed}: no run was still going when killed"
    with sqlite3.connect(database) as db:
        keys = [k for (k,) in db.execute("SELECT key FROM combination")]
    assert len(keys) == len(set(keys)) == 6, f"seed {seed}"
    assert _results(database) == _results(small_sweep), f"seed {seed}"
    assert all(status == "done" for _, status, _, _ in _results(database))


def test_the_command_line_lists_what_it_left_out_and_resumes(cli: Cli, tmp_path: Path, repo_root: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text("1\tProvisions\n1\tMeditation (B)\n1\tElijah\n1\tMustering for War\n", "utf-8")
    database = tmp_path / "s.db"
    args = ["sweep", str(database), "--deck", str(deck), "--jobs", "1", *SMALL_OPTIONS, "--root", str(repo_root)]
    first = cli(*args, "--limit", "1")
    assert first.exit_code == 0, first.output
    assert "left out: Elijah: no ability of the categories asked" in first.output
    assert "3 cards, 3 combinations: 1 done, 0 refused, 0 failed, 0 unknown, 2 pending" in first.output
    assert "sweep: 1/3 combinations" in first.stderr and "ETA" in first.stderr
    second = cli(*args)
    assert "3 done, 0 refused, 0 failed, 0 unknown, 0 pending" in second.output and "this run: 2 combinations" in second.output
    other = cli(*args[:-2], "--turns", "2", "--root", str(repo_root))
    assert other.exit_code == 2 and "another scope template" in other.stderr


def test_bad_input_is_exit_2(cli: Cli, tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text("1\tProvisons\n", "utf-8")
    result = cli("sweep", str(tmp_path / "s.db"), "--deck", str(deck))
    assert result.exit_code == 2 and "deck.txt:1: no card named 'Provisons'" in result.stderr
    assert cli("sweep", str(tmp_path / "s.db"), "--attempts", "play,fly").exit_code == 2
    assert cli("sweep", "report", str(tmp_path / "missing.db")).exit_code == 2


def test_a_scope_regcheck_will_not_answer_is_refused_not_failed(repo_root: Path) -> None:
    # A Child is Born: "Discard all Demons in Play."; the card list does not say whether Achaicus is a demon
    names = ("A Child is Born", "Achaicus")
    by_name = {c.name: c for c in select_cards(["cannot-be-negated", "set-aside"], names).cards}
    cards = [by_name[n] for n in names]
    result = run_combination(str(repo_root), combination_name(cards), scope_text(cards, DEFAULT_TEMPLATE),
                             DEFAULT_TIMEOUT_MS, None, 100)
    assert result["status"] == "refused" and result["scenarios"] is None and result["findings"] == []
    assert "does not say whether 'card_2' is demon" in result["error"]
