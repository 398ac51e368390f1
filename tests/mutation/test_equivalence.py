"""Equivalent mutants, proven: a mutant that says what the rules say (alone, or with other rules of its section
in force) is equivalent; one a case kills never is; the report leaves equivalent mutants out of the score."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from verifier.api import load, open_repository
from verifier.mutation import MutantStatus, MutationReport, mutations, run_mutations
from verifier.mutation.equivalence import proven_equivalent
from verifier.solver.engine import DEFAULT_TIMEOUT_MS

from .conftest import copy_small_repo

CASES = ("cases/ability-activation-order/written-abilities-activate-in-written-order.yaml",
         "cases/ability-activation-order/gained-abilities-after-printed-in-gained-order.yaml",
         "cases/ability-activation-order/triggered-ability-activates-last.yaml")


@pytest.fixture(scope="module")
def table(repo_root: Path):  # type: ignore[no-untyped-def]
    repo = open_repository(repo_root)
    return repo, [load(repo, repo_root / c) for c in CASES]


def _mutation(repo, mutant_id: str):  # type: ignore[no-untyped-def]
    (m,) = [m for m in mutations(repo.rules, (mutant_id.split()[0],)) if m.mutant.id == mutant_id]
    return m


def test_a_filter_the_rule_repeats_is_equivalent_alone(table) -> None:  # type: ignore[no-untyped-def]
    repo, scenarios = table
    # AAO-5 with `a != b` dropped: for a == b, `gained_order(a) < gained_order(b)` is false anyway
    why = proven_equivalent(repo.rules, scenarios, _mutation(repo, "AAO-5 drop 2"), DEFAULT_TIMEOUT_MS)
    assert why.startswith("the mutated rule holds exactly when the rule does") and ", with " not in why


def test_a_guard_another_rule_implies_is_equivalent_with_that_rule(table) -> None:  # type: ignore[no-untyped-def]
    repo, scenarios = table
    # AAO-1d with `played_in_battle(x)` dropped: `both_active` holds only then, by AAO-1
    why = proven_equivalent(repo.rules, scenarios, _mutation(repo, "AAO-1d drop 1"), DEFAULT_TIMEOUT_MS)
    assert "with AAO-1 in force" in why


def test_a_guard_one_other_rule_of_the_section_covers_is_proven_with_that_rule(table) -> None:  # type: ignore[no-untyped-def]
    repo, scenarios = table
    # SA-7 with its condition dropped: SA-7c sends every return choice SA-7 does not cover to `never`, which is
    # after every attempt's step (the whole section together is more than the solver proves in its time)
    why = proven_equivalent(repo.rules, scenarios, _mutation(repo, "SA-7 condition 1"), DEFAULT_TIMEOUT_MS)
    assert why.startswith("the mutated rule holds exactly when the rule does") and "with SA-7c in force" in why


def test_a_guard_a_rule_of_another_section_covers_is_proven_with_that_rule(table) -> None:  # type: ignore[no-untyped-def]
    repo, scenarios = table
    # CORE-7b with its condition dropped: SA-13, of the set-aside section, says the same of the same attempts
    why = proven_equivalent(repo.rules, scenarios, _mutation(repo, "CORE-7b condition 1"), DEFAULT_TIMEOUT_MS)
    assert why.startswith("the mutated rule holds exactly when the rule does") and "with SA-13 in force" in why


def test_a_definitions_mutant_is_compared_with_the_definition(table) -> None:  # type: ignore[no-untyped-def]
    repo, scenarios = table
    # nested_within's filter `e != a and e != b` dropped: e == a or e == b gives nested_in(x, a, b) again
    why = proven_equivalent(repo.rules, scenarios, _mutation(repo, "nested_within condition 1"), DEFAULT_TIMEOUT_MS)
    assert why.startswith("the mutated definition gives the value the definition gives")


def _killed_are_never_proven_equivalent(table, targets: tuple[str, ...], least: int) -> None:  # type: ignore[no-untyped-def]
    repo, scenarios = table
    chosen = [m for m in mutations(repo.rules, targets) if not m.invalid]
    results = run_mutations(repo.rules, scenarios, chosen, DEFAULT_TIMEOUT_MS, jobs=1)
    killed = [m for m, r in zip(chosen, results) if r.status is MutantStatus.KILLED]
    assert len(killed) >= least
    for m in killed:
        assert proven_equivalent(repo.rules, scenarios, m, DEFAULT_TIMEOUT_MS) == "", m.mutant.id


def test_a_mutant_a_case_kills_is_never_proven_equivalent(table) -> None:  # type: ignore[no-untyped-def]
    _killed_are_never_proven_equivalent(table, ("AAO-16",), 9)


@pytest.mark.slow
def test_more_mutants_a_case_kills_are_never_proven_equivalent(table) -> None:  # type: ignore[no-untyped-def]
    # the 34 mutants of two more rules (22 of them killed): about 35 s of CPU
    _killed_are_never_proven_equivalent(table, ("AAO-3", "AAO-5"), 22)


@pytest.mark.slow
def test_a_definitions_mutant_a_case_kills_is_never_proven_equivalent(table) -> None:  # type: ignore[no-untyped-def]
    # each proof compares the definition in every rule that uses it: about 45 s of CPU a mutant
    _killed_are_never_proven_equivalent(table, ("step_class",), 8)


def test_equivalent_mutants_leave_the_score(table) -> None:  # type: ignore[no-untyped-def]
    repo, scenarios = table
    chosen = [_mutation(repo, i) for i in ("AAO-5 delete", "AAO-5 drop 2", "AAO-5 drop 4")]
    proving: list[tuple[int, int]] = []
    results = run_mutations(repo.rules, scenarios, chosen, DEFAULT_TIMEOUT_MS, jobs=1, prove=True,
                            proving=lambda tried, survivors: proving.append((tried, survivors)))
    # the proofs' progress: the two survivors known, then each tried
    assert proving == [(0, 2), (1, 2), (2, 2)]
    assert [r.status for r in results][:2] == [MutantStatus.KILLED, MutantStatus.EQUIVALENT]
    report = MutationReport(tuple(m.mutant for m in chosen), tuple(results), len(scenarios))
    (section, _) = report.sections()
    assert section.equivalent == 1
    assert section.score == section.killed / (section.killed + section.survived)


def test_the_command_line_reports_a_proven_survivor_equivalent(tmp_path: Path, repo_root: Path,
                                                               cli: Callable[..., Result],
                                                               assert_no_crash: Callable[[Result], None]) -> None:
    repo = copy_small_repo(repo_root, tmp_path / "repo")
    result = cli("mutate", "--root", repo, "--rules", "AAO-5", "--kinds", "drop", "-j", "1", "--prove-equivalent",
                 "--format", "json")
    assert_no_crash(result)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    (dropped,) = [m for m in report["mutants"] if m["id"] == "AAO-5 drop 2"]
    assert dropped["status"] == "equivalent" and "holds exactly when the rule does" in dropped["reason"]
    (section,) = [s for s in report["sections"] if s["section"] == "all"]
    assert section["equivalent"] >= 1
    # the proofs' progress, after the case passes': every survivor of the run tried
    tried = sum(m["status"] in ("survived", "equivalent") for m in report["mutants"])
    proofs = [line for line in result.stderr.splitlines() if line.endswith("survivors tried for equivalence")]
    assert proofs and proofs[-1] == f"mutate: {tried}/{tried} survivors tried for equivalence"
    plain = cli("mutate", "--root", repo, "--rules", "AAO-5", "--kinds", "drop", "-j", "1", "--format", "json")
    assert [m["status"] for m in json.loads(plain.stdout)["mutants"] if m["id"] == "AAO-5 drop 2"] == ["survived"]


def test_a_definitions_mutant_is_compared_in_the_rules_using_it_when_the_definition_differs(
        repo_root: Path) -> None:
    repo = open_repository(repo_root)
    scenarios = [load(repo, repo_root / "cases/heal/discard-suspended-only-while-one-of-its-cards-is-healed.yaml")]
    # discard_window with `starts_discard(x)` dropped differs as a definition (a heal's window), but where it is
    # read (HEAL-19, discarded_by_ability) `discarding(x, c)` is asked too, which says `starts_discard(x)` again
    why = proven_equivalent(repo.rules, scenarios, _mutation(repo, "discard_window drop 1"), DEFAULT_TIMEOUT_MS)
    assert why.startswith("every rule using the mutated definition holds exactly when it does")
