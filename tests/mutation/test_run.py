"""Mutants run against cases: the same fate as the naive way (each mutated rule base checked in full on every
case), the killing case and question, invalid mutants, the same results with two workers, and the same results
when the mutants run on the groundings the cases' answers made."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from verifier.api import load, open_repository
from verifier.gate.run import case_files
from verifier.mutation import MutantStatus, answer_and_mutate, mutations, naive_status, run_mutations
from verifier.solver import grounding
from verifier.solver.engine import DEFAULT_TIMEOUT_MS, check_scenario
from verifier.solver.grounding import GroundedBase
from verifier.solver.swap import SwitchedCase
from verifier.verdicts import Verdict

CHOSEN = ("SA-1 delete", "SA-1 negate 1", "SA-1 constant 1", "SA-1 condition 1", "SA-6 delete", "SA-6b delete",
          "CORE-7b delete", "GLOSS-12 delete", "set_aside_ability negate 1", "duration_reached boundary 1",
          "CORE-2 drop 1", "HEAL-19 drop 1")


@pytest.fixture(scope="module")
def table(small_repo: Path):  # type: ignore[no-untyped-def]
    repo = open_repository(small_repo)
    scenarios = [load(repo, f) for f in case_files(small_repo)]
    chosen = [m for m in mutations(repo.rules) if m.mutant.id in CHOSEN]
    assert len(chosen) == len(CHOSEN)
    return repo, scenarios, chosen


@pytest.fixture(scope="module")
def one_worker(table):  # type: ignore[no-untyped-def]
    """The chosen mutants run on one worker, once for the tests comparing it."""
    repo, scenarios, chosen = table
    return run_mutations(repo.rules, scenarios, chosen, DEFAULT_TIMEOUT_MS, jobs=1)


def test_the_same_fate_as_the_naive_way(table, one_worker) -> None:  # type: ignore[no-untyped-def]
    repo, scenarios, chosen = table
    fast = one_worker
    assert [r.mutant_id for r in fast] == [m.mutant.id for m in chosen]
    before = [check_scenario(sc, repo.rules, None, DEFAULT_TIMEOUT_MS) for sc in scenarios]
    for m, r in zip(chosen, fast):
        status, first = naive_status(repo.rules, scenarios, m, DEFAULT_TIMEOUT_MS, before)
        assert r.status is status, (m.mutant.id, r, status)
        if status is MutantStatus.KILLED:
            assert r.case == first, m.mutant.id  # killed by the first case that notices it
    fates = {r.mutant_id: r for r in fast}
    assert fates["SA-1 delete"].status is MutantStatus.KILLED
    assert fates["SA-6b delete"].status is MutantStatus.SURVIVED
    assert fates["CORE-2 drop 1"].status is MutantStatus.INVALID
    assert "cannot be grounded" in fates["CORE-2 drop 1"].reason


def test_a_killed_mutant_names_its_case_and_question(table) -> None:  # type: ignore[no-untyped-def]
    repo, scenarios, chosen = table
    deleted = [m for m in chosen if m.mutant.id == "SA-1 delete"]
    (r,) = run_mutations(repo.rules, scenarios, deleted, DEFAULT_TIMEOUT_MS, jobs=1)
    assert r.case is not None and r.case.endswith(".yaml") and r.question
    assert r.expected and r.got and r.expected != r.got


def test_two_workers_give_the_same_results(table, one_worker) -> None:  # type: ignore[no-untyped-def]
    repo, scenarios, chosen = table
    one = one_worker
    seen: list[tuple[int, int]] = []
    two = run_mutations(repo.rules, scenarios, chosen, DEFAULT_TIMEOUT_MS, jobs=2,
                        progress=lambda done, total: seen.append((done, total)))
    assert one == two
    # the cases are split between the workers: each is passed once
    assert seen and seen[-1] == (len(scenarios), len(scenarios))


def test_a_mutant_has_the_same_fate_whichever_mutants_run_before_it(repo_root: Path) -> None:
    # Mutants of play_allowed and of can_use both change definitions CORE-6 uses through attempt_allowed;
    # run on the same case grounded once, the second must not be answered with the first one's terms.
    repo = open_repository(repo_root)
    case = load(repo, repo_root / "cases" / "set-aside" / "provisions-on-hero-of-other-brigade-not-legal.yaml")
    found = {m.mutant.id: m for m in mutations(repo.rules, ("play_allowed", "can_use"))}
    alone = run_mutations(repo.rules, [case], [found["can_use drop 1"]], DEFAULT_TIMEOUT_MS, jobs=1)
    after = run_mutations(repo.rules, [case], [found["play_allowed drop 1"], found["can_use drop 1"]],
                          DEFAULT_TIMEOUT_MS, jobs=1)
    assert alone[0].status is MutantStatus.KILLED
    assert after[1] == alone[0]


def test_a_question_the_solver_gave_up_on_leaves_the_mutant_unknown(table, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # The question that kills SA-1's deletion, answered `unknown` under the rules as they are (as a
    # check cut short by --timeout on a busy machine is), cannot notice the mutant: the mutant is
    # unknown, never reported as surviving.
    repo, scenarios, chosen = table
    deleted = [m for m in chosen if m.mutant.id == "SA-1 delete"]
    (killed,) = run_mutations(repo.rules, scenarios, deleted, DEFAULT_TIMEOUT_MS, jobs=1)
    assert killed.status is MutantStatus.KILLED
    answers = SwitchedCase.answers

    def giving_up(self, left_out=(), put_in=(), asked=None):  # type: ignore[no-untyped-def]
        result = answers(self, left_out, put_in, asked)
        if left_out or put_in or asked or self.sc.path != killed.case:
            return result
        return replace(result, results=tuple(
            replace(r, verdict=Verdict.UNKNOWN, value=None, ok=False, reason="the solver hit the --timeout")
            if r.question == killed.question else r for r in result.results))

    monkeypatch.setattr(SwitchedCase, "answers", giving_up)
    case = [sc for sc in scenarios if sc.path == killed.case]
    (r,) = run_mutations(repo.rules, case, deleted, DEFAULT_TIMEOUT_MS, jobs=1)
    assert r.status is MutantStatus.UNKNOWN, r
    assert r.reason == f"{killed.case}::{killed.question}: the solver hit the --timeout"


def test_a_mutant_of_a_definition_only_questions_use_is_killed_by_a_question_it_changes(repo_root: Path) -> None:
    # No rule uses `discarded`; this case's questions ask it. Its mutants must reach those questions, with
    # the same fate as the mutated rule base checked in full (where the questions read the mutant too).
    repo = open_repository(repo_root)
    case = load(repo, repo_root / "cases" / "heal" / "discarded-is-asked-when-the-discard-completes.yaml")
    found = mutations(repo.rules, ("discarded",))
    assert found and all(not m.mutant.rules for m in found)
    fast = run_mutations(repo.rules, [case], found, DEFAULT_TIMEOUT_MS, jobs=1)
    before = [check_scenario(case, repo.rules, None, DEFAULT_TIMEOUT_MS)]
    for m, r in zip(found, fast):
        status, first = naive_status(repo.rules, [case], m, DEFAULT_TIMEOUT_MS, before)
        assert r.status is status, (m.mutant.id, r, status)
        assert r.case == first, m.mutant.id
    killed = [r for r in fast if r.status is MutantStatus.KILLED]
    assert killed
    asked = {q.name for q in case.questions}
    assert all(r.question in asked and r.expected != r.got for r in killed)


@pytest.mark.parametrize(("jobs", "fold"), [(1, False), (2, False), (1, True), (2, True)])
def test_mutants_run_on_the_groundings_the_answers_made_have_the_same_fates(table, one_worker, jobs: int, fold: bool,
                                                                           monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # With `fold`, an answer keeps a folded grounding (its rule bodies read the pinned inputs): a deletion runs on
    # it, with the same fate and on the same cases; a mutant that puts rules in grounds the case afresh.
    repo, scenarios, chosen = table
    grounded: list[str] = []
    answering: list[str] = []
    ground = grounding._ground

    def counted(scenario, rules, *rest):  # type: ignore[no-untyped-def]
        grounded.append(scenario.path)
        return ground(scenario, rules, *rest)

    monkeypatch.setattr(grounding, "_ground", counted)

    def answer(at: int):  # type: ignore[no-untyped-def]
        kept: list[GroundedBase] = []
        before = len(grounded)
        result = check_scenario(scenarios[at], repo.rules, None, DEFAULT_TIMEOUT_MS, keep=kept, fold=fold)
        answering.extend(grounded[before:])
        assert kept[0].folded is fold
        return result, scenarios[at], kept[0]

    for mutants, expected in ((chosen, one_worker),
                              ([m for m in chosen if not m.put_in and not m.definitions],
                               [r for m, r in zip(chosen, one_worker) if not m.put_in and not m.definitions])):
        grounded.clear()
        answering.clear()
        told: list[tuple[str, int, int]] = []
        answers, fates = answer_and_mutate(repo.rules, mutants, len(scenarios), answer, DEFAULT_TIMEOUT_MS, jobs=jobs,
                                           told=lambda what, done, total: told.append((what, done, total)))
        assert fates == expected
        assert ("cases", len(scenarios), len(scenarios)) in told and ("mutation", len(scenarios), len(scenarios)) in told
        if jobs == 1 and (not fold or mutants is not chosen):  # the mutants' run grounds no case again
            assert grounded == answering
    if jobs == 1 and not fold:  # each case grounded once, for its answer
        assert answering == [sc.path for sc in scenarios]
    assert answers == [check_scenario(sc, repo.rules, None, DEFAULT_TIMEOUT_MS, fold=fold) for sc in scenarios]


def test_a_case_that_cannot_be_read_leaves_the_mutants_without_results(table) -> None:  # type: ignore[no-untyped-def]
    repo, scenarios, chosen = table

    def answer(at: int):  # type: ignore[no-untyped-def]
        return at, (None if at == 1 else scenarios[at]), None

    answers, fates = answer_and_mutate(repo.rules, chosen, len(scenarios), answer, DEFAULT_TIMEOUT_MS, jobs=1)
    assert answers == list(range(len(scenarios))) and fates is None
