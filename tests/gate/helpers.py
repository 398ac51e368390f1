"""Helpers of the gate's tests: the small repository's cases, and editing files on purpose."""

from __future__ import annotations

from pathlib import Path

# A determined case and an ambiguous one, copied from cases/, and a contradictory one (conftest's
# TINY_CONTRADICTION): every kind of result, checked in seconds.
SMALL_CASES = ("set-aside/provisions-returns-after-two-turns.yaml", "set-aside/upkeep-set-aside-counts-its-own-upkeep.yaml")
CONTRADICTION = "cases/set-aside/tiny-contradiction.yaml"


def replace_in(path: Path, old: str, new: str) -> None:
    """Replace text in a file, making sure it was there."""
    text = path.read_text("utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
