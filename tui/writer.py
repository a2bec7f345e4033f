"""The review screen's one store-writer thread: verdicts are stored in the order they were given."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from textual.message_pump import MessagePump

from tui.messages import Written


class StoreWriter:
    """Runs store writes one at a time off the event loop; each result comes back as `Written`."""

    def __init__(self, target: MessagePump) -> None:
        self._target = target
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="assay-store")

    def submit(self, work: Callable[[], object], then: Callable[..., Any] | None = None) -> None:
        """Run ``work`` on the writer thread; ``then(result)`` runs on the UI afterwards."""

        def done(future: Future[object]) -> None:
            error = future.exception()
            result = None if error is not None else future.result()
            self._target.post_message(Written(result, error, then or (lambda _result: None)))

        try:
            self._executor.submit(work).add_done_callback(done)
        except RuntimeError:  # the screen is closing: the write still must not be lost
            work()

    async def flush(self) -> None:
        """Wait until every write submitted so far is done."""
        await asyncio.wrap_future(self._executor.submit(lambda: None))

    def close(self) -> None:
        """Finish every pending write, then stop the thread."""
        self._executor.shutdown(wait=True)
