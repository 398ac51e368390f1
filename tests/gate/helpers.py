"""Helpers of the gate's tests: the small repository's cases, a scope, and editing files on purpose."""

from __future__ import annotations

from pathlib import Path

# A determined case and an ambiguous one, copied from cases/, and a contradictory one (conftest's
# TINY_CONTRADICTION): every kind of result, checked in seconds.
SMALL_CASES = ("set-aside/provisions-returns-after-two-turns.yaml", "set-aside/upkeep-set-aside-counts-its-own-upkeep.yaml")
CONTRADICTION = "cases/set-aside/tiny-contradiction.yaml"

# A scope whose every scenario with the negate has the SA-5 conflict (a set-aside undone in battle).
NEGATED_IN_BATTLE_SCOPE = """\
title: a set-aside negated in the Battle Phase
players: [alice, bob]
turns: 1
cards:
  hezekiah:
    type: Hero
    brigade: Blue
    abilities: [{kind: set aside, duration: 1 turn}]
  isaiah: {type: Hero, brigade: Blue}
  confusion:
    type: EE
    brigade: Black
    owner: bob
    abilities: [{kind: negate}]
attempts:
  - {id: sets_aside, activate: hezekiah, targets: [isaiah], phase: Battle}
  - {id: negates, negate: sets_aside, by: confusion, phase: Battle}
phases: [Preparation, Battle]
per_phase: 2
templates: [legal]
"""


def replace_in(path: Path, old: str, new: str) -> None:
    """Replace text in a file, making sure it was there."""
    text = path.read_text("utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def accept_every_survivor(root: Path, reason: str = "the small test repository has too few cases to notice it") -> int:
    """Write accepted-survivors.yaml listing every rule whose deletion the repository's cases do not notice;
    returns how many."""
    from verifier.api import load, open_repository
    from verifier.gate import SURVIVORS_FILE
    from verifier.gate.run import case_files
    from verifier.mutation import MutantStatus, mutations, run_mutations
    from verifier.solver.engine import DEFAULT_TIMEOUT_MS

    repo = open_repository(root)
    scenarios = [load(repo, f) for f in case_files(root)]
    found = [m for m in mutations(repo.rules, kinds=("delete",)) if not repo.rules.rule(m.mutant.target).interpretation]
    results = run_mutations(repo.rules, scenarios, found, DEFAULT_TIMEOUT_MS, jobs=1)
    survivors = [m.mutant.target for m, r in zip(found, results) if r.status is MutantStatus.SURVIVED]
    lines = ["survivors:"] + [f"  - rule: {rule}\n    reason: {reason}" for rule in survivors]
    (root / SURVIVORS_FILE).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(survivors)
