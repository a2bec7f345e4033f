"""Field notes: free text written at a station, optionally tied to a ticket."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from kestrel.storage import connect

MAX_NOTE_BYTES = 64_000
DEFAULT_TITLE = "Relevé de terrain — sans titre"


class NoteTooLarge(ValueError):
    def __init__(self, size: int) -> None:
        super().__init__(f"note is {size} bytes; the limit is {MAX_NOTE_BYTES}")


@dataclass(frozen=True)
class Note:
    id: int
    station: str
    title: str
    body: str
    ticket_id: int | None
    written_at: str
    synced: bool

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "station": self.station,
            "title": self.title,
            "body": self.body,
            "ticket": self.ticket_id,
            "written_at": self.written_at,
            "synced": self.synced,
        }


class NoteStore:
    def __init__(self, path: Path) -> None:
        self._db: sqlite3.Connection = connect(path)

    def add(self, station: str, body: str, title: str = "", ticket_id: int | None = None) -> Note:
        if len(body.encode("utf-8")) > MAX_NOTE_BYTES:
            raise NoteTooLarge(len(body.encode("utf-8")))
        written_at = datetime.now(UTC).isoformat(timespec="seconds")
        cursor = self._db.execute(
            "INSERT INTO notes (station, title, body, ticket_id, written_at, synced)"
            " VALUES (?, ?, ?, ?, ?, 0)",
            (station, title.strip() or DEFAULT_TITLE, body, ticket_id, written_at),
        )
        return self.get(int(cursor.lastrowid or 0))

    def get(self, note_id: int) -> Note:
        row = self._db.execute("SELECT * FROM notes WHERE id = ?", (note_id,)).fetchone()
        return Note(**{**dict(row), "synced": bool(row["synced"])})

    def unsynced(self, limit: int = 100) -> list[Note]:
        rows = self._db.execute(
            "SELECT * FROM notes WHERE synced = 0 ORDER BY id LIMIT ?", (limit,)
        ).fetchall()
        return [Note(**{**dict(row), "synced": False}) for row in rows]

    def mark_synced(self, note_ids: list[int]) -> None:
        self._db.executemany("UPDATE notes SET synced = 1 WHERE id = ?", [(i,) for i in note_ids])
