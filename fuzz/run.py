"""Feed many mutated inputs to regcheck's readers; print how many, how each fared, and every failure.

    .venv/bin/python fuzz/run.py                      # 105,000 inputs: cases, encodings, expressions
    .venv/bin/python fuzz/run.py --cases 5000 --encodings 0 --expressions 0 --seed 7
    .venv/bin/python fuzz/run.py --save fuzz/found    # also write each failing input to a folder
    .venv/bin/python fuzz/run.py --check --cases 20000 --encodings 0 --expressions 0   # cases answered by the engine

Inputs are mutations of the bundled cases/*.yaml, encodings/*.yaml and the questions of the
cases (see fuzz/mutators.py). The same seed gives the same inputs. A failure is any outcome other
than acceptance or an `InputError` naming the file and a line in it (see fuzz/targets.py); one
input of each kind of failure is shown. Exits 1 when anything failed.

With --check, each mutated case that loads is answered by the engine (`check_scenario`: grounding,
solving, minimising, re-checking), each solver check bounded by --timeout; a case too large to
ground, or a check that runs out of time, is answered `unknown`, which is no failure. The verdicts
given are counted.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from fuzz.mutators import SECTION_FIELDS, mutate_expression, mutate_file  # noqa: E402
from fuzz.targets import ACCEPTED, SLOW_SECONDS, CaseTarget, EncodingTarget, ExpressionTarget, Failure  # noqa: E402
from verifier.language.encoding import load_rule_base  # noqa: E402
from verifier.rulesdoc import load_rules_document  # noqa: E402
from verifier.solver.grounding import MAX_RULE_INSTANCES  # noqa: E402
from verifier.yamlsource import YMap, YScalar, load_yaml  # noqa: E402


def questions_of(cases: list[Path]) -> list[str]:
    """The question expressions written in the bundled cases."""
    out = []
    for path in cases:
        root, _ = load_yaml(path, lambda m, loc: Exception(m))  # type: ignore[arg-type,return-value]
        node = root.get("questions") if isinstance(root, YMap) else None
        if isinstance(node, YMap):
            out += [str(v.value) for _, v in node.entries if isinstance(v, YScalar)]
    return sorted(set(out))


class Tally:
    """Counts of inputs per target and outcome, and the first input of each kind of failure."""

    def __init__(self, save: Path | None) -> None:
        self.counts: dict[str, dict[str, int]] = {}
        self.failures: dict[tuple[str, str], tuple[int, str, bytes]] = {}
        self.save = save
        self.slowest: dict[str, float] = {}

    def run(self, target: str, n: int, one: Callable[[int], tuple[str, bytes]]) -> None:
        counts = self.counts.setdefault(target, {"accepted": 0, "refused": 0, "failed": 0})
        started = time.perf_counter()
        for i in range(n):
            t0 = time.process_time()
            try:
                outcome, _ = one(i)
                counts[outcome] += 1
            except Failure as failure:
                counts["failed"] += 1
                data = failure.data  # type: ignore[attr-defined]
                key = (target, failure.signature)
                if key not in self.failures:
                    self.failures[key] = (i, failure.detail, data)
                    if self.save:
                        self.save.mkdir(parents=True, exist_ok=True)
                        (self.save / f"{target}-{len(self.failures)}.yaml").write_bytes(data)
            self.slowest[target] = max(self.slowest.get(target, 0.0), time.process_time() - t0)
            if (i + 1) % 5000 == 0 or i + 1 == n:
                print(f"  {target}: {i + 1}/{n} in {time.perf_counter() - started:.0f} s, {counts}", file=sys.stderr,
                      flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=62_000, help="mutated case files (default 62000)")
    parser.add_argument("--encodings", type=int, default=3_000, help="mutated encoding files (default 3000)")
    parser.add_argument("--expressions", type=int, default=40_000, help="mutated questions (default 40000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-ground", action="store_true", help="only load mutated cases, do not ground them")
    parser.add_argument("--check", action="store_true",
                        help="answer each mutated case that loads with the engine (grounded and solved)")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds per solver check with --check (default 5)")
    parser.add_argument("--max-instances", type=int, default=MAX_RULE_INSTANCES,
                        help="a case with more rule instances is not grounded (default: the engine's limit)")
    parser.add_argument("--slow", type=float, default=None,
                        help="CPU seconds one input may take before it counts as a failure (default 5; 120 with --check)")
    parser.add_argument("--save", type=Path, help="folder to write one input of each kind of failure to")
    args = parser.parse_args()

    rules = load_rule_base(ROOT / "encodings")
    cases = sorted((ROOT / "cases").rglob("*.yaml"))
    case_bytes = [p.read_bytes() for p in cases]
    encodings = sorted((ROOT / "encodings").glob("*.yaml"))
    questions = questions_of(cases)
    tally = Tally(args.save)
    started = time.perf_counter()

    slow = args.slow if args.slow is not None else 120.0 if args.check else SLOW_SECONDS
    doc = load_rules_document(ROOT / "rules") if args.check else None
    case_target = CaseTarget(rules, grounded=not args.no_ground, max_instances=args.max_instances, slow=slow,
                             checked=args.check, doc=doc, timeout_ms=int(args.timeout * 1000))
    encoding_target = EncodingTarget(ROOT / "encodings")
    expression_target = ExpressionTarget(rules)

    def one_case(i: int) -> tuple[str, bytes]:
        rng = random.Random(f"case-{args.seed}-{i}")
        data = mutate_file(rng, rng.choice(case_bytes))
        return _attach(lambda: case_target(data), data)

    def one_encoding(i: int) -> tuple[str, bytes]:
        rng = random.Random(f"encoding-{args.seed}-{i}")
        path = rng.choice(encodings)
        data = mutate_file(rng, path.read_bytes())
        return _attach(lambda: encoding_target(data, path.name), data)

    def one_expression(i: int) -> tuple[str, bytes]:
        rng = random.Random(f"expression-{args.seed}-{i}")
        text = mutate_expression(rng, rng.choice(questions))
        return _attach(lambda: expression_target(text), ExpressionTarget.case_text(text).encode("utf-8", "surrogatepass"))

    try:
        tally.run("case", args.cases, one_case)
        tally.run("encoding", args.encodings, one_encoding)
        tally.run("expression", args.expressions, one_expression)
    finally:
        for target in (case_target, encoding_target, expression_target):
            target.close()

    total = sum(sum(c.values()) for c in tally.counts.values())
    print(f"{total} fuzzed inputs in {time.perf_counter() - started:.0f} s (seed {args.seed})")
    print(f"{'target':<11} {'inputs':>8} {'accepted':>9} {'refused':>8} {'failed':>7} {'slowest CPU':>12}")
    for target, c in tally.counts.items():
        print(f"{target:<11} {sum(c.values()):>8} {c['accepted']:>9} {c['refused']:>8} {c['failed']:>7} "
              f"{tally.slowest.get(target, 0):>11.2f}s")
    if args.cases:
        shown = ", ".join(f"{f} {case_target.fields[f]}" for f in sorted(SECTION_FIELDS["card"]) +
                          sorted(SECTION_FIELDS["ability"]) + ["negate"])
        print(f"accepted cases holding the later sections' fields: {shown}")
    if args.check:
        shown = ", ".join(f"{v} {n}" for v, n in sorted(case_target.verdicts.items())) or "none"
        print(f"engine verdicts on the accepted cases' questions: {shown}")
    print(f"{len(tally.failures)} kinds of failure")
    for (target, signature), (i, detail, _data) in sorted(tally.failures.items()):
        print(f"\n== {target} input {i}: {signature}\n{detail.rstrip()}")
    return 1 if tally.failures else 0


def _attach(run: Callable[[], str], data: bytes) -> tuple[str, bytes]:
    """Run one input; a failure carries the input with it."""
    try:
        return (ACCEPTED if run() == ACCEPTED else "refused"), data
    except Failure as failure:
        failure.data = data  # type: ignore[attr-defined]
        raise


if __name__ == "__main__":
    sys.exit(main())
