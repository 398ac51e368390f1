"""Read YAML into plain values that remember the file, line and column they came from.

Only YAML's safe subset is read: mappings, sequences and scalars. Anchors and aliases are
refused (they are how cyclic and exploding documents are built), as are duplicate keys and
custom tags. Nothing in a file is ever executed.
"""

from __future__ import annotations

__all__ = ["YNode", "YMap", "YSeq", "YScalar", "load_yaml", "load_yaml_text", "did_you_mean", "display_path", "plain",
           "editor_lines", "line_of_byte"]

import bisect
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

import yaml
from yaml.constructor import SafeConstructor

from .errors import InputError, Location
from .escaping import how_they_differ, quoted
from .files import display_path, irregular

MAX_FILE_BYTES = 1_000_000
MAX_DEPTH = 40
# Plain words YAML 1.1 (which PyYAML reads) takes for true or false; `true` and `false` are meant so.
YAML11_BOOLEANS = ("yes", "no", "on", "off")

ErrorFactory = Callable[[str, Location | None], InputError]


# The line ends an editor counts: a file may end its lines with any of them. YAML also breaks lines at NEL, LS and
# PS, which editors show within a line; places are given as an editor counts them.
_LINE_END = re.compile(r"\r\n|\r|\n")
_LINE_END_BYTES = re.compile(rb"\r\n|\r|\n")


def editor_lines(text: str) -> list[str]:
    """The lines of `text` as an editor numbers them (line ends \\n, \\r\\n or \\r), the first at index 0."""
    return _LINE_END.split(text)


def line_of_byte(raw: bytes, offset: int) -> int:
    """The line (from 1, as an editor counts it) holding byte `offset` of `raw`."""
    return len(_LINE_END_BYTES.findall(raw, 0, offset)) + 1


class _Places:
    """Places in a text by character index, as an editor shows them: 1-based line and column."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.length = len(text)
        self.starts = [0, *(m.end() for m in _LINE_END.finditer(text))]

    def at(self, index: int) -> tuple[int, int]:
        index = max(0, min(index, self.length))  # a parser's end of input may lie past the text
        line = bisect.bisect_right(self.starts, index) - 1
        return line + 1, index - self.starts[line] + 1

    def loc(self, mark: yaml.Mark) -> Location:
        return Location(self.path, *self.at(mark.index))


def did_you_mean(name: str, options: Iterable[str]) -> str:
    """A ' (did you mean X?)' hint for a misspelt name, or an empty string: the option whose words begin
    with the name's words, in order ('turn 3 Prep': 'turn 3 Preparation (alice)'), else the closest string."""
    import difflib  # only needed when something is misspelt

    choices = sorted(set(options))
    by_words = _by_words(name, choices)
    close = [by_words] if by_words is not None else difflib.get_close_matches(name, choices, n=1, cutoff=0.6)
    if not close:
        return ""
    differ = how_they_differ(name, close[0])
    return f" (did you mean {quoted(close[0])}?{'; ' + differ if differ else ''})"


def _by_words(name: str, options: list[str]) -> str | None:
    """The option with the fewest words whose words begin, in order, with each of the name's words (a word of
    three letters or more may be the start of one; a shorter word must be whole), if any."""
    words = name.lower().split()

    def fits(option: str) -> bool:
        theirs = iter(option.lower().split())
        return bool(words) and all(any(o == w or (len(w) >= 3 and o.startswith(w)) for o in theirs) for w in words)

    found = [o for o in options if o != name and fits(o)]
    return min(found, key=lambda o: (len(o.split()), len(o), o)) if found else None


@dataclass(frozen=True)
class YNode:
    """A YAML node with its place in the file."""

    loc: Location
    error: ErrorFactory = field(repr=False, compare=False)

    def fail(self, message: str) -> NoReturn:
        raise self.error(message, self.loc)

    @property
    def kind(self) -> str:
        return "value"


