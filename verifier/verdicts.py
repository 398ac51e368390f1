"""Verdicts and results: plain, frozen values that reports and the CLI read."""

from __future__ import annotations

__all__ = ["Verdict", "CoreItem", "Witness", "Answer", "Resolution", "QuestionResult", "CaseResult", "Derivation", "Explanation",
           "Fold", "RankedRule", "RankedFact", "Ranking", "INERTIA_RANK",
           "RulingVerdict", "VerdictChange", "RulingCheck", "CombinationImpact", "SweepImpact", "RulingResult", "Screening",
           "GroupScreening"]

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple


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
    rule: str = ""  # the rule's ID, for a rule instance
    binding: tuple[tuple[str, str], ...] = ()  # its variables and their values, as the label shows them


@dataclass(frozen=True)
class Witness:
    """One outcome the rules allow: the question's value, the choices made, what differs."""

    value: str
    choices: tuple[tuple[str, str], ...]
    outcomes: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Answer:
    """A question's verdict and value in a scenario changed to resolve a contradiction."""

    question: str
    verdict: Verdict
    value: str | None
    reason: str = ""

    @property
    def answer(self) -> str:
        """The verdict with its value, as one line: 'determined = yes', 'ambiguous'."""
        return self.verdict.value + (f" = {self.value}" if self.value is not None else "")


@dataclass(frozen=True)
class Resolution:
    """One way out of a contradiction, with every question's answer once it is taken.

    `kind` is "correction" (a minimal correction set: the rules citing `statements` are left out,
    which are `rules`, and the case is consistent) or "interpretation" (the interpretation rule
    `interpretation` is turned on in place of `rules`, and the case is consistent). `verified`:
    re-checked as consistent (and, for a correction set, as minimal: leaving out any smaller part
    of it leaves the conflict).
    """

    kind: str
    statements: tuple[str, ...]
    rules: tuple[str, ...]
    interpretation: str | None
    verified: bool
    answers: tuple[Answer, ...]

    @property
    def name(self) -> str:
        """How the report names it: 'SA-5-I1', or 'leaving out SA-5 + GLOSS-12'."""
        return self.interpretation or "leaving out " + " + ".join(self.statements)

    def answer_to(self, question: str) -> Answer | None:
        return next((a for a in self.answers if a.question == question), None)


@dataclass(frozen=True)
class QuestionResult:
    """The verdict on one question, with its evidence and whether it met the expectation.

    A contradiction checked with its ways out has `resolutions` (the same for every question of the
    case; each holds every question's answer) and `resolutions_note` when their search stopped short.
    """

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
    resolutions: tuple[Resolution, ...] = ()
    resolutions_note: str = ""
    # For an ambiguity: the statements cited where the rules name an outcome that no rule gives and
    # that the two witnesses differ in (see language/openness.py), the REG's before the core principles.
    at_fault: tuple[str, ...] = ()
    # For a determined answer: the readings (statement IDs) left out of which it is no longer determined
    # with this value (see mutation/readings.py); None when that was not worked out.
    rests_on: tuple[str, ...] | None = None

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
class GroupScreening:
    """Which groups of a scenario's questions (say, the questions about one symbol) two outcomes that
    share the inputs and the players' choices can answer differently, without witnesses or cores.

    `verdict` is `contradiction`, `ambiguous` (some group can split), `determined` or `unknown`.
    `split` holds each group that can split, in the order met, with the rules every one of its open
    questions rests on: the rules named in `check_scenario`'s answer to any of its questions that is
    ambiguous include them all, whatever witnesses the solver finds. `rules` are the rules with at
    least one instance in the scenario.
    """

    verdict: Verdict
    reason: str
    split: tuple[tuple[str, tuple[str, ...]], ...]
    rules: tuple[str, ...] = ()


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
    """What forces a determined value: a minimal set of rule instances and facts, re-checked.

    `reads` holds, for each of `steps`, the outcomes and inputs it reads (`zone(elijah, turn 1
    Upkeep (alice))`); `asks` those the question reads.
    """

    steps: tuple[CoreItem, ...]
    verified: bool
    reason: str = ""
    reads: tuple[tuple[str, ...], ...] = ()
    asks: tuple[str, ...] = ()


INERTIA_RANK = 0  # the rank of inertia in a Ranking: listed after every other rule


