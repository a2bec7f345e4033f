"""Small terminals and resizes: below the width three panes need, two
columns (records; the record above the source), the records list hidden by a key; the header's
counts and the help and quit keys at any size; a resize keeps the selected record and the quote
in view."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.cells import cell_len
from screenkit import index_of, review_screen
from textual.pilot import Pilot

from keymaps import load_keymap
from screens.review.history import Location
from screens.review.screen import ReviewScreen
from screens.widgets.footer import KeysBar
from screens.widgets.review_header import ReviewHeader
from screens.widgets.source_view import SourceView
from screens.widgets.target_line import TargetLine
from tui.factory import make_demo_app


async def settle(pilot: Pilot[Any], screen: ReviewScreen) -> None:
    await pilot.pause()
    await screen.settle()
    await pilot.pause()
    await pilot.pause()


def code_width(view: SourceView) -> int:
    """Columns of code the source pane shows (its width less the gutter)."""
    return view.scrollable_content_region.width - len(str(view.line_count)) - 4


async def test_at_80x24_the_record_goes_above_the_source_and_the_list_can_be_hidden(
    tmp_path: Path, sample: Path
) -> None:
    app = make_demo_app(
        tmp_path, reviewer="A reviewer with a long name", keymap=load_keymap(user=False)
    )
    async with app.run_test(size=(80, 24)) as pilot:
        screen = review_screen(app)
        await settle(pilot, screen)
        screen.go(Location(index_of(screen, "KS-RTE-ticket-escalation"), 1), on_quote=True)
        await settle(pilot, screen)
        records, record, view = screen.records_pane, screen.record_pane, screen.source_view
        assert screen.has_class("-narrow")
        # two columns: the records list on the left, the record above the source on the right
        assert records.region.x == 0 and records.region.height >= 20
        assert record.region.x == view.region.x > records.region.right - 1
        assert record.region.bottom <= view.region.y
        assert code_width(view) >= 40  # it was about 23 columns of code
        # the header keeps its counts, the key bar the verdict keys, help and quit
        header = str(screen.query_one(ReviewHeader).render())
        assert "records 0/22" in header and "7 failing" in header and len(header) <= 80
        bar = str(screen.query_one(KeysBar).render())
        for key in ("c Confirm", "r Refute", "u Unclear", "s Skip", "? Help", "q Quit"):
            assert key in bar, bar
        # l hides the records list: the record and the source take the whole width
        await pilot.press("l")
        await settle(pilot, screen)
        assert not records.display or records.region.width == 0
        assert code_width(view) >= 65
        await pilot.press("tab", "tab", "tab")  # tab skips the hidden list
        assert screen.focused in (record, view)
        await pilot.press("l")
        await settle(pilot, screen)
        assert records.region.width > 0 and records.highlighted is not None
    app.close()


async def test_the_counts_and_help_and_quit_show_at_any_width(tmp_path: Path, sample: Path) -> None:
    app = make_demo_app(tmp_path, reviewer="r", keymap=load_keymap(user=False))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = review_screen(app)
        await settle(pilot, screen)
        for width in (100, 80, 60, 50):
            await pilot.resize_terminal(width, 24)
            await settle(pilot, screen)
            header = str(screen.query_one(ReviewHeader).render())
            assert "records" in header and "failing" in header, (width, header)
            bar = str(screen.query_one(KeysBar).render())
            assert "? Help" in bar and "q Quit" in bar, (width, bar)
            assert len(bar) <= width
    app.close()


async def test_a_resize_keeps_the_selected_record_and_the_quote_in_view(
    tmp_path: Path, sample: Path
) -> None:
    app = make_demo_app(tmp_path, reviewer="z", keymap=load_keymap(user=False))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = review_screen(app)
        await settle(pilot, screen)
        records = screen.records_pane
        # the last record, selected from the records list
        records.focus()
        await pilot.press("end")
        await settle(pilot, screen)
        assert screen.location.record == records.rows[records.highlighted or 0]
        for size in ((80, 24), (100, 30), (80, 24)):
            await pilot.resize_terminal(*size)
            await settle(pilot, screen)
            line = records.highlighted or 0
            top = int(records.scroll_y)
            assert top <= line < top + records.scrollable_content_region.height, size

        # a quote far down its file, shown at 120x40, then the terminal gets smaller
        await pilot.resize_terminal(120, 40)
        await settle(pilot, screen)
        screen.go(Location(index_of(screen, "KS-RTE-ticket-escalation"), 2), on_quote=True)
        await settle(pilot, screen)
        view = screen.query_one(SourceView)
        first, last = view.marks.matched or (0, 0)
        assert first > 100
        for size in ((80, 24), (100, 30), (80, 20)):
            await pilot.resize_terminal(*size)
            await settle(pilot, screen)
            top = int(view.scroll_y)
            height = view.scrollable_content_region.height
            assert top < first and last <= top + height, (size, top, height)
    app.close()


async def test_the_status_line_cuts_the_names_before_the_verdict(
    tmp_path: Path, sample: Path
) -> None:
    # at 80x24 the line was cut after "of KS-BAP-operations-guidance ·": the verdict and the
    # key back to the record went, while the path and the record id kept every column
    app = make_demo_app(tmp_path, reviewer="w", keymap=load_keymap(user=False))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = review_screen(app)
        await settle(pilot, screen)
        status = screen.query_one(TargetLine)
        screen.go(Location(index_of(screen, "KS-BAP-operations-guidance"), 0), on_quote=True)
        await settle(pilot, screen)
        line = str(status.render())
        assert line.endswith("docs/operations.md:7 of KS-BAP-…tions-guidance · open"), line
        assert cell_len(line) <= status.content_region.width, line
        # a little wider: the record id cut keeps the key back to the record in view
        await pilot.resize_terminal(100, 24)
        await settle(pilot, screen)
        line = str(status.render())
        assert line.endswith("of KS-BAP-…ations-guidance · open  (esc: the record)"), line
        await pilot.resize_terminal(80, 24)
        await settle(pilot, screen)
        await pilot.press("c")
        await settle(pilot, screen)
        assert str(status.render()).endswith(" · confirmed"), str(status.render())
        # every quote's verdict in view, however narrow the line
        for width in (80, 60, 40):
            await pilot.resize_terminal(width, 24)
            for index, record in enumerate(screen.session.records):
                if record.quotes:
                    screen.go(Location(index, len(record.quotes) - 1), on_quote=True)
                    await settle(pilot, screen)
                    line = str(status.render())
                    assert line.endswith((" · open", " · confirmed", "(esc: the record)")), line
                    assert cell_len(line) <= status.content_region.width, line
        # at 40 columns the words before the arrow go before the verdict does
        assert line.startswith("→ quote [") and line.endswith(" · open"), line
        # with room, the names whole
        await pilot.resize_terminal(120, 40)
        screen.go(Location(index_of(screen, "KS-BAP-operations-guidance"), 0), on_quote=True)
        await settle(pilot, screen)
        line = str(status.render())
        assert "docs/operations.md:7 of KS-BAP-operations-guidance · confirmed  (esc:" in line
    app.close()
