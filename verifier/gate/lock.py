"""The lock file: the text fingerprint of every statement the encodings cite or waive, as last reviewed.

`rules.lock` at the repository root holds one line per statement, sorted by ID:

    SA-4 3f0c2a9d81b7e6f4

A statement whose text changed since (its fingerprint differs), or that an encoding cites but
the lock does not list, fails the gate, naming the rules to review; once they are reviewed,
`regcheck gate --renew-lock` writes the lock afresh.
"""

from __future__ import annotations

__all__ = ["LOCK_FILE", "locked_statements", "read_lock", "write_lock", "check_lock"]

import re
from pathlib import Path

from ..errors import InputError, Location
from ..files import FileState, display_path, write_file
from ..language.encoding import RuleBase
from ..rulesdoc import RulesDocument, statement_order
from .model import Place, Problem

LOCK_FILE = "rules.lock"
HEADER = (
    "# regcheck rules lock: the text fingerprint of every statement that an encoding cites or waives.\n"
    "# A statement whose text changed fails `regcheck gate` until the rules citing it are reviewed\n"
    "# and the lock is renewed with `regcheck gate --renew-lock`.\n"
)
LINE = re.compile(r"^([A-Z]+(?:-[A-Z]+)*-\d+[a-z]?(?:-R\d+)?) ([0-9a-f]{16})$")


def _users(rules: RuleBase) -> dict[str, list[tuple[str, Location]]]:
    """For each statement ID, what cites or waives it: (what, where)."""
    users: dict[str, list[tuple[str, Location]]] = {}
    for r in rules.rules:
        for sid in r.cites:
            users.setdefault(sid, []).append((f"rule {r.id}", r.loc))
    for d in rules.definitions.values():
        for sid in d.cites:
            users.setdefault(sid, []).append((f"definition {d.name}", d.loc))
    for w in rules.waivers:
        users.setdefault(w.statement, []).append((f"waiver of {w.statement}", w.loc))
    return users


def locked_statements(doc: RulesDocument, rules: RuleBase) -> dict[str, str]:
    """The fingerprints the lock should hold: every existing statement that is cited or waived."""
    users = _users(rules)
    return {s.id: s.fingerprint for s in sorted(doc.statements, key=lambda s: statement_order(s.id)) if s.id in users}


def read_lock(path: Path) -> dict[str, tuple[str, int]]:
    """The lock file's fingerprints, each with its line; a malformed line is an input error."""
    shown = display_path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InputError("lock file is not valid UTF-8", Location(shown, 1)) from None
    except OSError as exc:
        raise InputError(f"cannot read lock file: {exc.strerror or exc}", Location(shown, 1)) from None
    entries: dict[str, tuple[str, int]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        m = LINE.match(stripped)
        if not m:
            raise InputError("expected a statement ID and its 16-digit fingerprint, like 'SA-4 3f0c2a9d81b7e6f4'",
                             Location(shown, number))
        if m.group(1) in entries:
            raise InputError(f"{m.group(1)} is listed twice (first on line {entries[m.group(1)][1]})",
                             Location(shown, number))
        entries[m.group(1)] = (m.group(2), number)
    return entries


def write_lock(path: Path, fingerprints: dict[str, str], expected: FileState | None = None) -> None:
    """Write the lock file, sorted by statement ID, atomically; with `expected`, only if unchanged since read."""
    lines = [f"{sid} {fingerprints[sid]}\n" for sid in sorted(fingerprints, key=statement_order)]
    write_file(path, HEADER + "".join(lines), expected)


def check_lock(root: Path, doc: RulesDocument, rules: RuleBase) -> tuple[int, list[Problem]]:
    """How many statements the lock covers, and every difference between the lock and the rules as they are."""
    path = root / LOCK_FILE
    renew = "review them, then renew the lock with `regcheck gate --renew-lock`"
    if not path.is_file():
        return 0, [Problem("lock", f"there is no {LOCK_FILE} at the repository root; write it with "
                                   "`regcheck gate --renew-lock`", None)]
    lock = read_lock(path)
    wanted = locked_statements(doc, rules)
    statements = doc.by_id()
    users = _users(rules)
    problems = []
    for sid, fingerprint in wanted.items():
        s = statements[sid]
        related = tuple((Place.of(loc, root), what) for what, loc in users[sid])
        names = ", ".join(f"{what} ({place})" for (place, _), (what, _) in zip(related, users[sid]))
        if sid not in lock:
            problems.append(Problem("lock", f"{sid} is cited but not in {LOCK_FILE}; cited by {names}: {renew}",
                                    Place.of(s.loc, root), related))
        elif lock[sid][0] != fingerprint:
            problems.append(Problem("lock", f"the text of {sid} changed since {LOCK_FILE} was written; "
                                            f"cited by {names}: {renew}", Place.of(s.loc, root), related))
    for sid, (_, line) in lock.items():
        if sid not in wanted:
            why = "is not in the rules document" if sid not in statements else "is cited by no encoding"
            problems.append(Problem("lock", f"{LOCK_FILE} lists {sid}, which {why} now; renew the lock with "
                                            "`regcheck gate --renew-lock`", Place(LOCK_FILE, line)))
    return len(wanted), problems
