"""The search against the brute-force path, on random small scopes; witnesses as case files.

Each random scope draws cards, attempts that may happen, turns, phases and question templates from
a fixed pool. `explore_scope` (screening first) and the brute-force path (every scenario answered in
full) must report the same findings: the same verdicts and statements at fault (their causes), each
shown by the same number of scenarios, with the same smallest witness (its question's symbol and
rules). REGCHECK_EXPLORE_SCOPES sets how many scopes (default 8; 60 with -m slow).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
import yaml
from explore_scopes import PROVISIONS_CARDS, SET_ASIDE_AND_NEGATE_CARDS

from verifier.explore import ExploreOptions, ExploreResult, Scope, explore_scope, load_scope, search
from verifier.explore.scenarios import count_plans, never_legal, plans, scenario_of, slots, template_applications
from verifier.explore.search import _PlanTask, finding_keys, question_symbol, statements_at_fault
from verifier.language.encoding import RuleBase
from verifier.scenario.loader import load_case
from verifier.scenario.model import Scenario
from verifier.solver.engine import ScenarioScreen, check_scenario, screen_asked, screen_groups

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


def summary(result: ExploreResult) -> set[tuple[str, str, tuple[str, ...], tuple[str, ...], int]]:
    return {(f.verdict, f.symbol, f.rules, f.at_fault, f.scenarios) for f in result.findings}


SCOPES = int(os.environ.get("REGCHECK_EXPLORE_SCOPES", "2"))  # 60 more with -m slow


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


@pytest.fixture(scope="module")
def set_aside_and_negate(rule_base: RuleBase, tmp_path_factory: pytest.TempPathFactory) -> ExploreResult:
    """The whole search of SET_ASIDE_AND_NEGATE (with its witnesses shrunk), made once for the tests reading it."""
    path = tmp_path_factory.mktemp("set-aside-and-negate") / "scope.yaml"
    path.write_text(SET_ASIDE_AND_NEGATE, "utf-8")
    return explore_scope(load_scope(path, rule_base), rule_base, ExploreOptions(jobs=1))


def test_each_witness_case_gives_the_findings_verdict(set_aside_and_negate: ExploreResult, rule_base: RuleBase,
                                                      tmp_path: Path) -> None:
    result = set_aside_and_negate
    assert result.findings, "negating a set-aside with an on-return clause is a known contradiction"
    for number, finding in enumerate(result.findings):
        case = tmp_path / f"witness-{number}.yaml"
        case.write_text(finding.case, "utf-8")
        scenario = load_case(case, rule_base)
        outcome = check_scenario(scenario, rule_base)
        assert [r.verdict.value for r in outcome.results] == [finding.verdict]
        assert all(r.ok for r in outcome.results)
        assert len(scenario.attempts) == len(finding.attempts) and scenario.steps[-1].turn == finding.turns


def test_findings_come_with_the_fewest_attempts(set_aside_and_negate: ExploreResult) -> None:
    result = set_aside_and_negate
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


def _provisions_in_battle(rule_base: RuleBase, tmp_path: Path) -> Scope:
    path = tmp_path / "scope.yaml"
    path.write_text(PROVISIONS_IN_BATTLE, "utf-8")
    return load_scope(path, rule_base)


def _asked(scope: Scope, bare: Scenario, not_legal: frozenset[str]) -> list[tuple[str, tuple[str, ...]]]:
    """The outcomes the scope's templates ask about in the scenario without its questions, as the solver names them."""
    return [(symbol, raw) for symbol, _, raw in template_applications(bare, scope.templates, not_legal)]


