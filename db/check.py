"""Whether a verdict database can be used, with the standard library alone.

`check_database` gives a one-line error for an unusable database before a program starts (the
review and demo commands run it, as `database_check`, while they import the app), so this
module imports only sqlite3, os, threading and pathlib (platformdirs once `default_path` is
called): not db/store.py (its dataclasses, uuid, datetime) nor db/schema.py.
`VerdictStore.open` makes the same checks with the same helpers (db/database.py imports them).
"""

from __future__ import annotations

import os
import sqlite3
import stat
import threading
from pathlib import Path

#: seconds a write waits for another process holding the lock before giving up
BUSY_TIMEOUT = 10.0
#: seconds SQLite itself waits for a lock on a database open for writing, between the checks
#: of `db.database.Database._retry` (which waits up to BUSY_TIMEOUT, or until told to stop)
WAIT_STEP = 0.05

#: ``PRAGMA application_id`` of an assay verdict database ("ASSY")
APPLICATION_ID = 0x41535359
#: the schema version this code writes: the number of the last of db.schema.MIGRATIONS
LATEST = 11

_SQLITE_HEADER = b"SQLite format 3\x00"


class StoreError(Exception):
    """The verdict database cannot be used; the message says why and what to do."""


class LockedOut(StoreError):
    """A write stopped waiting for the lock another process holds: its program is quitting
    (`VerdictStore.open(..., stop=)`); nothing of it was saved."""


def _shown(path: Path | str) -> str:
    """A path as a message names it (evidence/text.py's `shown_path`, imported only once a
    message is made: the standard library alone until then)."""
    from evidence.text import shown_path

    return shown_path(path)


def default_path() -> Path:
    """The database used when no --db is given: in the user data directory."""
    import platformdirs

    return platformdirs.user_data_path("assay", appauthor=False) / "verdicts.sqlite3"


#: the database `assay demo` keeps its verdicts in, beside the default one
DEMO_DB_NAME = "demo.db"


def demo_db_path(data_dir: Path | None = None) -> Path:
    """Where `assay demo` keeps its verdicts: in ``data_dir``, else the user data directory."""
    if data_dir is not None:
        return data_dir / DEMO_DB_NAME
    from platformdirs import user_data_dir

    return Path(user_data_dir("assay")) / DEMO_DB_NAME


def table_names(conn: sqlite3.Connection) -> set[str]:
    """The tables of the database (stdlib sqlite3 only)."""
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {str(row[0]) for row in rows}


def version(conn: sqlite3.Connection) -> int:
    """The schema version recorded in the database (0 for a new, empty database)."""
    if "schema_migrations" not in table_names(conn):
        return 0
    row = conn.execute("SELECT max(version) FROM schema_migrations").fetchone()
    return int(row[0] or 0)


def check_database(path: str | Path | None = None) -> Path:
    """Refuse, as `VerdictStore.open` would, a database that cannot be used; returns its path.

    For a quick one-line error before a program starts: the same file checks, then (when the
    file holds a database) SQLite's quick_check, identity and schema version, read only. Nothing
    is created or written (a missing parent directory is not created either); stdlib sqlite3
    only. Errors that can only arise on opening for writing (another process holding the lock)
    still come from `VerdictStore.open`.
    """
    path = Path(path) if path is not None else default_path()
    path = path.expanduser()
    check_name(path)
    if not path.exists():
        parent = path.parent
        while not parent.exists() and parent != parent.parent:
            parent = parent.parent
        if not parent.is_dir():
            raise StoreError(f"cannot create {_shown(path.parent)}: Not a directory")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise StoreError(f"cannot create {_shown(path)}: {_shown(parent)} is read-only")
        return path
    check_file(path, readonly=False)
    if path.stat().st_size == 0:
        return path  # an empty file becomes a database
    conn = connect(path, "ro&immutable=1" if needs_immutable(path) else "ro")
    try:
        verify(conn, path)
    finally:
        conn.close()
    return path


def database_check(path: str | Path | None = None) -> DatabaseCheck:
    """Start `check_database` on ``path`` in a thread; call the result to wait for it."""
    return DatabaseCheck(path)


