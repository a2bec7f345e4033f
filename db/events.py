"""The history's records: an Event per change, and what is derived from current events alone.

An Event is one row of the append-only ``events`` table; `row_values` and `event_from_row`
convert between the two. Disagreements and stale verdicts are computed here from events, without
the database.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from datetime import UTC, datetime, timedelta
from typing import Any

from db.keys import ItemRef, Verdict, record_quote_hashes
from evidence.model import Record, ReportSet

__all__ = [
    "AT_FORMAT",
    "COLUMNS",
    "MAX_AHEAD",
    "INSERT",
    "SELECT",
    "Disagreement",
    "Event",
    "ImportResult",
    "StaleVerdict",
    "event_from_row",
    "find_disagreements",
    "find_stale",
    "latest_acceptable",
    "later_than",
    "now_at",
    "row_values",
]

#: how event times are stored (UTC, microseconds): sortable as text
AT_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"


@dataclass(frozen=True)
class Event:
    """One row of the history: the state of an item for a reviewer from this moment on."""

    event: str  # unique id
    item: str  # item key (see db.keys)
    report: str  # report identity
    record: str  # record id
    quote: str | None  # quote hash, None for the record itself
    reviewer: str
    verdict: Verdict | None  # None: no verdict (a note alone, or a verdict undone)
    note: str | None
    at: str  # ISO 8601 UTC with microseconds, e.g. 2026-11-29T18:29:19.123456Z
    revision: str | None  # the revision the verdict was given against
    undoes: str | None = None  # for an undo: the id of the event it reverts

    @property
    def ref(self) -> ItemRef:
        """The item this event is about."""
        return ItemRef(self.report, self.record, self.quote)

    @property
    def empty(self) -> bool:
        """Neither a verdict nor a note: the item is back to unreviewed."""
        return self.verdict is None and not self.note

    def to_dict(self) -> dict[str, Any]:
        """The event as the jsonl contract spells it."""
        return {name: getattr(self, name) for name in COLUMNS}


#: the columns of ``events`` that make an Event, in Event's field order
COLUMNS = tuple(field.name for field in fields(Event))
#: the start of a query for whole events: ``f"{SELECT} events WHERE ..."``
SELECT = f"SELECT {', '.join(COLUMNS)} FROM"
#: the statement that appends one event (parameters: `row_values`)
INSERT = f"INSERT INTO events ({', '.join(COLUMNS)}) VALUES ({', '.join('?' for _ in COLUMNS)})"
#: its head, for many at once (db/gathered.py `insert_rows`)
INTO = f"INSERT INTO events ({', '.join(COLUMNS)})"


@dataclass(frozen=True)
class StaleVerdict:
    """A current verdict on something the loaded reports no longer hold."""

    event: Event
    reason: str  # "quote changed" or "record missing"


@dataclass(frozen=True)
class Disagreement:
    """Reviewers whose current verdicts on one item differ (skip is not counted as a verdict)."""

    item: str
    report: str
    record: str
    quote: str | None
    verdicts: tuple[tuple[str, Verdict], ...]  # (reviewer, verdict), by reviewer


@dataclass(frozen=True)
class ImportResult:
    """What merging events into the store did."""

    added: int
    present: int  # already in the store, identical
    conflicts: tuple[str, ...]  # ids already stored with different content (stored one kept)
    items: frozenset[str]  # items the added events touch


def now_at() -> str:
    """The current time in the event timestamp format."""
    return datetime.now(UTC).strftime(AT_FORMAT)


#: how far ahead of this clock a received event may be stamped (clocks differ a little)
MAX_AHEAD = timedelta(minutes=5)


def latest_acceptable() -> str:
    """The latest time a received event may carry: now plus MAX_AHEAD (later ones are refused)."""
    return (datetime.now(UTC) + MAX_AHEAD).strftime(AT_FORMAT)


def later_than(at: str, floor: str | None) -> str:
    """``at``, or one microsecond after ``floor`` when the clock has not moved past it."""
    if floor is None or at > floor:
        return at
    later = datetime.strptime(floor, AT_FORMAT) + timedelta(microseconds=1)
    return later.strftime(AT_FORMAT)


def row_values(event: Event) -> tuple[Any, ...]:
    """The event as the parameters of INSERT."""
    return (
        event.event,
        event.item,
        event.report,
        event.record,
        event.quote,
        event.reviewer,
        None if event.verdict is None else event.verdict.value,
        event.note,
        event.at,
        event.revision,
        event.undoes,
    )


def event_from_row(row: Sequence[Any]) -> Event:
    """The Event of a row selected with SELECT."""
    values = dict(zip(COLUMNS, row, strict=True))
    if values["verdict"] is not None:
        values["verdict"] = Verdict(values["verdict"])
    return Event(**values)


def find_disagreements(
    current: Iterable[Event], items: Iterable[str] | None = None
) -> list[Disagreement]:
    """Items whose current verdicts (skip left out) differ between reviewers, by item key."""
    wanted = set(items) if items is not None else None
    by_item: dict[str, list[Event]] = {}
    for event in current:
        if event.verdict is None or event.verdict is Verdict.SKIP:
            continue
        if wanted is None or event.item in wanted:
            by_item.setdefault(event.item, []).append(event)
    found = []
    for key in sorted(by_item):
        events = by_item[key]
        if len({event.verdict for event in events}) > 1:
            first = events[0]
            verdicts = tuple(sorted((e.reviewer, e.verdict) for e in events if e.verdict))
            found.append(Disagreement(key, first.report, first.record, first.quote, verdicts))
    return found


def find_stale(
    current: Iterable[Event], reportset: ReportSet, reviewer: str | None = None
) -> list[StaleVerdict]:
    """Current verdicts on quotes or records that the loaded reports no longer hold."""
    reports = {report.identity: report for report in reportset.reports}
    # each report's records by id, made at its first verdict: `Report.record` scans them, and a
    # verdict on each of a scan's 119,592 results scanned 135,130 records for each (minutes)
    by_id: dict[str, dict[str, Record]] = {}
    hashes: dict[int, set[str]] = {}  # id(record) -> its quotes' hashes, made once
    found = []
    for event in current:
        if reviewer is not None and event.reviewer != reviewer:
            continue
        report = reports.get(event.report)
        if report is None:
            continue  # a report that is not loaded says nothing about its verdicts
        records = by_id.get(event.report)
        if records is None:
            records = by_id[event.report] = {}
            for each in report.records:  # the first of an id, as `Report.record` finds it
                records.setdefault(each.id, each)
        record = records.get(event.record)
        if record is None:
            found.append(StaleVerdict(event, "record missing"))
        elif event.quote is not None:
            known = hashes.get(id(record))
            if known is None:
                known = hashes[id(record)] = set(record_quote_hashes(record))
            if event.quote not in known:
                found.append(StaleVerdict(event, "quote changed"))
    return found
