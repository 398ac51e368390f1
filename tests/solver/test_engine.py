"""The verdict engine: one verdict per question, with evidence that re-checks."""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from verifier.language.encoding import RuleBase
from verifier.rulesdoc import RulesDocument
from verifier.scenario.loader import load_case
from verifier.scenario.model import Fact, Scenario
from verifier.solver import backend
from verifier.solver.backend import SAT, UNSAT, Check, Session
from verifier.solver.engine import check_scenario
from verifier.solver.grounding import RuleInstance, ground
from verifier.verdicts import CaseResult, QuestionResult, Verdict

PASSOVER = """\
title: Passover gives no duration, so its controller chooses when the Hero returns
players: [alice, bob]
turns: 3
cards:
  moses:
    type: Hero
    brigade: Green
  passover:
    card: Passover
timeline:
  - id: play_passover
    turn: 1
    phase: Preparation
    play: passover
    on: moses
    targets: [moses]
questions:
  legal: legal(play_passover)
  returns_at: return_step(play_passover, moses)
expect:
  legal: {verdict: determined, value: yes}
  returns_at: choice-dependent
"""

UPKEEP = """\
title: A set-aside made during an Upkeep
players: [alice, bob]
turns: 3
cards:
  watchman:
    type: Hero
    brigade: Blue
    owner: bob
    abilities:
      - kind: set aside
        duration: 1 turn
  daniel:
    type: Hero
    brigade: Blue
    owner: bob
timeline:
  - id: upkeep_set_aside
    turn: 2
    phase: Upkeep
    activate: watchman
    targets: [daniel]
questions:
  returns_at: return_step(upkeep_set_aside, daniel)
expect:
  returns_at: ambiguous
"""


@pytest.fixture
def run(make_case: Callable[..., Scenario], rule_base: RuleBase, rules_doc: RulesDocument) -> Callable[..., CaseResult]:
    def go(text: str, **kwargs: object) -> CaseResult:
        return check_scenario(make_case(text), rule_base, rules_doc, **kwargs)  # type: ignore[arg-type]

    return go


def by_question(result: CaseResult) -> dict[str, QuestionResult]:
    return {r.question: r for r in result.results}


# -- determined -------------------------------------------------------------------------------


def test_determined(run: Callable[..., CaseResult], provisions_text: str) -> None:
    result = run(provisions_text)
    assert result.case == "case.yaml"
    assert result.title.startswith("Provisions")
    r = by_question(result)
    assert [q for q in r] == ["legal", "returns_at"]
    assert (r["legal"].verdict, r["legal"].value, r["legal"].ok) == (Verdict.DETERMINED, "yes", True)
    assert (r["returns_at"].verdict, r["returns_at"].value) == (Verdict.DETERMINED, "turn 3 Preparation (alice)")
    assert r["returns_at"].expected == "determined"
    assert r["returns_at"].expected_value == "turn 3 Preparation (alice)"
    assert r["returns_at"].ok
    assert not r["returns_at"].witnesses and not r["returns_at"].core


def test_determined_by_structure(run: Callable[..., CaseResult], provisions_text: str) -> None:
    text = provisions_text.replace("questions:\n", "questions:\n  when: phase_of(step_of(play_provisions))\n")
    r = by_question(run(text))["when"]
    assert (r.verdict, r.value) == (Verdict.DETERMINED, "Preparation")
    assert r.reason == "fixed by the scenario's structure"
    assert r.ok and r.expected is None


@pytest.mark.parametrize(
    ("expect", "ok"),
    [
        ("{verdict: determined, value: turn 3 Preparation}", True),
        ("{verdict: determined, value: turn 2 Preparation}", False),
        ("choice-dependent", False),
        ("ambiguous", False),
        ("contradiction", False),
    ],
)
def test_expectation_is_compared(run: Callable[..., CaseResult], provisions_text: str, expect: str, ok: bool) -> None:
    text = provisions_text.replace("returns_at: {verdict: determined, value: turn 3 Preparation}", f"returns_at: {expect}")
    r = by_question(run(text))["returns_at"]
    assert r.verdict is Verdict.DETERMINED
    assert r.ok is ok


