"""The records pane: every record grouped by report and section, with verdict badge and status.

Attributes down (`session`, then `fill(filter, record)`), messages up: `RecordHighlighted` when
the reviewer moves the cursor onto a record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on
from textual.content import Content
from textual.message import Message
from textual.visual import Visual
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from evidence.model import Kind
from tui.safe import visible
from tui.session import ReviewSession
from tui.widgets.badges import VERDICT_STYLES
from tui.widgets.lists import PaneList

if TYPE_CHECKING:
    from textual.css.styles import RulesMap
    from textual.strip import Strip
    from textual.style import Style
    from textual.visual import RenderOptions


class RecordRow(Visual):
    """One record's row: badge, name and quote status; the name is cut to the width rendered at.

    Cutting at render time (not when the rows are built) means the rows need no rebuilding when
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

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        return self.content(width).render_strips(width, height, style, options)

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return self.content(0).get_optimal_width(rules, container_width)

    def get_height(self, rules: RulesMap, width: int) -> int:
        return 1

    def __str__(self) -> str:
        return str(self.content(0))


class RecordsPane(PaneList):
    """The list of records passing a filter; names are cut to the pane's width."""

    class RecordHighlighted(Message):
        """The cursor moved onto a record (by key or mouse, not by `fill` or `show`)."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, session: ReviewSession, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self.session = session
        self.rows: list[int] = []  # option index -> record index (-1 for headers)
        self._syncing = False

    def prompt(self, index: int) -> RecordRow:
        """The row of one record: badge, id (label for narrative) and quote status."""
        record = self.session.records[index]
        name = visible(record.label if record.kind is Kind.NARRATIVE else record.id)
        return RecordRow(self.session.badge(record), name, self.session.quote_status(record))

    def fill(self, filter_name: str, record: int) -> None:
        """List the records passing a filter, the cursor on ``record`` when it is listed."""
        options: list[Option] = []
        self.rows = []
        for row in self.session.rows(filter_name):
            if row.kind == "report":
                options.append(Option(Content.styled(visible(row.text), "bold"), disabled=True))
            elif row.kind == "section":
                options.append(
                    Option(Content.styled(" " + visible(row.text), "$text-accent"), disabled=True)
                )
            else:
                options.append(Option(self.prompt(row.index), id=f"rec-{row.index}"))
            self.rows.append(row.index if row.kind == "record" else -1)
        self._syncing = True
        try:
            self.clear_options()
            self.add_options(options)
            self.show(record)
        finally:
            self._syncing = False
        self.border_title = "Records" if filter_name == "all" else f"Records (f: {filter_name})"
        shown = sum(1 for n in self.rows if n >= 0)
        self.border_subtitle = f"{shown}/{len(self.session.records)}"

    def show(self, record: int) -> None:
        """Put the cursor on a record, if it is listed."""
        if record in self.rows:
            option = self.rows.index(record)
            if self.highlighted != option:
                previous, self._syncing = self._syncing, True
                try:
                    self.highlighted = option
                finally:
                    self._syncing = previous

    def update_row(self, index: int) -> None:
        """Redraw one record's row (its verdict or status changed)."""
        if index in self.rows:
            self.replace_option_prompt_at_index(self.rows.index(index), self.prompt(index))

    @on(OptionList.OptionHighlighted)
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        # highlight messages arrive after the fact: act only on the one still highlighted
        stale = event.option_index != self.highlighted
        if self._syncing or stale or event.option_index >= len(self.rows):
            return
        index = self.rows[event.option_index]
        if index >= 0:
            self.post_message(self.RecordHighlighted(index))
