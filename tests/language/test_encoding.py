"""Encoding files: loading, checking and the rule base they make."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from verifier.errors import EncodingError, Location
from verifier.language.encoding import RULE_ID, SORTS, STATEMENT_ID, RuleBase, load_rule_base
from verifier.language.types import recurrence_place
from verifier.rulesdoc import RulesDocument


def load(tmp_path: Path, *files: str) -> RuleBase:
    """Load a rule base from the given encoding texts, written as a.yaml, b.yaml, ..."""
    folder = tmp_path / "encodings"
    folder.mkdir(exist_ok=True)
    for i, text in enumerate(files):
        (folder / f"{chr(ord('a') + i)}.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    return load_rule_base(folder)


def failure(tmp_path: Path, *files: str) -> EncodingError:
    with pytest.raises(EncodingError) as info:
        load(tmp_path, *files)
    return info.value


def place(err: EncodingError) -> tuple[str, int, int]:
    assert err.location is not None
    return Path(err.location.path).name, err.location.line, err.location.column


GOOD = """\
section: demo
title: A small encoding
definitions:
  - name: held
    params: {c: card, s: step}
    means: zone(c, s) == hand
    cites: [SA-1]
  - name: held_twice
    params: {c: card, s: step}
    means: held(c, s) and s > 0 and held(c, s - 1)
rules:
  - id: DEMO-1
    cites: [SA-1, SA-2]
    says: "{c} is held at {s}"
    for: {c: card, s: step}
    requires: implies(held_twice(c, s), held(c, s))
  - id: DEMO-2
    cites: [SA-5]
    says: "the game has a first step"
    requires: never > 0
  - id: DEMO-2-I1
    interpretation: true
    replaces: [DEMO-2]
    cites: [SA-5]
    says: "an interpretation of DEMO-2"
    requires: |
      never >= 0
waivers:
  - statement: SA-3
    reason: >-
      Says what a paired ability is for.
"""


# -- a good file --------------------------------------------------------------------------


def test_good_file(tmp_path: Path) -> None:
    base = load(tmp_path, GOOD)
    assert [r.id for r in base.rules] == ["DEMO-1", "DEMO-2", "DEMO-2-I1"]
    r1 = base.rule("DEMO-1")
    assert r1.section == "demo"
    assert r1.cites == ("SA-1", "SA-2")
    assert r1.params == (("c", "card"), ("s", "step"))
    assert r1.says == "{c} is held at {s}"
    assert not r1.interpretation
    assert (Path(r1.loc.path).name, r1.loc.line, r1.loc.column) == ("a.yaml", 12, 5)
    assert sorted(base.definitions) == ["held", "held_twice"]
    assert base.definitions["held"].result == "bool"
    assert base.definitions["held"].cites == ("SA-1",)
    assert base.waivers[0].statement == "SA-3"
    assert base.waivers[0].reason == "Says what a paired ability is for."
    assert len(base.files) == 1 and base.files[0].endswith("a.yaml")


def test_interpretation_replaces_only_when_chosen(tmp_path: Path) -> None:
    base = load(tmp_path, GOOD)
    interp = base.rule("DEMO-2-I1")
    assert interp.interpretation and interp.replaces == ("DEMO-2",)
    assert [r.id for r in base.active_rules()] == ["DEMO-1", "DEMO-2"]
    assert [r.id for r in base.active_rules(("DEMO-2-I1",))] == ["DEMO-1", "DEMO-2-I1"]


def test_unknown_rule_lookup(tmp_path: Path) -> None:
    with pytest.raises(KeyError):
        load(tmp_path, GOOD).rule("DEMO-9")


def test_files_are_read_in_name_order(tmp_path: Path) -> None:
    second = """\
    section: zzz
    rules:
      - id: ZZZ-1
        cites: [SA-1]
        says: "always"
        requires: "True"
    """
    base = load(tmp_path, GOOD, second)
    assert [r.id for r in base.rules] == ["DEMO-1", "DEMO-2", "DEMO-2-I1", "ZZZ-1"]
    assert base.rule("ZZZ-1").section == "zzz"


def test_definitions_may_be_used_across_files(tmp_path: Path) -> None:
    second = """\
    section: other
    rules:
      - id: OTHER-1
        cites: [SA-1]
        says: "{c}"
        for: {c: card}
        requires: held(c, 0)
    """
    assert load(tmp_path, GOOD, second).rule("OTHER-1").cites == ("SA-1",)


@pytest.mark.parametrize("good", ["SA-1", "SA-12b", "CORE-10", "GLOSS-3", "A-B-7"])
def test_statement_ids(good: str) -> None:
    assert STATEMENT_ID.match(good)
    assert RULE_ID.match(good)


@pytest.mark.parametrize("good", ["SA-5-I1", "SA-5-I", "SA-4b-I2"])
def test_interpretation_rule_ids(good: str) -> None:
    assert RULE_ID.match(good) and not STATEMENT_ID.match(good)


@pytest.mark.parametrize("bad", ["sa-1", "SA1", "SA-", "SA-1-X1", "SA-1bb", "-1"])
def test_bad_ids(bad: str) -> None:
    assert not RULE_ID.match(bad)


# -- errors, each at its place -------------------------------------------------------------


RULE = """\
section: demo
rules:
  - id: DEMO-1
    cites: [SA-1]
    says: "{c} is somewhere"
    for: {c: card}
    requires: zone(c, 0) == hand
