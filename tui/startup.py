"""The cycle collector, paused from the start of an app command until the app's first frame.

Importing Textual and assay and building the first screen create many objects that live as long
as the app; the collections they would set off walk them for almost no garbage. A command that
opens the app calls `pause()` before importing anything heavy; the app factory takes the pause
over (`take()`) and the app resumes the collector (`gc.enable()`, nothing frozen) once its first
frame is painted. Nothing here imports anything: it must run before the imports it speeds up.
"""

from __future__ import annotations

import gc

_paused = False  # the collector was running and `pause()` stopped it


def pause() -> None:
    """Stop the cycle collector (if running) until `take()` or `release()`."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def take() -> bool:
    """Pause (if not yet) and hand the pause over: True when the caller must resume it."""
    global _paused
    pause()
    resume, _paused = _paused, False
    return resume


def release() -> None:
    """Resume a collector `pause()` stopped and nobody took over (a command that fails early)."""
    global _paused
    if _paused:
        _paused = False
        gc.enable()
