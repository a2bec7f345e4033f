"""A pane's vertical scrollbar drawn as the last cell of the pane's own lines.

Textual draws a scrollbar as a widget of its own, and every line of a widget goes through
Textual's per-line styling: a pane that scrolls or shows another record repaints its bar whole,
one styled line per row (92 of the 126 lines an `n` drew on the sample, and on a long review
the records list's bar at each cursor move). Drawn by the pane, the bar is one more segment on
lines it draws anyway.

The panes hide Textual's bar (`overflow-y: hidden`, with `allow_vertical_scroll` saying they
scroll when their lines overflow, so the wheel and the keys still scroll them) and keep the
column themselves. The cells are those Textual's bar draws (`ScrollBarRender.render_bar`
through `ScrollBarLines`, in the pane's scrollbar colours, hover and drag included), and a
press on them pages or drags as on Textual's bar.
"""

from __future__ import annotations

from math import ceil
from typing import TYPE_CHECKING

from rich.segment import Segment
from rich.style import Style as RichStyle
from textual import events
from textual.strip import Strip

from screens.widgets.scrollbars import ScrollBarLines, bar_lines

#: the steps of a bar's thumb in one row (ScrollBarRender's VERTICAL_BARS)
EIGHTHS = len(ScrollBarLines.VERTICAL_BARS)

if TYPE_CHECKING:
    from textual.scroll_view import ScrollView


class DrawnBar:
    """The vertical bar of one pane: its lines for a render pass, and the pointer on it."""

    def __init__(self, pane: ScrollView, width: int) -> None:
        self.pane = pane
        self.width = width  # in cells (`scrollbar-size-vertical` for Textual's bars)
        self.hover = False
        #: (the pointer's screen row when the thumb was taken, the scroll then), while dragged
        self.grabbed: tuple[int, float] | None = None
        self._pressed = False  # the last press was the bar's: its click is not the pane's
        self.drawn = False  # a bar is drawn in this render pass
        self._pass: list[list[Segment]] | None = None

    # --- drawing -----------------------------------------------------------------------------

    def start_pass(self) -> None:
        """A render pass begins: whether a bar is drawn is decided once for it (`drawn`), and
        its lines are made once, when first needed."""
        self._pass = None
        self.drawn = self.shown()

    def line(self, content: Strip, y: int) -> Strip:
        """``content`` (one cell short of the pane) with the bar's cell for row ``y`` after it."""
        return Strip([*content, *self.cells(y)], content.cell_length + self.width)

    def cells(self, y: int) -> list[Segment]:
        """The segments of the bar's row ``y``, for a pane that makes its lines itself."""
        lines = self._pass
        if lines is None:
            lines = self._pass = [list(line) for line in self._lines()]
        return lines[y] if y < len(lines) else [Segment(" " * self.width)]

    def _lines(self) -> list[Strip]:
        pane = self.pane
        styles = pane.styles
        if self.grabbed is not None:
            background, color = styles.scrollbar_background_active, styles.scrollbar_color_active
        elif self.hover:
            background, color = styles.scrollbar_background_hover, styles.scrollbar_color_hover
        else:
            background, color = styles.scrollbar_background, styles.scrollbar_color
        if background.a < 1:  # as Textual's ScrollBar.render mixes them
            base_background, _ = pane.background_colors
            background = base_background + background
        color = background + color
        style = RichStyle.from_color(color.rich_color, background.rich_color)
        height, virtual, window = self._geometry()
        return bar_lines(self.width, height, virtual, window, self.pane.scroll_y, style)

    def _geometry(self) -> tuple[int, int, int]:
        """The bar's height, the pane's lines and those shown, as Textual's bar is given them."""
        pane = self.pane
        height = pane.scrollable_content_region.height
        virtual = ceil(pane.virtual_size.height)
        return height, virtual, height if height < virtual else 0

    # --- the pointer --------------------------------------------------------------------------

    def on_bar(self, event: events.MouseEvent) -> bool:
        """The pointer is on the bar's column (``event`` is the pane's)."""
        offset = event.get_content_offset(self.pane)
        region = self.pane.scrollable_content_region
        return offset is not None and offset.x >= region.width - self.width

    def shown(self) -> bool:
        """A bar is drawn: the pane's lines overflow its height."""
        pane = self.pane
        return pane.virtual_size.height > pane.scrollable_content_region.height

    def over(self, event: events.MouseEvent) -> bool:
        """The pointer is the bar's: on it, or dragging its thumb."""
        return self.grabbed is not None or (self.shown() and self.on_bar(event))

    def mouse_down(self, event: events.MouseDown) -> bool:
        """A press on the bar: above or below the thumb a page, on it the thumb taken (until
        the button is let go). True when the press was the bar's."""
        self._pressed = self.shown() and self.on_bar(event)
        if not self._pressed:
            return False
        event.stop()
        pane = self.pane
        offset = event.get_content_offset(pane)
        assert offset is not None
        # the thumb's first and last rows as drawn (its ends in eighths of a row)
        height, virtual, window = self._geometry()
        bar = ScrollBarLines(virtual_size=virtual, window_size=window, position=pane.scroll_y)
        start, end = bar.thumb(height) or (0, height * EIGHTHS)
        if offset.y < start // EIGHTHS:
            pane.scroll_page_up(animate=False, force=True)
        elif offset.y > (end - 1) // EIGHTHS:
            pane.scroll_page_down(animate=False, force=True)
        else:
            self.grabbed = (event.screen_y, pane.scroll_y)
            pane.capture_mouse()
            pane.refresh()
        return True

    def mouse_move(self, event: events.MouseMove) -> bool:
        """A drag of the thumb scrolls as Textual's does; otherwise the bar shows the pointer
        over it. True when the move was the bar's."""
        pane = self.pane
        if self.grabbed is not None:
            start, scroll = self.grabbed
            height = max(1, pane.scrollable_content_region.height)
            y = scroll + (event.screen_y - start) * (pane.virtual_size.height / height)
            pane.scroll_to(y=y, animate=False, force=True)
            event.stop()
            return True
        over = self.shown() and self.on_bar(event)
        if over != self.hover:
            self.hover = over
            pane.refresh()
        return over

    def mouse_up(self, event: events.MouseUp) -> bool:
        if self.grabbed is None:
            return False
        self.grabbed = None
        self.pane.release_mouse()
        self.pane.refresh()
        event.stop()
        return True

    def took_click(self) -> bool:
        """The click that follows a press is the bar's (a page, or the thumb let go)."""
        pressed, self._pressed = self._pressed, False
        return pressed

    def leave(self) -> None:
        if self.hover:
            self.hover = False
            self.pane.refresh()


class BarPointer:
    """The pointer on a pane's drawn bar: mixed into the pane, which makes `bar`. (Textual
    runs each class's handler, so the pane's own `on_mouse_move` or `on_click` runs too: they
    leave the pointer to the bar where `bar.over` or `bar.took_click` says so.)"""

    bar: DrawnBar

    @property
    def allow_vertical_scroll(self) -> bool:
        # Textual's vertical bar is hidden (`overflow-y: hidden`), which would stop the wheel
        # and the scroll keys: the pane scrolls when its lines overflow it, as with its bar
        return not self.bar.pane.is_disabled and self.bar.shown()

    def on_mouse_down(self, event: events.MouseDown) -> None:
        self.bar.mouse_down(event)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self.bar.mouse_move(event)

    def on_mouse_up(self, event: events.MouseUp) -> None:
        self.bar.mouse_up(event)

    def on_leave(self, event: events.Leave) -> None:
        self.bar.leave()
