"""A scope's plain values: the family of scenarios a scope file describes and the attempts that may vary."""

from __future__ import annotations

__all__ = ["Candidate", "Scope", "ScopeText", "SCOPE_KEYS", "PHASES", "OUTCOME_SYMBOLS"]

from dataclasses import dataclass
from typing import NamedTuple

from ..scenario.model import Question, Scenario
from ..vocabulary import SYMBOLS, VALUE_SETS, SymbolKind
from ..yamlsource import YMap

SCOPE_KEYS = ("attempts", "phases", "per_phase", "max_attempts", "templates")
PHASES = VALUE_SETS["phase"]
OUTCOME_SYMBOLS = tuple(s.name for s in SYMBOLS.values() if s.kind is SymbolKind.OUTCOME)


class ScopeText(NamedTuple):
    """A scope written in memory rather than read from a file: its name in messages and findings, and its text."""

    name: str
    text: str


@dataclass(frozen=True)
class Candidate:
    """An attempt that may happen: its timeline entry, and where it may stand."""

    id: str
    node: YMap
    turn: int | None
    phase: str | None
    after: str | None  # the id of an attempt of the scope it refers to (negates, chooses the return of)
    # the (turn, phase) of the timeline entry it refers to: it may stand only in that phase or a later one
    not_before: tuple[int, str] | None = None

    def fits(self, slot: tuple[int, str]) -> bool:
        """Whether the attempt may stand in this (turn, phase)."""
        return ((self.turn is None or self.turn == slot[0]) and (self.phase is None or self.phase == slot[1])
                and (self.not_before is None or _when(slot) >= _when(self.not_before)))


def _when(slot: tuple[int, str]) -> tuple[int, int]:
    return slot[0], PHASES.index(slot[1])


@dataclass(frozen=True)
class Scope:
    """A family of scenarios: the case parts every scenario shares, and the attempts that may vary."""

    path: str
    title: str
    root: YMap
    text: str
    turns: int
    candidates: tuple[Candidate, ...]
    fixed: tuple[str, ...]  # ids of the attempts that always happen
    phases: tuple[str, ...]
    per_phase: int
    max_attempts: int
    templates: tuple[str, ...]
    questions: tuple[Question, ...]  # the scope's own, each asked where every attempt it names happens
    base: Scenario  # the scenario with only the fixed attempts
