"""Every bundled case keeps the answers of the committed snapshot.

The snapshot is `regcheck check cases --format json` as written at its last deliberate change. What must
stay the same for every question is its answer: the verdict and value (and the case's expectation and
whether it is met), the statements of its conflicting set and whether that set was re-checked, and for a
contradiction the statements of each correction set and each resolving interpretation with the answer it
gives. Witnesses, the rule instances of a core and the rules listed as involved may change with the
engine: every witness shown is re-checked valid by the engine itself (one that fails its re-check turns the
verdict into `unknown`, which this test sees). Output byte for byte the same across runs, jobs and hash
seeds is tests/test_determinism.py's. When a change to the rules or cases is meant to alter an answer,
write the snapshot again with:

    regcheck check cases --format json --no-cache > tests/snapshots/check-cases.json
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from verifier.report import results_json

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOT = ROOT / "tests" / "snapshots" / "check-cases.json"


def answer(result: dict[str, Any]) -> dict[str, Any]:
    """What of one question's JSON entry must not change with the engine."""
    return {
        "case": result["case"], "question": result["question"],
        "verdict": result["verdict"], "value": result["value"],
        "expected": result["expected"], "expected_value": result["expected_value"], "ok": result["ok"],
        "conflicting statements": sorted({s["id"] for item in result.get("core") or ()
                                          for s in item.get("statements", ())}),
        "core verified": result.get("core_verified"),
        "resolutions": [(r["kind"], r["interpretation"], r["statements"], r["verdict"], r["value"], r["verified"])
                        for r in result.get("resolutions") or ()],
    }


def test_bundled_cases_keep_the_snapshots_answers(case_results: Any) -> None:
    files = sorted(f for f in (ROOT / "cases").rglob("*") if f.suffix in (".yaml", ".yml") and not f.is_dir())
    case_results.prefetch(files)
    now = [answer(r) for r in results_json([case_results(f) for f in files])["results"]]
    was = [answer(r) for r in json.loads(SNAPSHOT.read_text(encoding="utf-8"))["results"]]
    assert [(a["case"], a["question"]) for a in now] == [(a["case"], a["question"]) for a in was], \
        f"the questions differ from those of {SNAPSHOT.relative_to(ROOT)}"
    changed = [(old, new) for old, new in zip(was, now) if old != new]
    assert not changed, f"{len(changed)} answers differ from {SNAPSHOT.relative_to(ROOT)}; the first: " + _difference(*changed[0])


def test_answer_keeps_what_must_not_change() -> None:
    entry = json.loads(SNAPSHOT.read_text(encoding="utf-8"))["results"][0]
    witnesses_changed = {**entry, "witnesses": [], "rules_involved": ["CORE-1"]}
    assert answer(witnesses_changed) == answer(entry)
    for field, value in (("verdict", "unknown"), ("value", "<other>"), ("ok", not entry["ok"])):
        assert answer({**entry, field: value}) != answer(entry), field
    core = [{"statements": [{"id": "SA-1"}]}]
    assert answer({**entry, "core": core}) != answer({**entry, "core": []})
    resolution = {"kind": "correction", "interpretation": None, "statements": ["SA-1"], "verdict": "determined",
                  "value": "yes", "verified": True}
    assert answer({**entry, "resolutions": [resolution]}) != answer({**entry, "resolutions": [
        {**resolution, "statements": ["SA-2"]}]})


def _difference(old: dict[str, Any], new: dict[str, Any]) -> str:
    fields = {k: (old[k], new[k]) for k in old if old[k] != new[k]}
    return f"{new['case']}::{new['question']} (snapshot, now): {fields}"
