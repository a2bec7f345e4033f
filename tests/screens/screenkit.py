"""Helpers for the screen tests: what a widget repaints and what an app notifies, observed
through their public methods (`Widget.refresh`, `App.notify`), wrapped."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from textual.app import App
from textual.geometry import Region
from textual.notifications import SeverityLevel
from textual.pilot import Pilot
from textual.widget import Widget


class Refreshes:
    """The regions a widget asks to repaint from now on."""

    def __init__(self, widget: Widget) -> None:
        self.calls: list[tuple[Region, ...]] = []
        original = widget.refresh

        def refresh(*regions: Region, **options: Any) -> Widget:
            self.calls.append(regions)
            return original(*regions, **options)

        widget.refresh = refresh  # type: ignore[method-assign]

    def clear(self) -> None:
        self.calls.clear()

    @property
    def regions(self) -> list[Region]:
        """Every region asked for (fails when the whole widget was refreshed)."""
        assert all(self.calls), f"the whole widget was refreshed: {self.calls}"
        return [region for call in self.calls for region in call]


class Notice(NamedTuple):
    message: str
    title: str
    severity: str
    markup: bool


def watch_notices(app: App[Any]) -> list[Notice]:
    """The notices the app is asked to show from now on (filled as they come)."""
    seen: list[Notice] = []
    original = app.notify

    def notify(
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        seen.append(Notice(str(message), title, severity, markup))
        original(message, title=title, severity=severity, timeout=timeout, markup=markup)

    app.notify = notify  # type: ignore[method-assign]
    return seen


async def wait_until(pilot: Pilot[Any], ready: Callable[[], bool], what: str) -> None:
    """Pause until ``ready()`` holds: a state reached, not a number of pauses guessed (a loaded
    machine can take many frames). Fails, naming ``what``, when it never comes."""
    for _ in range(400):
        if ready():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"never reached: {what}")
