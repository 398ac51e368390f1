"""A cache of card-text readings, so that checking a case that names a real card does not build the
card grammar's parser for a text read before, and of the card list's survey (each text's status and blockers, which
its coverage counts), so that the gate and `regcheck cards --coverage` do not read the whole card list again while
nothing it depends on changed.

Each reading is one JSON file (never code) under `cards/` of regcheck's cache folder (see
`files.cache_dir`), keyed by a hash of regcheck's version, the source of the grammar module and of
the modules it reads with (`READING_SOURCES`) and the text. The survey is one JSON file, keyed by a hash of
regcheck's version, the source of every card module and the bundled card list and overrides. A file that is
missing, unreadable or not of the expected shape is ignored and rewritten.
"""

from __future__ import annotations

__all__ = ["cached_read_text", "cached_survey", "SurveyRow", "READING_SOURCES"]

import hashlib
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import Any

from ..files import cache_dir, cached
from .cardreading import AbilityReading, Part, TextReadingResult

FORMAT = 5
# the fields JSON gives back as lists (annotations are forward references: read their text)
_TUPLES = {f for f, t in AbilityReading.__annotations__.items() if getattr(t, "__forward_arg__", str(t)).startswith("tuple")}


# The modules a reading depends on: the grammar and every card module it imports (the traits and limits of
# `cardreading`, the mechanics table of `cardmechanics`, the titles of `titles`), and the card list the titles are
# read from; a change to any of them is a new key.
READING_SOURCES = ("cardtext.py", "cardreading.py", "cardmechanics.py", "descriptions.py", "titles.py")


def _files_digest(paths: Iterable[Path]) -> str:
    """A hash of the cache's format, regcheck's version, and the name and bytes of each file of `paths` in order."""
    from .. import __version__

    digest = hashlib.sha256(f"{FORMAT}:{__version__}".encode())
    for path in paths:
        digest.update(b"\0" + path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


@cache
def _grammar_key() -> str:
    here = Path(__file__).resolve().parent
    return _files_digest([*(here / name for name in READING_SOURCES), here.parent / "data" / "cards.tsv"])


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
    here = Path(__file__).resolve().parent
    data = here.parent / "data"
    sources = sorted({*here.glob("card*.py"), *(here / name for name in READING_SOURCES)})
    return _files_digest([*sources, data / "cards.tsv", data / "card-overrides.yaml"])[:32]


# One distinct printed text of the card list as surveyed: the name of its card (its first printing), its status on
# each line of the coverage it is counted on (`cards.statuses_of`), and what blocks it on each line where it is
# unsupported (`cards.blockers_of`).
SurveyRow = tuple[str, dict[str, str], dict[str, list[str]]]


def cached_survey(survey: Callable[[], list[SurveyRow]]) -> list[SurveyRow]:
    """`survey()` (every distinct text of the card list as read: see `cards.survey`), through the cache when there
    is one. Two runs that find it missing at once survey the card list once: the second waits for the first's
    entry."""
    folder = cache_dir()
    return cached(folder / "cards" / f"survey-{_coverage_key()}.json" if folder is not None else None,
                  _rows, survey, lambda rows: rows, exclusive=True)


def _rows(data: Any) -> list[SurveyRow]:
    if not (isinstance(data, list) and all(
            isinstance(row, list) and len(row) == 3 and isinstance(row[0], str)
            and isinstance(row[1], dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in row[1].items())
            and isinstance(row[2], dict) and all(isinstance(k, str) and isinstance(v, list)
                                                 and all(isinstance(r, str) for r in v) for k, v in row[2].items())
            for row in data)):
        raise ValueError("not a survey of the card list")
    return [(name, statuses, reasons) for name, statuses, reasons in data]
