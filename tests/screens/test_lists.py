"""RowList: rows of several lines, a cursor that skips disabled rows, drawn once and kept."""

from __future__ import annotations

from typing import Any

from screenkit import Refreshes
from textual.app import App, ComposeResult
from textual.content import Content
from textual.strip import Strip
from textual.style import Style

from screens.widgets.lists import Row, RowList
from screens.widgets.prepared_list import PreparedList


class TwoLists(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[str, str, int]] = []

    def compose(self) -> ComposeResult:
        yield PreparedList(id="a")
        yield RowList(id="b")

    def on_row_list_moved(self, event: RowList.Moved) -> None:
        self.seen.append(("moved", event.row_list.id or "", event.index))

    def on_row_list_chosen(self, event: RowList.Chosen) -> None:
        self.seen.append(("chosen", event.row_list.id or "", event.index))


def rows(count: int, *, tall: int = 1, disabled: tuple[int, ...] = ()) -> list[Row]:
    return [
        Row(Content("\n".join(f"row {n} line {k}" for k in range(tall))), f"r{n}", n in disabled)
        for n in range(count)
    ]


async def test_cursor_colours_follow_focus_and_theme() -> None:
    app = TwoLists()
    async with app.run_test() as pilot:
        first, second = app.query_one("#a", RowList), app.query_one("#b", RowList)
        for widget in (first, second):
            widget.set_rows(rows(3), cursor=0)
        seen = set()
        for focused in (first, second, first):
            focused.focus()
            await pilot.pause()
            for widget in (first, second):
                line = widget.render_line(0)
                seen.add(str(list(line)[0].style.bgcolor))  # type: ignore[union-attr]
        assert len(seen) == 2  # focused and unfocused cursors differ, and both were drawn
        before = list(first.render_line(0))[0].style
        app.theme = "textual-light"  # any theme: the rows are drawn again
        await pilot.pause()
        assert list(first.render_line(0))[0].style != before


async def test_moving_the_cursor_redraws_only_the_rows_it_left_and_reached() -> None:
    app = TwoLists()
    async with app.run_test(size=(40, 30)) as pilot:
        pane = app.query_one("#a", RowList)
        pane.set_rows(rows(40), cursor=2)
        await pilot.pause()
        repainted = Refreshes(pane)
        pane.highlighted = 5
        lines = sorted(region.y for region in repainted.regions)
        assert [region.height for region in repainted.regions] == [1, 1]
        assert lines[1] - lines[0] == 3  # the row left and the row reached, nothing between


async def test_rows_of_several_lines_and_a_cursor_that_skips_disabled_ones() -> None:
    app = TwoLists()
    async with app.run_test(size=(40, 12)) as pilot:
        pane = app.query_one("#a", RowList)
        pane.set_rows(rows(10, tall=3, disabled=(0, 2, 3)), cursor=1)
        pane.focus()
        await pilot.pause()
        assert pane.virtual_size.height == 30
        assert pane.row_index("r4") == 4 and pane.row_index("nope") is None
        await pilot.press("down")  # over the disabled rows 2 and 3
        await pilot.press("up", "up")  # row 0 is disabled: stays on 1
        await pilot.press("end", "enter")
        await pilot.pause()
        assert app.seen == [("moved", "a", 4), ("moved", "a", 1), ("moved", "a", 9)] + [
            ("chosen", "a", 9)
        ]
        top = int(pane.scroll_y)
        assert top <= 27 and top + pane.scrollable_content_region.height >= 30  # row 9 shown
        await pilot.press("pageup")
        await pilot.pause()
        assert pane.highlighted is not None and pane.highlighted < 9
        assert not pane.row(pane.highlighted).disabled
        await pilot.press("home")
        await pilot.pause()
        assert pane.highlighted == 1 and pane.scroll_y == 0  # the disabled row 0 shows above it
        app.seen.clear()
        await pilot.click(RowList, offset=(3, 0))  # the top line: row 0, disabled
        await pilot.pause()
        assert app.seen == [] and pane.highlighted == 1  # nothing chosen, the cursor stays
        await pilot.click(RowList, offset=(3, 4))  # the middle line of row 1
        await pilot.pause()
        assert app.seen[-1] == ("chosen", "a", 1)


