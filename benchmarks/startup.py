"""Benchmark: whole-process time of `regcheck check` against the import floor, and all cases.

Run from the repository root with the interpreter regcheck is installed in:

    .venv/bin/python benchmarks/startup.py [--runs 21] [--case cases/set-aside/<file>.yaml]

It prints the median wall time of `python -c "import z3, click, yaml"` (the floor), of
`regcheck check CASE` on one case, their ratio, and the time to check every case in cases/.
Runs of the floor and of the check alternate, so load on the machine hits both alike. The
package's modules are compiled to bytecode first, as an install compiles them: the floor's
libraries come compiled, and an editable install run with PYTHONDONTWRITEBYTECODE set would
otherwise compile every module of regcheck on every run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CASE = "cases/set-aside/provisions-returns-after-two-turns.yaml"
GOAL = 1.6  # the most a one-case check may take, in import floors


def timed(cmd: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        sys.exit(f"command failed ({done.returncode}): {' '.join(cmd)}\n{done.stderr}")
    return elapsed


def cpu(cmd: list[str]) -> float:
    """User and system time of one run of `cmd`, which a busy machine disturbs less than wall time."""
    before = os.times()
    subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = os.times()
    return (after.children_user - before.children_user) + (after.children_system - before.children_system)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--case", default=DEFAULT_CASE)
    args = parser.parse_args()
    python = sys.executable
    # the installed command, as users run it (not `-m verifier`, which would import the
    # source tree in the current folder instead of the installed, compiled package)
    regcheck = str(Path(python).parent / "regcheck")
    floor_cmd = [python, "-c", "import z3, click, yaml"]
    check_cmd = [regcheck, "check", args.case]
    all_cmd = [regcheck, "check", "cases"]
    package = subprocess.run([python, "-c", "import os, verifier; print(os.path.dirname(verifier.__file__))"],
                             cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()
    subprocess.run([python, "-m", "compileall", "-q", package], check=True, stdout=subprocess.DEVNULL)
    timed(check_cmd)  # warm the file cache
    floors, checks = [], []
    for _ in range(args.runs):
        floors.append(timed(floor_cmd))
        checks.append(timed(check_cmd))
    floor, check = statistics.median(floors), statistics.median(checks)
    floor_cpu = statistics.median(cpu(floor_cmd) for _ in range(args.runs))
    check_cpu = statistics.median(cpu(check_cmd) for _ in range(args.runs))
    whole = [timed(all_cmd) for _ in range(3)]
    n_cases = sum(1 for p in (ROOT / "cases").rglob("*.yaml"))
    print(f"runs per figure:            {args.runs}")
    print(f"import floor (median):      {floor * 1000:7.1f} ms   python -c 'import z3, click, yaml'")
    print(f"check one case (median):    {check * 1000:7.1f} ms   regcheck check {args.case}")
    print(f"ratio to floor:             {check / floor:7.2f} x   (goal: at most {GOAL:.2f})")
    print(f"  fastest runs:             {min(floors) * 1000:7.1f} ms vs {min(checks) * 1000:.1f} ms, "
          f"ratio {min(checks) / min(floors):.2f} x")
    print(f"  CPU time (median):        {floor_cpu * 1000:7.1f} ms vs {check_cpu * 1000:.1f} ms, "
          f"ratio {check_cpu / floor_cpu:.2f} x")
    print(f"all {n_cases} cases (median of 3): {statistics.median(whole):7.2f} s    regcheck check cases")


if __name__ == "__main__":
    main()
