"""Helpers for the screen tests: what a widget repaints and what an app notifies, observed
through their public methods (`Widget.refresh`, `App.notify`), wrapped; the review screen opened
and driven from the keyboard; a small app for one dialog."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from textual.app import App
from textual.geometry import Region
from textual.notifications import SeverityLevel
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget

from screens.review.history import Location
from screens.review.screen import ReviewScreen

LONG = "KS-RTE-ticket-escalation"  # a route with three quotes after a long body


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


def review_screen(app: App[Any]) -> ReviewScreen:
    return next(s for s in app.screen_stack if isinstance(s, ReviewScreen))


def index_of(screen: ReviewScreen, record_id: str) -> int:
    """The index of the record `record_id` in the review."""
    return next(n for n, r in enumerate(screen.session.records) if r.id == record_id)


async def settle(pilot: Pilot[Any], screen: ReviewScreen) -> None:
    """What is pending handled, the review settled (its reads and the source shown), and what
    that posted handled."""
    await pilot.pause()
    await screen.settle()
    await pilot.pause()


async def opened(pilot: Pilot[Any], app: App[Any], record_id: str = LONG) -> ReviewScreen:
    """The review screen, settled, on the record `record_id`."""
    screen = app.screen
    assert isinstance(screen, ReviewScreen)
    await screen.settle()
    await pilot.pause()
    index = index_of(screen, record_id)
    screen.go(Location(index, 0))
    await screen.settle()
    await pilot.pause()
    return screen


async def press(pilot: Pilot[Any], screen: ReviewScreen, *keys: str) -> None:
    await pilot.press(*keys)
    await screen.settle()
    await pilot.pause()


def reviewing(app: App[Any]) -> ReviewScreen:
    """The screen on top, which is the review screen (typed as one: an `is` against the screen on
    top keeps it a ReviewScreen for mypy)."""
    screen = app.screen
    assert isinstance(screen, ReviewScreen)
    return screen


def on_top(app: App[Any]) -> Screen[Any]:
    """The screen on top now. A call: mypy keeps an `isinstance` on `app.screen` across the
    awaits that change the screen, never on a call's result."""
    return app.screen


def focused(node: App[Any] | Screen[Any]) -> Widget | None:
    """The focused widget now (a call, as `on_top`)."""
    return node.focused


class DialogApp(App[None]):
    """Pushes one dialog and keeps what it dismissed with."""

    def __init__(self, dialog: Screen[Any]) -> None:
        super().__init__()
        self.dialog = dialog
        self.results: list[Any] = []

    def on_mount(self) -> None:
        self.push_screen(self.dialog, self.results.append)


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True
    ).stdout


class Reviewed(NamedTuple):
    """What a review opened once said and held (`review_once`)."""

    notices: list[Notice]
    stale: int  # the reviewer's stale verdicts
    current: dict[str, Any]  # record id -> the reviewer's verdict on it (or on its quote)
    others: dict[str, Any] = {}  # record id -> [(reviewer, verdict)] of the other reviewers

    @property
    def said(self) -> list[str]:
        return [notice.message for notice in self.notices]


async def review_once(repo: Path, scan: Path, rev: str, db: Path, keymap: Any) -> Reviewed:
    """Open a review of ``scan`` at ``repo``/``rev`` as "ada" into ``db``, let it load, anchor
    and register (its store's writer flushed), close it: what it said and held."""
    from evidence.reports.loading import load_reports
    from tui.factory import make_app

    app = make_app(load_reports([scan]), repo, rev, db, "ada", keymap)
    notices = watch_notices(app)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = reviewing(app)
        await settle(pilot, screen)
        await screen.verdicts.writer.flush()
        await pilot.pause()
        stale = len(screen.state.stale)
        current = {e.record: e.verdict for e in screen.session.current.values()}
        others: dict[str, Any] = {}
        for events in screen.session.others.values():
            for e in events:
                others.setdefault(e.record, []).append((e.reviewer, e.verdict))
    app.close()
    return Reviewed(notices, stale, current, others)
