"""The verdict store: an append-only history of verdicts and notes in one SQLite file.

Every change is a new row of ``events`` (triggers refuse UPDATE and DELETE); the current verdict
of a reviewer on an item is the latest of their events on it, ordered by ``(at, event)``. Writes
are short ``BEGIN IMMEDIATE`` transactions on a WAL database with ``synchronous=FULL``, so a verdict
whose ``give`` returned survives a crash, and several assay processes can share one file.

Opening, reading and writing verdicts use the standard library's sqlite3 alone; sqlite_utils (a
tenth of a second to import) is imported only to create or migrate the schema and to register
report items, so the review app never waits for it before its first frame. The checks made on
opening, `StoreError` and `check_database` live in db/check.py (which imports neither this module
nor db.schema) and are importable from here too.
"""

from __future__ import annotations

import functools
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from db import schema
from db.check import BUSY_TIMEOUT as BUSY_TIMEOUT
from db.check import StoreError as StoreError
from db.check import _check_file, _check_version, _connect, _error, _needs_immutable, _verify
from db.check import check_database as check_database
from db.check import default_path as default_path
from db.keys import ItemRef, Verdict, make_key, record_quote_hashes
from evidence.model import Anchor, Quote, ReportSet

if TYPE_CHECKING:
    import sqlite_utils

#: events merged per write transaction by import_events
IMPORT_BATCH = 2000

#: how event times are stored (UTC, microseconds): sortable as text
AT_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"
_COLUMNS = (
    "event",
    "item",
    "report",
    "record",
    "quote",
    "reviewer",
    "verdict",
    "note",
    "at",
    "revision",
    "undoes",
)
_SELECT = f"SELECT {', '.join(_COLUMNS)} FROM"

T = TypeVar("T")


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
        return {name: getattr(self, name) for name in _COLUMNS}


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


def _after(at: str, floor: str | None) -> str:
    """``at``, or one microsecond after ``floor`` when the clock has not moved past it."""
    if floor is None or at > floor:
        return at
    later = datetime.strptime(floor, AT_FORMAT) + timedelta(microseconds=1)
    return later.strftime(AT_FORMAT)


_INSERT = f"INSERT INTO events ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' for _ in _COLUMNS)})"


def _values(event: Event) -> tuple[Any, ...]:
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


def _event(row: tuple[Any, ...]) -> Event:
    values = dict(zip(_COLUMNS, row, strict=True))
    if values["verdict"] is not None:
        values["verdict"] = Verdict(values["verdict"])
    return Event(**values)


