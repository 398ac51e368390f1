"""Running a sweep: every combination of the cards, each searched by `explore` as a scope of its own,
on a local pool of worker processes or on a Dask distributed cluster, with each result written to
the results database as it arrives (the client, this process, is the only writer).

A worker gets the repository's folder, the combination's name and its scope's text, and returns
plain values; on a cluster, every worker must have regcheck installed and see the repository at the same
path, or at the path in its own `REGCHECK_SWEEP_ROOT`. The rule base is read once per worker process.

Every task carries the sweep's `WorkerIdentity` (regcheck's version, a digest of its code, a digest of the
rule base: rules/, encodings/ and rules.lock). A worker whose own differs reads its repository again (its
files may have changed since it last read them) and, when it still differs, refuses before it answers: the
sweep then ends with a `ClusterError`, as it does when the cluster's scheduler is lost. A combination is
recorded only once a worker has answered it, so the results written so far are kept and the same command
run again continues from the database.
"""

from __future__ import annotations

__all__ = ["SweepOptions", "SweepProgress", "SweepSummary", "WorkerIdentity", "run_sweep", "run_combination",
           "rules_fingerprint", "worker_identity", "worker_repository", "run_local", "run_on_cluster", "WORKER_ROOT"]

import hashlib
import itertools
import logging
import os
import socket
import time
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from ..errors import CaseRefused, ClusterError, RegcheckError, UsageError
from ..explore.search import DEFAULT_MAX_SCENARIOS
from ..solver.engine import DEFAULT_TIMEOUT_MS
from .pool import CardPool, SweepCard, cards_fingerprint
from .store import RunIdentity, open_store
from .template import DEFAULT_TEMPLATE, SweepTemplate, combination_key, combination_name, scope_text, template_fingerprint

MAX_SIZE = 3
CONNECT_SECONDS = 10  # how long a sweep waits for the Dask scheduler to answer
WORKER_ROOT = "REGCHECK_SWEEP_ROOT"  # a cluster worker's own path of the rules repository


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
    refused: int
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


class WorkerIdentity(NamedTuple):
    """What a worker must share with a sweep to answer for it: regcheck's version, a digest of its code (the
    files of the package), and a digest of the rule base it reads (rules/, encodings/ and rules.lock)."""

    version: str
    code: str
    rules: str


def worker_identity(root: Path) -> WorkerIdentity:
    """This process's regcheck and the rule base of the repository at `root`, as a sweep's worker must match them."""
    from .. import __version__
    from ..resultcache import code_fingerprint

    digest = hashlib.sha256(rules_fingerprint(root).encode() + b"\0")
    lock = root / "rules.lock"
    digest.update(lock.read_bytes() if lock.is_file() else b"")
    return WorkerIdentity(__version__, code_fingerprint(), digest.hexdigest()[:16])


_held: dict[str, tuple[Any, WorkerIdentity]] = {}  # by root: the repository this process read, and its identity


def worker_repository(root: str, expected: WorkerIdentity | None = None, own_root: bool = False) -> Any:
    """The repository at `root` as this process read it; read again when it differs from the sweep's `expected`
    identity (a worker that outlives a sweep, and files changed since). Raises ClusterError when it still does.
    With `own_root`, the repository at this process's `REGCHECK_SWEEP_ROOT` when that is set."""
    if own_root and os.environ.get(WORKER_ROOT):
        root = str(Path(os.environ[WORKER_ROOT]).resolve())
    if expected is not None:
        expected = WorkerIdentity(*expected)  # as a cluster's worker may receive it: a plain tuple
    held = _held.get(root)
    if held is None or (expected is not None and held[1] != expected):
        from ..repository import open_repository

        before = worker_identity(Path(root))
        repo = open_repository(Path(root))
        repo.document()
        if worker_identity(Path(root)) != before:
            raise ClusterError(f"worker {_worker()} refused the sweep: the rules repository at {root} changed while "
                               "it read it")
        _held[root] = held = (repo, before)
    if expected is not None and held[1] != expected:
        raise ClusterError(_refusal(root, held[1], expected))
    return held[0]


