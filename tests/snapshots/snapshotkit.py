"""Wait for a screen that has stopped changing before a snapshot is taken."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot


async def steady(pilot: Pilot[Any], *, tries: int = 100) -> None:
    """Pause until two screenshots 50 ms apart are the same.

    On a loaded machine a message (a header count, a resize's scroll) can still be on its way
    when the conditions a test waits for hold; the snapshot must not catch it half done.
    """
    previous = None
    for _ in range(tries):
        await pilot.pause(0.05)
        shot = pilot.app.export_screenshot()
        if shot == previous:
            return
        previous = shot
    raise AssertionError("the screen never stopped changing")