def test_wrong_value_keeps_the_expected_value(run: Callable[..., CaseResult], provisions_text: str) -> None:
    text = provisions_text.replace("value: turn 3 Preparation", "value: turn 4 Preparation")
    r = by_question(run(text))["returns_at"]
    assert (r.value, r.expected_value, r.ok) == ("turn 3 Preparation (alice)", "turn 4 Preparation (bob)", False)


# -- choice-dependent -------------------------------------------------------------------------


def test_choice_dependent(run: Callable[..., CaseResult]) -> None:
    r = by_question(run(PASSOVER))
    assert (r["legal"].verdict, r["legal"].value) == (Verdict.DETERMINED, "yes")
    q = r["returns_at"]
    assert q.verdict is Verdict.CHOICE_DEPENDENT and q.ok and q.value is None
    values = [w.value for w in q.witnesses]
    assert len(values) >= 2 and len(set(values)) == len(values)
    # SA-5: a chosen return happens in a Preparation Phase (or not within the timeline)
    assert set(values) <= {"turn 2 Preparation (bob)", "turn 3 Preparation (alice)", "never"}
    assert "turn 2 Preparation (bob)" in values and "turn 3 Preparation (alice)" in values
    # each value comes with the choice that leads to it, and different values with different choices
    choice_sets = [w.choices for w in q.witnesses]
    assert all(choice_sets)
    assert len(set(choice_sets)) == len(choice_sets)
    for w in q.witnesses:
        names = [name for name, _ in w.choices]
        assert names == ["return_choice(play_passover, moses)"]
    assert "SA-5" in q.rules_involved


@pytest.mark.parametrize("limit", [1, 2, 3, 4])
def test_the_value_list_says_more_only_when_a_further_value_exists(run: Callable[..., CaseResult],
                                                                  monkeypatch: pytest.MonkeyPatch,
                                                                  limit: int) -> None:
    from verifier.solver import engine

    every = {w.value for w in by_question(run(PASSOVER))["returns_at"].witnesses}
    monkeypatch.setattr(engine, "MAX_CHOICE_VALUES", limit)
    q = by_question(run(PASSOVER))["returns_at"]
    assert len(q.witnesses) == min(limit, len(every))
    assert {w.value for w in q.witnesses} <= every
    if limit < len(every):
        assert q.reason == f"more than {limit} values; the first {limit} are listed"
    else:
        assert q.reason == ""


# -- ambiguous --------------------------------------------------------------------------------


def test_ambiguous(run: Callable[..., CaseResult]) -> None:
    q = by_question(run(UPKEEP))["returns_at"]
    assert q.verdict is Verdict.AMBIGUOUS and q.ok
    one, two = q.witnesses
    assert {one.value, two.value} == {"turn 2 Preparation (bob)", "turn 3 Preparation (alice)"}
    # the same choices, two outcomes: trimmed to what differs, which includes the reason
    assert one.choices == two.choices
    assert [n for n, _ in one.outcomes] == [n for n, _ in two.outcomes]
    assert one.outcomes and all(a != b for (_, a), (_, b) in zip(one.outcomes, two.outcomes, strict=True))
    assert "counts_own_upkeep(upkeep_set_aside)" in dict(one.outcomes)
    assert "SA-6" in q.rules_involved


# -- contradiction ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def contradiction(tmp_path_factory: pytest.TempPathFactory, rule_base: RuleBase, rules_doc: RulesDocument,
                  tiny_contradiction_text: str) -> tuple[Scenario, CaseResult]:
    """The tiny contradiction, checked once for the tests that read its result."""
    path = tmp_path_factory.mktemp("contradiction") / "case.yaml"
    path.write_text(tiny_contradiction_text, encoding="utf-8")
    sc = load_case(path, rule_base, display="case.yaml")
    return sc, check_scenario(sc, rule_base, rules_doc)


def test_contradiction_verdict(contradiction: tuple[Scenario, CaseResult]) -> None:
    _sc, result = contradiction
    (q,) = result.results
    assert q.verdict is Verdict.CONTRADICTION and q.ok
    assert q.value is None
    assert q.core and q.core_verified and not q.reason