class VerdictStore:
    """Verdicts, notes, their history and review positions in one SQLite database."""

    def __init__(self, path: Path, conn: sqlite3.Connection, *, readonly: bool) -> None:
        self.path = path
        self.readonly = readonly
        self._conn = conn
        self._db_utils: sqlite_utils.Database | None = None
        self._lock = threading.RLock()
        self._closed = False

    @property
    def _db(self) -> sqlite_utils.Database:
        """sqlite_utils on the store's connection, imported on first use (schema and items)."""
        if self._db_utils is None:
            import sqlite_utils

            self._db_utils = sqlite_utils.Database(self._conn, execute_plugins=False)
        return self._db_utils

    # --- opening -------------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | Path | None = None, *, readonly: bool = False) -> VerdictStore:
        """Open (creating it unless readonly) the database; StoreError when it cannot be used."""
        path = Path(path) if path is not None else default_path()
        path = path.expanduser()
        _check_file(path, readonly=readonly)
        mode = "ro" if readonly else "rwc"
        if readonly and _needs_immutable(path):
            # WAL readers need to create the -shm file; where they cannot, and no -wal holds
            # unmerged changes, the file can only be read as immutable.
            mode = "ro&immutable=1"
        conn = _connect(path, mode, check_same_thread=False)
        store = cls(path, conn, readonly=readonly)
        try:
            store._prepare()
        except BaseException:
            conn.close()
            raise
        return store

    def _prepare(self) -> None:
        conn = self._conn
        _verify(conn, self.path)
        try:
            if not self.readonly:
                self._retry(lambda: conn.execute("PRAGMA journal_mode = WAL").fetchone())
                conn.execute("PRAGMA synchronous = FULL")
                if schema.version(conn) < schema.LATEST:
                    self._write(self._migrate)
            elif schema.version(conn) == 0:
                raise StoreError(f"{self.path} holds no verdicts yet (it is an empty database)")
        except sqlite3.Error as error:
            raise self._error(error, "opening") from None

    def _migrate(self) -> None:
        # again, under the write lock: another process may have migrated meanwhile
        _check_version(self._conn, self.path)
        schema.migrate(self._db)

    def _error(self, error: sqlite3.Error, action: str) -> StoreError:
        return _error(self.path, error, action)

    # --- transactions --------------------------------------------------------------------------

    def _retry(self, step: Callable[[], T]) -> T:
        """Run a step, retrying while another process holds the lock, up to BUSY_TIMEOUT."""
        deadline = time.monotonic() + BUSY_TIMEOUT
        pause = 0.001
        while True:
            try:
                return step()
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) and "busy" not in str(error):
                    raise
                if time.monotonic() > deadline:
                    raise
                time.sleep(pause)
                pause = min(pause * 2, 0.05)

    def _write(self, work: Callable[[], T]) -> T:
        """Run work in one short BEGIN IMMEDIATE transaction, committed before returning."""
        if self.readonly:
            raise StoreError(f"the verdict database {self.path} was opened read-only")
        with self._lock:
            self._ensure_open()
            self._retry(lambda: self._conn.execute("BEGIN IMMEDIATE"))
            try:
                result = work()
                self._conn.execute("COMMIT")
            except BaseException:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                raise
            return result

    def _read(self, work: Callable[[], T]) -> T:
        """Run reads on one consistent snapshot."""
        with self._lock:
            self._ensure_open()
            self._conn.execute("BEGIN")
            try:
                return work()
            finally:
                self._conn.execute("COMMIT")

    def _ensure_open(self) -> None:
        if self._closed:
            raise StoreError(f"the verdict database {self.path} is closed")

    def _guard(self, action: str, work: Callable[[], T], *, write: bool) -> T:
        try:
            return self._write(work) if write else self._read(work)
        except sqlite3.Error as error:
            raise self._error(error, action) from None
        except UnicodeEncodeError:
            raise StoreError(
                f"{action} failed: the text holds characters that cannot be stored "
                "(unpaired surrogates)"
            ) from None

    # --- verdicts ------------------------------------------------------------------------------

    def give(
        self,
        item: ItemRef,
        verdict: Verdict | str,
        *,
        note: str | None = None,
        reviewer: str,
        revision: str | None = None,
    ) -> Event:
        """Record a verdict (note None keeps the current note); durable when it returns."""
        try:
            value = Verdict(verdict)
        except ValueError:
            choices = ", ".join(v.value for v in Verdict)
            raise StoreError(f"unknown verdict {verdict!r} (expected one of {choices})") from None

        def work() -> Event:
            previous = self._latest(item.key, reviewer)
            kept = note if note is not None else (previous.note if previous else None)
            return self._append(item, reviewer, value, kept or None, revision)

        return self._guard("saving a verdict", work, write=True)

    def note(
        self, item: ItemRef, text: str, *, reviewer: str, revision: str | None = None
    ) -> Event:
        """Set the note on an item, keeping the reviewer's current verdict."""

        def work() -> Event:
            previous = self._latest(item.key, reviewer)
            verdict = previous.verdict if previous else None
            return self._append(item, reviewer, verdict, text or None, revision)

        return self._guard("saving a note", work, write=True)

    def undo(self, reviewer: str) -> Event | None:
        """Revert the reviewer's latest change that is not undone yet; None when there is none."""

        def work() -> Event | None:
            row = self._conn.execute(
                f"""{_SELECT} events AS e WHERE reviewer = ? AND undoes IS NULL
                AND NOT EXISTS (SELECT 1 FROM events AS u WHERE u.undoes = e.event)
                ORDER BY at DESC, event DESC LIMIT 1""",
                (reviewer,),
            ).fetchone()
            if row is None:
                return None
            target = _event(row)
            before = self._conn.execute(
                f"""{_SELECT} events WHERE item = ? AND reviewer = ? AND (at, event) < (?, ?)
                ORDER BY at DESC, event DESC LIMIT 1""",
                (target.item, reviewer, target.at, target.event),
            ).fetchone()
            previous = _event(before) if before else None
            return self._append(
                target.ref,
                reviewer,
                previous.verdict if previous else None,
                previous.note if previous else None,
                target.revision,
                undoes=target.event,
            )

        return self._guard("undoing", work, write=True)

    def _latest(self, item_key: str, reviewer: str) -> Event | None:
        row = self._conn.execute(
            f"""{_SELECT} events WHERE item = ? AND reviewer = ?
            ORDER BY at DESC, event DESC LIMIT 1""",
            (item_key, reviewer),
        ).fetchone()
        return _event(row) if row else None

    def _append(
        self,
        item: ItemRef,
        reviewer: str,
        verdict: Verdict | None,
        note: str | None,
        revision: str | None,
        *,
        undoes: str | None = None,
    ) -> Event:
        if not reviewer.strip():
            raise StoreError("a verdict needs a reviewer name")
        floor = self._conn.execute(
            "SELECT max(at) FROM events WHERE reviewer = ?", (reviewer,)
        ).fetchone()[0]
        event = Event(
            event=uuid.uuid4().hex,
            item=item.key,
            report=item.report,
            record=item.record,
            quote=item.quote,
            reviewer=reviewer,
            verdict=verdict,
            note=note,
            at=_after(now_at(), floor),
            revision=revision,
            undoes=undoes,
        )
        self._insert(event)
        return event

    def _insert(self, event: Event) -> None:
        self._conn.execute(_INSERT, _values(event))

    # --- reading -------------------------------------------------------------------------------

    def current(self, reviewer: str) -> dict[str, Event]:
        """The reviewer's current verdicts and notes, by item key (unreviewed items left out)."""

        def work() -> dict[str, Event]:
            rows = self._conn.execute(
                f"{_SELECT} current_verdicts WHERE reviewer = ?", (reviewer,)
            ).fetchall()
            return {event.item: event for event in map(_event, rows) if not event.empty}

        return self._guard("reading verdicts", work, write=False)

    def current_all(self) -> list[Event]:
        """Every reviewer's current verdicts and notes, ordered by item then reviewer."""

        def work() -> list[Event]:
            rows = self._conn.execute(
                f"{_SELECT} current_verdicts ORDER BY item, reviewer"
            ).fetchall()
            return [event for event in map(_event, rows) if not event.empty]

        return self._guard("reading verdicts", work, write=False)

    def history(self, item_key: str) -> list[Event]:
        """Every event on an item, by every reviewer, oldest first."""

        def work() -> list[Event]:
            rows = self._conn.execute(
                f"{_SELECT} events WHERE item = ? ORDER BY at, event", (item_key,)
            ).fetchall()
            return [_event(row) for row in rows]

        return self._guard("reading history", work, write=False)

    def events(self, reviewer: str | None = None) -> list[Event]:
        """All events (or one reviewer's), in the stable export order (at, event)."""

        def work() -> list[Event]:
            if reviewer is None:
                cursor = self._conn.execute(f"{_SELECT} events ORDER BY at, event")
            else:
                cursor = self._conn.execute(
                    f"{_SELECT} events WHERE reviewer = ? ORDER BY at, event", (reviewer,)
                )
            return [_event(row) for row in cursor]

        return self._guard("reading events", work, write=False)

    def json_rows(self, columns: Iterable[str], reviewer: str | None = None) -> list[str]:
        """Events as compact JSON objects with these keys in this order, encoded by SQLite."""
        names = list(columns)
        unknown = [name for name in names if name not in _COLUMNS]
        if unknown:
            raise StoreError(f"unknown event column(s): {', '.join(unknown)}")
        pairs = ", ".join(f"'{name}', {name}" for name in names)
        expression = f"json_object({pairs})"
        select = f"SELECT {expression} FROM events"

        def work() -> list[str]:
            if reviewer is None:
                cursor = self._conn.execute(f"{select} ORDER BY at, event")
            else:
                cursor = self._conn.execute(
                    f"{select} WHERE reviewer = ? ORDER BY at, event", (reviewer,)
                )
            return [row[0] for row in cursor]

        return self._guard("reading events", work, write=False)

    def count(self, reviewer: str | None = None) -> int:
        """The number of events stored (of one reviewer, if given)."""
        sql, args = "SELECT count(*) FROM events", []
        if reviewer is not None:
            sql, args = sql + " WHERE reviewer = ?", [reviewer]
        return self._guard(
            "counting events",
            lambda: int(self._conn.execute(sql, args).fetchone()[0]),
            write=False,
        )

    def reviewers(self) -> list[str]:
        """Everyone who has an event in the store, sorted."""
        return self._guard(
            "reading reviewers",
            lambda: [
                r[0] for r in self._conn.execute("SELECT DISTINCT reviewer FROM events ORDER BY 1")
            ],
            write=False,
        )

    def disagreements(self, items: Iterable[str] | None = None) -> list[Disagreement]:
        """Items on which reviewers' current verdicts differ (optionally only these items)."""
        return find_disagreements(self.current_all(), items)

    def stale(self, reportset: ReportSet, reviewer: str | None = None) -> list[StaleVerdict]:
        """Current verdicts on quotes or records that the loaded reports no longer hold."""
        reports = {report.identity: report for report in reportset.reports}
        found = []
        for event in self.current_all():
            if reviewer is not None and event.reviewer != reviewer:
                continue
            report = reports.get(event.report)
            if report is None:
                continue  # a report that is not loaded says nothing about its verdicts
            record = report.record(event.record)
            if record is None:
                found.append(StaleVerdict(event, "record missing"))
            elif event.quote is not None and event.quote not in record_quote_hashes(record):
                found.append(StaleVerdict(event, "quote changed"))
        return found

    # --- merging -------------------------------------------------------------------------------

    def import_events(self, events: Iterable[Event]) -> ImportResult:
        """Merge events (e.g. another reviewer's export); idempotent.

        Written in short transactions of IMPORT_BATCH events so a large import never holds the
        write lock for long; an interrupted import is completed by running it again.
        """
        batch = list(events)
        seen: dict[str, Event] = {}
        added: list[Event] = []
        present = 0
        conflicts: list[str] = []
        for start in range(0, len(batch), IMPORT_BATCH):
            chunk = batch[start : start + IMPORT_BATCH]
            work = functools.partial(self._import_chunk, chunk, seen)
            new, same, differing = self._guard("importing events", work, write=True)
            added += new
            present += same
            conflicts += differing
        touched = frozenset(event.item for event in added)
        return ImportResult(len(added), present, tuple(conflicts), touched)

    def _import_chunk(
        self, chunk: list[Event], seen: dict[str, Event]
    ) -> tuple[list[Event], int, list[str]]:
        ids = [event.event for event in chunk if event.event not in seen]
        for start in range(0, len(ids), 500):
            part = ids[start : start + 500]
            rows = self._conn.execute(
                f"{_SELECT} events WHERE event IN ({', '.join('?' for _ in part)})", part
            )
            seen.update((event.event, event) for event in map(_event, rows))
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
        self._conn.executemany(_INSERT, map(_values, new))
        return new, present, conflicts

    # --- review positions ----------------------------------------------------------------------

    def position(self, review_key: str) -> str | None:
        """The record id where this review stopped, if any."""
        row = self._guard(
            "reading the review position",
            lambda: self._conn.execute(
                "SELECT record FROM positions WHERE review = ?", (review_key,)
            ).fetchone(),
            write=False,
        )
        return str(row[0]) if row else None

    def set_position(self, review_key: str, record_id: str) -> None:
        """Remember the record this review is on."""
        self._guard(
            "saving the review position",
            lambda: self._conn.execute(
                "INSERT INTO positions (review, record, at) VALUES (?, ?, ?) "
                "ON CONFLICT (review) DO UPDATE SET record = excluded.record, at = excluded.at",
                (review_key, record_id, now_at()),
            ),
            write=True,
        )

    # --- items (what the reports hold, for md and sarif exports) ------------------------------

    def register(
        self,
        reportset: ReportSet,
        anchors: Mapping[Quote, Anchor] | None = None,
        *,
        revision: str | None = None,
    ) -> int:
        """Record the reports' records and quotes (with anchor status); returns the item count.

        Items of these reports that the new registration no longer holds stay, marked not present.
        """
        rows = _item_rows(reportset, anchors or {}, revision, now_at())
        identities = sorted({report.identity for report in reportset.reports})

        def work() -> int:
            for identity in identities:
                self._conn.execute("UPDATE items SET present = 0 WHERE report = ?", (identity,))
            self._db.table("items").upsert_all(rows, pk="item")
            return len(rows)

        return self._guard("registering report items", work, write=True)

    def items(self) -> list[dict[str, Any]]:
        """Registered items, by report then report order."""
        return self._guard(
            "reading items",
            lambda: list(self._db.query("SELECT * FROM items ORDER BY report, ord")),
            write=False,
        )

    # --- lifetime ------------------------------------------------------------------------------

    def integrity_check(self) -> list[str]:
        """Run SQLite's full integrity check; ["ok"] when the file is sound."""
        return self._guard(
            "checking integrity",
            lambda: [str(row[0]) for row in self._conn.execute("PRAGMA integrity_check")],
            write=False,
        )

    def close(self) -> None:
        """Close the database (idempotent)."""
        with self._lock:
            if not self._closed:
                self._closed = True
                self._conn.close()

    def __enter__(self) -> VerdictStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __iter__(self) -> Iterator[Event]:
        return iter(self.events())


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


