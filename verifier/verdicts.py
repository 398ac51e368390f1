"""Verdicts and results: plain, frozen values that reports and the CLI read."""

from __future__ import annotations

__all__ = ["Verdict", "CoreItem", "Witness", "QuestionResult", "CaseResult", "Derivation", "Explanation",
           "RulingVerdict", "VerdictChange", "RulingCheck", "RulingResult", "Screening"]

from dataclasses import dataclass
from enum import StrEnum


class Verdict(StrEnum):
    """What the rules say about one question of one scenario."""

    DETERMINED = "determined"
    CHOICE_DEPENDENT = "choice-dependent"
    AMBIGUOUS = "ambiguous"
    CONTRADICTION = "contradiction"
    UNKNOWN = "unknown"


class RulingVerdict(StrEnum):
    """What the rule base says of a proposed ruling."""

    ENTAILED = "entailed"
    NARROWS = "narrows"
    CONTRADICTS = "contradicts"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class CoreItem:
    """One member of a conflict or a derivation: a rule instance or a scenario fact."""

    kind: str  # "rule", "ruling" (a rule a ruling proposes) or "fact"
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

    @property
    def answer(self) -> str:
        """The verdict with its value, as one line: 'determined = yes', 'ambiguous'."""
        return self.verdict.value + (f" = {self.value}" if self.value is not None else "")

    @property
    def expected_answer(self) -> str | None:
        """The expectation written the same way, or None when the case states none."""
        if self.expected is None:
            return None
        return self.expected + (f" = {self.expected_value}" if self.expected_value is not None else "")


@dataclass(frozen=True)
class Screening:
    """A quick look at a scenario: does it have a conflict, or a question two outcomes answer differently?

    `verdict` is `contradiction`, `ambiguous` (some question, under one choice of the players,
    has two values), `determined` (neither: every question has one value per choice) or `unknown`.
    `rules` are the rules with at least one instance in the scenario.
    """

    verdict: Verdict
    reason: str
    rules: tuple[str, ...]


@dataclass(frozen=True)
class CaseResult:
    """Every question's result for one case file."""

    case: str
    title: str
    note: str
    results: tuple[QuestionResult, ...]
    # defaults that may not be what the case means: (file, line, column, message) each
    warnings: tuple[tuple[str, int, int, str], ...] = ()


@dataclass(frozen=True)
class Derivation:
    """What forces a determined value: a minimal set of rule instances and facts, re-checked."""

    steps: tuple[CoreItem, ...]
    verified: bool
    reason: str = ""


@dataclass(frozen=True)
class Explanation:
    """One question's verdict with what backs it.

    `derivation` is set for a determined value. `statements` are, for an ambiguous or
    choice-dependent question, the rules-document statements cited by the rules that bear
    on it (one of them would have to say more to settle it).
    """

    result: QuestionResult
    derivation: Derivation | None
    statements: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class VerdictChange:
    """One question whose verdict (or value) a ruling would change."""

    case: str
    question: str
    before: str
    after: str


@dataclass(frozen=True)
class RulingCheck:
    """A ruling checked against one scenario: the verdict, the conflict if any, the questions it changes.

    `rules_conflict_already` is set when the rules conflict in the scenario without the ruling;
    the conflict is then the rules' own and `core` shows it.
    """

    case: str
    verdict: RulingVerdict
    changes: tuple[VerdictChange, ...] = ()
    core: tuple[CoreItem, ...] = ()
    core_verified: bool = False
    rules_conflict_already: bool = False
    reason: str = ""


@dataclass(frozen=True)
class RulingResult:
    """A ruling file's verdict: on its own scenario (if it has one) and on the cases it was checked against."""

    path: str
    ruling: str
    title: str
    verdict: RulingVerdict
    own: RulingCheck | None
    impact: tuple[RulingCheck, ...]
