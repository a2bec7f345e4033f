"""The SQL that changes the store: events appended for verdicts, notes and undos, merged events,
review positions. Each function runs inside the caller's write transaction (db/database.py).
"""

from __future__ import annotations

import dataclasses
import sqlite3
import uuid
from collections.abc import Iterable
from typing import NamedTuple

from db.check import StoreError
from db.event_text import sendable
from db.events import (
    INSERT,
    INTO,
    SELECT,
    Event,
    event_from_row,
    later_than,
    latest_acceptable,
    now_at,
    row_values,
)
from db.gathered import gathered, insert_rows
from db.keys import ItemRef, Verdict

__all__ = [
    "append",
    "give",
    "give_many",
    "import_chunk",
    "latest",
    "new_event",
    "next_at",
    "set_note",
    "set_position",
    "set_sync_state",
    "undo",
    "undo_many",
]

#: item keys (or event ids) asked for in one statement (SQLite's default limit is 32,766)
CHUNK = 500


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
    previous: Event | None,
    undoes: str | None = None,
) -> Event:
    """Append the item's new state for the reviewer, timed after their latest event
    (``previous``: their latest on the item, `latest`, which the caller has read)."""
    if not reviewer.strip():
        raise StoreError("a verdict needs a reviewer name")
    at = _after(next_at(conn, reviewer), [previous.at] if previous else [])
    event = new_event(item, reviewer, verdict, note, at, revision, undoes)
    conn.execute(INSERT, row_values(event))
    return event


def _after(at: str, latest_at: Iterable[str]) -> str:
    """``at``, or just after the items' latest events when one is stamped ahead of this clock:
    received from the reviewer's other machine, whose clock runs ahead (by at most MAX_AHEAD,
    or the sync refused it), it would stay the item's state over the event given now."""
    ceiling = latest_acceptable()  # a later stamp came by no sync: it sets no clock here
    return later_than(at, max((a for a in latest_at if a <= ceiling), default=None))


def next_at(conn: sqlite3.Connection, reviewer: str) -> str:
    """When the reviewer's next events are stamped: now, or just after their latest one here."""
    return later_than(now_at(), _floor(conn, reviewer))


def new_event(
    item: ItemRef,
    reviewer: str,
    verdict: Verdict | None,
    note: str | None,
    at: str,
    revision: str | None,
    undoes: str | None = None,
) -> Event:
    """A new event: the item's state for the reviewer from ``at`` on."""
    return Event(
        uuid.uuid4().hex, item.key, item.report, item.record, item.quote, reviewer, verdict,
        note, at, revision, undoes,
    )  # fmt: skip


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
    return append(conn, item, reviewer, verdict, kept or None, revision, previous=previous)


def set_note(
    conn: sqlite3.Connection, item: ItemRef, text: str, reviewer: str, revision: str | None
) -> Event:
    """The note on the item ("" clears it), keeping the reviewer's current verdict."""
    previous = latest(conn, item.key, reviewer)
    verdict = previous.verdict if previous else None
    return append(conn, item, reviewer, verdict, text or None, revision, previous=previous)


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
        previous=now,
        undoes=target.event,
    )


class State(NamedTuple):
    """One event of an item's history, as much as a group's verdict or undo needs of it."""

    event: str
    verdict: Verdict | None
    note: str | None
    at: str = ""


def histories(conn: sqlite3.Connection, keys: list[str], reviewer: str) -> dict[str, list[State]]:
    """The reviewer's events on each of these items, oldest first (items without any left out)."""
    found: dict[str, list[State]] = {}
    for start in range(0, len(keys), CHUNK):
        part = keys[start : start + CHUNK]
        # gathered into one value (db/gathered.py: a step a row waits on a busy thread), in
        # SQLite's order: sorted here; by item first in the index (by time alone, SQLite walks
        # every event of the reviewer for each chunk)
        rows = gathered(
            conn,
            f"""SELECT json_group_array(json_array(item, at, event, verdict, note)) FROM events
            WHERE reviewer = ? AND item IN ({", ".join("?" * len(part))})""",
            (reviewer, *part),
        )
        for item, at, event, verdict, note in sorted(rows):
            state = State(event, Verdict(verdict) if verdict is not None else None, note, at)
            found.setdefault(item, []).append(state)
    return found


