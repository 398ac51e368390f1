"""A case's timeline as plain values: the zone of each card after each step, the battle, and each attempt
with whether it is legal, negated, and the order abilities activate in. The HTML report draws it.

The timeline is asked of the engine like any case: its cells are questions (`zone(card, step)`,
`battle_ongoing(step)`, `legal(attempt)`, ...) added to the case's scenario, so each cell is a verdict,
and a cell the rules leave open shows every value they allow.
"""

from __future__ import annotations

__all__ = ["Timeline", "TimelineColumn", "TimelineAttempt", "Cell", "timeline_scenario", "timeline_of"]

from dataclasses import dataclass

from .errors import CaseError, Location
from .language.encoding import RuleBase
from .language.syntax import SourceText, parse_expression
from .language.types import TypeScope, infer
from .scenario.model import Question, Scenario
from .verdicts import CaseResult, QuestionResult, Verdict

MAX_CELLS = 600  # zone questions of one case; a larger timeline is drawn without its zones


@dataclass(frozen=True)
class Cell:
    """One answer of the timeline: its value when the rules decide it, else every value they allow."""

    verdict: str
    values: tuple[str, ...]

    @property
    def decided(self) -> bool:
        return self.verdict == Verdict.DETERMINED.value

    @property
    def text(self) -> str:
        if self.decided:
            return self.values[0]
        if self.values:
            return " or ".join(self.values)
        return self.verdict


@dataclass(frozen=True)
class TimelineColumn:
    """A step drawn as a column: the end of a phase without attempts, or one attempt."""

    turn: int
    phase: str
    active_player: str
    attempt: str | None
    label: str


@dataclass(frozen=True)
class TimelineAttempt:
    """An attempt of the timeline, in the column it is made at."""

    id: str
    kind: str
    player: str
    card: str | None
    targets: tuple[str, ...]
    negates: str | None
    column: int
    legal: Cell
    negated: Cell
    activation_order: Cell | None  # entering battle: the abilities in the order they activate


@dataclass(frozen=True)
class Timeline:
    """The whole picture of one case."""

    case: str
    players: tuple[str, ...]
    cards: tuple[str, ...]
    controllers: tuple[str, ...]  # each card's permanent controller, in the order of `cards`
    columns: tuple[TimelineColumn, ...]
    zones: tuple[tuple[Cell, ...], ...]  # by card, then column; empty when the timeline is too large
    battle: tuple[Cell, ...]  # empty for a contradiction, like `zones`
    attempts: tuple[TimelineAttempt, ...]
    contradiction: bool


def _columns(sc: Scenario) -> list[tuple[TimelineColumn, str]]:
    """Each column with the step expression its questions ask about."""
    by_phase: dict[tuple[int, str], list[str]] = {}
    for a in sc.attempts:
        step = sc.steps[a.step]
        by_phase.setdefault((step.turn, step.phase), []).append(a.id)
    out = []
    for s in sc.steps:
        if not s.phase_start:
            continue
        made = by_phase.get((s.turn, s.phase), [])
        if not made:
            out.append((TimelineColumn(s.turn, s.phase, s.active_player, None, f"turn {s.turn} {s.phase}"),
                        f"at({s.turn}, {s.phase})"))
        for aid in made:
            out.append((TimelineColumn(s.turn, s.phase, s.active_player, aid, f"turn {s.turn} {s.phase}, {aid}"),
                        f"step_of({aid})"))
    return out


def timeline_scenario(sc: Scenario, rules: RuleBase) -> Scenario:
    """The case's scenario asking the timeline's questions instead of its own (and expecting nothing)."""
    constants = sc.constants()
    scope = TypeScope(rules.definitions, constants, CaseError, questions=True)
    where = SourceText(sc.path, 1, 1)
    texts: dict[str, str] = {}
    columns = _columns(sc)
    if len(sc.cards) * len(columns) <= MAX_CELLS:
        for i, card in enumerate(sc.cards):
            for j, (_, step) in enumerate(columns):
                texts[f"zone_{i}_{j}"] = f"zone({card.name}, {step})"
    for j, (_, step) in enumerate(columns):
        texts[f"battle_{j}"] = f"battle_ongoing({step})"
    for k, a in enumerate(sc.attempts):
        texts[f"legal_{k}"] = f"legal({a.id})"
        texts[f"negated_{k}"] = f"negated({a.id})"
        if a.kind == "enter_battle":
            texts[f"order_{k}"] = f"activation_order({a.id})"
    questions = []
    for name, text in texts.items():
        expr = parse_expression(text, where, CaseError)
        questions.append(Question(name, expr, infer(expr, {}, scope), text, Location(sc.path, 1)))
    return sc._replace(questions=tuple(questions), expectations=(), claims=())


def _cell(r: QuestionResult | None) -> Cell:
    if r is None:
        return Cell(Verdict.UNKNOWN.value, ())
    if r.verdict is Verdict.DETERMINED and r.value is not None:
        return Cell(r.verdict.value, (r.value,))
    values = tuple(dict.fromkeys(w.value for w in r.witnesses))
    return Cell(r.verdict.value, values)


def timeline_of(sc: Scenario, answers: CaseResult) -> Timeline:
    """The timeline drawn from the answers to `timeline_scenario(sc)`'s questions."""
    by_name = {r.question: r for r in answers.results}
    columns = [c for c, _ in _columns(sc)]
    column_of = {c.attempt: j for j, c in enumerate(columns) if c.attempt}
    contradiction = any(r.verdict is Verdict.CONTRADICTION for r in answers.results)
    zones = tuple(tuple(_cell(by_name.get(f"zone_{i}_{j}")) for j in range(len(columns)))
                  for i in range(len(sc.cards))) if "zone_0_0" in by_name and not contradiction else ()
    attempts = tuple(
        TimelineAttempt(a.id, a.kind, a.player, a.card, a.targets, a.negated_attempt, column_of[a.id],
                        _cell(by_name.get(f"legal_{k}")), _cell(by_name.get(f"negated_{k}")),
                        _cell(by_name.get(f"order_{k}")) if a.kind == "enter_battle" else None)
        for k, a in enumerate(sc.attempts))
    return Timeline(sc.path, sc.players, tuple(c.name for c in sc.cards),
                    tuple(c.permanent_controller for c in sc.cards), tuple(columns), zones,
                    () if contradiction else tuple(_cell(by_name.get(f"battle_{j}")) for j in range(len(columns))),
                    attempts, contradiction)