def _worker() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _refusal(root: str, held: WorkerIdentity, expected: WorkerIdentity) -> str:
    if held.version != expected.version:
        what = f"runs regcheck {held.version}, the sweep regcheck {expected.version}"
    elif held.code != expected.code:
        what = f"runs regcheck {held.version} with other code than the sweep's (its files differ)"
    else:
        what = f"reads another rule base at {root} (fingerprint {held.rules}, the sweep's {expected.rules})"
    return (f"worker {_worker()} refused the sweep: it {what}; every worker must run the same regcheck and read "
            "the same rules/, encodings/ and rules.lock")


def _finding_json(f: Any) -> dict[str, Any]:
    return {"verdict": f.verdict, "symbol": f.symbol, "at_fault": list(f.at_fault),
            "at_fault_from": f.at_fault_from, "rules": list(f.rules),
            "question": f.question,
            "attempts": list(f.attempts), "turns": f.turns, "cards": list(f.cards), "scenarios": f.scenarios,
            "case": f.case}


def run_combination(root: str, name: str, text: str, timeout_ms: int, memory_mb: int | None,
                    max_scenarios: int, expected: WorkerIdentity | None = None, own_root: bool = False) -> dict[str, Any]:
    """Search one combination's scope (in a worker): its status, scenario count, findings, and timing. With
    `expected`, a worker whose regcheck or rule base differs refuses (ClusterError) before it searches; with
    `own_root`, a worker reads the repository at its `REGCHECK_SWEEP_ROOT` when that is set."""
    from ..explore.baseline import explore
    from ..explore.scope import ScopeText
    from ..explore.search import ExploreOptions

    repository = worker_repository(root, expected, own_root)
    started, cpu = time.perf_counter(), time.process_time()
    worker = _worker()

    def timing() -> dict[str, Any]:
        return {"seconds": round(time.perf_counter() - started, 3), "cpu_seconds": round(time.process_time() - cpu, 3),
                "worker": worker}

    try:
        report = explore(repository, [ScopeText(name, text)], ExploreOptions(timeout_ms, memory_mb, 1, max_scenarios))
    except CaseRefused as err:
        # what a real card says and regcheck does not model could change the scope's answers
        return {"status": "refused", "scenarios": None, "findings": [], "error": str(err), **timing()}
    except RegcheckError as err:
        return {"status": "failed", "scenarios": None, "findings": [], "error": str(err), **timing()}
    except Exception as err:  # a combination that breaks regcheck is recorded, and the sweep goes on
        return {"status": "failed", "scenarios": None, "findings": [],
                "error": f"internal error: {type(err).__name__}: {err}", **timing()}
    result = report.scopes[0].result
    return {"status": "done" if result.complete else "unknown", "scenarios": result.scenarios,
            "findings": [_finding_json(f) for f in result.findings], "error": "; ".join(result.incomplete), **timing()}


Job = tuple[int, tuple[Any, ...]]  # a combination's position, and the arguments of the work done on it
Work = Callable[..., Any]  # the work done on one combination, in a worker: a function of the module (workers import it)


def run_local(work: Work, jobs: Iterator[Job], workers: int) -> Iterator[tuple[int, Any]]:
    """`work` done on each job, on `workers` local processes forked from this one (which inherit what it has read),
    each result with its job's position as it arrives."""
    if workers <= 1:
        for position, args in jobs:
            yield position, work(*args)
        return
    from concurrent.futures import FIRST_COMPLETED, Future, wait

    from ..processes import forked_pool

    with forked_pool(workers) as pool:
        running: dict[Future[Any], int] = {}
        for position, args in itertools.islice(jobs, 2 * workers):
            running[pool.submit(work, *args)] = position
        while running:
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                yield running.pop(future), future.result()
                for position, args in itertools.islice(jobs, 1):
                    running[pool.submit(work, *args)] = position


KEPT = "the results written so far are kept"


