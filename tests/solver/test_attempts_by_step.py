"""A quantifier over attempts whose condition first compares the attempt's step with a known step ranges over
the attempts that comparison keeps, in grounding and in the reference evaluator, and gives what ranging over
every attempt gives.

`step_bound` names such a quantifier's comparison; grounding and the reference evaluator each try only the
attempts at the steps it keeps (`any(played(x) for x in attempts if step_of(x) == s)` tries the attempts at
`s`, where it tried every attempt at every step). Against each of them with `step_bound` answering None for
every quantifier (every attempt tried): the grounded text of every fourth bundled case and of two generated ones is
the same, byte for byte, with and without the inputs read into the rule bodies, and the reference evaluator
finds the same instances failing on the same assignments (every sixteenth bundled case).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from benchmarks.scenarios import scenario
from tests.reference.test_evaluator import engine_model
from verifier.errors import InputError, RegcheckError
from verifier.language import syntax
from verifier.language.encoding import RuleBase
from verifier.language.syntax import Quant, SourceText, parse_expression, step_bound, walk
from verifier.reference import compiled
from verifier.reference.evaluator import Key, Reference, Value
from verifier.scenario.loader import load_case
from verifier.scenario.model import Scenario
from verifier.solver import grounding
from verifier.solver.backend import SAT
from verifier.solver.engine import _Case
from verifier.solver.grounding import Grounding
from verifier.vocabulary import SYMBOLS

CASES = Path(__file__).resolve().parents[2] / "cases"
CASE_FILES = sorted(p for p in CASES.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())


def _quantifier(text: str) -> Quant:
    def error(message: str, loc: Any) -> InputError:
        return InputError(message, loc)

    found = [e for e in walk(parse_expression(text, SourceText("t.yaml", 1, 0), error)) if isinstance(e, Quant)]
    return found[0]


@pytest.mark.parametrize(("text", "bound"), [
    ("any(legal(x) for x in attempts if step_of(x) == s)", ("==", "s")),
    ("any(legal(x) for x in attempts if s == step_of(x))", ("==", "s")),
    ("any(legal(x) for x in attempts if step_of(x) < s and legal(x))", ("<", "s")),
    ("any(legal(x) for x in attempts if s > step_of(x))", ("<", "s")),
    ("any(legal(x) for x in attempts if step_of(x) >= s - 1)", (">=", None)),
    ("any(legal(x) for x in attempts if attempt_kind(x) == play_card and step_of(x) == s)", ("==", "s")),
    ("any(legal(x) for x in attempts if attempt_kind(x) in (play_card, activate_ability) and step_of(x) <= s)",
     ("<=", "s")),
    # what comes before the comparison reads more than the attempt's kind: every attempt is tried
    ("any(legal(x) for x in attempts if legal(x) and step_of(x) == s)", None),
    ("any(legal(x) for x in attempts if card_of(x) == c and step_of(x) == s)", None),
    # the step compared with names the attempt, or is not a plain value
    ("any(legal(x) for x in attempts if step_of(x) == step_of(x))", None),
    ("any(legal(x) for x in attempts if step_of(x) == return_step(y, c))", None),
    ("any(legal(x) for x in attempts if step_of(x) != s)", None),
    ("any(legal(x) for x in attempts if step_of(y) == s)", None),
    ("any(legal(x) for x in attempts)", None),
    ("any(zone(c, s) == hand for c in cards if s == 1)", None),
])
def test_the_comparison_named_is_the_first_that_reads_more_than_the_kind(text: str, bound: tuple[str, str | None] | None
                                                                         ) -> None:
    found = step_bound(_quantifier(text))
    if bound is None:
        assert found is None
        return
    assert found is not None
    assert found[0] == bound[0]
    if bound[1] is not None:
        assert isinstance(found[1], syntax.Name) and found[1].id == bound[1]


def _scenarios(rule_base: RuleBase, folder: Path) -> list[Scenario]:
    out: list[Scenario] = []
    for path in CASE_FILES:
        try:
            out.append(load_case(path, rule_base))
        except RegcheckError:
            continue
    for cards, turns in ((5, 4), (6, 6)):
        path = folder / f"g-{cards}x{turns}.yaml"
        path.write_text(scenario(cards, turns), encoding="utf-8")
        out.append(load_case(path, rule_base))
    return out


def _text(g: Grounding) -> list[str]:
    return ([f"{t.name} {t.body}" for t in g.tracked] + list(g.background)
            + [f"{k} {v}" for k, v in sorted(g.questions.items())])


def _grounded(gr: grounding._Grounder, rule_base: RuleBase, sc: Scenario, fold: bool) -> list[str] | str:
    g = Grounding(grounding.universe_names(sc), steps=len(sc.steps))
    gr.start(sc, "o", g)
    gr.fold_inputs = fold
    try:
        return _text(grounding._ground_with(gr, g, sc, rule_base, None))
    except RegcheckError as exc:
        return str(exc)
    finally:
        gr.fold_inputs = False


def _all_grounded(rule_base: RuleBase, scenarios: list[Scenario]) -> list[list[list[str] | str]]:
    gr = grounding._Grounder(rule_base)  # closures of its own, made under the step_bound in force
    return [[_grounded(gr, rule_base, sc, fold) for fold in (False, True)] for sc in scenarios]


def test_grounding_is_the_same_as_over_every_attempt(rule_base: RuleBase, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    scenarios = _scenarios(rule_base, tmp_path)[::4]
    assert any(step_bound(q) is not None for d in rule_base.definitions.values() for q in walk(d.body)
               if isinstance(q, Quant))
    by_step = _all_grounded(rule_base, scenarios)
    monkeypatch.setattr(grounding, "step_bound", lambda q: None)
    every = _all_grounded(rule_base, scenarios)
    assert len(by_step) > 80
    for sc, mine, theirs in zip(scenarios, by_step, every):
        assert mine == theirs, sc.source


def _failures(rule_base: RuleBase, sc: Scenario, models: list[dict[Key, Value]]) -> list[list[str]]:
    """The instances the reference evaluator finds failing on each of `models`, each model checked by a
    reference of its own."""
    compiled._COMPILERS.clear()  # closures made afresh under the step_bound in force
    return [Reference(sc, rule_base).failures(model) for model in models]


def _consistent(rule_base: RuleBase, sc: Scenario) -> bool:
    """Whether the scenario's rules and facts can all hold (a contradiction case has no model)."""
    case = _Case(sc, rule_base, None, 10_000, None)
    return not case.limit_hit and case.session.check(case.all).status == SAT


