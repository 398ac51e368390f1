"""A case grounded once and answered with rules switched off or replaced: the engine's answers."""

from __future__ import annotations

from pathlib import Path

from verifier.api import load, open_repository
from verifier.solver.engine import DEFAULT_TIMEOUT_MS, check_scenario
from verifier.solver.grounding import RuleGrounder
from verifier.solver.swap import SwitchedCase

CASES = ("cases/set-aside/provisions-returns-after-two-turns.yaml",
         "cases/set-aside/upkeep-set-aside-counts-its-own-upkeep.yaml",
         "cases/set-aside/darkness-negated-in-battle.yaml")


def _answers(result):  # type: ignore[no-untyped-def]
    return [(r.question, r.verdict, r.value, r.ok) for r in result.results]


def test_answers_with_every_rule_are_the_engines(repo_root: Path) -> None:
    repo = open_repository(repo_root)
    for case in CASES:
        sc = load(repo, repo_root / case)
        switched = SwitchedCase(sc, repo.rules, DEFAULT_TIMEOUT_MS)
        assert _answers(switched.answers()) == _answers(check_scenario(sc, repo.rules, None, DEFAULT_TIMEOUT_MS))


def test_a_rule_left_out_or_replaced_answers_as_the_rule_base_without_it(repo_root: Path) -> None:
    repo = open_repository(repo_root)
    sc = load(repo, repo_root / CASES[0])
    switched = SwitchedCase(sc, repo.rules, DEFAULT_TIMEOUT_MS)
    before = switched.answers()
    for rule in ("SA-1", "SA-6c", "CORE-2"):
        without = repo.rules._replace(rules=tuple(r for r in repo.rules.rules if r.id != rule))
        assert _answers(switched.answers({rule})) == _answers(check_scenario(sc, without, None, DEFAULT_TIMEOUT_MS))
    # a rule put back in its own place (grounded again, behind a literal of its own) changes nothing
    again = switched.ground_rules(RuleGrounder(repo.rules), [repo.rules.rule("SA-6c")])
    assert again["SA-6c"] == switched.instances["SA-6c"]
    assert _answers(switched.answers({"SA-6c"}, list(again["SA-6c"]))) == _answers(before)
    assert switched.unchanged(before, {"SA-6c"}, list(again["SA-6c"]))
