"""Scenarios: case files read into plain values with every input pinned."""

from .loader import load_case
from .model import Scenario

__all__ = ["Scenario", "load_case"]