def test_the_screen_by_symbol_names_what_the_full_answer_finds(rule_base: RuleBase, tmp_path: Path) -> None:
    scope = _provisions_in_battle(rule_base, tmp_path)
    split_seen = 0
    for plan in plans(scope):
        sc = scenario_of(scope, plan, rule_base)
        screening = screen_groups(sc, rule_base, {q.name: question_symbol(sc, q.name) for q in sc.questions})
        bare = scenario_of(scope, plan, rule_base, templates=(), not_legal=frozenset())
        asked = _asked(scope, bare, never_legal(bare, rule_base, scope.templates))
        # the outcomes asked about, screened without building the questions, give the same
        assert screen_asked(bare, rule_base, asked) == screening
        shown = [s for s in finding_keys(sc, check_scenario(sc, rule_base), rule_base) if s.key[0] == "ambiguous"]
        assert {symbol for symbol, _ in screening.split} == {s.symbol for s in shown}
        resting = dict(screening.split)
        assert all(set(resting[s.symbol]) <= set(s.rules) for s in shown)
        split_seen += bool(screening.split)
    assert split_seen > 1, "Provisions' paired targets are open in more than one scenario"


def test_one_grounding_screens_and_answers_a_scenario_as_its_own_checks_do(rule_base: RuleBase, tmp_path: Path) -> None:
    scope = _provisions_in_battle(rule_base, tmp_path)
    answered = 0
    for plan in plans(scope):
        bare = scenario_of(scope, plan, rule_base, templates=(), not_legal=frozenset())
        screen = ScenarioScreen(bare, rule_base)
        not_legal = never_legal(bare, rule_base, scope.templates, screen=screen)
        assert not_legal == never_legal(bare, rule_base, scope.templates)
        asked = _asked(scope, bare, not_legal)
        assert screen.screen_asked(asked) == screen_asked(bare, rule_base, asked)
        sc = scenario_of(scope, plan, rule_base, not_legal=not_legal)
        groups = {q.name: question_symbol(sc, q.name) for q in sc.questions}
        assert screen.screen_groups(sc, groups) == screen_groups(sc, rule_base, groups)
        # answered from the screen's grounding: every answer, witness and way out as checked afresh (on a
        # grounding that names the inputs, as the screen's does)
        afresh = check_scenario(sc, rule_base, None, resolve=True, fold=False)
        assert screen.answer(sc, resolve=True) == afresh
        answered += any(r.verdict.value == "ambiguous" for r in afresh.results)
    assert answered > 1


def test_the_explore_benchmark_finds_each_screen_agreeing_with_its_full_answer(rule_base: RuleBase, tmp_path: Path) -> None:
    # benchmarks/explore.py checks sampled scenarios this way; here on every scenario of a small scope
    from benchmarks.explore import _agree

    scope = _provisions_in_battle(rule_base, tmp_path)
    screened = _PlanTask(scope, rule_base, ExploreOptions(jobs=1))
    brute = _PlanTask(scope, rule_base, ExploreOptions(jobs=1, brute_force=True))
    outcomes = [(screened(plan), brute(plan)) for plan in plans(scope)]
    assert all(_agree(mine, full) for mine, full in outcomes)
    assert any(mine.full for mine, _ in outcomes) and any(not mine.full for mine, _ in outcomes)

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



def causes_by_hand(scope_path: Path, rule_base: RuleBase) -> set[tuple[str, str, tuple[str, ...]]]:
    """The causes of the findings of every scenario of the scope, each scenario answered in full alone:
    each set of statements at fault from open outcomes, and of the other sets of a verdict and kind, those
    that hold no smaller one."""
    scope = load_scope(scope_path, rule_base)
    found = set()
    for plan in plans(scope):
        sc = scenario_of(scope, plan, rule_base)
        for r in check_scenario(sc, rule_base, resolve=True).results:
            if r.verdict.value in ("ambiguous", "contradiction"):
                found.add((r.verdict.value, *statements_at_fault(rule_base, r)))
    return {k for k in found if k[1] == "open outcomes"
            or not any(o[:2] == k[:2] and set(o[2]) < set(k[2]) for o in found)}


