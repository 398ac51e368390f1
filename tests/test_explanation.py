"""Explanations: the derivation of a determined value, the statements behind an open one, the conflict."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from verifier.errors import CaseError
from verifier.explanation import explain_case, rank_derivation
from verifier.language.encoding import RuleBase
from verifier.report import _sourced_once, render_explanations
from verifier.rulesdoc import RulesDocument
from verifier.scenario.loader import load_case
from verifier.scenario.model import Scenario
from verifier.verdicts import CoreItem, Derivation, Fold, Ranking, Verdict

Cli = Callable[..., Result]
Check = Callable[[Result], None]

UPKEEP = "cases/set-aside/upkeep-set-aside-counts-its-own-upkeep.yaml"


def test_a_determined_value_is_derived_from_a_minimal_forcing_set(make_case: Callable[..., object],
                                                                  provisions_text: str, rule_base: RuleBase,
                                                                  rules_doc: RulesDocument) -> None:
    scenario = make_case(provisions_text)
    [e] = explain_case(scenario, rule_base, rules_doc, "returns_at", 10_000, None)  # type: ignore[arg-type]
    assert e.result.verdict is Verdict.DETERMINED and e.result.value == "turn 3 Preparation (alice)"
    assert e.derivation is not None and e.derivation.verified and e.derivation.reason == ""
    # what each member reads, and what the question asks, in the game's words
    assert len(e.derivation.reads) == len(e.derivation.steps)
    assert e.derivation.asks == ("return_step(play_provisions, elijah)",)
    sa6c = e.derivation.steps.index(next(i for i in e.derivation.steps if i.rule == "SA-6c"))
    assert "return_step(play_provisions, elijah)" in e.derivation.reads[sa6c]
    rules = {item.label.split("[")[0] for item in e.derivation.steps if item.kind == "rule"}
    # the duration (SA-6), counted in the Upkeeps (GLOSS-2), returns the Hero (SA-6c)
    assert {"SA-6", "SA-6c", "GLOSS-2"} <= rules
    facts = {item.text for item in e.derivation.steps if item.kind == "fact"}
    assert "provisions_a1 lasts 2 turn(s) (read from the card's text)" in facts
    assert "play_provisions targets elijah" in facts
    sa6 = next(item for item in e.derivation.steps if item.label.startswith("SA-6["))
    assert dict(sa6.statements)["SA-6"].startswith("When the set-aside effect gives a duration")


def test_a_value_fixed_by_structure_says_so(make_case: Callable[..., object], provisions_text: str,
                                            rule_base: RuleBase, rules_doc: RulesDocument) -> None:
    text = provisions_text.replace("  legal: legal(play_provisions)\n", "  legal: legal(play_provisions)\n"
                                   "  when: step_of(play_provisions)\n")
    scenario = make_case(text)
    [e] = explain_case(scenario, rule_base, rules_doc, "when", 10_000, None)  # type: ignore[arg-type]
    assert e.derivation is not None and e.derivation.steps == ()
    assert "fixed by the scenario's structure" in e.derivation.reason


def test_an_ambiguity_names_the_statements_that_would_have_to_say_more(repo_root: Path, rule_base: RuleBase,
                                                                        rules_doc: RulesDocument) -> None:
    scenario = load_case(repo_root / UPKEEP, rule_base)
    [e] = explain_case(scenario, rule_base, rules_doc, "returns_at", 10_000, None)
    assert e.result.verdict is Verdict.AMBIGUOUS and e.derivation is None
    assert len(e.result.witnesses) == 2
    ids = [sid for sid, _ in e.statements]
    assert "SA-6" in ids and len(ids) == len(set(ids))
    # the two outcomes differ in whether the Upkeep of the set-aside counts, which only GLOSS-2 speaks of
    assert e.result.at_fault == ("GLOSS-2",) and ids[0] == "GLOSS-2"
    text = render_explanations(str(UPKEEP), scenario.title, (e,))
    assert "statements at fault: GLOSS-2 " in text
    assert text.index("      GLOSS-2: ") < text.index("      SA-6: ")


def test_a_determined_answer_has_no_statement_at_fault(repo_root: Path, rule_base: RuleBase,
                                                       rules_doc: RulesDocument) -> None:
    scenario = load_case(repo_root / "cases/set-aside/provisions-returns-after-two-turns.yaml", rule_base)
    [e] = explain_case(scenario, rule_base, rules_doc, "returns_at", 10_000, None)
    assert e.result.verdict is Verdict.DETERMINED and e.result.at_fault == ()


def test_an_unknown_question_is_an_input_error(make_case: Callable[..., object], provisions_text: str,
                                               rule_base: RuleBase, rules_doc: RulesDocument) -> None:
    scenario = make_case(provisions_text)
    with pytest.raises(CaseError, match="has no question 'return_at' \\(did you mean 'returns_at'\\?\\)"):
        explain_case(scenario, rule_base, rules_doc, "return_at", 10_000, None)  # type: ignore[arg-type]


def test_cli_explain_text(cli: Cli, assert_no_crash: Check, repo_root: Path, write_case: Callable[..., Path],
                          provisions_text: str) -> None:
    case = write_case(provisions_text)
    result = cli("explain", "--root", repo_root, case, "--question", "returns_at")
    assert_no_crash(result)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "  ok   returns_at: determined = turn 3 Preparation (alice)\n" in out
    assert "re-checked: forcing and minimal" in out
    assert "    given the scenario's facts:\n" in out
    assert "        SA-6: When the set-aside effect gives a duration" in out
    assert out.rstrip().endswith("therefore returns_at = turn 3 Preparation (alice)")
    # the rule that decides it first, then the rules further away, the facts, and inertia last
    assert (out.index("    deciding it") < out.index("    - SA-6c[") < out.index("    1 rule further from returns_at:")
            < out.index("    given the scenario's facts:") < out.index("    and inertia") < out.index("    - CORE-2 x"))


def test_cli_explain_ambiguity_and_contradiction(cli: Cli, assert_no_crash: Check, repo_root: Path,
                                                 write_case: Callable[..., Path]) -> None:
    result = cli("explain", "--root", repo_root, repo_root / UPKEEP, "-q", "returns_at")
    assert_no_crash(result)
    assert result.exit_code == 0
    assert "two outcomes the rules both allow" in result.stdout
    assert ("statements that would have to say more (those at fault first, then those cited by the rules "
            "involved):") in result.stdout
    assert "      GLOSS-2: " in result.stdout and "      SA-6: " in result.stdout

    result = cli("explain", "--root", repo_root, repo_root / "cases/set-aside/darkness-negated-in-battle.yaml",
                 "--format", "json")
    assert_no_crash(result)
    data = json.loads(result.stdout)
    verdicts = {e["verdict"] for e in data["explanations"]}
    assert verdicts == {"contradiction"}
    first = data["explanations"][0]
    assert first["core_verified"] is True and first["derivation"] is None
    assert {"SA-5", "GLOSS-12"} <= {s["id"] for c in first["core"] for s in c["statements"]}


def test_cli_explain_unknown_question_exits_2(cli: Cli, assert_no_crash: Check, repo_root: Path,
                                              write_case: Callable[..., Path], provisions_text: str) -> None:
    result = cli("explain", "--root", repo_root, write_case(provisions_text), "-q", "nope")
    assert_no_crash(result)
    assert result.exit_code == 2
    assert "has no question 'nope'; its questions: legal, returns_at" in result.stderr


# -- ranking -------------------------------------------------------------------------------------

LARGEST = "cases/set-aside/in-battle-paired-enhancement-targeting-opponents-cards.yaml"
PROVISIONS_CASE = "cases/set-aside/provisions-returns-after-two-turns.yaml"


def _rule(label: str, reads: tuple[str, ...], cites: str = "SA-1") -> tuple[CoreItem, tuple[str, ...]]:
    rule, _, inner = label.partition("[")
    binding = tuple(tuple(kv.split("=", 1)) for kv in inner.rstrip("]").split(", ")) if inner else ()
    return CoreItem("rule", label, f"says {label}", "encodings/x.yaml:1:1", ((cites, "text"),), False, rule,
                    binding), reads  # type: ignore[return-value]


def _fact(name: str, text: str, reads: tuple[str, ...]) -> tuple[CoreItem, tuple[str, ...]]:
    return CoreItem("fact", name, text, "case.yaml:1:1"), reads


def test_ranking_reads_the_links_between_rules(make_case: Callable[..., Scenario], provisions_text: str) -> None:
    scenario = make_case(provisions_text)
    up, prep, battle, draw2 = (scenario.steps[i].label for i in (1, 2, 4, 6))
    parts = [
        _rule(f"CORE-2[c=a, s={up}]", ("zone(a, 1)", "zone(a, 0)"), "CORE-2"),
        _rule(f"CORE-2[c=a, s={prep}]", ("zone(a, 2)", "zone(a, 1)", "moved(a)"), "CORE-2"),
        _rule(f"CORE-2[c=a, s={battle}]", ("zone(a, 4)",), "CORE-2"),
        _rule("FAR[x=p]", ("legal(p)",)),
        _rule("NEAR[x=p, c=a]", ("moved(a)", "legal(p)")),
        _rule("ASKED[x=p]", ("asked(p)", "other(p)")),
        _rule("UNLINKED[x=q]", ("nothing(q)",)),
        _rule(f"MANY[s={up}]", ("asked(p)",)),
        _rule(f"MANY[s={draw2}]", ("asked(p)",)),
        _fact("kind(p)", "p is a play", ("legal(p)",)),
        _fact("dur_kind(p)", "p lasts 2 turns", ("other(p)",)),
        _fact("dur_turns(p)", "p lasts 2 turns", ("other(p)",)),
        _fact("start(a)", "a starts in the territory", ("zone(a, 0)",)),
    ]
    d = Derivation(tuple(p[0] for p in parts), True, "", tuple(p[1] for p in parts), ("zone(a, 2)", "asked(p)"))
    ranking = rank_derivation(d, scenario)
    assert [(r.rule, r.rank) for r in ranking.rules] == [
        ("NEAR", 1), ("ASKED", 1), ("MANY", 1), ("FAR", 2), ("UNLINKED", 3), ("CORE-2", 0)]
    assert [r.rule for r in ranking.deciding] == ["NEAR", "ASKED", "MANY"]
    core2 = ranking.rules[-1]
    (fold,) = core2.folds
    assert (fold.binding, fold.step, fold.runs) == ((("c", "a"),), "s", ((up, prep), (battle, battle)))
    many = ranking.rules[2].folds[0]
    assert many.runs == ((up, up), (draw2, draw2))  # not consecutive: two runs
    # one entry per text; a fact only inertia reads comes last
    assert [(f.facts[0].text, len(f.facts), f.rank) for f in ranking.facts] == [
        ("p is a play", 1, 1), ("p lasts 2 turns", 2, 1), ("a starts in the territory", 1, 0)]
    _assert_placed_once(d, ranking)


def _assert_placed_once(d: Derivation, ranking: Ranking) -> None:
    """Every rule instance and fact of the derivation is in the ranking exactly once, and folded exactly once."""
    placed = [i for r in ranking.rules for i in r.instances] + [f for rf in ranking.facts for f in rf.facts]
    assert sorted(placed, key=repr) == sorted(d.steps, key=repr)
    for r in ranking.rules:
        folded = [i for f in r.folds for i in f.instances]
        assert sorted(folded, key=repr) == sorted(r.instances, key=repr)
        assert {i.rule for i in r.instances} == {r.rule}


def _covered_steps(fold: Fold, positions: dict[str, int]) -> list[int]:
    return [p for a, b in fold.runs for p in range(positions[a], positions[b] + 1)]


@pytest.mark.parametrize("case", [PROVISIONS_CASE, LARGEST])
def test_ranking_loses_and_repeats_nothing(repo_root: Path, rule_base: RuleBase, rules_doc: RulesDocument,
                                           case: str) -> None:
    scenario = load_case(repo_root / case, rule_base)
    positions = {s.label: s.position for s in scenario.steps}
    explanations = explain_case(scenario, rule_base, rules_doc, None, 10_000, None)
    ranked = [e for e in explanations if e.ranking is not None]
    assert ranked
    for e in ranked:
        assert e.derivation is not None and e.ranking is not None
        _assert_placed_once(e.derivation, e.ranking)
        for r in e.ranking.rules:
            for f in r.folds:
                if f.runs:  # the runs name exactly the steps of the instances folded into them
                    steps = sorted(positions[dict(i.binding)[f.step]] for i in f.instances)
                    assert _covered_steps(f, positions) == steps
        ranks = [r.rank for r in e.ranking.rules]
        inertia = [r.rank == 0 for r in e.ranking.rules]
        assert inertia == sorted(inertia) and [x for x in ranks if x] == sorted(x for x in ranks if x)
        assert all(r.rank == 0 for r in e.ranking.rules
                   if any(sid in ("CORE-2", "CORE-3") for sid, _ in r.instances[0].statements))


def test_text_shows_every_rule_instance_and_fact(repo_root: Path, rule_base: RuleBase,
                                                 rules_doc: RulesDocument) -> None:
    scenario = load_case(repo_root / PROVISIONS_CASE, rule_base)
    explanations = explain_case(scenario, rule_base, rules_doc, None, 10_000, None)
    out = render_explanations(scenario.path, scenario.title, explanations)
    blocks = out.split("\n  ok   ")[1:]
    assert len(blocks) == len(explanations)
    listed: set[str] = set()
    for e, block in zip(explanations, blocks):
        assert e.ranking is not None
        for r in e.ranking.rules:
            if len(r.instances) == 1:
                assert f"    - {r.instances[0].label}" in block
            else:
                line = next(x for x in block.splitlines() if x.startswith(f"    - {r.rule} x{len(r.instances)}: "))
                for i in r.instances:  # each binding other than the step is shown
                    assert all(f"{k}={v}" in line for k, v in i.binding if not v.startswith("turn "))
        for f in e.ranking.facts:
            text = f"    - {f.facts[0].text}  ({f.facts[0].location})"
            if f.facts[0].text in listed:  # listed in full for an earlier question: named here
                assert text not in block and all(i.label in " ".join(block.split()) for i in f.facts)
            else:
                assert block.count(text) == 1
                listed.add(f.facts[0].text)
    fact_lines = [x for x in out.splitlines() if x.startswith("    - ") and "(cases/" in x]
    assert len(fact_lines) == len(set(fact_lines))  # no fact printed twice
    for sid in ("CORE-2", "SA-6", "CORE-6"):  # a statement's text is quoted once
        assert sum(1 for x in out.splitlines() if x.startswith(f"        {sid}: ")) == 1


def test_provisions_lists_set_aside_rules_before_inertia_and_brief_fits(cli: Cli, assert_no_crash: Check,
                                                                         repo_root: Path) -> None:
    result = cli("explain", "--root", repo_root, repo_root / PROVISIONS_CASE)
    assert_no_crash(result)
    assert result.exit_code == 0, result.output
    for block in result.stdout.split("\n  ok   ")[1:]:
        lines = block.splitlines()
        set_aside = [n for n, x in enumerate(lines) if x.startswith("    - SA-")]
        inertia = [n for n, x in enumerate(lines) if x.startswith(("    - CORE-2", "    - CORE-3"))]
        assert inertia and max(set_aside, default=-1) < min(inertia), block

    brief = cli("explain", "--root", repo_root, repo_root / PROVISIONS_CASE, "--brief")
    assert_no_crash(brief)
    assert brief.exit_code == 0, brief.output
    lines = brief.stdout.splitlines()
    # the play's legality names the facts it rests on: where Provisions looks, whose cards, its alignment
    starts = [n for n, x in enumerate(lines) if x.startswith("  ok   ")] + [len(lines)]
    assert max(b - a for a, b in zip(starts, starts[1:])) <= 25 and len(lines) <= 30, brief.stdout
    assert "    decided by SA-6c, from facts above (and 22 more rule instances)" in lines
    assert not any(x.startswith(("    - ", "    and inertia")) or "CORE-2" in x for x in lines)
    assert max(len(x) for x in lines) <= 100, brief.stdout


@pytest.mark.parametrize(("case", "most"), [
    ("cases/set-aside/darkness-negated-in-battle.yaml", 10),  # a contradiction, said once for the case
    ("cases/set-aside/upkeep-set-aside-counts-its-own-upkeep.yaml", 25),  # two ambiguities
    # choices; and a question about `paired_active`, a definition, decided by the rules deciding what it reads
    ("cases/set-aside/standing-in-the-gap-player-picks-the-number-of-turns.yaml", 45),
])
def test_brief_fits_every_verdict(case: str, most: int, cli: Cli, assert_no_crash: Check, repo_root: Path) -> None:
    brief = cli("explain", "--root", repo_root, repo_root / case, "--brief")
    assert_no_crash(brief)
    lines = brief.stdout.splitlines()
    starts = [n for n, x in enumerate(lines) if x.startswith(("  ok   ", "  FAIL "))] + [len(lines)]
    assert max(b - a for a, b in zip(starts, starts[1:])) <= 25, brief.stdout  # each question's block
    assert len(lines) <= most and max(len(x) for x in lines) <= 100, brief.stdout
    if "darkness" in case:
        [ways] = [x for x in lines if x.startswith("    leave out any one of: ")]
        assert "; GLOSS-12;" in ways and "; SA-5" in ways, ways
        assert lines.count("    the same conflicting set as above") == len(
            [x for x in lines if x.startswith("  ok   ")]) - 1
    if "upkeep" in case:
        assert lines.count("    statements at fault: GLOSS-2") == 2


def test_brief_shows_only_the_deciding_rules_and_their_facts(repo_root: Path, rule_base: RuleBase,
                                                             rules_doc: RulesDocument) -> None:
    scenario = load_case(repo_root / PROVISIONS_CASE, rule_base)
    explanations = explain_case(scenario, rule_base, rules_doc, None, 10_000, None)
    out = render_explanations(scenario.path, scenario.title, explanations, brief=True)
    joined = " ".join(out.split())
    for e in explanations:
        assert e.ranking is not None
        deciding = {r.rule for r in e.ranking.deciding}
        line = next(x for x in out.splitlines() if x.startswith("    decided by ") and f"{e.result.question}" not in x
                    and out.index(x) > out.index(f"   {e.result.question}: "))
        named = {w.rstrip(",") for w in line.split(" (and ")[0].removeprefix("    decided by ").split(", ")}
        assert {n.split(" x")[0] for n in named} - {"from facts above"} == deciding
        for f in e.ranking.facts:
            if f.rank == 1:
                assert _unsourced(f.facts[0].text) in joined
    used = {f.facts[0].text for e in explanations if e.ranking for f in e.ranking.facts if f.rank == 1}
    others = {f.facts[0].text for e in explanations if e.ranking for f in e.ranking.facts} - used
    assert others and not any(_unsourced(t) in joined for t in others)


def _unsourced(fact: str) -> str:
    """A fact's text without the note of where it comes from, which a brief explanation may say once for several."""
    return " ".join(fact.removesuffix(" (read from the card's text)").split())


