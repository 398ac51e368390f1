"""Print how long `regcheck explore` takes against the brute-force path on the same scopes.

For each scope of benchmarks/scopes/: the number of scenarios; the whole-process time of
`regcheck explore SCOPE` (default workers); and, both with one worker so that the two methods are
compared alone, `regcheck explore SCOPE --jobs 1` against `regcheck explore SCOPE --jobs 1
--brute-force`, run alternately (--runs pairs, medians) so that load on the machine hits both
alike, with the ratio and whether the two report the same findings.

A scope whose brute-force run would take longer than --budget seconds (estimated from a uniform
random sample of --sample of its scenarios, each answered in full in this process) is not run in
full by brute force: its brute-force time is the sample's mean time per scenario times the number
of scenarios, the ratio is marked as an estimate, and the sampled scenarios are checked to get the
same findings by both paths. Run it with the interpreter regcheck is installed in:

    .venv/bin/python benchmarks/explore.py
    .venv/bin/python benchmarks/explore.py --runs 3 --sample 60 --budget 600
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from verifier.explore import ExploreOptions, load_scope  # noqa: E402
from verifier.explore.scenarios import plans  # noqa: E402
from verifier.explore.search import _PlanTask  # noqa: E402
from verifier.language.encoding import load_rule_base  # noqa: E402

SCOPES = sorted((ROOT / "benchmarks" / "scopes").glob("*.yaml"))


def run(scope: Path, *options: str) -> tuple[float, dict]:
    """One whole-process run of `regcheck explore`: wall time and its JSON report."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "verifier", "explore", str(scope), "--format", "json", *options],
                          cwd=ROOT, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise SystemExit(f"regcheck explore {scope.name} {' '.join(options)} failed:\n{done.stderr}")
    return elapsed, json.loads(done.stdout)


def findings(report: dict) -> set[tuple]:
    return {(f["verdict"], f["symbol"], tuple(f["rules"]), f["scenarios"])
            for s in report["scopes"] for f in s["findings"]}


def sampled(scope_path: Path, size: int, seed: int) -> tuple[float, int, int]:
    """Mean seconds per scenario of the brute-force path on a uniform random sample, and on how many
    sampled scenarios the screened path finds the same (and how many were sampled)."""
    rules = load_rule_base(ROOT / "encodings")
    scope = load_scope(scope_path, rules)
    every = list(plans(scope))
    chosen = random.Random(seed).sample(every, min(size, len(every)))
    brute = _PlanTask(scope, rules, ExploreOptions(jobs=1, brute_force=True))
    screened = _PlanTask(scope, rules, ExploreOptions(jobs=1))
    times, same = [], 0
    for plan in chosen:
        started = time.perf_counter()
        full = brute(plan)
        times.append(time.perf_counter() - started)
        same += screened(plan).keys == full.keys
    return statistics.mean(times), same, len(chosen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=1, help="pairs of runs per scope (medians are shown)")
    parser.add_argument("--sample", type=int, default=40, help="scenarios sampled to estimate a brute-force run")
    parser.add_argument("--budget", type=float, default=900, help="seconds a brute-force run may be expected to take")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rows = []
    for scope in SCOPES:
        name = scope.relative_to(ROOT).as_posix()
        print(f"{name}: sampling the brute-force path ...", file=sys.stderr)
        per_scenario, same, size = sampled(scope, args.sample, args.seed)
        wall, report = run(scope)
        scenarios = report["scopes"][0]["scenarios"]
        estimate = per_scenario * scenarios
        alone, brute = [], []
        agree = None
        for _ in range(args.runs):
            t, one = run(scope, "--jobs", "1")
            alone.append(t)
            if estimate <= args.budget:
                t, full = run(scope, "--jobs", "1", "--brute-force")
                brute.append(t)
                agree = findings(one) == findings(full) if agree is None else agree and findings(one) == findings(full)
        explore_time = statistics.median(alone)
        brute_time = statistics.median(brute) if brute else estimate
        rows.append((name, scenarios, len(report["scopes"][0]["findings"]), wall, explore_time, brute_time,
                     bool(brute), agree, same, size))
    print(f"{'scope':<48} {'scenarios':>9} {'findings':>8} {'explore':>8} {'1 worker':>9} "
          f"{'brute force':>12} {'ratio':>9}  same findings")
    for name, scenarios, found, wall, alone, brute, measured, agree, same, size in rows:
        ratio = f"{brute / alone:.1f}x" + ("" if measured else " est")
        brute_text = f"{brute:.1f} s" + ("" if measured else " est")
        same_text = (f"yes ({'all' if agree else 'NOT all'} findings)" if measured
                     else f"{same}/{size} sampled scenarios")
        print(f"{name:<48} {scenarios:>9} {found:>8} {wall:>7.1f}s {alone:>8.1f}s {brute_text:>12} {ratio:>9}  "
              f"{same_text}")
    print(f"(explore: default workers; '1 worker' and brute force: --jobs 1, median of {args.runs} paired runs; "
          f"'est': the sample's mean time per scenario times the scenarios, from {args.sample} sampled scenarios)")


if __name__ == "__main__":
    main()