@dataclass(frozen=True)
class YScalar(YNode):
    """A scalar: str, int, float, bool or None."""

    value: object = None
    style: str | None = None
    raw: str = ""
    end_line: int = 0
    end_column: int = 0

    @property
    def kind(self) -> str:
        if self.value is None:
            return "nothing"
        if isinstance(self.value, str) and not self.value.strip():
            return "empty text"
        return {bool: "true/false", int: "a number", float: "a number", str: "text"}.get(
            type(self.value), "value"
        )

    @property
    def yaml11_word(self) -> str | None:
        """The word, when YAML 1.1 read a plain `yes`, `no`, `on` or `off` as true or false."""
        if isinstance(self.value, bool) and not self.style and self.raw.lower() in YAML11_BOOLEANS:
            return self.raw
        return None

    def yaml11_hint(self, word_wanted: bool = True) -> str:
        """' ('no' is read by YAML as false: ...)' for such a word, else an empty string."""
        word = self.yaml11_word
        if word is None:
            return ""
        advice = f": write it in quotes ('{word}') for the word" if word_wanted else ""
        return f" ('{word}' is read by YAML as {str(self.value).lower()}{advice})"

    def text(self, what: str) -> str:
        if not isinstance(self.value, str) or not self.value.strip():
            self.fail(f"{what} must be text, got {self.kind}{self.yaml11_hint()}")
        return self.value

    def integer(self, what: str, low: int, high: int) -> int:
        if isinstance(self.value, bool) or not isinstance(self.value, int):
            got = str(self.value) if isinstance(self.value, float) else self.kind
            self.fail(f"{what} must be a whole number, got {got}{self.yaml11_hint(word_wanted=False)}")
        if not low <= self.value <= high:
            self.fail(f"{what} must be between {low} and {high}, got {self.value}")
        return self.value

    def boolean(self, what: str) -> bool:
        if not isinstance(self.value, bool):
            self.fail(f"{what} must be true or false, got {self.kind}")
        return self.value


@dataclass(frozen=True)
class YSeq(YNode):
    """A sequence of nodes."""

    items: tuple[YNode, ...] = ()

    @property
    def kind(self) -> str:
        return "a list"

    def __iter__(self) -> Iterator[YNode]:
        return iter(self.items)


@dataclass(frozen=True)
class YMap(YNode):
    """A mapping from text keys to nodes, in file order."""

    entries: tuple[tuple[YScalar, YNode], ...] = ()

    @property
    def kind(self) -> str:
        return "a mapping"

    def keys(self) -> list[str]:
        return [str(k.value) for k, _ in self.entries]

    def get(self, key: str) -> YNode | None:
        for k, v in self.entries:
            if k.value == key:
                return v
        return None

    def require(self, key: str, what: str) -> YNode:
        node = self.get(key)
        if node is None:
            self.fail(f"{what} is missing '{key}'")
        return node

    def check_keys(self, allowed: Iterable[str], what: str) -> None:
        allowed = list(allowed)
        for k, _ in self.entries:
            if k.value not in allowed:
                k.fail(f"unknown field '{k.value}' in {what}{did_you_mean(str(k.value), allowed)}")


def plain(node: YNode) -> object:
    """The plain values of a node tree (mappings, lists, scalars), as regcheck read them: a key such
    as `on` stays the text YAML 1.1 would have read as true."""
    if isinstance(node, YMap):
        return {str(k.value): plain(v) for k, v in node.entries}
    if isinstance(node, YSeq):
        return [plain(v) for v in node]
    assert isinstance(node, YScalar)
    return node.value


def _convert(places: _Places, node: yaml.Node, error: ErrorFactory, depth: int) -> YNode:
    loc = places.loc(node.start_mark)
    if depth > MAX_DEPTH:
        raise error(f"nesting deeper than {MAX_DEPTH} levels", loc)
    if isinstance(node, yaml.ScalarNode):
        if node.tag not in _SCALAR_TAGS:
            raise error(f"tag {node.tag!r} is not allowed", loc)
        value = node.value if node.tag == "tag:yaml.org,2002:str" else _scalar_value(node, loc, error)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and ":" in node.value:
            # YAML 1.1 reads 1:00 as 60 (base 60, "sexagesimal"): never what a turn or a count means
            shown = node.value if len(node.value) <= 40 else node.value[:40] + "..."
            raise error(f"'{shown}' is read by YAML as the base-60 number {value}: write the number meant, "
                        f"or quote it ('{shown}') for text", loc)
        if isinstance(value, str) and len(value) > 20_000:
            raise error("text longer than 20000 characters", loc)
        return YScalar(loc, error, value, node.style, node.value, *places.at(node.end_mark.index))
    if isinstance(node, yaml.SequenceNode):
        if node.tag != "tag:yaml.org,2002:seq":
            raise error(f"tag {node.tag!r} is not allowed", loc)
        return YSeq(loc, error, tuple(_convert(places, n, error, depth + 1) for n in node.value))
    if isinstance(node, yaml.MappingNode):
        if node.tag != "tag:yaml.org,2002:map":
            raise error(f"tag {node.tag!r} is not allowed", loc)
        entries: list[tuple[YScalar, YNode]] = []
        seen: dict[object, Location] = {}
        for knode, vnode in node.value:
            if not isinstance(knode, yaml.ScalarNode):
                raise error("mapping keys must be plain names", places.loc(knode.start_mark))
            # Keys are names: read them as written, so that `on:` or `no:` stay text.
            key = YScalar(places.loc(knode.start_mark), error, knode.value, knode.style, knode.value)
            if key.value in seen:
                raise error(f"duplicate key '{key.value}' (first at line {seen[key.value].line})", key.loc)
            seen[key.value] = key.loc
            entries.append((key, _convert(places, vnode, error, depth + 1)))
        return YMap(loc, error, tuple(entries))
    raise error("unsupported YAML node", loc)


