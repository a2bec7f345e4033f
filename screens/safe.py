"""Untrusted text made safe to show: control characters become visible, markup stays literal.

Report text, source lines, notes and paths are data. Everything shown goes through `visible()`
(so ESC, BEL, CR, C1 controls and bidi overrides never reach the terminal) and then into
`Content(text)` / `Text(text)`, never into a markup parser.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual.content import Content

from evidence.text import visible

__all__ = ["TAB_SIZE", "as_markup", "safe_content", "safe_line", "visible"]

#: the columns between tab stops in source as drawn
TAB_SIZE = 4


def safe_content(text: str, style: str = "", *, multiline: bool = False) -> Content:
    """Literal `Content` for untrusted text: no markup is parsed, controls are made visible."""
    content = Content(visible(text, multiline=multiline))
    return content.stylize(style) if style else content


def safe_line(text: str, tab_size: int = TAB_SIZE) -> str:
    """One source line for display: tabs expanded, every other control made visible."""
    shown = visible(text)
    if "\t" not in shown or shown.isascii():
        return shown.expandtabs(tab_size)
    # to the terminal's tab stops, which count cells (`str.expandtabs` counts characters: after
    # a name in wide characters, a column of values was drawn out of line)
    *pieces, last = shown.split("\t")
    parts: list[str] = []
    column = 0
    for piece in pieces:
        column += cell_len(piece)
        spaces = tab_size - column % tab_size
        parts += (piece, " " * spaces)
        column += spaces
    return "".join(parts) + last


def as_markup(text: str) -> str:
    """Untrusted text (controls made visible) where an API reads markup (a palette command's
    title): it reads back as exactly this text. Textual's `markup.escape` doubles every
    backslash that precedes an escaped bracket or ends the text, which its parser keeps."""
    return visible(text).replace("[", "\\[")
