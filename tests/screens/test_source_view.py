"""SourceView: lazy rendering, block highlighting in a worker, gutter marks, safe text."""

from __future__ import annotations

from typing import Any

import pytest
from rich.cells import cell_len
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widgets import Static

from screens.safe import safe_line
from screens.widgets import source_view
from screens.widgets.source_highlight import BLOCK
from screens.widgets.source_lines import (
    LongLine,
    SourceMarks,
    code_segments,
    highlight_block,
    widest_line,
)
from screens.widgets.source_view import SourceView

LINES = [f"value_{n} = compute({n})  # line {n + 1}" for n in range(30_000)]


class ViewApp(App[None]):
    def compose(self) -> ComposeResult:
        yield SourceView(id="view")


async def highlighted(pilot: Pilot[Any], view: SourceView) -> None:
    for _ in range(300):
        await pilot.pause()
        if not view.highlighting:
            return
        await pilot.pause(0.01)
    raise AssertionError("highlighting never finished")


def text_of(view: SourceView, y: int) -> str:
    return "".join(segment.text for segment in view.render_line(y))


async def test_opens_a_large_file_near_its_end_lazily() -> None:
    app = ViewApp()
    async with app.run_test(size=(100, 30)) as pilot:
        view = app.query_one(SourceView)
        marks = SourceMarks(
            matched=(29_990, 29_992), claimed=(29_980, 29_981), others=((29_995, 29_995),)
        )
        view.show("big.py", LINES, marks=marks, line=29_990)
        await highlighted(pilot, view)
        assert view.cursor_line == 29_990
        assert view.line_count == 30_000
        top = int(view.scroll_y)
        assert 29_960 < top < 29_990
        # only the blocks around the screen were highlighted, not the 150 blocks of the file
        highlighted_blocks = [
            n for n in range(30_000 // BLOCK) if view.is_highlighted(n * BLOCK + 1)
        ]
        assert 1 <= len(highlighted_blocks) <= 3
        assert not view.is_highlighted(1)
        rows = {int(text_of(view, y).split()[0]): text_of(view, y) for y in range(25)}
        assert "▐" in rows[29_990] and "value_29989" in rows[29_990]
        assert "▐" in rows[29_980]  # claimed range marked too
        assert "┆" in rows[29_995]
        assert "▐" not in rows[29_985] and "┆" not in rows[29_985]
        assert view.selection == (29_990, 29_992)


async def test_cursor_keys_message_and_go_to_line() -> None:
    app = ViewApp()
    async with app.run_test(size=(80, 20)) as pilot:
        view = app.query_one(SourceView)
        view.show("a.txt", LINES[:100])
        view.focus()
        await pilot.press("down", "down", "end")
        assert view.cursor_line == 100
        await pilot.press("home")
        assert view.cursor_line == 1
        view.go_to_line(50)
        await pilot.pause()
        assert view.cursor_line == 50 and view.selection == (50, 50)
        view.show_message("gone.py does not exist at this revision")
        await pilot.pause()
        assert view.path is None and view.line_count == 0
        assert "does not exist" in text_of(view, 0)


async def test_control_characters_and_markup_are_shown_as_data() -> None:
    app = ViewApp()
    async with app.run_test(size=(80, 10)) as pilot:
        view = app.query_one(SourceView)
        view.show("x.py", ["s = '\x1b[31m[bold]x[/bold]\x07'\r", "\u202eevil"])
        await highlighted(pilot, view)
        first, second = text_of(view, 0), text_of(view, 1)
        assert "␛[31m[bold]x[/bold]␇'␍" in first
        assert "\x1b" not in first and "\x07" not in first and "\r" not in first
        assert "<RLO>evil" in second


def test_highlight_block_keeps_lines_apart() -> None:
    pieces = highlight_block("a.py", ['x = "one"', "", "def f():", "    return 2"], "monokai")
    assert ["".join(text for text, _ in line) for line in pieces] == [
        'x = "one"',
        "",
        "def f():",
        "    return 2",
    ]
    styles = {str(style) for line in pieces for _, style in line}
    assert len(styles) > 1  # something got a colour


async def test_a_passage_at_the_end_of_a_wide_file_is_not_under_the_scrollbar() -> None:
    # a line wider than the view brings a horizontal scrollbar, which takes the last row once
    # laid out: the view scrolls again then, so the passage's last line stays in sight
    lines = [f"line_{n} = {n}" for n in range(1, 44)] + ["tail = " + "x" * 400]
    app = ViewApp()
    async with app.run_test(size=(60, 20)) as pilot:
        view = app.query_one(SourceView)
        view.show("wide.py", lines, marks=SourceMarks(matched=(40, 44)), line=40)
        await pilot.pause()
        await pilot.pause()
        assert view.scrollbar_size_horizontal == 1
        assert round(view.scroll_y) == view.max_scroll_y
        visible = [text_of(view, y) for y in range(view.scrollable_content_region.height)]
        assert "tail = xxx" in visible[-1]


async def test_tabs_and_controls_count_in_the_scrollable_width() -> None:
    # a line is as wide as it is drawn (tabs expanded to 4, controls as symbols), so scrolling
    # right reaches its end
    lines = ["short", "\t\t\tend_of_a_tabbed_line", "plain"]
    app = ViewApp()
    async with app.run_test(size=(40, 10)) as pilot:
        view = app.query_one(SourceView)
        view.show("tabs.py", lines)
        await pilot.pause()
        drawn = len("            end_of_a_tabbed_line")
        assert view.virtual_size.width >= drawn + view._gutter_width


async def test_a_line_in_wide_characters_scrolls_to_its_end() -> None:
    # a comment in Japanese is twice as wide as it is long: measured in characters, the view
    # stopped scrolling halfway along it and its end could not be read
    comment = "    # 必須のフィールドがすべて揃っているかを確認する。"
    comment += "欠けている場合はエラーとして扱う。"
    lines = ["def check(message):", comment, "    return True"]
    app = ViewApp()
    async with app.run_test(size=(40, 10)) as pilot:
        view = app.query_one(SourceView)
        view.show("wide.py", lines)
        await pilot.pause()
        assert view.virtual_size.width >= cell_len(comment) + view._gutter_width
        view.scroll_to(x=view.max_scroll_x, animate=False, immediate=True)
        await pilot.pause()
        assert "扱う。" in text_of(view, 1)


def test_the_widest_line_is_measured_in_cells() -> None:
    lines = ["ascii only", "\t\tx", "検証" * 10, "e\u0301" * 30, "a\x1bb", "😀 ok"]
    assert widest_line(lines) == max(cell_len(safe_line(line)) for line in lines) == 40
    # lines whose bound in bytes leaves them all in contention: the first hundred measured,
    # the rest taken at their bound (a few cells of blank at most, never a line cut short)
    many = [f"x → y — z … {n:05d}" for n in range(1_000)]
    exact = max(cell_len(line) for line in many)
    assert exact <= widest_line(many) <= exact + 4


def test_tabs_stop_at_the_columns_the_terminal_counts() -> None:
    # a tab goes to the next multiple of 4 cells: after a name in wide characters too, so a
    # column of values stays in line
    rows = [safe_line(row) for row in ("id\tvalue", "名前\tvalue", "a名\tb\tc")]
    assert [row.index("value") for row in rows[:2]] == [4, 6]  # characters: 4 cells, 8 cells
    assert [cell_len(row[: row.index("value")]) for row in rows[:2]] == [4, 8]
    assert rows[2] == "a名 b   c"
    assert safe_line("\t\tx\x1b") == "        x␛"  # ASCII as before


class ViewAndLineApp(App[None]):
    """A view over a line that may wrap, as the quote's line sits under the source pane."""

    CSS = "#below { height: auto; }"

    def compose(self) -> ComposeResult:
        yield SourceView(id="view")
        yield Static("one line", id="below")


async def test_a_line_centred_stays_centred_whichever_is_laid_out_first() -> None:
    # the line below takes its height before the file is shown, or after it was shown and
    # painted (a file kept is shown at once, before the layout; one read from git after it):
    # the view ends centred on the line either way
    tops = []
    for below_first in (True, False):
        app = ViewAndLineApp()
        async with app.run_test(size=(60, 20)) as pilot:
            view, below = app.query_one(SourceView), app.query_one("#below", Static)
            await pilot.pause()
            if below_first:
                below.update("three\nlines\nnow")
                await pilot.pause()
            view.show("big.py", LINES[:1000], line=500)
            await pilot.pause()
            await pilot.pause()
            if not below_first:
                below.update("three\nlines\nnow")
            for _ in range(4):
                await pilot.pause()
            assert view.scrollable_content_region.height == 16  # 20, less 3 below, less its bar
            tops.append(round(view.scroll_y))
    assert tops == [499 - 16 // 3] * 2


async def test_a_resize_moves_a_view_the_reviewer_scrolled_as_little_as_needed() -> None:
    app = ViewAndLineApp()
    async with app.run_test(size=(60, 20)) as pilot:
        view, below = app.query_one(SourceView), app.query_one("#below", Static)
        view.show("big.py", LINES[:1000], line=500)
        await pilot.pause()
        await pilot.pause()
        height = view.scrollable_content_region.height
        view.scroll_to(y=500 - height, animate=False)  # the cursor line now the last in view
        below.update("three\nlines\nnow")
        for _ in range(4):
            await pilot.pause()
        # not centred again: the least move that keeps the cursor line in view
        assert view.cursor_line == 500
        assert round(view.scroll_y) == 500 - view.scrollable_content_region.height


async def test_widths_are_kept_per_file_shown_and_not_shared_between_texts() -> None:
    # a file shown again (the same key: its blob id) is not measured again; another text of the
    # same path (another key) is measured as itself
    app = ViewApp()
    async with app.run_test(size=(40, 10)) as pilot:
        view = app.query_one(SourceView)
        wide = ["x" * 90, "short"]
        view.show("a.py", wide, key="blob-1")
        view.show("b.py", ["b"], key="blob-2")
        await pilot.pause()
        narrow = view.virtual_size.width
        view.show("a.py", wide, key="blob-1")
        await pilot.pause()
        assert view.virtual_size.width == 90 + view._gutter_width + 1 > narrow
        view.show("a.py", ["shorter now"], key="blob-3")
        await pilot.pause()
        assert view.virtual_size.width == len("shorter now") + view._gutter_width + 1


# a minified bundle: one line of 1.2 million characters, a token every few
#: a minified bundle's one line: 315 KB, 132,000 tokens (the one reported was 5 MB)
BUNDLE = "".join(f"var a{n}=b({n},'s{n}');" for n in range(12_000))


async def test_a_long_line_draws_the_window_scrolled_to_and_only_that(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the whole line was styled into segments, then cut, on every frame: 9 s a frame for a
    # 5 MB bundle, the app frozen; now only the pieces under the window are styled
    wide = "漢字" * 2_000  # two cells a character: cut by cells, not characters
    app = ViewApp()
    async with app.run_test(size=(80, 10)) as pilot:
        view = app.query_one(SourceView)
        view.show("bundle.min.js", [BUNDLE, wide + "end"])
        await highlighted(pilot, view)
        assert view.is_highlighted(1)
        code = view.size.width - view._gutter_width
        for x in (0, 1, 123_457, len(BUNDLE) - 5):  # the last: past the scroll's end
            view.scroll_to(x=x, animate=False, immediate=True, force=True)
            await pilot.pause()
            x = int(view.scroll_x)  # the last: as far as it scrolls
            row = text_of(view, 0)
            assert row[view._gutter_width :].rstrip() == BUNDLE[x : x + code], x
            styles = {segment.style for segment in view.render_line(0)}
            assert len(styles) > 2  # highlighted: gutter, and more than one token colour
        styled: list[int] = []  # the pieces each drawing of a line styles (not its time)

        def counted(pieces, line_style, styles):  # type: ignore[no-untyped-def]
            pieces = list(pieces)
            styled.append(len(pieces))
            return code_segments(pieces, line_style, styles)

        monkeypatch.setattr(source_view, "code_segments", counted)
        for x in range(0, len(BUNDLE), len(BUNDLE) // 20):  # 20 frames along the line
            view.scroll_to(x=x, animate=False, immediate=True, force=True)
            text_of(view, 0)
        # the window's few pieces, not the line's 132,000 tokens (each frame styled them all)
        assert styled and max(styled) <= code + 2
        monkeypatch.undo()
        view.scroll_to(x=8_000 - 3, animate=False, immediate=True, force=True)
        await pilot.pause()
        assert text_of(view, 1)[view._gutter_width :].startswith(" 字end")  # half a 漢 cut
        view.scroll_to(x=4_002, animate=False, immediate=True, force=True)
        await pilot.pause()
        assert text_of(view, 1)[view._gutter_width :].startswith("字漢字")


def test_a_long_line_is_cut_to_the_pieces_under_the_window() -> None:
    pieces = [(f"t{n};", None) for n in range(200_000)]
    line = LongLine("".join(text for text, _ in pieces), pieces)
    window, at = line.cut(500_000, 500_080)
    assert at == 500_000 and len(window) <= 30
    assert "".join(text for text, _ in window) == "".join(t for t, _ in pieces)[500_000:500_080]


async def test_a_line_drawn_as_the_theme_changes_is_drawn_in_the_new_theme_after() -> None:
    # Textual sets `app.theme`, then restyles in a later callback: a line drawn between the two
    # must not keep the old theme's component styles under the new theme's name
    app = ViewApp()
    async with app.run_test(size=(80, 10)) as pilot:
        view = app.query_one(SourceView)
        view.show("x.txt", ["alpha", "beta"])
        await pilot.pause()
        app.theme = "textual-light" if app.current_theme.dark else "textual-dark"
        view.render_line(1)  # drawn before the restyle
        await pilot.pause()
        number = list(view.render_line(1))[1]  # the line's number, after the backlink's dot
        assert number.text.strip() == "2" and number.style is not None
        assert number.style.color == view.get_component_rich_style("source-view--gutter").color
