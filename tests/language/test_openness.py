"""Which outcomes the rules leave open, and which statements name a symbol."""

from __future__ import annotations

from pathlib import Path

from verifier.language.encoding import RuleBase, load_rule_base
from verifier.language.openness import open_outcomes, statements_naming


def test_an_outcome_only_bounded_by_the_rules_is_open(rule_base: RuleBase) -> None:
    found = open_outcomes(rule_base)
    assert {"counts_own_upkeep", "paired_targets", "activation_rank"} <= found
    assert not {"zone", "return_step", "scheduled_return", "legal"} & found  # each given by an equation


def test_the_statements_naming_an_outcome_are_those_its_rules_and_definitions_cite(rule_base: RuleBase) -> None:
    assert statements_naming(rule_base, ["counts_own_upkeep"]) == {"GLOSS-2"}
    assert statements_naming(rule_base, []) == frozenset()


def test_a_rule_giving_an_outcome_by_an_equation_closes_it(repo_copy: Path) -> None:
    glossary = repo_copy / "encodings" / "glossary.yaml"
    text = glossary.read_text(encoding="utf-8")
    bound = "requires: implies(phase_of(step_of(x)) != Upkeep, not counts_own_upkeep(x))"
    assert bound in text
    glossary.write_text(text.replace(bound, "requires: counts_own_upkeep(x) == (phase_of(step_of(x)) == Upkeep)"),
                        encoding="utf-8")
    assert "counts_own_upkeep" not in open_outcomes(load_rule_base(repo_copy / "encodings"))
