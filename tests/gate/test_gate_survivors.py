"""The gate's mutation check: every rule's deletion is noticed by a case, or listed in accepted-survivors.yaml."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from click.testing import Result

from .helpers import replace_in

# A rule no case depends on: a card in a hand is not in a discard pile, which a card being in one zone at a
# time already says.
NEW_RULE = """
  - id: SA-99
    cites: [SA-1]
    says: "{c} in a hand at {s} is not in a discard pile then"
    for: {c: card, s: step}
    requires: implies(zone(c, s) == hand, zone(c, s) != discard_pile)
"""


def _add_rule(root: Path) -> None:
    replace_in(root / "encodings" / "set-aside.yaml", "\nrules:\n", "\nrules:" + NEW_RULE)


def test_a_new_rule_no_case_depends_on_fails_the_gate(survivors_repo: Path, gate: Callable[..., Result]) -> None:
    _add_rule(survivors_repo)
    result = gate(survivors_repo, "--format", "json", mutate=True)
    assert result.exit_code == 1, result.output
    report = json.loads(result.output)
    problems = [p for p in report["problems"] if p["check"] == "mutation"]
    assert len(problems) == 1, problems
    assert "rule SA-99 can be deleted without any case noticing" in problems[0]["message"]
    assert problems[0]["place"].startswith("encodings/set-aside.yaml:")
    # accepted with a reason, it passes (the ambiguities it now takes part in accepted too)
    with (survivors_repo / "accepted-survivors.yaml").open("a", encoding="utf-8") as f:
        f.write("  - rule: SA-99\n    reason: restates CORE-1 (a card is in one zone at a time)\n")
    again = gate(survivors_repo, "--accept-findings", mutate=True)
    assert again.exit_code == 0, again.output
    assert "accepted in accepted-survivors.yaml" in again.output


def test_an_accepted_survivor_that_a_case_now_notices_fails_the_gate(survivors_repo: Path,
                                                                     gate: Callable[..., Result]) -> None:
    # SA-1 (a set-aside card is in a set-aside area) decides the bundled Provisions case
    with (survivors_repo / "accepted-survivors.yaml").open("a", encoding="utf-8") as f:
        f.write("  - rule: SA-1\n    reason: listed by mistake\n")
    result = gate(survivors_repo, mutate=True)
    assert result.exit_code == 1, result.output
    assert "accepted survivor SA-1 is no longer one" in result.output
    assert "remove it from accepted-survivors.yaml" in result.output


def test_bad_survivors_file_is_bad_input(survivors_repo: Path, gate: Callable[..., Result]) -> None:
    path = survivors_repo / "accepted-survivors.yaml"
    replace_in(path, "survivors:\n", "survivors:\n  - rule: SA-999\n    reason: no such rule\n")
    result = gate(survivors_repo, mutate=True)
    assert result.exit_code == 2, result.output
    assert "accepted-survivors.yaml:2" in result.output
    assert "no rule 'SA-999' in the encodings" in result.output
    path.write_text("survivors:\n  - rule: SA-5-I1\n    reason: an interpretation\n", encoding="utf-8")
    result = gate(survivors_repo, mutate=True)
    assert result.exit_code == 2 and "is an interpretation" in result.output
    path.write_text("survivors:\n  - rule: SA-1\n", encoding="utf-8")
    result = gate(survivors_repo, mutate=True)
    assert result.exit_code == 2 and "reason" in result.output


def test_no_mutate_leaves_the_check_out(survivors_repo: Path, gate: Callable[..., Result]) -> None:
    _add_rule(survivors_repo)
    result = gate(survivors_repo, "--no-mutate", "--accept-findings")
    assert result.exit_code == 0, result.output
    assert "mutation:" not in result.output
