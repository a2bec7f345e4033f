"""RowList: the review panes' lists, drawn line by line with a cursor on the rows one can choose.

A line-API view, not an OptionList (which draws each visible line through Textual's visual
pipeline and measures all options again whenever it is drawn after a change): each row is drawn
once per width and cursor state, kept until it changes, and the lines on screen are looked up.

Subclasses give the rows (`set_rows`) or draw them (`draw_row`), and turn the cursor's moves and
choices (`RowList.Moved`, `RowList.Chosen`, sent only for the reviewer's own keys and clicks)
into messages of their own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from cachetools import LRUCache
from textual import events
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.visual import Visual

from screens.contrast import legible_strip
from screens.widgets.drawn_bar import BarPointer, DrawnBar
from screens.widgets.rows import Row as Row
from screens.widgets.rows import text_height
from screens.widgets.virtual import set_virtual_size

if TYPE_CHECKING:
    from rich.style import Style as RichStyle
    from textual.style import Style


class RowList(BarPointer, ScrollView, can_focus=True):
    """Rows of one or more lines; the cursor (`highlighted`) is on a row that is not disabled."""

    DEFAULT_CSS = """
    RowList {
        background: $surface;
        color: $foreground;
        padding: 0 1;
        overflow-x: hidden;
        /* the bar is drawn in the rows' lines (drawn_bar.py), Textual's never: no widget of
           its own to restyle, place or lay the screen out for */
        overflow-y: hidden;
        &:focus { background-tint: $foreground 5%; }
        /* rows the cursor skips (a record's text, headings) are read as much as the others */
        & > .row-list--disabled { color: $foreground; }
        & > .row-list--hover { background: $block-hover-background; }
        & > .row-list--cursor {
            color: $foreground;
            background: $block-cursor-blurred-background;
        }
        &:focus > .row-list--cursor {
            color: $block-cursor-foreground;
            background: $block-cursor-background;
            text-style: $block-cursor-text-style;
        }
    }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "row-list--disabled",
        "row-list--cursor",
        "row-list--hover",
    }
    BINDINGS: ClassVar[list[BindingType]] = [  # as an OptionList's
        Binding("down", "cursor_down", "Down", show=False),
        Binding("up", "cursor_up", "Up", show=False),
        Binding("home", "first", "First", show=False),
        Binding("end", "last", "Last", show=False),
        Binding("pagedown", "page_down", "Page Down", show=False),
        Binding("pageup", "page_up", "Page Up", show=False),
        Binding("enter", "select", "Select", show=False),
    ]
    #: every row is one line: the list's height is known before it is laid out or drawn
    ONE_LINE_ROWS: ClassVar[bool] = False
    #: the scrollbar's width in cells (Textual's default), drawn by the list (drawn_bar.py)
    BAR: ClassVar[int] = 2

    #: no clickable links in rows: Textual would restyle each line, and repaint on pointer moves
    auto_links: reactive[bool] = reactive(False)
    #: the row under the cursor, or None
    highlighted: reactive[int | None] = reactive(None, repaint=False)
    #: the row under the mouse pointer (one the cursor can take), or None
    hovered: reactive[int | None] = reactive(None, repaint=False)

    class Moved(Message):
        """The reviewer moved the cursor onto a row (a key or a click; not `move_to`)."""

        def __init__(self, row_list: RowList, index: int) -> None:
            super().__init__()
            self.row_list, self.index = row_list, index

    class Chosen(Message):
        """The reviewer chose the row under the cursor (enter, or a click on it)."""

        def __init__(self, row_list: RowList, index: int) -> None:
            super().__init__()
            self.row_list, self.index = row_list, index

    def __init__(self, *, id: str | None = None) -> None:  # Textual's name
        super().__init__(id=id)
        self._rows: list[Row] = []
        self._width = 0  # the content width the rows were measured and drawn at (0: not yet)
        self._bar = 0  # the columns the scrollbar took at that width (0 or BAR)
        self.bar = DrawnBar(self, self.BAR)
        self._expected = 0  # the content width the first layout will give (0: not known)
        self._first: list[int] = []  # row -> its first line
        self._line_rows: list[int] = []  # line -> its row
        # (row, "cursor"/"hover"/"", the style drawn in, the theme) -> its lines: a row drawn
        # focused and blurred is kept in both (tab back and forth draws nothing again)
        self._drawn: dict[tuple[int, str, Style, str], list[Strip]] = {}
        # (text, spans, width, style, theme, rules) -> the lines `draw_row` gave: rows of a record
        # shown again (p after n, back) come as new Rows of the same text and are not drawn again
        self._texts: LRUCache[tuple[object, ...], list[Strip]] = LRUCache(1024)
        self._scroll_pending = False  # the cursor moved before the list was laid out
        self._pass_styles: dict[str, Style] | None = None  # while render_lines runs
        self._pass_blank: RichStyle | None = None  # the style of an empty line, the same
        self._top = 0  # the first line shown, the same

    # --- rows ------------------------------------------------------------------------------------

    @property
    def row_count(self) -> int:
        return self._row_total()

    def row(self, index: int) -> Row:
        """One row given with `set_rows`."""
        return self._rows[index]

    def row_index(self, row_id: str) -> int | None:
        """The index of the row with this id, or None."""
        return next((n for n, row in enumerate(self._rows) if row.id == row_id), None)

    def set_rows(self, rows: list[Row], cursor: int | None = None) -> None:
        """Show these rows, the cursor on ``cursor`` (no message: the caller knows)."""
        self._rows = rows
        self._rows_changed(cursor)

    def _rows_changed(self, cursor: int | None) -> None:
        self._drawn.clear()
        self._first, self._line_rows = [], []
        self.set_reactive(RowList.highlighted, None)
        self.set_reactive(RowList.hovered, None)
        width = self.scrollable_content_region.width or self._expected
        if self.ONE_LINE_ROWS or width:
            self._fit(width)
        else:  # measured once laid out (by the first draw)
            self._width = 0
        self.move_to(cursor)
        self.refresh()

    def row_lines(self, index: int) -> tuple[int, int]:
        """The first and last line of a row, as measured (0, -1 before it is)."""
        if index >= len(self._first):
            return 0, -1
        return self._first[index], self._first[index] + self._height(index) - 1

    @property
    def row_width(self) -> int:
        """The width rows are drawn at: the content's, less a scrollbar's columns."""
        return self._width

    @property
    def line_count(self) -> int:
        """The lines of every row, as measured (0 before the list is laid out)."""
        return len(self._line_rows)

    def redraw_row(self, index: int | None = None) -> None:
        """Draw one row again, or every row (None): what it shows changed, not its height."""
        if index is None:
            self._drawn.clear()
            self.refresh()
            return
        for key in [key for key in self._drawn if key[0] == index]:
            del self._drawn[key]
        if index < len(self._first):
            self.refresh_lines(self._first[index], self._height(index))

    # --- what subclasses may change --------------------------------------------------------------

    def _row_total(self) -> int:
        return len(self._rows)

    def _row_disabled(self, index: int) -> bool:
        return self._rows[index].disabled

    def draw_row(self, index: int, width: int, style: Style) -> list[Strip]:
        """The lines of one row at a width, on a base style (a wrapped Content by default).

        A subclass that draws rows of its own, of more than one line, gives `row_height` too.
        """
        return self._prompt_lines(self._rows[index].prompt, width, style)

    def _prompt_lines(self, prompt: Content, width: int, style: Style) -> list[Strip]:
        styles = self.styles
        rules = (styles.text_wrap, styles.text_overflow, styles.line_pad, styles.text_align)
        key = (prompt.plain, tuple(prompt.spans), width, style, self.app.theme, rules)
        lines = self._texts.get(key)
        if lines is None:
            lines = self._texts[key] = Visual.to_strips(self, prompt, width, None, style)
        return lines

    def row_height(self, index: int, width: int) -> int:
        """How many lines `draw_row` gives a row at a width (the text wrapped, not drawn)."""
        return self._prompt_height(self._rows[index].prompt, width)

    def _prompt_height(self, prompt: Content, width: int) -> int:
        return text_height(prompt, width, self.styles)

    # --- measuring and drawing -------------------------------------------------------------------

    def expect_width(self, outer: int) -> None:
        """The list's width in the layout to come (its borders and padding in), when it has not
        been laid out yet: rows given before it are measured for that width (less the bar's
        column where it is drawn), not again at the first draw."""
        self._expected = max(0, outer - self.styles.gutter.width)

    def _fit(self, full: int) -> None:
        """Measure the rows at the width they are drawn at: the pane's less the scrollbar's
        column when the rows overflow its height, or always when the column is kept
        (`scrollbar-gutter: stable`: the rows keep their width when a long record brings it)."""
        height = self.scrollable_content_region.height
        if self.styles.scrollbar_gutter == "stable":
            self._measure(full - self.BAR, self.BAR)
        elif self.ONE_LINE_ROWS:
            bar = self.BAR if self._row_total() > height else 0
            self._measure(full - bar, bar)
        else:
            self._measure(full)
            if len(self._line_rows) > height:
                self._measure(full - self.BAR, self.BAR)

    def _fitted(self, full: int, height: int) -> bool:
        """The rows were measured for a pane of this width and height."""
        overflow = len(self._line_rows) > height
        stable = self.styles.scrollbar_gutter == "stable"
        return full == self._width + self._bar and (stable or overflow == (self._bar > 0))

    def _measure(self, width: int, bar: int = 0) -> None:
        """Lay the rows out in lines at a width; the height is the list's virtual size."""
        # rows wrapped again at another width: the row at the top of the view stays at the top
        line = int(self.scroll_y)
        top = self._line_rows[line] if self._width and line < len(self._line_rows) else None
        offset = line - self._first[top] if top is not None else 0  # lines of it above the view
        self._width = width
        self._bar = bar
        self._drawn.clear()
        total = self._row_total()
        if self.ONE_LINE_ROWS:
            self._first = list(range(total))
            self._line_rows = list(range(total))
        else:
            self._first, self._line_rows = [], []
            for index in range(total):  # counted, not drawn: rows are drawn when shown
                self._first.append(len(self._line_rows))
                self._line_rows.extend([index] * self.row_height(index, width))
        height = len(self._line_rows)
        if self.virtual_size.height != height:
            set_virtual_size(self, Size(0, height))
        if top is not None and top < len(self._first):
            kept = self._first[top] + min(offset, self._height(top) - 1)
            if kept != line:
                self.scroll_to(y=kept, animate=False, force=True, immediate=True)

    def _height(self, index: int) -> int:
        end = self._first[index + 1] if index + 1 < len(self._first) else len(self._line_rows)
        return end - self._first[index]

    def row_style(self, kind: str) -> Style:
        """The style a row is drawn in: "cursor", "hover", "disabled" or "" (a plain row)."""
        return self.get_visual_style(f"row-list--{kind}") if kind else self.get_visual_style()

    def _draw(self, index: int, state: str) -> list[Strip]:
        """One row's lines in a state: "cursor", "hover" (the mouse is over it) or ""."""
        kind = state or ("disabled" if self._row_disabled(index) else "")
        styles = self._pass_styles
        style = styles.get(kind) if styles is not None else None
        if style is None:
            style = self.row_style(kind)
            if styles is not None:
                styles[kind] = style
        key = (index, state, style, self.app.theme)
        lines = self._drawn.get(key)
        if lines is None:
            width = self._width
            rich_style = style.rich_style
            lines = self._drawn[key] = [
                legible_strip(strip, rich_style, width)
                for strip in self.draw_row(index, width, style)
            ] or [Strip.blank(width, rich_style)]
        return lines

    def render_lines(self, crop: Region) -> list[Strip]:
        # the rows' styles, the pane's size and its bar looked up once per render, not per line
        self._pass_styles, self._pass_blank = {}, None
        self._ready()
        try:
            return super().render_lines(crop)
        finally:
            self._pass_styles = self._pass_blank = None

    def _ready(self) -> None:
        """The rows measured for the pane as it is laid out now, and its bar decided."""
        region = self.scrollable_content_region
        if not self._fitted(region.width, region.height):
            self._fit(region.width)
        self._expected = 0  # laid out: the widths are the layout's
        self._top = int(self.scroll_y)
        self.bar.start_pass()

    def render_line(self, y: int) -> Strip:
        if self._pass_styles is None:  # drawn alone, not in a render pass
            self._ready()
        line = self._top + y
        strip = None
        if line < len(self._line_rows):
            index = self._line_rows[line]
            hovered = index == self.hovered
            state = "cursor" if index == self.highlighted else "hover" if hovered else ""
            lines = self._draw(index, state)
            offset = line - self._first[index]
            strip = lines[offset] if offset < len(lines) else None
        if strip is None:
            strip = self._blank(self._width)
        return self.bar.line(strip, y) if self.bar.drawn else strip

    def _blank(self, width: int) -> Strip:
        """An empty line (below the rows), its style looked up once per render pass (the
        widget's `rich_style` walks its ancestors)."""
        if self._pass_styles is None:
            return Strip.blank(width, self.rich_style)
        if self._pass_blank is None:
            self._pass_blank = self.rich_style
        return Strip.blank(width, self._pass_blank)

    def notify_style_update(self) -> None:
        # the focus, a theme or the stylesheet changed the styles: rows are drawn in the new
        # ones; those drawn in more than a few others go (a row's key holds its style)
        if len({key[2:] for key in self._drawn}) > 4:
            self._drawn.clear()
        super().notify_style_update()

    def on_focus(self, event: events.Focus) -> None:
        self.refresh()

    def on_blur(self, event: events.Blur) -> None:
        self.refresh()

    def _watch_highlighted(self, old: int | None, new: int | None) -> None:
        self._refresh_rows(old, new)  # only the rows the cursor left and reached

    def _watch_hovered(self, old: int | None, new: int | None) -> None:
        self._refresh_rows(old, new)

    def _refresh_rows(self, *rows: int | None) -> None:
        for index in rows:
            if index is not None and index < len(self._first):
                self.refresh_lines(self._first[index], self._height(index))

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self.hovered = self._row_at(event)

    def on_leave(self, event: events.Leave) -> None:
        self.hovered = None

    def _row_at(self, event: events.MouseEvent) -> int | None:
        """The row under the pointer, if the cursor can take it."""
        offset = event.get_content_offset(self)
        if offset is None or self.bar.over(event):
            return None
        line = int(self.scroll_y) + offset.y
        if not 0 <= line < len(self._line_rows):
            return None
        index = self._line_rows[line]
        return None if self._row_disabled(index) else index

    # --- the cursor ------------------------------------------------------------------------------

    def move_to(self, index: int | None, *, centre: bool = False) -> None:
        """Put the cursor on a row that can take it, and show it (no message); ``centre``: a
        row out of view is shown in the middle of the view, not at its edge.

        A cursor already there is left alone, and so is the view (`show_top` may have moved it).
        """
        if index is None or not 0 <= index < self._row_total() or self._row_disabled(index):
            return
        if index != self.highlighted:
            self.highlighted = index
            self.scroll_to_cursor(centre=centre)

    def scroll_to_cursor(self, *, centre: bool = False) -> None:
        """Scroll as little as shows the cursor's row (once laid out, if it is not yet), or
        with ``centre`` put a row out of view in the middle of the view."""
        region = self.scrollable_content_region
        index = self.highlighted
        self._scroll_pending = not region.height or not self._width
        if index is None or self._scroll_pending or index >= len(self._first):
            return
        top = self._first[index]
        if index == self._next(0, 1) and top + self._height(index) <= region.height:
            top = 0  # the first row the cursor can take: the headings above it show too
        height = self._first[index] + min(self._height(index), region.height) - top
        cursor = Region(0, top, max(1, region.width), height)
        view = Region(0, round(self.scroll_y), max(1, region.width), region.height)
        centre = centre and not view.contains_region(cursor)
        self.scroll_to_region(cursor, animate=False, force=True, immediate=True, center=centre)

    def top_line(self) -> tuple[int, int]:
        """Where the view starts: the row at its top and how many of that row's lines are above."""
        line = int(self.scroll_y)
        if not self._width or line >= len(self._line_rows):
            return 0, line
        row = self._line_rows[line]
        return row, line - self._first[row]

    def show_from(self, top: tuple[int, int]) -> None:
        """Start the view where `top_line` said it started (as near as the height allows)."""
        row, offset = top
        if row < len(self._first):
            line = self._first[row] + min(offset, self._height(row) - 1)
            self.scroll_to(y=line, animate=False, force=True, immediate=True)

    def show_top(self) -> None:
        """Scroll to the first line, wherever the cursor is."""
        self._scroll_pending = False
        self.scroll_to(y=0, animate=False, immediate=True, force=True)

    def on_resize(self, event: events.Resize) -> None:
        region = self.scrollable_content_region
        if region.width and not self._fitted(region.width, region.height):
            self._fit(region.width)  # now, not when next drawn: the next layout knows the height
        if self._scroll_pending:
            self.scroll_to_cursor()

    def _next(self, start: int, step: int) -> int | None:
        """The first row from ``start`` on (by ``step``, +1 or -1) that can take the cursor."""
        index, total = start, self._row_total()
        while 0 <= index < total:
            if not self._row_disabled(index):
                return index
            index += step
        return None

    def _user_move(self, index: int | None) -> None:
        if index is None:
            return
        moved = index != self.highlighted
        self.move_to(index)
        if moved and self.highlighted == index:
            self.post_message(self.Moved(self, index))

    def action_cursor_down(self) -> None:
        start = 0 if self.highlighted is None else self.highlighted + 1
        self._user_move(self._next(start, 1))

    def action_cursor_up(self) -> None:
        total = self._row_total()
        start = total - 1 if self.highlighted is None else self.highlighted - 1
        self._user_move(self._next(start, -1))

    def action_first(self) -> None:
        self._user_move(self._next(0, 1))

    def action_last(self) -> None:
        self._user_move(self._next(self._row_total() - 1, -1))

    def _page(self, step: int) -> None:
        page = max(1, self.scrollable_content_region.height - 1)
        if self.highlighted is None or not self._first:
            self.action_first()
            return
        line = self._first[self.highlighted] + step * page
        line = max(0, min(len(self._line_rows) - 1, line))
        index = self._line_rows[line]
        found = self._next(index, step)
        self._user_move(found if found is not None else self._next(index, -step))

    def action_page_down(self) -> None:
        self._page(1)

    def action_page_up(self) -> None:
        self._page(-1)

    def action_select(self) -> None:
        index = self.highlighted
        if index is not None and not self._row_disabled(index):
            self.post_message(self.Chosen(self, index))

    def on_click(self, event: events.Click) -> None:
        if self.bar.took_click():
            return
        index = self._row_at(event)
        if index is not None:
            self._user_move(index)
            self.action_select()
