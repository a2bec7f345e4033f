"""Scrollbars drawn as a Textual Visual, and panes given a new length without a layout: both draw
what Textual's own way draws, cell for cell."""

from __future__ import annotations

import itertools
import re
from typing import Any

from rich.color import Color as RichColor
from rich.style import Style as RichStyle
from textual import events
from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.pilot import Pilot
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.visual import Visual, visualize
from textual.widget import Widget
from textual.widgets import Static

from screens.review.screen import ReviewScreen
from screens.widgets.lists import Row, RowList
from screens.widgets.scrollbars import ScrollBarLines, bar_lines
from screens.widgets.source_view import SourceView
from tui.factory import make_demo_app

# --- scrollbars ---------------------------------------------------------------------------------


class Scrolled(App[None]):
    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static("line\n" * 100)


async def test_scrollbar_lines_are_textuals_bars_cell_for_cell() -> None:
    app = Scrolled()
    async with app.run_test(size=(60, 30)) as pilot:
        await pilot.pause()
        bar = app.query_one(VerticalScroll).vertical_scrollbar
        style = bar.visual_style
        colours = (RichStyle(color="red", bgcolor="#101010"), RichStyle(), RichStyle.parse("blue"))
        cases = itertools.product(
            (True, False),
            ((1, 28), (2, 35), (60, 1), (40, 2), (1, 3)),
            (0, 10, 50, 3000),  # lines (or columns) of the pane
            (0, 5, 28, 40),  # of them shown
            (0, 0.125, 3.5, 17, 2000),  # where
            colours,
        )
        for vertical, (width, height), virtual, window, position, colour in cases:
            bar_of: dict[str, Any] = {
                "virtual_size": virtual,
                "window_size": window,
                "position": position,
                "thickness": width if vertical else height,
                "vertical": vertical,
                "style": colour,
            }
            rich = visualize(bar, ScrollBarRender(**bar_of))
            textual = Visual.to_strips(bar, rich, width, height, style)
            ours = Visual.to_strips(bar, ScrollBarLines(**bar_of), width, height, style)
            # segments: text, colours and the mouse actions (meta) of each part of the bar
            assert [list(line) for line in ours] == [list(line) for line in textual], bar_of


async def test_the_app_draws_its_scrollbars_as_scrollbar_lines(tmp_path: Any) -> None:
    app = make_demo_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert ScrollBar.renderer is ScrollBarLines


# --- a new length without a layout --------------------------------------------------------------


class Layouts:
    """Whether a widget asked for a layout from now on."""

    def __init__(self, widget: Widget) -> None:
        self.asked = False
        original = widget.refresh

        def refresh(*regions: Any, **options: Any) -> Widget:
            self.asked = self.asked or bool(options.get("layout"))
            return original(*regions, **options)

        widget.refresh = refresh  # type: ignore[method-assign]


def cells(app: App[Any]) -> str:
    """The screen as drawn (characters and colours): Rich's SVG export, its ids made equal."""
    return re.sub(r"terminal-\d+", "terminal", app.export_screenshot(title="t"))


class OneList(App[None]):
    CSS = "RowList { height: 12; }"

    def compose(self) -> ComposeResult:
        yield RowList()


def rows(count: int) -> list[Row]:
    return [Row(Content(f"row {n}"), f"r{n}") for n in range(count)]


async def drawn_list(counts: tuple[int, ...], pilot: Pilot[None], app: OneList) -> bool:
    """Show rows of these counts in turn; whether the last asked for a layout."""
    pane = app.query_one(RowList)
    layouts = None
    for count in counts:
        layouts = Layouts(pane)
        pane.set_rows(rows(count), cursor=0)
        await pilot.pause()
    assert layouts is not None
    return layouts.asked


