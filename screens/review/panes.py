"""The review screen's panes as laid out: three side by side when they fit, else two, and the
records list shown or hidden by a key.

A part the review screen owns. From `NARROW_WIDTH` columns the records, the record and the
source sit side by side; below it the records list keeps the left column and the record sits
above the source on the right (screen.tcss, class ``-narrow``), so the code keeps most of the
width. The records list can be hidden at any width (class ``-no-records``) to give the others
its columns. The panes keep their place on a resize: the records list its cursor, the source its
quote (RecordsPane and SourceView do it on their own Resize).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from screens.widgets.source_view import SourceView

if TYPE_CHECKING:
    from textual.geometry import Size
    from textual.widget import Widget

    from screens.widgets.record_pane import RecordPane
    from screens.widgets.records_pane import RecordsPane

#: from this width the three panes sit side by side; below it the record goes above the source
NARROW_WIDTH = 120


class PanesHost(Protocol):
    """What the layout needs of the review screen."""

    @property
    def size(self) -> Size: ...

    @property
    def focused(self) -> Widget | None: ...

    @property
    def records_pane(self) -> RecordsPane: ...

    @property
    def record_pane(self) -> RecordPane: ...

    @property
    def source_view(self) -> SourceView: ...

    def has_class(self, *names: str) -> bool: ...

    def set_class(self, add: bool, *names: str, update: bool = True) -> object: ...

    def query_one(self, selector: str) -> Widget: ...

    def set_focus(self, widget: Widget | None, scroll_visible: bool = True) -> None: ...


class Panes:
    """Which panes the review screen shows and how (``-narrow``, ``-no-records``)."""

    def __init__(self, host: PanesHost) -> None:
        self.host = host

    @property
    def records_shown(self) -> bool:
        return not self.host.has_class("-no-records")

    def resized(self) -> None:
        """Two panes below NARROW_WIDTH, three from it."""
        host = self.host
        narrow = host.size.width < NARROW_WIDTH
        if narrow != host.has_class("-narrow"):
            host.set_class(narrow, "-narrow")

    def toggle_records(self) -> None:
        """Hide the records list (its columns go to the record and the source), or show it."""
        host = self.host
        shown = not self.records_shown
        host.set_class(not shown, "-no-records")
        if not shown and host.focused is host.records_pane:
            host.set_focus(host.record_pane)
        elif shown:
            host.records_pane.scroll_to_cursor()

    def next_pane(self, focused: Widget | None, step: int) -> Widget:
        """The pane ``step`` (1 or -1) from the focused one, in the order tab cycles through."""
        panes = self.focusable()
        index = panes.index(focused) if focused in panes else -1
        return panes[(index + step) % len(panes)]

    def focusable(self) -> list[Widget]:
        """The panes tab cycles through, in order."""
        host = self.host
        panes: list[Widget] = [host.records_pane] if self.records_shown else []
        panes += [host.record_pane, host.source_view]
        if host.has_class("-diff"):
            panes.append(host.query_one("#diff"))
        return panes
