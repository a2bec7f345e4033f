"""A row of a `RowList` and the height of its text, which depends on the text alone."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from cachetools import LRUCache
from textual.content import Content

if TYPE_CHECKING:
    from textual.css.styles import RenderStyles, RulesMap


class Row(NamedTuple):
    """One row: what it shows, an id to act on, and whether the cursor can rest on it."""

    prompt: Content
    id: str | None = None
    disabled: bool = False


#: (text, width, text_wrap, text_overflow, line_pad) -> lines: a row's height depends on its
#: text alone, and the rows of a record shown again (p after n, back) are rebuilt as new Contents
HEIGHTS: LRUCache[tuple[str, int, object, object, object], int] = LRUCache(4096)


def text_height(prompt: Content, width: int, styles: RenderStyles) -> int:
    """How many lines ``prompt`` takes at ``width``, wrapped as ``styles`` say (kept by text)."""
    wrap, overflow, pad = styles.text_wrap, styles.text_overflow, styles.line_pad
    key = (prompt.plain, width, wrap, overflow, pad)
    height = HEIGHTS.get(key)
    if height is None:
        rules: RulesMap = {"text_wrap": wrap, "text_overflow": overflow, "line_pad": pad}
        height = HEIGHTS[key] = max(1, prompt.get_height(rules, width))
    return height