async def test_a_list_of_another_length_is_not_laid_out_and_draws_as_a_fresh_one() -> None:
    # its scrollbar is drawn in its lines: one coming or going changes no layout either
    for before, after, laid_out in (
        (40, 60, False),
        (60, 20, False),
        (5, 40, False),
        (40, 5, False),
    ):
        changed, fresh = OneList(), OneList()
        async with changed.run_test(size=(40, 20)) as pilot:
            assert await drawn_list((before, after), pilot, changed) == laid_out
            seen = cells(changed)
        async with fresh.run_test(size=(40, 20)) as pilot:
            await drawn_list((after,), pilot, fresh)
            assert cells(fresh) == seen, (before, after)  # the thumb's size too


class OneView(App[None]):
    def compose(self) -> ComposeResult:
        yield SourceView()


def source(count: int, width: int = 20) -> list[str]:
    return [f"{n:>{width}}" for n in range(count)]


async def highlighted(view: SourceView, pilot: Pilot[None]) -> None:
    """The view's lines on screen highlighted (off the event loop: on a loaded machine one
    pause did not see it, and the two apps compared drew the same lines in other colours)."""
    for _ in range(200):
        await pilot.pause()
        if view.is_highlighted(view.cursor_line) and view.is_highlighted(view.scroll_offset.y + 1):
            return


async def test_a_file_of_another_length_or_width_is_shown_without_a_layout() -> None:
    # the vertical bar is drawn in the view's lines: it coming or going lays nothing out; the
    # horizontal bar's row is always kept, whether a file's lines need it or not
    files = {"short": source(10), "long": source(300), "longer": source(900)}
    files["wide"] = source(300, 90)
    for before, after, laid_out in (
        ("long", "longer", False),
        ("longer", "long", False),
        ("short", "long", False),
        ("long", "short", False),
        ("long", "wide", False),  # its lines need the horizontal bar (Textual's)
        ("wide", "short", False),
    ):
        changed, fresh = OneView(), OneView()
        async with changed.run_test(size=(60, 20)) as pilot:
            view = changed.query_one(SourceView)
            view.show(before, files[before], line=5)
            await pilot.pause()
            layouts = Layouts(view)
            view.show(after, files[after], line=5)
            await pilot.pause()
            assert layouts.asked == laid_out, (before, after)
            await highlighted(view, pilot)
            seen = cells(changed)
        async with fresh.run_test(size=(60, 20)) as pilot:
            view = fresh.query_one(SourceView)
            view.show(after, files[after], line=5)
            await highlighted(view, pilot)
            assert cells(fresh) == seen, (before, after)


def bar_column(pane: Any) -> list[str]:
    """The pane's scrollbar as drawn in its lines: each row's last cells (text and colours)."""
    width = pane.scrollable_content_region.width
    height = pane.scrollable_content_region.height
    return [str(pane.render_line(y).crop(width - pane.bar.width, width)) for y in range(height)]


async def long_record(pilot: Pilot[Any]) -> Any:
    screen = pilot.app.screen
    assert isinstance(screen, ReviewScreen)
    await screen.settle()
    await pilot.press(*["n"] * 7)  # a record longer than its pane: its bar shows
    await pilot.pause(0.2)
    pane = screen.record_pane
    assert pane.line_count > pane.scrollable_content_region.height
    return pane


async def test_a_panes_scrollbar_is_drawn_in_its_lines_and_a_scroll_moves_its_thumb(
    tmp_path: Any, monkeypatch: Any
) -> None:
    # the three panes draw their vertical bars as the last cells of their lines: Textual's
    # ScrollBar widget (a line of per-line styling per row, repainted whole at each move)
    # draws nothing for them
    painted: list[ScrollBar] = []
    render_lines = ScrollBar.render_lines

    def counted(self: ScrollBar, crop: Any) -> Any:
        if self.vertical:
            painted.append(self)
        return render_lines(self, crop)

    monkeypatch.setattr(ScrollBar, "render_lines", counted)
    app = make_demo_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await long_record(pilot)
        pane.focus()
        await pilot.pause(0.2)
        before = bar_column(pane)
        thumb = [n for n, cell in enumerate(before) if cell != before[-1]]
        assert thumb and thumb[0] == 0  # at the top
        await pilot.press("pagedown")
        await pilot.pause(0.2)
        assert bar_column(pane) != before  # the thumb moved
        for _ in range(3):
            await pilot.press("tab")
            await pilot.pause(0.1)
        assert painted == []


