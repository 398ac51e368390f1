"""Every bundled case gets the same JSON output as the committed snapshot, byte for byte.

The snapshot pins every verdict, value, witness, core and reason of `regcheck check cases
--format json`; a change to the engine that alters any of them fails here. When a change to the
rules or cases is meant to alter an answer, write the snapshot again with:

    regcheck check cases --format json > tests/snapshots/check-cases.json
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOT = ROOT / "tests" / "snapshots" / "check-cases.json"


def test_bundled_cases_match_the_snapshot() -> None:
    done = subprocess.run([sys.executable, "-m", "verifier", "check", "--format", "json", "cases"],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    expected = SNAPSHOT.read_text(encoding="utf-8")
    if done.stdout != expected:
        changed = [(a, b) for a, b in zip(expected.splitlines(), done.stdout.splitlines()) if a != b]
        raise AssertionError(f"the output differs from {SNAPSHOT.relative_to(ROOT)} in "
                             f"{len(changed)} lines; first: {changed[:3]}")
