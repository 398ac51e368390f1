"""The search against the brute-force path, on random small scopes; witnesses as case files.

Each random scope draws cards, attempts that may happen, turns, phases and question templates from
a fixed pool. `explore_scope` (screening first) and the brute-force path (every scenario answered in
full) must report the same findings: the same verdicts, question symbols and rules, each shown by
the same number of scenarios. REGCHECK_EXPLORE_SCOPES sets how many scopes (default 8; 60 with -m slow).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
import yaml
from explore_scopes import PROVISIONS_CARDS, SET_ASIDE_AND_NEGATE_CARDS

from verifier.explore import ExploreOptions, ExploreResult, explore_scope, load_scope
from verifier.explore.scenarios import Plan, count_plans, plans, scenario_of, slots, template_applications
from verifier.explore.search import _Outcome, _settle, finding_keys, question_symbol
from verifier.language.encoding import RuleBase
from verifier.scenario.loader import load_case
from verifier.solver.engine import check_scenario, screen_asked, screen_groups

CARDS = {
    "hezekiah": {"type": "Hero", "brigade": "Blue", "abilities": [
        {"kind": "set aside", "on_return": True, "text": "Set aside a Hero in your territory. On return, draw a card."}]},
    "isaiah": {"type": "Hero", "brigade": "Blue"},
    "confusion": {"type": "EE", "brigade": "Black", "owner": "bob",
                  "abilities": [{"kind": "negate", "text": "Negate a Hero's special ability."}]},
    "provisions": {"card": "Provisions"},
    "goliath": {"type": "Evil_Character", "brigade": "Crimson", "owner": "bob"},
}
# attempts that may happen, with the cards each needs
ATTEMPTS = [
    ({"id": "sets_aside", "activate": "hezekiah", "targets": ["isaiah"]}, {"hezekiah", "isaiah"}),
    ({"id": "negates", "negate": "sets_aside", "by": "confusion"}, {"hezekiah", "isaiah", "confusion"}),
    ({"id": "provisions_played", "play": "provisions", "on": "isaiah", "targets": ["isaiah"]}, {"provisions", "isaiah"}),
    ({"id": "isaiah_enters", "enter_battle": ["isaiah"]}, {"isaiah"}),
    ({"id": "goliath_enters", "enter_battle": ["goliath"], "player": "bob"}, {"goliath"}),
    ({"id": "battle_ends", "end_battle": True}, set()),
    ({"id": "isaiah_discarded", "discard": ["isaiah"], "cause": "by battle resolution"}, {"isaiah"}),
]
TEMPLATES = ["zone", "legal", "return_step", "on_return_fires", "negated", "battle_ongoing", "set_aside",
             "counts_own_upkeep", "scheduled_return"]


def random_scope(seed: int) -> str:
    rng = random.Random(seed)
    chosen = rng.sample(ATTEMPTS, rng.randint(2, 4))
    if any(a["id"] == "negates" for a, _ in chosen) and not any(a["id"] == "sets_aside" for a, _ in chosen):
        chosen.insert(0, ATTEMPTS[0])
    chosen = sorted(chosen, key=ATTEMPTS.index)[:4]
    cards = set().union(*(needs for _, needs in chosen)) | {"isaiah"}
    doc = {
        "title": f"random scope {seed}", "players": ["alice", "bob"], "turns": rng.randint(1, 2),
        "cards": {name: CARDS[name] for name in CARDS if name in cards},
        "attempts": [a for a, _ in chosen],
        "phases": rng.choice([["Preparation", "Battle"], ["Upkeep", "Preparation"], ["Preparation", "Discard"],
                              ["Upkeep", "Battle"]]),
        "per_phase": rng.randint(1, 2),
        "max_attempts": 2,
        "templates": rng.sample(TEMPLATES, rng.randint(1, 3)),
    }
    return yaml.safe_dump(doc, sort_keys=False)


def summary(result: ExploreResult) -> set[tuple[str, str, tuple[str, ...], int]]:
    return {(f.verdict, f.symbol, f.rules, f.scenarios) for f in result.findings}


SCOPES = int(os.environ.get("REGCHECK_EXPLORE_SCOPES", "4"))  # 60 more with -m slow


def _compare(seed: int, rule_base: RuleBase, tmp_path: Path) -> None:
    path = tmp_path / f"scope-{seed}.yaml"
    path.write_text(random_scope(seed), "utf-8")
    scope = load_scope(path, rule_base)
    assert count_plans(scope) <= 200, "a random scope stays small"
    searched = explore_scope(scope, rule_base, ExploreOptions(jobs=1, shrink=False))
    brute = explore_scope(scope, rule_base, ExploreOptions(jobs=1, shrink=False, brute_force=True))
    assert searched.complete and brute.complete
    assert searched.checked == brute.checked == count_plans(scope)
    assert summary(searched) == summary(brute)
    assert searched.answered_in_full <= brute.answered_in_full


@pytest.mark.parametrize("seed", range(SCOPES))
def test_search_finds_what_brute_force_finds(seed: int, rule_base: RuleBase, tmp_path: Path) -> None:
    _compare(seed, rule_base, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1000, 1060))
def test_search_finds_what_brute_force_finds_on_many_scopes(seed: int, rule_base: RuleBase, tmp_path: Path) -> None:
    _compare(seed, rule_base, tmp_path)


# Two attempts may stand in one phase: a negate reaches only an ability used in its own phase (INT-4-R1).
SET_ASIDE_AND_NEGATE = "title: a set-aside and a negate\nturns: 2\n" + SET_ASIDE_AND_NEGATE_CARDS + """\
phases: [Preparation, Battle]
per_phase: 2
templates: [zone, on_return_fires]
"""


def test_each_witness_case_gives_the_findings_verdict(rule_base: RuleBase, tmp_path: Path) -> None:
    path = tmp_path / "scope.yaml"
    path.write_text(SET_ASIDE_AND_NEGATE, "utf-8")
    result = explore_scope(load_scope(path, rule_base), rule_base, ExploreOptions(jobs=1))
    assert result.findings, "negating a set-aside with an on-return clause is a known contradiction"
    for number, finding in enumerate(result.findings):
        case = tmp_path / f"witness-{number}.yaml"
        case.write_text(finding.case, "utf-8")
        scenario = load_case(case, rule_base)
        outcome = check_scenario(scenario, rule_base)
        assert [r.verdict.value for r in outcome.results] == [finding.verdict]
        assert all(r.ok for r in outcome.results)
        assert len(scenario.attempts) == len(finding.attempts) and scenario.steps[-1].turn == finding.turns


def test_findings_come_with_the_fewest_attempts(rule_base: RuleBase, tmp_path: Path) -> None:
    path = tmp_path / "scope.yaml"
    path.write_text(SET_ASIDE_AND_NEGATE, "utf-8")
    result = explore_scope(load_scope(path, rule_base), rule_base, ExploreOptions(jobs=1))
    # a contradiction needs both the set-aside and its negate, and nothing more
    assert {len(f.attempts) for f in result.findings if f.verdict == "contradiction"} == {2}
    assert all(f.turns == 1 for f in result.findings if f.attempts[-1].startswith("turn 1"))


def test_a_search_cut_short_says_so(rule_base: RuleBase, tmp_path: Path) -> None:
    path = tmp_path / "scope.yaml"
    path.write_text(SET_ASIDE_AND_NEGATE, "utf-8")
    scope = load_scope(path, rule_base)
    result = explore_scope(scope, rule_base, ExploreOptions(jobs=1, max_scenarios=3))
    assert not result.complete
    assert result.checked == 3 and result.scenarios == count_plans(scope)
    assert "only the first 3" in result.incomplete[0]


def test_unused_statements_are_those_no_scenario_reaches(rule_base: RuleBase, tmp_path: Path) -> None:
    path = tmp_path / "scope.yaml"
    path.write_text(SET_ASIDE_AND_NEGATE, "utf-8")
    result = explore_scope(load_scope(path, rule_base), rule_base, ExploreOptions(jobs=1, shrink=False))
    assert "MOD-1" in result.unused  # no modifier in the scope
    assert "SA-11" not in result.unused and "GLOSS-12" not in result.unused


def test_a_scope_too_large_to_count_is_said_to_hold_more(rule_base: RuleBase, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from verifier.explore import search

    monkeypatch.setattr(search, "COUNT_CAP", 50)
    path = tmp_path / "scope.yaml"
    path.write_text(SET_ASIDE_AND_NEGATE.replace("turns: 2", "turns: 12").replace(
        "phases: [Preparation, Battle]", "phases: [Upkeep, Preparation, Battle, Discard]"), "utf-8")
    result = explore_scope(load_scope(path, rule_base), rule_base, ExploreOptions(jobs=1, max_scenarios=2))
    assert result.checked == 2 and not result.complete
    assert result.scenarios_shown == "more than 50"
    assert result.incomplete[0].startswith("the scope holds more than 50 scenarios; only the first 2")


PROVISIONS_IN_BATTLE = "title: Provisions on a Hero and a battle\nturns: 1\n" + PROVISIONS_CARDS + """\
  - {id: battle_ends, end_battle: true}