def _item_rows(
    reportset: ReportSet, anchors: Mapping[Quote, Anchor], revision: str | None, at: str
) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for report in reportset.reports:
        for record in report.records:
            base = {
                "report": report.identity,
                "record": record.id,
                "kind": str(record.kind),
                "label": record.label,
                "report_file": report.file,
                "section": record.section,
                "revision": revision,
                "present": 1,
                "registered_at": at,
            }
            rows.append(
                _blank_quote(base | {"item": make_key(report.identity, record.id)}, len(rows))
            )
            for quote, digest in zip(record.quotes, record_quote_hashes(record), strict=True):
                anchor = anchors.get(quote)
                row = base | {
                    "item": make_key(report.identity, record.id, digest),
                    "ord": len(rows),
                    "quote": digest,
                    "quote_index": quote.index,
                    "quote_path": quote.path,
                    "quote_text": quote.text,
                    "claimed_first": quote.claimed[0] if quote.claimed else None,
                    "claimed_last": quote.claimed[1] if quote.claimed else None,
                    "tier": str(anchor.match) if anchor else None,
                    "score": anchor.score if anchor else None,
                    "lines_first": anchor.lines[0] if anchor and anchor.lines else None,
                    "lines_last": anchor.lines[1] if anchor and anchor.lines else None,
                    "range_ok": None
                    if anchor is None or anchor.range_ok is None
                    else int(anchor.range_ok),
                }
                rows.append(row)
    return rows


def _blank_quote(row: dict[str, Any], ord_: int) -> dict[str, Any]:
    return row | {
        "ord": ord_,
        "quote": None,
        "quote_index": None,
        "quote_path": None,
        "quote_text": None,
        "claimed_first": None,
        "claimed_last": None,
        "tier": None,
        "score": None,
        "lines_first": None,
        "lines_last": None,
        "range_ok": None,
    }
