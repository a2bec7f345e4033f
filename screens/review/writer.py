"""The review screen's verdict store and its one writer thread.

The store is opened on the writer thread, as its first piece of work, so the first frame never
waits for SQLite (a database another process holds locked can keep an open waiting for seconds).
Everything given to the writer runs after that, in the order given: a verdict key pressed before
the store is open is queued and saved once it is.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from textual.message_pump import MessagePump

from screens.review.messages import Written

if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor

    from db import StoreError, VerdictStore

T = TypeVar("T")


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

    @property
    def store(self) -> VerdictStore | None:
        """The store once open (None before, or when opening failed)."""
        return self._store

    @property
    def error(self) -> StoreError | None:
        """Why the store could not be opened, once that is known."""
        return self._error

    def get(self) -> VerdictStore:
        """The open store; opens it on first use (call it off the event loop)."""
        with self._lock:
            if self._store is not None:
                return self._store
            if self._error is not None:
                raise self._error
            from db import StoreError, VerdictStore

            try:
                self._store = VerdictStore.open(self._path)
            except StoreError as error:
                self._error = error
                raise
            return self._store

    def close(self) -> None:
        """Close the store if it was opened here (idempotent)."""
        with self._lock:
            if self._owned and self._store is not None:
                self._store.close()


class StoreWriter:
    """Runs store work one at a time off the event loop; each result comes back as `Written`."""

    def __init__(self, target: MessagePump, handle: StoreHandle) -> None:
        self._target = target
        self._handle = handle
        self._pool: ThreadPoolExecutor | None = None  # started by the first work (after the frame)

    @property
    def _executor(self) -> ThreadPoolExecutor:
        if self._pool is None:
            from concurrent.futures import ThreadPoolExecutor

            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="assay-store")
        return self._pool

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

        def run() -> T:
            return work(self._handle.get())

        def done(future: Future[T]) -> None:
            error = future.exception()
            result = None if error is not None else future.result()
            target.post_message(Written(reply, result, error))

        try:
            self._executor.submit(run).add_done_callback(done)
        except RuntimeError:  # the screen is closing: the write still must not be lost
            run()

    async def flush(self) -> None:
        """Wait until every write submitted so far is done."""
        await asyncio.wrap_future(self._executor.submit(lambda: None))

    def close(self) -> None:
        """Finish every pending write, then stop the thread."""
        if self._pool is not None:
            self._pool.shutdown(wait=True)