def test_core_names_rules_and_case_lines(contradiction: tuple[Scenario, CaseResult],
                                         tiny_contradiction_text: str, rules_doc: RulesDocument) -> None:
    _sc, result = contradiction
    core = result.results[0].core
    rules = [c for c in core if c.kind == "rule"]
    facts = [c for c in core if c.kind == "fact"]
    assert rules and facts
    labels = {c.label for c in rules}
    # the two rules in conflict: SA-5 (returns only in a Preparation Phase) and the negate's early return
    assert "SA-5[x=zap, c=joshua]" in labels
    assert any(lbl.startswith("SA-6d[x=zap, c=joshua") for lbl in labels)
    statements = rules_doc.by_id()
    for c in rules:
        assert c.statements, c.label
        for sid, text in c.statements:
            assert text == statements[sid].text
        assert c.location.split(":")[0].endswith(".yaml")
    lines = tiny_contradiction_text.splitlines()
    for c in facts:
        path, line, column = c.location.rsplit(":", 2)
        assert path == "case.yaml"
        assert 1 <= int(line) <= len(lines) and 1 <= int(column) <= len(lines[int(line) - 1]) + 1
    zap_targets = next(c for c in facts if c.label == "targets(zap, joshua)")
    number = int(zap_targets.location.split(":")[1])
    assert lines[number - 1].strip() == "targets: [joshua]"
    assert zap_targets.text == "zap targets joshua"


def test_core_is_minimal_and_conflicting(contradiction: tuple[Scenario, CaseResult], rule_base: RuleBase) -> None:
    """Re-check the reported core on a fresh solver: unsatisfiable, and each member needed."""
    sc, result = contradiction
    # Cores are taken from a grounding that names every instance (no outcome settled in advance).
    kwargs = {"propagate": False} if "propagate" in inspect.signature(ground).parameters else {}
    g = ground(sc, rule_base, **kwargs)
    by_label: dict[str, str] = {}
    for t in g.tracked:
        label = t.origin.label if isinstance(t.origin, RuleInstance) else t.origin.name
        by_label[label] = t.name
    names = [by_label[c.label] for c in result.results[0].core]
    assert len(names) == len(set(names))
    session = Session(g, timeout_ms=20_000, tracked=True)
    assert session.check(names).status == UNSAT
    for n in names:
        assert session.check([m for m in names if m != n]).status == SAT, f"{n} is not needed"


def test_one_core_serves_every_question(make_case: Callable[..., Scenario], rule_base: RuleBase,
                                        tiny_contradiction_text: str) -> None:
    text = tiny_contradiction_text.replace("questions:\n", "questions:\n  joshua_back: return_step(zap, joshua)\n")
    text = text.replace("expect:\n", "expect:\n  joshua_back: contradiction\n")
    results = check_scenario(make_case(text), rule_base).results
    assert [r.verdict for r in results] == [Verdict.CONTRADICTION, Verdict.CONTRADICTION]
    assert results[0].core == results[1].core
    # without a rules document the cited statements are still named
    assert all(sid for c in results[0].core for sid, _ in c.statements)


def test_unexpected_contradiction_is_not_ok(make_case: Callable[..., Scenario], rule_base: RuleBase,
                                            tiny_contradiction_text: str) -> None:
    text = tiny_contradiction_text.split("expect:")[0]
    (q,) = check_scenario(make_case(text), rule_base).results
    assert q.verdict is Verdict.CONTRADICTION and q.expected is None and not q.ok


def test_interpretation_resolves_the_contradiction(make_case: Callable[..., Scenario], rule_base: RuleBase,
                                                   tiny_contradiction_text: str) -> None:
    text = tiny_contradiction_text.replace("turns: 1\n", "turns: 1\ninterpretations: [SA-5-I1]\n")
    text = text.replace("zap_legal: contradiction", "zap_legal: {verdict: determined, value: yes}")
    sc = make_case(text)
    assert sc.interpretations == ("SA-5-I1",)
    (q,) = check_scenario(sc, rule_base).results
    assert (q.verdict, q.value, q.ok) == (Verdict.DETERMINED, "yes", True)


# -- unknown ------------------------------------------------------------------------------------


def forced_unknown(monkeypatch: pytest.MonkeyPatch, when: Callable[[Iterable[str], object], bool]) -> None:
    """Make the solver give up, deterministically, on the checks `when` selects."""
    real = Session.check

    def check(self: Session, assume: Iterable[str] = (), extra: object = ()) -> Check:
        if when(assume, extra):
            return Check(backend.UNKNOWN, "timeout")
        return real(self, assume, extra)  # type: ignore[arg-type]

    monkeypatch.setattr(Session, "check", check)


