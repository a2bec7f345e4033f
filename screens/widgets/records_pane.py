"""The records pane: every record grouped by report and section, with verdict badge and status.

Attributes down (`session`, then `fill(filter, record)`), messages up: `RecordHighlighted` when
the reviewer moves the cursor onto a record, `RecordSelected` when they choose it (enter, click).

A `RowList` of one line per row: its height is known before it is laid out, and only the lines
on screen are drawn (an OptionList measured every one of a long report's records first).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.segment import Segment
from textual import on
from textual.content import Content
from textual.message import Message
from textual.strip import Strip

from evidence.model import Kind
from screens.safe import visible
from screens.session import ReviewSession, Row
from screens.widgets.badges import VERDICT_STYLES
from screens.widgets.lists import RowList

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


class RecordsPane(RowList):
    """The list of records passing a filter; the cursor is on one record's line."""

    ONE_LINE_ROWS: ClassVar[bool] = True

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
        self._lines: list[Row] = []  # the session's rows: one line each

    def fill(self, filter_name: str, record: int) -> None:
        """List the records passing a filter, the cursor on ``record`` when it is listed."""
        self._lines = self.session.rows(filter_name)
        self.rows = [row.position if row.kind == "record" else -1 for row in self._lines]
        self._rows_changed(self.rows.index(record) if record in self.rows else None)
        self.border_title = "Records" if filter_name == "all" else f"Records (f: {filter_name})"
        shown = sum(1 for n in self.rows if n >= 0)
        self.border_subtitle = f"{shown}/{len(self.session.records)}"

    def show(self, record: int) -> None:
        """Put the cursor on a record, if it is listed (no message: the caller knows)."""
        if record in self.rows:
            self.move_to(self.rows.index(record))

    def update_row(self, index: int) -> None:
        """Draw one record's line again (its verdict or quote status changed)."""
        if index in self.rows:
            self.redraw_row(self.rows.index(index))

    def prompt(self, index: int) -> RecordRow:
        """The row of one record: badge, id (label for narrative) and quote status."""
        record = self.session.records[index]
        name = visible(record.label if record.kind is Kind.NARRATIVE else record.id)
        return RecordRow(self.session.badge(record), name, self.session.quote_status(record))

    def _row_total(self) -> int:
        return len(self._lines)

    def _row_disabled(self, index: int) -> bool:
        return self.rows[index] < 0

    def draw_row(self, index: int, width: int, style: Style) -> list[Strip]:
        entry = self._lines[index]
        if entry.kind == "record":
            content = self.prompt(entry.position).content(width)
        elif entry.kind == "report":
            content = Content.styled(visible(entry.text), "bold")
        else:
            content = Content.styled(" " + visible(entry.text), "$text-accent")
        if content.cell_length > width:
            content = content.truncate(width, ellipsis=True)
        segments = [
            Segment(text, part.rich_style if part else None)
            for text, part in content.render(style, end="")
        ]
        return [Strip(segments)]

    @on(RowList.Moved)
    def _moved(self, event: RowList.Moved) -> None:
        event.stop()
        self.post_message(self.RecordHighlighted(self.rows[event.index]))

    @on(RowList.Chosen)
    def _chosen(self, event: RowList.Chosen) -> None:
        event.stop()
        self.post_message(self.RecordSelected(self.rows[event.index]))
