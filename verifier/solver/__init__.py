"""Grounding, the solver backend (the only place Z3 is used) and the verdict engine."""

from .engine import check_scenario

__all__ = ["check_scenario"]
