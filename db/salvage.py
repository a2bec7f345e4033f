"""What a damaged verdict database still holds: its events, read where they can be read
(`salvage`), for `assay export --salvage`, so that a database SQLite calls malformed (a copy cut
short, a disk error) loses only the events on its damaged pages, not all of them.

The file is opened read-only and never changed. SQLite reads the events first (its -wal file
included), by their ``seq`` (the table's own key, no index) in runs, a run it cannot read
halved until the rows it cannot read are known one by one. When it cannot read them all (or
the schema at all: a copy cut short), the file's pages are read too (db/salvage_pages.py). A
row is kept only as an event `assay import` takes; the same event found twice is one.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from db.check import StoreError, connect, needs_immutable
from db.events import COLUMNS, SELECT, Event, event_from_row
from db.export import event_line, parse_event
from db.salvage_pages import Value, leaf_rows
from evidence.text import shown_path

__all__ = ["Salvaged", "salvage"]

#: rows read at once while the pages read well
_RUN = 512


@dataclass
class Salvaged:
    """The events read from a damaged database, in the order they were written (``seq``), and
    the ``seq`` of the rows that could not be read."""

    events: list[Event] = field(default_factory=list)
    lost: list[int] = field(default_factory=list)
    #: how many rows there were is not known (the table's last rows unreadable): rows after the
    #: last one read may be lost too
    open_ended: bool = False
    #: SQLite could not read the schema: the events were read from the file's pages alone
    pages_only: bool = False


def salvage(path: Path) -> Salvaged:
    """Every event that can still be read in the database at ``path``; StoreError when none
    can (not an SQLite file, or not assay's)."""
    found: dict[int, Event] = {}
    last, complete, schema = _by_sqlite(path, found)
    if not complete:
        _by_pages(path, found)
    if not found and not schema:
        raise StoreError(
            f"nothing can be read from {shown_path(path)}: no page of it holds assay's events"
        )
    known = max(last or 0, max(found, default=0))
    return Salvaged(
        events=[found[seq] for seq in sorted(found)],
        lost=[seq for seq in range(1, known + 1) if seq not in found],
        open_ended=last is None,
        pages_only=not schema,
    )


def _by_sqlite(path: Path, found: dict[int, Event]) -> tuple[int | None, bool, bool]:
    """The events SQLite reads into ``found`` by seq: (the last seq, None when not known;
    whether every row up to it was read; whether the schema could be read)."""
    mode = "ro&immutable=1" if needs_immutable(path) else "ro"
    conn = connect(path, mode)
    try:
        try:
            columns = [row[1] for row in conn.execute("PRAGMA table_info(events)")]
        except sqlite3.DatabaseError:
            return None, False, False
        if not set(COLUMNS) <= set(columns):
            raise StoreError(
                f"nothing can be read from {shown_path(path)}: it holds no table of assay's events"
            )
        last: int | None
        try:
            (last,) = conn.execute("SELECT coalesce(max(seq), 0) FROM events").fetchone()
        except sqlite3.DatabaseError:
            last = None
        bound = last if last is not None else _count_bound(conn)
        for first in range(1, bound + 1, _RUN):
            _read(conn, first, min(bound, first + _RUN - 1), found)
        # a scan that meets a damaged page may stop there without an error: the rows it did
        # not give are asked for again, run by run
        for first, end in _gaps(found, bound):
            _read(conn, first, end, found)
        return last, last is not None and len(found) == last, True
    finally:
        conn.close()


def _gaps(found: dict[int, Event], bound: int) -> list[tuple[int, int]]:
    """The runs of seq up to ``bound`` that ``found`` lacks."""
    runs: list[tuple[int, int]] = []
    for seq in range(1, bound + 1):
        if seq not in found:
            if runs and runs[-1][1] == seq - 1:
                runs[-1] = (runs[-1][0], seq)
            else:
                runs.append((seq, seq))
    return runs


def _count_bound(conn: sqlite3.Connection) -> int:
    """Where to stop reading by seq when the last one is not known: the rows SQLite counts, if
    it can, else none (the pages are read instead)."""
    try:
        return int(conn.execute("SELECT count(*) FROM events").fetchone()[0])
    except sqlite3.DatabaseError:
        return 0


def _read(conn: sqlite3.Connection, first: int, last: int, found: dict[int, Event]) -> None:
    """The rows ``first``..``last`` into ``found``: a run that cannot be read, halved."""
    try:
        rows = conn.execute(
            f"{SELECT.replace('SELECT ', 'SELECT seq, ', 1)} events"
            " WHERE seq BETWEEN ? AND ? ORDER BY seq",
            (first, last),
        ).fetchall()
    except sqlite3.DatabaseError:
        if first < last:
            middle = (first + last) // 2
            _read(conn, first, middle, found)
            _read(conn, middle + 1, last, found)
        return
    for seq, *values in rows:
        event = _event(values)
        if event is not None:
            found[seq] = event


def _by_pages(path: Path, found: dict[int, Event]) -> None:
    """The events on the file's table pages (an events row: the seq as its rowid, then the
    eleven columns after a NULL, SQLite's place for an INTEGER PRIMARY KEY)."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise StoreError(f"cannot read {shown_path(path)}: {error.strerror or error}") from None
    for rowid, values in leaf_rows(data):
        if len(values) == len(COLUMNS) + 1 and values[0] is None and rowid not in found:
            event = _event(values[1:])
            if event is not None:
                found[rowid] = event


def _event(values: list[Value]) -> Event | None:
    """The row as `assay import` would take it back, or None when it is not an event."""
    try:
        event = event_from_row(values)
        return parse_event(json.loads(event_line(event)), "salvaged")
    except (StoreError, ValueError, TypeError):
        return None
