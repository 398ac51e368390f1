"""`regcheck ruling --sweep`: a ruling's general rules checked on every combination of a real sweep's results
database, against each combination checked alone, with and without the ruling, through the API."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import Result

import verifier.terminal
from verifier import api
from verifier.explore.scenarios import plans, scenario_of
from verifier.explore.scope import ScopeText, load_scope
from verifier.explore.search import describe
from verifier.ruling import load_ruling
from verifier.sweep import SweepCard, SweepOptions, SweepTemplate
from verifier.sweep.store import read_store
from verifier.sweep.template import combination_name, scope_text

Cli = Callable[..., Result]

# three cards, the smallest template: each card's use alone (three scenarios a pair), asking where cards are
TINY_DECK = "Main Deck:\n1\tMeditation (B)\n1\tMiracle of Healing\n1\tProvisions\n"
TINY_TEMPLATE = SweepTemplate(turns=1, phases=("Preparation",), attempts=("play",), per_phase=1, max_attempts=1,
                              templates=("zone",))

# where a healing enhancement goes once played is left open (an accepted finding): this settles it
SETTLES = """\
ruling: RUL-HEALING-1
title: A healing enhancement played outside battle stays in its player's territory
rules:
  - id: RUL-HEALING-1
    cites: [CORE-11]
    says: "{c}, played by {x} to heal, is in a territory once played"
    for: {x: attempt, c: card}
    requires: implies(heal_use(x) and played_here(c, step_of(x)), zone(c, step_of(x)) == territory)
"""
# every card played stays in a territory: a set-aside card is in the set-aside area, so this contradicts there
CONTRADICTS = """\
ruling: RUL-PLAYED-1
title: A card played is in a territory
rules:
  - id: RUL-PLAYED-1
    cites: [CORE-11]
    says: "{c}, played at {s}, is in a territory"
    for: {c: card, s: step}
    requires: implies(played_here(c, s), zone(c, s) == territory)