def test_cli_explain_json_ranks_every_rule(cli: Cli, repo_root: Path, write_case: Callable[..., Path],
                                           provisions_text: str) -> None:
    result = cli("explain", "--root", repo_root, write_case(provisions_text), "-q", "returns_at", "--format", "json")
    assert result.exit_code == 0, result.output
    (item,) = json.loads(result.stdout)["explanations"]
    ranking = item["derivation"]["ranking"]
    assert ranking["rules"][0]["rule"] == "SA-6c" and ranking["rules"][0]["rank"] == 1
    assert ranking["rules"][-1]["rank"] == 0
    labels = [c["label"] for c in item["derivation"]["steps"]]
    placed = [i for r in ranking["rules"] for i in r["instances"]] + [i for f in ranking["facts"] for i in f["facts"]]
    assert sorted(placed) == sorted(labels)


def test_a_brief_explanation_says_once_where_a_run_of_facts_comes_from() -> None:
    facts = ["a is a Hero", "b is a set aside effect (read from the card's text)",
             "b lasts 2 turn(s) (read from the card's text)", "x targets a (default)", "y targets b (default)",
             "c is a heal effect (read from the card's text)"]
    assert _sourced_once(facts) == ["a is a Hero", "b is a set aside effect",
                                    "b lasts 2 turn(s) (these 2 read from the card's text)", "x targets a (default)",
                                    "y targets b (default)", "c is a heal effect (read from the card's text)"]


def test_facts_that_read_the_same_are_shown_once(cli: Cli, repo_root: Path) -> None:
    """One sentence of a card pins how long its effect lasts and for how many turns: two facts, one line."""
    out = cli("explain", "--root", repo_root, repo_root / "cases/set-aside/darkness-negated-in-battle.yaml").stdout
    lines = out.splitlines()
    assert sum(1 for x in lines if x.startswith("    - darkness_a1 lasts 2 turn(s) (read from the card's text)")) == 1
    facts = [x for x in lines if x.startswith("    - ") and "(read from" in x]
    assert len(facts) == len(set(facts))
