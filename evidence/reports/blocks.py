"""The quoted block a ``--- path`` marker alone on its line takes: an indented code block over
its blank lines, or a Markdown fence (```` ``` ```` or ``~~~``) whole, blank lines and all (the
anchorer takes the fence off). What a fence holds is quoted text, never the report's structure."""

from __future__ import annotations

import re

from evidence.reports.markers import marker
from evidence.reports.vocabulary import BULLET_RE

__all__ = ["code_above", "fence_above", "fence_line", "fenced_lines", "paragraph_break"]

#: a fence line: three or more backticks or tildes, an info string after an opening one
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})([^`]*)$")


def fence_line(line: str) -> tuple[str, int, str] | None:
    """A fence line's character, its length and its info string (stripped; a line with none
    can close a fence), or None."""
    found = _FENCE.match(line) if "`" in line or "~" in line else None
    if found is None:
        return None
    run = found.group(1)
    return run[0], len(run), found.group(2).strip()


def _fence(line: str) -> tuple[str, int, bool] | None:
    """A fence line's character, its length, and whether it can close (nothing after it)."""
    fence = fence_line(line)
    return None if fence is None else (fence[0], fence[1], not fence[2])


def fenced_lines(lines: list[str]) -> set[int]:
    """The indexes of the lines inside closed fences and of their fence lines. A fence never
    closed holds nothing: one stray fence line does not swallow the rest of a report."""
    inside: set[int] = set()
    opening: tuple[int, str, int] | None = None  # index, character, length
    for index, line in enumerate(lines):
        if "`" not in line and "~" not in line:
            continue
        fence = _fence(line)
        if fence is None:
            continue
        character, length, closes = fence
        if opening is None:
            opening = (index, character, length)
        elif closes and character == opening[1] and length >= opening[2]:
            inside.update(range(opening[0], index + 1))
            opening = None
    return inside


def fence_above(lines: list[str], closing: int, first: int) -> int | None:
    """The index of the opening fence of the fenced block whose closing fence is at `closing`,
    looked for from there up to `first`; None when `closing` is no closing fence or has none."""
    fence = _fence(lines[closing])
    if fence is None or not fence[2]:
        return None
    character, length, _ = fence
    for index in range(closing - 1, first - 1, -1):
        above = _fence(lines[index])
        if above is not None and above[0] == character and above[1] <= length:
            return index
    return None


def _is_code_line(line: str) -> bool:
    """An indented line that is not a list item: part of an indented code block."""
    stripped = line.lstrip()
    return stripped != line and bool(stripped) and not BULLET_RE.match(stripped)


def paragraph_break(line: str) -> bool:
    """A blank line that is empty, not one kept indented as a quoted block's own."""
    return not line[:1].isspace()


def code_above(lines: list[str], first: int, above: int, last: int, taken: set[int]) -> int:
    """Extend an indented block upward over the blank lines between indented code paragraphs
    (one empty line at most; any number kept indented).

    ``above`` is the line just above the block, ``last`` its last line; the result is the new
    ``above``. Code blocks keep their blank lines when a report is rendered, so a quoted function
    can span several paragraphs.
    """
    if not all(_is_code_line(lines[i]) for i in range(above + 1, last + 1)):
        return above
    while True:
        # the blank lines between two paragraphs of the block: one empty line at most (one is
        # a paragraph break of prose too), and any kept indented as the block's own
        gap, empty = above, 0
        while gap >= first and not lines[gap].strip() and gap not in taken:
            empty += paragraph_break(lines[gap])
            gap -= 1
        if (
            gap == above
            or empty > 1
            or gap < first
            or gap in taken
            or not _is_code_line(lines[gap])
            or marker(lines[gap]) is not None
        ):
            break
        top = gap
        while (
            top >= first
            and top not in taken
            and _is_code_line(lines[top])
            and marker(lines[top]) is None
        ):
            top -= 1
        if top >= first and lines[top].strip():
            break  # the paragraph above is not all code: leave it out
        above = top
    return above
