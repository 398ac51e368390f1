"""`regcheck gate --base GITREV`: the answers of every case at another revision, compared with now."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from verifier.language.encoding import RuleBase
from verifier.scenario.loader import load_case
from verifier.solver.grounding import RuleInstance, ground

from .helpers import CONTRADICTION, NEGATED_IN_BATTLE_SCOPE, replace_in

Gate = Callable[..., Result]
SA_5 = """requires: |
      implies(may_set_aside(x) and targets(x, c) and set_aside(x, c),
              return_step(x, c) <= step_of(x) or return_step(x, c) == never
              or any(return_step(x, c) == s for s in steps if s > step_of(x) and phase_of(s) == Preparation))"""

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", "-c", "user.name=regcheck", "-c", "user.email=regcheck@example.org",
                           "-c", "commit.gpgsign=false", *args], cwd=root, capture_output=True, text=True, check=True)
    return done.stdout


@pytest.fixture
def two_commits(gate_repo: Path) -> Path:
    """A git repository of the small rules repository; the second commit drops SA-5's condition and adds a case."""
    _git(gate_repo, "init", "-q")
    _git(gate_repo, "add", ".")
    _git(gate_repo, "commit", "-q", "-m", "rules as they were")
    replace_in(gate_repo / "encodings" / "set-aside.yaml", SA_5, "requires: True")
    shutil.copy(gate_repo / "cases" / "set-aside" / "provisions-returns-after-two-turns.yaml",
                gate_repo / "cases" / "provisions-again.yaml")
    _git(gate_repo, "commit", "-q", "-a", "-m", "SA-5 no longer holds")
    _git(gate_repo, "add", ".")
    _git(gate_repo, "commit", "-q", "-m", "one more case")
    return gate_repo


def test_base_lists_every_answer_that_changed(gate: Gate, two_commits: Path) -> None:
    before = _git(two_commits, "status", "--porcelain")
    result = gate(two_commits, "--base", "HEAD~2")
    assert _git(two_commits, "status", "--porcelain") == before, "the working tree is left alone"
    out = result.output
    section = out[out.index("changes of verdict or value since HEAD~2"):].split("\nproblems (")[0]
    lines = section.splitlines()[1:]
    assert f"  {CONTRADICTION}::zap_legal: contradiction -> determined = yes" in lines, out
    assert "  cases/provisions-again.yaml: new case" in lines
    assert "  cases/provisions-again.yaml::returns_at: (not asked) -> determined = turn 3 Preparation (alice)" in lines
    assert not any("upkeep-set-aside" in line for line in lines), "unchanged answers are not listed"
    # the contradiction was an accepted finding: now that it is gone, the gate says so
    assert result.exit_code == 1
    assert "is no longer found: resolved? remove it from accepted-findings.yaml" in out


def test_base_with_no_change_lists_none(gate: Gate, two_commits: Path) -> None:
    result = gate(two_commits, "--base", "HEAD", "--format", "json")
    data = json.loads(result.output)
    assert data["base"] == "HEAD" and data["changes"] == []


@pytest.mark.parametrize("revision", ["no-such-branch", "HEAD~9", "--output=x"])
def test_a_bad_revision_is_bad_input(gate: Gate, two_commits: Path, revision: str) -> None:
    result = gate(two_commits, "--base", revision)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: --base {revision}: ")
    assert result.stdout == ""


def test_base_outside_a_git_repository_is_bad_input(gate: Gate, gate_repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(gate_repo.parent))
    result = gate(gate_repo, "--base", "HEAD")
    assert result.exit_code == 2
    assert "is not in a git repository" in result.stderr




def test_base_with_scope_lists_the_finding_an_encoding_change_introduces(gate: Gate, gate_repo: Path,
                                                                          tmp_path: Path) -> None:
    sa_5 = gate_repo / "encodings" / "set-aside.yaml"
    original = sa_5.read_text(encoding="utf-8")
    replace_in(sa_5, SA_5, "requires: True")
    _git(gate_repo, "init", "-q")
    _git(gate_repo, "add", ".")
    _git(gate_repo, "commit", "-q", "-m", "SA-5 not encoded yet")
    sa_5.write_text(original, encoding="utf-8")
    _git(gate_repo, "commit", "-q", "-a", "-m", "SA-5 encoded")
    scope = tmp_path / "negate-in-battle.yaml"
    scope.write_text(NEGATED_IN_BATTLE_SCOPE, encoding="utf-8")

    result = gate(gate_repo, "--base", "HEAD~1", "--scope", scope)
    out = result.output
    section = out[out.index("changes of verdict or value since HEAD~1"):].split("\nproblems (")[0]
    [line] = [line for line in section.splitlines() if "negate-in-battle.yaml" in line]
    assert ": no finding -> contradiction (" in line and "SA-5" in line, out

    json_result = gate(gate_repo, "--base", "HEAD~1", "--scope", scope, "--format", "json")
    [change] = [c for c in json.loads(json_result.stdout)["changes"] if c["case"].endswith("negate-in-battle.yaml")]
    assert change["before"] == "no finding" and change["after"].startswith("contradiction")


def test_scope_without_base_is_a_usage_error(gate: Gate, gate_repo: Path, tmp_path: Path) -> None:
    scope = tmp_path / "negate-in-battle.yaml"
    scope.write_text(NEGATED_IN_BATTLE_SCOPE, encoding="utf-8")
    result = gate(gate_repo, "--scope", scope)
    assert result.exit_code == 2
    assert "--scope names the scopes to compare with --base" in result.output


def test_a_reworded_rule_reaches_no_case(gate: Gate, gate_repo: Path, repo_root: Path, rule_base: RuleBase) -> None:
    modifier_case = "cases/modifiers/whole-ability-modifier-modifies-every-part.yaml"
    (gate_repo / modifier_case).parent.mkdir(parents=True)
    shutil.copy(repo_root / modifier_case, gate_repo / modifier_case)
    _git(gate_repo, "init", "-q")
    _git(gate_repo, "add", ".")
    _git(gate_repo, "commit", "-q", "-m", "rules as they were")
    replace_in(gate_repo / "encodings" / "modifiers.yaml", "modifies every part of it", "modifies each part of it")
    _git(gate_repo, "commit", "-q", "-a", "-m", "MOD-6 says it otherwise")
    out = json.loads(gate(gate_repo, "--base", "HEAD~1", "--format", "json").output)
    cases = sorted((gate_repo / "cases").rglob("*.yaml"))
    reached = [f for f in cases if any(isinstance(t.origin, RuleInstance) and t.origin.rule.id == "MOD-6"
                                       for t in ground(load_case(f, rule_base), rule_base).tracked)]
    assert [f.relative_to(gate_repo).as_posix() for f in reached] == [modifier_case]
    # the rule's wording changed, not what the solver reads of it: the case grounding it keeps its answers too
    assert out["changed_since_base"] == [{"name": "MOD-6", "how": "reworded"}]
    assert (out["summary"]["base_cases_checked"], out["summary"]["base_cases"]) == (0, len(cases))
    assert out["changes"] == []
