"""Print how long grounding the rules takes over every scenario of the benchmark scopes.

Each scope's scenarios are built first (untimed, without templated questions); then `ground` is run over
all of them, --passes times in one process, and the CPU time (`time.process_time`) and wall time of each
pass are printed with their medians. The first pass also builds the grounder's closures for the rule base;
the median is taken over the passes after it.

With --against DIR (another checkout of regcheck, e.g. a worktree of an earlier commit), the figures of
that checkout and of this one are taken in turn, one process each, --runs times, so that load on the
machine hits both alike; the medians of both and their ratio are printed. Run it with the interpreter
regcheck is installed in:

    .venv/bin/python benchmarks/grounding.py
    .venv/bin/python benchmarks/grounding.py --against ../base --runs 5
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCOPES = ("three-cards-two-turns.yaml", "three-cards-three-turns.yaml")


def measure(root: Path, scopes: list[str], passes: int) -> dict[str, dict[str, object]]:
    """Each scope's scenario count and per-pass CPU and wall times of grounding them all, with the rule
    base of `root` and the code imported from `root`."""
    sys.path.insert(0, str(root))
    from verifier.explore import load_scope
    from verifier.explore.scenarios import plans, scenario_of
    from verifier.language.encoding import load_rule_base
    from verifier.solver.grounding import ground

    rules = load_rule_base(root / "encodings")
    out: dict[str, dict[str, object]] = {}
    for name in scopes:
        scope = load_scope(ROOT / "benchmarks" / "scopes" / name, rules)
        scenarios = [scenario_of(scope, plan, rules, templates=()) for plan in plans(scope)]
        cpu: list[float] = []
        wall: list[float] = []
        for _ in range(passes):
            started, used = time.perf_counter(), time.process_time()
            for sc in scenarios:
                ground(sc, rules)
            cpu.append(time.process_time() - used)
            wall.append(time.perf_counter() - started)
        out[name] = {"scenarios": len(scenarios), "cpu": cpu, "wall": wall}
    return out


def _median_after_first(times: list[float]) -> float:
    return statistics.median(times[1:] if len(times) > 1 else times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--passes", type=int, default=3, help="passes over each scope's scenarios per process")
    parser.add_argument("--scope", action="append", help="a scope file name of benchmarks/scopes (default: 3x2, 3x3)")
    parser.add_argument("--against", type=Path, help="another checkout, measured in turn with this one")
    parser.add_argument("--runs", type=int, default=3, help="with --against: processes per checkout")
    parser.add_argument("--root", type=Path, help=argparse.SUPPRESS)  # the checkout one process measures
    args = parser.parse_args()
    scopes = args.scope or list(SCOPES)
    if args.root is not None:
        print(json.dumps(measure(args.root.resolve(), scopes, args.passes)))
        return
    if args.against is None:
        figures = measure(ROOT, scopes, args.passes)
        for name, f in figures.items():
            cpu, wall = f["cpu"], f["wall"]
            assert isinstance(cpu, list) and isinstance(wall, list)
            print(f"{name}: {f['scenarios']} scenarios; ground() over all, CPU s per pass "
                  f"{', '.join(f'{t:.2f}' for t in cpu)} (median after the first {_median_after_first(cpu):.2f}); "
                  f"wall s {', '.join(f'{t:.2f}' for t in wall)} (median after the first {_median_after_first(wall):.2f})")
        return
    checkouts = {"against": args.against.resolve(), "this": ROOT}
    medians: dict[str, dict[str, list[float]]] = {k: {s: [] for s in scopes} for k in checkouts}
    for run in range(args.runs):
        for label, root in checkouts.items():
            done = subprocess.run([sys.executable, __file__, "--root", str(root), "--passes", str(args.passes),
                                   *(a for s in scopes for a in ("--scope", s))],
                                  capture_output=True, text=True, check=True)
            figures = json.loads(done.stdout)
            for name in scopes:
                cpu = figures[name]["cpu"]
                medians[label][name].append(_median_after_first(cpu))
                print(f"run {run + 1} {label} ({root}) {name}: CPU s per pass {', '.join(f'{t:.2f}' for t in cpu)}",
                      flush=True)
    for name in scopes:
        old, new = statistics.median(medians["against"][name]), statistics.median(medians["this"][name])
        print(f"{name}: ground() over all scenarios, median CPU s: {args.against} {old:.2f}, this checkout "
              f"{new:.2f} ({old / new:.2f}x)")


if __name__ == "__main__":
    main()