def test_unknown_on_the_first_check(monkeypatch: pytest.MonkeyPatch, run: Callable[..., CaseResult],
                                    provisions_text: str) -> None:
    forced_unknown(monkeypatch, lambda assume, extra: True)
    results = run(provisions_text).results
    assert [r.verdict for r in results] == [Verdict.UNKNOWN, Verdict.UNKNOWN]
    assert all(r.reason == "timeout" and not r.ok and r.value is None for r in results)


def test_unknown_for_one_question(monkeypatch: pytest.MonkeyPatch, run: Callable[..., CaseResult],
                                  provisions_text: str) -> None:
    # the scenario is consistent, but every check of another value gives up
    forced_unknown(monkeypatch, lambda assume, extra: bool(extra))
    text = provisions_text.replace("questions:\n", "questions:\n  when: phase_of(step_of(play_provisions))\n")
    r = by_question(run(text))
    assert r["legal"].verdict is Verdict.UNKNOWN and not r["legal"].ok
    assert r["legal"].reason == "timeout"
    assert r["returns_at"].verdict is Verdict.UNKNOWN and not r["returns_at"].ok
    # a value fixed by the scenario's structure needs no solver
    assert r["when"].verdict is Verdict.DETERMINED


def test_unknown_while_minimising_is_reported(monkeypatch: pytest.MonkeyPatch, make_case: Callable[..., Scenario],
                                              rule_base: RuleBase, tiny_contradiction_text: str) -> None:
    sc = make_case(tiny_contradiction_text)
    total = len(ground(sc, rule_base).tracked)
    folded = len(ground(sc, rule_base, fold=True).tracked)
    # the full set (of the grounding that reads the inputs' values, then of the one that names them, on which
    # the conflict is minimised) is checked as usual; any proper subset gives up
    forced_unknown(monkeypatch, lambda assume, extra: len(list(assume)) not in (folded, total))
    (q,) = check_scenario(sc, rule_base).results
    assert q.verdict is Verdict.CONTRADICTION
    assert not q.core_verified
    assert q.reason.startswith("minimising stopped: timeout")


def test_expected_unknown_is_still_not_a_pass(monkeypatch: pytest.MonkeyPatch, run: Callable[..., CaseResult],
                                              provisions_text: str) -> None:
    forced_unknown(monkeypatch, lambda assume, extra: True)
    text = provisions_text.replace("legal: {verdict: determined, value: yes}", "legal: unknown")
    r = by_question(run(text))["legal"]
    assert r.verdict is Verdict.UNKNOWN
    assert not r.ok


def test_real_timeout_is_never_a_pass(run: Callable[..., CaseResult], provisions_text: str) -> None:
    # with the smallest timeout the verdict may or may not be reached; an unknown is never ok
    for r in run(provisions_text, timeout_ms=1).results:
        assert r.verdict is not Verdict.UNKNOWN or not r.ok


# -- valid scenarios the engine should check -----------------------------------------------------

ARTIFACT = """\
title: an Artifact whose ability sets a Hero aside is played outside battle
players: [alice, bob]
cards:
  elijah:
    type: Hero
  jar:
    type: Artifact
    abilities:
      - kind: set aside
        duration: 1 turn
timeline:
  - id: play_jar
    turn: 1
    phase: Preparation
    play: jar
    targets: [elijah]
questions:
  legal: legal(play_jar)
"""

HERO = """\
title: a Hero is played from the hand into its territory
players: [alice, bob]
cards:
  elijah:
    type: Hero
    zone: hand
    abilities:
      - kind: other
timeline:
  - id: play_elijah
    turn: 1
    phase: Preparation
    play: elijah
questions:
  legal: legal(play_elijah)
"""


@pytest.mark.parametrize("text", [ARTIFACT, HERO], ids=["artifact", "hero"])
def test_playing_a_card_without_on(run: Callable[..., CaseResult], text: str) -> None:
    r = run(text).results[0]
    assert r.verdict is not Verdict.CONTRADICTION


def test_facts_are_reported_with_their_defaults(make_case: Callable[..., Scenario], provisions_text: str) -> None:
    sc = make_case(provisions_text)
    defaults = {f.name for f in sc.facts if f.default}
    assert "owner(elijah)" in defaults
    assert "card_type(elijah)" not in defaults
    assert all(isinstance(f, Fact) for f in sc.facts)


