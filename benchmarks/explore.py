"""Print how long `regcheck explore` takes against the brute-force path on the same scopes.

For each scope of benchmarks/scopes/: the number of scenarios; the whole-process time of
`regcheck explore SCOPE` (default workers); and, both with one worker so that the two methods are
compared alone, `regcheck explore SCOPE --jobs 1` against `regcheck explore SCOPE --jobs 1
--brute-force`, run alternately (--runs pairs, medians) so that load on the machine hits both
alike, with the ratio and whether the two report the same findings. Then, in a fresh process, how much
of the search's CPU time grounding takes (every scenario built and grounded once, as the search's
first screen does): the rest is the solver's part (with any scenario grounded again to be answered
in full), and the brute-force time over it is the ratio the search would reach were that first
grounding free. Each time is shown as wall time
and as CPU time (of the process and every worker it ran): on a machine shared with other work, the
CPU time is the steadier measure.

A scope whose brute-force run would take longer than --budget seconds (estimated from a uniform
random sample of --sample of its scenarios, each answered in full in this process) is not run in
full by brute force: its brute-force time is the sample's mean time per scenario times the number
of scenarios, the ratio is marked as an estimate, and each sampled scenario's screen is checked to
tell what its full answer finds. Run it with the interpreter regcheck is installed in:

    .venv/bin/python benchmarks/explore.py
    .venv/bin/python benchmarks/explore.py --runs 3 --sample 60 --budget 600
    .venv/bin/python benchmarks/explore.py --against ../earlier --budget 0 --only three-cards-three-turns

With `--against DIR` (another checkout, such as a git worktree of an earlier commit), that checkout's
`regcheck explore SCOPE --jobs 1` (its own code and rules) runs in turn with this one's, and the two are
compared, with whether they report the same findings.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from verifier.explore import ExploreOptions, load_scope  # noqa: E402
from verifier.explore.scenarios import plans, scenario_of  # noqa: E402
from verifier.explore.search import _Outcome, _PlanTask, explore_scope  # noqa: E402
from verifier.language.encoding import load_rule_base  # noqa: E402
from verifier.solver.grounding import ground  # noqa: E402

SCOPES = sorted((ROOT / "benchmarks" / "scopes").glob("*.yaml"))


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(scope: Path, *options: str, root: Path = ROOT) -> tuple[float, float, dict]:
    """One whole-process run of `regcheck explore`, of the checkout at `root` (its code and rules): wall time,
    CPU time (of every process it ran) and its JSON report."""
    started, cpu = time.perf_counter(), _children_cpu()
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run([sys.executable, "-m", "verifier", "explore", str(scope), "--format", "json", *options],
                          cwd=root, capture_output=True, text=True, env=env)
    elapsed, cpu = time.perf_counter() - started, _children_cpu() - cpu
    if done.returncode not in (0, 1):
        raise SystemExit(f"regcheck explore {scope.name} {' '.join(options)} failed:\n{done.stderr}")
    return elapsed, cpu, json.loads(done.stdout)


def findings(report: dict) -> set[tuple]:
    return {(f["verdict"], f["symbol"], tuple(f["rules"]), f["scenarios"])
            for s in report["scopes"] for f in s["findings"]}


def sampled(scope_path: Path, size: int, seed: int) -> tuple[float, float, int, int]:
    """Mean wall and CPU seconds per scenario of the brute-force path on a uniform random sample, and on
    how many sampled scenarios the screened path finds the same (and how many were sampled)."""
    rules = load_rule_base(ROOT / "encodings")
    scope = load_scope(scope_path, rules)
    every = list(plans(scope))
    chosen = random.Random(seed).sample(every, min(size, len(every)))
    brute = _PlanTask(scope, rules, ExploreOptions(jobs=1, brute_force=True))
    screened = _PlanTask(scope, rules, ExploreOptions(jobs=1))
    times, cpu, same = [], [], 0
    for plan in chosen:
        started, process = time.perf_counter(), time.process_time()
        full = brute(plan)
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - process)
        same += _agree(screened(plan), full)
    return statistics.mean(times), statistics.mean(cpu), same, len(chosen)


def floor(scope_path: Path) -> tuple[float, float]:
    """In a fresh process, one worker: the CPU seconds the search of the scope takes, and those of the part
    of it no faster solver could save (every scenario built and grounded once, as the search's first screen
    builds and grounds it). Their difference is the solver's part: how fast the search could be with
    grounding free."""
    done = subprocess.run([sys.executable, __file__, "--floor", str(scope_path)], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    searched, grounded = json.loads(done.stdout)
    return searched, grounded


def _floor_here(scope_path: Path) -> tuple[float, float]:
    rules = load_rule_base(ROOT / "encodings")
    scope = load_scope(scope_path, rules)
    every = list(plans(scope))
    started = time.process_time()
    for plan in every:
        ground(scenario_of(scope, plan, rules, templates=()), rules)
    grounding = time.process_time() - started
    started = time.process_time()
    explore_scope(scope, rules, ExploreOptions(jobs=1, shrink=False))
    return time.process_time() - started, grounding


def _agree(screened: _Outcome, full: _Outcome) -> bool:
    """Whether a scenario's screen tells what its full answer finds: the same findings when it was answered
    in full, else none (a scenario is left unanswered only where its screen finds nothing)."""
    if screened.full:
        return screened.keys == full.keys
    return not full.keys


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=1, help="pairs of runs per scope (medians are shown)")
    parser.add_argument("--sample", type=int, default=40, help="scenarios sampled to estimate a brute-force run")
    parser.add_argument("--budget", type=float, default=900, help="seconds a brute-force run may be expected to take")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--against", type=Path, metavar="DIR",
                        help="another checkout (a git worktree of an earlier commit): its explore with one worker is "
                             "run in turn with this one's, and compared")
    parser.add_argument("--only", nargs="*", metavar="NAME", help="the scopes of benchmarks/scopes/ to run (file stems)")
    parser.add_argument("--floor", type=Path, help=argparse.SUPPRESS)  # one measure of `floor`, in this process
    args = parser.parse_args()
    if args.floor is not None:
        print(json.dumps(_floor_here(args.floor)))
        return
    rows = []
    against: list[tuple[str, tuple[float, float], tuple[float, float], bool]] = []
    for scope in [s for s in SCOPES if not args.only or s.stem in args.only]:
        name = scope.relative_to(ROOT).as_posix()
        print(f"{name}: sampling the brute-force path ...", file=sys.stderr)
        per_scenario, per_scenario_cpu, same, size = sampled(scope, args.sample, args.seed)
        wall, _, report = run(scope)
        scenarios = report["scopes"][0]["scenarios"]
        estimate = per_scenario * scenarios
        alone: list[tuple[float, float]] = []
        brute: list[tuple[float, float]] = []
        agree = None
        other: list[tuple[float, float]] = []
        same_as_other = True
        for _ in range(args.runs):
            t, cpu, one = run(scope, "--jobs", "1")
            alone.append((t, cpu))
            if args.against is not None:
                t, cpu, theirs = run(scope, "--jobs", "1", root=args.against.resolve())
                other.append((t, cpu))
                same_as_other = same_as_other and findings(one) == findings(theirs)
            if estimate <= args.budget:
                t, cpu, full = run(scope, "--jobs", "1", "--brute-force")
                brute.append((t, cpu))
                agree = findings(one) == findings(full) if agree is None else agree and findings(one) == findings(full)
        floors = [floor(scope) for _ in range(args.runs)]
        searched, grounded = (statistics.median(f[i] for f in floors) for i in (0, 1))
        explore_time = tuple(statistics.median(x[i] for x in alone) for i in (0, 1))
        if other:
            against.append((name, explore_time, tuple(statistics.median(x[i] for x in other) for i in (0, 1)),
                            same_as_other))
        brute_time = (tuple(statistics.median(x[i] for x in brute) for i in (0, 1)) if brute
                      else (estimate, per_scenario_cpu * scenarios))
        rows.append((name, scenarios, len(report["scopes"][0]["findings"]), wall, explore_time, brute_time,
                     bool(brute), agree, same, size, searched, grounded))
    print(f"{'scope':<48} {'scenarios':>9} {'findings':>8} {'explore':>8} {'1 worker (CPU)':>16} "
          f"{'brute force (CPU)':>20} {'ratio (CPU)':>14}  same findings")
    for name, scenarios, found, wall, alone, brute, measured, agree, same, size, _, _ in rows:
        est = "" if measured else " est"
        ratio = f"{brute[0] / alone[0]:.1f}x ({brute[1] / alone[1]:.1f}x){est}"
        brute_text = f"{brute[0]:.1f} s ({brute[1]:.1f} s){est}"
        same_text = (f"yes ({'all' if agree else 'NOT all'} findings)" if measured
                     else f"{same}/{size} sampled scenarios")
        print(f"{name:<48} {scenarios:>9} {found:>8} {wall:>7.1f}s {alone[0]:>7.1f}s ({alone[1]:.1f}s) "
              f"{brute_text:>20} {ratio:>14}  {same_text}")
    print(f"(explore: default workers; '1 worker' and brute force: --jobs 1, median of {args.runs} paired runs, "
          "wall time with CPU time in brackets; 'est': the sample's mean time per scenario times the scenarios, "
          f"from {args.sample} sampled scenarios, whose screens are checked against their full answers)")
    print()
    print(f"{'scope':<48} {'search (CPU)':>12} {'grounding':>10} {'solver part':>12} {'ratio with grounding free':>26}")
    for name, _, _, _, _, brute, measured, _, _, _, searched, grounded in rows:
        solver = searched - grounded
        print(f"{name:<48} {searched:>11.1f}s {grounded:>9.1f}s {solver:>11.1f}s "
              f"{brute[1] / solver:>25.1f}x{'' if measured else ' est'}")
    print("(in a fresh process, one worker, CPU seconds, medians of the runs: the search without shrinking, and every "
          "scenario built and grounded once as its first screen does; the ratio is the brute-force CPU time over the "
          "solver's part: the ratio were each scenario's first grounding free)")
    if against:
        print()
        print(f"{'scope':<48} {'this checkout (CPU)':>20} {'--against (CPU)':>20} {'ratio (CPU)':>14}  same findings")
        for name, mine, theirs, same_findings in against:
            print(f"{name:<48} {mine[0]:>7.1f} s ({mine[1]:.1f} s) {theirs[0]:>9.1f} s ({theirs[1]:.1f} s) "
                  f"{theirs[0] / mine[0]:>5.2f}x ({theirs[1] / mine[1]:.2f}x)  {'yes' if same_findings else 'NO'}")
        print(f"(--jobs 1, run in turn, medians of {args.runs}; --against: {args.against})")


if __name__ == "__main__":
    main()
