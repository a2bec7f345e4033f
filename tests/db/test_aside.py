"""Writes that cannot wait for another process's lock: stopped on request, kept in a copy beside
the database, saved by its next open for writing (db/aside.py)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from db import ItemRef, LockedOut, Verdict, VerdictStore
from db.aside import aside_files

ITEM = ItemRef("S/runtime", "R1")


def test_a_write_waiting_for_the_lock_stops_when_told(tmp_path: Path) -> None:
    path = tmp_path / "v.db"
    stop = threading.Event()
    store = VerdictStore.open(path, stop=stop)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    outcome: list[BaseException | object] = []

    def give() -> None:
        try:
            outcome.append(store.give(ITEM, "confirmed", reviewer="ann"))
        except BaseException as error:
            outcome.append(error)

    writer = threading.Thread(target=give)
    writer.start()
    stop.set()
    writer.join(60)  # a bound against hanging, not a measure
    holder.close()
    assert not writer.is_alive()
    [error] = outcome
    assert isinstance(error, LockedOut) and "locked by another process" in str(error)
    assert store.current("ann") == {}
    store.close()


def test_changes_kept_aside_are_saved_by_the_next_open_once(tmp_path: Path) -> None:
    path = tmp_path / "v.db"
    with VerdictStore.open(path) as store:
        before = store.give(ITEM, "refuted", note="first look", reviewer="ann")
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # the copy is read while another process writes
    aside = VerdictStore.aside(path)
    part = aside.path
    kept = aside.give(ITEM, "confirmed", reviewer="ann")  # keeps the note, as in the database
    aside.close()
    holder.close()
    assert not part.exists() and aside_files(path) == [aside.path]
    assert kept.note == "first look" and kept.at > before.at
    with VerdictStore.open(path) as store:
        assert store.current("ann")[ITEM.key] == kept
        assert [event.event for event in store.events()] == [before.event, kept.event]
    assert aside_files(path) == []
    with VerdictStore.open(path) as store:  # taken once: nothing doubled
        assert len(store.events()) == 2


def test_a_copy_still_being_written_is_not_taken(tmp_path: Path) -> None:
    path = tmp_path / "v.db"
    VerdictStore.open(path).close()
    aside = VerdictStore.aside(path)
    aside.give(ITEM, "unclear", reviewer="ann")
    with VerdictStore.open(path) as store:
        assert store.current("ann") == {}
    aside.close()
    with VerdictStore.open(path) as store:
        assert store.current("ann")[ITEM.key].verdict is Verdict.UNCLEAR


def test_a_readonly_open_leaves_the_copies_for_a_writer(tmp_path: Path) -> None:
    path = tmp_path / "v.db"
    VerdictStore.open(path).close()
    aside = VerdictStore.aside(path)
    aside.give(ITEM, "unclear", reviewer="ann")
    aside.close()
    with VerdictStore.open(path, readonly=True) as store:
        assert store.current("ann") == {}
    assert len(aside_files(path)) == 1


@pytest.mark.parametrize("damage", [b"", b"not a database, and long enough to be read" * 90])
def test_an_unreadable_copy_stays_and_the_database_opens(tmp_path: Path, damage: bytes) -> None:
    path = tmp_path / "v.db"
    VerdictStore.open(path).close()
    copy = path.with_name(path.name + ".aside-0123456789ab")
    copy.write_bytes(damage)
    with VerdictStore.open(path) as store:
        assert store.current("ann") == {}
    assert copy.exists()