# -- ways out of a contradiction -------------------------------------------------------------------


def _droppable(sc: Scenario, rules: RuleBase) -> list[str]:
    """The statements a correction set may leave out: cited by a rule with an instance in the scenario,
    and not a core principle."""
    cited = {sid for t in ground(sc, rules).tracked if isinstance(t.origin, RuleInstance)
             for sid in t.origin.rule.cites}
    return sorted(sid for sid in cited if not sid.startswith("CORE-"))


def _consistent_without(sc: Scenario, rules: RuleBase) -> Callable[[Iterable[str]], bool]:
    """An independent check of a correction set: one rule instance per literal (as a conflicting set is
    found), every instance of a rule citing a left-out statement not assumed."""
    g = ground(sc, rules)
    session = Session(g, 10_000, tracked=True)

    def check(statements: Iterable[str]) -> bool:
        out = set(statements)
        kept = [t.name for t in g.tracked
                if not (isinstance(t.origin, RuleInstance) and out & set(t.origin.rule.cites))]
        status = session.check(kept).status
        assert status in (SAT, UNSAT)
        return status == SAT

    return check


def _minimal_correction_sets(sc: Scenario, rules: RuleBase, largest: int) -> set[frozenset[str]]:
    """Every minimal correction set of at most `largest` statements, by trying every such set."""
    consistent = _consistent_without(sc, rules)
    found: set[frozenset[str]] = set()
    for size in range(1, largest + 1):
        for chosen in itertools.combinations(_droppable(sc, rules), size):
            picked = frozenset(chosen)
            if not any(f <= picked for f in found) and consistent(picked):
                found.add(picked)
    return found


def _left_out(rules: RuleBase, statements: Iterable[str]) -> RuleBase:
    out = set(statements)
    return rules._replace(rules=tuple(r for r in rules.rules if not out & set(r.cites)))


def _answers(result: CaseResult) -> dict[str, tuple[Verdict, str | None]]:
    return {r.question: (r.verdict, r.value) for r in result.results}


def test_a_contradiction_keeps_its_verdict_and_gains_resolutions(make_case: Callable[..., Scenario],
                                                                 rule_base: RuleBase, rules_doc: RulesDocument,
                                                                 tiny_contradiction_text: str) -> None:
    sc = make_case(tiny_contradiction_text)
    plain = check_scenario(sc, rule_base, rules_doc)
    resolved = check_scenario(sc, rule_base, rules_doc, resolve=True)
    assert all(not r.resolutions and not r.resolutions_note for r in plain.results)
    for before, after in zip(plain.results, resolved.results, strict=True):
        assert (after.verdict, after.value, after.ok, after.core) == (before.verdict, before.value, before.ok, before.core)
        assert after.verdict is Verdict.CONTRADICTION and after.resolutions


def test_every_correction_set_is_minimal_and_consistent(make_case: Callable[..., Scenario], rule_base: RuleBase,
                                                        rules_doc: RulesDocument, tiny_contradiction_text: str) -> None:
    sc = make_case(tiny_contradiction_text)
    (r,) = check_scenario(sc, rule_base, rules_doc, resolve=True).results
    consistent = _consistent_without(sc, rule_base)
    grounded = {t.origin.rule.id: set(t.origin.rule.cites) for t in ground(sc, rule_base).tracked
                if isinstance(t.origin, RuleInstance)}
    corrections = [w for w in r.resolutions if w.kind == "correction"]
    assert corrections
    for w in corrections:
        assert w.verified and w.statements and w.interpretation is None
        assert not any(sid.startswith("CORE-") for sid in w.statements)
        assert consistent(w.statements)
        for sid in w.statements:  # minimal: without less of it the conflict holds
            assert not consistent(set(w.statements) - {sid})
        # the rules it leaves out are those with an instance in the scenario that cite it
        assert set(w.rules) == {rule for rule, cites in grounded.items() if cites & set(w.statements)}


