"""The verdict database schema and its versioned migrations.

Migrations are numbered; each runs once, recorded in ``schema_migrations``, and all of them
run inside the caller's ``BEGIN IMMEDIATE`` transaction, so two assay instances opening a new
database at the same moment serialize on SQLite's lock and the second one finds the work done.

Reading the version and identity needs only the standard library's sqlite3 (`APPLICATION_ID`,
`LATEST`, `table_names` and `version` live in db/check.py, for `check_database`, and are
importable from here); sqlite_utils is imported by the migrations alone, so opening a database
already at LATEST never imports it.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from db.check import APPLICATION_ID as APPLICATION_ID
from db.check import LATEST as LATEST
from db.check import table_names as table_names
from db.check import version as version

if TYPE_CHECKING:
    import sqlite_utils

VERDICTS = ("confirmed", "refuted", "unclear", "skip")

_EVENTS = f"""
CREATE TABLE events (
    seq INTEGER PRIMARY KEY,
    event TEXT NOT NULL UNIQUE,
    item TEXT NOT NULL,
    report TEXT NOT NULL,
    record TEXT NOT NULL,
    quote TEXT,
    reviewer TEXT NOT NULL,
    verdict TEXT CHECK (verdict IS NULL OR verdict IN ({", ".join(f"'{v}'" for v in VERDICTS)})),
    note TEXT,
    at TEXT NOT NULL,
    revision TEXT,
    undoes TEXT
) STRICT
"""

# History is append-only: a verdict is changed by adding an event, never by rewriting one.
_TRIGGERS = (
    """
    CREATE TRIGGER events_refuse_update BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE refused'); END
    """,
    """
    CREATE TRIGGER events_refuse_delete BEFORE DELETE ON events
    BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE refused'); END
    """,
)

#: the latest event per (item, reviewer); events are ordered by (at, event) everywhere
_CURRENT_VIEW = """
SELECT e.* FROM events AS e
WHERE NOT EXISTS (
    SELECT 1 FROM events AS later
    WHERE later.item = e.item AND later.reviewer = e.reviewer
      AND (later.at, later.event) > (e.at, e.event)
)
"""


def _initial(db: sqlite_utils.Database) -> None:
    db.execute(_EVENTS)
    db.table("events").create_index(["item", "reviewer", "at", "event"])
    db.table("events").create_index(["reviewer", "at", "event"])
    db.table("events").create_index(["at", "event"])
    db.table("events").create_index(["undoes"])
    for trigger in _TRIGGERS:
        db.execute(trigger)
    db.create_view("current_verdicts", _CURRENT_VIEW)
    # What the reports currently hold, registered by the app or `assay check`, so that the md and
    # sarif exports can name records and quote status from the database alone.
    db.table("items").create(
        {
            "item": str,
            "report": str,
            "record": str,
            "quote": str,
            "ord": int,
            "kind": str,
            "label": str,
            "report_file": str,
            "section": str,
            "quote_index": int,
            "quote_path": str,
            "quote_text": str,
            "claimed_first": int,
            "claimed_last": int,
            "tier": str,
            "score": float,
            "lines_first": int,
            "lines_last": int,
            "range_ok": int,
            "revision": str,
            "present": int,
            "registered_at": str,
        },
        pk="item",
        not_null={"report", "record", "ord", "present", "registered_at"},
    )
    db.table("items").create_index(["report", "ord"])
    db.table("positions").create(
        {"review": str, "record": str, "at": str},
        pk="review",
        not_null={"record", "at"},
    )


def _rekey_quotes(db: sqlite_utils.Database) -> None:
    """Quote keys hashed from the anchorer's `normalize_quote` (they were hashed from a second
    normalization with other bullets, that kept typographic quotes and "- " list markers).

    The quotes the reports hold now are registered in ``items`` (present), whole records at a
    time, with their text: their events and item rows move from the old key (stored) to the new
    one (computed). The moves are kept in ``quote_rekeys``. Events of quotes never registered, or
    no longer in their reports, keep their key: they show as stale ("quote changed"), as the
    verdicts of an edited quote do. Migration 9 runs it again: a text quoted at two paths of a
    record is hashed with its path (db/keys.py), the record's quotes registered in their order.
    """
    from db.keys import make_key, quote_hashes

    rows = db.execute(
        "SELECT item, report, record, quote_text, quote_path FROM items"
        " WHERE quote IS NOT NULL AND present = 1 ORDER BY report, record, ord"
    ).fetchall()
    records: dict[tuple[str, str], list[tuple[str, str, str]]] = {}
    for item, report, record, text, path in rows:
        records.setdefault((report, record), []).append((item, text or "", path or ""))
    moves: dict[str, tuple[str, str]] = {}  # old item key -> (new item key, new quote hash)
    for (report, record), quotes in records.items():
        hashes = quote_hashes([(text, path) for _, text, path in quotes])
        for (old, _text, _path), digest in zip(quotes, hashes, strict=True):
            new = make_key(report, record, digest)
            if new != old:
                moves[old] = (new, digest)
    db.table("quote_rekeys").create(
        {"old": str, "new": str, "quote": str}, pk="old", if_not_exists=True
    )
    if not moves:
        return
    # this run's moves apart from the earlier ones kept in quote_rekeys (migration 2's)
    db.execute("CREATE TEMP TABLE rekeyed (old TEXT PRIMARY KEY, new TEXT, quote TEXT)")
    db.conn.executemany(
        "INSERT INTO rekeyed VALUES (?, ?, ?)",
        [(old, new, digest) for old, (new, digest) in moves.items()],
    )
    db.execute("INSERT OR REPLACE INTO quote_rekeys SELECT old, new, quote FROM rekeyed")
    # the events' history stays as it was but for the key: one UPDATE, with the guard lifted
    db.execute("DROP TRIGGER events_refuse_update")
    db.execute(
        "UPDATE events SET"
        " quote = (SELECT quote FROM rekeyed WHERE old = events.item),"
        " item = (SELECT new FROM rekeyed WHERE old = events.item)"
        " WHERE item IN (SELECT old FROM rekeyed)"
    )
    db.execute(_TRIGGERS[0])
    moved = list(
        db.query(
            "SELECT items.*, rekeyed.new AS new_item, rekeyed.quote AS new_quote"
            " FROM items JOIN rekeyed ON items.item = rekeyed.old"
        )
    )
    db.execute("DELETE FROM items WHERE item IN (SELECT old FROM rekeyed)")
    db.execute("DROP TABLE rekeyed")
    for row in moved:
        row["item"], row["quote"] = row.pop("new_item"), row.pop("new_quote")
    db.table("items").upsert_all(moved, pk="item")


def _review_context(db: sqlite_utils.Database) -> None:
    """Where each report was reviewed (repository, its remote, revision) and the state of every
    path its records cite, so that the md export is a write-up from the database alone."""
    db.table("report_sources").create(
        {
            "report": str,
            "repository": str,
            "remote": str,
            "revision": str,
            "registered_at": str,
        },
        pk="report",
        not_null={"registered_at"},
    )
    db.table("citations").create(
        {
            "report": str,
            "record": str,
            "path": str,
            "source": str,
            "state": str,
            "suggestion": str,
            "report_line": int,
            "revision": str,
            "present": int,
        },
        pk=("report", "record", "path"),
        not_null={"state", "present"},
    )


def _sync_state(db: sqlite_utils.Database) -> None:
    """Where `assay sync` keeps what it remembers for this database (remote, reviewer, the
    verdict files it has read, the last sync), as text values by key."""
    db.execute("CREATE TABLE sync_state (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT")


def _imported_events(db: sqlite_utils.Database) -> None:
    """The ids of the events merged from elsewhere (`assay import`, `assay sync`): a new event is
    timed after the reviewer's latest event written here, never after one received."""
    db.execute("CREATE TABLE imported_events (event TEXT PRIMARY KEY) STRICT, WITHOUT ROWID")


