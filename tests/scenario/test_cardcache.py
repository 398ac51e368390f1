"""The cache of card-text readings: the same readings as the grammar's, and never trusted blindly."""

from __future__ import annotations

import ast
import json
import multiprocessing
import os
import shutil
import time
from pathlib import Path

import pytest

from verifier import files
from verifier.scenario import cardcache
from verifier.scenario.cardcache import SurveyRow, cached_read_text
from verifier.scenario.cards import all_cards
from verifier.scenario.cardtext import read_text

TEXTS = sorted({c.text for c in all_cards() if "set aside" in c.text.lower() or "heal" in c.text.lower()})[:60]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("REGCHECK_CACHE_DIR", str(tmp_path))
    return tmp_path / "cards"


def test_a_cached_reading_is_the_grammars_reading(cache: Path) -> None:
    for text in TEXTS:
        assert cached_read_text(text) == read_text(text)  # written
        assert cached_read_text(text) == read_text(text)  # read back
    assert len(list(cache.iterdir())) == len(TEXTS)


def test_a_damaged_or_foreign_entry_is_ignored_and_written_again(cache: Path) -> None:
    text = TEXTS[0]
    cached_read_text(text)
    [entry] = cache.iterdir()
    for damage in ("not json", json.dumps({"text": "another text", "abilities": []}),
                   json.dumps({"text": text, "abilities": [[1, 2]]})):
        entry.write_text(damage, "utf-8")
        assert cached_read_text(text) == read_text(text)
        assert json.loads(entry.read_text("utf-8"))["text"] == text


def test_the_key_follows_the_grammar(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cached_read_text(TEXTS[0])
    cardcache._grammar_key.cache_clear()
    monkeypatch.setattr(cardcache, "FORMAT", cardcache.FORMAT + 1)
    try:
        cached_read_text(TEXTS[0])
        assert len(list(cache.iterdir())) == 2
    finally:
        cardcache._grammar_key.cache_clear()


def test_no_cache_when_it_is_turned_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REGCHECK_CACHE_DIR", "off")
    assert cached_read_text(TEXTS[0]) == read_text(TEXTS[0])
    assert not any(tmp_path.iterdir())


SURVEY = [("Abel", {"all": "modelled"}, {}),
          ("Naaman", {"heal": "unsupported", "all": "unsupported"},
           {"heal": ["conversion is not modelled"], "all": ["conversion is not modelled"]})]


def test_the_survey_is_made_once_and_read_back(cache: Path) -> None:
    made: list[int] = []

    def survey() -> list[SurveyRow]:
        made.append(1)
        return SURVEY

    assert cardcache.cached_survey(survey) == SURVEY
    assert cardcache.cached_survey(survey) == SURVEY and len(made) == 1
    [entry] = cache.glob("survey-*.json")
    for damage in ("not json", json.dumps({"Abel": 1}), json.dumps([["Abel", {"all": "modelled"}]]),
                   json.dumps([["Abel", {"all": 3}, {}]]), json.dumps([["Abel", {}, {"heal": "r"}]]),
                   json.dumps([[1, {}, {}]])):
        entry.write_text(damage, "utf-8")
        assert cardcache.cached_survey(survey) == SURVEY
    assert len(made) == 7 and json.loads(entry.read_text("utf-8")) == [list(row) for row in SURVEY]


def _waiting_on(lock: Path) -> bool:
    """Whether a process waits for the lock of `lock` (Linux lists a blocked request with `->` in /proc/locks)."""
    inode = f":{lock.stat().st_ino} "
    return any(line.split()[1] == "->" and inode in line for line in Path("/proc/locks").read_text().splitlines()
               if len(line.split()) > 1)


@pytest.mark.skipif(not Path("/proc/locks").is_file(), reason="needs Linux's list of file locks")
def test_a_run_that_misses_the_survey_while_another_makes_it_waits_and_reads_it(cache: Path) -> None:
    entry = cache / f"survey-{cardcache._coverage_key()}.json"
    surveyed_too = cache.parent / "surveyed-by-the-second-run"
    context = multiprocessing.get_context("fork")
    with files._computing(entry):  # the first run, surveying
        second = context.Process(target=_survey_and_note, args=(surveyed_too,))
        second.start()
        while not _waiting_on(entry.with_name(entry.name + ".lock")):
            assert second.is_alive() and not surveyed_too.exists(), "the second run did not wait for the first"
            time.sleep(0.01)
        entry.write_text(json.dumps(SURVEY), "utf-8")
    second.join()
    assert second.exitcode == 0 and not surveyed_too.exists()


def _survey_and_note(note: Path) -> None:
    def survey() -> list[SurveyRow]:
        note.write_text("surveyed", "utf-8")
        return SURVEY

    os._exit(0 if cardcache.cached_survey(survey) == SURVEY else 1)


def test_the_coverage_key_follows_the_card_modules_and_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    here = Path(cardcache.__file__).resolve().parent
    copy = tmp_path / "verifier"
    (copy / "scenario").mkdir(parents=True)
    (copy / "data").mkdir()
    for path in {*here.glob("card*.py"), *(here / name for name in cardcache.READING_SOURCES)}:
        shutil.copy(path, copy / "scenario" / path.name)
    for name in ("cards.tsv", "card-overrides.yaml"):
        shutil.copy(here.parent / "data" / name, copy / "data" / name)
    key = cardcache._coverage_key()
    monkeypatch.setattr(cardcache, "__file__", str(copy / "scenario" / "cardcache.py"))
    assert cardcache._coverage_key() == key
    for changed in (copy / "scenario" / "cards.py", copy / "scenario" / "descriptions.py",
                    copy / "data" / "card-overrides.yaml", copy / "data" / "cards.tsv"):
        changed.write_bytes(changed.read_bytes() + b"\n")
        assert cardcache._coverage_key() != key, changed.name
        key = cardcache._coverage_key()
    monkeypatch.setattr(cardcache, "FORMAT", cardcache.FORMAT + 1)
    assert cardcache._coverage_key() != key


def test_the_reading_key_follows_every_module_a_reading_depends_on(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    here = Path(cardcache.__file__).resolve().parent
    copy = tmp_path / "scenario"
    copy.mkdir()
    for name in cardcache.READING_SOURCES:
        shutil.copy(here / name, copy / name)
    (tmp_path / "data").mkdir()
    shutil.copy(here.parent / "data" / "cards.tsv", tmp_path / "data" / "cards.tsv")
    cardcache._grammar_key.cache_clear()
    monkeypatch.setattr(cardcache, "__file__", str(copy / "cardcache.py"))
    try:
        key = cardcache._grammar_key()
        # the grammar, its traits and limits, its table of mechanics, its titles and the card list they come from
        for path in [*(copy / name for name in cardcache.READING_SOURCES), tmp_path / "data" / "cards.tsv"]:
            path.write_bytes(path.read_bytes() + b"\n")
            cardcache._grammar_key.cache_clear()
            assert cardcache._grammar_key() != key, path.name
            key = cardcache._grammar_key()
    finally:
        cardcache._grammar_key.cache_clear()


def test_the_reading_sources_are_the_grammar_and_every_card_module_it_imports() -> None:
    here = Path(cardcache.__file__).resolve().parent
    found: set[str] = set()
    todo = ["cardtext.py"]
    while todo:
        name = todo.pop()
        found.add(name)
        for node in ast.walk(ast.parse((here / name).read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
                module = f"{node.module}.py"
                assert (here / module).is_file(), module
                if module not in found:
                    todo.append(module)
    assert found == set(cardcache.READING_SOURCES)
