"""Faults of a sweep on a real Dask cluster (a scheduler and workers as separate processes on the loopback interface):
a worker killed while it holds combinations, the scheduler killed, workers of another regcheck or rule base. Nothing
is lost or counted twice, and an error ends the command with exit 2 and one line, never a traceback."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
from contextlib import closing
from pathlib import Path

import pytest

from verifier import __version__
from verifier.sweep.run import WORKER_ROOT
from verifier.sweep.store import read_store

from .cluster_helpers import (
    WAIT_SECONDS,
    cluster,
    environment,
    start_scheduler,
    start_workers,
    statuses,
    stop,
    sweep_command,
    wait_for_workers,
    wait_until,
)

pytest.importorskip("distributed")


def _results(database: Path) -> list[tuple[str, str, int | None, tuple[object, ...]]]:
    return [(r.key, r.status, r.scenarios, r.findings) for r in read_store(database)[1]]


def _keys(database: Path) -> list[str]:
    with closing(sqlite3.connect(database)) as db:
        return [k for (k,) in db.execute("SELECT key FROM combination")]


def test_a_worker_killed_while_it_holds_combinations_loses_none(tmp_path: Path, small_deck: Path, small_sweep: Path,
                                                                 repo_root: Path) -> None:
    from distributed import Client

    database = tmp_path / "killed-worker.db"
    with cluster(2) as (address, _, _), Client(address, timeout=WAIT_SECONDS) as watcher:
        sweep = subprocess.Popen(sweep_command(database, small_deck, "--scheduler", address), cwd=repo_root, text=True,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            def holder() -> tuple[str, list[object]] | None:
                return next(((w, list(keys)) for w, keys in watcher.processing().items() if keys), None)

            worker, held = wait_until(holder, "a worker held a combination", sweep)
            pid = watcher.run(os.getpid, workers=[worker])[worker]
            os.kill(pid, signal.SIGKILL)
            out, err = sweep.communicate(timeout=WAIT_SECONDS)
        finally:
            stop(sweep)
    assert held and sweep.returncode == 0, err  # every finding is accepted in the repository
    assert "Traceback" not in err
    assert f"on Dask cluster at {address}" in out
    assert "6 done, 0 refused, 0 failed, 0 unknown, 0 pending" in out and "this run: 6 combinations" in out
    keys = _keys(database)
    assert len(keys) == len(set(keys)) == 6
    assert _results(database) == _results(small_sweep)
    assert all(r.worker for r in read_store(database)[1]), "each result names the worker that answered it"


def test_the_scheduler_killed_ends_the_sweep_with_an_error_and_a_rerun_resumes(
        tmp_path: Path, small_deck: Path, small_sweep: Path, repo_root: Path) -> None:
    database = tmp_path / "killed-scheduler.db"
    with cluster(2) as (address, scheduler, workers):
        sweep = subprocess.Popen(sweep_command(database, small_deck, "--scheduler", address), cwd=repo_root, text=True,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            wait_until(lambda: statuses(database).get("done", 0) >= 1, "a combination was done", sweep)
            scheduler.send_signal(signal.SIGKILL)
            out, err = sweep.communicate(timeout=WAIT_SECONDS)
        finally:
            stop(sweep, workers, at_once=True)  # workers without their scheduler have nothing left to do
    assert sweep.returncode == 2, (out, err)
    assert err.splitlines()[-1] == (f"error: lost the Dask scheduler at {address}: the results written so far are kept; "
                                    "run the same command again to continue")
    assert "Traceback" not in err
    kept = statuses(database)
    assert kept.get("done", 0) >= 1 and set(kept) <= {"done", "pending"}, "no combination is failed for a lost scheduler"
    before = {r.key: r for r in read_store(database)[1] if r.status == "done"}
    # run again (here on local workers: what it resumes from is the database)
    rerun = subprocess.run(sweep_command(database, small_deck, "--jobs", "2"), cwd=repo_root, capture_output=True,
                           text=True, timeout=WAIT_SECONDS)
    assert rerun.returncode == 0, rerun.stderr
    assert f"this run: {6 - len(before)} combination" in rerun.stdout
    assert _results(database) == _results(small_sweep)
    assert all(r == before[r.key] for r in read_store(database)[1] if r.key in before), "a result kept is not redone"
    keys = _keys(database)
    assert len(keys) == len(set(keys)) == 6


def _copy_repository(source: Path, target: Path) -> Path:
    for name in ("rules", "encodings"):
        shutil.copytree(source / name, target / name)
    shutil.copy(source / "rules.lock", target / "rules.lock")
    return target


def test_a_worker_of_another_regcheck_or_rule_base_is_refused_before_it_answers(
        tmp_path: Path, small_deck: Path, small_sweep: Path, repo_root: Path) -> None:
    # another regcheck: a copy of the package with another version, found first by the worker's Python
    other_code = tmp_path / "other-regcheck"
    shutil.copytree(repo_root / "verifier", other_code / "verifier", ignore=shutil.ignore_patterns("__pycache__"))
    init = other_code / "verifier" / "__init__.py"
    assert f'__version__ = "{__version__}"' in init.read_text()
    init.write_text(init.read_text().replace(f'__version__ = "{__version__}"', '__version__ = "0.0.1+other"'))
    # other rules: the worker's own checkout (REGCHECK_SWEEP_ROOT), whose encodings differ by a comment
    other_rules = _copy_repository(repo_root, tmp_path / "other-rules")
    with (other_rules / "encodings" / "core.yaml").open("a", encoding="utf-8") as f:
        f.write("\n# a comment: the rule base's files differ\n")
    same_rules = _copy_repository(repo_root, tmp_path / "same-rules")
    database = tmp_path / "refused.db"
    address, scheduler = start_scheduler()
    try:
        for env, cwd, why in (
                (environment(PYTHONPATH=str(other_code)), other_code,
                 f"it runs regcheck 0.0.1+other, the sweep regcheck {__version__}"),
                (environment(**{WORKER_ROOT: str(other_rules)}), repo_root, f"it reads another rule base at {other_rules}")):
            workers = start_workers(address, 1, env, cwd)
            try:
                wait_for_workers(address, 1)
                run = subprocess.run(sweep_command(database, small_deck, "--scheduler", address), cwd=repo_root,
                                     capture_output=True, text=True, timeout=WAIT_SECONDS)
            finally:
                stop(workers)
            assert run.returncode == 2, (run.stdout, run.stderr)
            (line,) = run.stderr.splitlines()[-1:]
            assert line.startswith("error: worker ") and "refused the sweep" in line and why in line, run.stderr
            assert "Traceback" not in run.stderr
            assert statuses(database) == {"pending": 6}, "a refusing worker answers nothing"
        # a worker with its own checkout of the same rules answers, and the sweep resumes (two of its combinations)
        workers = start_workers(address, 1, environment(**{WORKER_ROOT: str(same_rules)}))
        try:
            wait_for_workers(address, 1)
            run = subprocess.run(sweep_command(database, small_deck, "--scheduler", address, "--limit", "2"),
                                 cwd=repo_root, capture_output=True, text=True, timeout=WAIT_SECONDS)
        finally:
            stop(workers)
    finally:
        stop(scheduler)
    assert run.returncode == 0, run.stderr
    assert "this run: 2 combinations" in run.stdout and "2 done, 0 refused, 0 failed, 0 unknown, 4 pending" in run.stdout
    assert [r for r in _results(database) if r[1] == "done"] == _results(small_sweep)[:2]


def test_a_worker_reads_its_repository_again_when_the_rules_changed_and_refuses_when_they_still_differ(
        tmp_path: Path, repo_root: Path) -> None:
    from verifier.errors import ClusterError
    from verifier.sweep.run import run_combination, worker_identity

    root = _copy_repository(repo_root, tmp_path / "repo")
    first = worker_identity(root)
    # a scope that cannot be read: answered at once, as failed, by a worker that did not refuse
    answer = run_combination(str(root), "broken", "turns: [", 1000, None, 10, first)
    assert answer["status"] == "failed" and "refused" not in answer["error"]
    with (root / "encodings" / "core.yaml").open("a", encoding="utf-8") as f:
        f.write("\n# changed since the worker read it\n")
    now = worker_identity(root)
    assert now.rules != first.rules and now[:2] == first[:2]
    assert run_combination(str(root), "broken", "turns: [", 1000, None, 10, now)["status"] == "failed"
    with pytest.raises(ClusterError, match=f"refused the sweep: it reads another rule base at {root} "
                                           f"\\(fingerprint {now.rules}, the sweep's {first.rules}\\)"):
        run_combination(str(root), "broken", "turns: [", 1000, None, 10, first)
    with pytest.raises(ClusterError, match=f"it runs regcheck {__version__}, the sweep regcheck 0.0.1\\+other"):
        run_combination(str(root), "broken", "turns: [", 1000, None, 10, first._replace(version="0.0.1+other"))
