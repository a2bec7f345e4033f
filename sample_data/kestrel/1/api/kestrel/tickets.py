"""Equipment tickets: opened by a station, escalated when urgent ones wait too long."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import IntEnum
from pathlib import Path

from kestrel.storage import connect

ESCALATE_AFTER_MINUTES = 15

OPEN_TICKETS_SQL = (
    "SELECT id, station, title, severity, status, opened_at, escalated_at FROM tickets"
    " WHERE status = 'open' AND (? IS NULL OR station = ?) ORDER BY severity DESC, opened_at"
)


class Severity(IntEnum):
    LOW = 1
    NORMAL = 2
    HIGH = 3
    URGENT = 4


class TicketNotFound(LookupError):
    pass


@dataclass(frozen=True)
class Ticket:
    id: int
    station: str
    title: str
    severity: Severity
    status: str
    opened_at: str
    escalated_at: str | None

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "station": self.station,
            "title": self.title,
            "severity": self.severity.name.lower(),
            "status": self.status,
            "opened_at": self.opened_at,
            "escalated_at": self.escalated_at,
        }


def _ticket(row: sqlite3.Row) -> Ticket:
    return Ticket(**{**dict(row), "severity": Severity(row["severity"])})


class TicketStore:
    def __init__(self, path: Path) -> None:
        self._db: sqlite3.Connection = connect(path)

    def open_tickets(self, station: str | None = None) -> list[Ticket]:
        rows = self._db.execute(OPEN_TICKETS_SQL, (station, station)).fetchall()
        return [_ticket(row) for row in rows]

    def open(self, station: str, title: str, severity: Severity, now: datetime) -> Ticket:
        cursor = self._db.execute(
            "INSERT INTO tickets (station, title, severity, status, opened_at)"
            " VALUES (?, ?, ?, 'open', ?)",
            (station, title, int(severity), now.isoformat(timespec="seconds")),
        )
        return self.get(int(cursor.lastrowid or 0))

    def get(self, ticket_id: int) -> Ticket:
        row = self._db.execute(
            "SELECT id, station, title, severity, status, opened_at, escalated_at"
            " FROM tickets WHERE id = ?",
            (ticket_id,),
        ).fetchone()
        if row is None:
            raise TicketNotFound(ticket_id)
        return _ticket(row)

    def close(self, ticket_id: int, now: datetime) -> Ticket:
        self._db.execute(
            "UPDATE tickets SET status = 'closed', closed_at = ? WHERE id = ?",
            (now.isoformat(timespec="seconds"), ticket_id),
        )
        return self.get(ticket_id)

    def escalate(self, ticket_id: int, now: datetime) -> Ticket:
        row = self._db.execute(
            "SELECT id, station, title, severity, status, opened_at, escalated_at"
            " FROM tickets WHERE id = ?",
            (ticket_id,),
        ).fetchone()
        if row is None:
            raise TicketNotFound(ticket_id)
        if row["escalated_at"] is None:
            self._db.execute(
                "UPDATE tickets SET escalated_at = ? WHERE id = ?",
                (now.isoformat(timespec="seconds"), ticket_id),
            )
            self._db.execute(
                "INSERT INTO escalations (ticket_id, escalated_at) VALUES (?, ?)",
                (ticket_id, now.isoformat(timespec="seconds")),
            )
        return self.get(ticket_id)


def is_overdue(ticket: Ticket, now: datetime) -> bool:
    """An urgent or high ticket that has waited past the escalation delay."""
    age = now - datetime.fromisoformat(ticket.opened_at)
    if ticket.severity >= Severity.HIGH and age >= timedelta(minutes=ESCALATE_AFTER_MINUTES):
        return ticket.escalated_at is None
    return False


def escalate_due(store: TicketStore, now: datetime) -> list[Ticket]:
    """Escalate every open ticket that is overdue; returns the tickets it escalated."""
    return [store.escalate(t.id, now) for t in store.open_tickets() if is_overdue(t, now)]