async def test_a_press_on_a_panes_scrollbar_pages_and_a_drag_scrolls(tmp_path: Any) -> None:
    app = make_demo_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await long_record(pilot)
        region = pane.scrollable_content_region
        x = region.right - 1 - pane.region.x  # the bar's column, in the pane's coordinates
        y = region.bottom - 1 - pane.region.y  # below the thumb
        cursor = pane.highlighted
        await pilot.click(pane, offset=(x, y))
        await pilot.pause(0.1)
        assert pane.scroll_y == region.height  # a page down, as Textual's bar does
        assert pane.highlighted == cursor  # no row chosen by the press
        await pilot.click(pane, offset=(x, region.y - pane.region.y))  # above the thumb
        await pilot.pause(0.1)
        assert pane.scroll_y == 0
        # the thumb taken and pulled down two rows: the view follows, as far as it is longer
        top = region.y - pane.region.y
        await pilot.mouse_down(pane, offset=(x, top))
        await pilot.hover(pane, offset=(x, top + 2))
        await pilot.mouse_up(pane, offset=(x, top + 2))
        await pilot.pause(0.1)
        expected = 2 * pane.virtual_size.height / region.height
        assert abs(pane.scroll_y - min(pane.max_scroll_y, expected)) <= 1
        assert pane.highlighted == cursor


def test_a_drawn_bar_is_textuals_bar_cell_for_cell() -> None:
    # the cells the panes draw are those of Textual's own renderer (mouse actions left out)
    for width, height, virtual, window, position in itertools.product(
        (1, 2), (1, 5, 33), (0, 10, 50, 3000), (0, 5, 33), (0, 0.5, 7, 17, 2000)
    ):
        style = RichStyle(color="red", bgcolor="#101010")
        ours = bar_lines(width, height, virtual, window, position, style)
        theirs = ScrollBarRender.render_bar(
            size=height,
            virtual_size=virtual,
            window_size=window,
            position=position,
            thickness=width,
            vertical=True,
            back_color=RichColor.parse("#101010"),
            bar_color=RichColor.parse("red"),
        )
        cells = [  # one segment a row (the renderer may give more than the bar's rows)
            (segment.text, segment.style and segment.style.clear_meta_and_links())
            for segment in theirs.segments[:height]
        ]
        assert [(s.text, s.style) for line in ours for s in line] == cells


async def test_the_wheel_scrolls_a_pane_whose_lines_overflow_it(tmp_path: Any) -> None:
    # Textual's own bar is hidden (the pane draws one): the wheel still scrolls the pane
    app = make_demo_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await long_record(pilot)
        x, y = pane.content_region.x + 2, pane.content_region.y + 2
        for _ in range(3):
            wheel = events.MouseScrollDown(pane, 2, 2, 0, 1, 0, False, False, False, x, y)
            pane.post_message(wheel)
        await pilot.pause(0.1)
        assert pane.scroll_y > 0


async def test_a_press_on_the_source_views_bar_pages_and_leaves_its_cursor() -> None:
    app = OneView()
    async with app.run_test(size=(60, 20)) as pilot:
        view = app.query_one(SourceView)
        view.show("long", source(300), line=1)
        await pilot.pause()
        region = view.scrollable_content_region
        x, y = region.right - 1 - view.region.x, region.bottom - 1 - view.region.y
        cursor = view.cursor_line
        await pilot.click(view, offset=(x, y))  # below the thumb
        await pilot.pause()
        assert view.scroll_y == region.height  # a page, as Textual's bar scrolls
        assert view.cursor_line == cursor  # the press was the bar's, not a line's
        await pilot.click(view, offset=(2, 3))  # on a line: the cursor goes there
        await pilot.pause()
        assert view.cursor_line == region.height + 3 + 1 - (region.y - view.region.y)
