"""Every bundled case gets the same JSON output as the committed snapshot, byte for byte.

The snapshot pins every verdict, value, witness, core and reason of `regcheck check cases
--format json`; a change to the engine that alters any of them fails here. The results are those of
the session's check of every case (`case_results`: the task `check` runs, each case shown by its path
from the repository's root), written as `check --format json` writes them. When a change to the rules
or cases is meant to alter an answer, write the snapshot again with:

    regcheck check cases --format json > tests/snapshots/check-cases.json
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from verifier.report import results_json

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOT = ROOT / "tests" / "snapshots" / "check-cases.json"


def test_bundled_cases_match_the_snapshot(case_results: Any) -> None:
    files = sorted(f for f in (ROOT / "cases").rglob("*") if f.suffix in (".yaml", ".yml") and not f.is_dir())
    case_results.prefetch(files)
    output = json.dumps(results_json([case_results(f) for f in files]), indent=2) + "\n"
    expected = SNAPSHOT.read_text(encoding="utf-8")
    if output != expected:
        raise AssertionError(f"the output differs from {SNAPSHOT.relative_to(ROOT)}: {_first_difference(expected, output)}")


def _first_difference(expected: str, output: str) -> str:
    """The first question whose entry differs, with the fields that differ, or the first line that does."""
    try:
        was, now = json.loads(expected), json.loads(output)
    except json.JSONDecodeError:
        was, now = {}, {}
    for old, new in zip(was.get("results", []), now.get("results", []), strict=False):
        if old != new:
            fields = {k: (old.get(k), new.get(k)) for k in {*old, *new} if old.get(k) != new.get(k)}
            return f"{new.get('case')}::{new.get('question')} (expected, got): {fields}"
    changed = [(a, b) for a, b in zip(expected.splitlines(), output.splitlines(), strict=False) if a != b]
    return f"first lines (expected, got): {changed[:3]}" if changed else "the files differ in length"