async def test_rows_given_before_the_list_is_laid_out_are_measured_when_drawn() -> None:
    app = TwoLists()
    pane = RowList(id="late")
    pane.set_rows(rows(4, tall=2), cursor=3)  # not mounted: no width yet
    async with app.run_test(size=(40, 20)) as pilot:
        await app.mount(pane)
        await pilot.pause()
        assert pane.virtual_size.height == 8
        assert pane.highlighted == 3
        assert pane._line_rows == [0, 0, 1, 1, 2, 2, 3, 3]
        top = int(pane.scroll_y)  # scrolled as little as shows the cursor's two lines
        assert top <= 6 and top + pane.scrollable_content_region.height >= 8
        assert pane.render_line(6 - top).text.strip() == "row 3 line 0"


async def test_the_row_under_the_mouse_is_drawn_as_hovered() -> None:
    app = TwoLists()
    async with app.run_test(size=(40, 30)) as pilot:
        pane = app.query_one("#a", RowList)
        pane.set_rows(rows(5, disabled=(3,)), cursor=0)
        await pilot.pause()
        plain = list(pane.render_line(2))[0].style
        await pilot.hover(RowList, offset=(3, 2))
        await pilot.pause()
        assert pane.hovered == 2
        hovered = list(pane.render_line(2))[0].style
        assert plain is not None and hovered is not None
        assert hovered.bgcolor != plain.bgcolor
        await pilot.hover(RowList, offset=(3, 3))  # a disabled row takes no hover
        await pilot.pause()
        assert pane.hovered is None
        assert list(pane.render_line(2))[0].style == plain


TRICKY = [
    "a" * 95,  # one word wider than the row
    "word " * 30,  # spaces where the row breaks
    "wide 漢字 characters 漢字漢字漢字 take two cells 漢字漢字漢字漢字漢字漢字",
    "emoji 🙂🙂 and tabs\tafter\ta tab",
    "first\n\nthird line after a blank one\n",
    "trailing spaces      \n    leading spaces and a long line that wraps once or twice",
    "",
]


async def test_rows_are_counted_as_many_lines_as_they_are_drawn() -> None:
    # rows are counted (Content.get_height) when set and drawn only when shown: the count must
    # be the lines drawn, or the rows below a miscounted one are drawn out of place
    app = TwoLists()
    async with app.run_test(size=(100, 20)) as pilot:
        pane = app.query_one("#a", RowList)
        pane.set_rows([Row(Content(text), f"t{n}") for n, text in enumerate(TRICKY)])
        await pilot.pause()
        style = pane.get_visual_style()
        for width in (1, 7, 20, 33, 58, 96):
            for index in range(pane.row_count):
                drawn = len(pane.draw_row(index, width, style))
                assert pane.row_height(index, width) == max(1, drawn), (width, TRICKY[index])


class CountingList(RowList):
    drawn = 0

    def draw_row(self, index: int, width: int, style: Style) -> list[Strip]:
        self.drawn += 1
        return super().draw_row(index, width, style)


class CountingLists(App[None]):
    def compose(self) -> ComposeResult:
        yield CountingList(id="a")
        yield CountingList(id="b")


async def test_focus_back_and_forth_draws_each_row_once_per_focus_state() -> None:
    app = CountingLists()
    async with app.run_test(size=(40, 30)) as pilot:
        first, second = app.query_one("#a", CountingList), app.query_one("#b", CountingList)
        for widget in (first, second):
            widget.set_rows(rows(5), cursor=0)
        first.focus()
        await pilot.pause()
        second.focus()  # the rows of both drawn again: the cursor's and background's colours
        await pilot.pause()
        drawn = first.drawn, second.drawn
        styles = {str(first.render_line(0)), str(second.render_line(0))}
        for _ in range(3):
            first.focus()
            await pilot.pause()
            second.focus()
            await pilot.pause()
        assert (first.drawn, second.drawn) == drawn  # kept in both states: nothing drawn again
        assert {str(first.render_line(0)), str(second.render_line(0))} == styles
        app.theme = "textual-light"
        await pilot.pause()
        assert first.drawn > drawn[0]  # another theme: drawn again


class MeasuredList(RowList):
    DEFAULT_CSS = "MeasuredList { scrollbar-gutter: stable; height: 10; }"
    measured = 0

    def row_height(self, index: int, width: int) -> int:
        self.measured += 1
        return super().row_height(index, width)


class MeasuredApp(App[None]):
    def compose(self) -> ComposeResult:
        yield MeasuredList(id="a")


