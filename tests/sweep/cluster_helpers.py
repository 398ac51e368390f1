"""A real Dask cluster for the sweep tests: a scheduler and workers started as separate processes on the loopback
interface, which a test may kill."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

WAIT_SECONDS = 240  # generous: the machine may be busy; a test waits for a condition, never for a duration


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def dask(*args: str, env: Mapping[str, str] | None = None, cwd: Path | None = None) -> subprocess.Popen[bytes]:
    """`dask scheduler ...` or `dask worker ...`, its output left out."""
    return subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_" + args[0], *args[1:]],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=cwd, start_new_session=True)


def start_scheduler() -> tuple[str, subprocess.Popen[bytes]]:
    port = free_port()
    return f"tcp://127.0.0.1:{port}", dask("scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard")


def start_workers(address: str, count: int, env: Mapping[str, str] | None = None,
                  cwd: Path | None = None) -> subprocess.Popen[bytes]:
    """`count` worker processes of one thread each (under one `dask worker` and its nannies)."""
    return dask("worker", address, "--nworkers", str(count), "--nthreads", "1", "--no-dashboard", "--host", "127.0.0.1",
                env=env, cwd=cwd)


def wait_for_workers(address: str, count: int) -> None:
    from distributed import Client

    with Client(address, timeout=WAIT_SECONDS) as client:
        client.wait_for_workers(count, timeout=WAIT_SECONDS)


def stop(*processes: subprocess.Popen[Any], at_once: bool = False) -> None:
    """End each process and the processes it started (its session): asked to end, then killed after 30 s; at once
    (SIGKILL) when `at_once`."""
    for process in processes:
        _signal_session(process, signal.SIGKILL if at_once else signal.SIGTERM)
    for process in processes:
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            _signal_session(process, signal.SIGKILL)
            process.wait()
        _signal_session(process, signal.SIGKILL)  # what it started and left behind


def _signal_session(process: subprocess.Popen[Any], sig: int) -> None:
    try:
        os.killpg(process.pid, sig)
    except ProcessLookupError:  # not a session of its own, or ended
        if process.poll() is None:
            process.send_signal(sig)


@contextmanager
def cluster(workers: int = 2) -> Iterator[tuple[str, subprocess.Popen[bytes], subprocess.Popen[bytes]]]:
    """A scheduler and `workers` worker processes, ready: (address, scheduler process, workers process)."""
    address, scheduler = start_scheduler()
    started = start_workers(address, workers)
    try:
        wait_for_workers(address, workers)
        yield address, scheduler, started
    finally:
        stop(started, scheduler)


def wait_until(condition: Callable[[], Any], what: str, process: subprocess.Popen[Any] | None = None) -> Any:
    """Poll `condition` until it holds (its value), failing after WAIT_SECONDS or when `process` ended first."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        if process is not None and process.poll() is not None:
            raise AssertionError(f"the sweep ended (exit {process.returncode}) before {what}")
        time.sleep(0.05)
    raise AssertionError(f"waited {WAIT_SECONDS} s for {what}")


def statuses(database: Path) -> dict[str, int]:
    """How many combinations the sweep's database holds by status ({} before it is made)."""
    try:
        with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5)) as db:
            return dict(db.execute("SELECT status, count(*) FROM combination GROUP BY status").fetchall())
    except sqlite3.OperationalError:  # not made yet, or its tables not yet
        return {}


def sweep_command(database: Path, deck: Path, *options: str) -> list[str]:
    """The small sweep's command line, with `options` (`--scheduler ADDRESS`, `--jobs N`, ...)."""
    from .sweep_helpers import SMALL_OPTIONS

    return [sys.executable, "-m", "verifier", "sweep", str(database), "--deck", str(deck), *SMALL_OPTIONS, *options]


def environment(**changes: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(changes)
    return env
