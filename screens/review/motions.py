"""Moves within the focused pane that the vim preset names: top (`gg`), bottom (`G`) and half a
page (`ctrl+d`/`ctrl+u`); the default preset binds them to home, end, ctrl+d and ctrl+u."""

from __future__ import annotations

import time

from textual.widget import Widget

from screens.widgets.lists import RowList
from screens.widgets.record_pane import RecordPane
from screens.widgets.source_view import SourceView

#: the second press of a key bound "pressed twice" must come within this many seconds
TWICE_WITHIN = 0.8


class Motions:
    """Top, bottom and half-page moves of whichever pane has focus."""

    def __init__(self) -> None:
        self._armed = 0.0  # when a "press twice" key was pressed once

    def act(self, focused: Widget | None, what: str, step: int = 1) -> None:
        """A move of the focused pane: a ``line`` down (``step`` 1) or up (-1), to the ``top``
        (``step`` 2: on the second press), to the ``bottom``, or a ``half_page`` down or up."""
        if what == "line":
            self.move(focused, step)
        elif what == "top":
            self.to_top(focused, step)
        elif what == "bottom":
            self.to_end(focused, last=True)
        else:
            self.half_page(focused, step)

    def move(self, focused: Widget | None, step: int) -> None:
        """A row or line down (``step`` 1) or up (-1) in the focused pane."""
        if isinstance(focused, (RowList, SourceView)):
            focused.action_cursor_down() if step > 0 else focused.action_cursor_up()
        elif isinstance(focused, Widget):
            focused.scroll_relative(y=step, animate=False)

    def to_top(self, focused: Widget | None, presses: int = 1) -> None:
        """The first row or line of the focused pane (``presses`` 2: only on the second press)."""
        if presses > 1:
            now = time.monotonic()
            if now - self._armed > TWICE_WITHIN:
                self._armed = now
                return
            self._armed = 0.0
        self.to_end(focused, last=False)

    def to_end(self, focused: Widget | None, *, last: bool) -> None:
        """The last (or first) row or line of the focused pane."""
        if isinstance(focused, RowList):
            focused.action_last() if last else focused.action_first()
        elif isinstance(focused, SourceView):
            focused.action_last_line() if last else focused.action_first_line()
        elif focused is not None:
            focused.scroll_end(animate=False) if last else focused.scroll_home(animate=False)

    def half_page(self, focused: Widget | None, step: int) -> None:
        """Half the pane's height down (``step`` 1) or up (-1), the cursor moving with it."""
        if focused is None:
            return
        half = max(1, focused.scrollable_content_region.height // 2)
        if isinstance(focused, RecordPane):  # rows of many lines: its lines scroll, as pages do
            focused.half_page(step)
        elif isinstance(focused, SourceView):
            for _ in range(half):
                focused.action_cursor_down() if step > 0 else focused.action_cursor_up()
        elif isinstance(focused, RowList) and focused.row_count:
            # rows may span several lines: step over as many rows as make half a page on average
            per_row = max(1.0, focused.virtual_size.height / focused.row_count)
            for _ in range(max(1, round(half / per_row))):
                focused.action_cursor_down() if step > 0 else focused.action_cursor_up()
        else:
            focused.scroll_relative(y=step * half, animate=False)
