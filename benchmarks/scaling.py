"""Print how checking a case grows with its size: generated cases of 5 to 200 cards over 5, 10 and 20 turns.

Each cell is one `regcheck check` of a case from benchmarks/scenarios.py, in a process of its
own: the rule instances grounding weighs, the whole-process time, the peak memory (resident set)
and how the case was answered: `answered` (every question got a verdict), or what stopped it
(the solver's --timeout or --memory, or the grounding limit). Run it with the interpreter
regcheck is installed in:

    .venv/bin/python benchmarks/scaling.py                  # the full table (about 12 minutes)
    .venv/bin/python benchmarks/scaling.py --cards 5 10 --turns 5 --timeout 2
"""

from __future__ import annotations

import argparse
import json
import os
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


def check(path: Path, timeout: float, memory: int | None) -> tuple[float, float, str]:
    """Whole-process seconds, peak resident megabytes and outcome of one `regcheck check`."""
    cmd = [sys.executable, "-m", "verifier", "check", "--format", "json", "--timeout", str(timeout), str(path)]
    if memory:
        cmd[4:4] = ["--memory", str(memory)]
    env = {**os.environ, "REGCHECK_CACHE_DIR": os.environ.get("REGCHECK_CACHE_DIR", "off")}
    started = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        took = time.perf_counter() - started
        out.seek(0)
        text = out.read().decode()
    if proc.returncode not in (0, 1):
        return took, usage.ru_maxrss / 1024, f"exit {proc.returncode}"
    return took, usage.ru_maxrss / 1024, outcome(json.loads(text)["results"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, nargs="+", default=[5, 10, 20, 50, 100, 200])
    parser.add_argument("--turns", type=int, nargs="+", default=[5, 10, 20])
    parser.add_argument("--timeout", type=float, default=10.0, help="regcheck's --timeout (default 10 s)")
    parser.add_argument("--memory", type=int, default=None, help="regcheck's --memory in MB (default none)")
    args = parser.parse_args()
    rules = load_rule_base(ROOT / "encodings")
    print(f"regcheck check --timeout {args.timeout:g}{f' --memory {args.memory}' if args.memory else ''}; "
          f"grounding limit {MAX_RULE_INSTANCES:,} rule instances")
    print()
    print("| cards | turns | rule instances | time | peak memory | outcome |")
    print("| ---: | ---: | ---: | ---: | ---: | --- |")
    with tempfile.TemporaryDirectory() as folder:
        for cards in args.cards:
            for turns in args.turns:
                path = Path(folder) / f"generated-{cards}-{turns}.yaml"
                path.write_text(scenario(cards, turns), encoding="utf-8")
                count = rule_instances(load_case(path, rules), rules)
                took, peak, how = check(path, args.timeout, args.memory)
                print(f"| {cards} | {turns} | {count:,} | {took:.1f} s | {peak:.0f} MB | {how} |", flush=True)


if __name__ == "__main__":
    main()
