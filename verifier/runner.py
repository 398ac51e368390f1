"""Checking case files: the work done for one file (a case, or a case under a ruling), which the `check`, `ruling` and
`gate` commands hand to `processes.run_in_processes` for many files.
"""

from __future__ import annotations

__all__ = ["CaseInputError", "CaseTask", "Answered", "RulingTask", "input_error_of"]

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NamedTuple

from .errors import InputError, RegcheckError
from .files import display_path, irregular
from .language.encoding import RuleBase
from .resultcache import ResultCache, grounding_key
from .rulesdoc import RulesDocument
from .scenario.defaultcheck import warning_lines
from .scenario.loader import load_case
from .scenario.model import Scenario
from .solver.engine import check_ruling, check_scenario
from .solver.grounding import GroundedBase
from .verdicts import CaseResult, RulingCheck


@dataclass(frozen=True)
class CaseInputError:
    """A case file that cannot be checked: where (file, and line and column when known) and why."""

    file: str
    line: int | None
    column: int | None
    message: str

    def __str__(self) -> str:
        place = ":".join(str(part) for part in (self.file, self.line, self.column) if part is not None)
        return self.message if self.line is None else f"{place}: {self.message}"

    def json(self) -> dict[str, object]:
        return {"file": self.file, "line": self.line, "column": self.column, "message": self.message}


class Answered(NamedTuple):
    """A case file's answer (see `CaseTask.answer_grounded`): its result, defaults as text and why it was checked,
    with the case as read (None when the result cache held its answer for the file's very text) and its rules
    and facts as grounded (None when they were not, or the case is too large to ground)."""

    result: CaseResult
    defaults: str
    why: str
    scenario: Scenario | None = None
    grounded: GroundedBase | None = None


@dataclass(frozen=True)
class CaseTask:
    """What checking one case file needs besides the file."""

    rules: RuleBase
    doc: Callable[[], RulesDocument]
    timeout_ms: int
    memory_mb: int | None
    show_defaults: bool
    resolve: bool = True  # a contradiction comes with its ways out (see `check_scenario`)
    cache: ResultCache | None = None  # results kept by content (see `resultcache`)
    # When given, what each determined answer rests on is worked out with it (`mutation.readings.with_rests_on`)
    readings: Callable[[CaseResult, Scenario, RuleBase, int, int | None], CaseResult] | None = None

    def __call__(self, path: Path) -> tuple[CaseResult, str] | CaseInputError:
        """The case's result (and its defaults, as text), or its input error."""
        try:
            return self.check(path)
        except RegcheckError as err:
            return input_error_of(path, err)

    def check(self, path: Path, display: str | None = None) -> tuple[CaseResult, str]:
        """The case's result and its defaults as text (empty unless asked for), the case shown as `display`
        (default: its path); raises the case's input error."""
        result, defaults, _ = self.answer(path, display)
        return result, defaults

    def answer(self, path: Path, display: str | None = None) -> tuple[CaseResult, str, str]:
        """`check`, and why the case was checked: empty when the result cache held its answer (for this very
        state of the repository, or for a grounding that holds exactly what it holds now), else what changed
        since it was last checked (see `ResultCache.changes`). With `readings`, a kept answer is taken only for
        this very state of the repository: the readings a case rests on depend on definitions and rules its own
        grounding need not hold."""
        answered = self.answer_grounded(path, display, keep=False)
        return answered.result, answered.defaults, answered.why

    def answer_grounded(self, path: Path, display: str | None = None, keep: bool = True) -> Answered:
        """`answer`, with the case as read and (with `keep`) its rules and facts as grounded, when the answer
        needed them."""
        cache, shown = self.cache, display if display is not None else display_path(path)
        options = self._options()
        text = self._text(path)
        keys: list[str] = []
        if cache is not None and text is not None:
            keys.append(cache.key(text, shown, options))
            kept = cache.get(keys[0])
            if kept is not None:
                return Answered(*kept, "")
        scenario = load_case(path, self.rules, display)
        grounded: list[GroundedBase] | None = [] if keep else None
        why = ""
        if cache is not None and text is not None and self.readings is None:
            reach = grounding_key(scenario, self.rules, self.doc(), grounded)
            if reach is not None:
                keys.append(cache.reach_key(text, shown, options, reach))
                kept = cache.get(keys[1])
                if kept is not None:
                    cache.put(keys[:1], *kept)
                    cache.changes(text, shown, options, reach)
                    return Answered(*kept, "", scenario, grounded[0] if grounded else None)
            why = cache.changes(text, shown, options, reach)
        result = check_scenario(scenario, self.rules, self.doc, self.timeout_ms, self.memory_mb, self.resolve,
                                grounded)
        if self.readings is not None:
            result = self.readings(result, scenario, self.rules, self.timeout_ms, self.memory_mb)
        warnings = warning_lines(scenario)
        if warnings:
            result = replace(result, warnings=warnings)
        defaults = _defaults_text(scenario) if self.show_defaults else ""
        if cache is not None and keys:
            with contextlib.suppress(OSError):
                if path.read_bytes() == text:  # kept only under the text that was checked
                    cache.put(keys, result, defaults)
        return Answered(result, defaults, why or "checked", scenario, grounded[0] if grounded else None)

    def kept(self, path: Path, display: str | None = None) -> tuple[CaseResult, str] | None:
        """The result and defaults the result cache holds for the case file in this very state of the repository,
        or None (then `answer` checks it, or finds it by its grounding): cheap, as nothing is read but the file
        and the entry."""
        text = self._text(path)
        if self.cache is None or text is None:
            return None
        return self.cache.get(self.cache.key(text, display if display is not None else display_path(path),
                                             self._options()))

    def _options(self) -> str:
        readings = ":readings" if self.readings is not None else ""
        return f"{self.timeout_ms}:{self.memory_mb}:{self.resolve}:{self.show_defaults}{readings}"

    def _text(self, path: Path) -> bytes | None:
        if self.cache is None or irregular(path) is not None:
            return None
        with contextlib.suppress(OSError):
            return path.read_bytes()
        return None


def input_error_of(path: Path, err: RegcheckError) -> CaseInputError:
    """A case file's error as a result: where an input error points (or the file), and its message."""
    if isinstance(err, InputError):
        loc = err.location
        return CaseInputError(loc.path if loc else display_path(path), loc.line if loc else None,
                              loc.column or None if loc else None, err.message)
    return CaseInputError(display_path(path), None, None, str(err))


@dataclass(frozen=True)
class RulingTask:
    """What checking a ruling on one case file needs besides the file."""

    rules: RuleBase
    with_ruling: RuleBase
    doc: Callable[[], RulesDocument]
    timeout_ms: int
    memory_mb: int | None

    def __call__(self, path: Path) -> RulingCheck | str:
        """The ruling checked on the case, or the message of the case's input error."""
        try:
            scenario = load_case(path, self.rules)
            check = check_ruling(scenario, self.rules, self.with_ruling, self.doc, False, self.timeout_ms,
                                 self.memory_mb)
            return replace(check, interpretations=scenario.interpretations, warnings=warning_lines(scenario))
        except RegcheckError as err:
            return str(err)


def _defaults_text(sc: Scenario) -> str:
    lines = ["  inputs left to a default:"]
    defaulted = [f for f in sc.facts if f.default and f.symbol != "has_brigade"]
    if not defaulted:
        lines.append("    none")
    for f in defaulted:
        lines.append(f"    {f.text}  ({f.loc})")
    return "\n".join(lines)
