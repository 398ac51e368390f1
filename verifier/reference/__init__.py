"""An evaluator of the rules in plain Python, independent of the solver, to re-check its answers."""

from .evaluator import UNDECIDED, Instance, Key, Reference, Value, plain_key

__all__ = ["Reference", "Instance", "Key", "Value", "UNDECIDED", "plain_key"]
