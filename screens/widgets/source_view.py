"""SourceView: a lazy, line-API view of one source file with line numbers and gutter marks.

Only the lines on screen are rendered, and only the 200-line blocks on screen (plus a margin) are
highlighted, in a worker thread, cached per block: a file of any length opens at any line at once,
in plain text, and the highlighting follows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cachetools import LRUCache
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.timer import Timer
from textual.worker import get_current_worker

from screens.safe import safe_line
from screens.widgets.source_lines import (
    SYNTAX_STYLES,
    LineRange,
    Piece,
    SourceMarks,
    highlight_block,
)

BLOCK = 200  # lines highlighted together
MARGIN = 30  # lines above and below the screen highlighted ahead of scrolling
BLOCK_DELAY = 0.25  # seconds the view rests before whole blocks are highlighted
CACHE_BLOCKS = 64


class SourceView(ScrollView, can_focus=True):
    """One file at a revision, rendered lazily, with a cursor line and gutter marks.

    Public API (also used by the lookup screens):
      - ``show(path, lines, *, marks=None, line=None, title=None)``: display a file, centred on
        ``line`` (1-based) when given;
      - ``show_message(text)``: replace the file by a message (missing file, binary, error);
      - ``set_marks(marks)``, ``go_to_line(line)``, ``cursor_line`` (1-based, reactive),
        ``path``, ``line_count``, ``selection`` (the matched range, else the cursor line);
      - posts ``SourceView.CursorMoved`` and ``SourceView.Highlighted`` messages.
    """

    COMPONENT_CLASSES = {
        "source-view--gutter",
        "source-view--cursor",
        "source-view--matched",
        "source-view--claimed",
        "source-view--other",
        "source-view--backlink",
        "source-view--message",
    }
    DEFAULT_CSS = """
    SourceView { background: $surface; }
    SourceView > .source-view--gutter { color: $text-muted; }
    SourceView > .source-view--cursor { background: $boost; }
    SourceView:focus > .source-view--cursor { background: $primary 25%; }
    SourceView > .source-view--matched { color: $success; background: $success 12%; }
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
    ]

    cursor_line: reactive[int] = reactive(1, always_update=True, init=False)

    class CursorMoved(Message):
        """The cursor line changed."""

        def __init__(self, view: SourceView, line: int) -> None:
            super().__init__()
            self.view = view
            self.line = line

    class Highlighted(Message):
        """Highlighted blocks arrived from the worker (posted from its thread)."""

        def __init__(
            self,
            generation: object,
            theme: str,
            blocks: dict[int, list[list[Piece]]],
            requested: tuple[int, ...] = (),
            lines: dict[int, list[Piece]] | None = None,
        ) -> None:
            super().__init__()
            self.requested = requested
            self.lines = lines or {}  # single lines (0-based) highlighted ahead of their block
            self.generation = generation
            self.theme = theme
            self.blocks = blocks

    def __init__(
        self, *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.path: str | None = None
        self._lines: list[str] = []
        self._display: dict[int, str] = {}  # safe display text per 0-based line, filled lazily
        self._width = 0  # display width of the widest line
        self._message: str | None = None
        self.marks = SourceMarks()
        self._generation = 0
        self._doc: object = 0  # cache key of the document shown (a blob id when given)
        self._blocks: LRUCache[tuple[object, str, int], list[list[Piece]]] = LRUCache(CACHE_BLOCKS)
        self._pending: set[int] = set()
        self._gutter_width = 6
        self._style_key: tuple[str, bool] | None = None
        self._base_style: Style | None = None  # set while render_lines runs
        self._highlight_asked = False  # a window highlight waits for the next frame
        self._partial: dict[int, list[Piece]] = {}
        self._window_asked: tuple[object, str, int, int] | None = None
        self._block_timer: Timer | None = None
        self._partial_key: tuple[object, str] | None = None
        self._styles: dict[str, Style] = {}

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
        """The lines a permalink should cite: the matched range, else the cursor line."""
        if not self._lines:
            return None
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
    ) -> None:
        """Display ``lines`` of ``path``; centre on ``line`` (1-based) when given.

        ``key`` (e.g. the blob id) identifies the text: highlighting is kept per key, so showing
        the same file again is highlighted at once.
        """
        doc = (path, key) if key is not None else None
        if doc is None or doc != self._doc or self._message is not None:
            self._generation += 1
            self._doc = doc if doc is not None else ("generation", self._generation)
            self._lines = list(lines)
            self._display = {}
            self._pending = set()
            # as wide as the widest line is drawn: tabs expand and controls become symbols
            self._width = max(
                (len(t) if t.isprintable() else len(safe_line(t)) for t in self._lines),
                default=0,
            )
        self.path = path
        self._message = None
        self.marks = marks or SourceMarks()
        if title is not None:
            self.border_title = title  # type: ignore[assignment]
        self._gutter_width = len(str(max(1, len(self._lines)))) + 4
        self.virtual_size = Size(self._width + self._gutter_width + 1, len(self._lines))
        self.go_to_line(line or 1, center=line is not None)
        if line is not None:
            # once laid out with the new size, a horizontal scrollbar may have taken the last
            # row: scroll again, or the end of a passage at the end of the file stays hidden
            self.call_after_refresh(self._recenter, self._generation, line)
        self.refresh()

    def _recenter(self, generation: int, line: int) -> None:
        if generation == self._generation and self.cursor_line == line:
            target = self._centred_top(line)
            if round(self.scroll_y) != min(target, self.max_scroll_y):
                self.scroll_to(y=target, animate=False, force=True)

    def _centred_top(self, line: int) -> int:
        """The first line shown when ``line`` is centred (a third of the way down)."""
        height = max(1, self.scrollable_content_region.height or self.size.height or 1)
        return max(0, line - 1 - height // 3)

    def show_message(self, text: str, *, title: object | None = None) -> None:
        """Show a message (missing file, binary file, error) instead of a file."""
        self._generation += 1
        self._doc = ("generation", self._generation)
        self.path = None
        self._lines = []
        self._display = {}
        self._message = text
        self.marks = SourceMarks()
        if title is not None:
            self.border_title = title  # type: ignore[assignment]
        self.virtual_size = Size(0, 0)
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
        self.cursor_line = line
        if center:
            self.scroll_to(y=self._centred_top(line), animate=False, force=True)
        else:
            self._scroll_cursor_into_view()
        self._request_highlight()

    # --- actions -----------------------------------------------------------------------------

    def action_cursor_down(self) -> None:
        self._move_cursor(1)

    def action_cursor_up(self) -> None:
        self._move_cursor(-1)

    def action_page_down(self) -> None:
        self._move_cursor(max(1, self.scrollable_content_region.height - 1))

    def action_page_up(self) -> None:
        self._move_cursor(-max(1, self.scrollable_content_region.height - 1))

    def action_first_line(self) -> None:
        self._move_cursor(-len(self._lines))

    def action_last_line(self) -> None:
        self._move_cursor(len(self._lines))

    def _move_cursor(self, delta: int) -> None:
        if not self._lines:
            return
        self.cursor_line = min(max(1, self.cursor_line + delta), len(self._lines))
        self._scroll_cursor_into_view()

    def _scroll_cursor_into_view(self) -> None:
        height = max(1, self.scrollable_content_region.height)
        top = int(self.scroll_y)
        index = self.cursor_line - 1
        if index < top:
            self.scroll_to(y=index, animate=False, force=True)
        elif index >= top + height:
            self.scroll_to(y=index - height + 1, animate=False, force=True)

    def watch_cursor_line(self, line: int) -> None:
        self.refresh()
        self.post_message(self.CursorMoved(self, line))

    def on_click(self, event: events.Click) -> None:
        if self._lines and event.y >= 0:
            self.cursor_line = min(len(self._lines), int(self.scroll_y) + event.y + 1)

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self._request_highlight()

    def on_resize(self) -> None:
        self._request_highlight()

    def _theme_changed(self) -> None:  # pragma: no cover - wired in on_mount
        self._blocks.clear()
        self._pending = set()
        self._request_highlight()
        self.refresh()

    def on_mount(self) -> None:
        super().on_mount()  # type: ignore[no-untyped-call]
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._theme_changed())

    # --- highlighting ------------------------------------------------------------------------

    @property
    def _syntax_name(self) -> str:
        return SYNTAX_STYLES["dark" if self.app.current_theme.dark else "light"]

    def _needed_blocks(self) -> list[int]:
        if not self._lines:
            return []
        top = int(self.scroll_y)
        height = max(self.size.height, 1)
        first = max(0, top - MARGIN) // BLOCK
        last = min(len(self._lines) - 1, top + height + MARGIN) // BLOCK
        theme = self._syntax_name
        return [
            block
            for block in range(first, last + 1)
            if (self._doc, theme, block) not in self._blocks and block not in self._pending
        ]

    def _request_highlight(self) -> None:
        """Highlight the lines on screen now, and their 200-line blocks once the view rests.

        Lexing a whole block runs in a thread that shares the GIL with the UI: the visible lines
        are lexed first, once the frame showing them plain is painted, and the blocks (correct
        across multi-line strings, cached) follow when the view rests.
        """
        if not self._highlight_asked:
            self._highlight_asked = True
            self.call_after_refresh(self._highlight_window)

    def _highlight_window(self) -> None:
        self._highlight_asked = False
        if not self.is_mounted or self.path is None or not self._lines:
            return
        top = int(self.scroll_y)
        height = max(self.size.height, 1)
        last = min(len(self._lines), top + height)
        missing = [index for index in range(top, last) if not self.is_highlighted(index + 1)]
        asked = (self._doc, self._syntax_name, top, last)
        if missing and asked != self._window_asked:
            self._window_asked = asked
            doc, path, theme = self._doc, self.path, self._syntax_name
            window = [self._display_text(index) for index in range(top, last)]

            def highlight_window() -> None:
                pieces = highlight_block(path, window, theme)
                lines = {top + n: line for n, line in enumerate(pieces)}
                self.post_message(self.Highlighted(doc, theme, {}, (), lines))

            self.run_worker(
                highlight_window,
                thread=True,
                group=f"highlight-window-{id(self)}",
                exit_on_error=False,
                description=f"highlight {path} {top + 1}-{last}",
            )
        if self._block_timer is not None:
            self._block_timer.stop()
        self._block_timer = self.set_timer(BLOCK_DELAY, self._request_blocks)

    def _request_blocks(self) -> None:
        self._block_timer = None
        if not self.is_mounted or self.path is None:
            return
        needed = self._needed_blocks()
        if not needed:
            return
        self._pending.update(needed)
        doc, path, theme = self._doc, self.path, self._syntax_name
        centre = (int(self.scroll_y) + max(self.size.height, 1) // 2) // BLOCK
        needed.sort(key=lambda block: abs(block - centre))
        inputs = {block: self._block_display(block) for block in needed}

        def highlight_blocks() -> None:
            worker = get_current_worker()
            for block, lines in inputs.items():
                if worker.is_cancelled:
                    break
                done = {block: highlight_block(path, lines, theme)}
                self.post_message(self.Highlighted(doc, theme, done, (block,)))
            self.post_message(self.Highlighted(doc, theme, {}, tuple(inputs)))

        self.run_worker(
            highlight_blocks,
            thread=True,
            group=f"highlight-{id(self)}",
            exit_on_error=False,
            description=f"highlight {path}",
        )

    def on_source_view_highlighted(self, message: SourceView.Highlighted) -> None:
        message.stop()
        if message.generation != self._doc:
            return
        if message.lines:
            if self._partial_key != (message.generation, message.theme):
                self._partial_key = (message.generation, message.theme)
                self._partial = {}
            self._partial.update(message.lines)
        self._pending.difference_update(message.requested)
        for block, pieces in message.blocks.items():
            self._blocks[(message.generation, message.theme, block)] = pieces
        self.refresh()
        if message.requested:
            self._request_blocks()

    def _block_display(self, block: int) -> list[str]:
        start = block * BLOCK
        end = min(start + BLOCK, len(self._lines))
        return [self._display_text(index) for index in range(start, end)]

    def _display_text(self, index: int) -> str:
        text = self._display.get(index)
        if text is None:
            text = self._display[index] = safe_line(self._lines[index])
        return text

    @property
    def highlighting(self) -> bool:
        """True while lines or blocks on screen wait for their highlighting."""
        return bool(self._pending) or bool(self._needed_blocks())

    def is_highlighted(self, line: int) -> bool:
        """True when ``line`` (1-based) has its syntax highlighting (for tests and benchmarks)."""
        block = (line - 1) // BLOCK
        if (self._doc, self._syntax_name, block) in self._blocks:
            return True
        return self._partial_key == (self._doc, self._syntax_name) and line - 1 in self._partial

    # --- rendering ---------------------------------------------------------------------------

    def render_lines(self, crop: Region) -> list[Strip]:
        # the widget's own style, looked up once per render rather than once per line (it walks
        # the ancestors' backgrounds)
        self._base_style = self.rich_style
        try:
            return super().render_lines(crop)
        finally:
            self._base_style = None

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self._base_style or self.rich_style
        if self._message is not None:
            if y == 0:
                style = self._style("source-view--message")
                return Strip([Segment(" " + self._message, base + style)]).crop_extend(
                    0, width, base
                )
            return Strip.blank(width, base)
        index = int(self.scroll_y) + y
        if index >= len(self._lines):
            return Strip.blank(width, base)
        gutter = self._gutter(index + 1, base)
        code = self._code(index, base)
        code_width = max(0, width - self._gutter_width)
        scroll_x = int(self.scroll_x)
        code = code.crop_extend(scroll_x, scroll_x + code_width, self._line_style(index + 1, base))
        return Strip([*gutter, *code], width)

    def _style(self, name: str) -> Style:
        """A component style, cached per theme and focus (looking one up is slow)."""
        key = (self.app.theme, self.has_focus)
        if self._style_key != key:
            self._style_key = key
            self._styles = {}
        style = self._styles.get(name)
        if style is None:
            style = self._styles[name] = self.get_component_rich_style(name)
        return style

    def _line_style(self, line: int, base: Style) -> Style:
        if line == self.cursor_line:
            return base + self._style("source-view--cursor")
        return base

    def _gutter(self, line: int, base: Style) -> Iterable[Segment]:
        kind = self.marks.mark(line)
        number_style = base + self._style("source-view--gutter")
        if line == self.cursor_line:
            number_style += self._style("source-view--cursor")
        backlink = "•" if line in self.marks.backlinks else " "
        backlink_style = base + self._style("source-view--backlink")
        mark, mark_style = " ", base
        if kind == "matched":
            mark, mark_style = "▐", base + self._style("source-view--matched")
        elif kind == "claimed":
            mark, mark_style = "▐", base + self._style("source-view--claimed")
        elif kind == "other":
            mark, mark_style = "┆", base + self._style("source-view--other")
        digits = self._gutter_width - 4
        return (
            Segment(backlink, backlink_style),
            Segment(f"{line:>{digits}} ", number_style),
            Segment(mark, mark_style),
            Segment(" ", base),
        )

    def _code(self, index: int, base: Style) -> Strip:
        line_style = self._line_style(index + 1, base)
        block = self._blocks.get((self._doc, self._syntax_name, index // BLOCK))
        if block is not None:
            pieces = block[index % BLOCK]
        elif self._partial_key == (self._doc, self._syntax_name) and index in self._partial:
            pieces = self._partial[index]
        else:
            return Strip([Segment(self._display_text(index), line_style)])
        return Strip([Segment(part, line_style + style) for part, style in pieces])
