"""The records pane: every record grouped by report and section, with verdict badge and status.

Attributes down (`session`, then `fill(filter, record)`), messages up: `RecordHighlighted` when
the reviewer moves the cursor onto a record, `RecordSelected` when they choose it (enter, click).

A line-API view (one row per line, drawn only when on screen and kept until it changes), not an
OptionList: an OptionList measures and draws every option through Textual's visual pipeline and
learns its height only while drawing; this pane drew 36 rows in ~10 ms of the first frame, and
measured all of a long report's records before showing any.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, NamedTuple

from rich.segment import Segment
from textual import events
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from evidence.model import Kind
from tui.safe import visible
from tui.session import ReviewSession
from tui.widgets.badges import VERDICT_STYLES

if TYPE_CHECKING:
    from textual.style import Style


class RecordRow:
    """One record's row: badge, name and quote status; the name is cut to the width drawn at.

    Cutting at draw time (not when the rows are built) means the rows need no rebuilding when
    the pane is laid out or resized: the pane can be filled before its width is known.
    """

    def __init__(self, badge: str, name: str, status: str) -> None:
        self.badge, self.name, self.status = badge, name, status

    def content(self, width: int) -> Content:
        """The row as Content for a width (0: uncut)."""
        name, status = self.name, self.status
        room = width - 5 - (len(status) + 2 if status else 0)
        if width > 0 and len(name) > max(room, 8):
            name = name[: max(room, 8) - 1] + "…"
        return Content.assemble(
            ("  ", ""),
            (self.badge, VERDICT_STYLES[self.badge]),
            " ",
            name,
            ("  " + status if status else "", "$text-muted"),
        )

    def __str__(self) -> str:
        return str(self.content(0))


class Line(NamedTuple):
    """One line of the pane: a report's title, a section heading, or a record (its index)."""

    kind: str  # "report", "section" or "record"
    text: str
    record: int = -1


