"""Issue 23, smaller frictions of the review app: half pages in the record pane, a range typed
at `:` kept for `y`, next and previous match of find in file, the grep dialog naming Enter, toasts
that cover the status line to its end, "line 24" for one line, and no hint at quotes a record
does not have."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from screenkit import press, watch_notices
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Label, Static

from evidence.sample import CITED_REVISION
from keymaps import load_keymap
from screens.goto import FindInFile, find_in_lines
from screens.grep import GrepScreen
from screens.review.history import Location
from screens.review.screen import ReviewScreen
from tui.app import AssayApp
from tui.factory import make_demo_app

SIZES = [(120, 40), (80, 24)]
RECORD = "KS-RTE-ticket-escalation"  # a long record; its first quote is api/kestrel/tickets.py


async def at_record(pilot: Pilot[Any], app: App[Any], record_id: str = RECORD) -> ReviewScreen:
    screen = app.screen
    assert isinstance(screen, ReviewScreen)
    await screen.settle()
    index = next(n for n, r in enumerate(screen.session.records) if r.id == record_id)
    record = screen.session.records[index]
    screen.go(Location(index, 0 if record.quotes else None))
    await screen.settle()
    for _ in range(100):
        await pilot.pause()
        if screen.sources.shown == screen.sources.request:
            break
    return screen


def demo(tmp_path: Path) -> AssayApp:
    return make_demo_app(tmp_path, reviewer="t", keymap=load_keymap(user=False))


@pytest.mark.parametrize("size", SIZES)
async def test_half_pages_in_the_record_pane(
    tmp_path: Path, sample: Path, size: tuple[int, int]
) -> None:
    app = demo(tmp_path)
    async with app.run_test(size=size) as pilot:
        screen = await at_record(pilot, app)
        pane = screen.record_pane
        screen.set_focus(pane)
        await pilot.pause()
        half = pane.scrollable_content_region.height // 2
        assert pane.line_count > 3 * half  # room to move a whole half page twice
        row = pane.highlighted
        await press(pilot, screen, "ctrl+d")
        assert round(pane.scroll_y) == half
        await press(pilot, screen, "ctrl+d")
        assert round(pane.scroll_y) == 2 * half
        await press(pilot, screen, "ctrl+u")
        assert round(pane.scroll_y) == half
        assert pane.highlighted == row  # as the page keys: the lines move, the target stays
    app.close()


@pytest.mark.parametrize("size", SIZES)
async def test_a_range_typed_at_goto_line_is_what_y_cites(
    tmp_path: Path, sample: Path, size: tuple[int, int]
) -> None:
    app = demo(tmp_path)
    async with app.run_test(size=size) as pilot:
        screen = await at_record(pilot, app)
        view = screen.source_view
        assert view.path == "api/kestrel/tickets.py"
        await press(pilot, screen, "colon", *"60-70", "enter")
        assert view.selection == (60, 70) and view.cursor_line == 60
        assert [view.marks.mark(n) for n in (59, 60, 70, 71)] == ["", "selected", "selected", ""]
        assert view.marks.matched is not None  # the quote's own lines stay marked
        await press(pilot, screen, "y")
        assert app.clipboard == f"api/kestrel/tickets.py:60-70@{CITED_REVISION}"
        # the quote shown again: its lines are what y cites
        await press(pilot, screen, "right_square_bracket", "right_square_bracket")
        await press(pilot, screen, "left_square_bracket", "y")
        assert view.marks.selected is None
        assert app.clipboard != f"api/kestrel/tickets.py:60-70@{CITED_REVISION}"
    app.close()


@pytest.mark.parametrize("size", SIZES)
async def test_find_in_file_has_next_and_previous_match_keys(
    tmp_path: Path, sample: Path, size: tuple[int, int]
) -> None:
    app = demo(tmp_path)
    async with app.run_test(size=size) as pilot:
        screen = await at_record(pilot, app)
        view = screen.source_view
        lines = view.lines
        notices = watch_notices(app)
        await press(pilot, screen, "f3")  # nothing searched yet: it asks for the text
        assert isinstance(app.screen, FindInFile)
        start = view.cursor_line
        await press(pilot, screen, *"def ", "enter")
        first = find_in_lines(lines, "def ", after=start)
        assert first is not None and view.cursor_line == first
        await press(pilot, screen, "f3")
        second = find_in_lines(lines, "def ", after=first)
        assert second is not None and second != first and view.cursor_line == second
        assert notices[-1].message.startswith("match ")
        await press(pilot, screen, "shift+f3")
        assert view.cursor_line == first
        await press(pilot, screen, "greater_than_sign")  # > and < too: some terminals send
        assert view.cursor_line == second  # shift+f3 as a cursor position report
        await press(pilot, screen, "less_than_sign")
        assert view.cursor_line == first
        total = sum("def " in line for line in lines)
        assert any(f"of {total}" in notice.message for notice in notices)
    app.close()


@pytest.mark.parametrize("size", SIZES)
async def test_the_grep_dialog_says_enter_runs_it(
    tmp_path: Path, sample: Path, size: tuple[int, int]
) -> None:
    app = demo(tmp_path)
    async with app.run_test(size=size) as pilot:
        screen = await at_record(pilot, app)
        await press(pilot, screen, "G")
        assert isinstance(app.screen, GrepScreen)
        said = str(app.screen.query_one("#grep-status", Label).render())
        assert "⏎ (enter) runs the search" in said
    app.close()


@pytest.mark.parametrize("size", SIZES)
async def test_a_toast_covers_the_status_line_to_its_end(
    tmp_path: Path, sample: Path, size: tuple[int, int]
) -> None:
    app = demo(tmp_path)
    async with app.run_test(size=size, notifications=True) as pilot:
        screen = await at_record(pilot, app)
        await press(pilot, screen, "right_square_bracket", "f")  # a long status line; a notice
        for _ in range(20):
            await pilot.pause()
            toasts = list(app.screen.query("Toast"))
            if toasts and toasts[0].region.width:
                break
        assert toasts
        assert toasts[0].region.right == size[0]  # nothing of the line beneath shows beside it
    app.close()


@pytest.mark.parametrize("size", SIZES)
async def test_one_line_is_line_24_and_no_hint_at_quotes_a_record_lacks(
    tmp_path: Path, sample: Path, size: tuple[int, int]
) -> None:
    app = demo(tmp_path)
    async with app.run_test(size=size) as pilot:
        screen = await at_record(pilot, app, "KS-RTE-note-sync")  # [1] sync.js:46, [2] 3-4
        info = screen.query_one("#quote-info", Static)
        assert "  line 46" in str(info.render()) and "lines 46" not in str(info.render())
        await press(pilot, screen, "right_square_bracket", "right_square_bracket")
        assert "  lines 3-4" in str(info.render())
        screen.open_path("api/server.py")
        await press(pilot, screen)
        assert "(] returns to the quotes)" in str(info.render())
        # a record without quotes: its cited file opened, nothing to return to
        screen = await at_record(pilot, app, "runtime:evidence-and-claimed-work")
        assert not screen.session.records[screen.location.record].quotes
        screen.open_path("api/server.py")
        await press(pilot, screen)
        said = str(info.render())
        assert said.startswith("file api/server.py") and "returns to the quotes" not in said
    app.close()
