"""Results of checked case files kept by their content, so that a run on unchanged input is not checked again.

An entry's key is a hash of everything the answer depends on: regcheck's version and code (the files of the
package, its card list and reviewed readings among them), the rules document and `rules.lock`, the
encodings, the case file's text and the name it is shown by, the defaults the loader applies and the options
of the check (timeout, memory, whether a contradiction's ways out are worked out). An entry is JSON (never
code): its first line the SHA-256 of the rest, so that an entry cut short or corrupted is found, left
aside and computed afresh (an entry of another format, key or shape too; a link or folder found at an
entry's place is replaced by the entry). Entries are written atomically (`files.write_file`: a temporary file of its
own, then renamed), so two runs on one cache at once at worst both write the same entry. An answer that
hit a limit (`unknown`) is never kept: it depends on the machine's speed.

The cache lives in `.regcheck_cache/` at the rules repository's root (`results/` in `$REGCHECK_CACHE_DIR`
when that is set); `REGCHECK_CACHE_DIR=off` or `--no-cache` turns it off.
"""

from __future__ import annotations

__all__ = ["ResultCache", "result_cache", "CACHE_FOLDER", "encode", "decode", "grounding_key", "Reach", "code_fingerprint"]

import contextlib
import dataclasses
import hashlib
import json
import os
import shutil
import types
import typing
from collections.abc import Callable
from enum import Enum
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from .errors import RegcheckError
from .files import WriteError, write_file
from .language.encoding import Rule, RuleBase
from .language.syntax import Call, walk
from .rulesdoc import RulesDocument
from .scenario.model import Scenario
from .verdicts import CaseResult, Verdict

if TYPE_CHECKING:
    from .solver.grounding import GroundedBase

CACHE_FOLDER = ".regcheck_cache"
FORMAT = 1
_PACKAGE = Path(__file__).resolve().parent


@cache
def code_fingerprint() -> str:
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
        return kind(**{name: decode(hint, data[name]) for name, hint in _fields(kind)})
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
    if kind is float:
        if not isinstance(data, (int, float)) or isinstance(data, bool):
            raise TypeError("expected a number")
        return float(data)
    raise TypeError(f"cannot read a {kind}")


@cache
def _fields(kind: type) -> tuple[tuple[str, Any], ...]:
    """A dataclass's fields, each with its type (read once per class: reading the hints costs more than decoding)."""
    hints = typing.get_type_hints(kind)
    return tuple((f.name, hints[f.name]) for f in dataclasses.fields(kind))


class Reach(NamedTuple):
    """What a case's answer is made of: a digest of its whole grounded problem, and one per rule with instances
    in it (its instances' text, its template, variables, place, the statements it cites and the definitions it
    uses), to say which changed."""

    digest: str
    rules: dict[str, str]


def grounding_key(scenario: Scenario, rules: RuleBase, doc: RulesDocument, keep: list[GroundedBase] | None = None
                  ) -> Reach | None:
    """The digest of everything the engine reads to answer `scenario`: its grounded problem as `check_scenario`
    grounds it, the rule bodies reading the inputs the facts pin (every rule instance and fact, in order, with the
    places, templates and cited statements of the rules), its questions, and what grounding it with the inputs
    named reads besides (a conflict or an ambiguity is answered on that grounding): the rules with an instance
    the pinned inputs make hold, every rule with an instance in their order in the rule base, and the definitions
    those rules use; and the interpretations a contradiction's ways out may try, with the statements they cite.
    Two scenarios with one digest get one answer, whatever else differs in the rule base. None when the scenario
    cannot be grounded (it is then checked, and its error reported, as usual). The grounding is kept for the
    check that follows (`solver.grounding.ground_and_keep`); with `keep`, the scenario's base as grounded is
    appended to it."""
    from .solver.grounding import RuleInstance, ground_and_keep

    try:
        g = ground_and_keep(scenario, rules, keep, fold=True)
    except RegcheckError:
        return None
    rule_text = _rule_texts(rules, doc)

    whole = hashlib.sha256()
    per_rule: dict[str, Any] = {}
    for t in g.tracked:
        line = f"{t.name}\0{t.body}\0"
        if isinstance(t.origin, RuleInstance):
            rule = t.origin.rule
            if rule.id not in per_rule:
                text = rule_text(rule)
                per_rule[rule.id] = hashlib.sha256(text)
                whole.update(text)
            per_rule[rule.id].update(f"{t.origin.label}\0{line}".encode())
            line = t.origin.label + "\0" + line
        else:
            line = f"{t.origin.text}\0{_place(t.origin.loc)}\0" + line
        whole.update(line.encode())
    # grounded with the inputs named, each of these rules has an instance too, and the instances come in the order
    # of the rules in the rule base
    for rid in sorted(g.held_by_inputs):
        rule = rules.rule(rid)
        if rid not in per_rule:
            per_rule[rid] = hashlib.sha256(rule_text(rule))
            whole.update(b"held\0" + rule_text(rule))
        per_rule[rid].update(b"\0held by the inputs")
    order = [r.id for r in rules.active_rules(scenario.interpretations) if r.id in per_rule]
    for part in (order, g.background, sorted(f"{k}\0{v.display}\0{v.type}" for k, v in g.constants.items()),
                 sorted(f"{q}\0{t}" for q, t in g.question_terms.items()),
                 sorted(f"{q}\0{t!r}" for q, t in g.questions.items())):
        whole.update("\0".join(part).encode() + b"\1")
    # a contradiction's ways out ground the interpretations too: their text, and the definitions they read
    for r in rules.rules:
        if r.interpretation:
            whole.update(rule_text(r))
    return Reach(whole.hexdigest(), {rid: h.hexdigest() for rid, h in sorted(per_rule.items())})


