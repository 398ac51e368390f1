"""The HTML report of a few cases (a timeline, an open question, a contradiction, a title full of markup),
a sweep of one pair and an explore of one scope, written once by the real command line."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.gate.helpers import NEGATED_IN_BATTLE_SCOPE
from verifier import api
from verifier.cli import main
from verifier.sweep import SweepOptions, SweepTemplate

REPORTED = ("set-aside/provisions-returns-after-two-turns.yaml", "set-aside/darkness-negated-in-battle.yaml",
            "interactions/passover-poisoned-hero-heal-depends-on-when-it-returns.yaml",
            "ability-activation-order/two-added-heroes-with-abilities-in-different-steps.yaml")
HOSTILE_TITLE = '<script>alert("x")</script> & <img src=https://example.invalid/x.png>'


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory, repo_root: Path, provisions_text: str) -> Path:
    folder = tmp_path_factory.mktemp("report")
    hostile = folder / "hostile.yaml"
    hostile.write_text(provisions_text.replace("title: Provisions sets a Hero aside for 2 turns",
                                               f"title: '{HOSTILE_TITLE}'"), encoding="utf-8")
    deck, swept = folder / "deck.txt", folder / "sweep.db"
    deck.write_text("1\tProvisions\n1\tMiracle of Healing\n", encoding="utf-8")  # one pair
    api.sweep(api.open_repository(repo_root), swept,
              SweepOptions(template=SweepTemplate(turns=1, attempts=("play",)), jobs=1), deck=deck)
    scope = folder / "negated-in-battle.yaml"
    scope.write_text(NEGATED_IN_BATTLE_SCOPE, encoding="utf-8")
    out = folder / "site"
    result = CliRunner().invoke(main, ["report", "--html", str(out), "--root", str(repo_root), "--jobs", "1",
                                       "--sweep", str(swept), "--scope", str(scope),
                                       *(str(repo_root / "cases" / c) for c in REPORTED), str(hostile)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("wrote 12 pages to ")
    return out
