"""The rule-base cache gives back exactly the rule base a fresh load gives."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from verifier.language.cache import cached_rule_base
from verifier.language.encoding import RuleBase, load_rule_base


def test_cached_rule_base_equals_a_fresh_load(repo_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REGCHECK_CACHE_DIR", str(tmp_path / "cache"))
    loads: list[Path] = []

    def counting(folder: Path) -> RuleBase:
        loads.append(folder)
        return load_rule_base(folder)

    first = cached_rule_base(repo_root / "encodings", counting)
    second = cached_rule_base(repo_root / "encodings", counting)
    assert len(loads) == 1, "the second load must come from the cache"
    assert second == first
    assert second.rules[0].body == first.rules[0].body
    assert [r.loc for r in second.rules] == [r.loc for r in first.rules]


def test_changed_encodings_are_loaded_again(repo_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REGCHECK_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "encodings"
    shutil.copytree(repo_root / "encodings", folder)
    before = cached_rule_base(folder, load_rule_base)
    target = folder / "core.yaml"
    target.write_text(target.read_text("utf-8").replace("starts where the case places it", "starts where placed"),
                      encoding="utf-8")
    after = cached_rule_base(folder, load_rule_base)
    assert before.rule("CORE-3").says != after.rule("CORE-3").says


def test_a_damaged_cache_is_ignored(repo_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("REGCHECK_CACHE_DIR", str(cache))
    fresh = cached_rule_base(repo_root / "encodings", load_rule_base)
    for f in cache.glob("*.json"):
        f.write_text('{"format": 1, "rules": [["not", "a rule"]]}', encoding="utf-8")
    assert cached_rule_base(repo_root / "encodings", load_rule_base) == fresh


def test_cache_can_be_turned_off(repo_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REGCHECK_CACHE_DIR", "off")
    loads: list[Path] = []
    for _ in range(2):
        cached_rule_base(repo_root / "encodings", lambda f: loads.append(f) or load_rule_base(f))  # type: ignore[func-returns-value]
    assert len(loads) == 2


def test_a_copy_of_the_encodings_shows_its_own_places(repo_root: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REGCHECK_CACHE_DIR", str(tmp_path / "cache"))
    copy = tmp_path / "copy" / "encodings"
    shutil.copytree(repo_root / "encodings", copy)
    cached_rule_base(repo_root / "encodings", load_rule_base)
    from_copy = cached_rule_base(copy, load_rule_base)
    assert [r.loc for r in from_copy.rules] == [r.loc for r in load_rule_base(copy).rules]
    assert all(Path(r.loc.path).resolve().is_relative_to(copy.resolve()) for r in from_copy.rules)


def test_a_cache_that_cannot_be_written_leaves_nothing_behind(repo_root: Path, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("REGCHECK_CACHE_DIR", str(cache))
    fresh = cached_rule_base(repo_root / "encodings", load_rule_base)
    (entry,) = cache.iterdir()
    entry.unlink()
    entry.mkdir()  # the cache entry's place is taken by a folder: it can be neither read nor replaced
    again = cached_rule_base(repo_root / "encodings", load_rule_base)
    assert again == fresh
    assert [p.name for p in cache.iterdir()] == [entry.name]
    assert entry.is_dir() and not any(entry.iterdir())
