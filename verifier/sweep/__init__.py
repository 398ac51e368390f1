"""Sweeps: every combination of real cards, each searched by `explore` as a small scope, with the results
in a resumable SQLite database; run on a local process pool or a Dask distributed cluster."""

from .deck import DeckEntry, read_deck
from .pool import CardPool, SkippedCard, SweepCard, select_cards
from .report import SweepFinding, SweepReport, sweep_report
from .run import SweepOptions, SweepProgress, SweepSummary, run_sweep
from .template import ATTEMPT_KINDS, DEFAULT_TEMPLATE, SweepTemplate

__all__ = ["DeckEntry", "read_deck", "CardPool", "SkippedCard", "SweepCard", "select_cards", "SweepFinding",
           "SweepReport", "sweep_report", "SweepOptions", "SweepProgress", "SweepSummary", "run_sweep",
           "ATTEMPT_KINDS", "DEFAULT_TEMPLATE", "SweepTemplate"]
