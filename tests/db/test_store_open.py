"""Databases that cannot be used get one clear message and are never written to."""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from storekit import filled, foreign, newer, not_sqlite, truncated

from db.check import LATEST
from db.keys import ItemRef
from db.store import StoreError, VerdictStore

ITEM = ItemRef("KESTREL/agentic-system-runtime-report", "RT-CLM-one")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def assert_refused(path: Path, message: str, *, readonly: bool = False) -> None:
    before = digest(path)
    with pytest.raises(StoreError, match=message) as caught:
        VerdictStore.open(path, readonly=readonly)
    assert "\n" not in str(caught.value)
    assert digest(path) == before


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[None]:
    """chmod for a normal user; root ignores modes, so use the immutable attribute there."""
    if os.geteuid() != 0:
        mode = path.stat().st_mode
        path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield
        finally:
            path.chmod(mode)
        return
    done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip("running as root where chattr +i is not available")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def test_not_an_sqlite_file(db_path: Path) -> None:
    not_sqlite(db_path)
    assert_refused(db_path, "not an SQLite database")


def test_truncated_database(db_path: Path) -> None:
    truncated(db_path)
    assert_refused(db_path, "is damaged")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
def test_unreadable_database(db_path: Path) -> None:
    filled(db_path)
    db_path.chmod(0)
    try:
        with pytest.raises(StoreError, match="cannot read the verdict database"):
            VerdictStore.open(db_path, readonly=True)
    finally:
        db_path.chmod(0o644)


def test_parent_that_is_a_file(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    with pytest.raises(StoreError, match="cannot create"):
        VerdictStore.open(blocker / "verdicts.sqlite3")


def test_sqlite_database_of_another_program(db_path: Path) -> None:
    foreign(db_path)
    assert_refused(db_path, "some other program")


def test_corrupt_database(db_path: Path) -> None:
    filled(db_path, events=300)
    data = bytearray(db_path.read_bytes())
    page = 4096
    assert len(data) > 6 * page
    data[3 * page : 6 * page] = b"\x5a" * (3 * page)
    db_path.write_bytes(bytes(data))
    assert_refused(db_path, "is damaged .*left untouched")
    assert_refused(db_path, "is damaged", readonly=True)


def test_newer_schema(db_path: Path) -> None:
    newer(db_path)
    assert_refused(db_path, rf"newer assay \(schema version 99; this assay knows up to {LATEST}\)")
    assert_refused(db_path, "newer assay", readonly=True)


def test_read_only_database(db_path: Path) -> None:
    filled(db_path)
    with read_only(db_path):
        assert_refused(db_path, "is read-only; verdicts cannot be saved")
        with VerdictStore.open(db_path, readonly=True) as store:  # export and stats still work
            assert store.count() == 1


def test_read_only_directory(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    path = filled(folder / "verdicts.sqlite3")
    with read_only(folder):
        assert_refused(path, "directory of the verdict database .* is read-only")
        with VerdictStore.open(path, readonly=True) as store:
            assert store.count() == 1


def test_a_new_database_in_a_read_only_directory(tmp_path: Path) -> None:
    # was SQLite's "unable to open database file", which names no reason
    folder = tmp_path / "locked"
    folder.mkdir()
    with read_only(folder), pytest.raises(StoreError, match="cannot create .* is read-only"):
        VerdictStore.open(folder / "verdicts.sqlite3")
    assert not (folder / "verdicts.sqlite3").exists()


def test_read_only_store_refuses_writes(db_path: Path) -> None:
    filled(db_path)
    with (
        VerdictStore.open(db_path, readonly=True) as store,
        pytest.raises(StoreError, match="opened read-only"),
    ):
        store.give(ITEM, "confirmed", reviewer="ann")


def test_missing_database_is_not_created_for_reading(db_path: Path) -> None:
    with pytest.raises(StoreError, match="no verdict database at"):
        VerdictStore.open(db_path, readonly=True)
    assert not db_path.exists()


def test_directory_is_not_a_database(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="is a directory"):
        VerdictStore.open(tmp_path)


def test_new_database_in_new_directory(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "verdicts.sqlite3"
    with VerdictStore.open(path) as store:
        store.give(ITEM, "skip", reviewer="ann")
    raw = sqlite3.connect(path)
    try:
        assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert raw.execute("PRAGMA user_version").fetchone() == (LATEST,)
        versions = raw.execute("SELECT version FROM schema_migrations ORDER BY version")
        assert versions.fetchall() == [(n,) for n in range(1, LATEST + 1)]
    finally:
        raw.close()


def test_path_with_uri_characters(tmp_path: Path) -> None:
    path = tmp_path / "my reviews#1?x=%20" / "verdicts.sqlite3"
    filled(path)
    assert [p.name for p in path.parent.iterdir()] == ["verdicts.sqlite3"]
    with VerdictStore.open(path, readonly=True) as store:
        assert store.count() == 1


def test_empty_file_becomes_a_database(db_path: Path) -> None:
    db_path.touch()
    with pytest.raises(StoreError, match="holds no verdicts yet"):
        VerdictStore.open(db_path, readonly=True)
    with VerdictStore.open(db_path) as store:
        assert store.count() == 0


def test_reopening_runs_no_migration_twice(db_path: Path) -> None:
    filled(db_path)
    filled(db_path)
    raw = sqlite3.connect(db_path)
    try:
        assert raw.execute("SELECT count(*) FROM schema_migrations").fetchone() == (LATEST,)
        assert raw.execute("SELECT count(*) FROM events").fetchone() == (2,)
    finally:
        raw.close()


def test_a_read_only_directory_with_changes_in_the_wal_says_so(tmp_path: Path) -> None:
    # a database copied with its -wal file (its writer had not closed) and without its -shm:
    # SQLite said "unable to open database file"
    source = filled(tmp_path / "live.sqlite3")
    writer = sqlite3.connect(source, isolation_level=None)  # open: the store's close is not
    writer.execute("SELECT count(*) FROM events").fetchone()  # the last, the -wal stays
    with VerdictStore.open(source) as store:
        store.give(ITEM, "refuted", note="only in the wal", reviewer="ann")
    folder = tmp_path / "handed-over"
    folder.mkdir()
    for end in ("", "-wal"):
        shutil.copy(source.with_name(source.name + end), folder / f"verdicts.sqlite3{end}")
    writer.close()
    path = folder / "verdicts.sqlite3"
    assert (folder / "verdicts.sqlite3-wal").stat().st_size > 0
    with read_only(folder):
        message = r"has changes in verdicts.sqlite3-wal that SQLite reads only with a "
        with pytest.raises(StoreError, match=message):
            VerdictStore.open(path, readonly=True)
    with VerdictStore.open(path, readonly=True) as store:  # where it can be written: all there
        assert store.current("ann")[ITEM.key].note == "only in the wal"
