"""The gate with the result cache: an unchanged repository is checked from the cache (cases, scopes and the
deletion of every rule), and after an edit the report says which cases were checked again and why."""

from __future__ import annotations

from pathlib import Path

import pytest

import verifier.mutation
from verifier.files import display_path
from verifier.gate import GateOptions, GateReport, gate_junit, gate_sarif, run_gate
from verifier.gate.render import gate_json, render_gate
from verifier.solver.engine import DEFAULT_TIMEOUT_MS

from .helpers import NEGATED_IN_BATTLE_SCOPE, replace_in


def test_an_unchanged_repository_is_answered_from_the_cache(survivors_repo: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Every part of the gate (cases, scopes, deletions, cards) answered from the cache, with nothing searched
    again, gives the very report the run that filled the cache gives, in every format; only the line saying
    what was checked again differs. (The filling run answers everything afresh, as a run without the cache
    does: its cache was empty.)"""
    (survivors_repo / "scopes").mkdir()
    (survivors_repo / "scopes" / "negated.yaml").write_text(NEGATED_IN_BATTLE_SCOPE)
    cold = run_gate(survivors_repo, GateOptions(DEFAULT_TIMEOUT_MS, jobs=1, cache=True))
    assert cold.rechecked is not None and {why for _, why in cold.rechecked} == {"not checked before"}
    assert len(cold.rechecked) == cold.cases == 3 and cold.deletions is not None and cold.scopes == 1

    def searched(*args: object, **kwargs: object) -> None:
        raise AssertionError("searched again")

    monkeypatch.setattr(verifier.mutation, "run_mutations", searched)
    monkeypatch.setattr("verifier.gate.run.explore_scope", searched)
    warm = run_gate(survivors_repo, GateOptions(DEFAULT_TIMEOUT_MS, jobs=1, cache=True))
    assert warm.rechecked == ()
    assert (warm.problems, warm.deletions, warm.accepted, warm.scopes) == \
        (cold.problems, cold.deletions, cold.accepted, cold.scopes)
    assert [o.result for o in warm.questions] == [o.result for o in cold.questions]
    assert "cases checked again: 0; 3 answered from the result cache" in render_gate(warm)
    assert gate_json(warm)["summary"]["cases_checked_again"] == 0

    def text(report: GateReport) -> str:
        return "\n".join(line for line in render_gate(report).splitlines() if not line.startswith("cases checked again"))

    def json_of(report: GateReport) -> dict[str, object]:
        data = gate_json(report)
        del data["checked_again"], data["summary"]["cases_checked_again"]  # type: ignore[attr-defined]
        return data

    assert text(warm) == text(cold)
    assert json_of(warm) == json_of(cold)
    assert gate_junit(warm) == gate_junit(cold)
    assert gate_sarif(warm) == gate_sarif(cold)


def test_after_an_edit_the_report_says_what_was_checked_again(gate_repo: Path) -> None:
    options = GateOptions(DEFAULT_TIMEOUT_MS, jobs=1, cache=True, mutate=False)
    run_gate(gate_repo, options)
    case = "cases/set-aside/upkeep-set-aside-counts-its-own-upkeep.yaml"
    replace_in(gate_repo / case, "title: ", "title: Edited, ")
    report = run_gate(gate_repo, options)
    shown = display_path(gate_repo / case)  # outside the current folder: a name no other test's case has
    assert report.rechecked == ((shown, "the case changed"),)
    assert "cases checked again: 1 (1: the case changed); 2 answered from the result cache" in render_gate(report)
    assert gate_json(report)["checked_again"] == [{"case": shown, "why": "the case changed"}]
