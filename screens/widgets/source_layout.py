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


def kept_in_view(
    matched: tuple[int, int] | None, line: int, top: int, height: int, height_seen: int
) -> int | None:
    """The first line (0-based) to show after a resize to ``height`` rows, the view's first at
    ``top``: the ``matched`` passage when the cursor ``line`` is in it, else the line, in view
    again, moved as little as needed. None: it stays (all in view, or the reviewer had scrolled
    away from the cursor in the ``height_seen`` rows before)."""
    first, last = matched if matched and matched[0] <= line <= matched[1] else (line, line)
    if first - 1 >= top and last <= top + height:
        return None
    if height_seen and not top < line <= top + height_seen:
        return None
    if last - first + 1 > height:  # taller than the view: its first lines, with the cursor
        target = first - 1 if line - first < height else line - height
    elif first - 1 < top:
        target = first - 1
    else:
        target = last - height
    return max(0, target)


def scrollbars_placed(view: ScrollView) -> None:
    """Tell the view's scrollbars where it is: one that appeared after the view was scrolled
    (a longer file) would show its thumb at the top, as Textual places a bar only on a scroll."""
    if view.show_vertical_scrollbar:
        view.vertical_scrollbar.position = view.scroll_y
    if view.show_horizontal_scrollbar:
        view.horizontal_scrollbar.position = view.scroll_x


#: columns of code kept before a quote brought into view sideways
SIDE_CONTEXT = 8


def sideways(cell: int, left: int, width: int) -> int | None:
    """The column to scroll the code to so that its cell ``cell`` (0-based, as drawn) shows,
    with SIDE_CONTEXT columns before it, in ``width`` columns from ``left``; None when it
    shows already (or the view is not laid out yet)."""
    if width <= SIDE_CONTEXT or left <= cell < left + width - SIDE_CONTEXT:
        return None
    return max(0, cell - SIDE_CONTEXT)