def _floor(conn: sqlite3.Connection, reviewer: str) -> str | None:
    # the reviewer's latest event written here; a received one (maybe stamped in 2099) never
    # sets this database's clock
    row = conn.execute(
        """SELECT at FROM events AS e WHERE reviewer = ?
        AND NOT EXISTS (SELECT 1 FROM imported_events AS i WHERE i.event = e.event)
        ORDER BY at DESC, event DESC LIMIT 1""",
        (reviewer,),
    ).fetchone()
    return row[0] if row else None


def _append_all(conn: sqlite3.Connection, events: list[Event]) -> list[Event]:
    insert_rows(conn, INTO, [row_values(event) for event in events])
    return events


def give_many(
    conn: sqlite3.Connection,
    items: list[ItemRef],
    verdict: Verdict,
    reviewer: str,
    revision: str | None,
    note: str = "",
) -> list[Event]:
    """One verdict on many items at once, stamped alike: one event each. Each keeps its note;
    ``note`` is added to each (a line of its own after a note the item has)."""
    if not reviewer.strip():
        raise StoreError("a verdict needs a reviewer name")
    unique = list({item.key: item for item in items}.values())
    before = histories(conn, [item.key for item in unique], reviewer)
    at = _after(next_at(conn, reviewer), (states[-1].at for states in before.values()))
    kept = {key: states[-1].note for key, states in before.items()}
    return _append_all(
        conn,
        [
            new_event(item, reviewer, verdict, _joined(kept.get(item.key), note), at, revision)
            for item in unique
        ],
    )


def _joined(kept: str | None, added: str) -> str | None:
    if not added or (kept or "").splitlines()[-1:] == [added]:
        return kept or None
    return f"{kept.rstrip()}\n{added}" if kept and kept.strip() else added


def undo_many(conn: sqlite3.Connection, reviewer: str, events: list[str]) -> list[Event]:
    """Revert these changes of the reviewer at once, each one not undone yet whose item is still
    as it left it (the others are left as they are); the events appended, one per change."""
    targets: list[Event] = []
    for start in range(0, len(events), CHUNK):
        part = events[start : start + CHUNK]
        # found by id: `+` keeps SQLite off the reviewer's and undoes' indexes, which walk
        # every event of the reviewer for each chunk
        rows = conn.execute(
            f"""{SELECT} events AS e WHERE event IN ({", ".join("?" * len(part))})
            AND +reviewer = ? AND +undoes IS NULL
            AND NOT EXISTS (SELECT 1 FROM events AS u WHERE u.undoes = e.event)""",
            (*part, reviewer),
        )
        targets.extend(map(event_from_row, rows))
    history = histories(conn, list({target.item for target in targets}), reviewer)
    at = _after(next_at(conn, reviewer), (states[-1].at for states in history.values()))
    reverted: list[Event] = []
    for target in targets:
        states = history[target.item]
        now = states[-1]
        if (now.verdict, now.note) != (target.verdict, target.note):
            continue  # changed again since: reverting would undo that too
        at_target = next(n for n, state in enumerate(states) if state.event == target.event)
        previous = states[at_target - 1] if at_target else None
        verdict, note = (previous.verdict, previous.note) if previous else (None, None)
        reverted.append(
            new_event(target.ref, reviewer, verdict, note, at, target.revision, target.event)
        )
    return _append_all(conn, reverted)


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
        elif stored == event or _pictured(stored) == event:
            present += 1
        else:
            conflicts.append(event.event)
    insert_rows(conn, INTO, [row_values(event) for event in new])
    insert_rows(conn, "INSERT OR IGNORE INTO imported_events (event)", [(e.event,) for e in new])
    return new, present, conflicts


def _pictured(event: Event) -> Event:
    """A stored event as `assay import` takes it now: an older import stored a note's
    terminal controls as they came, and its own export read back is still the same event."""
    if event.note is None or sendable(event.note) == event.note:
        return event
    return dataclasses.replace(event, note=sendable(event.note))


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