def _result_moves(db: sqlite_utils.Database) -> None:
    """Which result of a scan is the same finding as a result of the scan registered before it,
    whose id moved with its lines (db/carry.py): each reviewer's verdicts follow it."""
    db.execute(
        "CREATE TABLE result_moves (report TEXT NOT NULL, old TEXT NOT NULL, new TEXT NOT NULL,"
        " at TEXT NOT NULL, PRIMARY KEY (report, old)) STRICT"
    )
    # the moves each reviewer's verdicts have followed, up to when (a launch looks no further)
    db.execute(
        "CREATE TABLE result_moves_followed (report TEXT NOT NULL, reviewer TEXT NOT NULL,"
        " at TEXT NOT NULL, PRIMARY KEY (report, reviewer)) STRICT"
    )


def _incomplete_scans(db: sqlite_utils.Database) -> None:
    """What a scan said of its own run when it was last registered (it failed, it could not
    read files: evidence/sarif/invocations.py), one note a line: the write-up repeats it."""
    db.execute("ALTER TABLE report_sources ADD COLUMN incomplete TEXT")


def _moves_in_time(db: sqlite_utils.Database) -> None:
    """Every move of an id kept, each at the registration that made it: an id another finding
    took is paired again by a later scan, and a verdict given before the first pair follows
    it, not the later one (db/carry.py)."""
    db.execute(
        "CREATE TABLE result_moves_in_time (report TEXT NOT NULL, old TEXT NOT NULL,"
        " new TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (report, old, at)) STRICT"
    )
    db.execute("INSERT INTO result_moves_in_time SELECT report, old, new, at FROM result_moves")
    db.execute("DROP TABLE result_moves")
    db.execute("ALTER TABLE result_moves_in_time RENAME TO result_moves")


