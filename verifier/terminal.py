"""What the command line needs of a terminal: colour (honouring NO_COLOR and FORCE_COLOR), progress on
standard error for long runs, plurals, and `-k` expressions selecting cases and questions."""

from __future__ import annotations

__all__ = ["plural", "use_colour", "colour_marks", "Progress", "Selection", "SelectionError", "stderr_is_terminal"]

import os
import re
import sys
import time
from typing import TextIO

PROGRESS_DELAY = 1.0  # seconds: a run shorter than this shows no progress


def plural(count: int, word: str, many: str | None = None) -> str:
    """`1 case`, `2 cases`, `1,045 scenarios`."""
    return f"{count:,} {word if count == 1 else many or word + 's'}"


def use_colour(stream: TextIO) -> bool:
    """Colour when the stream is a terminal, unless NO_COLOR is set; always when FORCE_COLOR is set (not 0)."""
    if os.environ.get("NO_COLOR"):
        return False
    force = os.environ.get("FORCE_COLOR")
    if force is not None and force not in ("", "0", "false"):
        return True
    return _is_terminal(stream)


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def stderr_is_terminal() -> bool:
    """Whether standard error is a terminal (progress is shown only there)."""
    return _is_terminal(sys.stderr)


GREEN, RED, YELLOW, BOLD, RESET = "\x1b[32m", "\x1b[31m", "\x1b[33m", "\x1b[1m", "\x1b[0m"
_MARKS = re.compile(r"^(  )(ok  |FAIL)(?= )", re.MULTILINE)


def colour_marks(text: str) -> str:
    """The `ok` and `FAIL` marks of rendered results in green and red (the text is already escaped, so
    every escape sequence in it is one of these)."""
    return _MARKS.sub(lambda m: f"{m.group(1)}{GREEN if m.group(2).startswith('ok') else RED}{m.group(2)}{RESET}", text)


class Progress:
    """One updating line on standard error (`checking cases: 12/125`), shown only on a terminal and only
    once the run has lasted `PROGRESS_DELAY`; `done()` clears it."""

    def __init__(self, what: str, enabled: bool | None = None) -> None:
        self.what = what
        self.enabled = stderr_is_terminal() if enabled is None else enabled
        self.start = time.monotonic()
        self.shown = False

    def __call__(self, done: int, total: int, label: str | None = None) -> None:
        if not self.enabled or time.monotonic() - self.start < PROGRESS_DELAY:
            return
        self.shown = True
        sys.stderr.write(f"\r\x1b[K{label or self.what}: {done}/{total}")
        sys.stderr.flush()

    def done(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.shown = False


class SelectionError(ValueError):
    """A `-k` expression that cannot be read."""


_TOKEN = re.compile(r"\s*(\(|\)|[^\s()]+)")
_QUESTION_WORD = re.compile(r"[a-z0-9_]+")


class Selection:
    """A `-k` expression, as pytest reads one: words joined by `and`, `or`, `not` and parentheses. A word
    matches an ID (`cases/heal/x.yaml::question`) when it is part of it, in any case.

    The expression is parsed into a tree of tuples; nothing of it is ever evaluated as code."""

    def __init__(self, expression: str) -> None:
        self.expression = expression
        self.tokens = [m.group(1) for m in _TOKEN.finditer(expression)]
        if "".join(self.tokens) != re.sub(r"\s+", "", expression):
            raise SelectionError(f"cannot read -k expression {expression!r}")
        self.pos = 0
        if not self.tokens:
            raise SelectionError("the -k expression is empty")
        self.tree = self._or()
        if self.pos != len(self.tokens):
            raise SelectionError(f"-k expression {expression!r}: unexpected {self.tokens[self.pos]!r}")

    def _peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def _or(self) -> tuple[object, ...]:
        left = self._and()
        while self._peek() == "or":
            self.pos += 1
            left = ("or", left, self._and())
        return left

    def _and(self) -> tuple[object, ...]:
        left = self._not()
        while self._peek() == "and":
            self.pos += 1
            left = ("and", left, self._not())
        return left

    def _not(self) -> tuple[object, ...]:
        token = self._peek()
        if token == "not":
            self.pos += 1
            return ("not", self._not())
        if token == "(":
            self.pos += 1
            inner = self._or()
            if self._peek() != ")":
                raise SelectionError(f"-k expression {self.expression!r}: a '(' is not closed")
            self.pos += 1
            return inner
        if token is None or token in ("and", "or", ")"):
            raise SelectionError(f"-k expression {self.expression!r}: expected a word"
                                 + (f", got {token!r}" if token else " at the end"))
        self.pos += 1
        return ("word", token.lower())

    def matches(self, case: str, question: str) -> bool:
        """Whether the question of the case is selected."""
        result = self._eval(self.tree, f"{case}::{question}".lower(), None)
        return bool(result)

    def matches_path(self, path: str) -> bool:
        """Whether a file (a scope) is selected by its path alone."""
        return bool(self._eval(self.tree, path.lower(), None))

    def may_match(self, case: str) -> bool:
        """Whether some question of the case could be selected, from its path alone."""
        return self._eval(self.tree, case.lower(), case.lower()) is not False

    def _eval(self, node: tuple[object, ...], text: str, path_only: str | None) -> bool | None:
        """True, False, or (with only the case's path known) None when a question's name could decide."""
        kind = node[0]
        if kind == "word":
            word = str(node[1])
            if word in text:
                return True
            if path_only is None:
                return False
            # Not in the path: it may yet match across '::', or in a question's name (letters, digits, _).
            return None if ":" in word or _QUESTION_WORD.fullmatch(word) else False
        if kind == "not":
            inner = self._eval(node[1], text, path_only)  # type: ignore[arg-type]
            return None if inner is None else not inner
        left = self._eval(node[1], text, path_only)  # type: ignore[arg-type]
        right = self._eval(node[2], text, path_only)  # type: ignore[arg-type]
        if kind == "and":
            if left is False or right is False:
                return False
            return None if None in (left, right) else True
        if left is True or right is True:
            return True
        return None if None in (left, right) else False
