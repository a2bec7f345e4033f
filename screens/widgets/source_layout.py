"""The source view's layout to come: a file shown is centred as the view will be laid out with
it, so that the layout which follows does not move it again a frame later (a jump, and the
whole view drawn twice)."""

from __future__ import annotations

from textual.scroll_view import ScrollView


def rows_after(view: ScrollView, rows: int | None) -> int | None:
    """The lines of code ``view`` shows once laid out again: the ``rows`` it is given (the line
    under it changing height), or those it has now (its horizontal bar's row is always kept);
    None before the view's first layout."""
    region = view.scrollable_content_region
    if not region.height:
        return None
    return max(1, region.height if rows is None else rows)


def centred_top(line: int, rows: int) -> int:
    """The first line (0-based) shown when ``line`` (1-based) is centred in ``rows`` rows: a
    third of the way down."""
    return max(0, line - 1 - max(1, rows) // 3)


def scrollbars_placed(view: ScrollView) -> None:
    """Tell the view's scrollbars where it is: one that appeared after the view was scrolled
    (a longer file) would show its thumb at the top, as Textual places a bar only on a scroll."""
    if view.show_vertical_scrollbar:
        view.vertical_scrollbar.position = view.scroll_y
    if view.show_horizontal_scrollbar:
        view.horizontal_scrollbar.position = view.scroll_x