_TEXTS: list[tuple[RuleBase, RulesDocument, Callable[[Rule], bytes]]] = []


def _rule_texts(rules: RuleBase, doc: RulesDocument) -> Callable[[Rule], bytes]:
    """What a case's digest holds of a rule: its ID, wording, place, variables, the statements it cites (their
    text), its body and the definitions it uses, directly or through others (their parameters, result and body).
    Places by file name, line and column: the same rules read from another checkout give the same text. Worked
    out once per rule while the rule base and document are the same."""
    if _TEXTS and _TEXTS[0][0] is rules and _TEXTS[0][1] is doc:
        return _TEXTS[0][2]
    statements = doc.by_id()
    definitions: dict[str, str] = {}
    texts: dict[str, bytes] = {}

    def definition(name: str) -> str:
        if name not in definitions:
            d = rules.definitions[name]
            definitions[name] = f"{d.name}\0{d.params!r}\0{d.result}\0{_shape(d.body)}"
        return definitions[name]

    def uses(body: Any) -> str:
        seen: set[str] = set()
        todo = [body]
        while todo:
            for e in walk(todo.pop()):
                if isinstance(e, Call) and e.func in rules.definitions and e.func not in seen:
                    seen.add(e.func)
                    todo.append(rules.definitions[e.func].body)
        return "\0".join(definition(name) for name in sorted(seen))

    def rule_text(r: Rule) -> bytes:
        known = texts.get(r.id)
        if known is None:
            cited = "\0".join(f"{sid}\0{statements[sid].text if sid in statements else ''}" for sid in r.cites)
            known = texts[r.id] = (f"{r.id}\0{r.says}\0{_place(r.loc)}\0{r.params!r}\0{cited}\0{_shape(r.body)}\0"
                                   f"{uses(r.body)}").encode()
        return known

    _TEXTS[:] = [(rules, doc, rule_text)]
    return rule_text


def _place(loc: Any) -> str:
    return f"{Path(loc.path).name}:{loc.line}:{loc.column}" if loc is not None else ""


def _shape(e: Any) -> str:
    """An expression as text, each node with its line and column but not its file."""
    if isinstance(e, tuple) and e and hasattr(e[0], "line"):
        inner = ",".join(_shape(v) for v in e[1:])
        return f"{type(e).__name__}@{e[0].line}:{e[0].column}({inner})"
    if isinstance(e, tuple):
        return "(" + ",".join(_shape(v) for v in e) + ")"
    return repr(e)


