"""The card coverage lock: how much of the bundled card list regcheck reads, so that it never falls unnoticed.

`cards.lock` at the repository root holds one line per line of the coverage (each category of card
text, by the words its printed text says, and `all`, every distinct text of the card list), the
number of distinct printed texts on it that are modelled or read through a reviewed override:

    set-aside 55

The gate fails when a count falls below the lock, and when a reviewed override no longer matches
its card (a changed text, a part the grammar no longer reads). `regcheck gate --renew-lock`
records the counts as they are.
"""

from __future__ import annotations

__all__ = ["CARDS_LOCK_FILE", "card_counts", "read_cards_lock", "write_cards_lock", "check_cards"]

import re
from collections.abc import Callable
from pathlib import Path

from ..errors import InputError, Location
from ..files import display_path, write_file
from ..scenario.cards import COVERAGE_LINES, coverage, override_problems, survey_progress
from .model import Place, Problem

CARDS_LOCK_FILE = "cards.lock"
HEADER = (
    "# regcheck cards lock: per category of card text (by the words of the printed text, as\n"
    "# `regcheck cards --coverage` defines each) and for all distinct texts, how many distinct printed texts\n"
    "# of the bundled card list are modelled or read through a reviewed override. `regcheck gate` fails when\n"
    "# a count falls; after a change that raises one, record it with `regcheck gate --renew-lock`.\n"
)
LINE = re.compile(r"^([a-z-]+) (\d+)$")


def card_counts(jobs: int | None = None) -> dict[str, int]:
    """For each line of the coverage, the distinct printed texts modelled or read through an override (counted
    afresh by up to `jobs` processes when the cache does not hold them)."""
    counts = coverage(jobs)
    return {c: counts[c]["modelled"] + counts[c]["override"] for c in COVERAGE_LINES}


def read_cards_lock(path: Path) -> dict[str, tuple[int, int]]:
    """The lock's counts, each with its line; a malformed line is an input error."""
    shown = display_path(path)
    out: dict[str, tuple[int, int]] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        m = LINE.match(line)
        if m is None or m.group(1) not in COVERAGE_LINES or m.group(1) in out:
            raise InputError(f"not a line of {CARDS_LOCK_FILE}: expected a category of "
                             f"{', '.join(COVERAGE_LINES)} (once each) and a count", Location(shown, number))
        out[m.group(1)] = (int(m.group(2)), number)
    return out


def write_cards_lock(root: Path) -> list[str]:
    """Record the counts as they are; returns what changed."""
    path = root / CARDS_LOCK_FILE
    try:
        before = {c: n for c, (n, _) in read_cards_lock(path).items()} if path.is_file() else {}
    except InputError:
        before = {}  # a damaged lock is simply written afresh
    after = card_counts()
    write_file(path, HEADER + "".join(f"{c} {after[c]}\n" for c in COVERAGE_LINES))
    return [f"{c} {before.get(c, 'none')} -> {after[c]}" for c in COVERAGE_LINES
            if c not in before or before[c] != after[c]]


def check_cards(root: Path, progress: Callable[[int, int], None] | None = None, jobs: int | None = None
                ) -> list[Problem]:
    """Every count below the lock, and every reviewed override that no longer matches its card; `progress` is told
    how many texts of the card list were read, of how many, when the coverage is counted afresh (by up to `jobs`
    processes)."""
    problems = [Problem("cards", p, None) for p in override_problems()]
    path = root / CARDS_LOCK_FILE
    if not path.is_file():
        return problems + [Problem("cards", f"there is no {CARDS_LOCK_FILE} at the repository root; write it with "
                                            "`regcheck gate --renew-lock`", None)]
    locked = read_cards_lock(path)
    with survey_progress(progress or (lambda done, total: None)):
        now = card_counts(jobs)
    for category in COVERAGE_LINES:
        if category not in locked:
            problems.append(Problem("cards", f"{CARDS_LOCK_FILE} has no count for {category}: renew it with "
                                             "`regcheck gate --renew-lock`", Place(CARDS_LOCK_FILE, 1)))
            continue
        count, line = locked[category]
        if now[category] < count:
            problems.append(Problem("cards", f"{category}: {now[category]} printed texts are modelled or "
                                             f"overridden, fewer than the {count} of the lock", Place(CARDS_LOCK_FILE, line)))
    return problems