def _models(rule_base: RuleBase, sc: Scenario) -> list[dict[Key, Value]]:
    """The engine's first model of `sc`, and that model with each Boolean outcome flipped and each
    step-valued one moved a step later, in turn for every other one."""
    model = engine_model(sc, rule_base)
    moved = dict(model)
    for i, (key, value) in enumerate(sorted(model.items(), key=repr)):
        if i % 2:
            continue
        if isinstance(value, bool):
            moved[key] = not value
        elif isinstance(value, int) and SYMBOLS[key[0]].result == "step":
            moved[key] = min(value + 1, len(sc.steps))
    return [model, moved]


def test_the_reference_evaluator_is_the_same_as_over_every_attempt(rule_base: RuleBase, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    scenarios = [sc for sc in _scenarios(rule_base, tmp_path)[::16] if not sc.interpretations and _consistent(rule_base, sc)]
    models = [_models(rule_base, sc) for sc in scenarios]
    by_step = [_failures(rule_base, sc, m) for sc, m in zip(scenarios, models)]
    monkeypatch.setattr(compiled, "step_bound", lambda q: None)
    every = [_failures(rule_base, sc, m) for sc, m in zip(scenarios, models)]
    compiled._COMPILERS.clear()
    assert len(scenarios) > 15
    assert all(not f[0] for f in by_step)  # the engine's models break no rule
    assert sum(bool(f[1]) for f in by_step) > len(scenarios) // 2
    for sc, mine, theirs in zip(scenarios, by_step, every):
        assert mine == theirs, sc.source
