"""The gate's results: plain frozen values that its text, JSON, JUnit and SARIF outputs read."""

from __future__ import annotations

__all__ = ["CHECKS", "Place", "Places", "Problem", "Finding", "AcceptedFinding", "QuestionOutcome", "Change", "BaseChecks",
           "GateReport"]

import hashlib
from dataclasses import dataclass
from pathlib import Path

from ..errors import Location
from ..verdicts import QuestionResult

# What each check of the gate makes sure of, in the order the gate reports them.
CHECKS: dict[str, str] = {
    "coverage": "every rules statement is encoded or waived",
    "citations": "every encoding cites or waives statements that exist",
    "lock": "every cited statement's text is the one recorded in the lock file",
    "input": "every case file can be read",
    "consistency": "the rules allow an outcome in every case, or the contradiction is an accepted finding",
    "regressions": "every question with an expected verdict still gets it",
    "unknown": "the solver decides every question",
    "findings": "every ambiguity is an accepted finding",
    "baseline": "every accepted finding is still found",
    "cards": "the card list is read no less than cards.lock records, and every reviewed override is current",
    "mutation": "deleting any rule (not an interpretation) changes some case's answer, or is an accepted survivor",
}


@dataclass(frozen=True, order=True)
class Place:
    """A line of a file in the rules repository; the path is relative to the repository root."""

    path: str
    line: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"

    @classmethod
    def of(cls, location: Location | str, root: Path) -> Place:
        """The place of a location as regcheck shows it (relative to the current folder), made relative to `root`."""
        path, line = _path_and_line(location)
        return cls(_relative_to(path, root), line)


class Places:
    """`Place.of` for many locations under one root, each file's path resolved once."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._paths: dict[str, str] = {}

    def __call__(self, location: Location | str) -> Place:
        path, line = _path_and_line(location)
        if path not in self._paths:
            self._paths[path] = _relative_to(path, self.root)
        return Place(self._paths[path], line)


def _path_and_line(location: Location | str) -> tuple[str, int]:
    if isinstance(location, str):
        path, _, rest = location.partition(":")
        return path, int(rest.split(":", 1)[0]) if rest.split(":", 1)[0].isdigit() else 1
    return location.path, location.line


def _relative_to(path: str, root: Path) -> str:
    try:
        return Path(path).resolve().relative_to(root.resolve()).as_posix()
    except (ValueError, OSError):
        return Path(path).as_posix()


@dataclass(frozen=True)
class Problem:
    """One reason the gate fails, with the place to fix and the places a reviewer should read."""

    check: str
    message: str
    place: Place | None = None
    related: tuple[tuple[Place, str], ...] = ()
    case: str | None = None
    question: str | None = None


@dataclass(frozen=True, order=True)
class Finding:
    """An ambiguity of one question, or a contradiction of a whole case, with the rules behind it.

    Its fingerprint depends only on the case's path in the repository, the question (none for
    a contradiction, which holds for the whole case), the verdict and the IDs of the rules
    involved, so it survives edits that move lines or reorder a case.
    """

    case: str
    question: str | None
    verdict: str
    rules: tuple[str, ...]

    @property
    def fingerprint(self) -> str:
        text = "\n".join([self.case, self.question or "*", self.verdict, " ".join(sorted(self.rules))])
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    @property
    def name(self) -> str:
        return f"{self.case}::{self.question}" if self.question else self.case


@dataclass(frozen=True)
class AcceptedFinding:
    """A finding recorded in the accepted-findings file, awaiting a ruling, with its note."""

    finding: Finding
    note: str
    place: Place


@dataclass(frozen=True)
class QuestionOutcome:
    """One question of one case as the gate sees it."""

    case: str
    question: str
    place: Place
    result: QuestionResult
    finding: Finding | None
    accepted: AcceptedFinding | None
    related: tuple[tuple[Place, str], ...] = ()


@dataclass(frozen=True)
class Change:
    """A question (or, with no question, a whole case) whose answer differs between two revisions."""

    case: str
    question: str | None
    before: str | None
    after: str | None
    place: Place | None

    @property
    def name(self) -> str:
        return f"{self.case}::{self.question}" if self.question else self.case


@dataclass(frozen=True)
class BaseChecks:
    """With --base: what differs in the encodings since the base, and the cases and scopes checked there again,
    each with why. Every other case and scope keeps its answers of now: its text is the same, and its grounding
    holds no instance of a rule the changes reach (at the base or now), so its constraints are the same at both."""

    changed: tuple[tuple[str, str], ...]  # each rule or definition that differs, and how: changed, added, removed
    cases: int  # the cases at the base
    scopes: int  # the scopes compared
    cases_checked: tuple[tuple[str, str], ...]  # each case checked at the base, and why, by name
    scopes_checked: tuple[tuple[str, str], ...]  # each scope searched at the base, and why, by name


@dataclass(frozen=True)
class GateReport:
    """Everything the gate found in one run."""

    statements: int
    encoded: int
    waived: int
    locked: int
    cases: int
    questions: tuple[QuestionOutcome, ...]
    problems: tuple[Problem, ...]
    accepted: tuple[AcceptedFinding, ...]
    base: str | None = None
    changes: tuple[Change, ...] = ()
    lock_file: str = ""
    findings_file: str = ""
    scopes: int = 0
    deletions: tuple[int, int] | None = None  # rules whose deletion a case notices, and those it does not
    survivors: tuple[tuple[str, str, Place], ...] = ()  # accepted survivors: rule, reason, where listed
    survivors_file: str = ""
    rechecked: tuple[tuple[str, str], ...] | None = None  # with the result cache: each case checked, and why
    base_checks: BaseChecks | None = None  # with --base: what was checked there again, and why

    @property
    def passed(self) -> bool:
        return not self.problems

    @property
    def bad_input(self) -> bool:
        return any(p.check == "input" for p in self.problems)

    def problems_of(self, check: str) -> list[Problem]:
        return [p for p in self.problems if p.check == check]