class DatabaseCheck:
    """`check_database`, running while the caller goes on (a command's imports).

    SQLite's quick_check reads the whole file: 84 ms at 100,000 events (66 MB), 177 ms at
    300,000, before the app's first frame. SQLite lets go of the GIL while it reads, so the
    check costs the launch nothing while the command imports Textual and the screens. Calling
    the check waits for it and returns the path, or raises what `check_database` raised.
    """

    def __init__(self, path: str | Path | None = None) -> None:
        self._path: Path | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(
            target=self._run, args=(path,), name="assay-database-check", daemon=True
        )
        self._thread.start()

    def _run(self, path: str | Path | None) -> None:
        try:
            self._path = check_database(path)
        except BaseException as error:  # raised in the caller's thread, as if checked there
            self._error = error

    def __call__(self) -> Path:
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._path is not None
        return self._path


def verify(conn: sqlite3.Connection, path: Path) -> None:
    """SQLite's quick_check, then that the database is assay's and not from a newer assay."""
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT * 1000)}")
        problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
    except sqlite3.Error as error:
        raise store_error(path, error, "checking the database") from None
    if problems != ["ok"]:
        raise _corrupt(path, "; ".join(str(p) for p in problems[:3]))
    try:
        application_id = conn.execute("PRAGMA application_id").fetchone()[0]
        tables = table_names(conn)
        if application_id not in (0, APPLICATION_ID) or (
            application_id == 0 and tables and "schema_migrations" not in tables
        ):
            raise StoreError(
                f"{_shown(path)} is an SQLite database of some other program, not assay verdicts; "
                "it was left untouched (choose another file with --db)"
            )
        check_version(conn, path)
    except sqlite3.Error as error:
        raise store_error(path, error, "opening") from None


def check_version(conn: sqlite3.Connection, path: Path) -> None:
    """Refuse a database written by a newer assay (a schema version past LATEST)."""
    found = version(conn)
    if found > LATEST:
        raise StoreError(
            f"{_shown(path)} was written by a newer assay (schema version {found}; this assay "
            f"knows up to {LATEST}); it was left untouched: upgrade assay to use it"
        )


def _corrupt(path: Path, detail: str) -> StoreError:
    import shlex  # here: only a damaged database is named so

    detail = " ".join(detail.replace("*** in database main ***", "").split())
    if len(detail) > 100:
        detail = detail[:99] + "…"
    return StoreError(
        f"the verdict database {_shown(path)} is damaged ({detail}); it was left untouched: "
        "restore it from a backup, or save what it still holds (`assay export --db "
        f"{_shown(shlex.quote(str(path)))} --salvage --out rescued.jsonl`, then `assay import"
        " rescued.jsonl` into a new database), or choose another file with --db"
    )


def store_error(path: Path, error: sqlite3.Error, action: str) -> StoreError:
    """The one-line StoreError for an SQLite error met while doing ``action``."""
    text = str(error)
    if "locked" in text or "busy" in text:
        return StoreError(
            f"the verdict database {_shown(path)} stayed locked by another process for more "
            f"than {BUSY_TIMEOUT:.0f} s while {action}; nothing was saved, try again"
        )
    if "readonly" in text or "read-only" in text:
        return StoreError(
            f"the verdict database {_shown(path)} is read-only; verdicts cannot be saved there "
            "(choose another file with --db)"
        )
    if isinstance(error, sqlite3.DatabaseError) and (
        "malformed" in text or "not a database" in text
    ):
        return _corrupt(path, text)
    return StoreError(f"verdict database {_shown(path)}: {action} failed: {text}")


#: the longest file name most file systems take; SQLite adds "-journal" to the database's name
NAME_MAX = 255
_LONGEST_SUFFIX = len("-journal")


def check_name(path: Path) -> None:
    """Refuse a path with a component longer than file names may be (the database's own name
    leaves room for the -journal, -wal and -shm files beside it)."""
    parts = path.parts
    for number, part in enumerate(parts):
        limit = NAME_MAX - (_LONGEST_SUFFIX if number == len(parts) - 1 else 0)
        size = len(part.encode("utf-8", "surrogateescape"))
        if size > limit:
            shown = part if len(part) <= 40 else part[:37] + "..."
            raise StoreError(
                f"cannot use the verdict database path: the name {shown!r} is {size} bytes, "
                f"more than file names may hold ({limit}); choose a shorter one with --db"
            )


