"""Issue 14, point 1: a record read from the keyboard, its note near its top, the note editor
beside the claim and the code (the review app on the sample, under Pilot)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from screenkit import LONG, opened, press
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Static

from keymaps import load_keymap
from screens.note import NoteScreen
from screens.review.screen import ReviewScreen
from screens.widgets.footer import KeysBar
from tui.factory import make_demo_app


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_every_line_of_a_long_record_is_reached_by_keys(
    tmp_path: Path, sample: Path, size: tuple[int, int]
) -> None:
    app = make_demo_app(tmp_path, reviewer="r", keymap=load_keymap(user=False))
    try:
        async with app.run_test(size=size) as pilot:
            screen = await opened(pilot, app)
            pane = screen.record_pane
            await press(pilot, screen, "tab")
            assert screen.focused is pane
            bottom = pane.max_scroll_y
            assert bottom > 0  # the record is longer than the pane
            await press(pilot, screen, "end")
            assert pane.scroll_y == bottom  # the end of the last quote, its references
            await press(pilot, screen, "home")
            assert pane.scroll_y == 0  # the label, the verdict, the first lines of the body
            await press(pilot, screen, "pagedown")
            page = pane.scroll_y
            assert 0 < page < bottom or page == bottom
            await press(pilot, screen, "pageup")
            assert pane.scroll_y == 0
            if size != (80, 24):
                return  # reading line by line: at the smallest size, the one with the most lines
            # j reads on: never more than a line at a time, down to the last line and last row
            seen, rows = [0], set()
            last = pane.row_count - 1
            for _ in range(200):
                await pilot.press("j")
                assert pane.scroll_y - seen[-1] in (0, 1)
                seen.append(int(pane.scroll_y))
                rows.add(pane.highlighted_id)
                if pane.scroll_y == bottom and pane.highlighted == last:
                    break
            assert pane.scroll_y == bottom and pane.highlighted == last
            assert {"quote-0", "quote-1", "quote-2"} <= rows  # the cursor met each quote on the way
            # k reads back a line at a time (a few lines of it: j showed the way down), and from the
            # top onto the record itself
            for _ in range(8):
                before = pane.scroll_y
                await pilot.press("k")
                assert before - pane.scroll_y in (0, 1)
            await pilot.press("home")
            for _ in range(40):
                await pilot.press("k")
                if pane.scroll_y == 0 and pane.highlighted_id == "record":
                    break
            assert pane.scroll_y == 0 and pane.highlighted_id == "record"
            assert not screen.moves.on_quote  # the cursor on the record: verdicts act on it
    finally:
        app.close()


async def test_note_shows_under_the_verdict_and_in_the_records_list(
    tmp_path: Path, sample: Path
) -> None:
    app = make_demo_app(tmp_path, reviewer="r", keymap=load_keymap(user=False))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, app)
        await press(pilot, screen, "e")
        assert isinstance(app.screen, NoteScreen)
        await pilot.press(*"escalation clock unclear")
        await press(pilot, screen, "ctrl+s")
        head = str(screen.record_pane.row(0).prompt)
        assert head.index("verdict: open") < head.index("✎ escalation clock unclear")
        assert screen.record_pane.row_index("record") == 0  # the record's first row
        records = screen.records_pane
        row = str(records.prompt(screen.location.record))
        assert f"{LONG}✎" in row
        # a note on a quote: marked beside that quote's verdict, and under the quote's row
        await press(pilot, screen, "right_square_bracket", "right_square_bracket", "e")
        await pilot.press(*"line 2 only")
        await press(pilot, screen, "ctrl+s")
        assert "[··✎·]" in str(records.prompt(screen.location.record))
        quote_row = screen.record_pane.row(screen.record_pane.row_index("quote-1") or 0)
        assert "✎ line 2 only" in str(quote_row.prompt)
    app.close()


async def note_on_first_quote(pilot: Pilot[Any], app: App[Any]) -> tuple[ReviewScreen, NoteScreen]:
    """The review opened, its first record's first quote selected and its note editor open."""
    screen = await opened(pilot, app)
    await press(pilot, screen, "right_square_bracket", "e")
    editor = app.screen
    assert isinstance(editor, NoteScreen)
    await pilot.pause()
    return screen, editor


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_note_editor_leaves_the_claim_and_the_code_in_sight(
    tmp_path: Path, sample: Path, size: tuple[int, int]
) -> None:
    app = make_demo_app(tmp_path, reviewer="r", keymap=load_keymap(user=False))
    async with app.run_test(size=size) as pilot:
        screen, editor = await note_on_first_quote(pilot, app)
        dialog = editor.query_one("#note-dialog").region
        for pane in (screen.record_pane, screen.source_view):
            assert not dialog.overlaps(pane.region), (pane.id, dialog, pane.region)
        assert "quote [1] of KS-RTE-ticket-escalation" in editor.title_text
    app.close()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_note_editor_says_what_typing_goes_to_and_its_own_keys(
    tmp_path: Path, sample: Path, size: tuple[int, int]
) -> None:
    # beneath, the review's lines say `c` confirms; in the editor `c` types a letter: the editor
    # covers them with its own, its keys as the reviewer's keymap binds them
    user_file = tmp_path / "keymap.toml"
    user_file.write_text('note_save = "f2"\n', encoding="utf-8")
    app = make_demo_app(tmp_path, reviewer="r", keymap=load_keymap(user_file=user_file))
    async with app.run_test(size=size) as pilot:
        screen, editor = await note_on_first_quote(pilot, app)
        status, keys = editor.query_one(".dialog-status", Static), editor.query_one(KeysBar)
        assert (status.region.y, keys.region.y) == (size[1] - 2, size[1] - 1)
        said = str(status.render())
        # in full where the dialog's title is cut: which quote of which record, its verdict
        assert said == "typing → Note on quote [1] of KS-RTE-ticket-escalation · open", said
        shown = str(keys.render())
        assert "f2 Save note" in shown and "esc Cancel" in shown, shown
        assert "ctrl+s" not in shown and "Confirm" not in shown, shown
        await pilot.press(*"cr")  # letters, not verdicts
        await press(pilot, screen, "f2")
        assert app.screen is screen
        session, quote = screen.session, screen.moves.target_quote()
        assert quote is not None
        item = session.quote_item(session.records[screen.location.record], quote)
        assert (session.note(item), session.verdict(item)) == ("cr", None)
    app.close()


async def test_every_record_s_rows_are_counted_as_many_lines_as_they_are_drawn(
    tmp_path: Path, sample: Path
) -> None:
    # the record pane counts its rows' lines without drawing them (styled as the review
    # screen's stylesheet styles the pane): each count is the lines the row is drawn in
    app = make_demo_app(tmp_path, reviewer="r", keymap=load_keymap(user=False))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await opened(pilot, app)
            pane = screen.record_pane
            style = pane.get_visual_style()
            for record in screen.session.records:
                pane.show(record, None)
                for width in (24, 41, 70):
                    for index in range(pane.row_count):
                        drawn = len(pane.draw_row(index, width, style))
                        assert pane.row_height(index, width) == max(1, drawn), (record.id, index)
    finally:
        app.close()
