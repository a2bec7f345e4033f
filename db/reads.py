"""The SQL that reads the store: current verdicts, history, events for export, counts, review
positions. Each function runs inside the caller's read snapshot (db/database.py).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

from db.events import COLUMNS, SELECT, Event, event_from_row
from db.follow import follow
from db.gathered import gathered

__all__ = [
    "count",
    "current",
    "current_all",
    "current_of",
    "contested",
    "events",
    "history",
    "integrity_check",
    "json_rows",
    "known",
    "position",
    "reviewers",
    "sync_state",
]


def current(conn: sqlite3.Connection, reviewer: str) -> dict[str, Event]:
    """The reviewer's current verdicts and notes, by item key (unreviewed items left out)."""
    rows = conn.execute(f"{SELECT} current_verdicts WHERE reviewer = ?", (reviewer,)).fetchall()
    return {event.item: event for event in map(event_from_row, rows) if not event.empty}


#: rows gathered into one JSON array by SQLite per step of `_current_rows`
GATHERED = 20_000
_ITEM, _REVIEWER = COLUMNS.index("item"), COLUMNS.index("reviewer")


def current_all(conn: sqlite3.Connection) -> list[Event]:
    """Every reviewer's current verdicts and notes, ordered by item then reviewer, each on the
    result its finding is now (db/follow.py: a teammate's, given before a rescan moved it)."""
    everyone = follow(conn, [event_from_row(row) for row in _current_rows(conn)])
    return [event for event in everyone if not event.empty]


def contested(conn: sqlite3.Connection) -> set[str]:
    """The items more than one reviewer has an event on: where reviewers can disagree (read
    from the events' (item, reviewer) index, one step)."""
    return set(
        gathered(
            conn,
            "SELECT json_group_array(item) FROM (SELECT item FROM events GROUP BY item "
            "HAVING count(DISTINCT reviewer) > 1)",
        )
    )


#: items asked for in one statement by `current_of`
_PER_QUERY = 500


def current_of(conn: sqlite3.Connection, items: Sequence[str]) -> list[Event]:
    """The current verdicts and notes of these items, ordered by item then reviewer."""
    columns = ", ".join(COLUMNS)
    rows: list[list[Any]] = []
    for start in range(0, len(items), _PER_QUERY):
        part = list(items[start : start + _PER_QUERY])
        rows += gathered(
            conn,
            f"SELECT json_group_array(json_array({columns})) FROM current_verdicts "
            f"WHERE item IN ({', '.join('?' * len(part))})",
            part,
        )
    rows.sort(key=lambda row: (row[_ITEM], row[_REVIEWER]))
    return [event for event in map(event_from_row, rows) if not event.empty]


def _current_rows(conn: sqlite3.Connection) -> list[list[Any]]:
    """The current_verdicts view's rows by (item, reviewer), GATHERED at a time into one value.

    Python's sqlite3 lets other threads run at every row it steps through (it releases the GIL
    around each step), and takes it back only when a busy thread gives it up: the app's 121,936
    current verdicts took 1 s alone and 87 s beside one busy thread (the UI, the anchoring).
    Gathered by SQLite, a step is thousands of rows: 0.8 s either way.
    """
    columns = ", ".join(COLUMNS)
    query = (
        f"SELECT json_group_array(json_array({columns})), count(*) FROM ("
        f"SELECT * FROM current_verdicts WHERE (item, reviewer) > (?, ?)"
        f" ORDER BY item, reviewer LIMIT {GATHERED})"
    )
    rows: list[list[Any]] = []
    after = ("", "")
    while True:
        text, count = conn.execute(query, after).fetchone()
        # the aggregate's order is SQLite's choice: the LIMIT picked the next rows, sorted here
        chunk = sorted(json.loads(text), key=lambda row: (row[_ITEM], row[_REVIEWER]))
        rows += chunk
        if count < GATHERED:
            return rows
        after = (chunk[-1][_ITEM], chunk[-1][_REVIEWER])