def test_correction_sets_are_the_smallest_first(make_case: Callable[..., Scenario], rule_base: RuleBase,
                                                 rules_doc: RulesDocument, tiny_contradiction_text: str) -> None:
    sc = make_case(tiny_contradiction_text)
    (r,) = check_scenario(sc, rule_base, rules_doc, resolve=True).results
    reported = {frozenset(w.statements) for w in r.resolutions if w.kind == "correction"}
    largest = max(len(f) for f in reported)
    every = _minimal_correction_sets(sc, rule_base, largest)
    assert reported <= every
    # none smaller than the largest reported is left out, whether or not the search stopped at its limit
    assert {f for f in every if len(f) < largest} <= reported
    if not r.resolutions_note:
        assert reported == every


@pytest.mark.parametrize(("case", "largest"), [
    ("modifiers/modifier-excluding-one-type-of-an-ability-with-other-effects.yaml", 3),
    ("modifiers/discard-modifier-targeting-negate-and-discard-ability-as-a-whole.yaml", 2),
])
def test_every_correction_set_is_found(repo_root: Path, rule_base: RuleBase, rules_doc: RulesDocument,
                                       case: str, largest: int) -> None:
    sc = load_case(repo_root / "cases" / case, rule_base)
    result = check_scenario(sc, rule_base, rules_doc, resolve=True)
    r = result.results[0]
    assert r.verdict is Verdict.CONTRADICTION and not r.resolutions_note
    reported = {frozenset(w.statements) for w in r.resolutions if w.kind == "correction"}
    # every set of at most `largest` statements tried
    assert {f for f in reported if len(f) <= largest} == _minimal_correction_sets(sc, rule_base, largest)


def test_answers_under_a_correction_set_are_those_of_the_case_without_its_rules(
        make_case: Callable[..., Scenario], rule_base: RuleBase, rules_doc: RulesDocument,
        tiny_contradiction_text: str) -> None:
    sc = make_case(tiny_contradiction_text.replace("questions:\n", "questions:\n  back: return_step(zap, joshua)\n"))
    result = check_scenario(sc, rule_base, rules_doc, resolve=True)
    for w in result.results[0].resolutions:
        if w.kind != "correction":
            continue
        # the case grounded afresh without the rules, answered in full (witnesses and all)
        expected = _answers(check_scenario(sc, _left_out(rule_base, w.statements), rules_doc))
        assert {a.question: (a.verdict, a.value) for a in w.answers} == expected
        assert all(r.resolutions == result.results[0].resolutions for r in result.results)


def test_an_interpretation_resolves_darkness_negated_in_battle(repo_root: Path, rule_base: RuleBase,
                                                              rules_doc: RulesDocument) -> None:
    folder = repo_root / "cases" / "set-aside"
    sc = load_case(folder / "darkness-negated-in-battle.yaml", rule_base)
    interpreted = load_case(folder / "darkness-negated-in-battle-interpreted.yaml", rule_base)
    result = check_scenario(sc, rule_base, rules_doc, resolve=True)
    for r in result.results:
        assert r.verdict is Verdict.CONTRADICTION and r.ok
        (w,) = [w for w in r.resolutions if w.kind == "interpretation"]
        assert (w.interpretation, w.rules, w.statements, w.verified) == ("SA-5-I1", ("SA-5",), (), True)
        # the interpreted case file states what the rules decide under SA-5-I1
        expected = next(e for e in interpreted.expectations if e.question == r.question)
        answer = w.answer_to(r.question)
        assert answer is not None
        assert (answer.verdict.value, answer.value) == (expected.verdict, expected.value)
    # leaving out SA-5 itself is one of the correction sets
    assert ("SA-5",) in [w.statements for w in result.results[0].resolutions if w.kind == "correction"]


def test_an_interpretation_that_replaces_no_rule_of_the_conflict_is_not_tried(
        repo_root: Path, rule_base: RuleBase, rules_doc: RulesDocument) -> None:
    sc = load_case(repo_root / "cases" / "modifiers" / "modifier-excluding-one-type-of-an-ability-with-other-effects.yaml",
                   rule_base)
    (r, *_) = check_scenario(sc, rule_base, rules_doc, resolve=True).results
    assert not [w for w in r.resolutions if w.kind == "interpretation"]
    # and indeed it would not resolve the case
    with_it = check_scenario(sc._replace(interpretations=("SA-5-I1",)), rule_base, rules_doc)
    assert all(x.verdict is Verdict.CONTRADICTION for x in with_it.results)
