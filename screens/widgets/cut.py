"""Text cut to a width with an ellipsis that follows a word, never a space ("Use…", not
"Use …": the space says nothing and reads as a word lost).

Widths are terminal cells, not characters: a name in wide characters (CJK, most emoji) takes
two cells a character, and a row measured in characters ran past its pane's edge, where its
status and marks were cut off.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual.content import Content


def cut(content: Content, width: int, *, pad: bool = False) -> Content:
    """``content`` in ``width`` cells: whole when it fits, else cut with an ellipsis, spaces
    before it dropped; ``pad``: spaces after it up to ``width`` (a column after it stays put)."""
    if content.cell_length <= width:
        return content
    if width <= 0:
        return Content("")
    # the ellipsis in the place after the last word, styled as Textual styles it there
    kept = content.truncate(width - 1).rstrip().cell_length
    ended = content.truncate(kept + 1, ellipsis=True)
    return ended.truncate(width, pad=True) if pad else ended


def keep_cells(text: str, room: int) -> str:
    """The start of plain ``text`` that fits in ``room`` cells (a wide character that would
    straddle the edge is left out)."""
    if cell_len(text) <= room:
        return text
    used = 0
    for end, char in enumerate(text):
        used += cell_len(char)
        if used > room:
            return text[:end]
    return text


def cut_text(text: str, width: int) -> str:
    """Plain ``text`` in at most ``width`` cells: whole when it fits, else cut with an
    ellipsis after its last kept word (`cut` for plain strings)."""
    if cell_len(text) <= width:
        return text
    if width <= 0:
        return ""
    return keep_cells(text, width - 1).rstrip() + "…"


def pad_cells(text: str, width: int) -> str:
    """``text`` with spaces after it up to ``width`` cells (`str.ljust` counts characters)."""
    return text + " " * (width - cell_len(text))


def cut_path(path: str, room: int) -> str:
    """``path`` (and its lines) in ``room`` columns, cut in the middle: its file name and lines
    kept whole when they fit after the start of its directory, else cut in their middle too."""
    if cell_len(path) <= room:
        return path
    slash = path.rfind("/")
    name = path[slash:] if slash > 0 else ""
    if name and cell_len(name) + 2 <= room:
        return keep_cells(path[:slash], room - 1 - cell_len(name)) + "…" + name
    head = keep_cells(path, max(1, (room - 1) // 3))
    tail = keep_cells(path[len(head) :][::-1], room - 1 - cell_len(head))[::-1]
    return head + "…" + tail