def run_on_cluster(address: str, work: Work, jobs: Iterator[Job], failed: Callable[[str], Any],
                   kept: str | None = KEPT) -> Iterator[tuple[int, Any]]:
    """`work` done on each job on the Dask cluster of the scheduler at `address` (called with `own_root=True`: a
    worker reads the repository at its own `REGCHECK_SWEEP_ROOT`), each result with its job's position as it
    arrives; a job the cluster could not run gets `failed(why)`. A lost scheduler, or a worker of another regcheck
    or rule base, ends it with a ClusterError, whose message says what is `kept` of the results (None: a run that
    keeps none, to run again)."""
    try:
        from dask.distributed import Client, as_completed
    except ImportError:
        raise UsageError("--scheduler needs Dask distributed: pip install 'regcheck[sweep]'") from None
    lost = (f"lost the Dask scheduler at {address}: {kept}; run the same command again to continue" if kept
            else f"lost the Dask scheduler at {address}: run the same command again once it is back")
    # Dask's own log lines of a lost scheduler (the client's, its connections' tracebacks) would only repeat, less
    # clearly, the error this ends with
    with _quiet_dask_logs():
        try:
            client = Client(address, timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError) as err:
            raise UsageError(f"cannot reach the Dask scheduler at {address} within {CONNECT_SECONDS} s: {err}") from None
        try:
            threads = max(sum(client.nthreads().values()), 1)
            position_of: dict[Any, int] = {}

            def submit(job: Job) -> Any:
                future = client.submit(work, *job[1], own_root=True, pure=False)
                position_of[future] = job[0]
                return future

            queue = as_completed([submit(j) for j in itertools.islice(jobs, 2 * threads)])
            for future in queue:
                position = position_of.pop(future)
                try:
                    result = future.result()
                except ClusterError as err:  # a worker of another regcheck or rule base
                    raise ClusterError(f"{err}; {kept + ': ' if kept else ''}run the same command again once every "
                                       "worker does") from None
                except CancelledError:  # the client cancels every task when it loses the scheduler
                    raise ClusterError(lost) from None
                except Exception as err:  # the cluster lost the task (a worker died past its retries)
                    if client.status not in ("running", "connecting"):
                        raise ClusterError(lost) from None
                    # the task may fail as the scheduler goes, before the client notices: a call to the scheduler
                    # tells (an OSError, below, when it is gone)
                    client.nthreads()
                    result = failed(f"the cluster could not run it: {type(err).__name__}: {err}")
                yield position, result
                for job in itertools.islice(jobs, 1):
                    queue.add(submit(job))
        except OSError:  # the scheduler's connection closed under a call
            raise ClusterError(lost) from None
        finally:
            client.close()


@contextmanager
def _quiet_dask_logs() -> Iterator[None]:
    """Within it, every logger of Dask distributed is silent but for critical lines; their levels are put back
    after."""
    names = ["distributed", *(n for n in logging.root.manager.loggerDict if n.startswith("distributed."))]
    levels = {n: logging.getLogger(n).level for n in names}
    for n in names:
        logging.getLogger(n).setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for n, level in levels.items():
            logging.getLogger(n).setLevel(level)


def _failed(why: str) -> dict[str, Any]:
    return {"status": "failed", "scenarios": None, "findings": [], "seconds": 0.0, "cpu_seconds": 0.0, "worker": "",
            "error": why}


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
    expected = worker_identity(root.resolve())
    worker_repository(str(root.resolve()), expected)  # read before the workers are forked, which inherit it
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
                yield position, (str(root.resolve()), combination_name(cards), scope_text(cards, options.template),
                                 options.timeout_ms, options.memory_mb, options.max_scenarios, expected)

        if options.scheduler:
            results = run_on_cluster(options.scheduler, run_combination, jobs(), _failed)
            where = f"Dask cluster at {options.scheduler}"
        else:
            workers = max(1, min(options.jobs or os.cpu_count() or 1, len(pending) or 1))
            results = run_local(run_combination, jobs(), workers)
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
                progress(SweepProgress(len(combos) - counts["pending"], len(combos), counts["refused"], counts["failed"],
                                       counts["unknown"], with_findings, pace, left / pace * 60 if pace else None))
        seconds = time.perf_counter() - started
        return SweepSummary(len(combos), store.counts(), ran, round(seconds, 3),
                            round(ran / seconds * 60, 2) if seconds > 0 else 0.0, where)
