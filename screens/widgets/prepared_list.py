"""A RowList that measures and draws the rows it shows next while the reviewer reads them.

The record pane prepares the record `n` or `p` leads to, after the frame of the one shown: the
press then finds its rows measured and its first screen drawn (a held key: the work moves from
its frame to the pause before it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from screens.widgets.lists import Row, RowList

if TYPE_CHECKING:
    from textual.style import Style


class PreparedList(RowList):
    """Rows drawn as their prompts (the default `draw_row` and `row_height`), prepared ahead."""

    def prepare(self, rows: list[Row], cursor: int | None = None) -> None:
        """Measure rows a later `set_rows` shows from the top, and draw those on its first
        screen (``cursor``: the row the cursor will be on), into the lines kept by text: showing
        them then neither measures nor draws them. Only for rows drawn as their prompt (the
        default `draw_row` and `row_height`), at the width `set_rows` would give them."""
        if not self._width or self.ONE_LINE_ROWS:
            return
        width, height = self._fitted_width(rows), self.scrollable_content_region.height
        styles: dict[str, Style] = {}
        lines = 0
        for index, row in enumerate(rows):
            if lines < height:  # on the first screen: drawn
                kind = "cursor" if index == cursor else "disabled" if row.disabled else ""
                if kind not in styles:
                    styles[kind] = self.row_style(kind)
                self._prompt_lines(row.prompt, width, styles[kind])
            lines += self._prompt_height(row.prompt, width)

    def _fitted_width(self, rows: list[Row]) -> int:
        """The width `_fit` would measure these rows at (the scrollbar's column taken when they
        overflow, unless the gutter keeps it either way)."""
        if self.styles.scrollbar_gutter == "stable":
            return self._width
        full = self._width + self._bar
        total = sum(self._prompt_height(row.prompt, full) for row in rows)
        return full - self.BAR if total > self.scrollable_content_region.height else full
