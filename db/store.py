"""The verdict store: an append-only history of verdicts and notes in one SQLite file.

Every change is a new row of ``events`` (triggers refuse UPDATE and DELETE); the current verdict
of a reviewer on an item is the latest of their events on it, ordered by ``(at, event)``.
`VerdictStore` is the one way in, each call one short transaction: db/database.py opens the file
and runs the transactions, db/writes.py and db/reads.py hold their SQL, db/items.py the report
items, db/events.py the Event record. The checks made on opening, `StoreError` and
`check_database` live in db/check.py (which imports neither this module nor db.schema) and are
importable from here too, as are the records of db/events.py.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from db import items as report_items
from db import reads, writes
from db.aside import AsideDatabase, take_aside
from db.check import BUSY_TIMEOUT, LockedOut, StoreError, check_database, default_path
from db.database import Database
from db.events import (
    AT_FORMAT,
    COLUMNS,
    Disagreement,
    Event,
    ImportResult,
    StaleVerdict,
    find_disagreements,
    find_stale,
    now_at,
)
from db.follow import follows_any
from db.keys import ItemRef, Verdict
from evidence.model import Anchor, Quote, ReportSet
from evidence.permalink import without_credentials

if TYPE_CHECKING:
    import sqlite3

    import sqlite_utils

    from db.carry import Carried, LinesAfter, Renamed
    from db.gone import Was
    from evidence.citations import CitedPath
    from evidence.model import Report

__all__ = [
    "AT_FORMAT",
    "BUSY_TIMEOUT",
    "IMPORT_BATCH",
    "Disagreement",
    "Event",
    "ImportResult",
    "LockedOut",
    "StaleVerdict",
    "StoreError",
    "VerdictStore",
    "check_database",
    "default_path",
    "find_disagreements",
]

#: past this many items two reviewers have touched, every current verdict is read at once
CONTESTED_READ_APART = 5_000
#: events merged per write transaction by import_events: about 0.2 s of the write lock each,
#: and few commits (each an fsync: 2,000 a transaction spent 4.8 s of a 200,000-event import
#: committing)
IMPORT_BATCH = 10_000


class VerdictStore:
    """Verdicts, notes, their history and review positions in one SQLite database."""

    def __init__(self, database: Database) -> None:
        self._database = database
        self.readonly = database.readonly

    @property
    def path(self) -> Path:
        """The database file."""
        return self._database.path

    @classmethod
    def open(
        cls,
        path: str | Path | None = None,
        *,
        readonly: bool = False,
        stop: threading.Event | None = None,
    ) -> VerdictStore:
        """Open (creating it unless readonly) the database; StoreError when it cannot be used.

        Opened for writing, it first saves the changes kept aside beside it (db/aside.py).
        Once ``stop`` is set, waiting for another process's lock ends with `LockedOut`.
        """
        path = Path(path) if path is not None else default_path()
        database = Database.open(path.expanduser(), readonly=readonly, stop=stop)
        if not readonly:
            take_aside(database)
        return cls(database)

    @classmethod
    def aside(cls, path: str | Path) -> VerdictStore:
        """A new copy of the database at ``path``, for changes that cannot wait for the lock
        another process holds; closed, it is kept aside for the database's next open."""
        return cls(AsideDatabase.beside(Path(path).expanduser()))

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
        value = _verdict(verdict)
        return self._database.run(
            "saving a verdict",
            lambda conn: writes.give(conn, item, value, note, reviewer, revision),
            write=True,
        )

    def give_many(
        self,
        items: Iterable[ItemRef],
        verdict: Verdict | str,
        *,
        reviewer: str,
        revision: str | None = None,
        note: str = "",
    ) -> list[Event]:
        """One verdict on many items in one transaction, each keeping its note (``note`` added
        to each, on a line of its own): all of them durable when it returns, or none."""
        value = _verdict(verdict)
        wanted = list(items)
        return self._database.run(
            "saving verdicts",
            lambda conn: writes.give_many(conn, wanted, value, reviewer, revision, note),
            write=True,
        )

    def note(
        self, item: ItemRef, text: str, *, reviewer: str, revision: str | None = None
    ) -> Event:
        """Set the note on an item, keeping the reviewer's current verdict."""
        return self._database.run(
            "saving a note",
            lambda conn: writes.set_note(conn, item, text, reviewer, revision),
            write=True,
        )

    def clear(self, item: ItemRef, *, reviewer: str, revision: str | None = None) -> Event:
        """Leave the item unreviewed (no verdict, no note): its history keeps what it was."""
        return self._database.run(
            "clearing a verdict",
            lambda conn: writes.append(
                conn,
                item,
                reviewer,
                None,
                None,
                revision,
                previous=writes.latest(conn, item.key, reviewer),
            ),
            write=True,
        )

    def undo(self, reviewer: str, *, event: str | None = None) -> Event | None:
        """Revert the reviewer's latest change that is not undone yet; None when there is none.

        With ``event`` (an event id), revert that change, if it is not undone yet and the item is
        still as it left it (None otherwise).
        """
        return self._database.run(
            "undoing", lambda conn: writes.undo(conn, reviewer, event), write=True
        )

    def undo_many(self, reviewer: str, events: Iterable[str]) -> list[Event]:
        """Revert these changes (event ids) in one transaction, each one not undone yet whose item
        is still as it left it; the events appended (the changes skipped have none)."""
        wanted = list(events)
        return self._database.run(
            "undoing", lambda conn: writes.undo_many(conn, reviewer, wanted), write=True
        )

    # --- reading -------------------------------------------------------------------------------

    def current(self, reviewer: str) -> dict[str, Event]:
        """The reviewer's current verdicts and notes, by item key (unreviewed items left out)."""
        return self._database.run(
            "reading verdicts", lambda conn: reads.current(conn, reviewer), write=False
        )

    def current_all(self) -> list[Event]:
        """Every reviewer's current verdicts and notes, ordered by item then reviewer."""
        return self._database.run("reading verdicts", reads.current_all, write=False)

    def history(self, item_key: str) -> list[Event]:
        """Every event on an item, by every reviewer, oldest first."""
        return self._database.run(
            "reading history", lambda conn: reads.history(conn, item_key), write=False
        )

    def events(self, reviewer: str | None = None) -> list[Event]:
        """All events (or one reviewer's), in the stable export order (at, event)."""
        return self._database.run(
            "reading events", lambda conn: reads.events(conn, reviewer), write=False
        )

    def json_rows(self, columns: Iterable[str], reviewer: str | None = None) -> list[str]:
        """Events as compact JSON objects with these keys in this order, encoded by SQLite."""
        names = list(columns)
        unknown = [name for name in names if name not in COLUMNS]
        if unknown:
            raise StoreError(f"unknown event column(s): {', '.join(unknown)}")
        return self._database.run(
            "reading events", lambda conn: reads.json_rows(conn, names, reviewer), write=False
        )

    def json_rows_by_report(self, columns: Iterable[str], reviewer: str) -> list[tuple[str, str]]:
        """A reviewer's events as (report identity, JSON object) pairs, as `json_rows` spells
        them, in (at, event) order."""
        names = list(columns)
        unknown = [name for name in names if name not in COLUMNS]
        if unknown:
            raise StoreError(f"unknown event column(s): {', '.join(unknown)}")
        return self._database.run(
            "reading events",
            lambda conn: reads.json_rows_by_report(conn, names, reviewer),
            write=False,
        )

    def known(self, ids: Iterable[str]) -> set[str]:
        """The ids among ``ids`` of events the store holds."""
        wanted = list(ids)
        return self._database.run(
            "reading events", lambda conn: reads.known(conn, wanted), write=False
        )

    def count(self, reviewer: str | None = None) -> int:
        """The number of events stored (of one reviewer, if given)."""
        return self._database.run(
            "counting events", lambda conn: reads.count(conn, reviewer), write=False
        )

    def reviewers(self) -> list[str]:
        """Everyone who has an event in the store, sorted."""
        return self._database.run("reading reviewers", reads.reviewers, write=False)

    def disagreements(self, items: Iterable[str] | None = None) -> list[Disagreement]:
        """Items on which reviewers' current verdicts differ (optionally only these items)."""

        def work(conn: sqlite3.Connection) -> list[Disagreement]:
            # only items two reviewers have touched can differ: after importing one teammate's
            # 200,000 verdicts, reading every current verdict took 2.3 s to find none
            if follows_any(conn):  # events read on other items than theirs meet there
                return find_disagreements(reads.current_all(conn), items)
            contested = reads.contested(conn)
            if items is not None:
                contested &= set(items)
            if not contested:
                return []
            if len(contested) > CONTESTED_READ_APART:
                return find_disagreements(reads.current_all(conn), contested)
            return find_disagreements(reads.current_of(conn, sorted(contested)))

        return self._database.run("reading verdicts", work, write=False)

    def stale(self, reportset: ReportSet, reviewer: str | None = None) -> list[StaleVerdict]:
        """Current verdicts on quotes or records that the loaded reports no longer hold."""
        return find_stale(self.current_all(), reportset, reviewer)

    # --- merging -------------------------------------------------------------------------------

    def import_events(self, events: Iterable[Event], *, batch: int = IMPORT_BATCH) -> ImportResult:
        """Merge events (e.g. another reviewer's export); idempotent.

        Written in short transactions of ``batch`` events so a large import never holds the
        write lock for long; an interrupted import is completed by running it again.
        """
        merged = list(events)
        seen: dict[str, Event] = {}
        added: list[Event] = []
        present = 0
        conflicts: list[str] = []
        for start in range(0, len(merged), batch):
            chunk = merged[start : start + batch]
            work = functools.partial(writes.import_chunk, chunk=chunk, seen=seen)
            try:
                new, same, differing = self._database.run("importing events", work, write=True)
            except StoreError as error:
                if not start:
                    raise
                raise _partly_imported(error, start, len(merged)) from None
            added += new
            present += same
            conflicts += differing
        touched = frozenset(event.item for event in added)
        return ImportResult(len(added), present, tuple(conflicts), touched)

    # --- review positions ----------------------------------------------------------------------

    def position(self, review_key: str) -> str | None:
        """The record id where this review stopped, if any."""
        return self._database.run(
            "reading the review position",
            lambda conn: reads.position(conn, review_key),
            write=False,
        )

    def set_position(self, review_key: str, record_id: str) -> None:
        """Remember the record this review is on."""
        self._database.run(
            "saving the review position",
            lambda conn: writes.set_position(conn, review_key, record_id),
            write=True,
        )

    # --- what `assay sync` remembers -----------------------------------------------------------

    def sync_state(self, prefix: str = "") -> dict[str, str]:
        """Sync state values by key, those whose key starts with ``prefix``."""
        return self._database.run(
            "reading the sync state", lambda conn: reads.sync_state(conn, prefix), write=False
        )

    def set_sync_state(self, values: Mapping[str, str]) -> None:
        """Remember sync state values by key."""
        copied = dict(values)
        self._database.run(
            "saving the sync state",
            lambda conn: writes.set_sync_state(conn, copied),
            write=True,
        )

    # --- items (what the reports hold, for md and sarif exports) ------------------------------

    def register(
        self,
        reportset: ReportSet,
        anchors: Mapping[Quote, Anchor] | None = None,
        *,
        revision: str | None = None,
        repository: str | None = None,
        remote: str | None = None,
        citations: Iterable[CitedPath] | None = None,
    ) -> int:
        """Record the reports' records and quotes (with anchor status), where they were reviewed
        (repository, remote, revision) and, when given, the state of their cited paths; returns
        the item count.

        Items of these reports that the new registration no longer holds stay, marked not present.
        """
        at = now_at()
        rows = report_items.item_rows(reportset, anchors or {}, revision, at)
        if remote is not None:  # a token in the remote's URL is never stored
            remote = without_credentials(remote)
        sources = report_items.source_rows(reportset, repository, remote, revision, at)
        cited = (
            None
            if citations is None
            else report_items.citation_rows(reportset, citations, revision)
        )
        identities = sorted({report.identity for report in reportset.reports})

        def register(_conn: object) -> int:
            utils = self._database.utils
            count = report_items.register_items(utils, identities, rows)
            report_items.register_context(utils, identities, sources, cited)
            return count

        return self._database.run("registering report items", register, write=True)

    def carry(
        self,
        reports: Iterable[Report],
        *,
        reviewer: str,
        revision: str | None = None,
        lines_after: LinesAfter | None = None,
        renamed: Renamed | None = None,
    ) -> Carried:
        """Carry the reviewer's verdicts and notes on results these scans (before they are
        registered) no longer hold to the same findings they now hold (db/carry.py), in one
        transaction; ``revision``: the one the old items are left unreviewed at;
        ``lines_after``: lines of an earlier revision at this one, ``renamed``: files renamed
        since one (db/carry.py)."""
        from db.carry import carry

        wanted = list(reports)
        return self._database.run(
            "carrying verdicts to the scan's findings",
            lambda conn: carry(conn, wanted, reviewer, revision, lines_after, renamed),
            write=True,
        )

    def items(self, columns: Sequence[str] | None = None) -> list[dict[str, Any]]:
        """Registered items, by report then report order (``columns``: only those, a fraction
        of the memory on a scan's 270,000 items)."""
        return self._read_items(lambda utils: report_items.read_items(utils, columns))

    def result_files(self) -> list[dict[str, Any]]:
        """Where each registered SARIF result came from (db/items.py `read_result_files`)."""
        return self._read_items(report_items.read_result_files)

    def quote_items(self) -> list[dict[str, Any]]:
        """The registered quotes of reports, not of SARIF results (`read_quote_items`)."""
        return self._read_items(report_items.read_quote_items)

    def _read_items(
        self, read: Callable[[sqlite_utils.Database], list[dict[str, Any]]]
    ) -> list[dict[str, Any]]:
        return self._database.run(
            "reading items", lambda _conn: read(self._database.utils), write=False
        )

    def what_was(self, keys: Iterable[str]) -> dict[str, Was]:
        """What each of these items was when last registered, in words (db/gone.py), by key."""
        from db.gone import read_what_was

        wanted = list(keys)
        return self._database.run(
            "reading items", lambda conn: read_what_was(conn, wanted), write=False
        )

    def sources(self) -> list[dict[str, Any]]:
        """Where each registered report was reviewed: repository, remote, revision."""
        return self._database.run(
            "reading report sources",
            lambda _conn: report_items.read_sources(self._database.utils),
            write=False,
        )

    def citations(self) -> list[dict[str, Any]]:
        """The registered reports' cited paths with their state at the revision."""
        return self._database.run(
            "reading citations",
            lambda _conn: report_items.read_citations(self._database.utils),
            write=False,
        )

    # --- lifetime ------------------------------------------------------------------------------

    def integrity_check(self) -> list[str]:
        """Run SQLite's full integrity check; ["ok"] when the file is sound."""
        return self._database.run("checking integrity", reads.integrity_check, write=False)

    def close(self) -> None:
        """Close the database (idempotent)."""
        self._database.close()

    def __enter__(self) -> VerdictStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __iter__(self) -> Iterator[Event]:
        return iter(self.events())


def _partly_imported(error: StoreError, saved: int, total: int) -> StoreError:
    """The error that stopped an import after its first ``saved`` events were committed: what
    went wrong said without its "nothing was saved", and what was."""
    reason = str(error).removesuffix("; nothing was saved, try again")
    return StoreError(
        f"{reason}; the first {saved:,} of the {total:,} events were saved, the rest were not: "
        "run it again to add them (what was saved is not added twice)"
    )


def _verdict(verdict: Verdict | str) -> Verdict:
    try:
        return Verdict(verdict)
    except ValueError:
        choices = ", ".join(v.value for v in Verdict)
        raise StoreError(f"unknown verdict {verdict!r} (expected one of {choices})") from None
