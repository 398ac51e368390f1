"""`python -m verifier` runs the regcheck command line."""

from .cli import run

run()
