"""Running a sweep: every combination of the cards, each searched by `explore` as a scope of its own,
on a local pool of worker processes or on a Dask distributed cluster, with each result written to
the results database as it arrives (the client, this process, is the only writer).

A worker gets the repository's folder, the combination's name and its scope's text, and returns
plain values; on a cluster, every worker must see the repository at the same path and have regcheck
installed. The rule base is read once per worker process.
"""

from __future__ import annotations

__all__ = ["SweepOptions", "SweepProgress", "SweepSummary", "run_sweep", "run_combination", "rules_fingerprint"]

import functools
import hashlib
import itertools
import os
import socket
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from ..errors import RegcheckError, UsageError
from ..explore.search import DEFAULT_MAX_SCENARIOS
from ..solver.engine import DEFAULT_TIMEOUT_MS
from .pool import CardPool, SweepCard, cards_fingerprint
from .store import RunIdentity, open_store
from .template import DEFAULT_TEMPLATE, SweepTemplate, combination_key, combination_name, scope_text, template_fingerprint

MAX_SIZE = 3
CONNECT_SECONDS = 10  # how long a sweep waits for the Dask scheduler to answer


@dataclass(frozen=True)
class SweepOptions:
    """How a sweep runs: the combination size, the scope template, solver limits, and where it runs."""

    size: int = 2
    template: SweepTemplate = DEFAULT_TEMPLATE
    timeout_ms: int = DEFAULT_TIMEOUT_MS
    memory_mb: int | None = None
    max_scenarios: int = DEFAULT_MAX_SCENARIOS
    jobs: int | None = None  # local worker processes (default: one per processor)
    scheduler: str | None = None  # a Dask scheduler's address; the sweep then runs on its cluster
    retry_failed: bool = False  # give failed and unknown combinations another try
    limit: int | None = None  # run at most this many of the pending combinations (to measure a sample)


class SweepProgress(NamedTuple):
    """Where a running sweep stands: results in the database (of all runs of it), and the pace of this run."""

    finished: int
    total: int
    failed: int
    unknown: int
    with_findings: int
    per_minute: float  # of this run
    eta_seconds: float | None  # for the pending combinations, at this run's pace


class SweepSummary(NamedTuple):
    """What one run of the sweep command did."""

    total: int  # combinations of the sweep
    counts: dict[str, int]  # rows by status after this run
    ran: int  # results written by this run
    seconds: float
    per_minute: float
    workers: str  # where it ran


def rules_fingerprint(root: Path) -> str:
    """A fingerprint of the rule base a sweep checks against: the bytes of rules/ and encodings/, and
    regcheck's version."""
    from .. import __version__

    digest = hashlib.sha256(__version__.encode() + b"\0")
    for folder in ("rules", "encodings"):
        for f in sorted((root / folder).rglob("*")):
            if f.is_file():
                digest.update(f.relative_to(root).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


@functools.lru_cache(maxsize=4)
def _repository(root: str) -> Any:
    from ..repository import open_repository

    return open_repository(Path(root))


def _finding_json(f: Any) -> dict[str, Any]:
    return {"verdict": f.verdict, "symbol": f.symbol, "rules": list(f.rules), "question": f.question,
            "attempts": list(f.attempts), "turns": f.turns, "cards": list(f.cards), "scenarios": f.scenarios,
            "case": f.case}


def run_combination(root: str, name: str, text: str, timeout_ms: int, memory_mb: int | None,
                    max_scenarios: int) -> dict[str, Any]:
    """Search one combination's scope (in a worker): its status, scenario count, findings, and timing."""
    from ..explore.baseline import explore
    from ..explore.scope import ScopeText
    from ..explore.search import ExploreOptions

    started, cpu = time.perf_counter(), time.process_time()
    worker = f"{socket.gethostname()}:{os.getpid()}"

    def timing() -> dict[str, Any]:
        return {"seconds": round(time.perf_counter() - started, 3), "cpu_seconds": round(time.process_time() - cpu, 3),
                "worker": worker}

    try:
        report = explore(_repository(root), [ScopeText(name, text)], ExploreOptions(timeout_ms, memory_mb, 1, max_scenarios))
    except RegcheckError as err:
        return {"status": "failed", "scenarios": None, "findings": [], "error": str(err), **timing()}
    except Exception as err:  # a combination that breaks regcheck is recorded, and the sweep goes on
        return {"status": "failed", "scenarios": None, "findings": [],
                "error": f"internal error: {type(err).__name__}: {err}", **timing()}
    result = report.scopes[0].result
    return {"status": "done" if result.complete else "unknown", "scenarios": result.scenarios,
            "findings": [_finding_json(f) for f in result.findings], "error": "; ".join(result.incomplete), **timing()}


Job = tuple[int, str, str]  # position, name, scope text


def _local(jobs: Iterator[Job], args: tuple[Any, ...], workers: int) -> Iterator[tuple[int, dict[str, Any]]]:
    if workers <= 1:
        for position, name, text in jobs:
            yield position, run_combination(args[0], name, text, *args[1:])
        return
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

    from ..runner import _end_with_parent

    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"),
                             initializer=_end_with_parent, initargs=(os.getpid(),)) as pool:
        running: dict[Future[dict[str, Any]], int] = {}
        for position, name, text in itertools.islice(jobs, 2 * workers):
            running[pool.submit(run_combination, args[0], name, text, *args[1:])] = position
        while running:
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                yield running.pop(future), future.result()
                for position, name, text in itertools.islice(jobs, 1):
                    running[pool.submit(run_combination, args[0], name, text, *args[1:])] = position