class Fold(NamedTuple):
    """Instances of one rule that differ only in one step variable, as runs of consecutive steps;
    an instance with no step variable (or more than one) is a fold of its own, with no runs."""

    binding: tuple[tuple[str, str], ...]  # the other variables (all of them when there are no runs)
    step: str  # the step variable, "" for an instance of its own
    runs: tuple[tuple[str, str], ...]  # the first and last step of each run
    instances: tuple[CoreItem, ...]


@dataclass(frozen=True)
class RankedRule:
    """One rule's instances in a derivation, and how directly they bear on the question: rank 1 when
    an instance reads what the question asks (directly or through inertia), 2 when it reads what a
    rank-1 instance reads, and so on; 0 for inertia."""

    rule: str
    rank: int
    instances: tuple[CoreItem, ...]
    folds: tuple[Fold, ...]


@dataclass(frozen=True)
class RankedFact:
    """Facts of a derivation that read the same (one text, one place), with the best rank among the
    rules that read what they pin (0 when only inertia does)."""

    facts: tuple[CoreItem, ...]
    rank: int


@dataclass(frozen=True)
class Ranking:
    """A derivation's rules, the most direct first and inertia last, and its facts, each text once.
    Every rule instance and fact of the derivation is in exactly one place."""

    rules: tuple[RankedRule, ...]
    facts: tuple[RankedFact, ...]

    @property
    def deciding(self) -> tuple[RankedRule, ...]:
        """The rules of rank 1: those that decide the question."""
        return tuple(r for r in self.rules if r.rank == 1)


@dataclass(frozen=True)
class Explanation:
    """One question's verdict with what backs it.

    `derivation` is set for a determined value, and `ranking` orders its rules and facts when it
    has any. `statements` are, for an ambiguous or
    choice-dependent question, the rules-document statements cited by the rules that bear
    on it (one of them would have to say more to settle it).
    """

    result: QuestionResult
    derivation: Derivation | None
    statements: tuple[tuple[str, str], ...] = ()
    ranking: Ranking | None = None


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
    scenario: bool = False  # one of a scope's scenarios, not a case file
    interpretations: tuple[str, ...] = ()  # the interpretations the case opts into
    # defaults of the scenario that may not be what it means: (file, line, column, message) each
    warnings: tuple[tuple[str, int, int, str], ...] = ()

    @property
    def counted(self) -> bool:
        """Whether the check counts toward a ruling's verdict: the rules do not conflict without the ruling
        there, and the case takes the rules as written (a case opting into interpretations is reported apart)."""
        return not self.rules_conflict_already and not self.interpretations


@dataclass(frozen=True)
class CombinationImpact:
    """A ruling checked on each scenario of one combination of cards of a sweep, in order."""

    combination: str  # its cards, joined by ' + ', as the sweep's results database names it
    checks: tuple[RulingCheck, ...]

    @property
    def changed(self) -> tuple[RulingCheck, ...]:
        """The scenarios whose answers the ruling changes: a question's verdict or value, or the whole scenario,
        which becomes a contradiction (where the rules do not conflict without the ruling)."""
        return tuple(c for c in self.checks if c.counted and (c.changes or c.verdict is RulingVerdict.CONTRADICTS))

    @property
    def unknown(self) -> tuple[RulingCheck, ...]:
        """The scenarios the ruling could not be checked on: not answered by regcheck, or a check that gave up."""
        return tuple(c for c in self.checks if c.verdict is RulingVerdict.UNKNOWN)


@dataclass(frozen=True)
class SweepImpact:
    """A ruling's general rules checked on every combination of cards of a sweep's results database."""

    database: str
    combinations: tuple[CombinationImpact, ...]  # in the database's order

    @property
    def checks(self) -> tuple[RulingCheck, ...]:
        """Every scenario's check, combination after combination."""
        return tuple(c for combination in self.combinations for c in combination.checks)

    @property
    def changed(self) -> tuple[CombinationImpact, ...]:
        """The combinations with a scenario whose answers the ruling changes."""
        return tuple(c for c in self.combinations if c.changed)

    @property
    def unknown(self) -> tuple[CombinationImpact, ...]:
        """The combinations with a scenario the ruling could not be checked on."""
        return tuple(c for c in self.combinations if c.unknown)


@dataclass(frozen=True)
class RulingResult:
    """A ruling file's verdict: on its own scenario (if it has one), on the cases and scenarios it was checked
    against, and over a sweep's combinations of cards when asked."""

    path: str
    ruling: str
    title: str
    verdict: RulingVerdict
    own: RulingCheck | None
    impact: tuple[RulingCheck, ...]
    sweep: SweepImpact | None = None
