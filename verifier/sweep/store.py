"""A sweep's results database: SQLite, one row per combination, written one transaction per result.

The database records what its run is: the fingerprints of the rule base, of the cards combined
and of the scope template, the cards and the skipped ones. Every combination is written as
`pending` when the run is created (in the same transaction), and a result turns its row into
`done`, `failed` or `unknown` in a transaction of its own. SQLite's write-ahead log (WAL) with
full syncing keeps each transaction whole whatever happens to the process: killed at any moment
(SIGKILL included), the database holds each finished result once and the rest as `pending`, which
the next run of the same command picks up.

Results of another rule base, card list or template are never mixed in: opening a database made
for another run is refused. One sweep at a time writes a database (an advisory lock on it).
"""

from __future__ import annotations

__all__ = ["SweepStore", "RunIdentity", "Row", "STATUSES", "SHOWN_STATUSES", "open_store", "read_store"]

import contextlib
import fcntl
import json
import os
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from ..errors import InputError, Location

# "refused": a combination whose scope regcheck will not state without guessing (a case loader's refusal)
STATUSES = ("pending", "done", "refused", "failed", "unknown")
# the order the counts of a sweep are shown in
SHOWN_STATUSES = ("done", "refused", "failed", "unknown", "pending")
FORMAT = 2

_SCHEMA = """
CREATE TABLE IF NOT EXISTS run (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    format INTEGER NOT NULL,
    rules_fingerprint TEXT NOT NULL,
    cards_fingerprint TEXT NOT NULL,
    template_fingerprint TEXT NOT NULL,
    template TEXT NOT NULL,
    cards TEXT NOT NULL,
    skipped TEXT NOT NULL,
    regcheck_version TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS combination (
    position INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    cards TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'done', 'refused', 'failed', 'unknown')),
    scenarios INTEGER,
    findings TEXT,
    error TEXT,
    seconds REAL,
    cpu_seconds REAL,
    worker TEXT
);
"""


class RunIdentity(NamedTuple):
    """What a run is: its fingerprints, and its template, cards and skipped cards as JSON-ready values."""

    rules_fingerprint: str
    cards_fingerprint: str
    template_fingerprint: str
    template: dict[str, Any]
    cards: list[dict[str, Any]]
    skipped: list[dict[str, Any]]


class Row(NamedTuple):
    """One combination's row."""

    position: int
    key: str
    cards: tuple[str, ...]
    status: str
    scenarios: int | None
    findings: tuple[dict[str, Any], ...]
    error: str
    seconds: float | None
    cpu_seconds: float | None
    worker: str


def _connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(str(path), isolation_level=None, timeout=30)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    return db


def _bad(path: Path, message: str) -> InputError:
    return InputError(message, Location(str(path), 1))


class SweepStore:
    """An open results database, locked for this process's writes."""

    def __init__(self, path: Path, db: sqlite3.Connection, lock: int) -> None:
        self.path = path
        self.db = db
        self._lock = lock

    def close(self) -> None:
        self.db.close()
        os.close(self._lock)

    def __enter__(self) -> SweepStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def pending(self) -> list[tuple[int, str, tuple[str, ...]]]:
        """The combinations without a result, in order: (position, key, card names)."""
        rows = self.db.execute("SELECT position, key, cards FROM combination WHERE status = 'pending' ORDER BY position")
        return [(p, k, tuple(json.loads(c))) for p, k, c in rows]

    def retry_failed(self) -> int:
        """Turn failed and unknown results back into pending ones; how many."""
        with self.transaction():
            cursor = self.db.execute("UPDATE combination SET status = 'pending', scenarios = NULL, findings = NULL, "
                                     "error = NULL, seconds = NULL, cpu_seconds = NULL, worker = NULL "
                                     "WHERE status IN ('failed', 'unknown')")
        return cursor.rowcount

    def counts(self) -> dict[str, int]:
        out = dict.fromkeys(STATUSES, 0)
        for status, n in self.db.execute("SELECT status, COUNT(*) FROM combination GROUP BY status"):
            out[status] = n
        return out

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def record(self, position: int, status: str, scenarios: int | None, findings: Sequence[dict[str, Any]],
               error: str, seconds: float, cpu_seconds: float, worker: str) -> bool:
        """Write one combination's result in a transaction of its own; False when it already had one."""
        with self.transaction():
            cursor = self.db.execute(
                "UPDATE combination SET status = ?, scenarios = ?, findings = ?, error = ?, seconds = ?, cpu_seconds = ?, "
                "worker = ? WHERE position = ? AND status = 'pending'",
                (status, scenarios, json.dumps(list(findings), sort_keys=True), error, seconds, cpu_seconds, worker,
                 position))
        return cursor.rowcount == 1


