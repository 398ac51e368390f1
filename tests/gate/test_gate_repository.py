"""The gate passes on the rules repository as committed: lock, accepted findings and all."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from verifier.errors import RegcheckError
from verifier.gate import GateOptions, render_gate, run_gate
from verifier.gate.lock import LOCK_FILE, locked_statements, read_lock
from verifier.language.encoding import RuleBase
from verifier.rulesdoc import RulesDocument
from verifier.solver.engine import DEFAULT_TIMEOUT_MS
from verifier.verdicts import CaseResult


def test_the_gate_passes_on_the_repository(repo_root: Path, case_results: Any) -> None:
    """Every check but the mutation check (deleting each rule of the repository in turn takes two minutes or
    more: `test_no_rule_of_the_repository_can_be_deleted_unnoticed`, run with `-m slow`)."""
    _passes(repo_root, case_results, mutate=False)


@pytest.mark.slow
def test_no_rule_of_the_repository_can_be_deleted_unnoticed(repo_root: Path, case_results: Any) -> None:
    """The whole gate, with its mutation check: each rule's deletion is noticed by a case or accepted."""
    _passes(repo_root, case_results, mutate=True)


def _passes(repo_root: Path, case_results: Any, mutate: bool) -> None:
    def from_session(rules: RuleBase, doc: Callable[[], RulesDocument], files: list[Path]) -> Iterator[CaseResult | str]:
        """Results of the session's checks of the same files (tests/test_cases.py checks them too)."""
        case_results.prefetch(files)
        for f in files:
            try:
                yield case_results(f)
            except RegcheckError as err:
                yield str(err)

    report = run_gate(repo_root, GateOptions(DEFAULT_TIMEOUT_MS, mutate=mutate), from_session)
    assert report.problems == (), render_gate(report)
    assert report.cases == len(list((repo_root / "cases").rglob("*.yaml")))
    accepted = {a.finding.case for a in report.accepted}
    for finding in ("darkness-negated-in-battle.yaml", "hero-set-aside-negated-in-same-preparation-phase.yaml",
                    "upkeep-set-aside-counts-its-own-upkeep.yaml"):
        assert f"cases/set-aside/{finding}" in accepted
    assert render_gate(report).endswith("\ngate passed")


def test_the_committed_lock_is_the_one_renewing_would_write(repo_root: Path, rule_base: RuleBase,
                                                            rules_doc: RulesDocument) -> None:
    lock = read_lock(repo_root / LOCK_FILE)
    assert {sid: fp for sid, (fp, _) in lock.items()} == locked_statements(rules_doc, rule_base)
