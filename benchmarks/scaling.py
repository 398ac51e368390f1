"""Print how checking a case grows with its size: generated cases of 5 to 200 cards over 5, 10 and 20 turns.

Each cell is `regcheck check` of a case from benchmarks/scenarios.py, in a process of its own:
the rule instances grounding weighs, the whole-process time (median of --runs), the peak memory
(resident set) and how the case was answered: `answered` (every question got a verdict), or what
stopped it (the solver's --timeout or --memory, or the grounding limit). Then the exponents of a
least-squares fit of time ~ cards^a * turns^b over the answered cells, on the time beyond the
import floor (`python -c "import z3, click, yaml"`, measured in the same run).

With --baseline DIR (a checkout of another revision, e.g. made by `git worktree add DIR REV`),
every run of this checkout alternates with a run of that one on the same case, so load on the
machine hits both alike, and the table shows both times and the speed-up. Run it with the
interpreter regcheck is installed in:

    .venv/bin/python benchmarks/scaling.py                  # the full table
    .venv/bin/python benchmarks/scaling.py --cards 5 10 20 50 --turns 5 10 20 --runs 3 --baseline ../before
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.scenarios import scenario  # noqa: E402
from verifier.language.encoding import load_rule_base  # noqa: E402
from verifier.scenario.loader import load_case  # noqa: E402
from verifier.solver.grounding import MAX_RULE_INSTANCES, rule_instances  # noqa: E402


def outcome(results: list[dict[str, object]]) -> str:
    """`answered`, or the limits that stopped some questions, with how many."""
    stopped: Counter[str] = Counter()
    for r in results:
        if r["verdict"] != "unknown":
            continue
        reason = str(r["reason"])
        stopped["grounding limit" if "too large to ground" in reason else "--timeout" if "--timeout" in reason
                else "--memory" if "memory" in reason else reason] += 1
    if not stopped:
        return f"answered ({len(results)})"
    return ", ".join(f"{why}: {n}/{len(results)} unknown" for why, n in sorted(stopped.items()))


def check(path: Path, timeout: float, memory: int | None, tree: Path = ROOT) -> tuple[float, float, str]:
    """Whole-process seconds, peak resident megabytes and outcome of one `regcheck check` of the
    source tree `tree`."""
    cmd = [sys.executable, "-m", "verifier", "check", "--format", "json", "--timeout", str(timeout), str(path)]
    if memory:
        cmd[4:4] = ["--memory", str(memory)]
    env = {**os.environ, "REGCHECK_CACHE_DIR": os.environ.get("REGCHECK_CACHE_DIR", "off"), "PYTHONPATH": str(tree)}
    started = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(cmd, cwd=tree, env=env, stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        took = time.perf_counter() - started
        out.seek(0)
        text = out.read().decode()
    if proc.returncode not in (0, 1):
        return took, usage.ru_maxrss / 1024, f"exit {proc.returncode}"
    return took, usage.ru_maxrss / 1024, outcome(json.loads(text)["results"])


def floor() -> float:
    """Whole-process seconds of importing what regcheck cannot start without."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import z3, click, yaml"], check=True)
    return time.perf_counter() - started


def fit(cells: list[tuple[int, int, float]]) -> tuple[float, float] | None:
    """Exponents (a, b) of the least-squares fit of log t = c + a log cards + b log turns."""
    if len({c for c, _, _ in cells}) < 2 or len({t for _, t, _ in cells}) < 2:
        return None
    rows = [(1.0, math.log(c), math.log(t), math.log(max(s, 1e-3))) for c, t, s in cells]
    # normal equations of the 3-parameter fit, solved by Cramer's rule
    m = [[sum(r[i] * r[j] for r in rows) for j in range(3)] for i in range(3)]
    v = [sum(r[i] * r[3] for r in rows) for i in range(3)]

    def det(a: list[list[float]]) -> float:
        return (a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]))

    d = det(m)
    if abs(d) < 1e-12:
        return None
    solved = [det([[v[i] if j == k else m[i][j] for j in range(3)] for i in range(3)]) / d for k in range(3)]
    return solved[1], solved[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, nargs="+", default=[5, 10, 20, 50, 100, 200])
    parser.add_argument("--turns", type=int, nargs="+", default=[5, 10, 20])
    parser.add_argument("--timeout", type=float, default=10.0, help="regcheck's --timeout (default 10 s)")
    parser.add_argument("--memory", type=int, default=None, help="regcheck's --memory in MB (default none)")
    parser.add_argument("--runs", type=int, default=1, help="runs per cell; the median is shown (default 1)")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="a checkout of another revision, timed side by side with this one")
    args = parser.parse_args()
    rules = load_rule_base(ROOT / "encodings")
    print(f"regcheck check --timeout {args.timeout:g}{f' --memory {args.memory}' if args.memory else ''}; "
          f"grounding limit {MAX_RULE_INSTANCES:,} rule instances; median of {args.runs} run(s) per cell")
    print()
    if args.baseline:
        print("| cards | turns | rule instances | time | peak memory | outcome | baseline time | baseline outcome | speed-up |")
        print("| ---: | ---: | ---: | ---: | ---: | --- | ---: | --- | ---: |")
    else:
        print("| cards | turns | rule instances | time | peak memory | outcome |")
        print("| ---: | ---: | ---: | ---: | ---: | --- |")
    floors: list[float] = []
    answered: list[tuple[int, int, float]] = []
    with tempfile.TemporaryDirectory() as folder:
        for cards in args.cards:
            for turns in args.turns:
                path = Path(folder) / f"generated-{cards}-{turns}.yaml"
                path.write_text(scenario(cards, turns), encoding="utf-8")
                count = rule_instances(load_case(path, rules), rules)
                runs, before = [], []
                for _ in range(args.runs):
                    floors.append(floor())
                    runs.append(check(path, args.timeout, args.memory))
                    if args.baseline:
                        before.append(check(path, args.timeout, args.memory, args.baseline.resolve()))
                took = statistics.median(r[0] for r in runs)
                peak = max(r[1] for r in runs)
                how = runs[-1][2]
                if how.startswith("answered"):
                    answered.append((cards, turns, took))
                row = f"| {cards} | {turns} | {count:,} | {took:.2f} s | {peak:.0f} MB | {how} |"
                if before:
                    was = statistics.median(r[0] for r in before)
                    row += f" {was:.2f} s | {before[-1][2]} | {was / took:.1f} x |"
                print(row, flush=True)
    base = statistics.median(floors)
    print()
    print(f"import floor (median of {len(floors)}): {base:.2f} s")
    exponents = fit([(c, t, s - base) for c, t, s in answered])
    if exponents is None:
        print("fitted exponents: need answered cells with at least two card counts and two turn counts")
    else:
        print(f"fitted exponents (time beyond the import floor, {len(answered)} answered cells): "
              f"cards^{exponents[0]:.2f} * turns^{exponents[1]:.2f}")


if __name__ == "__main__":
    main()
