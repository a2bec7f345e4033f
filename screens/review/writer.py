"""The review screen's verdict store and its one writer thread.

The store is opened on the writer thread, as its first piece of work, so the first frame never
waits for SQLite (a database another process holds locked can keep an open waiting for seconds).
Everything given to the writer runs after that, in the order given: a verdict key pressed before
the store is open is queued and saved once it is.

Quitting waits at most `CLOSE_WAIT` for the writes still pending. When another process holds the
database locked longer, the writer stops waiting, gives those writes to a copy kept aside beside
the database (db/aside.py: the next open saves them into it) and the handle says so
(`StoreHandle.close`), for the app shell to print once the app is gone.
"""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from textual.message_pump import MessagePump

from screens.review.messages import Written

if TYPE_CHECKING:
    from db import StoreError, VerdictStore

T = TypeVar("T")

#: seconds quitting waits for pending writes before keeping them aside
CLOSE_WAIT = 1.0


class StoreHandle:
    """The verdict store of a review: one given open, or one opened from a path on first use.

    ``get()`` opens it (once; thread-safe) and returns it, or raises the `StoreError` opening
    failed with, every time. A store opened here is closed by ``close()``; a store given open is
    left open.
    """

    def __init__(self, store: VerdictStore | None = None, *, path: Path | None = None) -> None:
        self._store = store
        self._path = path
        self._owned = store is None
        self._error: StoreError | None = None
        self._lock = threading.Lock()
        #: set when the app quits: a wait for another process's lock ends (`db.LockedOut`)
        self.stop = threading.Event()
        self._said: list[str] = []  # what to tell the user once the app is gone

    @property
    def store(self) -> VerdictStore | None:
        """The store once open (None before, or when opening failed)."""
        return self._store

    @property
    def error(self) -> StoreError | None:
        """Why the store could not be opened, once that is known."""
        return self._error

    @property
    def path(self) -> Path:
        """The database file."""
        if self._store is not None:
            return self._store.path
        if self._path is not None:
            return self._path.expanduser()
        from db import default_path

        return default_path()

    def get(self) -> VerdictStore:
        """The open store; opens it on first use (call it off the event loop)."""
        with self._lock:
            if self._store is not None:
                return self._store
            if self._error is not None:
                raise self._error
            from db import StoreError, VerdictStore

            try:
                self._store = VerdictStore.open(self._path, stop=self.stop)
            except StoreError as error:
                self._error = error
                raise
            return self._store

    def say(self, line: str) -> None:
        """Keep a line for the user, said when the store is closed (after the app)."""
        self._said.append(line)

    def close(self) -> str | None:
        """Close the store if it was opened here (idempotent); what the user must be told
        (changes kept aside), or None."""
        with self._lock:
            if self._owned and self._store is not None:
                self._store.close()
        said, self._said = self._said, []
        return "\n".join(said) or None


class Job(NamedTuple):
    """A work given to the writer; ``done`` gets its result (or error)."""

    work: Callable[[VerdictStore], Any] | None  # None: a mark (`flush`)
    done: Future[Any]


class StoreWriter:
    """Runs store work one at a time off the event loop; each result comes back as `Written`."""

    def __init__(self, target: MessagePump, handle: StoreHandle) -> None:
        self._target = target
        self._handle = handle
        self._jobs: deque[Job] = deque()
        self._ready = threading.Condition()
        self._closing = False
        self._thread: threading.Thread | None = None  # started by the first work (after the frame)

    def submit(
        self,
        work: Callable[[VerdictStore], T],
        reply: object = None,
        to: MessagePump | None = None,
    ) -> None:
        """Run ``work(store)`` on the writer thread; its result comes back as `Written` with
        ``reply`` (to ``to``, else to the writer's target), handled on the UI afterwards.

        The first work submitted opens the store; when it cannot be opened, every work fails
        with that `StoreError` (delivered as ``Written.error``).
        """
        target = to or self._target
        job = Job(work, Future())

        def done(future: Future[Any]) -> None:
            error = future.exception()
            result = None if error is not None else future.result()
            target.post_message(Written(reply, result, error))

        job.done.add_done_callback(done)
        if not self._queue(job):  # the screen is closing: the write still must not be lost
            self._after_close(job)

    def _queue(self, job: Job) -> bool:
        with self._ready:
            if self._closing:
                return False
            self._jobs.append(job)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="assay-store", daemon=True)
                self._thread.start()
            self._ready.notify()
            return True

    def _after_close(self, job: Job) -> None:
        """Run ``job`` here and now, without waiting for another process's lock."""
        from db import LockedOut

        assert job.work is not None
        self._handle.stop.set()  # quitting: no wait for the lock
        try:
            job.done.set_result(job.work(self._handle.get()))
        except LockedOut:
            self._keep_aside([job])
        except BaseException as error:
            job.done.set_exception(error)

    def _run(self) -> None:
        from db import LockedOut

        while True:
            with self._ready:
                while not self._jobs and not self._closing:
                    self._ready.wait()
                if not self._jobs:
                    return
                job = self._jobs[0]
            if job.work is None:
                outcome: Any = None
            else:
                try:
                    outcome = job.work(self._handle.get())
                except LockedOut:  # quitting: kept aside by `close`, with the jobs after it
                    return
                except BaseException as error:
                    outcome = error
            with self._ready:
                self._jobs.popleft()
                self._ready.notify_all()
            if isinstance(outcome, BaseException):
                job.done.set_exception(outcome)
            else:
                job.done.set_result(outcome)

    async def flush(self) -> None:
        """Wait until every write submitted so far is done."""
        mark = Job(None, Future())
        if self._queue(mark):
            await asyncio.wrap_future(mark.done)

    def close(self, wait: float = CLOSE_WAIT) -> None:
        """Finish the pending writes, waiting at most ``wait`` seconds for another process's
        lock; then stop the thread. Writes that could not wait are kept aside."""
        with self._ready:
            self._closing = True
            self._ready.notify_all()
            thread = self._thread
        if thread is None:
            return
        thread.join(wait)
        if thread.is_alive():
            self._handle.stop.set()  # a wait for the lock ends now; a write under way finishes
            thread.join()
        with self._ready:
            left = [job for job in self._jobs if job.work is not None]
            self._jobs.clear()
        if left:
            self._keep_aside(left)

    def _keep_aside(self, jobs: list[Job]) -> None:
        """Give ``jobs`` to a copy of the database kept aside (db/aside.py) and say where."""
        from db import Event, StoreError, VerdictStore

        database = self._handle.path
        changes, lost = 0, 0
        try:
            aside = VerdictStore.aside(database)
        except (StoreError, OSError) as error:
            self._not_saved(len(jobs), f"no copy could be made beside it: {error}")
            return
        for job in jobs:
            assert job.work is not None
            try:
                changes += isinstance(job.work(aside), Event)
            except Exception:  # counted as lost below, never a traceback on the way out
                lost += 1
        try:
            aside.close()
        except OSError as error:
            self._not_saved(len(jobs), f"the copy beside it failed: {error}")
            return
        if changes or lost:
            self._handle.say(
                f"assay: the verdict database {database} was locked by another process: "
                f"{changes} change(s) (verdicts, notes) are kept in {aside.path}; "
                "the next assay command that writes to the database (review, demo, import, "
                "sync) saves them into it" + (f" ({lost} could not be kept)" if lost else "")
            )

    def _not_saved(self, count: int, why: str) -> None:
        self._handle.say(
            f"assay: {count} change(s) NOT saved: the verdict database {self._handle.path} "
            f"stayed locked by another process, and {why}"
        )
