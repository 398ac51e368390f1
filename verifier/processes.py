"""Work spread over forked worker processes, which inherit what this process has loaded (the rule base, the
card grammar) instead of receiving a copy with every item, and which end with this process however it ends."""

from __future__ import annotations

__all__ = ["run_in_processes", "end_with_parent", "forked_pool"]

import contextlib
import functools
import itertools
import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

A = TypeVar("A")
T = TypeVar("T")
_forked_task: Callable[[Any], object] | None = None


def _run_forked(item: object) -> object:
    assert _forked_task is not None
    return _forked_task(item)


PR_SET_PDEATHSIG = 1


def end_with_parent(parent: int) -> None:
    """In a worker: be killed when the parent process ends, however it ends (SIGKILL included).

    On Linux the kernel sends the worker SIGKILL when its parent dies; if the parent died before
    this was set, the worker ends now. Elsewhere a worker ends when it finds its parent gone.
    """
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:
        os._exit(1)
    # Ctrl-C reaches every process of the terminal's group: the parent alone answers it (exit 130). One that came
    # while the worker was forked (held back: see `_forking`) is dropped with it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@contextlib.contextmanager
def _forking() -> Iterator[None]:
    """Ctrl-C held back while workers are forked, so that none receives it before it ignores it (a worker would
    print the interruption's traceback); the parent receives it once they are started."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def forked_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of `workers` processes forked from this one (they inherit what it has loaded), each ending with this
    process however it ends (`end_with_parent`); Ctrl-C is held back while a submission forks them (`_forking`)."""
    import multiprocessing

    return _forked_pool_class()(workers, mp_context=multiprocessing.get_context("fork"), initializer=end_with_parent,
                                initargs=(os.getpid(),))


@functools.cache
def _forked_pool_class() -> type[ProcessPoolExecutor]:
    """The pool `forked_pool` makes: a process pool whose every submission (which forks the workers the first
    time) holds Ctrl-C back."""
    from concurrent.futures import Future, ProcessPoolExecutor

    class ForkedPool(ProcessPoolExecutor):
        def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
            with _forking():
                return super().submit(fn, *args, **kwargs)

    return ForkedPool


def run_in_processes(task: Callable[[A], T], files: Sequence[A], jobs: int | None, memory_mb: int | None = None
                     ) -> Iterator[T]:
    """Run `task` on each of `files` (case files, the scenarios of a scope, mutants, card texts), giving the
    results in order, several at once on a machine with more than one processor (at most `jobs`, and 8).

    Workers are forked after the rule base is loaded, so they inherit it instead of
    receiving a copy with every case. They end with this process, however it ends.

    With a memory limit for the solver (`memory_mb`), each file is run in a process forked for it
    alone, one worker or many (where processes can be forked): once Z3 has run out of memory in a
    process, the models it finds later there may differ from a fresh process's, and a file run after
    another that ran out would then show other witnesses than it shows alone.
    """
    global _forked_task
    workers = min(jobs or os.cpu_count() or 1, len(files), 8)
    if workers <= 1 and memory_mb is None:
        yield from map(task, files)
        return
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        yield from map(task, files)
        return
    _forked_task = task
    if memory_mb is not None:
        try:
            yield from _each_in_a_fresh_process(files, max(workers, 1))
        finally:
            _forked_task = None
        return
    try:
        pool = forked_pool(workers)
        try:
            results = pool.map(_run_forked, files)  # every item is submitted, and every worker forked, at once
            yield from results  # type: ignore[misc]
        finally:
            # a caller that stops early (check -x) waits only for the files being checked now
            pool.shutdown(wait=True, cancel_futures=True)
    finally:
        _forked_task = None


def _each_in_a_fresh_process(files: Sequence[A], workers: int) -> Iterator[Any]:
    """`_forked_task` on each of `files`, in order, each in a worker forked for it alone, `workers` at once."""
    from concurrent.futures import Future

    def start(item: A) -> tuple[ProcessPoolExecutor, Future[Any]]:
        pool = forked_pool(1)
        return pool, pool.submit(_run_forked, item)  # the worker is forked as the item is submitted

    waiting = iter(files)
    running = deque(start(item) for item in itertools.islice(waiting, workers))
    try:
        while running:
            pool, future = running[0]
            try:
                result = future.result()
            finally:
                pool.shutdown(wait=True)
            running.popleft()
            for item in itertools.islice(waiting, 1):
                running.append(start(item))
            yield result
    finally:
        # a caller that stops early (check -x) waits only for the files being checked now
        for pool, _ in running:
            pool.shutdown(wait=True, cancel_futures=True)
