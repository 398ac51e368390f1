"""Mutants of the encodings: every kind of edit, definitions renamed with what uses them, invalid ones."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from verifier.api import load, open_repository
from verifier.mutation import KINDS, mutations


def test_every_kind_is_made_and_ids_are_unique(repo_root: Path) -> None:
    rules = open_repository(repo_root).rules
    found = mutations(rules)
    kinds = Counter(m.mutant.kind for m in found)
    assert set(kinds) == set(KINDS)
    assert kinds["delete"] == len(rules.rules)
    assert len({m.mutant.id for m in found}) == len(found)
    assert mutations(rules) == found  # the same order every time


def test_edits_of_one_rule(repo_root: Path) -> None:
    rules = open_repository(repo_root).rules
    # SA-1: implies(set_aside(x, c), zone(c, step_of(x)) == set_aside_area)
    found = {m.mutant.id: m for m in mutations(rules, ("SA-1",))}
    assert set(found) == {"SA-1 delete", "SA-1 condition 1", "SA-1 negate 1", "SA-1 constant 1"}
    assert found["SA-1 delete"].left_out == ("SA-1",) and not found["SA-1 delete"].put_in
    negated = found["SA-1 negate 1"]
    assert negated.mutant.description == "`==` becomes `!=`"
    assert negated.put_in[0].body.args[1].op == "!="
    assert found["SA-1 constant 1"].mutant.description == "`set_aside_area` becomes `discard_pile`"
    assert found["SA-1 condition 1"].put_in[0].body == rules.rule("SA-1").body.args[1]
    assert [m.mutant.id for m in mutations(rules, ("SA-1",), ("delete",))] == ["SA-1 delete"]


def test_a_definitions_mutant_changes_every_rule_that_uses_it(repo_root: Path) -> None:
    rules = open_repository(repo_root).rules
    m = next(m for m in mutations(rules, ("set_aside_ability",)) if m.mutant.kind == "negate")
    assert m.mutant.target_kind == "definition"
    users = {r.id for r in m.put_in}
    assert users == set(m.left_out) == set(m.mutant.rules)
    # the mutant's own definitions are renamed, so they can be grounded beside the originals
    own = f"#mutant:{m.mutant.id}"
    assert f"set_aside_ability{own}" in m.rule_base.definitions and f"set_aside_use{own}" in m.rule_base.definitions
    # and never like another mutant's, whose terms a case grounded once may already hold
    other = next(o for o in mutations(rules, ("set_aside_ability",)) if o.mutant.id != m.mutant.id)
    assert not (set(m.rule_base.definitions) - set(rules.definitions)) & set(other.rule_base.definitions)
    plain = m.mutated_base(rules)
    assert set(plain.definitions) == set(rules.definitions)
    assert plain.definitions["set_aside_ability"].body.op == "!="


def test_a_definition_no_rule_uses_changes_no_rule_but_the_questions_asking_it(repo_root: Path) -> None:
    repo = open_repository(repo_root)
    found = mutations(repo.rules, ("discarded",))  # questions ask it; no rule uses it
    assert found and all(m.mutant.rules == () for m in found)
    case = load(repo, repo_root / "cases" / "heal" / "discarded-is-asked-when-the-discard-completes.yaml")
    asking = {q.name for q in case.questions if q.text.startswith("discarded(")}
    assert asking and asking != {q.name for q in case.questions}
    for m in found:
        assert m.definitions == {"discarded"}
        assert {q.name for q in case.questions if m.question(q) is not None} == asking