def _mode(path: Path) -> int | None:
    """The type and mode of the file at ``path`` (links followed), None when there is none;
    StoreError when the path cannot be looked at (a path too long, a loop of links)."""
    try:
        return path.stat().st_mode
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as error:
        raise StoreError(
            f"cannot use the verdict database path {_shown(path)}: {error.strerror or error} "
            "(choose another file with --db)"
        ) from None


def check_file(path: Path, *, readonly: bool) -> None:
    """Refuse, before SQLite touches it, a path that cannot be a usable verdict database."""
    check_name(path)
    mode = _mode(path)
    if mode is not None and stat.S_ISDIR(mode):
        raise StoreError(f"{_shown(path)} is a directory, not a verdict database")
    if mode is None:
        if readonly:
            # a first try of `assay export` or `stats` after the demo: point at its verdicts
            demo = path.parent / DEMO_DB_NAME
            beside = f"; `assay demo`'s are in {_shown(demo)}" if demo.is_file() else ""
            raise StoreError(
                f"there is no verdict database at {_shown(path)} (choose one with --db{beside})"
            )
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(f"cannot create {_shown(path.parent)}: {error.strerror}") from None
        if not os.access(path.parent, os.W_OK | os.X_OK):  # as check_database says it
            raise StoreError(f"cannot create {_shown(path)}: {_shown(path.parent)} is read-only")
        return
    if not stat.S_ISREG(mode):  # reading a FIFO's header would wait for a writer forever
        raise StoreError(f"{_shown(path)} is not a regular file, not a verdict database")
    try:
        with path.open("rb") as handle:
            header = handle.read(len(_SQLITE_HEADER))
    except OSError as error:
        raise StoreError(
            f"cannot read the verdict database {_shown(path)}: {error.strerror}"
        ) from None
    if header and header != _SQLITE_HEADER:
        raise StoreError(
            f"{_shown(path)} is not an SQLite database (not assay verdicts); it was left untouched "
            "(choose another file with --db)"
        )
    if not readonly and not os.access(path, os.W_OK):
        raise StoreError(
            f"the verdict database {_shown(path)} is read-only; verdicts cannot be saved there "
            "(choose another file with --db)"
        )
    if not readonly and not os.access(path.parent, os.W_OK | os.X_OK):
        raise StoreError(
            f"the directory of the verdict database {_shown(path)} is read-only; SQLite needs to"
            " write its journal beside it (choose another file with --db)"
        )


def connect(path: Path, mode: str, *, check_same_thread: bool = True) -> sqlite3.Connection:
    """A connection to the database at `path` opened in `mode` (a URI mode); StoreError if not."""
    try:
        return sqlite3.connect(
            f"{path.absolute().as_uri()}?mode={mode}",
            uri=True,
            timeout=BUSY_TIMEOUT,
            isolation_level=None,
            check_same_thread=check_same_thread,
        )
    except sqlite3.Error as error:
        raise StoreError(f"cannot open the verdict database {_shown(path)}: {error}") from None


def needs_immutable(path: Path) -> bool:
    """True when a read-only open can only read the file as immutable: SQLite cannot create its
    -shm file beside it, and no -wal file holds changes not merged yet; StoreError when one
    does (SQLite reads them only through an -shm file: "unable to open database file")."""
    wal = path.with_name(path.name + "-wal")
    shm = path.with_name(path.name + "-shm")
    if os.access(path.parent, os.W_OK | os.X_OK) or shm.exists():
        return False
    if not wal.exists() or wal.stat().st_size == 0:
        return True
    raise StoreError(
        f"the verdict database {_shown(path)} has changes in {_shown(wal.name)} that SQLite reads"
        f" only with a {_shown(shm.name)} file beside it, which it cannot create in the read-only"
        f" {_shown(path.parent)}: "
        "copy the database and its -wal file to a folder you can write, and use that copy"
    )
