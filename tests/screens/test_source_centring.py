"""A quote's file is centred as the source view will be laid out with it: the line under the
view growing, or a scrollbar coming, does not move the view again a frame later."""

from __future__ import annotations

from pathlib import Path

from screenkit import reviewing
from textual.scrollbar import ScrollBarRender

from keymaps import Keymap
from screens.review.history import Location
from tui.factory import make_demo_app


async def test_the_view_is_centred_once_when_the_line_under_it_grows(
    tmp_path: Path, sample: Path, keymap: Keymap
) -> None:
    app = make_demo_app(tmp_path, reviewer="t", keymap=keymap)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = reviewing(app)
        await screen.settle()
        await pilot.pause()
        view, info = screen.source_view, screen.query_one("#quote-info")
        assert info.size.height == 1
        index = next(
            n for n, r in enumerate(screen.session.records) if r.id == "KS-RTE-ticket-escalation"
        )
        screen.go(Location(index, 1))  # its anchor line wraps: two lines under the view
        shown = round(view.scroll_y)
        assert shown > 0  # the file was read before: shown now, not after a read
        await screen.settle()
        await pilot.pause()
        assert info.size.height == 2
        assert round(view.scroll_y) == shown  # the layout that followed did not move it
        # the scrollbar that came with the longer file shows where the view is: its thumb
        # (drawn in the view's lines) starts a third of the way down the bar, as the view does
        width, height = view.scrollable_content_region.size
        drawn = [list(view.render_line(y).crop(width - 2, width)) for y in range(height)]
        bar = [(cells[0].text, bool(cells[0].style and cells[0].style.reverse)) for cells in drawn]
        at_view = ScrollBarRender.render_bar(
            size=height,
            virtual_size=view.virtual_size.height,
            window_size=height,
            position=view.scroll_y,
            thickness=2,
        )
        cells = at_view.segments[:height]
        assert bar == [(cell.text, bool(cell.style and cell.style.reverse)) for cell in cells]