class RecordsPane(ScrollView, can_focus=True):
    """The list of records passing a filter; the cursor is on one record's line."""

    DEFAULT_CSS = """
    RecordsPane {
        background: $surface;
        color: $foreground;
        padding: 0 1;
        overflow-x: hidden;
        &:focus { background-tint: $foreground 5%; }
        & > .records-pane--heading { color: $text-disabled; }
        & > .records-pane--cursor {
            color: $foreground;
            background: $block-cursor-blurred-background;
        }
        &:focus > .records-pane--cursor {
            color: $block-cursor-foreground;
            background: $block-cursor-background;
            text-style: $block-cursor-text-style;
        }
    }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"records-pane--heading", "records-pane--cursor"}
    BINDINGS: ClassVar[list[BindingType]] = [  # as an OptionList's
        Binding("down", "cursor_down", "Down", show=False),
        Binding("up", "cursor_up", "Up", show=False),
        Binding("home", "first", "First", show=False),
        Binding("end", "last", "Last", show=False),
        Binding("pagedown", "page_down", "Page Down", show=False),
        Binding("pageup", "page_up", "Page Up", show=False),
        Binding("enter", "select", "Select", show=False),
    ]

    #: the line under the cursor (an index into `rows`), or None
    highlighted: reactive[int | None] = reactive(None, repaint=False)

    class RecordHighlighted(Message):
        """The cursor moved onto a record (by key or mouse, not by `fill` or `show`)."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    class RecordSelected(Message):
        """The reviewer chose the record under the cursor (enter, or a click on it)."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, session: ReviewSession, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self.session = session
        self.rows: list[int] = []  # line -> record index (-1 for a report or section line)
        self._lines: list[Line] = []
        self._strips: dict[tuple[int, bool], Strip] = {}  # (line, under the cursor) -> drawn
        self._strips_width = 0  # the content width the strips were drawn at

    # --- filling ---------------------------------------------------------------------------------

    def fill(self, filter_name: str, record: int) -> None:
        """List the records passing a filter, the cursor on ``record`` when it is listed."""
        self._lines = []
        for row in self.session.rows(filter_name):
            if row.kind == "record":
                self._lines.append(Line("record", "", row.index))
            else:
                self._lines.append(Line(row.kind, row.text))
        self.rows = [line.record for line in self._lines]
        self._strips.clear()
        self.set_reactive(RecordsPane.highlighted, None)
        # one line per row: the height is known before the pane is laid out or drawn
        self.virtual_size = Size(0, len(self._lines))
        self.show(record)
        self.refresh()
        self.border_title = "Records" if filter_name == "all" else f"Records (f: {filter_name})"
        shown = sum(1 for n in self.rows if n >= 0)
        self.border_subtitle = f"{shown}/{len(self.session.records)}"

    def show(self, record: int) -> None:
        """Put the cursor on a record, if it is listed (no message: the caller knows)."""
        if record in self.rows:
            self._move(self.rows.index(record), tell=False)

    def update_row(self, index: int) -> None:
        """Draw one record's line again (its verdict or quote status changed)."""
        if index in self.rows:
            line = self.rows.index(index)
            self._strips.pop((line, False), None)
            self._strips.pop((line, True), None)
            self.refresh_line(line)

    def prompt(self, index: int) -> RecordRow:
        """The row of one record: badge, id (label for narrative) and quote status."""
        record = self.session.records[index]
        name = visible(record.label if record.kind is Kind.NARRATIVE else record.id)
        return RecordRow(self.session.badge(record), name, self.session.quote_status(record))

    # --- drawing ---------------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        if width != self._strips_width:
            self._strips.clear()
            self._strips_width = width
        line = int(self.scroll_y) + y
        if line >= len(self._lines):
            return Strip.blank(width, self.rich_style)
        key = (line, line == self.highlighted)
        strip = self._strips.get(key)
        if strip is None:
            strip = self._strips[key] = self._draw(line, key[1], width)
        return strip

    def _draw(self, line: int, cursor: bool, width: int) -> Strip:
        entry = self._lines[line]
        if entry.kind == "record":
            content = self.prompt(entry.record).content(width)
        elif entry.kind == "report":
            content = Content.styled(visible(entry.text), "bold")
        else:
            content = Content.styled(" " + visible(entry.text), "$text-accent")
        if content.cell_length > width:
            content = content.truncate(width, ellipsis=True)
        base = self._base_style(entry.kind, cursor)
        segments = [
            Segment(text, style.rich_style if style else None)
            for text, style in content.render(base, end="")
        ]
        return Strip(segments).extend_cell_length(width, base.rich_style).crop(0, width)

    def _base_style(self, kind: str, cursor: bool) -> Style:
        if cursor:
            return self.get_visual_style("records-pane--cursor")
        if kind != "record":
            return self.get_visual_style("records-pane--heading")
        return self.get_visual_style()

    def notify_style_update(self) -> None:
        self._strips.clear()  # the theme, or the focus (the cursor's colours), changed
        super().notify_style_update()

    def _on_focus(self, event: events.Focus) -> None:
        self._strips.clear()
        self.refresh()

    def _on_blur(self, event: events.Blur) -> None:
        self._strips.clear()
        self.refresh()

    def _watch_highlighted(self, old: int | None, new: int | None) -> None:
        for line in (old, new):
            if line is not None:
                self.refresh_line(line)

    # --- moving ----------------------------------------------------------------------------------

    def _move(self, line: int, *, tell: bool) -> None:
        """Put the cursor on a record's line; ``tell``: post `RecordHighlighted`."""
        if not 0 <= line < len(self.rows) or self.rows[line] < 0:
            return
        changed = line != self.highlighted
        self.highlighted = line
        self._scroll_to_cursor()
        if tell and changed:
            self.post_message(self.RecordHighlighted(self.rows[line]))

    def _scroll_to_cursor(self) -> None:
        """Scroll as little as shows the cursor's line (once laid out: `_on_resize` calls again)."""
        region = self.scrollable_content_region
        if self.highlighted is None or not region.height:
            return
        cursor = Region(0, self.highlighted, max(1, region.width), 1)
        self.scroll_to_region(cursor, animate=False, force=True)

    def _on_resize(self, event: events.Resize) -> None:
        self._scroll_to_cursor()  # the cursor stays in view when the pane is laid out anew

    def _step(self, start: int, step: int) -> int | None:
        """The first record line from ``start`` on, going by ``step`` (+1 or -1)."""
        line = start
        while 0 <= line < len(self.rows):
            if self.rows[line] >= 0:
                return line
            line += step
        return None

    def _go(self, start: int, step: int) -> None:
        line = self._step(start, step)
        if line is None:  # nothing that way: the nearest record the other way
            line = self._step(start, -step)
        if line is not None:
            self._move(line, tell=True)

    def action_cursor_down(self) -> None:
        if self.highlighted is None:
            self._go(0, 1)
        elif (line := self._step(self.highlighted + 1, 1)) is not None:
            self._move(line, tell=True)

    def action_cursor_up(self) -> None:
        if self.highlighted is None:
            self._go(len(self.rows) - 1, -1)
        elif (line := self._step(self.highlighted - 1, -1)) is not None:
            self._move(line, tell=True)

    def action_first(self) -> None:
        self._go(0, 1)

    def action_last(self) -> None:
        self._go(len(self.rows) - 1, -1)

    def action_page_down(self) -> None:
        page = max(1, self.scrollable_content_region.height - 1)
        self._go(min(len(self.rows) - 1, (self.highlighted or 0) + page), 1)

    def action_page_up(self) -> None:
        page = max(1, self.scrollable_content_region.height - 1)
        self._go(max(0, (self.highlighted or 0) - page), -1)

    def action_select(self) -> None:
        if self.highlighted is not None and self.rows[self.highlighted] >= 0:
            self.post_message(self.RecordSelected(self.rows[self.highlighted]))

    def _on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        line = int(self.scroll_y) + offset.y
        if 0 <= line < len(self.rows) and self.rows[line] >= 0:
            self._move(line, tell=True)
            self.action_select()
