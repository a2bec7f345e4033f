"""SourceView: a lazy, line-API view of one source file with line numbers and gutter marks.

Only the lines on screen are rendered, and only the 200-line blocks on screen (plus a margin) are
highlighted, in a worker thread, cached per block: a file of any length opens at any line at once,
in plain text, and the highlighting follows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cachetools import LRUCache
from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.strip import Strip
from textual.worker import Worker

from keymaps.bindings import bindings_for
from screens.safe import safe_line
from screens.widgets.drawn_bar import BarPointer, DrawnBar
from screens.widgets.source_highlight import Highlighted, Highlights, document
from screens.widgets.source_layout import (
    centred_top,
    kept_in_view,
    rows_after,
    scrollbars_placed,
)
from screens.widgets.source_lines import (
    LONG_LINE,
    SYNTAX_STYLES,
    LineRange,
    LongLines,
    Pieces,
    SourceMarks,
    code_segments,
    gutter_segments,
    message_strip,
    widest_line,
    windowed,
)
from screens.widgets.source_moves import SourceMoves
from screens.widgets.truecolor import TruecolorOnly
from screens.widgets.virtual import set_virtual_size


class SourceView(TruecolorOnly, BarPointer, SourceMoves, can_focus=True):
    """One file at a revision, rendered lazily, with a cursor line and gutter marks.

    Public API (also used by the lookup screens):
      - ``show(path, lines, *, marks=None, line=None, title=None)``: display a file, centred on
        ``line`` (1-based) when given;
      - ``show_message(text)``: replace the file by a message (missing file, binary, error);
      - ``set_marks(marks)``, ``go_to_line(line)``, ``cursor_line`` (1-based, reactive),
        ``path``, ``line_count``, ``selection`` (the selected range, else the matched range,
        else the cursor line);
      - posts ``SourceView.CursorMoved``; its highlighting part posts ``Highlighted``.
    """

    COMPONENT_CLASSES = {
        "source-view--gutter",
        "source-view--cursor",
        "source-view--matched",
        "source-view--selected",
        "source-view--claimed",
        "source-view--other",
        "source-view--backlink",
        "source-view--message",
    }
    DEFAULT_CSS = """
    /* the vertical bar drawn in the view's lines (drawn_bar.py); the horizontal bar's row
       kept whether a file needs it or not (no layout for a file) */
    SourceView { background: $surface; overflow-y: hidden; overflow-x: scroll; }
    SourceView > .source-view--gutter { color: $text-muted; }
    SourceView > .source-view--cursor { background: $boost; }
    SourceView:focus > .source-view--cursor { background: $primary 25%; }
    SourceView > .source-view--matched { color: $text-success; background: $success 12%; }
    SourceView > .source-view--selected { color: $text-primary; background: $primary 12%; }
    SourceView > .source-view--claimed { color: $warning; background: $warning 12%; }
    SourceView > .source-view--other { color: $accent; }
    SourceView > .source-view--backlink { color: $secondary; }
    SourceView > .source-view--message { color: $text-warning; }
    """
    BINDINGS = [
        Binding("down", "cursor_down", "Down", show=False),
        Binding("up", "cursor_up", "Up", show=False),
        Binding("pagedown", "page_down", "Page down", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("home", "first_line", "First line", show=False),
        Binding("end", "last_line", "Last line", show=False),
        *bindings_for("source"),
    ]

    class CursorMoved(Message):
        """The cursor line changed."""

        def __init__(self, view: SourceView, line: int) -> None:
            super().__init__()
            self.view = view
            self.line = line

    def __init__(
        self, *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.path: str | None = None
        self._lines: list[str] = []
        self._display: dict[int, str] = {}  # safe display text per 0-based line, filled lazily
        self._cells: dict[int, int] = {}  # the display text's width in cells, the same
        self._long = LongLines()
        self._width = 0  # display width of the widest line
        self._message: str | None = None
        self.marks = SourceMarks()
        self._generation = 0
        self._doc: object = 0  # cache key of the document shown (a blob id when given)
        self.highlights = Highlights(self)
        self._syntax = ("", "")  # (the app's theme, its syntax style)
        self.bar = DrawnBar(self, 2)  # Textual's default width
        self._gutter_width = 6
        self._height_seen = 0  # the height at the last resize (0: not laid out yet)
        self._rows_next: int | None = None  # while a file is shown: its rows once laid out
        # (line, top): the view is where centring ``line`` put it, until something else moves it
        self._centred: tuple[int, int] | None = None
        #: counts what moved the view other than a resize (keys, clicks, a file or line shown)
        self.moves = 0
        self._style_key: tuple[str, bool] | None = None
        self._base_style: Style | None = None  # set while render_lines runs
        self._styles: dict[str, Style] = {}
        self._legible: dict[tuple[Style, Style], Style] = {}  # (token, line) -> style drawn
        # doc -> its widest line: measured once per file (a scan of every line of a large file)
        self._widths: LRUCache[object, int] = LRUCache(64)

    # --- public API --------------------------------------------------------------------------

    @property
    def line_count(self) -> int:
        """Number of lines of the file shown (0 for a message)."""
        return len(self._lines)

    @property
    def message(self) -> str | None:
        """The message shown instead of a file, if any."""
        return self._message

    @property
    def selection(self) -> LineRange | None:
        """The lines a permalink should cite: the selected range, else the matched range, else
        the cursor line."""
        if not self._lines:
            return None
        if self.marks.selected:
            return self.marks.selected
        if self.marks.matched:
            return self.marks.matched
        return (self.cursor_line, self.cursor_line)

    def show(
        self,
        path: str,
        lines: Sequence[str],
        *,
        marks: SourceMarks | None = None,
        line: int | None = None,
        title: object | None = None,
        key: object | None = None,
        rows: int | None = None,
    ) -> None:
        """Display ``lines`` of ``path``; centre on ``line`` (1-based) when given.

        ``key`` (e.g. the blob id) identifies the text: highlighting is kept per key. ``rows``:
        the lines of code shown once laid out again, when what is around it changes height.
        """
        doc = document(path, key) if key is not None else None
        if doc is None or doc != self._doc or self._message is not None:
            self._generation += 1
            self._doc = doc if doc is not None else ("generation", self._generation)
            self._lines = list(lines)
            self._display, self._cells = {}, {}
            self.scroll_to(x=0, animate=False, force=True, immediate=True)  # another file
            self.highlights.forget_pending()
            width = self._widths.get(doc) if doc is not None else None
            if width is None:
                width = widest_line(self._lines)
                if doc is not None:
                    self._widths[doc] = width
            self._width = width
        self.path = path
        self._message = None
        self.marks = marks or SourceMarks()
        if title is not None:
            self.border_title = title  # type: ignore[assignment]
        self._gutter_width = len(str(max(1, len(self._lines)))) + 4
        width = self._width + self._gutter_width + 1
        # centred as laid out with this file, not as now: else moved again a frame later
        self._rows_next = rows_after(self, rows)
        if self._rows_next is None or len(self._lines) > self._rows_next:
            width += self.bar.width  # the vertical bar's columns: scrolled past, not covered
        set_virtual_size(self, Size(width, len(self._lines)))
        self.go_to_line(line or 1, center=line is not None)
        self._rows_next = None
        if line is not None:  # shown before its first layout: centred again once laid out
            self.call_after_refresh(self._recenter, self._generation, line)
        self.refresh()

    def _recenter(self, generation: int, line: int) -> None:
        if generation == self._generation and self._still_centred(line):
            self._centre(line)

    def _centre(self, line: int) -> None:
        """Scroll ``line`` to a third of the way down, as the view is laid out now."""
        super().scroll_to(y=self._centred_top(line), animate=False, force=True)
        self._centred = (line, round(self.scroll_y))

    def _still_centred(self, line: int | None = None) -> bool:
        """The view is still where centring the cursor line put it (nothing moved it since,
        but a resize that cut the scroll short): a resize centres it again."""
        if self._centred is None:
            return False
        centred, top = self._centred
        y = round(self.scroll_y)
        return (
            self.cursor_line == centred
            and (line is None or line == centred)
            and (y == top or y == self.max_scroll_y < top)
        )

    def scroll_to(self, x: float | None = None, y: float | None = None, **options: Any) -> None:
        """Scroll as a ScrollView does; a vertical scroll by anyone but the centring ends it (a
        resize then moves the view as little as keeps the cursor in view)."""
        if y is not None:
            self._centred = None
        super().scroll_to(x, y, **options)

    @property
    def max_scroll_y(self) -> int:
        # while a file is shown, as laid out next: a line under it that grows scrolls it further
        if self._rows_next is not None:
            return max(0, self.virtual_size.height - self._rows_next)
        return super().max_scroll_y

    def _centred_top(self, line: int) -> int:
        """The first line shown when ``line`` is centred (a third of the way down)."""
        height = self._rows_next or self.scrollable_content_region.height or self.size.height
        return centred_top(line, height)

    def show_message(self, text: str, *, title: object | None = None) -> None:
        """Show a message (missing file, binary file, error) instead of a file."""
        self._generation += 1
        self._doc = ("generation", self._generation)
        self.path = None
        self._lines = []
        self._display, self._cells = {}, {}
        self._message = text
        self.marks = SourceMarks()
        if title is not None:
            self.border_title = title  # type: ignore[assignment]
        set_virtual_size(self, Size(0, 0))
        self.moves += 1
        self._centred = None
        self.scroll_to(0, 0, animate=False, force=True)
        self.refresh()

    def set_marks(self, marks: SourceMarks) -> None:
        """Change the gutter marks without reloading the file."""
        self.marks = marks
        self.refresh()

    def go_to_line(self, line: int, *, center: bool = True) -> None:
        """Move the cursor to ``line`` (1-based) and scroll it into view."""
        if not self._lines:
            return
        line = min(max(1, line), len(self._lines))
        self.moves += 1
        self.cursor_line = line
        if center:
            self._centre(line)
        else:
            self._centred = None
            self._scroll_cursor_into_view()
        self.highlights.request()

    # --- actions -----------------------------------------------------------------------------

    def watch_cursor_line(self, line: int) -> None:
        self.refresh()
        self.post_message(self.CursorMoved(self, line))

    def on_click(self, event: events.Click) -> None:
        if self.bar.took_click():
            return
        if self._lines and event.y >= 0:
            self.moves += 1
            self.cursor_line = min(len(self._lines), int(self.scroll_y) + event.y + 1)

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self.highlights.request()

    def on_resize(self) -> None:
        # a view centred on a line stays centred (the line below it may have taken its height
        # after the file was shown, or before): the same view whichever came first
        if self._still_centred():
            self._centre(self.cursor_line)
        else:
            self._centred = None
            self._keep_in_view()
        self._height_seen = self.scrollable_content_region.height
        self.highlights.request()
        scrollbars_placed(self)

    def _keep_in_view(self) -> None:
        """After a resize: the matched passage (when the cursor is in it), else the cursor line,
        in view again, moved as little as needed."""
        height = self.scrollable_content_region.height
        if not self._lines or not height:
            return
        top = int(self.scroll_y)
        target = kept_in_view(self.marks.matched, self.cursor_line, top, height, self._height_seen)
        if target is not None:
            self.scroll_to(y=target, animate=False, force=True, immediate=True)

    def notify_style_update(self) -> None:
        # Textual restyles after setting `app.theme`: a line drawn between kept the old styles
        self._style_key = None
        super().notify_style_update()

    def _theme_changed(self) -> None:  # pragma: no cover - wired in on_mount
        self.highlights.clear()
        self.highlights.request()
        self.refresh()

    def on_mount(self) -> None:
        super().on_mount()  # type: ignore[no-untyped-call]
        # styled now, not when Textual would (the first focus, which then laid the screen out)
        self.horizontal_scrollbar.update_node_styles(animate=False)
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._theme_changed())

    # --- highlighting (screens/widgets/source_highlight.py) ----------------------------------

    @property
    def syntax_name(self) -> str:
        """The pygments style of the app's theme, looked up once per theme (asked per line)."""
        theme = self.app.theme
        if self._syntax[0] != theme:
            kind = "dark" if self.app.current_theme.dark else "light"
            self._syntax = (theme, SYNTAX_STYLES[kind])
        return self._syntax[1]

    @property
    def doc(self) -> object:
        """The cache key of the document shown (highlighting is kept per key)."""
        return self._doc

    @property
    def lines(self) -> list[str]:
        """The lines of the file shown (none for a message)."""
        return self._lines

    def display_text(self, index: int) -> str:
        """Line ``index`` (0-based) as drawn: tabs expanded, controls as symbols."""
        text = self._display.get(index)
        if text is None:
            text = self._display[index] = safe_line(self._lines[index])
        return text

    def on_highlighted(self, message: Highlighted) -> None:
        message.stop()
        self.highlights.arrived(message)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        self.highlights.worker_changed(event)  # a lexer failing on a file: said once, file plain

    @property
    def highlighting(self) -> bool:
        """True while lines or blocks on screen wait for their highlighting."""
        return self.highlights.busy

    def is_highlighted(self, line: int) -> bool:
        """True when ``line`` (1-based) has its syntax highlighting (for tests and benchmarks)."""
        return self.highlights.done(line)

    # --- rendering ---------------------------------------------------------------------------

    def render_lines(self, crop: Region) -> list[Strip]:
        # the widget's own style, looked up once per render rather than once per line (it walks
        # the ancestors' backgrounds)
        self._base_style = self.rich_style
        self.bar.start_pass()
        try:
            return super().render_lines(crop)
        finally:
            self._base_style = None

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self._base_style or self.rich_style
        if self._message is not None:
            style = self._style("source-view--message")
            return message_strip(self._message, y, width, base + style, base)
        if self._base_style is None:  # drawn alone, not in a render pass
            self.bar.start_pass()
        bar = self.bar.cells(y) if self.bar.drawn else []
        text_width = width - self.bar.width if bar else width
        index = int(self.scroll_y) + y
        if index >= len(self._lines):
            return Strip([Segment(" " * text_width, base), *bar], width)
        line = index + 1
        digits = self._gutter_width - 4
        gutter = gutter_segments(
            line, self.marks, line == self.cursor_line, digits, base, self._style
        )
        code_width = max(0, text_width - self._gutter_width)
        scroll_x = int(self.scroll_x)
        line_style = self._line_style(line, base)
        code, cells, at = self._code(index, line_style, scroll_x, code_width)
        code = windowed(code, cells, at, scroll_x, code_width, line_style)
        return Strip([*gutter, *code, *bar], width)

    def _style(self, name: str) -> Style:
        """A component style, cached per theme and focus (looking one up is slow)."""
        key = (self.app.theme, self.has_focus)
        if self._style_key != key:
            self._style_key = key
            self._styles = {}
            self._legible = {}
        style = self._styles.get(name)
        if style is None:
            style = self._styles[name] = self.get_component_rich_style(name)
        return style

    def _line_style(self, line: int, base: Style) -> Style:
        if line == self.cursor_line:
            return base + self._style("source-view--cursor")
        return base

    def _code(
        self, index: int, line_style: Style, start: int, width: int
    ) -> tuple[list[Segment], int, int | None]:
        """The segments of a line's code, highlighted when it is, its width in cells, and for a
        long line the cell its segments start at (only those of cells start..start+width)."""
        text = self.display_text(index)
        cells = self._cells.get(index)
        if cells is None:
            cells = self._cells[index] = cell_len(text)
        pieces: Pieces | None = self.highlights.pieces(index)
        if cells > LONG_LINE:
            cut, at = self._long.cut((self._doc, index), text, pieces, start, start + width)
            return code_segments(cut, line_style, self._legible), cells, at
        if pieces is None:
            return ([Segment(text, line_style)] if text else []), cells, None
        return code_segments(pieces, line_style, self._legible), cells, None
