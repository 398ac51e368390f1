"""The results database: one row per combination, written once; another run's database is refused."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from verifier.errors import InputError
from verifier.sweep.store import RunIdentity, open_store, read_store

IDENTITY = RunIdentity("rules1", "cards1", "template1", {"size": 2}, [], [])
COMBOS = [("A + B", ("A", "B")), ("A + C", ("A", "C"))]


def test_a_result_is_written_once(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    with open_store(db, IDENTITY, COMBOS) as store:
        assert [k for _, k, _ in store.pending()] == ["A + B", "A + C"]
        assert store.record(0, "done", 3, [{"verdict": "ambiguous"}], "", 1.0, 0.5, "w")
        assert not store.record(0, "failed", None, [], "again", 1.0, 0.5, "w")
    with open_store(db, IDENTITY, COMBOS) as store:  # reopened: the combinations are not added again
        assert [k for _, k, _ in store.pending()] == ["A + C"]
    run, rows = read_store(db)
    assert run["rules_fingerprint"] == "rules1"
    assert [(r.key, r.status, r.findings) for r in rows] == [("A + B", "done", ({"verdict": "ambiguous"},)),
                                                            ("A + C", "pending", ())]


@pytest.mark.parametrize("field, what", [("rules_fingerprint", "rule base"), ("cards_fingerprint", "card list"),
                                         ("template_fingerprint", "scope template")])
def test_a_database_of_another_run_is_refused(tmp_path: Path, field: str, what: str) -> None:
    db = tmp_path / "r.db"
    open_store(db, IDENTITY, COMBOS).close()
    with pytest.raises(InputError, match=f"a sweep of another {what} .*never mixed"):
        open_store(db, IDENTITY._replace(**{field: "changed"}), COMBOS)


def test_one_sweep_at_a_time_writes_a_database(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    with open_store(db, IDENTITY, COMBOS), pytest.raises(InputError, match="another sweep is writing"):
        open_store(db, IDENTITY, COMBOS)


def test_failed_results_can_be_retried(tmp_path: Path) -> None:
    with open_store(tmp_path / "r.db", IDENTITY, COMBOS) as store:
        store.record(0, "failed", None, [], "broke", 1.0, 0.5, "w")
        store.record(1, "done", 2, [], "", 1.0, 0.5, "w")
        assert store.retry_failed() == 1
        assert store.counts() == {"pending": 1, "done": 1, "refused": 0, "failed": 0, "unknown": 0}


def test_a_refused_result_is_kept_by_a_retry(tmp_path: Path) -> None:
    with open_store(tmp_path / "r.db", IDENTITY, COMBOS) as store:
        assert store.record(0, "refused", None, [], "the case does not say whether 'card_2' is demon", 1.0, 0.5, "w")
        assert store.retry_failed() == 0
        assert store.counts()["refused"] == 1
    assert [r.status for r in read_store(tmp_path / "r.db")[1]] == ["refused", "pending"]


def test_a_database_of_another_format_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    open_store(db, IDENTITY, COMBOS).close()
    with closing(sqlite3.connect(db)) as con, con:
        con.execute("UPDATE run SET format = 1")
    with pytest.raises(InputError, match="the database is of format 1, this regcheck writes format 2"):
        open_store(db, IDENTITY, COMBOS)


def test_a_file_that_is_no_database_is_bad_input(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    db.write_text("not sqlite at all, just some text " * 100, "utf-8")
    with pytest.raises(InputError, match="not a sweep results database"):
        open_store(db, IDENTITY, COMBOS)
    with pytest.raises(InputError, match="no such results database"):
        read_store(tmp_path / "missing.db")
