"""`/` find: many targets are ranked off the event loop, and only the latest query is shown; a
scanner's results say where each is, and a query matches only what holds its letters in order."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from screenkit import on_top, reviewing, wait_until
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input, OptionList

from evidence.model import ReportSet
from evidence.reports.loading import load_reports
from evidence.sample import CITED_REVISION
from evidence.text_finder import matching
from keymaps import Keymap
from screens import find
from screens.find import RANK_AT_ONCE, FindScreen, FindTarget, rank, ranked
from tui.factory import make_app


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

    def recorded_among(
        query: str, found: list[FindTarget], among: list[int] | None
    ) -> tuple[str, list[FindTarget], list[int]]:
        threads.append(threading.current_thread().name)
        return ranked(query, found, among)

    monkeypatch.setattr(find, "rank", recorded)
    monkeypatch.setattr(find, "ranked", recorded_among)
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
        assert screen.showing == ""
        await pilot.press(*"token sync")
        await app.workers.wait_for_complete()
        main = threading.main_thread().name
        assert threads and main not in threads  # never on the event loop's thread
        await pilot.pause()
        assert screen.shown == rank("token sync", many)  # only the last query's ranking shows
        assert screen.showing == "token sync"
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


# --- in the review: what `/` lists and what a query matches ----------------------------------

RUFF = Path(__file__).resolve().parents[1] / "evidence" / "sarif" / "ruff-kestrel.sarif"


async def finding(pilot: Pilot[Any], query: str) -> FindScreen:
    """`/` opened over the review with ``query`` typed, its ranking shown."""
    await pilot.press("slash")
    await wait_until(pilot, lambda: isinstance(on_top(pilot.app), FindScreen), "find opened")
    dialog = on_top(pilot.app)
    assert isinstance(dialog, FindScreen)
    await pilot.press(*query)
    await pilot.app.workers.wait_for_complete()
    await wait_until(pilot, lambda: dialog.query_one(Input).value == query, "query typed")
    await pilot.pause()
    return dialog


def rows(dialog: FindScreen) -> list[str]:
    """The list's lines as drawn."""
    results = dialog.query_one(OptionList)
    drawn = [results.render_line(y).text.rstrip() for y in range(results.size.height)]
    print(*drawn, sep="\n")  # (shown when a test fails)
    return drawn


@pytest.mark.parametrize("size", [(120, 40), (80, 24), (52, 24)])
async def test_results_of_one_rule_say_where_each_is(
    tmp_path: Path, sample: Path, keymap: Keymap, size: tuple[int, int]
) -> None:
    # ruff's three UP045 results share their message: `/` listed three "UP045:<digest>  Use
    # `X | None`…" rows, alike; each says its file and line, whole at any width
    app = make_app(load_reports([RUFF]), sample, CITED_REVISION, tmp_path / "t.db", "t", keymap)
    async with app.run_test(size=size) as pilot:
        await reviewing(app).settle()
        dialog = await finding(pilot, "UP045")
        assert len([target for target in dialog.shown if target.kind == "record"]) == 3
        drawn = [line for line in rows(dialog) if "UP045" in line]
        assert len(drawn) == len(set(drawn)) == 3
        for line, place in zip(drawn, ("auth.py:36", "config.py:23", "server.py:11"), strict=True):
            assert place in line and "…:" not in line  # the file's name and line, uncut
        if size[0] >= 80:  # room for the directories and the message's first words
            assert "api/kestrel/config.py:23 Use `X | None`" in drawn[1]
        # a word of the file's name narrows to the results in that file
        await pilot.press(*" config")
        await app.workers.wait_for_complete()
        await pilot.pause()
        (only,) = dialog.shown
        assert only.kind == "record"
        assert only.label.endswith("api/kestrel/config.py:23 Use `X | None` for type annotations")
        await pilot.press("enter")
        await wait_until(pilot, lambda: not isinstance(on_top(app), FindScreen), "closed")
        screen = reviewing(app)
        await screen.settle()
        assert screen.record is not None and screen.record.label.startswith("Use `X | None`")
        assert screen.record.quotes[0].path.endswith("api/kestrel/config.py")
    app.close()


async def test_a_query_needs_its_letters_in_order_within_a_word(
    tmp_path: Path, sample: Path, keymap: Keymap, sample_reports: ReportSet
) -> None:
    # `token` listed data/legacy/stations_1998.csv (no k in it): rapidfuzz's WRatio scored it
    # alike enough; now every word typed is in each target's text, its letters in order
    app = make_app(sample_reports, sample, CITED_REVISION, tmp_path / "t.db", "t", keymap)
    async with app.run_test(size=(120, 40)) as pilot:
        await reviewing(app).settle()
        dialog = await finding(pilot, "token")
        assert dialog.shown
        assert all(_holds(target.text, "token") for target in dialog.shown)
        assert "data/legacy/stations_1998.csv" not in [t.path for t in dialog.shown]
        assert dialog.shown[0].label.startswith("KS-RTE-token-check ")
        # a letter left out still finds the record, before files that only look alike
        dialog.query_one(Input).value = "tokn"
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert dialog.shown[0].label.startswith("KS-RTE-token-check ")
        assert all(_holds(target.text, "tokn") for target in dialog.shown)
        assert not [t for t in dialog.shown if t.kind == "file"]
    app.close()


def _holds(text: str, word: str) -> bool:
    """Whether one word of ``text`` holds the letters of ``word`` in order."""
    for each in text.lower().split():
        letters = iter(each)
        if all(ch in letters for ch in word):
            return True
    return False


async def test_typing_on_looks_only_among_what_matched_and_finds_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each keystroke that types on (a word longer, a word more) ranks only the targets the
    query before matched, and shows what ranking them all shows; one that does not (a letter
    taken back) ranks them all again."""
    asked: list[tuple[str, int | None]] = []

    def recorded_among(
        query: str, found: list[FindTarget], among: list[int] | None
    ) -> tuple[str, list[FindTarget], list[int]]:
        asked.append((query, None if among is None else len(among)))
        return ranked(query, found, among)

    monkeypatch.setattr(find, "ranked", recorded_among)
    many = targets(RANK_AT_ONCE * 3)
    app = FindApp(many)
    async with app.run_test() as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FindScreen)
        typed = ""
        for key in [*"tok", "space", *"sy", "backspace", "backspace", *"ar"]:
            await pilot.press(key)
            await app.workers.wait_for_complete()
            await pilot.pause()
            typed = typed[:-1] if key == "backspace" else typed + (" " if key == "space" else key)
            assert screen.shown == rank(typed, many), typed
        folded = [target.folded for target in many]

        def matched(query: str) -> int:
            return len(matching(query, folded))

        assert asked == [
            ("", None),  # opened
            ("t", None),  # all of them
            ("to", matched("t")),  # among what "t" matched
            ("tok", matched("to")),
            ("tok ", matched("tok")),
            ("tok s", matched("tok ")),  # a word more: among what "tok " matched
            ("tok sy", matched("tok s")),
            ("tok s", None),  # a letter taken back: all of them again
            ("tok ", None),
            ("tok a", matched("tok ")),
            ("tok ar", matched("tok a")),
        ]
        assert matched("tok") < matched("t")
