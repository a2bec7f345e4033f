"""Issue 23, "the verdict target never surprises": a key (and `[` from the first quote) turns the
verdict keys back to the record; arriving at a quote by find, a backlink or enter on its row
selects it, as `]` does; back returns to where the reviewer was reading."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from screenkit import index_of, press
from textual.app import App
from textual.pilot import Pilot

from db import Verdict
from keymaps import load_keymap
from screens.backlinks import BacklinksScreen
from screens.find import FindScreen
from screens.review.history import Location
from screens.review.screen import ReviewScreen
from screens.widgets.target_line import TargetLine
from tui.factory import make_demo_app

SIZES = [(120, 40), (80, 24)]
RECORD = "KS-RTE-ticket-escalation"  # three quotes, a long body


async def opened(pilot: Pilot[Any], app: App[Any]) -> ReviewScreen:
    screen = app.screen
    assert isinstance(screen, ReviewScreen)
    await screen.settle()
    await pilot.pause()
    return screen


def status(screen: ReviewScreen) -> str:
    return str(screen.query_one(TargetLine).render())


async def source_shown(pilot: Pilot[Any], screen: ReviewScreen) -> None:
    for _ in range(100):
        await pilot.pause()
        if screen.sources.shown == screen.sources.request and screen.source_view.line_count:
            return
    raise AssertionError("the source pane never showed its file")


@pytest.mark.parametrize("size", SIZES)
async def test_escape_and_bracket_before_the_first_quote_return_to_the_record(
    tmp_path: Path, sample: Path, size: tuple[int, int]
) -> None:
    app = make_demo_app(tmp_path, reviewer="t", keymap=load_keymap(user=False))
    async with app.run_test(size=size) as pilot:
        screen = await opened(pilot, app)
        screen.go(Location(index_of(screen, RECORD), 0))
        await press(pilot, screen, "right_square_bracket", "right_square_bracket")
        record = screen.record
        assert record is not None and screen.moves.target_quote() is record.quotes[1]
        if size[0] >= 120:  # the hint shows where the line has room for it
            assert status(screen).endswith("(esc: the record)")
        else:  # else the names are cut, then the hint goes: the verdict stays in view
            assert status(screen).endswith(" · open"), status(screen)
        await press(pilot, screen, "escape")
        assert screen.moves.target_quote() is None
        assert f"verdict keys → record {RECORD}" in status(screen)
        assert "esc:" not in status(screen)
        assert screen.quote is not None and screen.quote.index == 1  # the source still shows it
        await press(pilot, screen, "c")
        session = screen.session
        assert session.verdict(session.record_item(record)) is Verdict.CONFIRMED
        assert session.verdict(session.quote_item(record, record.quotes[1])) is None
        # ] selects the quote shown; [ from the first quote goes on to the record
        await press(pilot, screen, "right_square_bracket", "left_square_bracket")
        assert "quote [1] " in status(screen)
        await press(pilot, screen, "left_square_bracket")
        assert f"verdict keys → record {RECORD}" in status(screen)
        await press(pilot, screen, "left_square_bracket")  # and from the record, the first again
        assert "quote [1] " in status(screen)
    app.close()


@pytest.mark.parametrize("size", SIZES)
async def test_find_to_a_quote_selects_it_for_verdicts(
    tmp_path: Path, sample: Path, size: tuple[int, int]
) -> None:
    app = make_demo_app(tmp_path, reviewer="t", keymap=load_keymap(user=False))
    async with app.run_test(size=size) as pilot:
        screen = await opened(pilot, app)
        await press(pilot, screen, "slash")
        assert isinstance(app.screen, FindScreen)
        await pilot.press(*"BASE_DELAY_MS = 500")  # the second quote of KS-RTE-note-sync
        await press(pilot, screen, "enter")
        record, quote = screen.record, screen.quote
        assert record is not None and record.id == "KS-RTE-note-sync"
        assert quote is not None and quote.index == 1
        assert "[2/2]" in str(screen.source_view.border_title)
        assert "verdict keys → quote [2] worker/src/retry.js" in status(screen)
        await press(pilot, screen, "c")
        session = screen.session
        assert session.verdict(session.quote_item(record, quote)) is Verdict.CONFIRMED
        assert session.verdict(session.record_item(record)) is None
        # finding a record (not a quote) selects the record
        await press(pilot, screen, "slash")
        await pilot.press(*"KS-CMP-api-server")
        await press(pilot, screen, "enter")
        assert f"record {'KS-CMP-api-server'}" in status(screen)
    app.close()


@pytest.mark.parametrize("size", SIZES)
async def test_a_backlink_selects_its_quote_for_verdicts(
    tmp_path: Path, sample: Path, size: tuple[int, int]
) -> None:
    app = make_demo_app(tmp_path, reviewer="t", keymap=load_keymap(user=False))
    async with app.run_test(size=size) as pilot:
        screen = await opened(pilot, app)
        screen.go(Location(index_of(screen, RECORD), 0))  # its first quote: api/kestrel/tickets.py
        await source_shown(pilot, screen)
        assert screen.moves.target_quote() is None
        path = screen.source_view.path
        assert path is not None
        links = screen.backlinks_of(path)
        other = next(n for n, link in enumerate(links) if link.record != RECORD)
        await press(pilot, screen, "b")
        assert isinstance(app.screen, BacklinksScreen)
        await pilot.press(*["down"] * other)
        await press(pilot, screen, "enter")
        link = links[other]
        record, quote = screen.record, screen.quote
        assert record is not None and record.id == link.record and quote == link.quote
        assert screen.moves.target_quote() is quote
        assert quote is not None
        assert f"quote [{quote.index + 1}] " in status(screen)
    app.close()


@pytest.mark.parametrize("size", SIZES)
async def test_enter_on_a_quote_row_selects_that_quote(
    tmp_path: Path, sample: Path, size: tuple[int, int]
) -> None:
    app = make_demo_app(tmp_path, reviewer="t", keymap=load_keymap(user=False))
    async with app.run_test(size=size) as pilot:
        screen = await opened(pilot, app)
        screen.go(Location(index_of(screen, RECORD), 0))
        await screen.settle()
        pane = screen.record_pane
        pane.focus()
        pane.move_to(pane.row_index("quote-2"))  # the cursor put there without a move message
        await press(pilot, screen)
        assert screen.moves.target_quote() is None
        await press(pilot, screen, "enter")
        assert screen.focused is screen.source_view
        assert "quote [3] " in status(screen)
        assert "[3/3]" in str(screen.source_view.border_title)
    app.close()


@pytest.mark.parametrize("size", SIZES)
async def test_back_returns_to_where_the_reviewer_was_reading(
    tmp_path: Path, sample: Path, size: tuple[int, int]
) -> None:
    app = make_demo_app(tmp_path, reviewer="t", keymap=load_keymap(user=False))
    async with app.run_test(size=size) as pilot:
        screen = await opened(pilot, app)
        screen.go(Location(index_of(screen, RECORD), 0))
        await press(pilot, screen, "right_square_bracket", "right_square_bracket")  # quote [2]
        await source_shown(pilot, screen)
        view, pane = screen.source_view, screen.record_pane
        # read the source a few lines past the quote, then the record a page down
        screen.set_focus(view)
        await press(pilot, screen, *["down"] * 6)
        line, source_top = view.cursor_line, round(view.scroll_y)
        screen.set_focus(pane)
        await press(pilot, screen, "pagedown")
        record_top, row = round(pane.scroll_y), pane.highlighted_id
        assert record_top > 0
        # jump away by find, then back
        await press(pilot, screen, "slash")
        await pilot.press(*"KS-CMP-api-server")
        await press(pilot, screen, "enter")
        assert screen.record is not None and screen.record.id == "KS-CMP-api-server"
        await press(pilot, screen, "backspace")
        await source_shown(pilot, screen)
        await pilot.pause()
        assert screen.record is not None and screen.record.id == RECORD
        assert "quote [2] " in status(screen)  # the target it had
        assert screen.focused is pane
        assert (round(pane.scroll_y), pane.highlighted_id) == (record_top, row)
        assert (view.cursor_line, round(view.scroll_y)) == (line, source_top)
        # forward returns to the record jumped to, back again to the same place
        await press(pilot, screen, "alt+right")
        assert screen.record is not None and screen.record.id == "KS-CMP-api-server"
        await press(pilot, screen, "alt+left")
        await source_shown(pilot, screen)
        await pilot.pause()
        assert (round(pane.scroll_y), view.cursor_line) == (record_top, line)
    app.close()
