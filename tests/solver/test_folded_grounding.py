"""Grounding with `fold`: the rule bodies read the inputs the facts pin as their values, and nothing else changes.

Against the grounding that names the inputs, on bundled cases and a generated one: the facts and the
questions are the same (the inputs stay solver constants the facts pin); every rule instance kept is one of
the other grounding's, in the same order, and names no input a fact pins; every instance left out holds
given the facts, and the grounding names the rules with an instance left out. A question reads the inputs
as solver constants, so its value is found by the solver or fixed by the structure alike. The engine
answers a case grounded either way alike: a conflict, its ways out and an ambiguity are worked out on the
grounding that names the inputs, so they are the same to the last item.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.scenarios import scenario
from tests.solver.test_pruned_grounding import left_out_can_fail, readable
from verifier.language.encoding import RuleBase
from verifier.rulesdoc import RulesDocument
from verifier.scenario.loader import load_case
from verifier.scenario.model import Scenario
from verifier.solver.engine import check_scenario
from verifier.solver.grounding import Grounding, RuleInstance, ground, mentioned
from verifier.verdicts import Verdict
from verifier.vocabulary import SYMBOLS, SymbolKind

CASES = Path(__file__).resolve().parents[2] / "cases"
CASE_FILES = sorted(p for p in CASES.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())
CONFLICT = "interactions/character-being-discarded-set-aside-in-the-same-phase.yaml"
AMBIGUITY = "ability-activation-order/group-of-two-heroes-unordered.yaml"
CHOICES = "interactions/passover-poisoned-hero-heal-depends-on-when-it-returns.yaml"


def pinned_inputs(g: Grounding, sc: Scenario) -> set[str]:
    """The solver constants of the inputs the scenario's facts pin (each to one value)."""
    values: dict[tuple[str, tuple[str, ...]], set[object]] = {}
    for f in sc.facts:
        if f.symbol in SYMBOLS and SYMBOLS[f.symbol].kind is SymbolKind.INPUT:
            values.setdefault((f.symbol, tuple(f.args)), set()).add(f.value)
    return {name for name, ref in g.constants.items()
            if ref.kind is SymbolKind.INPUT and len(values.get((ref.symbol, ref.args), ())) == 1}


def assert_folds_only_inputs(sc: Scenario, rules: RuleBase) -> int:
    """Ground `sc` with and without `fold` and compare them (see the module's docstring); the instances kept
    with `fold`."""
    named, folded = ground(sc, rules), ground(sc, rules, fold=True)
    facts = [(t.origin, readable(g, t.body)) for g in (named, folded) for t in g.tracked
             if not isinstance(t.origin, RuleInstance)]
    assert facts[:len(facts) // 2] == facts[len(facts) // 2:], f"{sc.path}: the facts differ"
    # a question's value is the solver's to find, or fixed by the structure, alike
    assert ({q: [(t.type, t.const, t.known) for t in parts] for q, parts in named.questions.items()}
            == {q: [(t.type, t.const, t.known) for t in parts] for q, parts in folded.questions.items()}), \
        f"{sc.path}: a question differs"
    every = [t.origin.label for t in named.tracked if isinstance(t.origin, RuleInstance)]
    kept = [t for t in folded.tracked if isinstance(t.origin, RuleInstance)]
    labels = {t.origin.label for t in kept}  # type: ignore[union-attr]
    assert [label for label in every if label in labels] == [t.origin.label for t in kept], \
        f"{sc.path}: an instance is kept that the other grounding does not have, or the order differs"
    # the rules with an instance left out are named, so the rules with an instance are those of the other grounding
    held = {t.origin.rule.id for t in named.tracked if isinstance(t.origin, RuleInstance) and t.origin.label not in labels}
    assert folded.held_by_inputs == held and not named.held_by_inputs, f"{sc.path}: the rules held by the inputs differ"
    inputs = pinned_inputs(folded, sc)
    naming = [t.origin.label for t in kept if mentioned(t.body) & inputs]  # type: ignore[union-attr]
    assert not naming, f"{sc.path}: rule bodies name a pinned input: {naming[:5]}"
    left_out = [t.origin for t in named.tracked if isinstance(t.origin, RuleInstance) and t.origin.label not in labels]
    failing = left_out_can_fail(sc, rules, left_out)  # type: ignore[arg-type]
    assert not failing, f"{sc.path}: left out but can fail: {failing[:5]}"
    return len(kept)


# every twelfth bundled case in the default run, every one with -m slow
@pytest.mark.parametrize("path", [pytest.param(p, marks=[] if i % 12 == 5 else [pytest.mark.slow])
                                  for i, p in enumerate(CASE_FILES)],
                         ids=[p.relative_to(CASES).as_posix() for p in CASE_FILES])
def test_bundled_case_folds_only_its_pinned_inputs(path: Path, rule_base: RuleBase) -> None:
    assert_folds_only_inputs(load_case(path, rule_base), rule_base)


def test_generated_case_folds_only_its_pinned_inputs(rule_base: RuleBase, tmp_path: Path) -> None:
    path = tmp_path / "generated.yaml"
    path.write_text(scenario(5, 3), encoding="utf-8")
    sc = load_case(path, rule_base)
    assert assert_folds_only_inputs(sc, rule_base) < len([t for t in ground(sc, rule_base).tracked
                                                           if isinstance(t.origin, RuleInstance)])


@pytest.mark.parametrize("case", [CONFLICT, AMBIGUITY])
def test_conflict_and_ambiguity_are_answered_as_on_the_grounding_that_names_the_inputs(
        case: str, rule_base: RuleBase, rules_doc: RulesDocument) -> None:
    sc = load_case(CASES / case, rule_base)
    folded = check_scenario(sc, rule_base, rules_doc, resolve=True)
    assert {r.verdict for r in folded.results} & {Verdict.CONTRADICTION, Verdict.AMBIGUOUS}
    # cores with their facts, ways out, witnesses, rules involved and statements at fault
    assert folded == check_scenario(sc, rule_base, rules_doc, resolve=True, fold=False)


def test_choice_dependent_answers_keep_their_values(rule_base: RuleBase, rules_doc: RulesDocument) -> None:
    sc = load_case(CASES / CHOICES, rule_base)
    folded = check_scenario(sc, rule_base, rules_doc).results
    named = check_scenario(sc, rule_base, rules_doc, fold=False).results
    assert any(r.verdict is Verdict.CHOICE_DEPENDENT for r in folded)
    assert [(r.verdict, r.value, r.ok) for r in folded] == [(r.verdict, r.value, r.ok) for r in named]
    for one, other in zip(folded, named):
        assert sorted(w.value for w in one.witnesses) == sorted(w.value for w in other.witnesses)
        # an instance that reached the value only through an input no longer names it
        assert set(one.rules_involved) <= set(other.rules_involved)