def one_turn_set_aside_scope(repo_root: Path, tmp_path: Path) -> Path:
    path = tmp_path / "set-aside-one-turn.yaml"
    path.write_text((repo_root / "scopes/set-aside.yaml").read_text("utf-8").replace("\nturns: 2\n", "\nturns: 1\n"), "utf-8")
    return path


@pytest.mark.parametrize("scope_name", [
    "set-aside-one-turn", "ability-activation-order.yaml", "set-aside-and-heal.yaml",
    pytest.param("set-aside.yaml", marks=pytest.mark.slow), pytest.param("heal.yaml", marks=pytest.mark.slow)])
def test_each_cause_is_one_finding(scope_name: str, repo_root: Path, rule_base: RuleBase, tmp_path: Path) -> None:
    """As many findings as distinct statement sets at fault over the scope's scenarios, each its own."""
    path = (one_turn_set_aside_scope(repo_root, tmp_path) if scope_name == "set-aside-one-turn"
            else repo_root / "scopes" / scope_name)
    result = explore_scope(load_scope(path, rule_base), rule_base, ExploreOptions(jobs=1))
    assert result.complete, result.incomplete
    causes = causes_by_hand(path, rule_base)
    assert len(result.findings) == len(causes)
    assert {(f.verdict, f.at_fault_from, f.at_fault) for f in result.findings} == causes


def test_a_negated_set_aside_is_one_finding_whatever_else_the_scenario_holds(repo_root: Path, rule_base: RuleBase,
                                                                             tmp_path: Path) -> None:
    """The set-aside negated in its own Preparation Phase, with or without the Hero entering battle: one
    finding (grouped by rules involved, the battle made it two)."""
    result = explore_scope(load_scope(one_turn_set_aside_scope(repo_root, tmp_path), rule_base), rule_base,
                           ExploreOptions(jobs=1))
    negated = [f for f in result.findings if f.verdict == "contradiction" and "SA-11" in f.at_fault]
    assert len(negated) == 1 and negated[0].scenarios > 1, [(f.at_fault, f.scenarios) for f in result.findings]
    assert negated[0].attempts == ("turn 1 Preparation: sets_aside", "turn 1 Preparation: negates")


PROVISIONS_IN_THE_UPKEEP = """\
title: Provisions played in an Upkeep or a Preparation Phase
players: [alice, bob]
turns: 2
cards:
  elijah: {type: Hero, brigade: Green}
  provisions:
    type: GE
    brigade: Green
    abilities:
      - {kind: set aside, duration: 2 turns, target_type: Hero, target_count: 1, text: "Set Hero aside for 2 turns."}
attempts:
  - {id: play_provisions, play: provisions, on: elijah, targets: [elijah]}
phases: [Upkeep, Preparation]
per_phase: 1
templates: [legal, return_step, premature]
"""


def test_template_questions_are_asked_only_of_attempts_that_can_be_legal(rule_base: RuleBase, tmp_path: Path) -> None:
    path = tmp_path / "scope.yaml"
    path.write_text(PROVISIONS_IN_THE_UPKEEP, "utf-8")
    scope = load_scope(path, rule_base)
    places = slots(scope)
    asked = {places[p.placements[0][1]]: {q.text for q in scenario_of(scope, p, rule_base).questions}
             for p in plans(scope) if p.placements}
    # an enhancement is not played in the Upkeep: whether it is legal is asked, nothing else about it
    assert asked[(1, "Upkeep")] == {"legal(play_provisions)"}
    assert {"legal(play_provisions)", "return_step(play_provisions, elijah)"} <= asked[(1, "Preparation")]
    result = explore_scope(scope, rule_base, ExploreOptions(jobs=1))
    assert result.complete, result.incomplete
    assert_no_finding_asks_of_an_attempt_that_is_not_legal(result, rule_base, tmp_path)