def _run_files(db: sqlite_utils.Database) -> None:
    """The SARIF files each scan was registered from, in the order given: a scan that found
    nothing has no result whose row says so, and its run left the SARIF export."""
    db.execute("ALTER TABLE report_sources ADD COLUMN run_files TEXT")
    db.execute("ALTER TABLE report_sources ADD COLUMN ord INTEGER")


def _moves_between_revisions(db: sqlite_utils.Database) -> None:
    """Each move's revisions, the scan it left and the scan it came in: a teammate's verdict
    on an id follows the moves made after the revision he judged it at, whenever it arrives
    (db/follow.py). Moves kept before say neither (NULL): only their time is known."""
    db.execute("ALTER TABLE result_moves ADD COLUMN from_revision TEXT")
    db.execute("ALTER TABLE result_moves ADD COLUMN to_revision TEXT")


Migration = tuple[int, str, Callable[["sqlite_utils.Database"], None]]

#: a new migration raises db.check.LATEST, the schema version this code writes, to its number
MIGRATIONS: tuple[Migration, ...] = (
    (1, "events, current_verdicts, items, positions", _initial),
    (2, "quote keys from evidence.anchoring.normalize_quote", _rekey_quotes),
    (3, "report_sources and citations, for the md write-up", _review_context),
    (4, "sync_state for assay sync", _sync_state),
    (5, "imported_events: events merged from elsewhere", _imported_events),
    (6, "result_moves: a scan's findings whose ids moved", _result_moves),
    (7, "report_sources.incomplete: a scan's notes that it may be incomplete", _incomplete_scans),
    (8, "result_moves keyed by (report, old, at): every move of an id", _moves_in_time),
    (9, "quote keys: a text quoted at two paths of a record told apart by path", _rekey_quotes),
    (
        10,
        "report_sources.run_files, ord: the files of a scan, one that found nothing too",
        _run_files,
    ),
    (
        11,
        "result_moves.from_revision, to_revision: the scans each move is between",
        _moves_between_revisions,
    ),
)


def migrate(db: sqlite_utils.Database, *, upto: int | None = None) -> int:
    """Apply the missing migrations inside the caller's BEGIN IMMEDIATE; returns how many.

    `upto` stops after that migration (tests build databases as older assays wrote them).
    """
    if not db.table("schema_migrations").exists():
        db.table("schema_migrations").create(
            {"version": int, "name": str, "applied_at": str},
            pk="version",
            not_null={"name", "applied_at"},
        )
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    current = version(db.conn)
    applied = 0
    for number, name, step in MIGRATIONS:
        if number <= current or (upto is not None and number > upto):
            continue
        step(db)
        db.table("schema_migrations").insert(
            {"version": number, "name": name, "applied_at": datetime.now(UTC).isoformat()}
        )
        applied += 1
    if applied:
        db.execute(f"PRAGMA user_version = {version(db.conn)}")
    return applied
