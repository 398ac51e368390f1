"""A solver that gives up is reported as `unknown`, with the limit it hit in the user's words, and fails closed.

The cases are generated (benchmarks/scenarios.py): big enough that a tiny --timeout or --memory
cannot be met, or past the grounding limit.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from benchmarks.scenarios import scenario
from verifier.errors import SolverError
from verifier.language.encoding import RuleBase
from verifier.scenario.loader import load_case
from verifier.solver.engine import check_scenario
from verifier.solver.grounding import MAX_RULE_INSTANCES, ground, rule_instances, too_large
from verifier.verdicts import Verdict


@pytest.fixture
def hard_case(tmp_path: Path) -> Path:
    """Ten cards over five turns: some 13,000 rule instances, far more than 10 ms of solving."""
    path = tmp_path / "hard.yaml"
    path.write_text(scenario(10, 5), encoding="utf-8")
    return path


def _questions(result: Result) -> list[dict[str, object]]:
    return json.loads(result.stdout)["results"]  # type: ignore[no-any-return]


def _fails_closed(result: Result, reason: str, assert_no_crash: Callable[[Result], None]) -> None:
    assert_no_crash(result)
    assert result.exit_code == 1, result.output
    questions = _questions(result)
    unknown = [q for q in questions if q["verdict"] == "unknown"]
    assert unknown, "the limit was never hit"
    for q in unknown:
        assert q["ok"] is False
        assert reason in str(q["reason"]), q["reason"]


def test_tiny_timeout_is_unknown_with_the_limit_named(cli: Callable[..., Result], hard_case: Path, repo_root: Path,
                                                      assert_no_crash: Callable[[Result], None]) -> None:
    result = cli("check", "--root", repo_root, "-j", "1", "--format", "json", "--timeout", "0.01", hard_case)
    _fails_closed(result, "the solver hit the --timeout of 0.01 s for one check", assert_no_crash)


def test_tiny_memory_is_unknown_with_the_limit_named(hard_case: Path, repo_root: Path, tmp_path: Path,
                                                     provisions_text: str) -> None:
    """Z3 runs out of its 16 MB: every check is refused, the process goes on and says why.

    The limit is Z3's, process-wide: a later run without --memory is not limited by it. Once Z3 has
    run out of memory, a process's later models may differ from a fresh one's (the answers do not), so
    both runs are made in a process of their own, not in the suite's.
    """
    case = tmp_path / "provisions.yaml"
    case.write_text(provisions_text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", TWO_RUNS, str(repo_root), str(hard_case), str(case)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    limited, later = json.loads(done.stdout)
    assert limited["crash"] is None and later["crash"] is None, (limited["crash"], later["crash"])
    assert limited["code"] == 1, limited["output"]
    assert "Traceback" not in limited["output"]
    lines = limited["output"].splitlines()
    notes = [line.strip() for line in lines if line.strip().startswith("note:")]
    verdicts = [line.split(": ")[-1] for line in lines if line.startswith("  FAIL ")]
    assert verdicts and set(verdicts) == {"unknown"}, limited["output"]
    assert notes == ["note: the solver hit the --memory of 16 MB (out of memory)"] * len(verdicts)
    assert lines[-1] == f"1 case, {len(verdicts)} questions: 0 ok, {len(verdicts)} not ok"
    assert later["code"] == 0, later["output"]


# `regcheck check` with --memory 16 on the hard case, then without on another, in one process
TWO_RUNS = textwrap.dedent("""
    import json, sys
    from click.testing import CliRunner
    from verifier.cli import main

    root, hard, later = sys.argv[1:]
    runs = [CliRunner().invoke(main, ["check", "--root", root, "-j", "1", *args])
            for args in (["--memory", "16", hard], [later])]
    print(json.dumps([{"code": r.exit_code, "output": r.output,
                       "crash": None if isinstance(r.exception, (SystemExit, type(None))) else repr(r.exception)}
                      for r in runs]))
""")


def test_a_case_past_the_grounding_limit_is_unknown_at_once(cli: Callable[..., Result], repo_root: Path, tmp_path: Path,
                                                            assert_no_crash: Callable[[Result], None]) -> None:
    """200 cards over 20 turns: millions of rule instances. Answered unknown, naming the limit, without grounding."""
    path = tmp_path / "huge.yaml"
    path.write_text(scenario(200, 20), encoding="utf-8")
    result = cli("check", "--root", repo_root, "-j", "1", "--format", "json", path)
    _fails_closed(result, f"more than the limit of {MAX_RULE_INSTANCES:,}", assert_no_crash)
    reason = str(_questions(result)[0]["reason"])
    assert reason.startswith("the case is too large to ground: its 200 cards,"), reason


def test_grounding_limit_counts_before_grounding(rule_base: RuleBase, tmp_path: Path) -> None:
    small, huge = tmp_path / "small.yaml", tmp_path / "huge.yaml"
    small.write_text(scenario(5, 5), encoding="utf-8")
    huge.write_text(scenario(200, 20), encoding="utf-8")
    assert too_large(load_case(small, rule_base), rule_base) == ""
    big = load_case(huge, rule_base)
    assert too_large(big, rule_base)
    with pytest.raises(SolverError, match="too large to ground"):
        ground(big, rule_base)
    result = check_scenario(big, rule_base)
    assert {r.verdict for r in result.results} == {Verdict.UNKNOWN}
    assert not any(r.ok for r in result.results)


def test_twenty_cards_over_twenty_turns_are_within_the_grounding_limit(rule_base: RuleBase, tmp_path: Path) -> None:
    """The limit is not far past what a case of 20 cards over 20 turns weighs; 50 cards over 20 turns are past it."""
    within, past = tmp_path / "within.yaml", tmp_path / "past.yaml"
    within.write_text(scenario(20, 20), encoding="utf-8")
    past.write_text(scenario(50, 20), encoding="utf-8")
    case = load_case(within, rule_base)
    assert too_large(case, rule_base) == ""
    assert rule_instances(case, rule_base) > MAX_RULE_INSTANCES * 3 // 4
    assert "more than the limit of" in too_large(load_case(past, rule_base), rule_base)
