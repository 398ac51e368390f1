"""A cache of checked rule bases, so that a run does not parse and type-check unchanged encodings.

The cache is JSON (never code): the parsed rules of one set of encoding files, keyed by a
hash of their folder, their bytes and regcheck's version. It lives in `$REGCHECK_CACHE_DIR`, else
`$XDG_CACHE_HOME/regcheck`, else `~/.cache/regcheck`; `REGCHECK_CACHE_DIR=off` turns it off.
A cache that is missing, unreadable or not of the expected shape is ignored and rewritten.
"""

from __future__ import annotations

__all__ = ["cached_rule_base"]

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import Location
from ..files import cache_dir, cached, display_path
from . import syntax
from .encoding import Rule, RuleBase, Waiver
from .types import Definition

FORMAT = 1
_NODES: dict[str, Any] = {
    cls.__name__: cls for cls in (syntax.Name, syntax.Const, syntax.Call, syntax.Not, syntax.Neg, syntax.BoolOp,
                                  syntax.Compare, syntax.Arith, syntax.IfElse, syntax.InSet, syntax.Quant)
}
# For each node type, its fields after `loc`, and which of them hold other nodes.
_FIELDS: dict[str, list[tuple[str, str]]] = {
    name: [(f, "many" if "tuple" in str(spec) else "one" if "Expr" in str(spec) else "plain")
           for f, spec in cls.__annotations__.items() if f != "loc"]
    for name, cls in _NODES.items()
}


def _key(folder: Path, files: list[Path]) -> str:
    from .. import __version__

    # The folder is part of the key: a cached rule base records the places of its rules.
    digest = hashlib.sha256(f"{FORMAT}:{__version__}:{folder.resolve()}".encode())
    for f in files:
        digest.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


class _Writer:
    def __init__(self) -> None:
        self.paths: list[str] = []

    def loc(self, loc: Location) -> list[int]:
        if loc.path not in self.paths:
            self.paths.append(loc.path)
        return [self.paths.index(loc.path), loc.line, loc.column]

    def expr(self, e: syntax.Expr) -> list[Any]:
        out: list[Any] = [type(e).__name__, self.loc(e.loc)]
        for value in e[1:]:
            if isinstance(value, syntax.EXPR_TYPES):
                out.append(self.expr(value))  # type: ignore[arg-type]
            elif isinstance(value, tuple):
                out.append([self.expr(v) for v in value])  # type: ignore[arg-type]
            else:
                out.append(value)
        return out


class _Reader:
    def __init__(self, paths: list[str]) -> None:
        # Places are shown relative to the current folder, as a fresh load would show them.
        self.paths = [display_path(Path(p)) for p in paths]

    def loc(self, raw: list[int]) -> Location:
        return Location(self.paths[raw[0]], raw[1], raw[2])

    def expr(self, raw: list[Any]) -> syntax.Expr:
        values: list[Any] = []
        for (_name, kind), value in zip(_FIELDS[raw[0]], raw[2:], strict=True):
            if kind == "many":
                values.append(tuple(self.expr(v) for v in value))
            elif kind == "one" and value is not None:
                values.append(self.expr(value))
            else:
                values.append(value)
        return _NODES[raw[0]](self.loc(raw[1]), *values)


def _dump(rb: RuleBase, files: list[Path]) -> dict[str, Any]:
    w = _Writer()
    rules = [[r.id, r.section, list(r.cites), r.says, [list(p) for p in r.params], w.expr(r.body),
              r.interpretation, list(r.replaces), w.loc(r.loc)] for r in rb.rules]
    definitions = [[d.name, [list(p) for p in d.params], w.expr(d.body), d.result, list(d.cites), w.loc(d.loc)]
                   for d in rb.definitions.values()]
    waivers = [[x.statement, x.reason, w.loc(x.loc)] for x in rb.waivers]
    return {"format": FORMAT, "paths": [str(Path(p).resolve()) if Path(p).exists() else p for p in w.paths],
            "files": [str(f.resolve()) for f in files], "rules": rules, "definitions": definitions,
            "waivers": waivers}


def _load(data: dict[str, Any]) -> RuleBase:
    r = _Reader(data["paths"])
    rules = tuple(Rule(i, sec, tuple(c), says, tuple((a, b) for a, b in params), r.expr(body), bool(interp),
                       tuple(rep), r.loc(loc))
                  for i, sec, c, says, params, body, interp, rep, loc in data["rules"])
    definitions = {n: Definition(n, tuple((a, b) for a, b in params), r.expr(body), res, tuple(c), r.loc(loc))
                   for n, params, body, res, c, loc in data["definitions"]}
    waivers = tuple(Waiver(s, reason, r.loc(loc)) for s, reason, loc in data["waivers"])
    return RuleBase(rules, definitions, waivers, tuple(display_path(Path(f)) for f in data["files"]))


def cached_rule_base(folder: Path, load: Callable[[Path], RuleBase]) -> RuleBase:
    """The rule base of `folder`: from the cache when its encoding files are unchanged, else `load(folder)`."""
    directory = cache_dir()
    files = sorted(p for p in folder.glob("*.yaml") if p.is_file())
    if directory is None or not files:
        return load(folder)
    try:
        path = directory / f"rulebase-{_key(folder, files)}.json"
    except OSError:
        return load(folder)
    return cached(path, _decoded, lambda: load(folder), lambda rb: _dump(rb, files))


def _decoded(data: Any) -> RuleBase:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError("a rule base cached in another format")
    return _load(data)
