"""Verdicts and results: plain, frozen values that reports and the CLI read."""

from __future__ import annotations

__all__ = ["Verdict", "CoreItem", "Witness", "QuestionResult", "CaseResult"]

from dataclasses import dataclass
from enum import StrEnum


class Verdict(StrEnum):
    """What the rules say about one question of one scenario."""

    DETERMINED = "determined"
    CHOICE_DEPENDENT = "choice-dependent"
    AMBIGUOUS = "ambiguous"
    CONTRADICTION = "contradiction"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class CoreItem:
    """One member of a conflict or a derivation: a rule instance or a scenario fact."""

    kind: str  # "rule" or "fact"
    label: str
    text: str
    location: str
    statements: tuple[tuple[str, str], ...] = ()
    interpretation: bool = False


@dataclass(frozen=True)
class Witness:
    """One outcome the rules allow: the question's value, the choices made, what differs."""

    value: str
    choices: tuple[tuple[str, str], ...]
    outcomes: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class QuestionResult:
    """The verdict on one question, with its evidence and whether it met the expectation."""

    case: str
    title: str
    question: str
    verdict: Verdict
    value: str | None
    expected: str | None
    expected_value: str | None
    ok: bool
    witnesses: tuple[Witness, ...] = ()
    core: tuple[CoreItem, ...] = ()
    core_verified: bool = False
    rules_involved: tuple[str, ...] = ()
    reason: str = ""


@dataclass(frozen=True)
class CaseResult:
    """Every question's result for one case file."""

    case: str
    title: str
    note: str
    results: tuple[QuestionResult, ...]