class ResultCache:
    """Results of case files under `folder`: by the whole state of the repository and of regcheck (`context`),
    and by what each case's answer is made of (its `Reach`, with regcheck's code: `code`)."""

    def __init__(self, folder: Path, context: str, code: str, encodings: str = "") -> None:
        self.folder = folder
        self.context = context
        self.code = code
        self.encodings = encodings  # regcheck's code and the encodings alone (see `recall`)

    def key(self, case_text: bytes, shown: str, options: str) -> str:
        """The key of a case file's result in this state: its text, the name it is shown by, the options."""
        return _digest(self.context, shown, options, case_text)

    def reach_key(self, case_text: bytes, shown: str, options: str, reach: Reach) -> str:
        """The key of a case file's result by what its answer is made of, whatever else the rule base holds."""
        return _digest(self.code + ":" + reach.digest, shown, options, case_text)

    def _path(self, key: str) -> Path:
        return self.folder / "results" / key[:2] / f"{key}.json"

    def get(self, key: str) -> tuple[CaseResult, str] | None:
        """The kept result and defaults text of `key`, or None when there is none or it is damaged (left to be
        written afresh)."""
        data = self._read(self._path(key))
        try:
            if data is None or data.get("key") != key:
                return None
            return decode(CaseResult, data["result"]), decode(str, data["defaults"])
        except (ValueError, TypeError, KeyError, AttributeError):
            return None

    def put(self, keys: list[str], result: CaseResult, defaults: str) -> None:
        """Keep `result` under each of `keys`, unless one of its answers hit a limit; a cache that cannot be
        written only makes the next run slower."""
        if any(r.verdict is Verdict.UNKNOWN for r in result.results):
            return
        for key in keys:
            self._write(self._path(key), {"key": key, "result": encode(result), "defaults": defaults})

    def recall(self, what: str, content: bytes, kind: Any, code_only: bool = False) -> Any:
        """The value of type `kind` kept for `what` (a scope's search, the deletion of every rule) over `content`,
        with this code and these encodings (with `code_only`, this code whatever the encodings), or None. The
        rules document and the lock are not part of the key: what `content` needs of them (the statements' IDs)
        it holds itself."""
        key = _digest(self.code if code_only else self.encodings, what, "", content)
        data = self._read(self._path(key))
        try:
            return None if data is None or data.get("key") != key else decode(kind, data["value"])
        except (ValueError, TypeError, KeyError, AttributeError):
            return None

    def keep(self, what: str, content: bytes, value: Any, code_only: bool = False) -> None:
        """Keep `value` for `what` over `content`, with this code and these encodings (or, with `code_only`, this
        code alone)."""
        key = _digest(self.code if code_only else self.encodings, what, "", content)
        self._write(self._path(key), {"key": key, "value": encode(value)})

    def changes(self, case_text: bytes, shown: str, options: str, reach: Reach | None) -> str:
        """Why the case is checked again: what changed since it was last checked with these options (its text,
        the rules whose instances in it changed), or that it never was; and remember its reach for next time."""
        path = self.folder / "results" / "last" / f"{_digest('', shown, options, b'')}.json"
        last = self._read(path)
        text = hashlib.sha256(case_text).hexdigest()
        now = reach.rules if reach is not None else {}
        self._write(path, {"text": text, "rules": now})
        if not isinstance(last, dict) or not isinstance(last.get("rules"), dict):
            return "not checked before"
        if last.get("text") != text:
            return "the case changed"
        before: dict[str, Any] = last["rules"]
        changed = sorted(r for r in set(before) | set(now) if before.get(r) != now.get(r))
        if changed:
            shown_rules = ", ".join(changed[:5]) + (f" and {len(changed) - 5} more" if len(changed) > 5 else "")
            return f"its grounding holds changed instances of {shown_rules}"
        return "regcheck or an interpretation changed" if reach is not None else "it cannot be grounded"

    def _read(self, path: Path) -> Any:
        try:
            text = path.read_text("utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        checksum, _, payload = text.partition("\n")
        if hashlib.sha256(payload.encode("utf-8")).hexdigest() != checksum:
            return None
        try:
            data = json.loads(payload)
        except ValueError:
            return None
        return data if isinstance(data, dict) and data.get("format") == FORMAT else None

    def _write(self, path: Path, data: dict[str, Any]) -> None:
        payload = json.dumps({"format": FORMAT, **data}, separators=(",", ":"), ensure_ascii=False)
        with contextlib.suppress(WriteError, OSError):
            _prepare(self.folder)
            path.parent.mkdir(parents=True, exist_ok=True)
            # an entry is a file of the cache's own: whatever else stands at its place (a link, which `write_file`
            # would write through to another file, or a folder) is taken away
            if path.is_symlink():
                path.unlink()
            elif path.is_dir():
                shutil.rmtree(path)
            write_file(path, hashlib.sha256(payload.encode("utf-8")).hexdigest() + "\n" + payload)


def _digest(context: str, shown: str, options: str, case_text: bytes) -> str:
    digest = hashlib.sha256(context.encode())
    digest.update(b"\0" + shown.encode() + b"\0" + options.encode() + b"\0" + case_text)
    return digest.hexdigest()


def _prepare(folder: Path) -> None:
    """Make the cache folder, with a `.gitignore` keeping it out of version control and a CACHEDIR.TAG, as
    pytest and ruff do."""
    if (folder / ".gitignore").exists():
        return
    folder.mkdir(parents=True, exist_ok=True)
    write_file(folder / ".gitignore", "# made by regcheck: its result cache\n*\n")
    write_file(folder / "CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n"
                                        "# This file is a cache directory tag made by regcheck.\n")


def result_cache(root: Path, home: Path | None = None) -> ResultCache | None:
    """The result cache of the rules repository at `root`, for its current rules document, lock and encodings
    and this regcheck, kept in the cache folder of the repository at `home` (default: `root`); None when
    `REGCHECK_CACHE_DIR=off`."""
    from . import __version__
    from .scenario.loader import DEFAULTS

    chosen = os.environ.get("REGCHECK_CACHE_DIR")
    if chosen == "off":
        return None
    folder = Path(chosen) if chosen else (home or root) / CACHE_FOLDER
    code = hashlib.sha256(f"{FORMAT}:{__version__}:{code_fingerprint()}".encode())
    code.update(json.dumps(DEFAULTS, sort_keys=True).encode())
    encodings = hashlib.sha256(code.hexdigest().encode() + b"\0")
    _folder_bytes(encodings, root / "encodings", "*.yaml")
    digest = hashlib.sha256(encodings.hexdigest().encode() + b"\0")
    lock = root / "rules.lock"
    digest.update(lock.read_bytes() if lock.is_file() else b"")
    _folder_bytes(digest, root / "rules", "*.md")
    return ResultCache(folder, digest.hexdigest(), code.hexdigest(), encodings.hexdigest())
