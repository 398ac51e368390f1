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
    """Ten cards over ten turns: some 19,000 rule instances and facts, far more than 10 ms of solving, and
    (with the inputs' values read into the rule bodies) still far more than 48 MB of Z3's memory."""
    path = tmp_path / "hard.yaml"
    path.write_text(scenario(10, 10), encoding="utf-8")
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


STEP_8_CASE = "cases/ability-activation-order/side-battle-ability-activates-at-step-8.yaml"


def test_tiny_memory_is_unknown_with_the_limit_named(hard_case: Path, repo_root: Path) -> None:
    """Z3 runs out of its 48 MB on the hard case: every check of it is refused, the run goes on and says why.

    Each case of a run with --memory is checked in a process of its own, so a case checked after the
    one that ran out gives the very answer it gives in a fresh process, witnesses included (once Z3 has
    run out of memory in a process, the models it finds later there may differ: the witnesses of
    side-battle-ability-activates-at-step-8 do). The limit is Z3's, process-wide: a later run without
    --memory in the same process is not limited by it. Every run is made in a process of its own, so
    a regression cannot leak into the suite's. No run has a timeout that a slow machine could reach
    first: the outcome does not depend on the machine's speed or load.
    """
    later = repo_root / STEP_8_CASE
    # the longest --timeout there is: only the memory limit can stop a check, however busy the machine
    patient = ["--timeout", "3600"]
    limited, unlimited = _runs_in_one_process(repo_root, [*patient, "--memory", "48", str(hard_case), str(later)],
                                              [*patient, str(later)])
    [alone] = _runs_in_one_process(repo_root, [*patient, str(later)])
    for run in (limited, unlimited, alone):
        assert run["crash"] is None, run["crash"]
    assert limited["code"] == 1, limited["output"]
    assert "Traceback" not in limited["output"]
    results = json.loads(limited["output"])["results"]
    on_hard = [q for q in results if q["case"] == str(hard_case)]
    assert on_hard and {q["verdict"] for q in on_hard} == {"unknown"}, on_hard
    assert {q["reason"] for q in on_hard} == {"the solver hit the --memory of 48 MB (out of memory)"}
    assert unlimited["code"] == 0 and alone["code"] == 0, (unlimited["output"], alone["output"])
    assert [q for q in results if q["case"] != str(hard_case)] == json.loads(alone["output"])["results"]


def _runs_in_one_process(repo_root: Path, *runs: list[str]) -> list[dict[str, object]]:
    """`regcheck check -j 1 --format json ARGS` for each of `runs`, one after the other in a fresh process."""
    done = subprocess.run([sys.executable, "-c", RUNS, str(repo_root), json.dumps(runs)],
                          capture_output=True, text=True, timeout=3600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


# `regcheck check` run once for each argument list given, in one process
RUNS = textwrap.dedent("""
    import json, sys
    from click.testing import CliRunner
    from verifier.cli import main

    root, runs = sys.argv[1], json.loads(sys.argv[2])
    results = [CliRunner().invoke(main, ["check", "--root", root, "-j", "1", "--format", "json", *args]) for args in runs]
    print(json.dumps([{"code": r.exit_code, "output": r.stdout,
                       "crash": None if isinstance(r.exception, (SystemExit, type(None))) else repr(r.exception)}
                      for r in results]))
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


def test_the_grounding_limit_lies_between_fifty_and_a_hundred_cards_over_twenty_turns(rule_base: RuleBase,
                                                                                      tmp_path: Path) -> None:
    """Generated cases of 20 and 50 cards over 20 turns are within the limit; 100 cards over 20 turns are past it."""
    counts = {}
    for cards in (20, 50, 100):
        path = tmp_path / f"{cards}.yaml"
        path.write_text(scenario(cards, 20), encoding="utf-8")
        case = load_case(path, rule_base)
        counts[cards] = rule_instances(case, rule_base)
        assert (too_large(case, rule_base) == "") == (cards < 100), (cards, counts[cards])
    assert counts[20] < counts[50] < MAX_RULE_INSTANCES < counts[100]
