"""`regcheck sweep --scheduler`: the same sweep on a real local Dask cluster, its scheduler and workers started
as separate processes on the loopback interface; the client is the only writer of the database."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import Result

import verifier.sweep.run
from verifier.sweep.store import read_store

from .cluster_helpers import cluster as start_cluster
from .cluster_helpers import free_port
from .sweep_helpers import SMALL_OPTIONS

pytest.importorskip("distributed")


@pytest.fixture
def cluster() -> Iterator[str]:
    """A scheduler and a worker process with two worker processes of one thread each, on 127.0.0.1."""
    with start_cluster(2) as (address, _, _):
        yield address


# A long run (a cluster of its own, and the whole small sweep on it), run with `-m slow`: in the default run,
# tests/sweep/test_cluster_faults.py's `test_a_worker_killed_while_it_holds_combinations_loses_none` runs the same
# sweep on a cluster and asserts the same of it (exit 0, on the cluster, each row's worker, the local results).
@pytest.mark.slow
def test_a_sweep_on_a_cluster_matches_the_local_one(cluster: str, tmp_path: Path, small_deck: Path,
                                                    small_sweep: Path, repo_root: Path) -> None:
    database = tmp_path / "cluster.db"
    started = time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "verifier", "sweep", str(database), "--deck", str(small_deck),
                          "--scheduler", cluster, *SMALL_OPTIONS], cwd=repo_root, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr  # every finding is accepted in the repository
    assert f"on Dask cluster at {cluster}" in run.stdout, time.perf_counter() - started
    _, rows = read_store(database)
    _, local = read_store(small_sweep)
    assert [(r.key, r.status, r.scenarios, r.findings) for r in rows] == \
        [(r.key, r.status, r.scenarios, r.findings) for r in local]
    assert len({r.worker for r in rows}) >= 1 and all(r.worker for r in rows)


def test_an_unreachable_scheduler_is_a_usage_error(cli: Callable[..., Result], tmp_path: Path, small_deck: Path,
                                                   repo_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(verifier.sweep.run, "CONNECT_SECONDS", 1)  # nothing answers on that port, however long
    address = f"tcp://127.0.0.1:{free_port()}"
    run = cli("sweep", tmp_path / "s.db", "--deck", small_deck, "--scheduler", address, *SMALL_OPTIONS, "--root", repo_root)
    assert run.exit_code == 2 and f"cannot reach the Dask scheduler at {address} within 1 s" in run.stderr
