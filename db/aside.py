"""Changes kept aside when a program quits while another process holds the database locked.

A program that cannot wait for the lock (the review app quitting) makes a copy of the database
beside it (SQLite's backup reads it: a writer's lock does not stop readers of a WAL database),
gives its unsaved changes to the copy, and names the copy ``<database>.aside-<id>`` once it is
closed, whole. The next open of the database for writing saves the events of every such copy
into it (the ids it does not hold yet, as its own events) and deletes the copy. Registrations and
review positions in a copy are not taken: the next review writes them again.
"""

from __future__ import annotations

import functools
import os
import sqlite3
import threading
import uuid
from pathlib import Path

from db import reads
from db.check import StoreError, connect, store_error
from db.database import Database
from db.events import INTO, Event, row_values
from db.gathered import insert_rows

__all__ = ["AsideDatabase", "aside_files", "take_aside"]

#: what a copy's name adds to the database's; a copy being written ends in PART as well
MARK = ".aside-"
PART = ".part"


def aside_files(path: Path) -> list[Path]:
    """The copies kept aside for the database at ``path``, whole (closed), oldest name first."""
    return sorted(
        found
        for found in path.parent.glob(f"{path.name}{MARK}*")
        if not found.name.endswith((PART, "-wal", "-shm", "-journal"))
    )


class AsideDatabase(Database):
    """A copy of a database, to take changes that cannot wait for its lock; closing it names it
    as a whole copy (`aside_files`), which the database's next open takes."""

    whole: Path  # the name the copy takes once closed

    @classmethod
    def beside(cls, path: Path) -> AsideDatabase:
        """A new copy of the database at ``path`` (an empty database when there is none yet)."""
        name = f"{path.name}{MARK}{uuid.uuid4().hex[:12]}"
        part = path.with_name(name + PART)
        if path.exists() and path.stat().st_size:
            source = connect(path, "ro")
            target = sqlite3.connect(part)
            try:
                source.backup(target)
            except sqlite3.Error as error:
                raise store_error(path, error, "copying the database aside") from None
            finally:
                target.close()
                source.close()
        opened = cls.open(part, readonly=False, stop=threading.Event())
        assert isinstance(opened, AsideDatabase)
        opened.whole = path.with_name(name)
        return opened

    def close(self) -> None:
        """Close the copy, then give it its whole name (SQLite merged its -wal file on close)."""
        closing = not self._closed
        super().close()
        if closing:
            os.replace(self.path, self.whole)
            self.path = self.whole


def take_aside(database: Database) -> int:
    """Save the events of the copies kept aside for ``database`` into it, then delete them;
    the number of events saved. A copy that cannot be read or saved now stays for a later open."""
    taken = 0
    for copy in aside_files(database.path):
        try:
            events = _events_of(copy)
            taken += database.run(
                "saving changes kept aside",
                functools.partial(_add_new, events=events),
                write=True,
            )
        except StoreError:
            continue
        for suffix in ("", "-wal", "-shm"):
            copy.with_name(copy.name + suffix).unlink(missing_ok=True)
    return taken


def _events_of(copy: Path) -> list[Event]:
    kept = Database.open(copy, readonly=True)
    try:
        return kept.run(
            "reading changes kept aside",
            functools.partial(reads.events, reviewer=None),
            write=False,
        )
    finally:
        kept.close()


def _add_new(conn: sqlite3.Connection, events: list[Event]) -> int:
    known = reads.known(conn, [event.event for event in events])
    new = [event for event in events if event.event not in known]
    insert_rows(conn, INTO, [row_values(event) for event in new])
    return len(new)
