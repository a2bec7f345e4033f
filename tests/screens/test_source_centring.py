"""A quote's file is centred as the source view will be laid out with it: the line under the
view growing does not move the view again a frame later (and it grows rarely)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from screenkit import reviewing
from textual.scrollbar import ScrollBarRender

from keymaps import Keymap
from screens.review.history import Location
from tui.factory import make_demo_app


async def test_the_view_is_centred_once_when_the_line_under_it_grows(
    tmp_path: Path, sample: Path, keymap: Keymap
) -> None:
    app = make_demo_app(tmp_path, reviewer="t", keymap=keymap)
    async with app.run_test(size=(80, 18)) as pilot:  # the quote below sits low enough to scroll
        screen = reviewing(app)
        await screen.settle()
        await pilot.pause()
        view, info = screen.source_view, screen.query_one("#quote-info")
        assert info.size.height == 2  # kept for a quote's usual two lines
        index = next(
            n for n, r in enumerate(screen.session.records) if r.id == "KS-OBJ-station-registry"
        )
        quote = Location(index, 1)  # near its file's end, a note on its decoding: three lines
        screen.go(quote)  # its file read, then a record that quotes nothing
        await screen.settle()
        screen.go(Location(0, None))
        await screen.settle()
        await pilot.pause()
        assert info.size.height == 2
        screen.go(quote)
        shown = round(view.scroll_y)
        assert shown > 0  # the file was read before: shown now, not after a read
        await screen.settle()
        await pilot.pause()
        assert info.size.height == 3
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


async def test_the_quote_line_is_laid_out_again_only_when_it_needs_a_third_line(
    tmp_path: Path, sample: Path, keymap: Keymap
) -> None:
    # it keeps two lines, the height most quotes' anchors need: moving from a record to the next
    # lays nothing out unless a third line comes or goes
    app = make_demo_app(tmp_path, reviewer="t", keymap=keymap)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = reviewing(app)
        await screen.settle()
        await pilot.pause()
        info = screen.query_one("#quote-info")
        asked: list[bool] = []
        original = info.refresh

        def refresh(*regions: Any, **options: Any) -> Any:
            asked.append(bool(options.get("layout")))
            return original(*regions, **options)

        info.refresh = refresh  # type: ignore[method-assign]
        heights, laid_out = [], []
        for n, record in enumerate(screen.session.records):
            asked.clear()
            screen.go(Location(n, 0 if record.quotes else None))
            await screen.settle()
            await pilot.pause()
            heights.append(info.size.height)
            laid_out.append(any(asked))
        before = [2, *heights[:-1]]
        changed = [then != now for then, now in zip(before, heights, strict=True)]
        assert laid_out == changed
        assert set(heights) == {2, 3}
        assert changed.count(False) > 3 * changed.count(True)