"""


def test_no_files(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(EncodingError) as info:
        load_rule_base(tmp_path / "empty")
    assert info.value.message.startswith("no encoding files (*.yaml) in ")


def test_duplicate_rule_id(tmp_path: Path) -> None:
    text = RULE + """\
  - id: DEMO-1
    cites: [SA-2]
    says: "again"
    requires: "True"
"""
    err = failure(tmp_path, text)
    assert err.message == f"duplicate rule id 'DEMO-1' (first at {Location(err.location.path, 3, 9)})"  # type: ignore[union-attr]
    assert place(err) == ("a.yaml", 8, 9)


def test_duplicate_rule_id_across_files(tmp_path: Path) -> None:
    err = failure(tmp_path, RULE, RULE)
    assert place(err) == ("b.yaml", 3, 9)
    assert err.message.startswith("duplicate rule id 'DEMO-1' (first at ") and "a.yaml:3:9" in err.message


def test_cyclic_definitions(tmp_path: Path) -> None:
    text = """\
    section: demo
    definitions:
      - name: ping
        params: {c: card}
        means: pong(c)
      - name: pong
        params: {c: card}
        means: not ping(c)
    """
    err = failure(tmp_path, text)
    assert err.message == "definitions refer to each other in a cycle: ping -> pong -> ping"
    assert place(err) == ("a.yaml", 3, 5)


def test_a_definition_may_apply_itself_at_the_step_before(tmp_path: Path) -> None:
    text = """\
    section: demo
    definitions:
      - name: ended
        params: {x: attempt, s: step}
        means: s > step_of(x) and (not battle_ongoing(s) or ended(x, s - 1))
      - name: upkeeps
        params: {x: attempt, s: step}
        means: (upkeeps(x, s - 1) + (1 if phase_of(s) == Upkeep else 0)) if s > step_of(x) else 0
    """
    (tmp_path / "a.yaml").write_text(textwrap.dedent(text))
    rb = load_rule_base(tmp_path)
    assert {n: (d.result, recurrence_place(d)) for n, d in rb.definitions.items()} == {
        "ended": ("bool", 1), "upkeeps": ("int", 1)}


@pytest.mark.parametrize("call", ["loop(x, s)", "loop(x, s - 2)", "loop(x, s + 1)", "loop(y, s - 1)",
                                  "loop(x, 3)", "loop(x, s - 1, s)"])
def test_a_definition_applying_itself_otherwise_is_refused(tmp_path: Path, call: str) -> None:
    text = f"""\
    section: demo
    definitions:
      - name: loop
        params: {{x: attempt, s: step}}
        means: s == 0 or any({call} for y in attempts)
    """
    err = failure(tmp_path, text)
    assert err.message == ("definition loop: loop applies itself other than at the step before: a recurrence is "
                           "written loop(x, s - 1) (one step parameter one less, the others unchanged)")
    assert place(err) == ("a.yaml", 5, 26)


def test_a_recurrence_is_a_truth_value_or_a_number(tmp_path: Path) -> None:
    text = """\
    section: demo
    definitions:
      - name: loop
        params: {s: step}
        means: s if s == 0 else loop(s - 1)
    """
    err = failure(tmp_path, text)
    assert err.message == "both branches must have one type, got step and bool"


def test_longer_cycle(tmp_path: Path) -> None:
    text = """\
    section: demo
    definitions:
      - {name: one, params: {c: card}, means: two(c)}
      - {name: two, params: {c: card}, means: three(c)}
      - {name: three, params: {c: card}, means: one(c) or character(c)}
    """
    err = failure(tmp_path, text)
    assert err.message == "definitions refer to each other in a cycle: one -> two -> three -> one"


def test_unknown_sort_in_for(tmp_path: Path) -> None:
    err = failure(tmp_path, RULE.replace("{c: card}", "{c: crad}"))
    assert err.message == f"'crad' is not a sort (did you mean 'card'?); use one of {', '.join(SORTS)}"
    assert {"player", "card", "ability", "attempt", "step", "turn"} <= set(SORTS)
    assert place(err) == ("a.yaml", 6, 14)


def test_value_set_is_not_a_sort_for_rules(tmp_path: Path) -> None:
    err = failure(tmp_path, RULE.replace("{c: card}", "{c: zone}"))
    assert err.message.startswith("'zone' is not a sort")


def test_for_must_be_a_mapping(tmp_path: Path) -> None:
    err = failure(tmp_path, RULE.replace("{c: card}", "[c, card]"))
    assert err.message == "rule DEMO-1: for must map variable names to sorts, like {c: card, s: step}"
    assert place(err) == ("a.yaml", 6, 10)


@pytest.mark.parametrize(
    ("var", "message"),
    [
        ("hand", "variable 'hand' hides a name of the vocabulary; pick another"),
        ("legal", "variable 'legal' hides a name of the vocabulary; pick another"),
        ("Card", "'Card' is not a valid variable name (lower case letters, digits, _)"),
    ],
)
def test_bad_variable_names(tmp_path: Path, var: str, message: str) -> None:
    err = failure(tmp_path, RULE.replace("{c: card}", f"{{{var}: card}}").replace("says: \"{c}", "says: \"x"))
    assert err.message == message
    assert place(err) == ("a.yaml", 6, 11)


@pytest.mark.parametrize(
    ("says", "message"),
    [
        ('"{card} is somewhere"', "says: '{card}' is not one of the rule's variables"),
        ('"{d} is somewhere"', "says: '{d}' is not one of the rule's variables"),
        ('"{c is somewhere"', "says: malformed template (expected '}' before end of string)"),
        ('"{} is somewhere"', "says: '{}' is not a plain field: write {name} with one of the rule's variables (c)"),
        ('"{0} is somewhere"', "says: '{0}' is not a plain field: write {name} with one of the rule's variables (c)"),
        ('"{c.name} is somewhere"', "says: '{c.name}' is not a plain field"),
        ('"{c[0]} is somewhere"', "says: '{c[0]}' is not a plain field"),
        ('"{c!r} is somewhere"', "says: '{c!r}' is not a plain field: write {name} with one of the rule's variables, "
                                 "without a format or conversion"),
        ('"{c:{c}} is somewhere"', "says: '{c:{c}}' is not a plain field"),
    ],
)
def test_bad_template_placeholder(tmp_path: Path, says: str, message: str) -> None:
    err = failure(tmp_path, RULE.replace('"{c} is somewhere"', says))
    assert err.message.startswith(message)
    assert place(err) == ("a.yaml", 5, 11)


def test_template_with_a_huge_format_width_is_refused_when_loaded(tmp_path: Path) -> None:
    """Defect 6: `{c:>999999999}` would allocate gigabytes each time the rule is shown. It is refused when the
    encoding is read, before any rule is grounded or shown."""
    err = failure(tmp_path, RULE.replace('"{c} is somewhere"', '"{c:>999999999} is somewhere"'))
    assert err.message == ("says: '{c:>999999999}' is not a plain field: write {name} with one of the rule's "
                           "variables, without a format or conversion")
    assert place(err) == ("a.yaml", 5, 11)


def test_template_length_is_bounded(tmp_path: Path) -> None:
    err = failure(tmp_path, RULE.replace('"{c} is somewhere"', '"' + "{c}" * 700 + '"'))
    assert err.message == "says: the template is longer than 2000 characters"
    # within the bound, doubled braces are text, and every field is a name: filling it in adds names only
    rules = load(tmp_path, RULE.replace('"{c} is somewhere"', '"{{c}} {c} is somewhere"'))
    assert rules.rules[0].says.format(c="elijah") == "{c} elijah is somewhere"


def test_template_placeholder_suggestion(tmp_path: Path) -> None:
    text = RULE.replace("{c: card}", "{card_a: card}").replace("{c} is", "{card_b} is").replace(
        "zone(c, 0)", "zone(card_a, 0)")
    err = failure(tmp_path, text)
    assert err.message == "says: '{card_b}' is not one of the rule's variables (did you mean 'card_a'?)"


def test_replaces_needs_an_interpretation(tmp_path: Path) -> None:
    text = RULE + """\
  - id: DEMO-2
    cites: [SA-1]
    says: "x"
    replaces: [DEMO-1]
    requires: "True"
