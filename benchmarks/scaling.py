"""Print how checking a case grows with its size, against other revisions in the same run.

The cases: the generated cases kept in benchmarks/bench/ (`g-CARDSxTURNS.yaml`: 5 x 5, 10 x 10, 20 x 10
and 50 x 20), and the cases benchmarks/scenarios.py generates for the grid of --cards and --turns (Heroes
and Evil Characters of both players, set-aside, negate and heal abilities, a set-aside attempted every
turn, six questions; a cell of the grid that is a kept case is that case). Each is checked by
`regcheck check` in a process of its own, by this checkout and by each baseline in turn (by default a git
worktree of revision e816993 made for the run and removed after it; a worktree of each revision --revision
names; or the checkouts --baseline names), so load on the machine hits them alike. Per cell it prints the
rule instances grounding weighs in each revision, the median user CPU seconds of --runs runs, the peak
memory (resident set) and how the case was answered: `answered` (every question got a verdict), or what
stopped it (the solver's --timeout or --memory, or the grounding limit), and each baseline's speed-up.
Then the exponents of least-squares fits over the cells of the grid: user CPU beyond the import floor's
(`python -c "import z3, click, yaml"`, measured in the same run) ~ cards^a * turns^b over the answered
cells, for each revision, and rule instances ~ cards^a * turns^b.

Caches are off in every revision (REGCHECK_CACHE_DIR=off): every run checks the case cold. Each run reads
regcheck's own modules as the environment leaves them: where `PYTHONDONTWRITEBYTECODE` is set and regcheck is
installed editable, every run compiles them afresh (about 0.15 s of user CPU). With `--compiled`, every tree is
compiled once before timing, into a folder of the run's own (`PYTHONPYCACHEPREFIX`), and every run reads them
compiled, as from a `pip install .`, which compiles the modules it installs. Run it with the interpreter
regcheck is installed in:

    .venv/bin/python benchmarks/scaling.py                          # kept cases and the grid, against e816993
    .venv/bin/python benchmarks/scaling.py --cards 5 10 --turns 5 10 --runs 3
    .venv/bin/python benchmarks/scaling.py --baseline ../before     # another checkout
    .venv/bin/python benchmarks/scaling.py --revision e816993 aebf1e2 --only-kept --compiled   # two baselines
    .venv/bin/python benchmarks/scaling.py --no-baseline
    .venv/bin/python benchmarks/scaling.py --only-kept --compiled
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.scenarios import scenario  # noqa: E402

KEPT = ROOT / "benchmarks" / "bench"
BASELINE_REVISION = "e816993"
COUNT = ("import sys; from pathlib import Path; from verifier.language.encoding import load_rule_base; "
         "from verifier.scenario.loader import load_case; from verifier.solver.grounding import rule_instances; "
         "rules = load_rule_base(Path('encodings')); print(rule_instances(load_case(Path(sys.argv[1]), rules), rules))")
LIMIT = "import verifier.solver.grounding as g; print(g.MAX_RULE_INSTANCES)"


class Run(NamedTuple):
    """One `regcheck check`: user CPU seconds, peak resident megabytes, outcome."""

    cpu: float
    peak: float
    outcome: str


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


COMPILED: dict[str, str] = {}  # with --compiled: where the runs read regcheck's modules compiled (see `compile_trees`)


def _env(tree: Path) -> dict[str, str]:
    env = {**os.environ, "REGCHECK_CACHE_DIR": "off", "PYTHONPATH": str(tree)}
    if COMPILED:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env.update(COMPILED)
    return env


def compile_trees(trees: list[Path], prefix: Path) -> None:
    """Compile the modules of each tree into `prefix`, where every later run reads them (see `--compiled`), and
    those a check imports from elsewhere (Python reads no module's own `__pycache__` once a prefix is set): one
    check of the smallest kept case, untimed."""
    COMPILED["PYTHONPYCACHEPREFIX"] = str(prefix)
    for tree in trees:
        subprocess.run([sys.executable, "-m", "compileall", "-q", "verifier"], cwd=tree, env=_env(tree), check=True)
        subprocess.run([sys.executable, "-m", "verifier", "check", str(KEPT / "g-5x5.yaml")], cwd=tree, env=_env(tree),
                       capture_output=True, check=False)


def check(path: Path, timeout: float, memory: int | None, tree: Path) -> Run:
    """User CPU, peak memory and outcome of one `regcheck check` of the source tree `tree`."""
    cmd = [sys.executable, "-m", "verifier", "check", "--format", "json", "--timeout", str(timeout), str(path)]
    if memory:
        cmd[4:4] = ["--memory", str(memory)]
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(cmd, cwd=tree, env=_env(tree), stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        code = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode()
    if code not in (0, 1):
        return Run(usage.ru_utime, usage.ru_maxrss / 1024, f"exit {code}")
    return Run(usage.ru_utime, usage.ru_maxrss / 1024, outcome(json.loads(text)["results"]))


def floor() -> float:
    """User CPU seconds of importing what regcheck cannot start without."""
    proc = subprocess.Popen([sys.executable, "-c", "import z3, click, yaml"])
    _, _, usage = os.wait4(proc.pid, 0)
    return usage.ru_utime


def instances(path: Path, tree: Path) -> str:
    """The rule instances grounding `path` weighs in the source tree `tree`."""
    done = subprocess.run([sys.executable, "-c", COUNT, str(path)], cwd=tree, env=_env(tree),
                          capture_output=True, text=True, check=False)
    return f"{int(done.stdout):,}" if done.returncode == 0 and done.stdout.strip().isdigit() else "?"


def limit(tree: Path) -> str:
    done = subprocess.run([sys.executable, "-c", LIMIT], cwd=tree, env=_env(tree), capture_output=True, text=True,
                          check=False)
    return f"{int(done.stdout):,}" if done.returncode == 0 else "?"


def fit(cells: list[tuple[int, int, float]]) -> tuple[float, float] | None:
    """Exponents (a, b) of the least-squares fit of log y = c + a log cards + b log turns."""
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


def shown_fit(cells: list[tuple[int, int, float]]) -> str:
    found = fit(cells)
    if found is None:
        return "needs cells of at least two card counts and two turn counts"
    return f"cards^{found[0]:.2f} * turns^{found[1]:.2f} ({len(cells)} cells)"


@contextmanager
def baseline_trees(given: list[Path], revisions: list[str], wanted: bool) -> Iterator[list[Path]]:
    """The baselines' source trees: those given, or a worktree of each of `revisions` made for the run."""
    if not wanted:
        yield []
        return
    if given:
        yield [tree.resolve() for tree in given]
        return
    folder = Path(tempfile.mkdtemp(prefix="regcheck-baseline-"))
    trees = [folder / revision for revision in revisions]
    try:
        for revision, tree in zip(revisions, trees):
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(tree), revision],
                           check=True)
        yield trees
    finally:
        for tree in trees:
            if tree.exists():
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)
        shutil.rmtree(folder, ignore_errors=True)


