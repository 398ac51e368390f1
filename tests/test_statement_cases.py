"""Cases cover the encoded statements of the targeting, negate, cannot-be, band, triggered and special-initiative
sections, and the case loader refuses what the card reader cannot decide in them.

Every encoded statement of those sections, and GLOSS-8-R1 and CORE-15, is named in the `about:` list of at least
three cases, at least half of which hold a real card (`card:`). The statements are read from the rules document
and their status from the encodings, so a statement added and encoded later is held to the same count.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from verifier.errors import CaseError
from verifier.language.encoding import RuleBase
from verifier.report import rule_statuses
from verifier.rulesdoc import RulesDocument
from verifier.yamlsource import YMap, YScalar, YSeq, load_yaml

CASES = Path(__file__).resolve().parents[1] / "cases"
SECTIONS = ("negate", "cannot-be", "targeting", "band", "triggered", "special-initiative")
ALSO = ("GLOSS-8-R1", "CORE-15")
FEWEST_CASES = 3


def covered_statements(doc: RulesDocument, rules: RuleBase) -> list[str]:
    """The encoded statements whose cases are counted: those of SECTIONS, and ALSO."""
    return [s.id for s in rule_statuses(doc, rules)
            if s.status == "encoded" and (s.section in SECTIONS or s.id in ALSO)]


def case_facts(path: Path) -> tuple[frozenset[str], bool]:
    """The statements a case names in `about:`, and whether it holds a real card."""
    root, _ = load_yaml(path, CaseError)
    if not isinstance(root, YMap):
        return frozenset(), False
    about = root.get("about")
    named = frozenset(n.value for n in about if isinstance(n, YScalar) and isinstance(n.value, str)) \
        if isinstance(about, YSeq) else frozenset()
    cards = root.get("cards")
    entries = [entry for _, entry in cards.entries] if isinstance(cards, YMap) else []
    return named, any(isinstance(entry, YMap) and entry.get("card") is not None for entry in entries)


def shortfalls(statements: list[str], cases: Path) -> list[str]:
    """Each statement named by fewer than FEWEST_CASES cases, or by cases fewer than half of which hold a real card."""
    facts = [case_facts(p) for p in sorted(cases.rglob("*.yaml")) if p.is_file()]
    out = []
    for sid in statements:
        naming = [real for named, real in facts if sid in named]
        with_real = sum(naming)
        if len(naming) < FEWEST_CASES or 2 * with_real < len(naming):
            out.append(f"{sid}: {len(naming)} case(s), {with_real} with a real card")
    return out


def test_the_counted_statements_come_from_the_rules_and_encodings(rules_doc: RulesDocument,
                                                                  rule_base: RuleBase) -> None:
    statements = covered_statements(rules_doc, rule_base)
    sections = {s.id: s.section for s in rules_doc.statements}
    assert {sections[sid] for sid in statements} >= set(SECTIONS) | {"core"}
    assert set(ALSO) <= set(statements)
    waived = {w.statement for w in rule_base.waivers}
    assert not waived & set(statements)


def test_every_counted_statement_has_its_cases(rules_doc: RulesDocument, rule_base: RuleBase) -> None:
    missing = shortfalls(covered_statements(rules_doc, rule_base), CASES)
    assert not missing, "statements short of cases:\n" + "\n".join(missing)


def test_a_statement_short_of_cases_is_reported(tmp_path: Path) -> None:
    real = "cards:\n  a:\n    card: Pentecost\n"
    made = "cards:\n  a:\n    type: Hero\n"
    for name, about, cards in [("one", "[TGT-1, NEG-8]", real), ("two", "[TGT-1, NEG-8]", made),
                               ("three", "[TGT-1, NEG-8]", made), ("four", "[TGT-1]", real),
                               ("five", "[NEG-8]", made)]:
        (tmp_path / f"{name}.yaml").write_text(f"about: {about}\n{cards}", encoding="utf-8")
    assert shortfalls(["TGT-1", "NEG-8", "CBN-9"], tmp_path) == [
        "NEG-8: 4 case(s), 1 with a real card",
        "CBN-9: 0 case(s), 0 with a real card",
    ]


NEGATE_OF_A_FORTRESS = """\
players: [alice, bob]
cards:
  tower:
    type: Fortress
    owner: bob
    zone: territory
    abilities:
      - kind: other
        text: "A tower ability."
  david:
    card: David, Giant Slayer [K]
timeline:
  - id: tower_used
    turn: 1
    phase: Preparation
    player: bob
    activate: tower
  - id: david_negates
    turn: 1
    phase: Preparation
    negate: tower_used
    by: david
questions:
  q: legal(david_negates)
"""

NEGATE_OF_AN_ACTIVE_ARTIFACT = """\
players: [alice, bob]
cards:
  joshua:
    type: Hero
    brigade: Gold
  goliath:
    type: Evil_Character
    brigade: Black
    owner: bob
    abilities:
      - kind: afflict
        inflicts: paralyzed
        target_type: Hero
        target_count: 1
  lying:
    card: Lying Unto God
    owner: bob
timeline:
  - turn: 1
    phase: Battle
    enter_battle: [joshua]
  - turn: 1
    phase: Battle
    player: bob
    enter_battle: [goliath]
  - id: paralyze
    turn: 1
    phase: Battle
    activate: goliath
    targets: [joshua]
  - id: negate_all
    turn: 1
    phase: Battle
    negate: paralyze
    by: lying
questions:
  q: legal(negate_all)
"""


def test_a_negate_naming_an_alignment_the_case_leaves_unknown_is_refused(
        cli: Callable[..., Result], assert_no_crash: Callable[[Result], None], repo_root: Path,
        write_case: Callable[..., Path]) -> None:
    path = write_case(NEGATE_OF_A_FORTRESS, "fortress.yaml")
    result = cli("check", "--root", repo_root, path)
    assert_no_crash(result)
    assert result.exit_code == 2
    assert f"error: {path}:18:5: " in result.stderr
    assert "'tower' (a Fortress)" in result.stderr
    assert "'alignment: good', 'alignment: evil' or 'alignment: neutral'" in result.stderr


@pytest.mark.parametrize(("alignment", "answer"), [("evil", "yes"), ("good", "no"), ("neutral", "no")])
def test_the_same_negate_with_the_alignment_stated_is_answered_by_it(
        alignment: str, answer: str, cli: Callable[..., Result], assert_no_crash: Callable[[Result], None],
        repo_root: Path, write_case: Callable[..., Path]) -> None:
    # a negate of an evil card reaches the Fortress only when the case states it evil
    text = NEGATE_OF_A_FORTRESS.replace("    zone: territory\n", f"    zone: territory\n    alignment: {alignment}\n")
    result = cli("check", "--root", repo_root, write_case(text, "fortress.yaml"))
    assert_no_crash(result)
    assert result.exit_code == 0
    assert f"q: determined = {answer}" in result.stdout


def test_a_description_word_the_reader_does_not_know_is_refused_naming_it(
        cli: Callable[..., Result], assert_no_crash: Callable[[Result], None], repo_root: Path,
        write_case: Callable[..., Path]) -> None:
    path = write_case(NEGATE_OF_AN_ACTIVE_ARTIFACT, "active.yaml")
    result = cli("check", "--root", repo_root, path)
    assert_no_crash(result)
    assert result.exit_code == 2
    assert f"error: {path}:16:11: 'Lying Unto God' is used at line 35" in result.stderr
    assert "the word 'active' in the description 'active artifact' is not one the model can check" in result.stderr