"""
    err = failure(tmp_path, text)
    assert err.message == "only an interpretation may replace rules"
    assert place(err) == ("a.yaml", 11, 15)


def test_replaces_an_unknown_rule(tmp_path: Path) -> None:
    text = RULE + """\
  - id: DEMO-1-I1
    interpretation: true
    cites: [SA-1]
    says: "x"
    replaces: [DEMO-2]
    requires: "True"
"""
    err = failure(tmp_path, text)
    assert err.message == "rule DEMO-1-I1 replaces unknown rule 'DEMO-2' (did you mean 'DEMO-1'?)"
    assert place(err) == ("a.yaml", 8, 5)


def test_interpretation_must_be_true_or_false(tmp_path: Path) -> None:
    text = RULE.replace("    cites: [SA-1]\n", "    cites: [SA-1]\n    interpretation: maybe\n")
    err = failure(tmp_path, text)
    assert err.message == "interpretation must be true or false, got text"
    assert place(err) == ("a.yaml", 5, 21)


def test_requires_must_be_a_condition(tmp_path: Path) -> None:
    err = failure(tmp_path, RULE.replace("zone(c, 0) == hand", "zone(c, 0)"))
    assert err.message == "rule DEMO-1: 'requires' must be a condition (bool), got zone"
    assert place(err) == ("a.yaml", 7, 15)


def test_unknown_symbol_in_requires(tmp_path: Path) -> None:
    err = failure(tmp_path, RULE.replace("zone(c, 0)", "zoen(c, 0)"))
    assert err.message == "unknown function 'zoen' (did you mean 'zone'?)"
    assert place(err) == ("a.yaml", 7, 15)


def test_error_in_a_block_scalar(tmp_path: Path) -> None:
    text = RULE.replace("requires: zone(c, 0) == hand", "requires: |\n      zone(c, 0) == hand\n      and owner(c) == alcie")
    err = failure(tmp_path, text)
    assert err.message == "unknown name 'alcie'"
    assert place(err) == ("a.yaml", 9, 23)


def test_rule_must_cite(tmp_path: Path) -> None:
    err = failure(tmp_path, RULE.replace("cites: [SA-1]", "cites: []"))
    assert err.message == "rule DEMO-1 must cite at least one statement"
    assert place(err) == ("a.yaml", 3, 5)


def test_rule_cites_a_bad_id(tmp_path: Path) -> None:
    err = failure(tmp_path, RULE.replace("cites: [SA-1]", "cites: [sa-1]"))
    assert err.message == "rule DEMO-1 cites: 'sa-1' is not a valid ID"
    assert place(err) == ("a.yaml", 4, 13)


def test_bad_rule_id(tmp_path: Path) -> None:
    err = failure(tmp_path, RULE.replace("id: DEMO-1", "id: demo one"))
    assert err.message == ("rule id 'demo one' is not valid: it holds ' '; an ID is capital letters, digits and "
                           "dashes (like SA-4, SA-4b, SA-5-I1 or RUL-HEAL-1)")
    assert place(err) == ("a.yaml", 3, 9)


@pytest.mark.parametrize(("rule_id", "problem"), [
    ("RUL-R30-1", "'R30' is not capital letters only: the letters before the number name the section"),
    ("SA4", "it needs capital letters, then a dash and a number"),
    ("SA-4x1", "'4x1' is not a number, with at most one small letter after it (4, 4b)"),
    ("SA-4-I1-R1", "'-I1-R1' after the number is neither -R<n> (a reading) nor -I<n> (an interpretation), in that order"),
    ("SA--4", "it has an empty part between dashes"),
])
def test_a_bad_rule_id_says_which_part_is_wrong(tmp_path: Path, rule_id: str, problem: str) -> None:
    err = failure(tmp_path, RULE.replace("id: DEMO-1", f"id: {rule_id}"))
    assert err.message == f"rule id '{rule_id}' is not valid: {problem} (like SA-4, SA-4b, SA-5-I1 or RUL-HEAL-1)"


@pytest.mark.parametrize(
    ("missing", "message"),
    [
        ("    cites: [SA-1]\n", "rule DEMO-1 is missing 'cites'"),
        ('    says: "{c} is somewhere"\n', "rule DEMO-1 is missing 'says'"),
        ("    requires: zone(c, 0) == hand\n", "rule DEMO-1 is missing 'requires'"),
    ],
)
def test_missing_fields(tmp_path: Path, missing: str, message: str) -> None:
    err = failure(tmp_path, RULE.replace(missing, ""))
    assert err.message == message
    assert place(err) == ("a.yaml", 3, 5)


def test_missing_rule_id(tmp_path: Path) -> None:
    err = failure(tmp_path, RULE.replace("  - id: DEMO-1\n    cites", "  - cites"))
    assert err.message == "a rule is missing 'id'"
    assert place(err) == ("a.yaml", 3, 5)


def test_unknown_field_in_a_rule(tmp_path: Path) -> None:
    err = failure(tmp_path, RULE.replace("requires:", "require:"))
    assert err.message == "unknown field 'require' in a rule (did you mean 'requires'?)"
    assert place(err) == ("a.yaml", 7, 5)


def test_unknown_top_level_field(tmp_path: Path) -> None:
    err = failure(tmp_path, "sections: demo\n")
    assert err.message == "unknown field 'sections' in an encoding file (did you mean 'section'?)"
    assert place(err) == ("a.yaml", 1, 1)


def test_missing_section(tmp_path: Path) -> None:
    err = failure(tmp_path, "rules: []\n")
    assert err.message == "the encoding file is missing 'section'"


def test_not_a_mapping(tmp_path: Path) -> None:
    err = failure(tmp_path, "- a\n- b\n")
    assert err.message == "an encoding file must be a mapping with 'section' and 'rules'"


def test_rules_must_be_a_list(tmp_path: Path) -> None:
    err = failure(tmp_path, "section: demo\nrules: {id: X-1}\n")
    assert err.message == "'rules' must be a list"
    assert place(err) == ("a.yaml", 2, 8)


def test_rule_must_be_a_mapping(tmp_path: Path) -> None:
    err = failure(tmp_path, "section: demo\nrules:\n  - X-1\n")
    assert err.message == "each entry of 'rules' must be a mapping"
    assert place(err) == ("a.yaml", 3, 5)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("zone", "definition 'zone' hides a name of the vocabulary"),
        ("hand", "definition 'hand' hides a name of the vocabulary"),
        ("implies", "definition 'implies' hides a name of the vocabulary"),
        ("Held", "'Held' is not a valid definition name (lower case letters, digits, _)"),
        ("any", "definition 'any' hides the quantifier any(... for ... in ...); pick another"),
        ("all", "definition 'all' hides the quantifier all(... for ... in ...); pick another"),
        ("count", "definition 'count' hides the quantifier count(... for ... in ...); pick another"),
        ("sum", "definition 'sum' hides the quantifier sum(... for ... in ...); pick another"),
        ("cards", "definition 'cards' hides the domain 'cards' quantifiers range over; pick another"),
        ("steps", "definition 'steps' hides the domain 'steps' quantifiers range over; pick another"),
        ("card", "definition 'card' hides the sort 'card'; pick another"),
        ("phase", "definition 'phase' hides the sort 'phase'; pick another"),
        ("if", "definition 'if' is a keyword of the rule language; pick another"),
        ("not", "definition 'not' is a keyword of the rule language; pick another"),
        ("match", "definition 'match' is a keyword of the rule language; pick another"),
        ("activation_order", "definition 'activation_order' hides the question form activation_order(...); pick another"),
        ("max", "definition 'max' hides the built-in max(...); pick another"),
    ],
)
def test_bad_definition_names(tmp_path: Path, name: str, message: str) -> None:
    text = f"section: demo\ndefinitions:\n  - name: {name}\n    means: 'True'\n"
    err = failure(tmp_path, text)
    assert err.message == message
    assert place(err) == ("a.yaml", 3, 11)


def test_definition_defined_twice(tmp_path: Path) -> None:
    text = "section: demo\ndefinitions:\n  - {name: d, means: 'True'}\n  - {name: d, means: 'False'}\n"
    err = failure(tmp_path, text)
    assert err.message.startswith("definition 'd' is defined twice (first at ")
    assert err.message.endswith("a.yaml:3:5)")
    assert place(err) == ("a.yaml", 4, 12)


def test_definition_params_may_be_value_sets(tmp_path: Path) -> None:
    text = "section: demo\ndefinitions:\n  - {name: d, params: {z: zone}, means: z == hand}\n"
    assert load(tmp_path, text).definitions["d"].params == (("z", "zone"),)


def test_definition_type_error(tmp_path: Path) -> None:
    text = "section: demo\ndefinitions:\n  - name: d\n    params: {c: card}\n    means: zone(c)\n"
    err = failure(tmp_path, text)
    assert err.message == "zone takes 2 argument(s), got 1"
    assert place(err) == ("a.yaml", 5, 12)


@pytest.mark.parametrize(
    ("waiver", "message"),
    [
        ("  - statement: sa-3\n    reason: x\n", "waiver statement must be a statement ID like SA-3"),
        ("  - statement: SA-3\n", "a waiver is missing 'reason'"),
        ("  - statement: SA-3\n    reason: [a]\n", "reason must be text"),
        ("  - statement: SA-3\n    reason: x\n    why: y\n", "unknown field 'why' in a waiver"),
    ],
)
def test_bad_waivers(tmp_path: Path, waiver: str, message: str) -> None:
    err = failure(tmp_path, "section: demo\nwaivers:\n" + waiver)
    assert err.message == message


# -- the real rule base ---------------------------------------------------------------------


def test_real_rule_base_loads(rule_base: RuleBase) -> None:
    assert len(rule_base.rules) > 20
    ids = [r.id for r in rule_base.rules]
    assert len(ids) == len(set(ids))
    assert {"core", "glossary", "set-aside"} <= {r.section for r in rule_base.rules}


def test_real_rules_cite_statements_that_exist(rule_base: RuleBase, rules_doc: RulesDocument) -> None:
    known = set(rules_doc.by_id())
    for r in rule_base.rules:
        assert set(r.cites) <= known, (r.id, set(r.cites) - known)
    for d in rule_base.definitions.values():
        assert set(d.cites) <= known, (d.name, set(d.cites) - known)
    for w in rule_base.waivers:
        assert w.statement in known and w.reason


def test_real_interpretations_replace_existing_rules(rule_base: RuleBase) -> None:
    interpretations = [r for r in rule_base.rules if r.interpretation]
    assert interpretations, "the rule base should hold at least one interpretation (SA-5-I1)"
    ids = {r.id for r in rule_base.rules}
    for r in interpretations:
        assert r.replaces and set(r.replaces) <= ids
        active = {a.id for a in rule_base.active_rules((r.id,))}
        assert r.id in active and not set(r.replaces) & active
    assert not any(r.interpretation for r in rule_base.active_rules())


def test_real_templates_fill_in(rule_base: RuleBase) -> None:
    for r in rule_base.rules:
        r.says.format(**{name: name.upper() for name, _ in r.params})