def cells(cards: list[int], turns: list[int], folder: Path) -> list[tuple[int, int, Path, bool]]:
    """(cards, turns, case file, whether it is a cell of the grid): the kept cases, then the grid's others."""
    kept: dict[tuple[int, int], Path] = {}
    for path in sorted(KEPT.glob("g-*x*.yaml")):
        m = re.fullmatch(r"g-(\d+)x(\d+)\.yaml", path.name)
        if m:
            kept[(int(m[1]), int(m[2]))] = path
    out = [(c, t, p, c in cards and t in turns) for (c, t), p in sorted(kept.items())]
    for c in cards:
        for t in turns:
            if (c, t) not in kept:
                path = folder / f"g-{c}x{t}.yaml"
                path.write_text(scenario(c, t), encoding="utf-8")
                out.append((c, t, path, True))
    return sorted(out, key=lambda cell: (cell[0], cell[1]))


def main() -> None:
    # ended by a signal, the run still removes the worktree it made
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, nargs="+", default=[5, 10, 20])
    parser.add_argument("--turns", type=int, nargs="+", default=[5, 10, 20])
    parser.add_argument("--timeout", type=float, default=10.0, help="regcheck's --timeout (default 10 s)")
    parser.add_argument("--memory", type=int, default=None, help="regcheck's --memory in MB (default none)")
    parser.add_argument("--runs", type=int, default=3, help="runs per cell and revision; medians shown (default 3)")
    parser.add_argument("--baseline", type=Path, nargs="+", default=[],
                        help="checkouts of other revisions to time beside this one")
    parser.add_argument("--revision", nargs="+", default=[BASELINE_REVISION],
                        help=f"without --baseline: the revisions whose worktrees are made (default {BASELINE_REVISION})")
    parser.add_argument("--no-baseline", action="store_true", help="time this checkout alone")
    parser.add_argument("--only-kept", action="store_true", help="only the kept cases of benchmarks/bench/")
    parser.add_argument("--compiled", action="store_true",
                        help="read regcheck's modules compiled in every run, as an installed regcheck does")
    args = parser.parse_args()
    with baseline_trees(args.baseline, args.revision, not args.no_baseline) as before, \
            tempfile.TemporaryDirectory() as folder:
        if args.compiled:
            compile_trees([ROOT, *before], Path(folder) / "compiled")
        todo = [c for c in cells([] if args.only_kept else args.cards, [] if args.only_kept else args.turns,
                                 Path(folder)) if not args.only_kept or not c[3]]
        print(f"regcheck check --timeout {args.timeout:g}{f' --memory {args.memory}' if args.memory else ''}; "
              f"user CPU, median of {args.runs} run(s) per cell; grounding limit {limit(ROOT)} rule instances"
              + "".join(f" (baseline {tree.name}: {limit(tree)})" for tree in before)
              + ("; modules read compiled" if args.compiled else ""))
        print()
        head = "| case | rule instances | user CPU | peak memory | outcome |"
        rule = "| --- | ---: | ---: | ---: | --- |"
        for tree in before:
            name = tree.name if len(before) > 1 else "baseline"
            head += (f" {name} rule instances | {name} user CPU | {name} peak | {name} outcome |"
                     f" speed-up{f' on {tree.name}' if len(before) > 1 else ''} |")
            rule += " ---: | ---: | ---: | --- | ---: |"
        print(head)
        print(rule)
        floors: list[float] = []
        mine: list[tuple[int, int, float]] = []
        theirs: list[list[tuple[int, int, float]]] = [[] for _ in before]
        weights: list[tuple[int, int, float]] = []
        for cards, turns, path, in_grid in todo:
            count = instances(path, ROOT)
            runs: list[Run] = []
            old: list[list[Run]] = [[] for _ in before]
            for _ in range(args.runs):
                floors.append(floor())
                runs.append(check(path, args.timeout, args.memory, ROOT))
                for tree, theirs_runs in zip(before, old):
                    theirs_runs.append(check(path, args.timeout, args.memory, tree))
            cpu = statistics.median(r.cpu for r in runs)
            name = path.name if path.parent == KEPT else f"{path.name} (generated)"
            row = (f"| {name} | {count} | {cpu:.2f} s | {max(r.peak for r in runs):.0f} MB | {runs[-1].outcome} |")
            if in_grid and count != "?":
                weights.append((cards, turns, float(count.replace(",", ""))))
            if in_grid and runs[-1].outcome.startswith("answered"):
                mine.append((cards, turns, cpu))
            for tree, theirs_runs, answered in zip(before, old, theirs):
                was = statistics.median(r.cpu for r in theirs_runs)
                # a speed-up only where both revisions answered: a case one of them refuses takes no time
                both = runs[-1].outcome.startswith("answered") and theirs_runs[-1].outcome.startswith("answered")
                row += (f" {instances(path, tree)} | {was:.2f} s | {max(r.peak for r in theirs_runs):.0f} MB |"
                        f" {theirs_runs[-1].outcome} | {f'{was / cpu:.1f} x' if both else ''} |")
                if in_grid and theirs_runs[-1].outcome.startswith("answered"):
                    answered.append((cards, turns, was))
            print(row, flush=True)
        base = statistics.median(floors)
        print()
        print(f"import floor, user CPU (median of {len(floors)}): {base:.3f} s")
        beyond = [(c, t, s - base) for c, t, s in mine]
        print(f"fitted, user CPU beyond the floor, answered cells of the grid: {shown_fit(beyond)}")
        for tree, answered in zip(before, theirs):
            name = tree.name if len(before) > 1 else "baseline"
            print(f"  {name}: {shown_fit([(c, t, s - base) for c, t, s in answered])}")
        print(f"fitted, rule instances, cells of the grid: {shown_fit(weights)}")


if __name__ == "__main__":
    main()