def _cluster(address: str, jobs: Iterator[Job], args: tuple[Any, ...]) -> Iterator[tuple[int, dict[str, Any]]]:
    try:
        from dask.distributed import Client, as_completed
    except ImportError:
        raise UsageError("--scheduler needs Dask distributed: pip install 'regcheck[sweep]'") from None
    try:
        client = Client(address, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError) as err:
        raise UsageError(f"cannot reach the Dask scheduler at {address} within {CONNECT_SECONDS} s: {err}") from None
    try:
        threads = max(sum(client.nthreads().values()), 1)
        position_of: dict[Any, int] = {}

        def submit(job: Job) -> Any:
            future = client.submit(run_combination, args[0], job[1], job[2], *args[1:], pure=False)
            position_of[future] = job[0]
            return future

        queue = as_completed([submit(j) for j in itertools.islice(jobs, 2 * threads)])
        for future in queue:
            position = position_of.pop(future)
            try:
                result = future.result()
            except Exception as err:  # the cluster lost the task (a worker died past its retries)
                result = {"status": "failed", "scenarios": None, "findings": [], "seconds": 0.0, "cpu_seconds": 0.0, "worker": "",
                          "error": f"the cluster could not run it: {type(err).__name__}: {err}"}
            yield position, result
            for job in itertools.islice(jobs, 1):
                queue.add(submit(job))
    finally:
        client.close()


def run_sweep(root: Path, pool: CardPool, database: Path, options: SweepOptions,
              progress: Callable[[SweepProgress], None] | None = None) -> SweepSummary:
    """Run (or continue) the sweep of every combination of `options.size` of the pool's cards, writing
    each result to `database` as it arrives."""
    if not 2 <= options.size <= MAX_SIZE:
        raise UsageError(f"combinations of 2 to {MAX_SIZE} cards")
    combos = list(itertools.combinations(pool.cards, options.size))
    identity = RunIdentity(rules_fingerprint(root), cards_fingerprint(pool), template_fingerprint(options.template),
                           {**options.template.json(), "size": options.size}, [c._asdict() for c in pool.cards],
                           [c._asdict() for c in pool.skipped])
    by_name = {c.name: c for c in pool.cards}
    _repository(str(root.resolve()))  # read before the workers are forked, which inherit it
    started = time.perf_counter()
    with open_store(database, identity, [(combination_key(c), tuple(x.name for x in c)) for c in combos]) as store:
        if options.retry_failed:
            store.retry_failed()
        pending = store.pending()
        if options.limit is not None:
            pending = pending[:options.limit]

        def jobs() -> Iterator[Job]:
            for position, _, names in pending:
                cards: list[SweepCard] = [by_name[n] for n in names]
                yield position, combination_name(cards), scope_text(cards, options.template)

        args = (str(root.resolve()), options.timeout_ms, options.memory_mb, options.max_scenarios)
        if options.scheduler:
            results = _cluster(options.scheduler, jobs(), args)
            where = f"Dask cluster at {options.scheduler}"
        else:
            workers = max(1, min(options.jobs or os.cpu_count() or 1, len(pending) or 1))
            results = _local(jobs(), args, workers)
            where = f"{workers} local worker process{'es' if workers > 1 else ''}"
        counts = store.counts()
        with_findings = store.db.execute(
            "SELECT COUNT(*) FROM combination WHERE findings IS NOT NULL AND findings != '[]'").fetchone()[0]
        ran = 0
        for position, r in results:
            if store.record(position, r["status"], r["scenarios"], r["findings"], r["error"], r["seconds"],
                            r["cpu_seconds"], r["worker"]):
                ran += 1
                counts["pending"] -= 1
                counts[r["status"]] += 1
                with_findings += bool(r["findings"])
            if progress:
                elapsed = time.perf_counter() - started
                pace = ran / elapsed * 60 if elapsed > 0 else 0.0
                left = counts["pending"] if options.limit is None else len(pending) - ran
                progress(SweepProgress(len(combos) - counts["pending"], len(combos), counts["failed"], counts["unknown"],
                                       with_findings, pace, left / pace * 60 if pace else None))
        seconds = time.perf_counter() - started
        return SweepSummary(len(combos), store.counts(), ran, round(seconds, 3),
                            round(ran / seconds * 60, 2) if seconds > 0 else 0.0, where)