def open_store(path: Path, identity: RunIdentity, combinations: Sequence[tuple[str, tuple[str, ...]]]) -> SweepStore:
    """Open (creating it when new) the results database of a run. A database made for another rule base,
    card list or template is refused, and so is one another sweep is writing."""
    # flock on the database file itself: SQLite's own locks are POSIX record locks, which flock leaves alone
    try:
        lock = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as err:
        raise _bad(path, f"cannot open the results database: {err.strerror or err}") from None
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(lock)
        raise _bad(path, "another sweep is writing this database") from None
    try:
        db = _connect(path)
        db.executescript(_SCHEMA)
        store = SweepStore(path, db, lock)
        with store.transaction():
            row = db.execute("SELECT format, rules_fingerprint, cards_fingerprint, template_fingerprint FROM run").fetchone()
            if row is None:
                from .. import __version__

                db.execute("INSERT INTO run VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)",
                           (FORMAT, identity.rules_fingerprint, identity.cards_fingerprint,
                            identity.template_fingerprint, json.dumps(identity.template),
                            json.dumps(identity.cards), json.dumps(identity.skipped), __version__))
                db.executemany("INSERT INTO combination (position, key, cards, status) VALUES (?, ?, ?, 'pending')",
                               [(i, key, json.dumps(list(names))) for i, (key, names) in enumerate(combinations)])
            else:
                _same_run(path, row, identity)
    except sqlite3.DatabaseError as err:
        os.close(lock)
        raise _bad(path, f"not a sweep results database ({err})") from None
    except BaseException:
        os.close(lock)
        raise
    return store


def _same_run(path: Path, row: tuple[Any, ...], identity: RunIdentity) -> None:
    fmt, rules, cards, template = row
    if fmt != FORMAT:
        raise _bad(path, f"the database is of format {fmt}, this regcheck writes format {FORMAT}")
    for what, was, now in (("rule base", rules, identity.rules_fingerprint),
                           ("card list", cards, identity.cards_fingerprint),
                           ("scope template", template, identity.template_fingerprint)):
        if was != now:
            raise _bad(path, f"the database holds a sweep of another {what} (fingerprint {was}, now {now}); "
                       "results are never mixed: name a new database file")


def read_store(path: Path) -> tuple[dict[str, Any], list[Row]]:
    """A results database read for a report: its run (fingerprints, template, cards, skipped) and its rows."""
    if not path.is_file():
        raise _bad(path, "no such results database")
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            run = db.execute("SELECT format, rules_fingerprint, cards_fingerprint, template_fingerprint, template, "
                             "cards, skipped, regcheck_version FROM run").fetchone()
            rows = db.execute("SELECT position, key, cards, status, scenarios, findings, error, seconds, cpu_seconds, worker "
                              "FROM combination ORDER BY position").fetchall()
        finally:
            db.close()
    except sqlite3.DatabaseError as err:
        raise _bad(path, f"not a sweep results database ({err})") from None
    if run is None:
        raise _bad(path, "the database holds no sweep")
    keys = ("format", "rules_fingerprint", "cards_fingerprint", "template_fingerprint", "template", "cards",
            "skipped", "regcheck_version")
    info = dict(zip(keys, run))
    for k in ("template", "cards", "skipped"):
        info[k] = json.loads(info[k])
    out = [Row(p, k, tuple(json.loads(c)), s, n, tuple(json.loads(f)) if f else (), e or "", t, u, w or "")
           for p, k, c, s, n, f, e, t, u, w in rows]
    return info, out
