"""Time the whole runs a user starts most: `regcheck check cases`, `regcheck report` and `regcheck gate`.

Each is run in a process of its own, cold (`--no-cache` where the command has it), on this repository's
bundled cases; the script prints wall time and CPU time (the children's user + system) of each, with
what it checked, and writes them as a Markdown table, dated and naming the machine, into
`benchmarks/figures/whole-runs.md`, which the manual's performance page includes. These are figures
for people to plan with, not a speed goal: nothing is compared and nothing fails on them.

    .venv/bin/python benchmarks/whole_runs.py                 # all three (the gate takes minutes)
    .venv/bin/python benchmarks/whole_runs.py --only check report
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "figures" / "whole-runs.md"
REGCHECK = [sys.executable, "-m", "verifier"]


def timed(args: list[str]) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """Wall seconds, CPU seconds of the child, and the finished process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(REGCHECK + args, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done


def machine() -> str:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} processors ({model or platform.machine()}), Python {platform.python_version()}"


def load() -> str:
    try:
        return ", ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", choices=["check", "report", "gate"], default=["check", "report", "gate"])
    args = parser.parse_args()
    rows = []
    load_before = load()
    if "check" in args.only:
        wall, cpu, done = timed(["check", "cases", "--no-cache", "--format", "json"])
        summary = json.loads(done.stdout)["summary"]
        rows.append(("`regcheck check cases --no-cache`", f"{summary['cases']} cases, {summary['questions']:,} questions",
                     wall, cpu, done.returncode))
    if "report" in args.only:
        with tempfile.TemporaryDirectory() as out:
            wall, cpu, done = timed(["report", "--html", out, "cases"])
            pages = sum(1 for _ in Path(out).rglob("*.html"))
        rows.append(("`regcheck report --html OUT cases`", f"{pages} pages", wall, cpu, done.returncode))
    if "gate" in args.only:
        wall, cpu, done = timed(["gate", "--no-cache", "--format", "json"])
        summary = json.loads(done.stdout)["summary"] if done.stdout.strip().startswith("{") else {}
        what = ", ".join(f"{k} {v}" for k, v in summary.items() if isinstance(v, int)) or "the whole gate"
        rows.append(("`regcheck gate --no-cache`", what, wall, cpu, done.returncode))
    today = datetime.date.today().isoformat()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    at = f" at commit {commit}" if commit else ""
    lines = [f"Measured {today}{at} on {machine()}; load average at the start {load_before}, at the end {load()}; "
             "one run each, cold, `--jobs` at its default (one per processor).", "",
             "| command | what it did | wall time | CPU time | exit |", "| --- | --- | ---: | ---: | ---: |"]
    for command, what, wall, cpu, code in rows:
        lines.append(f"| {command} | {what} | {wall:.1f} s | {cpu:.1f} s | {code} |")
    text = "\n".join(lines) + "\n"
    print(text, end="")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    tmp = OUT.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, OUT)


if __name__ == "__main__":
    main()