def history(conn: sqlite3.Connection, item_key: str) -> list[Event]:
    """Every event on an item, by every reviewer, oldest first."""
    rows = conn.execute(
        f"{SELECT} events WHERE item = ? ORDER BY at, event", (item_key,)
    ).fetchall()
    return [event_from_row(row) for row in rows]


def events(conn: sqlite3.Connection, reviewer: str | None) -> list[Event]:
    """All events (or one reviewer's), in the stable export order (at, event)."""
    if reviewer is None:
        cursor = conn.execute(f"{SELECT} events ORDER BY at, event")
    else:
        cursor = conn.execute(f"{SELECT} events WHERE reviewer = ? ORDER BY at, event", (reviewer,))
    return [event_from_row(row) for row in cursor]


def json_rows(conn: sqlite3.Connection, names: Sequence[str], reviewer: str | None) -> list[str]:
    """Events as compact JSON objects with these keys in this order, encoded by SQLite.

    ``names`` must be columns of COLUMNS (the store checks them: they become SQL).
    """
    pairs = ", ".join(f"'{name}', {name}" for name in names)
    select = f"SELECT json_object({pairs}) FROM events"
    if reviewer is None:
        cursor = conn.execute(f"{select} ORDER BY at, event")
    else:
        cursor = conn.execute(f"{select} WHERE reviewer = ? ORDER BY at, event", (reviewer,))
    return [row[0] for row in cursor]


def json_rows_by_report(
    conn: sqlite3.Connection, names: Sequence[str], reviewer: str
) -> list[tuple[str, str]]:
    """A reviewer's events as (report, compact JSON object) in (at, event) order (`json_rows`)."""
    pairs = ", ".join(f"'{name}', {name}" for name in names)
    cursor = conn.execute(
        f"SELECT report, json_object({pairs}) FROM events WHERE reviewer = ? ORDER BY at, event",
        (reviewer,),
    )
    return [(str(row[0]), str(row[1])) for row in cursor]


def known(conn: sqlite3.Connection, ids: Sequence[str]) -> set[str]:
    """The ids among ``ids`` of events the store holds."""
    found: set[str] = set()
    for start in range(0, len(ids), 500):
        part = ids[start : start + 500]
        rows = conn.execute(
            f"SELECT event FROM events WHERE event IN ({', '.join('?' for _ in part)})", part
        )
        found.update(str(row[0]) for row in rows)
    return found


def sync_state(conn: sqlite3.Connection, prefix: str) -> dict[str, str]:
    """The sync state values whose key starts with ``prefix`` (none before migration 3)."""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'sync_state'").fetchone() is None:
        return {}
    rows = conn.execute(
        "SELECT key, value FROM sync_state WHERE substr(key, 1, ?) = ?", (len(prefix), prefix)
    )
    return {str(key): str(value) for key, value in rows}


def count(conn: sqlite3.Connection, reviewer: str | None) -> int:
    """The number of events stored (of one reviewer, if given)."""
    if reviewer is None:
        return int(conn.execute("SELECT count(*) FROM events").fetchone()[0])
    sql = "SELECT count(*) FROM events WHERE reviewer = ?"
    return int(conn.execute(sql, (reviewer,)).fetchone()[0])


def reviewers(conn: sqlite3.Connection) -> list[str]:
    """Everyone who has an event in the store, sorted."""
    return [row[0] for row in conn.execute("SELECT DISTINCT reviewer FROM events ORDER BY 1")]


def position(conn: sqlite3.Connection, review_key: str) -> str | None:
    """The record id where this review stopped, if any."""
    row = conn.execute("SELECT record FROM positions WHERE review = ?", (review_key,)).fetchone()
    return str(row[0]) if row else None


def integrity_check(conn: sqlite3.Connection) -> list[str]:
    """SQLite's full integrity check; ["ok"] when the file is sound."""
    return [str(row[0]) for row in conn.execute("PRAGMA integrity_check")]
