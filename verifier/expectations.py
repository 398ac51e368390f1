"""Writing the current answers into a case file's `expect` block (`regcheck check --update-expect`).

Only the expectations that change are touched: an entry's value is rewritten in place, a question
without one gains an entry at the end of the block (a block is added at the end of the file when
the case has none). Every other byte of the file, its comments included, stays as it was, so the
change reads as a small diff. The new text is read back before it is written: it must load, and
expect exactly the answers given.
"""

from __future__ import annotations

__all__ = ["Answer", "updated_text", "update_case_file"]

import re
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

import yaml

from .errors import CaseError, RegcheckError
from .files import file_state, write_file
from .scenario.model import Scenario


class Answer(NamedTuple):
    """A question's current answer, to be written as its expectation."""

    question: str
    verdict: str
    value: str | None


_PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _.\-]*(?: -> [A-Za-z0-9_]+)*")
_YAML_WORDS = {"yes", "no", "on", "off", "true", "false", "y", "n", "null", "~"}


def _scalar(text: str) -> str:
    """A value as a YAML scalar: plain when it reads back as the same text (or as what the loader takes it
    for, such as `yes` for a truth value), else double-quoted."""
    if _PLAIN.fullmatch(text) and not text.endswith(" ") and (text.lower() not in _YAML_WORDS or text in ("yes", "no")):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _rendered(a: Answer) -> str:
    if a.value is None:
        return a.verdict
    return f"{{verdict: {a.verdict}, value: {_scalar(a.value)}}}"


def _end(node: yaml.Node) -> int:
    """Where a node's own text ends: for a block collection, the end of its last item (its end mark
    lies after the line break, or further, past comments)."""
    if isinstance(node, yaml.MappingNode) and node.value and node.flow_style is not True:
        return _end(node.value[-1][1])
    if isinstance(node, yaml.SequenceNode) and node.value and node.flow_style is not True:
        return _end(node.value[-1])
    return int(node.end_mark.index)


def updated_text(text: str, answers: Sequence[Answer]) -> str:
    """`text` (a case file) with the expectations of `answers` written in; the rest of it unchanged."""
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    if not isinstance(root, yaml.MappingNode):
        raise CaseError("a case must be a mapping", None)
    expect_key: yaml.ScalarNode | None = None
    expect: yaml.Node | None = None
    for key, value in root.value:
        if isinstance(key, yaml.ScalarNode) and key.value == "expect":
            expect_key, expect = key, value
    edits: list[tuple[int, int, str]] = []  # (start, end, replacement), applied from the end
    entries: dict[str, tuple[yaml.ScalarNode, yaml.Node]] = {}
    if isinstance(expect, yaml.MappingNode):
        entries = {str(k.value): (k, v) for k, v in expect.value if isinstance(k, yaml.ScalarNode)}
    added: list[Answer] = []
    for a in answers:
        if a.question in entries:
            key, value = entries[a.question]
            edits.append((int(key.end_mark.index), _end(value), ": " + _rendered(a)))
        else:
            added.append(a)
    if added:
        new = [f"{a.question}: {_rendered(a)}" for a in added]
        if isinstance(expect, yaml.MappingNode) and expect.flow_style is True:
            close = int(expect.end_mark.index) - 1  # the closing brace
            edits.append((close, close, (", " if expect.value else "") + ", ".join(new)))
        elif isinstance(expect, yaml.MappingNode) and expect.value:
            indent = " " * int(expect.value[0][0].start_mark.column)
            end = _end(expect.value[-1][1])
            at = text.find("\n", end) if "\n" in text[end:] else len(text)  # after a comment on the same line
            edits.append((at, at, "".join(f"\n{indent}{line}" for line in new)))
        elif expect_key is not None and expect is not None:  # `expect:` with nothing, or `expect: {}`
            edits.append((int(expect_key.end_mark.index), _end(expect), ":" + "".join(f"\n  {line}" for line in new)))
        else:
            tail = "" if text.endswith("\n") or not text else "\n"
            edits.append((len(text), len(text), tail + "expect:\n" + "".join(f"  {line}\n" for line in new)))
    for start, end, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text


def update_case_file(path: Path, answers: Sequence[Answer], load: Callable[[Path], Scenario]) -> bool:
    """Write `answers` into the case file's `expect` block; False when nothing needed to change.

    The new text is loaded (by `load`) before the file is replaced, and must expect exactly those
    answers; the file is written atomically, and only if it did not change since it was read.
    """
    state = file_state(path)
    text = path.read_text(encoding="utf-8")
    new = updated_text(text, answers)
    if new == text:
        return False
    with tempfile.TemporaryDirectory(prefix="regcheck-expect-") as folder:
        trial = Path(folder) / path.name
        write_file(trial, new)
        try:
            scenario = load(trial)
        except RegcheckError as err:
            raise CaseError(f"{path}: the updated expectations would not load ({err}); the file is unchanged",
                            None) from None
    got = {e.question: (e.verdict, e.value) for e in scenario.expectations}
    for a in answers:
        if got.get(a.question) != (a.verdict, a.value):
            raise CaseError(f"{path}: the expectation written for {a.question} would read back as "
                            f"{got.get(a.question)}, not {(a.verdict, a.value)}; the file is unchanged", None)
    write_file(path, new, state)
    return True
