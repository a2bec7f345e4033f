"""The source view's moves by key: its cursor line (up, down, a page, the ends) and the code
sideways (half the width at a key, or to a column a quote or a grep hit starts at)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.cells import cell_len
from textual.reactive import reactive
from textual.scroll_view import ScrollView

from screens.safe import safe_line
from screens.widgets.source_layout import sideways

if TYPE_CHECKING:
    from screens.widgets.drawn_bar import DrawnBar


class SourceMoves(ScrollView):
    """What `SourceView` moves by key (the view sets the attributes declared here)."""

    cursor_line: reactive[int] = reactive(1, always_update=True, init=False)
    _lines: list[str]  # the file's lines
    _gutter_width: int  # the line numbers' columns
    bar: DrawnBar  # the vertical bar drawn in the view's lines
    moves: int  # what moved the view other than a resize, counted

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
        self.moves += 1
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

    def _code_width(self) -> int:
        """The columns the code has: the view's, less the line numbers and the bar."""
        bar = self.bar.width if self.bar.shown() else 0
        return self.scrollable_content_region.width - self._gutter_width - bar

    def action_scroll_code(self, step: int) -> None:
        """Scroll the code sideways by half its width (``step`` 1 or -1), or back to column 1
        (0); the line numbers and marks stay."""
        half = max(4, self._code_width() // 2)
        x = 0 if step == 0 else max(0, round(self.scroll_x) + step * half)
        self.moves += 1
        self.scroll_to(x=x, animate=False, force=True, immediate=True)

    def show_column(self, line: int, column: int) -> None:
        """Scroll the code sideways to ``column`` (0-based, of the file's text) of ``line``
        (1-based) when that is out of view: a quote or a grep hit far along a long line."""
        if not 1 <= line <= len(self._lines):
            return
        cell = cell_len(safe_line(self._lines[line - 1][:column]))  # as drawn: tabs, controls
        x = sideways(cell, round(self.scroll_x), self._code_width())
        if x is not None:
            self.scroll_to(x=x, animate=False, force=True, immediate=True)
