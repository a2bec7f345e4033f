"""The review screen's panes as laid out: three side by side when they fit, else two, and the
records list shown or hidden by a key.

A part the review screen owns. From `NARROW_WIDTH` columns the records, the record and the
source sit side by side; below it the records list keeps the left column and the record sits
above the source on the right (screen.tcss, class ``-narrow``), so the code keeps most of the
width. The widths follow the terminal's (`pane_widths`): the records list is as wide as whole
record ids need, within its share; the record and the source share the rest. The records list
can be hidden at any width (class ``-no-records``) to give the others its columns, each pane
keeping what it shows at its top. The panes keep their place on a resize: the records list its
cursor, the source its quote (RecordsPane and SourceView do it on their own Resize).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from textual.screen import Screen
    from textual.widget import Widget

    from screens.widgets.record_pane import RecordPane
    from screens.widgets.records_pane import RecordsPane
    from screens.widgets.source_view import SourceView

#: from this width the three panes sit side by side; below it the record goes above the source
NARROW_WIDTH = 120
#: the records list's share of the width at most and its least width, side by side and narrow
LIST_SHARE, LIST_MIN = 0.2, 30
NARROW_LIST_SHARE, NARROW_LIST_MIN = 0.3, 28
#: the record's share of what the list leaves, side by side (the source takes the rest)
RECORD_SHARE = 0.43


def pane_widths(width: int, wanted: int, *, records_shown: bool) -> tuple[int, int | None]:
    """The records list's and the record's widths at a terminal width (None: the record goes
    above the source and takes the width the list leaves). The list shows whole record ids
    (``wanted`` columns) when its share of the width allows; the record and the source share
    the rest."""
    if width < NARROW_WIDTH:
        listed = min(wanted, max(NARROW_LIST_MIN, int(width * NARROW_LIST_SHARE)))
        return min(listed, width // 2), None
    listed = min(wanted, max(LIST_MIN, int(width * LIST_SHARE)))
    rest = width - (listed if records_shown else 0)
    return listed, round(rest * RECORD_SHARE)


class Views(NamedTuple):
    """Where the record's view starts (its top row, and lines of it above the view) and the
    source's (column and line)."""

    record: tuple[int, int]
    x: int
    y: int
    source_moves: int  # `SourceView.moves`: the reviewer's own moves of the source


class Panes:
    """Which panes the review screen shows and how (``-narrow``, ``-no-records``)."""

    def __init__(
        self, screen: Screen[None], panes: tuple[RecordsPane, RecordPane, SourceView]
    ) -> None:
        self.screen = screen  # its classes lay the panes out; its focus moves between them
        self.records_pane, self.record_pane, self.source_view = panes
        # the views before the list was hidden and right after: `l` again restores the first
        self._hidden_at: tuple[Views, Views] | None = None
        #: the diff over the source (all of its height) or below it; None: over it when narrow
        self.diff_over: bool | None = None

    @property
    def records_shown(self) -> bool:
        return not self.screen.has_class("-no-records")

    def resized(self, width: int | None = None) -> None:
        """Two panes below NARROW_WIDTH, three from it; the widths follow the terminal's
        (``width``: the screen's, before it is laid out)."""
        screen = self.screen
        width = screen.size.width if width is None else width
        narrow = width < NARROW_WIDTH
        if narrow != screen.has_class("-narrow"):
            screen.set_class(narrow, "-narrow")
        records = self.records_pane
        listed, record = pane_widths(
            width, records.width_wanted(), records_shown=self.records_shown
        )
        records.styles.width = listed
        # side by side the record has its width; above the source the stylesheet's (all of it)
        self.record_pane.styles.width = record
        shown = listed if self.records_shown else 0
        self.record_pane.expect_width(record if record is not None else width - shown)
        self.place_diff()

    def toggle_diff(self) -> None:
        """Show the quote/source diff (`d`), or hide it."""
        screen = self.screen
        shown = not screen.has_class("-diff")
        screen.set_class(shown, "-diff", update=False)
        self.place_diff(restyle=True)
        if not shown and screen.focused is screen.query_one("#diff"):
            screen.set_focus(self.source_view)

    def toggle_diff_over(self) -> bool:
        """Put the diff over the source or below it (`D`); True when the diff is to be shown."""
        screen = self.screen
        self.diff_over = not screen.has_class("-diff-over")
        if not screen.has_class("-diff"):
            return True
        self.place_diff()
        return False

    def place_diff(self, *, restyle: bool = False) -> None:
        """The diff over the source (a short pane leaves a third of its height to the diff:
        the quote alone) or below it (``restyle``: the source pane's styles are out of date)."""
        screen = self.screen
        over = self.diff_over if self.diff_over is not None else screen.has_class("-narrow")
        over = over and screen.has_class("-diff")
        moved = over != screen.has_class("-diff-over")
        if moved:
            screen.set_class(over, "-diff-over", update=False)
        if restyle or moved:
            # the -diff classes style the diff, and -diff-over the source too (screen.tcss):
            # restyling those, not every widget of the screen or of the source pane
            screen.query_one("#diff").update_node_styles()
        if moved:
            self.source_view.update_node_styles()
        if over and screen.focused is self.source_view:
            screen.set_focus(screen.query_one("#diff"))

    def toggle_records(self) -> None:
        """Hide the records list (its columns go to the record and the source), or show it;
        every pane keeps what it shows at its top (`l` `l` puts each back where it was)."""
        screen = self.screen
        wanted = at_toggle = self._views()
        shown = not self.records_shown
        screen.set_class(not shown, "-no-records")
        self.resized()
        if not shown and screen.focused is self.records_pane:
            screen.set_focus(self.record_pane)
        elif shown and self._hidden_at is not None:
            views, after = self._hidden_at
            # nothing scrolled while the list was hidden: back to where the reading was
            wanted = views if after == at_toggle else at_toggle
        screen.call_after_refresh(self._keep_views, wanted, at_toggle, shown)

    def _views(self) -> Views:
        view = self.source_view
        return Views(
            self.record_pane.top_line(), round(view.scroll_x), round(view.scroll_y), view.moves
        )

    def _keep_views(self, wanted: Views, at_toggle: Views, shown: bool) -> None:
        """Once laid out, each pane back at ``wanted`` where the new size moved it (a pane the
        reviewer moved in the meantime, by a key typed right after, stays where they put it)."""
        record, view = self.record_pane, self.source_view
        now = self._views()
        if now.record == at_toggle.record or record.scroll_y >= record.max_scroll_y:
            record.show_from(wanted.record)
        if view.moves == at_toggle.source_moves:
            view.scroll_to(x=wanted.x, y=wanted.y, animate=False, force=True, immediate=True)
        if shown:
            self.records_pane.scroll_to_cursor()  # the record chosen while it was hidden
        # what the panes show once the list is hidden, to tell whether the reviewer scrolled
        self._hidden_at = None if shown else (wanted, self._views())

    def next_pane(self, focused: Widget | None, step: int) -> Widget:
        """The pane ``step`` (1 or -1) from the focused one, in the order tab cycles through."""
        panes = self.focusable()
        index = panes.index(focused) if focused in panes else -1
        return panes[(index + step) % len(panes)]

    def focusable(self) -> list[Widget]:
        """The panes tab cycles through, in order."""
        screen = self.screen
        panes: list[Widget] = [self.records_pane] if self.records_shown else []
        panes.append(self.record_pane)
        if not screen.has_class("-diff-over"):
            panes.append(self.source_view)
        if screen.has_class("-diff"):
            panes.append(screen.query_one("#diff"))
        return panes
