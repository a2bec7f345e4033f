"""The SQL that changes the store: events appended for verdicts, notes and undos, merged events,
review positions. Each function runs inside the caller's write transaction (db/database.py).
"""

from __future__ import annotations

import sqlite3
import uuid

from db.check import StoreError
from db.events import (
    INSERT,
    SELECT,
    Event,
    event_from_row,
    later_than,
    now_at,
    row_values,
)
from db.keys import ItemRef, Verdict

__all__ = [
    "append",
    "give",
    "import_chunk",
    "latest",
    "set_note",
    "set_position",
    "set_sync_state",
    "undo",
]


def latest(conn: sqlite3.Connection, item_key: str, reviewer: str) -> Event | None:
    """The reviewer's latest event on an item: its current state."""
    row = conn.execute(
        f"""{SELECT} events WHERE item = ? AND reviewer = ?
        ORDER BY at DESC, event DESC LIMIT 1""",
        (item_key, reviewer),
    ).fetchone()
    return event_from_row(row) if row else None


def append(
    conn: sqlite3.Connection,
    item: ItemRef,
    reviewer: str,
    verdict: Verdict | None,
    note: str | None,
    revision: str | None,
    *,
    undoes: str | None = None,
) -> Event:
    """Append the item's new state for the reviewer, timed after their latest event."""
    if not reviewer.strip():
        raise StoreError("a verdict needs a reviewer name")
    # after the reviewer's latest event written here; a received one (maybe stamped in 2099)
    # never sets this database's clock
    row = conn.execute(
        """SELECT at FROM events AS e WHERE reviewer = ?
        AND NOT EXISTS (SELECT 1 FROM imported_events AS i WHERE i.event = e.event)
        ORDER BY at DESC, event DESC LIMIT 1""",
        (reviewer,),
    ).fetchone()
    floor = row[0] if row else None
    event = Event(
        event=uuid.uuid4().hex,
        item=item.key,
        report=item.report,
        record=item.record,
        quote=item.quote,
        reviewer=reviewer,
        verdict=verdict,
        note=note,
        at=later_than(now_at(), floor),
        revision=revision,
        undoes=undoes,
    )
    conn.execute(INSERT, row_values(event))
    return event


def give(
    conn: sqlite3.Connection,
    item: ItemRef,
    verdict: Verdict,
    note: str | None,
    reviewer: str,
    revision: str | None,
) -> Event:
    """A verdict on the item; note None keeps the current note."""
    previous = latest(conn, item.key, reviewer)
    kept = note if note is not None else (previous.note if previous else None)
    return append(conn, item, reviewer, verdict, kept or None, revision)


def set_note(
    conn: sqlite3.Connection, item: ItemRef, text: str, reviewer: str, revision: str | None
) -> Event:
    """The note on the item ("" clears it), keeping the reviewer's current verdict."""
    previous = latest(conn, item.key, reviewer)
    verdict = previous.verdict if previous else None
    return append(conn, item, reviewer, verdict, text or None, revision)


def undo(conn: sqlite3.Connection, reviewer: str, event: str | None = None) -> Event | None:
    """Revert the reviewer's latest change not undone yet (or ``event``, while the item is still
    as that change left it); None when there is none."""
    one = "AND e.event = ?" if event is not None else ""
    row = conn.execute(
        f"""{SELECT} events AS e WHERE reviewer = ? AND undoes IS NULL {one}
        AND NOT EXISTS (SELECT 1 FROM events AS u WHERE u.undoes = e.event)
        ORDER BY at DESC, event DESC LIMIT 1""",
        (reviewer, event) if event is not None else (reviewer,),
    ).fetchone()
    if row is None:
        return None
    target = event_from_row(row)
    now = latest(conn, target.item, reviewer)
    if event is not None and (
        now is None or (now.verdict, now.note) != (target.verdict, target.note)
    ):
        return None  # changed again since (elsewhere): reverting would undo that too
    before = conn.execute(
        f"""{SELECT} events WHERE item = ? AND reviewer = ? AND (at, event) < (?, ?)
        ORDER BY at DESC, event DESC LIMIT 1""",
        (target.item, reviewer, target.at, target.event),
    ).fetchone()
    previous = event_from_row(before) if before else None
    return append(
        conn,
        target.ref,
        reviewer,
        previous.verdict if previous else None,
        previous.note if previous else None,
        target.revision,
        undoes=target.event,
    )


def import_chunk(
    conn: sqlite3.Connection, chunk: list[Event], seen: dict[str, Event]
) -> tuple[list[Event], int, list[str]]:
    """Insert the events of ``chunk`` not stored yet; (added, already present, conflicting ids).

    ``seen`` holds the events met so far by id (stored or added), across the chunks of a merge.
    """
    ids = [event.event for event in chunk if event.event not in seen]
    for start in range(0, len(ids), 500):
        part = ids[start : start + 500]
        rows = conn.execute(
            f"{SELECT} events WHERE event IN ({', '.join('?' for _ in part)})", part
        )
        seen.update((event.event, event) for event in map(event_from_row, rows))
    new: list[Event] = []
    present = 0
    conflicts: list[str] = []
    for event in chunk:
        stored = seen.get(event.event)
        if stored is None:
            seen[event.event] = event
            new.append(event)
        elif stored == event:
            present += 1
        else:
            conflicts.append(event.event)
    conn.executemany(INSERT, map(row_values, new))
    conn.executemany(
        "INSERT OR IGNORE INTO imported_events (event) VALUES (?)", [(e.event,) for e in new]
    )
    return new, present, conflicts


def set_position(conn: sqlite3.Connection, review_key: str, record_id: str) -> None:
    """Remember the record a review is on."""
    conn.execute(
        "INSERT INTO positions (review, record, at) VALUES (?, ?, ?) "
        "ON CONFLICT (review) DO UPDATE SET record = excluded.record, at = excluded.at",
        (review_key, record_id, now_at()),
    )


def set_sync_state(conn: sqlite3.Connection, values: dict[str, str]) -> None:
    """Store sync state values by key (replacing those stored under the same keys)."""
    conn.executemany(
        "INSERT INTO sync_state (key, value) VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        list(values.items()),
    )
