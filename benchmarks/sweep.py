"""Print what a sweep of card pairs costs: the number of combinations, and the throughput (combinations per
minute) and CPU seconds per combination of an evenly spaced sample of them, on local worker processes and
on local Dask clusters.

The sample is every `len(pairs) // --sample`-th pair of the modelled cards of `--cards`, in the sweep's
order, searched with the default scope template (or the one given). Each setting runs the same sample:
`--jobs` local worker processes, then, with `--dask`, a Dask cluster of each number of worker processes
(one thread each) started on 127.0.0.1 for the purpose. Run it with the interpreter regcheck is
installed in:

    .venv/bin/python benchmarks/sweep.py --sample 8 --jobs 1 2 --dask 1 2 4
"""

from __future__ import annotations

import argparse
import itertools
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from verifier.sweep import DEFAULT_TEMPLATE, select_cards  # noqa: E402
from verifier.sweep.run import _cluster, _local, _repository  # noqa: E402
from verifier.sweep.template import combination_name, scope_text  # noqa: E402


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _measure(results: object, count: int) -> tuple[float, list[dict[str, object]]]:
    started = time.perf_counter()
    out = [r for _, r in sorted(results, key=lambda pr: pr[0])]  # type: ignore[attr-defined]  # in the sample's order
    seconds = time.perf_counter() - started
    assert len(out) == count
    return count / seconds * 60, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cards", default="set-aside,heal")
    parser.add_argument("--sample", type=int, default=8, help="pairs in the sample")
    parser.add_argument("--jobs", type=int, nargs="*", default=[1, 2], help="local worker processes to try")
    parser.add_argument("--dask", type=int, nargs="*", default=[], help="Dask worker processes to try")
    args = parser.parse_args()
    pool = select_cards(args.cards.split(","))
    pairs = list(itertools.combinations(pool.cards, 2))
    step = max(len(pairs) // args.sample, 1)
    sample = pairs[::step][:args.sample]
    print(f"{len(pool.cards)} cards ({len(pool.skipped)} left out), {len(pairs)} pairs; sample: every {step}th, "
          f"{len(sample)} pairs; template {DEFAULT_TEMPLATE.json()}")
    jobs = [(i, combination_name(c), scope_text(c, DEFAULT_TEMPLATE)) for i, c in enumerate(sample)]
    root = str(ROOT)
    _repository(root)
    call = (root, 10_000, None, 20_000)
    for n in args.jobs:
        pace, out = _measure(_local(iter(jobs), call, n), len(jobs))
        cpu = [float(r["cpu_seconds"]) for r in out]  # type: ignore[arg-type]
        print(f"local, {n} worker(s): {pace:.2f} combinations/min; CPU s per combination: mean {statistics.mean(cpu):.1f}, "
              f"median {statistics.median(cpu):.1f}, max {max(cpu):.1f}; findings in {sum(bool(r['findings']) for r in out)}")
        for (_, name, _), r in zip(jobs, out):
            print(f"    {name}: {r['status']}, {r['scenarios']} scenarios, {r['cpu_seconds']} s CPU, "
                  f"{r['seconds']} s, {len(r['findings'])} findings")  # type: ignore[arg-type]
    for n in args.dask:
        address = f"tcp://127.0.0.1:{_free_port()}"
        dask = [sys.executable, "-m"]
        scheduler = subprocess.Popen([*dask, "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port",
                                      address.rsplit(":", 1)[1], "--no-dashboard"], stderr=subprocess.DEVNULL)
        workers = subprocess.Popen([*dask, "distributed.cli.dask_worker", address, "--nworkers", str(n), "--nthreads", "1",
                                    "--no-dashboard", "--host", "127.0.0.1"], stderr=subprocess.DEVNULL)
        try:
            from distributed import Client

            with Client(address, timeout=60) as client:
                client.wait_for_workers(n, timeout=120)
            pace, out = _measure(_cluster(address, iter(jobs), call), len(jobs))
            print(f"Dask, {n} worker process(es): {pace:.2f} combinations/min")
        finally:
            for p in (workers, scheduler):
                p.terminate()
                p.wait()


if __name__ == "__main__":
    main()
