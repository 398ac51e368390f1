"""`regcheck gate --base` checks again at the base only the cases and scopes an edit of the encodings reaches:
those whose grounding holds an instance of a changed, added or removed rule, or of a rule using a changed
definition (at the base or now); the others keep their answers of now."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

import verifier.gate.run
from verifier.explore import load_scope
from verifier.explore.scenarios import plans, scenario_of
from verifier.gate import GateOptions, run_gate
from verifier.gate.reach import encoding_changes
from verifier.gate.revision import extract_revision
from verifier.language.encoding import RuleBase, load_rule_base
from verifier.language.syntax import Call, walk
from verifier.scenario.loader import load_case
from verifier.scenario.model import Scenario
from verifier.solver.engine import DEFAULT_TIMEOUT_MS
from verifier.solver.grounding import RuleInstance, ground

from .helpers import NEGATED_IN_BATTLE_SCOPE, replace_in

Gate = Callable[..., Result]
SA_5 = """requires: |
      implies(may_set_aside(x) and targets(x, c) and set_aside(x, c),
              return_step(x, c) <= step_of(x) or return_step(x, c) == never
              or any(return_step(x, c) == s for s in steps if s > step_of(x) and phase_of(s) == Preparation))"""
RETURNS_IN_PREPARATION = "requires: implies(returns_at(x, c, s), phase_of(s) == Preparation)"
# cases beside the small repository's three: two that ground no SA-5 instance, two that do
MORE_CASES = ("modifiers/whole-ability-modifier-modifies-every-part.yaml",
              "modifiers/ability-type-modifier-on-an-ability-without-that-type.yaml",
              "heal/heal-on-character-that-is-not-healable-not-legal.yaml",
              "heal/miracle-at-troas-cannot-heal-an-ot-hero.yaml")
RECHECKED = re.compile(r"^re-checked (\d+) of (\d+) cases?(?: and (\d+) of (\d+) scopes?)? at ", re.MULTILINE)

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=regcheck", "-c", "user.email=regcheck@example.org",
                    "-c", "commit.gpgsign=false", *args], cwd=root, capture_output=True, text=True, check=True)


@pytest.fixture
def committed(gate_repo: Path, repo_root: Path) -> Path:
    """The small rules repository with four more cases and a scope, committed to git."""
    for case in MORE_CASES:
        (gate_repo / "cases" / case).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(repo_root / "cases" / case, gate_repo / "cases" / case)
    (gate_repo / "scopes").mkdir()
    (gate_repo / "scopes" / "negated.yaml").write_text(NEGATED_IN_BATTLE_SCOPE, encoding="utf-8")
    _git(gate_repo, "init", "-q")
    _git(gate_repo, "add", ".")
    _git(gate_repo, "commit", "-q", "-m", "rules as they were")
    return gate_repo


def _instances(scenario_rules: RuleBase, scenarios: list[Scenario]) -> list[set[str]]:
    out = []
    for sc in scenarios:
        g = ground(sc, scenario_rules)
        out.append({t.origin.rule.id for t in g.tracked if isinstance(t.origin, RuleInstance)})
    return out


def _cases_holding(root: Path, rules: RuleBase, wanted: set[str]) -> set[str]:
    """The cases of the repository at `root` whose grounding over `rules` holds an instance of a `wanted` rule."""
    files = sorted((root / "cases").rglob("*.yaml"))
    grounded = _instances(rules, [load_case(f, rules) for f in files])
    return {f.relative_to(root).as_posix() for f, used in zip(files, grounded) if used & wanted}


def _scope_holds(path: Path, rules: RuleBase, wanted: set[str]) -> bool:
    scope = load_scope(path, rules)
    return any(used & wanted for used in _instances(rules, [scenario_of(scope, p, rules) for p in plans(scope)]))


def _base_rules(root: Path, tmp_path: Path) -> RuleBase:
    return load_rule_base(extract_revision(root, "HEAD", tmp_path / "base") / "encodings")


def test_the_count_of_cases_checked_again_is_what_the_edited_rule_reaches(gate: Gate, committed: Path,
                                                                          tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    replace_in(committed / "encodings" / "set-aside.yaml", SA_5, "requires: True")  # statement SA-5's rule
    before, now = _base_rules(committed, tmp_path), load_rule_base(committed / "encodings")
    # SA-5 now holds whatever happens, so no case grounds an instance of it now: those it reaches ground one at the base
    reached = _cases_holding(committed, before, {"SA-5"}) | _cases_holding(committed, now, {"SA-5"})
    assert 0 < len(reached) < 7, reached
    scope_reached = _scope_holds(committed / "scopes" / "negated.yaml", before, {"SA-5"})

    result = gate(committed, "--base", "HEAD")
    counts = RECHECKED.search(result.stdout)
    assert counts is not None, result.stdout
    assert counts.groups() == (str(len(reached)), "7", str(int(scope_reached)), "1")
    assert scope_reached  # the scope's scenarios set a card aside
    assert f"re-checked {len(reached)} of 7 cases and 1 of 1 scope at HEAD: their grounding holds an instance of " \
           "SA-5 (changed); the others keep their answers" in result.stdout
    assert "rules and definitions changed since HEAD: SA-5 (changed)\n" in result.stdout

    # one run gives the other formats: its JSON, and its JUnit and SARIF files (rendered as --format renders them)
    junit_file, sarif_file = tmp_path / "gate.xml", tmp_path / "gate.sarif"
    data = json.loads(gate(committed, "--base", "HEAD", "--format", "json", "--junit-file", str(junit_file),
                           "--sarif-file", str(sarif_file)).stdout)
    assert {c["case"] for c in data["checked_at_base"] if "case" in c} == reached
    assert data["summary"]["base_cases_checked"] == len(reached) and data["summary"]["base_cases"] == 7
    assert data["changed_since_base"] == [{"name": "SA-5", "how": "changed"}]
    assert any(c["question"] == "zap_legal" and c["before"] == "contradiction" for c in data["changes"]), data["changes"]
    junit = junit_file.read_text(encoding="utf-8")
    assert f'<property name="base_cases_checked" value="{len(reached)}" />' in junit
    sarif = json.loads(sarif_file.read_text(encoding="utf-8"))
    assert sarif["runs"][0]["properties"]["baseCasesChecked"] == len(reached)

    # a full check at the base (every case and scope searched there) finds the very same changes
    options = GateOptions(DEFAULT_TIMEOUT_MS, jobs=1, base="HEAD", mutate=False)
    told: set[str] = set()
    incremental = run_gate(committed, options, progress=lambda what, done, total: told.add(what))
    assert {"cases", "scope scopes/negated.yaml", "groundings at HEAD", "groundings now", "cases at HEAD",
            "scope groundings", "scope scopes/negated.yaml at HEAD"} <= told, told
    monkeypatch.setattr(verifier.gate.run, "why_reached", lambda *args: "checked in full")
    full = run_gate(committed, options)
    assert full.base_checks is not None and len(full.base_checks.cases_checked) == 7
    assert len(full.base_checks.scopes_checked) == 1
    assert incremental.changes == full.changes
    assert incremental.changes  # the edit changes answers: the comparison is not of nothing


def test_an_added_rule_is_grounded_against_the_rules_of_now(gate: Gate, committed: Path, tmp_path: Path) -> None:
    sa_5 = "  - id: SA-5\n    cites: [SA-5]\n"
    text = (committed / "encodings" / "set-aside.yaml").read_text(encoding="utf-8")
    added = ("  - id: SA-5z\n    cites: [SA-5]\n    says: \"{c} comes back from {x} only in a Preparation Phase\"\n"
             "    for: {x: attempt, c: card, s: step}\n    " + RETURNS_IN_PREPARATION + "\n\n")
    (committed / "encodings" / "set-aside.yaml").write_text(text.replace(sa_5, added + sa_5, 1), encoding="utf-8")
    now = load_rule_base(committed / "encodings")
    reached = _cases_holding(committed, now, {"SA-5z"})
    assert 0 < len(reached) < 7, reached
    assert not _cases_holding(committed, _base_rules(committed, tmp_path), {"SA-5z"})  # no such rule at the base

    data = json.loads(gate(committed, "--base", "HEAD", "--format", "json").stdout)
    assert {c["case"] for c in data["checked_at_base"] if "case" in c} == reached
    assert {c["why"] for c in data["checked_at_base"]} == {"its grounding holds an instance of SA-5z (added)"}
    assert data["changed_since_base"] == [{"name": "SA-5z", "how": "added"}]
    # the rule says what SA-5 says: no case's answer changes (a scope's conflict may now be told with SA-5z)
    assert [c for c in data["changes"] if c["case"].startswith("cases/")] == []


def test_changes_are_found_by_content_not_place(rule_base: RuleBase) -> None:
    rules = list(rule_base.rules)
    first, second = rules[0], rules[1]
    moved = rule_base._replace(rules=(second._replace(loc=first.loc), first._replace(loc=second.loc), *rules[2:]))
    assert encoding_changes(rule_base, moved).changed == ()
    reworded = rule_base._replace(rules=(first._replace(says="said otherwise"), *rules[1:]))
    assert encoding_changes(rule_base, reworded).changed == ((first.id, "reworded"),)
    assert encoding_changes(rule_base, reworded).reached == ()
    changed = rule_base._replace(rules=(first._replace(body=second.body), *rules[1:]))
    assert encoding_changes(rule_base, changed).reached == ((first.id, f"{first.id} (changed)"),)
    removed = rule_base._replace(rules=tuple(rules[1:]))
    assert encoding_changes(rule_base, removed).changed == ((first.id, "removed"),)
    assert encoding_changes(removed, rule_base).changed == ((first.id, "added"),)


def test_a_changed_definition_reaches_every_rule_that_uses_it(rule_base: RuleBase) -> None:
    calls = {n: {c.func for c in walk(d.body) if isinstance(c, Call) and c.func in rule_base.definitions}
             for n, d in rule_base.definitions.items()}
    # a definition another definition uses, so that some rules reach it only through that one
    name = next(n for n in sorted(rule_base.definitions) if any(n in called for called in calls.values()))
    users = {name}
    while True:
        more = {user for user, called in calls.items() if called & users} - users
        if not more:
            break
        users |= more
    expected = {r.id for r in rule_base.rules
                if any(isinstance(c, Call) and c.func in users for c in walk(r.body))}
    d = rule_base.definitions[name]
    edited = rule_base._replace(definitions={**rule_base.definitions, name: d._replace(result="changed")})
    changes = encoding_changes(rule_base, edited)
    assert changes.definitions == ((name, "changed"),) and changes.rules == ()
    assert {rid for rid, _ in changes.reached} == expected
    assert all(why.endswith(f"(uses {name} (changed))") for _, why in changes.reached)
