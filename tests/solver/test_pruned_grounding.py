"""Grounding leaves out the bindings whose guard the structure folds to false, and nothing else.

The grounded problem must be the one that weighing every binding gives: the same tracked
assertions in the same order, the same constants, background, shared terms and numbers, so the
solver is given the same text and finds the same models. `exhaustive` below is the binding loop
grounding had before it pruned: every binding of the rule's variables, in order, compiled and
dropped when it folds to true. Both are run on every bundled case and on generated ones.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.scenarios import scenario
from verifier.errors import EncodingError
from verifier.language.encoding import Rule, RuleBase
from verifier.scenario.loader import load_case
from verifier.scenario.model import Scenario
from verifier.solver import grounding
from verifier.solver.grounding import Grounding, RuleInstance, Term, ground, rule_instances, second_copy

CASES = Path(__file__).resolve().parents[2] / "cases"
CASE_FILES = sorted(p for p in CASES.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())


def exhaustive(self: grounding._Grounder, rule: Rule) -> Iterator[tuple[RuleInstance, Term]]:
    """Every binding of the rule's variables, compiled; those that fold to true left out."""
    names = [n for n, _ in rule.params]
    domains = [[Term(sort, v) for v in self.domain(sort)] for _, sort in rule.params]
    for terms in itertools.product(*domains):
        env = dict(zip(names, terms))
        try:
            body = self.compile(rule.body, env)
        except EncodingError as exc:
            label = RuleInstance(rule, self.binding(names, terms)).label
            raise EncodingError(f"{exc.message} (while grounding {label} for {self.sc.path})",
                                exc.location) from None
        if body.smt is None and body.const:
            continue
        yield RuleInstance(rule, self.binding(names, terms)), body


def grounded(sc: Scenario, rules: RuleBase) -> tuple[Grounding, list[str]]:
    g = ground(sc, rules)
    return g, second_copy(g)


def snapshot(g: Grounding, copy: list[str]) -> dict[str, object]:
    """Everything of a grounding the solver's text and the answers are made from."""
    return {
        "names": g.names,
        "constants": list(g.constants.items()),
        "background": g.background,
        "tracked": [(t.name, t.body, t.origin) for t in g.tracked],
        "questions": list(g.questions.items()),
        "derived": list(g.derived.items()),
        "question_terms": list(g.question_terms.items()),
        "shared": list(g.shared.items()),
        "numbers": list(g.numbers.items()),
        "copy": copy,
    }


def assert_same_grounding(sc: Scenario, rules: RuleBase, monkeypatch: pytest.MonkeyPatch) -> int:
    """Ground `sc` pruned and exhaustively; they must agree in every part. Returns the rule instances kept."""
    pruned = snapshot(*grounded(sc, rules))
    with monkeypatch.context() as m:
        m.setattr(grounding._Grounder, "instances", exhaustive)
        full = snapshot(*grounded(sc, rules))
    for part in full:
        assert pruned[part] == full[part], f"{sc.path}: the grounding differs in {part}"
    return sum(isinstance(origin, RuleInstance) for _, _, origin in pruned["tracked"])  # type: ignore[attr-defined]


@pytest.mark.parametrize("path", CASE_FILES, ids=[p.relative_to(CASES).as_posix() for p in CASE_FILES])
def test_bundled_case_grounds_as_every_binding_would(path: Path, rule_base: RuleBase,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    assert_same_grounding(load_case(path, rule_base), rule_base, monkeypatch)


@pytest.mark.parametrize(("cards", "turns"), [(4, 1), (5, 5), (8, 3), (10, 6)])
def test_generated_case_grounds_as_every_binding_would(cards: int, turns: int, rule_base: RuleBase, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "generated.yaml"
    path.write_text(scenario(cards, turns), encoding="utf-8")
    assert assert_same_grounding(load_case(path, rule_base), rule_base, monkeypatch) > 0


def test_grounding_compiles_no_more_bindings_than_it_counts(rule_base: RuleBase, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """`rule_instances` bounds the bindings whose body grounding compiles, and pruning leaves out many."""
    path = tmp_path / "generated.yaml"
    path.write_text(scenario(10, 6), encoding="utf-8")
    sc = load_case(path, rule_base)
    active = rule_base.active_rules(sc.interpretations)
    bodies = {id(rule.body) for rule in active}
    compiled = 0
    compile_ = grounding._Grounder.compile

    def counting(self: grounding._Grounder, e: grounding.Expr, env: grounding.Env) -> Term:
        nonlocal compiled
        compiled += id(e) in bodies
        return compile_(self, e, env)

    monkeypatch.setattr(grounding._Grounder, "compile", counting)
    g = ground(sc, rule_base)
    kept = sum(isinstance(t.origin, RuleInstance) for t in g.tracked)
    gr = grounding._grounder(rule_base)
    every = sum(math.prod(len(gr.domain(sort)) for _, sort in rule.params) for rule in active)
    assert 0 < kept <= compiled <= rule_instances(sc, rule_base) < every
    assert compiled < every * 2 // 3, (compiled, every)