def assert_no_finding_asks_of_an_attempt_that_is_not_legal(result: ExploreResult, rule_base: RuleBase,
                                                           tmp_path: Path) -> None:
    """Each finding's witness, checked alone: the attempts its question names can be legal there."""
    for i, f in enumerate(result.findings):
        case = tmp_path / f"witness-{i}.yaml"
        case.write_text(f.case, "utf-8")
        sc = load_case(case, rule_base)
        named = {a.id for a in sc.attempts if f"({a.id}," in f.question or f"({a.id})" in f.question}
        if f.symbol != "legal":
            assert not named & never_legal(sc, rule_base, ("return_step",)), (f.question, f.attempts)


THOUSAND = "benchmarks/scopes/two-set-asides-and-an-early-return.yaml"


@pytest.fixture(scope="module")
def thousand(repo_root: Path, rule_base: RuleBase) -> ExploreResult:
    """The search over the 1,045 scenarios of two set-asides of one Hero and an early return over three
    turns (about 17 minutes on two workers), once for the tests that look at it."""
    scope = load_scope(repo_root / THOUSAND, rule_base)
    assert count_plans(scope) == 1045
    return explore_scope(scope, rule_base, ExploreOptions())


@pytest.mark.slow
def test_a_scope_of_a_thousand_scenarios_gives_one_finding_per_cause(thousand: ExploreResult, rule_base: RuleBase,
                                                                     tmp_path: Path) -> None:
    """Two set-asides of one Hero and an early return over three turns: each finding its own cause, its
    witness checked alone showing that cause, and none asking about an attempt that cannot be legal."""
    result = thousand
    assert result.complete, result.incomplete
    assert result.findings and len({(f.verdict, f.at_fault) for f in result.findings}) == len(result.findings)
    smallest = [f for f in result.findings if f.at_fault_from != "open outcomes"]
    assert not any(o.verdict == f.verdict and o.at_fault_from == f.at_fault_from and set(o.at_fault) < set(f.at_fault)
                   for f in smallest for o in smallest)
    for i, f in enumerate(result.findings):
        case = tmp_path / f"finding-{i}.yaml"
        case.write_text(f.case, "utf-8")
        sc = load_case(case, rule_base)
        answered = check_scenario(sc, rule_base, resolve=True).results[0]
        cause = statements_at_fault(rule_base, answered)
        assert answered.verdict.value == f.verdict and cause[0] == f.at_fault_from and set(f.at_fault) <= set(cause[1])
    assert_no_finding_asks_of_an_attempt_that_is_not_legal(result, rule_base, tmp_path)


@pytest.mark.slow
def test_a_scope_of_a_thousand_scenarios_has_a_finding_for_each_cause_its_scenarios_show_alone(
        thousand: ExploreResult, repo_root: Path, rule_base: RuleBase) -> None:
    """The findings of the scope of two set-asides and an early return are exactly the causes its 1,045
    scenarios show, each answered in full alone (one process: the longest of the slow tests)."""
    result = thousand
    assert result.complete, result.incomplete
    causes = causes_by_hand(repo_root / THOUSAND, rule_base)
    assert len(result.findings) == len(causes)
    assert {(f.verdict, f.at_fault_from, f.at_fault) for f in result.findings} == causes


def test_shrinking_skips_only_scenarios_without_findings(rule_base: RuleBase, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A witness shrunk past the scenarios the search found to show nothing is the one shrinking tries every
    smaller scenario for: the same findings, witness cases included."""
    path = tmp_path / "scope.yaml"
    path.write_text(random_scope(7), "utf-8")  # two findings, whose shrinking meets three scenarios that show none
    scope = load_scope(path, rule_base)
    skipping = explore_scope(scope, rule_base, ExploreOptions(jobs=1))
    shrink = search._shrink
    monkeypatch.setattr(search, "_shrink", lambda *args: shrink(*args[:7]))  # every smaller scenario checked
    trying_all = explore_scope(scope, rule_base, ExploreOptions(jobs=1))
    assert skipping.findings, "the scope shows a finding to shrink"
    assert skipping.findings == trying_all.findings
