"""A scroll view's virtual size changed without laying the screen out again, when it can be.

Textual lays the whole screen out whenever a widget's virtual size changes (`virtual_size` is a
layout reactive), to show or hide its scrollbars and size their thumbs. A pane that shows
another record or file changes it at every key, and each layout arranges the whole screen
again. When no scrollbar appears or goes, the bars are told the new size here, as Textual's
layout would tell them, and only what changed is drawn.
"""

from __future__ import annotations

from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.widget import Widget


def _unchanged(view: ScrollView, size: Size) -> bool:
    """A layout at this virtual size would show the scrollbars shown now: decided as Textual
    decides them (overflow, then the room the other bar takes), and only when that second look
    changes nothing (Textual skips it after a bar came and went)."""
    styles = view.styles
    width, height = view.container_size
    overflow_x, overflow_y = styles.overflow_x, styles.overflow_y
    horizontal = overflow_x == "scroll" or (overflow_x == "auto" and size.width > width)
    vertical = overflow_y == "scroll" or (overflow_y == "auto" and size.height > height)
    if overflow_x == "auto" and vertical and not horizontal:
        horizontal = size.width > width - styles.scrollbar_size_vertical
        if horizontal:
            return False
    if overflow_y == "auto" and horizontal and not vertical:
        vertical = size.height > height - styles.scrollbar_size_horizontal
        if vertical:
            return False
    return (horizontal, vertical) == (view.show_horizontal_scrollbar, view.show_vertical_scrollbar)


def set_virtual_size(view: ScrollView, size: Size) -> None:
    """Give ``view`` a new virtual size: laid out again only when a scrollbar appears or goes
    (or before it is laid out at all), else its bars resized in place."""
    if size == view.virtual_size:
        return
    if not view.container_size or not _unchanged(view, size):
        view.virtual_size = size  # Textual's own way: a layout
        return
    shown = (view.show_horizontal_scrollbar, view.show_vertical_scrollbar)
    view.set_reactive(Widget.virtual_size, size)
    width, height = view.container_size
    if shown[1] and view.styles.scrollbar_size_vertical:
        bar = view.vertical_scrollbar
        bar.window_virtual_size = size.height
        bar.window_size = height - view.scrollbar_size_horizontal
    if shown[0] and view.styles.scrollbar_size_horizontal:
        bar = view.horizontal_scrollbar
        bar.window_virtual_size = size.width
        bar.window_size = width - view.scrollbar_size_vertical
    view.scroll_x = view.validate_scroll_x(view.scroll_x)
    view.scroll_y = view.validate_scroll_y(view.scroll_y)
    view.refresh()
