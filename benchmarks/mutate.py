"""Mutation analysis against the naive way, measured side by side in one run.

Prints the time of a full run of the chosen mutant kinds over every rule (default: deletions) with
`regcheck mutate`'s engine (each case grounded once, rules switched by assumptions, a mutant run only where
it can change something and only until a case kills it), and the time per mutant of the naive way (the
mutated rule base checked in full on every case) on an evenly spaced sample of the same mutants, with
whether both give every sampled mutant the same fate. `--runs N` repeats both and prints medians.

    .venv/bin/python benchmarks/mutate.py                       # deletions, 4 sampled for the naive way
    .venv/bin/python benchmarks/mutate.py --kinds all --sample 6 --jobs 2
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from verifier.api import load, open_repository
from verifier.gate.run import case_files
from verifier.mutation import KINDS, mutations, naive_status, run_mutations
from verifier.solver.engine import DEFAULT_TIMEOUT_MS, check_scenario

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kinds", default="delete", help="kinds joined by commas, or 'all' (default: delete)")
    parser.add_argument("--sample", type=int, default=4, help="mutants run the naive way (default 4)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes of the fast run (default 1)")
    parser.add_argument("--runs", type=int, default=1, help="paired runs; medians are printed (default 1)")
    args = parser.parse_args()
    kinds = tuple(KINDS) if args.kinds == "all" else tuple(args.kinds.split(","))
    repo = open_repository(ROOT)
    scenarios = [load(repo, f) for f in case_files(ROOT)]
    found = mutations(repo.rules, kinds=kinds)
    step = max(len(found) // max(args.sample, 1), 1)
    sample = found[::step][: args.sample]
    fast_times: list[float] = []
    naive_times: list[float] = []
    results = []
    same = True
    for run in range(args.runs):
        start = time.perf_counter()
        results = run_mutations(repo.rules, scenarios, found, DEFAULT_TIMEOUT_MS, jobs=args.jobs)
        fast_times.append(time.perf_counter() - start)
        by_id = {r.mutant_id: r for r in results}
        start = time.perf_counter()
        before = [check_scenario(sc, repo.rules, None, DEFAULT_TIMEOUT_MS) for sc in scenarios]
        for m in sample:
            status, _ = naive_status(repo.rules, scenarios, m, DEFAULT_TIMEOUT_MS, before)
            same = same and status is by_id[m.mutant.id].status
        naive_times.append((time.perf_counter() - start) / max(len(sample), 1))
        print(f"run {run + 1}: fast {fast_times[-1]:.1f} s for {len(found)} mutants; "
              f"naive {naive_times[-1]:.1f} s per mutant", file=sys.stderr)
    fast = statistics.median(fast_times)
    naive = statistics.median(naive_times)
    counts = Counter(r.status.value for r in results)
    print(f"kinds: {', '.join(kinds)}; {len(found)} mutants over {len(scenarios)} cases; "
          f"{args.jobs} job(s) for the fast run; medians of {args.runs} paired run(s)")
    print(f"fates: {', '.join(f'{k} {v}' for k, v in sorted(counts.items()))}")
    print(f"{'way':<44} {'per mutant':>11} {'all mutants':>12}")
    print(f"{'regcheck mutate (grounded once, switched)':<44} {fast / len(found):>9.2f} s {fast:>10.1f} s")
    print(f"{'naive (full check of every case, ' + str(len(sample)) + ' sampled)':<44} {naive:>9.2f} s "
          f"{naive * len(found):>10.1f} s (estimated)")
    print(f"speed-up: {naive * len(found) / fast:.1f} x; the same fate for every sampled mutant: "
          f"{'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
