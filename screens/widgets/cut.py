"""Text cut to a width with an ellipsis that follows a word, never a space ("Use…", not
"Use …": the space says nothing and reads as a word lost)."""

from __future__ import annotations

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
