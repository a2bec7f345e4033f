"""check_database: the refusals of VerdictStore.open, with the same messages, creating nothing."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from storekit import filled, foreign, newer, not_sqlite, truncated

from db import check_database, database_check, schema
from db.check import LATEST, StoreError
from db.store import VerdictStore


def test_latest_is_the_last_migration() -> None:
    assert LATEST == schema.MIGRATIONS[-1][0] == schema.LATEST


@pytest.mark.parametrize("make", [newer, foreign, not_sqlite, truncated])
def test_same_refusal_as_opening(db_path: Path, make: Callable[[Path], Path]) -> None:
    make(db_path)
    before = hashlib.sha256(db_path.read_bytes()).hexdigest()
    with pytest.raises(StoreError) as checked:
        check_database(db_path)
    with pytest.raises(StoreError) as opened:
        VerdictStore.open(db_path)
    with pytest.raises(StoreError) as started:
        database_check(db_path)()
    assert str(checked.value) == str(opened.value) == str(started.value)
    assert "\n" not in str(checked.value)
    assert hashlib.sha256(db_path.read_bytes()).hexdigest() == before


def test_usable_databases_pass_and_nothing_is_created(tmp_path: Path, db_path: Path) -> None:
    assert check_database(filled(db_path)) == db_path
    missing = tmp_path / "a" / "b" / "verdicts.sqlite3"
    assert check_database(missing) == missing
    assert not (tmp_path / "a").exists()
    empty = tmp_path / "empty.sqlite3"
    empty.touch()
    assert check_database(empty) == empty and empty.stat().st_size == 0


def test_parent_that_is_a_file(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    with pytest.raises(StoreError, match="cannot create .*: Not a directory"):
        check_database(blocker / "verdicts.sqlite3")


def test_a_check_started_runs_while_the_caller_goes_on(db_path: Path) -> None:
    # the commands start it before their imports: SQLite reads the whole file in quick_check
    # (84 ms at 100,000 events) with the GIL let go, and the imports go on meanwhile
    filled(db_path)
    holder = sqlite3.connect(db_path, isolation_level=None)
    holder.execute("PRAGMA journal_mode = DELETE")  # a reader waits for this writer's lock
    holder.execute("BEGIN EXCLUSIVE")
    try:
        checked = database_check(db_path)  # back at once: the check waits for the lock
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert checked() == db_path