_CONSTRUCTOR = SafeConstructor()


_TAG_WORDS = {"tag:yaml.org,2002:int": "a whole number", "tag:yaml.org,2002:float": "a number",
              "tag:yaml.org,2002:bool": "true or false"}


def _scalar_value(node: yaml.ScalarNode, loc: Location, error: ErrorFactory) -> object:
    """A non-text scalar (number, truth value, null) as YAML's safe rules read it."""
    try:
        return _CONSTRUCTOR.construct_object(node)
    except (ValueError, KeyError, IndexError, TypeError, OverflowError):
        # An explicit tag on a value of another kind (`!!bool Black`, `!!int` on nothing), or a number
        # too long to read.
        shown = node.value if len(node.value) <= 40 else node.value[:40] + "..."
        raise error(f"{shown!r} cannot be read as {_TAG_WORDS.get(node.tag, node.tag)}", loc) from None
    finally:
        _CONSTRUCTOR.constructed_objects.clear()
        _CONSTRUCTOR.recursive_objects.clear()


_SCALAR_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
}


_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _refuse_shared(places: _Places, root: yaml.Node, error: ErrorFactory) -> None:
    """Refuse anchors and aliases: an alias makes the composer hand back one node twice."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            raise error("anchors and aliases are not allowed", places.loc(node.start_mark))
        seen.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        elif isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                stack.extend((k, v))


def load_yaml(path: Path, error: ErrorFactory, display: str | None = None) -> tuple[YNode, str]:
    """Read one YAML document from `path`; returns the node tree and the file's text."""
    shown = display or display_path(path)
    why = irregular(path) if os.path.lexists(path) else None  # before opening: a FIFO would block
    if why:
        raise error(f"{shown} is {why}", None)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise error(f"cannot read file: {exc.strerror or exc}", Location(shown, 1)) from None
    if len(raw) > MAX_FILE_BYTES:
        raise error(f"file is larger than {MAX_FILE_BYTES} bytes", Location(shown, 1))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error("file is not valid UTF-8", Location(shown, line_of_byte(raw, exc.start))) from None
    return load_yaml_text(text, error, shown)


def load_yaml_text(text: str, error: ErrorFactory, shown: str) -> tuple[YNode, str]:
    """Read one YAML document from `text`, named `shown` in messages; returns the node tree and the text."""
    # a byte-order mark takes no column in an editor; libyaml skips it without counting it, PyYAML counts it
    body = text[1:] if text.startswith("\ufeff") else text
    places = _Places(shown, body)
    loader = _Loader(body)
    try:
        node = loader.get_single_node()
        if node is not None:
            _refuse_shared(places, node, error)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = places.loc(mark) if mark else Location(shown, 1)
        # "while parsing ..." contexts are noise; "expected a single document ..." is the point
        context = exc.context if exc.context and not exc.context.startswith("while") else None
        problem = ", ".join(p for p in (context, exc.problem) if p) or "malformed YAML"
        raise error(f"malformed YAML: {problem}", where) from None
    except yaml.YAMLError as exc:
        raise error(f"malformed YAML: {exc}", Location(shown, 1)) from None
    except RecursionError:
        raise error(f"nesting deeper than {MAX_DEPTH} levels", Location(shown, 1)) from None
    finally:
        loader.dispose()
    if node is None:
        raise error("file is empty", Location(shown, 1))
    return _convert(places, node, error, 0), text
