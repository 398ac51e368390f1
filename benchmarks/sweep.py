"""Print what a sweep of card pairs costs: the number of combinations, and the throughput (combinations per
minute) and CPU seconds per combination of an evenly spaced sample of them, on local worker processes and
on local Dask clusters; with `--against DIR`, side by side with another checkout.

The sample is every `len(pairs) // --sample`-th pair of the modelled cards of `--cards` (of the deck list
`--deck`, when given), in the sweep's order, searched with the default scope template, or with the one
`--turns`, `--phases`, `--attempts`, `--per-phase` and `--max-attempts` give. Each setting runs the same
sample: `--jobs` local worker processes, then, with `--dask`, a Dask cluster of each number of worker
processes (one thread each) started on 127.0.0.1 for the purpose. Run it with the interpreter regcheck is
installed in:

    .venv/bin/python benchmarks/sweep.py --sample 8 --jobs 1 2 --dask 1 2 4
    .venv/bin/python benchmarks/sweep.py --deck examples/sample-deck.txt --sample 100 --jobs 2 --against ../before --runs 3
    .venv/bin/python benchmarks/sweep.py --deck benchmarks/set-aside-and-heal-38.txt --sample 6 --jobs 2 \\
        --turns 2 --phases Draw,Upkeep,Preparation,Battle,Discard

With `--against DIR` (another checkout, such as a git worktree of an earlier commit), each run of the sample on
local workers is a process of its own, this checkout's and DIR's in turn (`--runs` pairs), each with its own
code and rule base and the same sample and template; the medians are printed side by side, with whether the
two found the same (each combination's status, scenarios and findings). The other checkout must have
`verifier.sweep.run.run_local` and `run_combination` as this one has.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _sample(args: argparse.Namespace) -> tuple[Any, list[tuple[int, str, str]], str]:
    """The pool, the sample's jobs (position, combination's name, scope text) and a line describing them, as the
    checkout whose `verifier` is imported makes them."""
    from verifier.sweep import DEFAULT_TEMPLATE, select_cards
    from verifier.sweep.template import SweepTemplate, combination_name, scope_text

    names = None
    if args.deck:
        from verifier.sweep.deck import read_deck

        names = [e.name for e in read_deck(Path(args.deck))]
    pool = select_cards(args.cards.split(","), names)
    template = DEFAULT_TEMPLATE
    given = {k: v for k, v in (("turns", args.turns), ("phases", args.phases), ("attempts", args.attempts),
                               ("per_phase", args.per_phase), ("max_attempts", args.max_attempts)) if v is not None}
    if given:
        for k in ("phases", "attempts"):
            if k in given:
                given[k] = tuple(given[k].split(","))
        template = SweepTemplate(**{**DEFAULT_TEMPLATE.__dict__, **given})
    pairs = list(itertools.combinations(pool.cards, 2))
    step = max(len(pairs) // args.sample, 1)
    sample = pairs[::step][:args.sample]
    line = (f"{len(pool.cards)} cards ({len(pool.skipped)} left out), {len(pairs)} pairs; sample: every {step}th, "
            f"{len(sample)} pairs; template {template.json()}")
    return pool, [(i, combination_name(c), scope_text(c, template)) for i, c in enumerate(sample)], line


def _measure(results: Any, count: int) -> tuple[float, list[dict[str, Any]]]:
    started = time.perf_counter()
    out = [r for _, r in sorted(results, key=lambda pr: pr[0])]  # in the sample's order
    seconds = time.perf_counter() - started
    assert len(out) == count
    return count / seconds * 60, out


def _local_run(root: str, jobs: list[tuple[int, str, str]], workers: int) -> tuple[float, list[dict[str, Any]]]:
    from verifier.sweep.run import run_combination, run_local, worker_repository

    worker_repository(root)  # read once here, as `regcheck sweep` does: the workers forked from here inherit it
    work = [(i, (root, name, text, 10_000, None, 20_000)) for i, name, text in jobs]
    return _measure(run_local(run_combination, iter(work), workers), len(jobs))


def _child(args: argparse.Namespace) -> None:
    """One run of the sample on local workers, by the checkout at `--code` (imported first): JSON on stdout."""
    sys.path.insert(0, args.code)
    os.chdir(args.code)
    _, jobs, line = _sample(args)
    pace, out = _local_run(args.code, jobs, args.jobs[0])
    json.dump({"line": line, "pace": pace, "results": out}, sys.stdout)


def _same(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> bool:
    def kept(r: dict[str, Any]) -> tuple[Any, ...]:
        return r["status"], r["scenarios"], json.dumps(r["findings"], sort_keys=True)
    return [kept(r) for r in a] == [kept(r) for r in b]


def _child_args(args: argparse.Namespace) -> list[str]:
    """The options of a child run (`--code`): the sample, the template, and the first of `--jobs`."""
    out = ["--cards", args.cards, "--sample", str(args.sample), "--jobs", str(args.jobs[0])]
    if args.deck:
        out += ["--deck", args.deck]
    for flag, value in (("--turns", args.turns), ("--phases", args.phases), ("--attempts", args.attempts),
                        ("--per-phase", args.per_phase), ("--max-attempts", args.max_attempts)):
        if value is not None:
            out += [flag, str(value)]
    return out


def _paired(args: argparse.Namespace, passed: list[str]) -> None:
    roots = {"this": str(ROOT), "against": str(Path(args.against).resolve())}
    runs: dict[str, list[tuple[float, float, list[dict[str, Any]]]]] = {k: [] for k in roots}
    for n in range(args.runs):
        for label, root in (roots.items() if n % 2 == 0 else reversed(list(roots.items()))):
            cpu = _children_cpu()
            done = subprocess.run([sys.executable, __file__, "--code", root, *passed], capture_output=True, text=True,
                                  env={**os.environ, "PYTHONPATH": root})
            cpu = _children_cpu() - cpu
            if done.returncode != 0:
                raise SystemExit(f"the run of {root} failed:\n{done.stderr}")
            report = json.loads(done.stdout)
            if n == 0:
                print(f"{label} ({root}): {report['line']}")
            runs[label].append((report["pace"], cpu, report["results"]))
            print(f"  run {n + 1}, {label}: {report['pace']:.2f} combinations/min, {cpu:.1f} s CPU", flush=True)
    pace = {k: statistics.median(r[0] for r in v) for k, v in runs.items()}
    cpu = {k: statistics.median(r[1] for r in v) for k, v in runs.items()}
    same = all(_same(a[2], b[2]) for a in runs["this"] for b in runs["against"])
    print(f"local, {args.jobs[0]} worker(s), medians of {args.runs}: {pace['this']:.2f} against {pace['against']:.2f} "
          f"combinations/min ({pace['this'] / pace['against']:.2f} x); CPU {cpu['this']:.1f} s against "
          f"{cpu['against']:.1f} s ({cpu['against'] / cpu['this']:.2f} x); the same results: {'yes' if same else 'NO'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cards", default="set-aside,heal")
    parser.add_argument("--deck", help="combine the cards of this deck list")
    parser.add_argument("--sample", type=int, default=8, help="pairs in the sample")
    parser.add_argument("--jobs", type=int, nargs="*", default=[1, 2], help="local worker processes to try")
    parser.add_argument("--dask", type=int, nargs="*", default=[], help="Dask worker processes to try")
    parser.add_argument("--turns", type=int)
    parser.add_argument("--phases")
    parser.add_argument("--attempts")
    parser.add_argument("--per-phase", type=int)
    parser.add_argument("--max-attempts", type=int)
    parser.add_argument("--against", help="another checkout, run in turn with this one (local workers only)")
    parser.add_argument("--runs", type=int, default=3, help="pairs of runs with --against")
    parser.add_argument("--code", help=argparse.SUPPRESS)  # a child run of --against
    args = parser.parse_args()
    if args.code:
        return _child(args)
    if args.deck:
        args.deck = str(Path(args.deck).resolve())
    if args.against:
        return _paired(args, _child_args(args))
    sys.path.insert(0, str(ROOT))
    _, jobs, line = _sample(args)
    print(line)
    root = str(ROOT)
    for n in args.jobs:
        pace, out = _local_run(root, jobs, n)
        cpu = [float(r["cpu_seconds"]) for r in out]
        print(f"local, {n} worker(s): {pace:.2f} combinations/min; CPU s per combination: mean {statistics.mean(cpu):.1f}, "
              f"median {statistics.median(cpu):.1f}, max {max(cpu):.1f}; findings in {sum(bool(r['findings']) for r in out)}")
        for (_, name, _), r in zip(jobs, out):
            print(f"    {name}: {r['status']}, {r['scenarios']} scenarios, {r['cpu_seconds']} s CPU, "
                  f"{r['seconds']} s, {len(r['findings'])} findings")
    for n in args.dask:
        address = f"tcp://127.0.0.1:{_free_port()}"
        dask = [sys.executable, "-m"]
        scheduler = subprocess.Popen([*dask, "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port",
                                      address.rsplit(":", 1)[1], "--no-dashboard"], stderr=subprocess.DEVNULL)
        workers = subprocess.Popen([*dask, "distributed.cli.dask_worker", address, "--nworkers", str(n), "--nthreads", "1",
                                    "--no-dashboard", "--host", "127.0.0.1"], stderr=subprocess.DEVNULL)
        try:
            from distributed import Client

            from verifier.sweep.run import run_combination, run_on_cluster

            with Client(address, timeout=60) as client:
                client.wait_for_workers(n, timeout=120)
            work = [(i, (root, name, text, 10_000, None, 20_000)) for i, name, text in jobs]
            pace, out = _measure(run_on_cluster(address, run_combination, iter(work), lambda why: {"status": why}),
                                 len(jobs))
            print(f"Dask, {n} worker process(es): {pace:.2f} combinations/min")
        finally:
            for p in (workers, scheduler):
                p.terminate()
                p.wait()


if __name__ == "__main__":
    main()
