"""An interrupt ends an app as it ends a command: exit status 130.

SIGINT (``kill -INT``, a terminal that still sends it) makes the running app exit with 130. In
the app ``ctrl+c`` is a key, not a signal: the first press says how to quit, a second one quits
(also with 130), so a reflexive ctrl+c never drops a review.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Iterator
from types import FrameType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.app import App

    _AppBase = App[Any]
else:
    _AppBase = object

#: exit status after an interrupt, as shells report one (128 + SIGINT)
INTERRUPTED = 130
#: seconds a first ctrl+c waits for the second
SECOND_PRESS = 5.0


class InterruptQuit(_AppBase):
    """Mixed in ahead of `App`: ctrl+c (Textual's ``help_quit``) twice quits with 130."""

    _quit_armed = False

    def action_help_quit(self) -> None:
        if self._quit_armed:
            self.exit(return_code=INTERRUPTED)
            return
        self._quit_armed = True
        self.notify(
            "Press ctrl+c again to quit", title="Do you want to quit?", timeout=SECOND_PRESS
        )
        self.set_timer(SECOND_PRESS, self._disarm)

    def _disarm(self) -> None:
        self._quit_armed = False


@contextlib.contextmanager
def sigint_exits(app: App[Any]) -> Iterator[None]:
    """While the app runs, SIGINT makes it exit with `INTERRUPTED` (outside the app's loop, or
    off the main thread: Python's KeyboardInterrupt as usual)."""

    def interrupted(signum: int, frame: FrameType | None) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            raise KeyboardInterrupt from None
        loop.call_soon_threadsafe(lambda: app.exit(return_code=INTERRUPTED))

    try:
        previous = signal.signal(signal.SIGINT, interrupted)
    except ValueError:  # not the main thread: signals are not ours to handle
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
