"""How the rule instances of a case grow with its length, and which attempts the rules of the ability activation
order are weighed for.

The generated cases of benchmarks/scenarios.py attempt a set-aside every turn, so their attempts grow with
the turns as the steps do. Grounding 10 cards over 5 and over 10 turns (32 and 65 steps, 7 and 15 attempts),
every rule's instances at most grow with the steps and the attempts (about twice as many), but for the rules
listed in SUPERLINEAR, which are bound over an attempt and a step (or give each attempt a term per turn) and
so grow with their product (about four times as many).
"""

from __future__ import annotations

from pathlib import Path

from benchmarks.scenarios import scenario
from verifier.language.encoding import RuleBase
from verifier.scenario.loader import load_case
from verifier.solver import grounding
from verifier.solver.grounding import Grounding, universe_names

# Where each card an attempt set aside comes back, at each step of a Preparation Phase after it (SA-8, SA-9),
# and the start of each Preparation Phase after a set-aside with a duration (SA-6). Whether a paired ability
# is active and whether a discard is suspended at a step are definitions (paired_active, discard_suspended),
# worked out only where a rule or a question reads them.
SUPERLINEAR = frozenset({"SA-6", "SA-8", "SA-9"})


def _weights(rule_base: RuleBase, path: Path, cards: int, turns: int) -> dict[str, int]:
    path.write_text(scenario(cards, turns), encoding="utf-8")
    sc = load_case(path, rule_base)
    gr = grounding._grounder(rule_base).start(sc, "o", Grounding(universe_names(sc)))
    return {rule.id: gr.weight(rule) for rule in rule_base.active_rules(sc.interpretations)}


def test_the_activation_order_is_weighed_only_for_attempts_that_can_play_into_battle(rule_base: RuleBase,
                                                                                    tmp_path: Path) -> None:
    """The rules of the ability activation order bound over an attempt and two abilities have no binding of an
    attempt that neither enters battle nor plays a card (`played_in_battle` names the kind of attempt first)."""
    path = tmp_path / "case.yaml"
    path.write_text(scenario(10, 10), encoding="utf-8")
    sc = load_case(path, rule_base)
    gr = grounding._grounder(rule_base).start(sc, "o", Grounding(universe_names(sc)))
    sequences = sum(a.kind in ("enter_battle", "play_card") for a in sc.attempts)
    assert 0 < sequences < len(sc.attempts)
    bound = [rule for rule in rule_base.active_rules(sc.interpretations)
             if [sort for _, sort in rule.params] == ["attempt", "ability", "ability"]]
    assert len(bound) == 7
    assert all(gr.weight(rule) <= sequences * len(sc.abilities) ** 2 for rule in bound), \
        {rule.id: gr.weight(rule) for rule in bound}


def test_rule_instances_grow_with_the_steps_but_for_the_rules_listed(rule_base: RuleBase, tmp_path: Path) -> None:
    short = _weights(rule_base, tmp_path / "short.yaml", 10, 6)
    long = _weights(rule_base, tmp_path / "long.yaml", 10, 12)
    ratio = {rule: long[rule] / short[rule] for rule in long if short.get(rule)}
    faster = {rule for rule, r in ratio.items() if r > 2.5}
    assert faster == SUPERLINEAR, {rule: round(ratio[rule], 2) for rule in faster ^ SUPERLINEAR}
    assert all(ratio[rule] > 3.5 for rule in SUPERLINEAR), {rule: round(ratio[rule], 2) for rule in SUPERLINEAR}
