"""A key that moves a pane's cursor shows what the cursor is on in the same turn, so the frame
that paints the cursor paints the record (or quote) too, not a frame later when the pane's
message reaches the screen."""

from __future__ import annotations

from pathlib import Path

from screenkit import reviewing

from keymaps import Keymap
from screens.review.history import Location
from tui.factory import make_demo_app

SIZE = (120, 40)
TALL = (120, 90)  # the record pane shows several of its rows


async def test_j_in_the_records_list_shows_the_record_before_its_message(
    tmp_path: Path, sample: Path, keymap: Keymap
) -> None:
    app = make_demo_app(tmp_path, reviewer="t", keymap=keymap)
    async with app.run_test(size=SIZE) as pilot:
        screen = reviewing(app)
        await screen.settle()
        records = screen.records_pane
        records.focus()
        await pilot.pause()
        before = screen.location.record
        for step in (1, 1, -1):
            screen.action_motion("line", step)  # what j and k run; nothing awaited
            assert records.highlighted is not None
            assert screen.location.record == records.rows[records.highlighted]
        assert screen.location.record != before
        shown = screen.location
        await pilot.pause()  # the list's messages arrive: nothing moves again
        assert screen.location == shown
        cursor = records.highlighted
        assert cursor is not None and screen.location.record == records.rows[cursor]


async def test_j_in_the_record_pane_selects_the_quote_and_stale_moves_are_ignored(
    tmp_path: Path, sample: Path, keymap: Keymap
) -> None:
    app = make_demo_app(tmp_path, reviewer="t", keymap=keymap)
    async with app.run_test(size=TALL) as pilot:
        screen = reviewing(app)
        await screen.settle()
        records = screen.session.records
        several = next(n for n, record in enumerate(records) if len(record.quotes) > 2)
        screen.go(Location(several, 0))
        pane = screen.record_pane
        pane.focus()
        await pilot.pause()
        ids = [pane.row(index).id or "" for index in range(pane.row_count)]
        rows = [index for index, row_id in enumerate(ids) if row_id.startswith("quote-")]
        pane.move_to(rows[0])  # the first quote, in view
        pane.scroll_to_cursor()
        await pilot.pause()
        screen.action_motion("line", 1)
        assert pane.highlighted is not None and pane.highlighted > rows[0]
        if pane.highlighted_id.startswith("quote-"):  # before any message arrives
            assert screen.location.quote == int(pane.highlighted_id.removeprefix("quote-"))
        await pilot.pause()
        # two moves before any message arrives: each shows its quote at once, and the first
        # move's message, arriving after the second move, does not bring its quote back
        shown = []
        for _ in range(2):
            screen.action_motion("line", 1)
            shown.append(pane.highlighted_id)
            if pane.highlighted_id.startswith("quote-"):
                assert screen.location.quote == int(pane.highlighted_id.removeprefix("quote-"))
        await pilot.pause()
        assert pane.highlighted_id == shown[-1]
        if shown[-1].startswith("quote-"):
            assert screen.location.quote == int(shown[-1].removeprefix("quote-"))
            assert screen.quote is not None and screen.quote.index == screen.location.quote
