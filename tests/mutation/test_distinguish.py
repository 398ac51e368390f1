"""Distinguishing cases for surviving mutants: the case written for a survivor is answered by the rules as it
expects and kills the mutant once it joins the case table; a search stopped early says so; survivors
equivalent in scope leave the score; the command line writes the cases."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from click.testing import Result

from verifier.api import check, distinguish, mutate, open_repository
from verifier.mutation import MutantStatus, MutationReport, mutations
from verifier.mutation.distinguish import Distinction, DistinctionStatus, case_name
from verifier.mutation.run import MutantResult
from verifier.verdicts import CaseResult

from .conftest import copy_small_repo

SURVIVOR = "SA-6b delete"  # the four small cases never ask when a non-set-aside attempt's cards are scheduled to return


@pytest.fixture
def repo(tmp_path: Path, repo_root: Path) -> Path:
    """A private rules repository with every rule and the four small cases, to add a case to."""
    return copy_small_repo(repo_root, tmp_path / "repo")


def _fate(root: Path, mutant_id: str) -> MutantResult:
    report = mutate(open_repository(root), (mutant_id.split()[0],), (mutant_id.split()[1],), jobs=1)
    return next(r for r in report.results if r.mutant_id == mutant_id)


def test_a_distinguishing_case_written_for_a_survivor_kills_it_once_added(repo: Path) -> None:
    assert _fate(repo, SURVIVOR).status is MutantStatus.SURVIVED
    opened = open_repository(repo)
    report = distinguish(opened, mutate(opened, ("SA-6b",), ("delete",), jobs=1), max_scenarios=20, jobs=1)
    (found,) = report.distinctions
    assert found.mutant_id == SURVIVOR and found.status is DistinctionStatus.DISTINGUISHED, found
    assert found.based_on.startswith("cases/") and 1 <= found.searched <= found.held
    written = yaml.safe_load(found.case)
    # the rules' answers are the expectations; the mutant answers each question otherwise
    for question, mine, theirs in found.questions:
        name = next(n for n, text in written["questions"].items() if text == question)
        expected = written["expect"][name]
        assert mine == expected["verdict"] + (f" = {expected['value']}" if "value" in expected else "")
        assert theirs != mine
    assert set(written["about"]) == {"SA-6", "SA-7"}  # what SA-6b cites
    path = repo / "cases" / "set-aside" / case_name(SURVIVOR)
    path.write_text(found.case, encoding="utf-8")
    (outcome,) = check(open_repository(repo), [path], jobs=1)
    assert isinstance(outcome, tuple), outcome
    result: CaseResult = outcome[0]
    assert result.results and all(r.ok for r in result.results), result
    killed = _fate(repo, SURVIVOR)
    assert killed.status is MutantStatus.KILLED
    assert killed.case is not None and killed.case.endswith(case_name(SURVIVOR))


def test_a_search_stopped_before_the_scenario_that_tells_apart_is_cut_short(repo: Path) -> None:
    opened = open_repository(repo)
    report = mutate(opened, ("SA-6b",), ("delete",), jobs=1)
    (found,) = distinguish(opened, report, max_scenarios=20, jobs=1).distinctions
    assert found.status is DistinctionStatus.DISTINGUISHED and found.searched > 1
    (short,) = distinguish(opened, report, max_scenarios=found.searched - 1, jobs=1).distinctions
    assert short.status is DistinctionStatus.CUT_SHORT
    assert short.searched == found.searched - 1 and short.held == found.held and not short.case
    assert short.scope == found.scope and "cases/" in short.scope


def test_survivors_equivalent_in_scope_leave_the_score(repo_root: Path) -> None:
    rules = open_repository(repo_root).rules
    chosen = [m.mutant for m in mutations(rules, ("SA-6b",), ("delete", "negate"))][:3]
    results = (MutantResult(chosen[0].id, MutantStatus.KILLED, "a.yaml", "q", "determined = yes", "determined = no"),
               MutantResult(chosen[1].id, MutantStatus.SURVIVED), MutantResult(chosen[2].id, MutantStatus.SURVIVED))
    plain = MutationReport(tuple(chosen), results, 1)
    searched = MutationReport(tuple(chosen), results, 1, (
        Distinction(chosen[1].id, DistinctionStatus.EQUIVALENT, "a scope", 5, 5),
        Distinction(chosen[2].id, DistinctionStatus.CUT_SHORT, "a scope", 5, 9)))
    (before,) = [s for s in plain.sections() if s.section == "all"]
    (after,) = [s for s in searched.sections() if s.section == "all"]
    assert (before.killed, before.survived, before.in_scope) == (1, 2, 0)
    assert (after.killed, after.survived, after.in_scope) == (1, 2, 1)
    assert before.score == pytest.approx(1 / 3) and after.score == pytest.approx(1 / 2)


def test_the_command_line_writes_each_distinguishing_case(repo: Path, tmp_path: Path, cli: Callable[..., Result],
                                                          assert_no_crash: Callable[[Result], None]) -> None:
    folder = tmp_path / "found"
    result = cli("mutate", "--root", repo, "--rules", "SA-6b", "--kinds", "delete", "-j", "1",
                 "--distinguish", folder, "--max-scenarios", "20", "--format", "json")
    assert_no_crash(result)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    (found,) = report["distinctions"]
    assert found["mutant"] == SURVIVOR and found["status"] == "distinguished"
    assert (folder / found["case"]).is_file()
    assert f"{SURVIVOR}: distinguished" in result.stderr and "wrote" in result.stderr
    (section,) = [s for s in report["sections"] if s["section"] == "all"]
    assert section["equivalent"] == 0 and section["equivalent_in_scope"] == 0


def test_max_scenarios_needs_distinguish(repo: Path, cli: Callable[..., Result]) -> None:
    result = cli("mutate", "--root", repo, "--rules", "SA-6b", "--max-scenarios", "3")
    assert result.exit_code == 2
    assert "--max-scenarios needs --distinguish" in result.output
