"""Grounding leaves out the bindings whose guard folds to false, and nothing else.

A guard's conditions are weighed on the structure and on the inputs the case's facts pin, so a binding
is left out when the structure or the facts make its guard false: its instance holds wherever the facts
hold. `exhaustive` below is the binding loop grounding had before it pruned: every binding of the rule's
variables, in order, compiled and dropped when it folds to true. Against it, on every bundled case and
on generated ones: every instance grounding keeps is one of the exhaustive loop's, with the same body
and in the same order (constants compared by what they name, since the exhaustive loop declares more of
them); every instance it leaves out holds given the facts (its body, with the pinned inputs read as their
values, folds to true); the facts and questions are the same.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.scenarios import scenario
from verifier.errors import EncodingError
from verifier.language.encoding import Rule, RuleBase
from verifier.scenario.loader import load_case
from verifier.scenario.model import Scenario
from verifier.solver import grounding
from verifier.solver.grounding import Grounding, RuleInstance, Term, ground, rule_instances
from verifier.vocabulary import SYMBOLS, SymbolKind

CASES = Path(__file__).resolve().parents[2] / "cases"
CASE_FILES = sorted(p for p in CASES.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())
SOLVER_NAME = re.compile(r"\|([a-z0-9]+):(\d+)\|")


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


def readable(g: Grounding, text: str) -> str:
    """`text` with every shared term written out and every solver name replaced by what it names, so two
    groundings can be compared (whether a long term is shared depends on the length of the names in it, and
    the exhaustive loop numbers more constants)."""
    named = {number: name for name, number in g.numbers.items()}

    def name(m: re.Match[str]) -> str:
        if m.group(0) in g.shared:
            return SOLVER_NAME.sub(name, g.shared[m.group(0)])
        return f"<{m.group(1)}:{named[int(m.group(2))]}>"
    return SOLVER_NAME.sub(name, text)


def parts(sc: Scenario, rules: RuleBase) -> tuple[list[tuple[RuleInstance, str]], list[str], list[str]]:
    """A grounding's rule instances (with readable bodies), facts and question terms."""
    g = ground(sc, rules)
    instances = [(t.origin, readable(g, t.body)) for t in g.tracked if isinstance(t.origin, RuleInstance)]
    facts = [readable(g, t.body) for t in g.tracked if not isinstance(t.origin, RuleInstance)]
    questions = [readable(g, text) for _, text in sorted(g.question_terms.items())]
    return instances, facts, questions


def left_out_can_fail(sc: Scenario, rules: RuleBase, left_out: list[RuleInstance]) -> list[str]:
    """The instances of `left_out` whose body does not fold to true with the inputs the case's facts pin
    read as their values."""
    gr = grounding._grounder(rules).start(sc, "o", Grounding(grounding.universe_names(sc), steps=len(sc.steps)))
    assert gr.folder is not None
    # The values read off the facts here, not taken from what grounding pinned.
    gr.folder.pinned = {(f.symbol, f.args): f.value for f in sc.facts  # type: ignore[misc]
                        if f.symbol in SYMBOLS and SYMBOLS[f.symbol].kind is SymbolKind.INPUT}
    gr.folder.def_cache, gr.folder.refs = {}, {}
    failing = []
    for inst in left_out:
        values = dict(inst.binding)
        env = {name: next(t for t in gr.domain_terms[sort] if gr.show(sort, t.const) == values[name])  # type: ignore[arg-type]
               for name, sort in inst.rule.params}
        body = gr.folder.compile(inst.rule.body, env)
        if not (body.smt is None and body.const):
            failing.append(inst.label)
    return failing


def assert_same_grounding(sc: Scenario, rules: RuleBase, monkeypatch: pytest.MonkeyPatch) -> int:
    """Ground `sc` pruned and exhaustively and compare them (see the module's docstring). Returns the rule
    instances kept."""
    pruned, facts, questions = parts(sc, rules)
    with monkeypatch.context() as m:
        m.setattr(grounding._Grounder, "instances", exhaustive)
        full, full_facts, full_questions = parts(sc, rules)
    assert facts == full_facts and questions == full_questions, f"{sc.path}: the facts or questions differ"
    kept = {inst.label: body for inst, body in pruned}
    assert len(kept) == len(pruned)
    assert [inst.label for inst, _ in full if inst.label in kept] == [inst.label for inst, _ in pruned], \
        f"{sc.path}: an instance is kept that the exhaustive loop does not have, or the order differs"
    for inst, body in full:
        assert inst.label not in kept or kept[inst.label] == body, f"{sc.path}: {inst.label} is grounded otherwise"
    failing = left_out_can_fail(sc, rules, [inst for inst, _ in full if inst.label not in kept])
    assert not failing, f"{sc.path}: left out but can fail: {failing[:5]}"
    return len(pruned)


# every twelfth bundled case in the default run, every one with -m slow (the exhaustive loop is the cost: about
# 100 s of the default suite's CPU at every sixth)
@pytest.mark.parametrize("path", [pytest.param(p, marks=[] if i % 12 == 0 else [pytest.mark.slow])
                                  for i, p in enumerate(CASE_FILES)],
                         ids=[p.relative_to(CASES).as_posix() for p in CASE_FILES])
def test_bundled_case_grounds_as_every_binding_would(path: Path, rule_base: RuleBase,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    assert_same_grounding(load_case(path, rule_base), rule_base, monkeypatch)


@pytest.mark.parametrize(("cards", "turns"), [(4, 1), (5, 5), pytest.param(8, 3, marks=pytest.mark.slow),
                                              pytest.param(10, 6, marks=pytest.mark.slow)])
def test_generated_case_grounds_as_every_binding_would(cards: int, turns: int, rule_base: RuleBase, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "generated.yaml"
    path.write_text(scenario(cards, turns), encoding="utf-8")
    assert assert_same_grounding(load_case(path, rule_base), rule_base, monkeypatch) > 0


def test_grounding_compiles_no_more_bindings_than_it_counts(rule_base: RuleBase, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """`rule_instances` counts the bindings whose body grounding compiles, and pruning leaves out many."""
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
    assert 0 < kept <= compiled == rule_instances(sc, rule_base) < every
    assert compiled < every * 2 // 3, (compiled, every)
