"""Time `regcheck gate` on a cold cache, this checkout beside another, in one run.

Each run is a whole process, `regcheck gate --no-cache --format json --jobs J` on the checkout's own
repository (its code, rules and cases), this checkout's and `--against DIR`'s in turn, alternating, so
that both meet the same load on a shared machine. With `--cold-cache` the result cache is on and empty
instead: the checkout's `.regcheck_cache/` is taken away before each run (the run fills it). Prints the
median user CPU (of every process the run made), system CPU and wall time of each, their ratio, and
whether every run of both gave one report, byte for byte (when both checkouts hold the same rules and
cases).

    .venv/bin/python benchmarks/gate.py --against ../base              # 3 paired runs, --jobs 2
    .venv/bin/python benchmarks/gate.py --against ../base --runs 5 --jobs 1
    .venv/bin/python benchmarks/gate.py --against ../base --cold-cache
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _children() -> tuple[float, float]:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime, usage.ru_stime


def run(root: Path, jobs: int, cold_cache: bool = False) -> tuple[float, float, float, str]:
    """One cold gate of the checkout at `root` (with `cold_cache`, on an empty result cache of its own): user CPU,
    system CPU, wall seconds, and its JSON report."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    if cold_cache:
        env.pop("REGCHECK_CACHE_DIR", None)
        shutil.rmtree(root / ".regcheck_cache", ignore_errors=True)
    user, system = _children()
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "verifier", "gate", *([] if cold_cache else ["--no-cache"]),
                           "--format", "json", "--jobs", str(jobs)], cwd=root, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - started
    after_user, after_system = _children()
    if done.returncode not in (0, 1):
        raise SystemExit(f"regcheck gate in {root} failed ({done.returncode}):\n{done.stderr}")
    return after_user - user, after_system - system, wall, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, required=True, metavar="DIR",
                        help="another checkout (a git worktree of an earlier commit) to time beside this one")
    parser.add_argument("--runs", type=int, default=3, help="paired runs; medians are printed (default 3)")
    parser.add_argument("--jobs", type=int, default=2, help="the gate's --jobs (default 2)")
    parser.add_argument("--cold-cache", action="store_true",
                        help="run with the result cache on, each run on an empty one, instead of --no-cache")
    args = parser.parse_args()
    roots = {"this checkout": ROOT, "--against": args.against.resolve()}
    figures: dict[str, list[tuple[float, float, float]]] = {name: [] for name in roots}
    reports: dict[str, set[str]] = {name: set() for name in roots}
    for i in range(args.runs):
        order = list(roots) if i % 2 == 0 else list(reversed(roots))
        for name in order:
            user, system, wall, report = run(roots[name], args.jobs, args.cold_cache)
            figures[name].append((user, system, wall))
            reports[name].add(report)
            print(f"run {i + 1} {name}: {user:.1f} s user, {system:.1f} s system, {wall:.1f} s wall", flush=True)
    medians = {name: tuple(statistics.median(f[k] for f in figures[name]) for k in range(3)) for name in roots}
    how = "with the result cache on, each run on an empty one," if args.cold_cache else "--no-cache"
    print(f"\nregcheck gate {how} --jobs {args.jobs}, medians of {args.runs} alternated runs "
          f"(--against: {roots['--against']})")
    print(f"{'':<15} {'user CPU':>10} {'system':>10} {'wall':>10}")
    for name in roots:
        user, system, wall = medians[name]
        print(f"{name:<15} {user:>9.1f}s {system:>9.1f}s {wall:>9.1f}s")
    ratio = medians["this checkout"][0] / medians["--against"][0]
    print(f"user CPU, this checkout / --against: {ratio:.2f}")
    same = len(reports["this checkout"] | reports["--against"]) == 1
    print(f"every run's report the same, byte for byte: {'yes' if same else 'no'}")


if __name__ == "__main__":
    main()
