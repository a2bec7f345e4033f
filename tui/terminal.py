"""The terminal an app runs in: exit when it is gone (for every AssayApp)."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.app import App

#: seconds between checks: soon after the terminal goes, before the frames Textual can no longer
#: write fill its output queue (its writer thread stops at the first failed write, and a full
#: queue then blocks the app, its exit included)
CHECK_EVERY = 0.2


def exit_when_terminal_gone(app: App[Any]) -> None:
    """Exit the app (writing what is pending) once its terminal is gone: a closed window, ssh lost.

    Textual's input thread reads end-of-file from a hung-up terminal and tries again at once, for
    ever, at 100% of a core; and SIGHUP does not always arrive (a `make demo` between the
    terminal and assay kept it). A terminal that is gone is no longer a tty: checked every
    `CHECK_EVERY` seconds.
    """
    if app.is_headless:
        return
    try:
        fd = sys.__stdin__.fileno() if sys.__stdin__ is not None else -1
    except (AttributeError, ValueError, OSError):
        return
    if fd < 0 or not os.isatty(fd):
        return

    def check() -> None:
        if not os.isatty(fd):
            app.exit()

    app.set_interval(CHECK_EVERY, check)
