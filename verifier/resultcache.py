"""Results of checked case files kept by their content, so that a run on unchanged input is not checked again.

An entry's key is a hash of everything the answer depends on: regcheck's version and code (the files of the
package, its card list and reviewed readings among them), the rules document and `rules.lock`, the
encodings, the case file's text and the name it is shown by, the defaults the loader applies and the options
of the check (timeout, memory, whether a contradiction's ways out are worked out). An entry is JSON (never
code): its first line the SHA-256 of the rest, so that an entry cut short or corrupted is found, left
aside and computed afresh. Entries are written atomically (`files.write_file`: a temporary file of its
own, then renamed), so two runs on one cache at once at worst both write the same entry. An answer that
hit a limit (`unknown`) is never kept: it depends on the machine's speed.

The cache lives in `.regcheck_cache/` at the rules repository's root (`results/` in `$REGCHECK_CACHE_DIR`
when that is set); `REGCHECK_CACHE_DIR=off` or `--no-cache` turns it off.
"""

from __future__ import annotations

__all__ = ["ResultCache", "result_cache", "CACHE_FOLDER", "encode", "decode"]

import contextlib
import dataclasses
import hashlib
import json
import os
import types
import typing
from enum import Enum
from functools import cache
from pathlib import Path
from typing import Any

from .files import WriteError, write_file
from .verdicts import CaseResult, Verdict

CACHE_FOLDER = ".regcheck_cache"
FORMAT = 1
_PACKAGE = Path(__file__).resolve().parent


@cache
def _code_fingerprint() -> str:
    """A hash of every file of the package that can change an answer: its code and its data."""
    digest = hashlib.sha256()
    for path in sorted(_PACKAGE.rglob("*")):
        if path.suffix in (".py", ".tsv", ".yaml", ".json") and "__pycache__" not in path.parts and path.is_file():
            digest.update(str(path.relative_to(_PACKAGE)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _folder_bytes(digest: Any, folder: Path, pattern: str) -> None:
    for path in sorted(folder.glob(pattern)) if folder.is_dir() else []:
        if path.is_file():
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")


def encode(value: Any) -> Any:
    """A result (frozen dataclasses of plain values, tuples, enums) as JSON values."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [encode(v) for v in value]
    return value


def decode(kind: Any, data: Any) -> Any:
    """The value of type `kind` that `encode` wrote as `data`; raises ValueError, TypeError or KeyError when the
    data is not of that shape."""
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(kind)
        if data is None and type(None) in options:
            return None
        for option in options:
            if option is not type(None):
                with contextlib.suppress(ValueError, TypeError, KeyError):
                    return decode(option, data)
        raise ValueError(f"no type of {kind} fits {data!r}")
    if origin is tuple:
        args = typing.get_args(kind)
        if not isinstance(data, list):
            raise TypeError(f"expected a list for {kind}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(args[0], v) for v in data)
        if len(args) != len(data):
            raise ValueError(f"expected {len(args)} values for {kind}")
        return tuple(decode(a, v) for a, v in zip(args, data))
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        if not isinstance(data, dict):
            raise TypeError(f"expected a mapping for {kind.__name__}")
        hints = typing.get_type_hints(kind)
        return kind(**{f.name: decode(hints[f.name], data[f.name]) for f in dataclasses.fields(kind)})
    if isinstance(kind, type) and issubclass(kind, Enum):
        return kind(data)
    if kind is bool:
        if not isinstance(data, bool):
            raise TypeError("expected true or false")
        return data
    if kind is int:
        if not isinstance(data, int) or isinstance(data, bool):
            raise TypeError("expected a whole number")
        return data
    if kind is str:
        if not isinstance(data, str):
            raise TypeError("expected text")
        return data
    raise TypeError(f"cannot read a {kind}")


class ResultCache:
    """Results of case files under `folder`, for one state of the repository and of regcheck (`context`)."""

    def __init__(self, folder: Path, context: str) -> None:
        self.folder = folder
        self.context = context

    def key(self, case_text: bytes, shown: str, options: str) -> str:
        """The key of a case file's result: its text, the name it is shown by, and the options of the check."""
        digest = hashlib.sha256(self.context.encode())
        digest.update(b"\0" + shown.encode() + b"\0" + options.encode() + b"\0" + case_text)
        return digest.hexdigest()

    def _path(self, key: str) -> Path:
        return self.folder / "results" / key[:2] / f"{key}.json"

    def get(self, key: str) -> tuple[CaseResult, str] | None:
        """The kept result and defaults text of `key`, or None when there is none or it is damaged (left to be
        written afresh)."""
        try:
            text = self._path(key).read_text("utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        checksum, _, payload = text.partition("\n")
        if hashlib.sha256(payload.encode("utf-8")).hexdigest() != checksum:
            return None
        try:
            data = json.loads(payload)
            if data.get("format") != FORMAT or data.get("key") != key:
                return None
            return decode(CaseResult, data["result"]), decode(str, data["defaults"])
        except (ValueError, TypeError, KeyError, AttributeError):
            return None

    def put(self, key: str, result: CaseResult, defaults: str) -> None:
        """Keep `result`, unless one of its answers hit a limit; a cache that cannot be written only makes the
        next run slower."""
        if any(r.verdict is Verdict.UNKNOWN for r in result.results):
            return
        payload = json.dumps({"format": FORMAT, "key": key, "result": encode(result), "defaults": defaults},
                             separators=(",", ":"), ensure_ascii=False)
        text = hashlib.sha256(payload.encode("utf-8")).hexdigest() + "\n" + payload
        path = self._path(key)
        with contextlib.suppress(WriteError, OSError):
            _prepare(self.folder)
            path.parent.mkdir(parents=True, exist_ok=True)
            write_file(path, text)


def _prepare(folder: Path) -> None:
    """Make the cache folder, with a `.gitignore` keeping it out of version control and a CACHEDIR.TAG, as
    pytest and ruff do."""
    if (folder / ".gitignore").exists():
        return
    folder.mkdir(parents=True, exist_ok=True)
    write_file(folder / ".gitignore", "# made by regcheck: its result cache\n*\n")
    write_file(folder / "CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n"
                                        "# This file is a cache directory tag made by regcheck.\n")


def result_cache(root: Path) -> ResultCache | None:
    """The result cache of the rules repository at `root`, for its current rules document, lock and encodings
    and this regcheck; None when `REGCHECK_CACHE_DIR=off`."""
    from . import __version__
    from .scenario.loader import DEFAULTS

    chosen = os.environ.get("REGCHECK_CACHE_DIR")
    if chosen == "off":
        return None
    folder = Path(chosen) if chosen else root / CACHE_FOLDER
    digest = hashlib.sha256(f"{FORMAT}:{__version__}:{_code_fingerprint()}".encode())
    digest.update(json.dumps(DEFAULTS, sort_keys=True).encode() + b"\0")
    lock = root / "rules.lock"
    digest.update(lock.read_bytes() if lock.is_file() else b"")
    _folder_bytes(digest, root / "rules", "*.md")
    _folder_bytes(digest, root / "encodings", "*.yaml")
    return ResultCache(folder, digest.hexdigest())
