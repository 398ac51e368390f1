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
        changed = [(a, b) for a, b in zip(expected.splitlines(), output.splitlines()) if a != b]
        raise AssertionError(f"the output differs from {SNAPSHOT.relative_to(ROOT)} in "
                             f"{len(changed)} lines; first: {changed[:3]}")
