"""A cache of card-text readings, so that checking a case that names a real card does not build the
card grammar's parser for a text read before, and of the card list's survey (its coverage and blockers), so
that the gate and `regcheck cards --coverage` do not read the whole card list again while nothing it depends on
changed.

Each reading is one JSON file (never code) under `cards/` of regcheck's cache folder (see
`files.cache_dir`), keyed by a hash of regcheck's version, the source of the grammar module and of
the modules it reads with (`READING_SOURCES`) and the text. The survey is one JSON file, keyed by a hash of
regcheck's version, the source of every card module and the bundled card list and overrides. A file that is
missing, unreadable or not of the expected shape is ignored and rewritten.
"""

from __future__ import annotations

__all__ = ["cached_read_text", "cached_survey", "READING_SOURCES"]

import hashlib
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from ..files import cache_dir, cached
from .cardreading import AbilityReading, Part, TextReadingResult

FORMAT = 5
# the fields JSON gives back as lists (annotations are forward references: read their text)
_TUPLES = {f for f, t in AbilityReading.__annotations__.items() if getattr(t, "__forward_arg__", str(t)).startswith("tuple")}


# The modules a reading depends on: the grammar and every card module it imports (the traits and limits of
# `cardreading`, the mechanics table of `cardmechanics`); a change to any of them is a new key.
READING_SOURCES = ("cardtext.py", "cardreading.py", "cardmechanics.py", "descriptions.py")


@cache
def _grammar_key() -> str:
    from .. import __version__

    digest = hashlib.sha256(f"{FORMAT}:{__version__}".encode())
    for name in READING_SOURCES:
        digest.update(b"\0" + name.encode() + b"\0" + (Path(__file__).parent / name).read_bytes())
    return digest.hexdigest()


def _path(folder: Path, text: str) -> Path:
    key = hashlib.sha256(_grammar_key().encode() + b"\0" + text.encode("utf-8")).hexdigest()[:32]
    return folder / "cards" / f"{key}.json"


def _decode(data: Any, text: str) -> TextReadingResult:
    if not isinstance(data, dict) or data.get("text") != text or not isinstance(data.get("abilities"), list):
        raise ValueError("not a cached reading of this text")
    abilities = []
    for fields in data["abilities"]:
        if not isinstance(fields, list) or len(fields) != len(AbilityReading._fields):
            raise ValueError("not an ability reading")
        values = dict(zip(AbilityReading._fields, fields, strict=True))
        for name in _TUPLES:
            values[name] = tuple(values[name])
        values["pieces"] = tuple(Part(kind, piece_text, tuple((str(a), str(b)) for a, b in mapped), reason)
                                 for kind, piece_text, mapped, reason in values["pieces"])
        abilities.append(AbilityReading(**values))
    return TextReadingResult(text, tuple(abilities))


def cached_read_text(text: str) -> TextReadingResult:
    """`read_text`, through the cache when there is one; the grammar's parser is loaded only when the
    reading is not cached."""
    folder = cache_dir()

    def read() -> TextReadingResult:
        from .cardtext import read_text

        return read_text(text)

    return cached(_path(folder, text) if folder is not None else None, lambda data: _decode(data, text), read,
                  lambda reading: {"text": text, "abilities": [list(a) for a in reading.abilities]})


def _coverage_key() -> str:
    from .. import __version__

    digest = hashlib.sha256(f"{FORMAT}:{__version__}".encode())
    here = Path(__file__).resolve().parent
    data = here.parent / "data"
    for path in [*sorted(here.glob("card*.py")), data / "cards.tsv", data / "card-overrides.yaml"]:
        digest.update(b"\0" + path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:32]


Coverage = dict[str, dict[str, int]]
Blockers = dict[str, list[dict[str, Any]]]


def cached_survey(survey: Callable[[], tuple[Coverage, Blockers]]) -> tuple[Coverage, Blockers]:
    """`survey()` (the coverage of the card list, per category and status, and what blocks its unsupported texts,
    per category: see `cards.coverage` and `cards.blockers`), through the cache when there is one. Two runs that
    find it missing at once survey the card list once: the second waits for the first's entry."""
    folder = cache_dir()
    return cached(folder / "cards" / f"survey-{_coverage_key()}.json" if folder is not None else None,
                  _survey_entry, survey, lambda found: {"coverage": found[0], "blockers": found[1]}, exclusive=True)


def _survey_entry(data: Any) -> tuple[Coverage, Blockers]:
    if not isinstance(data, dict) or set(data) != {"coverage", "blockers"}:
        raise ValueError("not a survey of the card list")
    return _counts(data["coverage"]), _blockers(data["blockers"])


def _counts(data: Any) -> Coverage:
    if not (isinstance(data, dict) and all(isinstance(v, dict) and all(isinstance(n, int) for n in v.values())
                                           for v in data.values())):
        raise ValueError("not a coverage count")
    return data


def _blockers(data: Any) -> Blockers:
    if not (isinstance(data, dict) and all(
            isinstance(v, list) and all(isinstance(b, dict) and set(b) == {"reason", "texts", "cards"}
                                        and isinstance(b["reason"], str) and isinstance(b["texts"], int)
                                        and isinstance(b["cards"], list) and all(isinstance(n, str) for n in b["cards"])
                                        for b in v)
            for v in data.values())):
        raise ValueError("not a list of blockers")
    return data