phases: [Preparation, Battle]
templates: [paired_targets, zone, legal]
"""


def test_the_screen_by_symbol_names_what_the_full_answer_finds(rule_base: RuleBase, tmp_path: Path) -> None:
    path = tmp_path / "scope.yaml"
    path.write_text(PROVISIONS_IN_BATTLE, "utf-8")
    scope = load_scope(path, rule_base)
    split_seen = 0
    for plan in plans(scope):
        sc = scenario_of(scope, plan, rule_base)
        screening = screen_groups(sc, rule_base, {q.name: question_symbol(sc, q.name) for q in sc.questions})
        bare = scenario_of(scope, plan, rule_base, templates=())
        asked = [(symbol, raw) for symbol, _, raw in template_applications(bare, scope.templates)]
        # the outcomes asked about, screened without building the questions, give the same
        assert screen_asked(bare, rule_base, asked) == screening
        keys = [key for key, _ in finding_keys(sc, check_scenario(sc, rule_base))]
        assert {symbol for symbol, _ in screening.split} == {symbol for verdict, symbol, _ in keys if verdict == "ambiguous"}
        resting = dict(screening.split)
        assert all(set(resting[symbol]) <= set(rules) for verdict, symbol, rules in keys if verdict == "ambiguous")
        split_seen += bool(screening.split)
    assert split_seen > 1, "Provisions' paired targets are open in more than one scenario"


def test_scenarios_are_counted_without_their_full_answers_and_the_findings_stay(rule_base: RuleBase,
                                                                              tmp_path: Path) -> None:
    path = tmp_path / "scope.yaml"
    path.write_text(PROVISIONS_IN_BATTLE, "utf-8")
    scope = load_scope(path, rule_base)
    searched = explore_scope(scope, rule_base, ExploreOptions(jobs=1, shrink=False))
    brute = explore_scope(scope, rule_base, ExploreOptions(jobs=1, shrink=False, brute_force=True))
    assert summary(searched) == summary(brute)
    showing = sum(f.scenarios for f in searched.findings)
    assert searched.answered_in_full < showing, "some scenarios were counted without their full answers"


class _Answers:
    """A stand-in for the search's task: each plan's full answer, given by the test."""

    def __init__(self, keys: dict[Plan, list[tuple[str, str, tuple[str, ...]]]]) -> None:
        self.keys = keys
        self.asked: list[Plan] = []

    def full(self, plan: Plan) -> _Outcome:
        self.asked.append(plan)
        return _Outcome(tuple((key, "q") for key in self.keys[plan]), (), "", True)


def test_a_symbol_whose_ambiguities_differ_is_answered_in_full() -> None:
    a, b, c, d = (Plan(((0, i),)) for i in range(4))
    split = (("zone", ("SA-1",)),)
    answers = _Answers({a: [("ambiguous", "zone", ("SA-1",))], b: [("ambiguous", "zone", ("SA-1", "SA-2"))],
                        c: [("ambiguous", "zone", ("SA-1", "SA-3"))], d: [("ambiguous", "zone", ("SA-1",))]})
    answered, counted = _settle(answers, [(a, split), (b, split), (c, split)])  # type: ignore[arg-type]
    assert answers.asked == [a] and [plan for plan, _ in answered] == [a]
    assert counted == [(b, (("ambiguous", "zone", ("SA-1",)),)), (c, (("ambiguous", "zone", ("SA-1",)),))]
    # an ambiguity answered in full that does not contain the symbol's smallest: every plan is answered in full
    answers = _Answers({a: [("ambiguous", "zone", ("SA-1", "SA-2"))], b: [("ambiguous", "zone", ("SA-1", "SA-3"))],
                        c: [("ambiguous", "zone", ("SA-1", "SA-4"))]})
    wide = (("zone", ("SA-1", "SA-2")),)
    answered, counted = _settle(answers, [(a, split), (b, split), (c, wide)])  # type: ignore[arg-type]
    assert not counted and sorted(answers.asked) == [a, b, c]


NEGATE_A_TIMELINE_ENTRY = """\
title: a negate that may come in any phase after the set-aside the timeline always holds
players: [alice, bob]
turns: 2
cards:
  hezekiah:
    type: Hero
    brigade: Blue
    abilities: [{kind: set aside, duration: 1 turn}]
  isaiah: {type: Hero, brigade: Blue}
  confusion:
    type: EE
    brigade: Black
    owner: bob
    abilities: [{kind: negate}]
timeline:
  - {id: sets_aside, turn: 1, phase: Battle, activate: hezekiah, targets: [isaiah]}
attempts:
  - {id: negates, negate: sets_aside, by: confusion}
phases: [Preparation, Battle]
per_phase: 1
templates: [legal]
"""


def test_an_attempt_referring_to_a_timeline_entry_stands_only_from_its_phase_on(rule_base: RuleBase,
                                                                               tmp_path: Path) -> None:
    path = tmp_path / "scope.yaml"
    path.write_text(NEGATE_A_TIMELINE_ENTRY, encoding="utf-8")
    scope = load_scope(path, rule_base)
    places = slots(scope)
    assert [[places[slot] for _, slot in p.placements] for p in plans(scope)] == [
        [], [(1, "Battle")], [(2, "Preparation")], [(2, "Battle")]]
    result = explore_scope(scope, rule_base, ExploreOptions(jobs=1))
    assert result.complete and result.checked == 4, result.incomplete

