"""Coverage-guided fuzzing of the case loader, the encoding reader and the expression parser with atheris.

Run on purpose, not by the test suite (atheris is the optional extra `fuzz`):

    .venv/bin/pip install -e '.[fuzz]'
    .venv/bin/python fuzz/atheris_inputs.py case -atheris_runs=100000
    .venv/bin/python fuzz/atheris_inputs.py encoding -max_total_time=600
    mkdir -p /tmp/case-corpus && cp cases/*/*.yaml /tmp/case-corpus
    .venv/bin/python fuzz/atheris_inputs.py case /tmp/case-corpus   # start from the bundled cases; adds what it finds

The first argument picks the target; the rest go to libFuzzer. Each input is read either as
the file itself (libFuzzer's own byte mutations, starting from the bundled files) or, when its
first byte is odd, as a seed for fuzz/mutators.py applied to a bundled file (structural mutations
libFuzzer would not find). A failure (see fuzz/targets.py) raises, and libFuzzer saves the input.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import atheris  # noqa: E402

with atheris.instrument_imports():
    from fuzz.mutators import mutate_expression, mutate_file
    from fuzz.targets import CaseTarget, EncodingTarget, ExpressionTarget
    from verifier.language.encoding import load_rule_base

TARGETS = ("case", "encoding", "expression")
CASES = [p.read_bytes() for p in sorted((ROOT / "cases").rglob("*.yaml"))]
ENCODINGS = sorted((ROOT / "encodings").glob("*.yaml"))


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in TARGETS:
        sys.exit(f"usage: {sys.argv[0]} {{{','.join(TARGETS)}}} [libFuzzer options]")
    which = sys.argv.pop(1)
    rules = load_rule_base(ROOT / "encodings")
    cases, encodings, expressions = CaseTarget(rules), EncodingTarget(ROOT / "encodings"), ExpressionTarget(rules)

    def one(data: bytes) -> None:
        structured = bool(data) and data[0] % 2 == 1
        rng = random.Random(data)
        if which == "case":
            cases(mutate_file(rng, rng.choice(CASES)) if structured else data)
        elif which == "encoding":
            path = rng.choice(ENCODINGS)
            encodings(mutate_file(rng, path.read_bytes()) if structured else data, path.name)
        else:
            text = atheris.FuzzedDataProvider(data).ConsumeUnicodeNoSurrogates(len(data))
            expressions(mutate_expression(rng, text) if structured else text)

    atheris.Setup(sys.argv, one)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
