"""Every accepted finding is found again by explore, from a scope built from its case.

The scope keeps the case's players, cards, turns and questions; each attempt of the case's timeline
becomes an attempt that may happen, pinned to the turn and phase the case gives it. The case's own
scenario (every attempt present) is one of the scope's scenarios, so the search must report the
finding with the same verdict and the same statements at fault as the case's own answer gives, or a
smaller set it contains (see `verifier.explore.search.cause_of`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from verifier.errors import CaseError
from verifier.explore import ExploreOptions, explore_scope, load_scope
from verifier.explore.search import statements_at_fault
from verifier.gate.findings import read_baseline
from verifier.language.encoding import RuleBase
from verifier.scenario.loader import load_case
from verifier.solver.engine import check_scenario
from verifier.yamlsource import load_yaml, plain

ROOT = Path(__file__).resolve().parents[2]
ACCEPTED = [a for a in read_baseline(ROOT / "accepted-findings.yaml", ROOT) if a.finding.case.startswith("cases/")]
# Cases whose scope takes minutes to search (2.9 minutes measured for this one: its scenarios are
# contradictions, each answered in full with its conflicting sets): run with `-m slow`.
SLOW = {"cases/interactions/darkness-modifier-condition-fails-negated-in-battle.yaml"}


def scope_from_case(case: Path, turns: int) -> str:
    """A scope whose attempts are the case's timeline entries, each free to happen or not."""
    doc: Any = plain(load_yaml(case, CaseError)[0])  # as regcheck reads it: `on:` is a key, not YAML 1.1's true
    timeline = doc.pop("timeline", []) or []
    doc.pop("expect", None)
    per_phase = max([sum(1 for e in timeline if (e["turn"], e["phase"]) == (x["turn"], x["phase"])) for x in timeline],
                    default=1)
    doc.update({"turns": turns, "attempts": timeline, "per_phase": per_phase, "templates": []})
    return yaml.safe_dump(doc, sort_keys=False)


@pytest.mark.parametrize("accepted", [pytest.param(a, marks=[pytest.mark.slow] if a.finding.case in SLOW else [])
                                      for a in ACCEPTED], ids=[f"{a.finding.name}:{a.finding.verdict}" for a in ACCEPTED])
def test_accepted_finding_is_rediscovered(accepted, rule_base: RuleBase, tmp_path: Path) -> None:
    case = ROOT / accepted.finding.case
    scenario = load_case(case, rule_base)
    scope_file = tmp_path / "scope.yaml"
    scope_file.write_text(scope_from_case(case, scenario.steps[-1].turn), "utf-8")
    scope = load_scope(scope_file, rule_base)
    result = explore_scope(scope, rule_base, ExploreOptions(jobs=1, shrink=False))

    assert result.complete, result.incomplete
    answered = check_scenario(scenario, rule_base, resolve=True)
    own = next(r for r in answered.results if r.verdict.value == accepted.finding.verdict
               and (accepted.finding.question is None or r.question == accepted.finding.question))
    kind, statements = statements_at_fault(rule_base, own)
    # its own cause, or (statements not from open outcomes) a smaller one of the scope its own contain
    assert any(f.verdict == accepted.finding.verdict and f.at_fault_from == kind
               and (f.at_fault == statements if kind == "open outcomes" else set(f.at_fault) <= set(statements))
               for f in result.findings), (kind, statements, [(f.verdict, f.at_fault) for f in result.findings])


def test_the_upkeep_ambiguity_is_found_with_gloss_2_at_fault(repo_root: Path, rule_base: RuleBase,
                                                             tmp_path: Path) -> None:
    case = repo_root / "cases/set-aside/upkeep-set-aside-counts-its-own-upkeep.yaml"
    scope_file = tmp_path / "scope.yaml"
    scope_file.write_text(scope_from_case(case, 3), "utf-8")
    result = explore_scope(load_scope(scope_file, rule_base), rule_base, ExploreOptions(jobs=1))
    returns = [f for f in result.findings if f.symbol == "return_step"]
    assert returns, [(f.verdict, f.symbol, f.rules) for f in result.findings]
    assert all(f.at_fault[:1] == ("GLOSS-2",) for f in returns), [(f.symbol, f.at_fault) for f in returns]
