"""The cache of card-text readings: the same readings as the grammar's, and never trusted blindly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from verifier.scenario import cardcache
from verifier.scenario.cardcache import cached_read_text
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