"""
NOTHING = "rulings/upkeep-of-the-set-aside-does-not-count.yaml"  # no Upkeep in the template: it changes nothing


@pytest.fixture(scope="module")
def tiny_sweep(tmp_path_factory: pytest.TempPathFactory, repo_root: Path) -> Path:
    """The results database of a real sweep of three cards (three pairs) with the smallest template."""
    folder = tmp_path_factory.mktemp("tiny-sweep")
    (folder / "deck.txt").write_text(TINY_DECK, encoding="utf-8")
    database = folder / "tiny.db"
    api.sweep(api.open_repository(repo_root), database, SweepOptions(template=TINY_TEMPLATE, jobs=1),
              deck=folder / "deck.txt")
    return database


@pytest.fixture
def rulings(tmp_path: Path) -> dict[str, Path]:
    (tmp_path / "settles.yaml").write_text(SETTLES, encoding="utf-8")
    (tmp_path / "contradicts.yaml").write_text(CONTRADICTS, encoding="utf-8")
    (tmp_path / "case.yaml").write_text(
        "players: [alice, bob]\ncards:\n  elijah: {type: Hero}\nquestions:\n  where: zone(elijah, at(1, Draw))\n",
        encoding="utf-8")
    return {"settles": tmp_path / "settles.yaml", "contradicts": tmp_path / "contradicts.yaml",
            "case": tmp_path / "case.yaml"}


def _alone(repo_root: Path, database: Path, ruling: Path) -> dict[str, set[tuple[str, str, str, str]]]:
    """Each combination of the database whose answers the ruling changes, checked alone through the API: every
    scenario of its scope answered with the rule base and with the ruling's rules added; each changed answer as
    (scenario's attempts, question asked, answer without, answer with)."""
    repo = api.open_repository(repo_root)
    with_ruling = replace(repo, rules=load_ruling(ruling, repo.rules, repo.document()).rule_base(repo.rules))
    run, rows = read_store(database)
    template = SweepTemplate(**{k: tuple(v) if isinstance(v, list) else v for k, v in run["template"].items()
                                if k != "size"})
    cards = {c["name"]: SweepCard(**{k: tuple(v) if isinstance(v, list) else v for k, v in c.items()})
             for c in run["cards"]}
    changed: dict[str, set[tuple[str, str, str, str]]] = {}
    for row in rows:
        combination = [cards[n] for n in row.cards]
        scope = load_scope(ScopeText(combination_name(combination), scope_text(combination, template)), repo.rules)
        for plan in plans(scope):
            scenario = scenario_of(scope, plan, repo.rules)
            before, after = api.answer(repo, scenario), api.answer(with_ruling, scenario)
            asks = {q.name: q.text for q in scenario.questions}
            for b, a in zip(before.results, after.results):
                if b.answer != a.answer:
                    where = f"[{', '.join(describe(scope, plan)) or 'no attempts'}]"
                    changed.setdefault(row.key, set()).add((where, asks[b.question], b.answer, a.answer))
    return changed


def _listed(sweep: dict[str, object]) -> dict[str, set[tuple[str, str, str, str]]]:
    """The combinations `ruling --sweep --format json` lists as changed, each changed answer as `_alone` gives it."""
    out: dict[str, set[tuple[str, str, str, str]]] = {}
    for combination in sweep["changed"]:  # type: ignore[attr-defined]
        prefix = f"sweep: {combination['combination']} "
        for check in combination["changed"]:
            assert check["case"].startswith(prefix)
            out.setdefault(combination["combination"], set()).update(
                (check["case"][len(prefix):], c["question"], c["before"], c["after"]) for c in check["changes"])
    return out


def test_the_combinations_listed_are_those_whose_answers_the_ruling_changes_alone(
        cli: Cli, assert_no_crash: Callable[[Result], None], repo_root: Path, tiny_sweep: Path,
        rulings: dict[str, Path]) -> None:
    outputs = {}
    for jobs in ("1", "2"):
        result = cli("ruling", "--root", repo_root, "--sweep", tiny_sweep, "--cases", rulings["case"], "--jobs", jobs,
                     "--format", "json", rulings["settles"], rulings["contradicts"], repo_root / NOTHING)
        assert_no_crash(result)
        assert result.exit_code == 1, result.output  # RUL-PLAYED-1 contradicts the rules
        outputs[jobs] = result.stdout
    assert outputs["1"] == outputs["2"]
    settles, contradicts, nothing = json.loads(outputs["1"])["rulings"]
    _, rows = read_store(tiny_sweep)
    for data in (settles, contradicts, nothing):
        assert data["sweep"]["database"] == str(tiny_sweep)
        assert data["sweep"]["combinations"] == len(rows) == 3
        assert data["sweep"]["scenarios"] == 9  # no attempt, or one of the pair's cards used
    assert settles["verdict"] == "narrows" and contradicts["verdict"] == "contradicts"

    expected = _alone(repo_root, tiny_sweep, rulings["settles"])
    assert set(expected) == {"Meditation (B) + Miracle of Healing", "Miracle of Healing + Provisions"}
    assert _listed(settles["sweep"]) == expected
    listed = settles["sweep"]["changed"]
    assert [c["combination"] for c in listed] == [r.key for r in rows if r.key in expected]  # in the database's order
    assert [(c["scenarios"], len(c["changed"])) for c in listed] == [
        (3, len({where for where, *_ in expected[c["combination"]]})) for c in listed]

    expected = _alone(repo_root, tiny_sweep, rulings["contradicts"])
    assert set(expected) == {r.key for r in rows}  # a set-aside card played is never in a territory
    assert _listed(contradicts["sweep"]) == expected
    assert any(after == "contradiction" for changes in expected.values() for *_, after in changes)
    assert contradicts["sweep"]["verdicts"]["contradicts"] >= 1

    assert nothing["verdict"] == "entailed"
    assert nothing["sweep"]["changed"] == [] and nothing["sweep"]["unknown"] == []
    assert _alone(repo_root, tiny_sweep, repo_root / NOTHING) == {}


def test_the_text_lists_the_combinations_with_counts(cli: Cli, assert_no_crash: Callable[[Result], None],
                                                     repo_root: Path, tiny_sweep: Path, rulings: dict[str, Path]) -> None:
    result = cli("ruling", "--root", repo_root, "--sweep", tiny_sweep, "--cases", rulings["case"], rulings["settles"],
                 repo_root / NOTHING)
    assert_no_crash(result)
    assert result.exit_code == 0, result.output
    settles, nothing = result.stdout.split("\n\n")
    assert f"  impact on the sweep {tiny_sweep}: 3 combinations, 9 scenarios: entailed 7, narrows 2\n" in settles
    assert "  combinations whose answers change: 2 (2 scenarios)\n" in settles
    assert ("    Meditation (B) + Miracle of Healing: 1 of 3 scenarios\n"
            "      [turn 1 Preparation: use_card_2]: narrows\n"
            "        zone(card_2, at(1, Preparation)): ambiguous -> determined = territory\n") in settles
    assert "    Miracle of Healing + Provisions: 1 of 3 scenarios\n" in settles
    assert "  combinations whose answers change: 0" in nothing and "Meditation" not in nothing


def test_progress_goes_to_standard_error(cli: Cli, repo_root: Path, tiny_sweep: Path, rulings: dict[str, Path],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(verifier.terminal, "stderr_is_terminal", lambda: True)
    monkeypatch.setattr(verifier.terminal, "PROGRESS_DELAY", 0.0)
    result = cli("ruling", "--root", repo_root, "--sweep", tiny_sweep, "--cases", rulings["case"], "--jobs", "1",
                 "--format", "json", rulings["settles"])
    assert result.exit_code == 0, result.output
    for done in (1, 2, 3):
        assert f"\r\x1b[Kruling RUL-HEALING-1: sweep combinations: {done}/3" in result.stderr
    assert "sweep combinations" not in result.stdout and "\x1b" not in result.stdout
    json.loads(result.stdout)


def _changed_copy(database: Path, folder: Path, statement: str) -> Path:
    copy = folder / f"copy-{abs(hash(statement))}.db"
    shutil.copy(database, copy)
    with sqlite3.connect(copy) as db:
        db.execute(statement)
    return copy


def test_a_bad_database_is_refused_with_exit_2(cli: Cli, assert_no_crash: Callable[[Result], None], repo_root: Path,
                                               tiny_sweep: Path, rulings: dict[str, Path], tmp_path: Path) -> None:
    (tmp_path / "text.db").write_text("not a database\n", encoding="utf-8")
    with sqlite3.connect(tmp_path / "other.db") as db:
        db.execute("CREATE TABLE other (x)")
    bad = {
        tmp_path / "missing.db": "no such results database",
        tmp_path / "text.db": "not a sweep results database",
        tmp_path / "other.db": "not a sweep results database",
        _changed_copy(tiny_sweep, tmp_path, "UPDATE run SET regcheck_version = '0.0.1'"):
            "the database holds a sweep made by regcheck 0.0.1, this is regcheck ",
        _changed_copy(tiny_sweep, tmp_path, "UPDATE run SET rules_fingerprint = '0123456789abcdef'"):
            "the database holds a sweep of another rule base (fingerprint 0123456789abcdef, now ",
        _changed_copy(tiny_sweep, tmp_path, "UPDATE run SET cards_fingerprint = '0123456789abcdef'"):
            "the database's cards read otherwise today (fingerprint 0123456789abcdef, now ",
    }
    for database, message in bad.items():
        result = cli("ruling", "--root", repo_root, "--sweep", database, "--cases", rulings["case"], rulings["settles"])
        assert_no_crash(result)
        assert result.exit_code == 2, (database, result.output)
        assert f"error: {database}:1: {message}" in result.stderr, result.stderr
        assert result.stdout == ""


def test_sweep_needs_a_general_rule_and_scheduler_needs_sweep(cli: Cli, repo_root: Path, tiny_sweep: Path,
                                                              rulings: dict[str, Path]) -> None:
    claims_only = repo_root / "rulings/provisions-returns-in-turn-3.yaml"
    result = cli("ruling", "--root", repo_root, "--sweep", tiny_sweep, claims_only)
    assert result.exit_code == 2 and "none of these rulings proposes rules" in result.stderr
    result = cli("ruling", "--root", repo_root, "--scheduler", "tcp://127.0.0.1:1", "--cases", rulings["case"],
                 rulings["settles"])
    assert result.exit_code == 2 and "--scheduler runs the check over a sweep" in result.stderr


@pytest.mark.slow  # the sweep's own cluster tests run the same code on a cluster by default
def test_on_a_dask_cluster_the_same_as_locally(repo_root: Path, tiny_sweep: Path, rulings: dict[str, Path]) -> None:
    """On a real cluster (a scheduler and two worker processes started on the loopback interface), the output is
    byte for byte the local one's."""
    pytest.importorskip("distributed")
    from .cluster_helpers import cluster

    command = [sys.executable, "-m", "verifier", "ruling", "--sweep", str(tiny_sweep), "--cases", str(rulings["case"]),
               "--format", "json", str(rulings["settles"]), str(rulings["contradicts"])]
    local = subprocess.run([*command, "--jobs", "2"], cwd=repo_root, capture_output=True, text=True, timeout=600)
    assert local.returncode == 1, local.stderr
    with cluster(2) as (address, _, _):
        remote = subprocess.run([*command, "--scheduler", address], cwd=repo_root, capture_output=True, text=True,
                                timeout=600)
    assert remote.returncode == 1, remote.stderr
    assert remote.stdout == local.stdout
    assert len(json.loads(remote.stdout)["rulings"][1]["sweep"]["changed"]) == 3
