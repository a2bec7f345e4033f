"""`/` find: many targets are ranked off the event loop, and only the latest query is shown."""

from __future__ import annotations

import threading

import pytest
from textual.app import App
from textual.widgets import OptionList

from screens import find
from screens.find import RANK_AT_ONCE, FindScreen, FindTarget, rank


def targets(count: int) -> list[FindTarget]:
    words = ("ticket", "escalation", "station", "sync", "worker", "token", "digest", "archive")
    return [
        FindTarget("quote", f"q{n}", f"{words[n % 8]} {words[(n // 8) % 8]} file{n}.py", n, 0)
        for n in range(count)
    ]


class FindApp(App[None]):
    def __init__(self, found: list[FindTarget]) -> None:
        super().__init__()
        self.found = found

    def on_mount(self) -> None:
        self.push_screen(FindScreen(self.found))


def ranked_in(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The threads the ranking ran in, in order."""
    threads: list[str] = []

    def recorded(query: str, found: list[FindTarget]) -> list[FindTarget]:
        threads.append(threading.current_thread().name)
        return rank(query, found)

    monkeypatch.setattr(find, "rank", recorded)
    return threads


async def test_many_targets_are_ranked_in_a_thread_and_the_last_query_wins(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    threads = ranked_in(monkeypatch)
    many = targets(RANK_AT_ONCE * 3)
    app = FindApp(many)
    async with app.run_test() as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FindScreen)
        assert screen.shown == rank("", many)
        await pilot.press(*"token sync")
        await app.workers.wait_for_complete()
        main = threading.main_thread().name
        assert threads and main not in threads  # never on the event loop's thread
        await pilot.pause()
        assert screen.shown == rank("token sync", many)  # only the last query's ranking shows
        assert screen.query_one(OptionList).option_count == len(screen.shown) > 0
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is not screen  # dismissed with the highlighted target


async def test_a_few_targets_are_ranked_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    threads = ranked_in(monkeypatch)
    few = targets(50)
    app = FindApp(few)
    async with app.run_test() as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FindScreen)
        await pilot.press(*"digest")
        assert screen.shown == rank("digest", few)  # no worker to wait for
        assert set(threads) == {threading.main_thread().name}  # no worker to wait for
