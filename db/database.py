"""One open verdict database: the checks and migration on opening, and its short transactions.

Opening, reading and writing use the standard library's sqlite3 alone; sqlite_utils is imported
only to create or migrate the schema and for the items table (`Database.utils`). Writes are short
``BEGIN IMMEDIATE`` transactions on a WAL database with ``synchronous=FULL``, so a write that
returned survives a crash, and several assay processes can share one file. One connection, used
under a lock, so threads may share a Database. A wait for another process's lock is a loop here
(`Database._retry`), not SQLite's, so that a quitting program can stop it (``stop``).
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from db import schema
from db.check import (
    BUSY_TIMEOUT,
    WAIT_STEP,
    LockedOut,
    StoreError,
    check_file,
    check_version,
    connect,
    needs_immutable,
    store_error,
    verify,
)
from evidence.text import shown_path

if TYPE_CHECKING:
    import sqlite_utils

__all__ = ["Database"]

T = TypeVar("T")


class Database:
    """An open verdict database and the transactions every store call runs in."""

    def __init__(
        self,
        path: Path,
        conn: sqlite3.Connection,
        *,
        readonly: bool,
        stop: threading.Event | None = None,
    ) -> None:
        self.path = path
        self.readonly = readonly
        self.conn = conn
        #: once set, a wait for another process's lock raises `LockedOut` (at once, or within
        #: WAIT_STEP when already waiting)
        self.stop = stop if stop is not None else threading.Event()
        self._utils: sqlite_utils.Database | None = None
        self._lock = threading.RLock()
        self._closed = False

    @property
    def utils(self) -> sqlite_utils.Database:
        """sqlite_utils on the same connection, imported on first use (schema and items)."""
        if self._utils is None:
            import sqlite_utils

            self._utils = sqlite_utils.Database(self.conn, execute_plugins=False)
        return self._utils

    @classmethod
    def open(cls, path: Path, *, readonly: bool, stop: threading.Event | None = None) -> Database:
        """Open (creating it unless readonly) and migrate the database; StoreError if unusable.
        Waits for another process's lock end early, with `LockedOut`, once ``stop`` is set."""
        check_file(path, readonly=readonly)
        mode = "ro" if readonly else "rwc"
        if readonly and needs_immutable(path):
            # WAL readers need to create the -shm file; where they cannot, and no -wal holds
            # unmerged changes, the file can only be read as immutable.
            mode = "ro&immutable=1"
        conn = connect(path, mode, check_same_thread=False)
        database = cls(path, conn, readonly=readonly, stop=stop)
        try:
            database._prepare()
        except BaseException:
            conn.close()
            raise
        return database

    def _prepare(self) -> None:
        conn = self.conn
        verify(conn, self.path)
        try:
            if not self.readonly:
                conn.execute(f"PRAGMA busy_timeout = {int(WAIT_STEP * 1000)}")
                self._retry(lambda: conn.execute("PRAGMA journal_mode = WAL").fetchone())
                conn.execute("PRAGMA synchronous = FULL")
                # large merges (a first sync: 100,000 events) touch six b-trees at random
                # places; a page cache of up to 64 MB keeps them from being read again
                conn.execute("PRAGMA cache_size = -65536")
                if self._retry(lambda: schema.version(conn)) < schema.LATEST:
                    self._write(self._migrate)
            elif schema.version(conn) == 0:
                shown = shown_path(self.path)
                raise StoreError(f"{shown} holds no verdicts yet (it is an empty database)")
            elif schema.version(conn) < schema.LATEST:
                self._read_migrated_copy()
        except sqlite3.Error as error:
            raise store_error(self.path, error, "opening") from None

    def _read_migrated_copy(self) -> None:
        """Read a database an older assay wrote, opened read-only, through a copy in memory
        brought to this schema: the file is left as it is, and the reads find the tables and
        the keys they look for (a migration moves verdicts to new keys, db/schema.py)."""
        copy = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        try:
            self.conn.backup(copy)
            self.conn.close()
        except BaseException:
            copy.close()
            raise
        self.conn = copy
        self._utils = None
        copy.execute("BEGIN IMMEDIATE")
        schema.migrate(self.utils)
        copy.execute("COMMIT")

    def _migrate(self, conn: sqlite3.Connection) -> None:
        # again, under the write lock: another process may have migrated meanwhile
        check_version(conn, self.path)
        schema.migrate(self.utils)

    def _retry(self, step: Callable[[], T]) -> T:
        """Run a step, retrying while another process holds the lock, up to BUSY_TIMEOUT or
        until `stop` is set (`LockedOut`)."""
        deadline = time.monotonic() + BUSY_TIMEOUT
        pause = 0.001
        while True:
            try:
                return step()
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) and "busy" not in str(error):
                    raise
                if self.stop.is_set():
                    raise LockedOut(
                        f"the verdict database {shown_path(self.path)} is locked by another process"
                    ) from None
                if time.monotonic() > deadline:
                    raise
                self.stop.wait(pause)
                pause = min(pause * 2, 0.05)

    def _write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run work in one short BEGIN IMMEDIATE transaction, committed before returning."""
        if self.readonly:
            raise StoreError(f"the verdict database {shown_path(self.path)} was opened read-only")
        with self._lock:
            self._ensure_open()
            self._retry(lambda: self.conn.execute("BEGIN IMMEDIATE"))
            try:
                result = work(self.conn)
                self.conn.execute("COMMIT")
            except BaseException:
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                raise
            return result

    def _read(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run reads on one consistent snapshot (again while the database is locked: WAL
        readers wait only while another process recovers or checkpoints it)."""
        return self._retry(lambda: self._read_once(work))

    def _read_once(self, work: Callable[[sqlite3.Connection], T]) -> T:
        with self._lock:
            self._ensure_open()
            self.conn.execute("BEGIN")
            try:
                return work(self.conn)
            finally:
                self.conn.execute("COMMIT")

    def _ensure_open(self) -> None:
        if self._closed:
            raise StoreError(f"the verdict database {shown_path(self.path)} is closed")

    def run(self, action: str, work: Callable[[sqlite3.Connection], T], *, write: bool) -> T:
        """``work(connection)`` in one transaction (a write or a read snapshot); any SQLite error
        becomes a StoreError that says which ``action`` failed and why."""
        try:
            return self._write(work) if write else self._read(work)
        except sqlite3.Error as error:
            raise store_error(self.path, error, action) from None
        except UnicodeEncodeError:
            raise StoreError(
                f"{action} failed: the text holds characters that cannot be stored "
                "(unpaired surrogates)"
            ) from None

    def close(self) -> None:
        """Close the connection (idempotent)."""
        with self._lock:
            if not self._closed:
                self._closed = True
                self.conn.close()