async def test_rows_under_a_stable_scrollbar_gutter_are_measured_once() -> None:
    # the gutter keeps the bar's column whether the rows overflow or not: one width to try
    app = MeasuredApp()
    async with app.run_test(size=(40, 20)) as pilot:
        pane = app.query_one(MeasuredList)
        await pilot.pause()
        for count in (30, 3, 30):  # overflowing, fitting, overflowing again
            pane.measured = 0
            pane.set_rows(rows(count), cursor=0)
            await pilot.pause()
            assert pane.measured == count
            assert pane.line_count == count


WORDS = [Row(Content(" ".join(["word"] * 12)), f"r{n}") for n in range(6)]  # 59 cells each


class ExpectingList(MeasuredList):
    """Given its rows on mount, before its first layout, as the review screen gives the record's."""

    lines_on_mount = 0

    def on_mount(self) -> None:
        self.expect_width(self.app.size.width)
        self.set_rows(WORDS, cursor=0)
        self.lines_on_mount = self.line_count


class ExpectingApp(App[None]):
    def compose(self) -> ComposeResult:
        yield ExpectingList(id="a")


async def test_rows_given_with_the_width_to_come_are_measured_before_the_layout() -> None:
    # the review screen tells the record pane its width before the first layout: the rows are
    # measured then (the layout places the scrollbar they need), at the content width that
    # layout gives, and not again when first drawn
    app = ExpectingApp()
    async with app.run_test(size=(40, 20)) as pilot:
        pane = app.query_one(ExpectingList)
        await pilot.pause()
        assert pane.lines_on_mount == 12  # measured on mount: two lines each
        # 40 columns less the padding (1 each side) and the scrollbar's kept column (2): 36
        line = pane.render_line(1)
        assert pane.row_width == 36 and line.cell_length == 38
        assert line.text[:36].strip() == " ".join(["word"] * 5)  # 7 fit in 36
        assert (pane.measured, pane.line_count) == (6, 12)  # not measured again


class WrappedAndCut(App[None]):
    CSS = "#b { text-wrap: nowrap; text-overflow: ellipsis; }"

    def compose(self) -> ComposeResult:
        yield RowList(id="a")
        yield RowList(id="b")


async def test_heights_are_kept_per_text_width_and_wrapping() -> None:
    # heights are kept by text (a record shown again is measured from the text, not drawn):
    # the same text in a list that cuts lines, or at another width, is not given the kept one
    text = "a row long enough to wrap over several lines at a narrow width " * 3
    app = WrappedAndCut()
    async with app.run_test(size=(40, 20)) as pilot:
        wrapped, cut = app.query_one("#a", RowList), app.query_one("#b", RowList)
        for pane in (wrapped, cut, wrapped):
            pane.set_rows([Row(Content(text), "r")])
        await pilot.pause()
        assert wrapped.row_height(0, 30) == len(wrapped.draw_row(0, 30, Style())) > 1
        assert cut.row_height(0, 30) == len(cut.draw_row(0, 30, Style())) == 1
        assert wrapped.row_height(0, 60) == len(wrapped.draw_row(0, 60, Style())) > 1
        assert wrapped.row_height(0, 60) < wrapped.row_height(0, 30)


class Counted(Content):
    """Content that counts how often it is drawn (Textual draws a Visual through render_strips)."""

    drawn = 0

    def render_strips(self, *args: Any, **options: Any) -> list[Strip]:
        Counted.drawn += 1
        return super().render_strips(*args, **options)


async def test_rows_prepared_ahead_are_shown_without_being_measured_or_drawn_again() -> None:
    app = TwoLists()
    async with app.run_test(size=(40, 24)) as pilot:
        pane, other = app.query_one("#a", PreparedList), app.query_one("#b", RowList)
        app.set_focus(None)  # both drawn blurred
        pane.set_rows(rows(3), cursor=0)
        await pilot.pause()
        coming = [Row(Counted(f"coming row {n} " * 3), f"c{n}", n == 1) for n in range(40)]
        Counted.drawn = 0
        pane.prepare(coming, cursor=2)
        ahead = Counted.drawn
        assert 0 < ahead <= pane.size.height  # the first screen only
        pane.set_rows(coming, cursor=2)
        await pilot.pause()
        assert Counted.drawn == ahead  # shown: nothing drawn again
        other.set_rows([Row(Content(row.prompt.plain), row.id, row.disabled) for row in coming], 2)
        await pilot.pause()
        assert [str(pane.render_line(y)) for y in range(pane.size.height)] == [
            str(other.render_line(y)) for y in range(other.size.height)
        ]  # what a list not prepared draws
