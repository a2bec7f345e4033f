"""What the source pane draws, without the widget: gutter marks, messages for files without
lines, and the syntax highlighting of display lines (run in the highlighting worker).
"""

from __future__ import annotations

import textwrap
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import accumulate, compress
from operator import itemgetter
from typing import TYPE_CHECKING, NamedTuple

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from evidence.syntax import lexer_for
from evidence.text import visible
from screens.contrast import legible
from screens.safe import TAB_SIZE, safe_line

if TYPE_CHECKING:  # pygments is imported by the highlighting worker
    from collections.abc import Callable

    from rich.syntax import PygmentsSyntaxTheme

    from evidence.model import Quote
    from evidence.revision import SourceFile

LineRange = tuple[int, int]
Piece = tuple[str, Style]

#: syntax style per app theme kind, chosen to read well on the theme's background
SYNTAX_STYLES = {"dark": "monokai", "light": "friendly"}

#: a line wider than this (in cells) is cut to the view before it is styled: a minified
#: bundle's one line of millions of characters was styled whole, then cut, on every frame
LONG_LINE = 2000
#: a line's tokens and their styles (None: plain)
Pieces = Sequence[tuple[str, Style | None]]


class LongLine:
    """A long line's pieces (its tokens; no style: plain) with the cell where each starts, so
    that the view's window is cut out of it without walking the rest."""

    def __init__(self, text: str, pieces: Sequence[tuple[str, Style | None]]) -> None:
        self.pieces = pieces
        self.ascii = text.isascii()  # a cell a character (controls are symbols by now)
        texts = map(itemgetter(0), pieces)
        sizes = map(len, texts) if self.ascii else map(cell_len, texts)
        self.starts = list(accumulate(sizes, initial=0))

    def cut(self, start: int, end: int) -> tuple[list[tuple[str, Style | None]], int]:
        """The pieces covering cells ``start`` to ``end``, and the cell the first one starts
        at (``start`` itself when the line is ASCII: its pieces are cut to the window)."""
        first = max(0, bisect_right(self.starts, start) - 1)
        last = max(bisect_left(self.starts, end, first), first + 1)
        kept = list(self.pieces[first:last])
        if not self.ascii:
            return kept, self.starts[first]
        window = []
        for (text, style), begin in zip(kept, self.starts[first:last], strict=False):
            part = text[max(start - begin, 0) : max(end - begin, 0)]
            if part:
                window.append((part, style))
        return window, start


class LongLines:
    """The long lines of a view, each cut into `LongLine` once (and again once highlighted)."""

    def __init__(self, size: int = 64) -> None:
        from cachetools import LRUCache

        self._known: LRUCache[tuple[object, int], tuple[object, LongLine]] = LRUCache(size)

    def cut(
        self, key: tuple[object, int], text: str, pieces: Pieces | None, start: int, end: int
    ) -> tuple[list[tuple[str, Style | None]], int]:
        """`LongLine.cut` of line ``key`` (its document, its index), given its pieces now."""
        known = self._known.get(key)
        if known is None or known[0] is not pieces:  # highlighted since, or never cut
            known = self._known[key] = (pieces, LongLine(text, pieces or [(text, None)]))
        return known[1].cut(start, end)


def code_segments(
    pieces: Iterable[tuple[str, Style | None]],
    line_style: Style,
    styles: dict[tuple[Style, Style], Style],
) -> list[Segment]:
    """A line's code: its pieces, each syntax style made legible on the line's (None: plain)."""
    return [
        Segment(part, line_style if style is None else legible_on(styles, style, line_style))
        for part, style in pieces
    ]


def windowed(
    code: list[Segment], cells: int, at: int | None, scroll_x: int, width: int, style: Style
) -> list[Segment]:
    """A line's code (``cells`` wide) cut or padded to the view's ``width`` columns from
    ``scroll_x``; ``at``: the cell a long line's cut-out starts at (`LongLines`)."""
    if at is not None:
        start = scroll_x - at
        return list(Strip(code).crop_extend(start, start + width, style))
    if scroll_x or cells > width:  # one Strip made per line otherwise
        return list(Strip(code, cells).crop_extend(scroll_x, scroll_x + width, style))
    if cells < width:
        code.append(Segment(" " * (width - cells), style))
    return code


#: lines in wide characters `widest_line` measures cell by cell, at most
MEASURED_LINES = 100


def widest_line(lines: Sequence[str]) -> int:
    """The width in cells of the widest line as drawn: tabs expanded, controls made symbols (a
    line in wide characters, measured in characters, could not be scrolled to its end)."""
    plain = [line.isascii() and line.isprintable() for line in lines]
    widest = max((len(line) for line, ok in zip(lines, plain, strict=True) if ok), default=0)
    others: list[tuple[int, str]] = []
    for line in compress(lines, [not ok for ok in plain]):
        if line.isascii() and line.replace("\t", " ").isprintable():  # tabs its only controls
            widest = max(widest, len(line.expandtabs(TAB_SIZE)))
            continue
        shown = line if line.isprintable() else safe_line(line, TAB_SIZE)
        if shown.isascii():
            widest = max(widest, len(shown))
        else:
            # at most its cells: a character of n bytes in UTF-8 takes at most (n + 1) / 2 cells
            # (a wide one is 3 or 4 bytes), so only the lines this bound leaves in contention
            # are measured cell by cell (slow in Python: 1.9 s for 100,000 lines in Japanese)
            utf8 = len(shown.encode("utf-8", "surrogatepass"))
            others.append(((utf8 + len(shown) + 1) // 2, shown))
    others.sort(key=itemgetter(0), reverse=True)
    for measured, (bound, shown) in enumerate(others):
        if bound <= widest:
            break
        if measured == MEASURED_LINES:  # the rest at their bound: a few blank cells at most
            return bound
        widest = max(widest, cell_len(shown))
    return widest


def message_strip(message: str, y: int, width: int, style: Style, base: Style) -> Strip:
    """Row ``y`` of a message shown instead of a file, wrapped to the pane (it names paths a
    reviewer needs to read whole)."""
    lines = message_lines(message, width)
    if y < len(lines):
        return Strip([Segment(" " + lines[y], style)]).crop_extend(0, width, base)
    return Strip.blank(width, base)


def legible_on(cache: dict[tuple[Style, Style], Style], token: Style, line: Style) -> Style:
    """A syntax style on a line's style, its colour made legible on the line's background (a
    syntax theme's comments and numbers read poorly on some backgrounds); kept in ``cache``."""
    key = (token, line)
    style = cache.get(key)
    if style is None:
        background = line.bgcolor.get_truecolor() if line.bgcolor else None
        style = cache[key] = legible(line + token, background)
    return style


@lru_cache(maxsize=16)
def message_lines(message: str, width: int) -> tuple[str, ...]:
    """A message wrapped to a pane's width, once per message and width (not once per line)."""
    return tuple(textwrap.wrap(visible(message), max(10, width - 2))) or ("",)


def file_message(source: SourceFile) -> str | None:
    """What to show instead of a file that has no lines to display (empty, binary...), or None."""
    if source.problem is None and not source.text:
        return f"{source.path} is empty"
    return source.problem


class SourceMarks(NamedTuple):
    """What the gutter shows: matched range, claimed range, other occurrences, backlinks, and
    lines the reviewer selected (go to line ``A-B``: what a permalink cites)."""

    matched: LineRange | None = None
    claimed: LineRange | None = None  # drawn in the warning colour where it differs from matched
    others: tuple[LineRange, ...] = ()
    backlinks: frozenset[int] = frozenset()
    selected: LineRange | None = None
    left_out: tuple[LineRange, ...] = ()  # within matched: lines an elided quote did not copy

    def mark(self, line: int) -> str:
        """The gutter kind of one line: selected, matched, claimed, other, or empty."""
        if self.selected and self.selected[0] <= line <= self.selected[1]:
            return "selected"
        if self.left_out and any(first <= line <= last for first, last in self.left_out):
            return ""
        if self.matched and self.matched[0] <= line <= self.matched[1]:
            return "matched"
        if self.claimed and self.claimed[0] <= line <= self.claimed[1]:
            return "claimed"
        if any(first <= line <= last for first, last in self.others):
            return "other"
        return ""


@lru_cache(maxsize=8)
def _syntax_theme(name: str) -> PygmentsSyntaxTheme:
    from rich.syntax import PygmentsSyntaxTheme

    return PygmentsSyntaxTheme(name)


def highlight_block(path: str, lines: Sequence[str], theme: str) -> list[list[Piece]]:
    """Highlight some display lines (already made safe) of a file into styled pieces per line."""
    syntax = _syntax_theme(theme)
    lexer = lexer_for(path)
    result: list[list[Piece]] = [[]]
    style_cache: dict[object, Style] = {}
    for token_type, value in lexer.get_tokens("\n".join(lines)):
        style = style_cache.get(token_type)
        if style is None:
            full = syntax.get_style_for_token(token_type)
            style = Style(color=full.color, bold=full.bold, italic=full.italic)
            style_cache[token_type] = style
        parts = value.split("\n")
        for index, part in enumerate(parts):
            if index:
                result.append([])
            if part:
                result[-1].append((part, style))
    del result[len(lines) :]
    while len(result) < len(lines):
        result.append([])
    return result


#: the mark drawn for each kind of passage, and the component style it is drawn in
_MARKS = {
    "selected": ("▐", "source-view--selected"),
    "matched": ("▐", "source-view--matched"),
    "claimed": ("▐", "source-view--claimed"),
    "other": ("┆", "source-view--other"),
}


def gutter_segments(
    line: int,
    marks: SourceMarks,
    cursor: bool,
    digits: int,
    base: Style,
    style: Callable[[str], Style],
) -> tuple[Segment, ...]:
    """The gutter of one line (1-based; ``cursor``: the cursor's): a backlink dot, the line's
    number in ``digits`` and its passage's mark, in the view's component ``style``s."""
    number_style = base + style("source-view--gutter")
    if cursor:
        number_style += style("source-view--cursor")
    backlink = "•" if line in marks.backlinks else " "
    mark, mark_style = " ", base
    kind = marks.mark(line)
    if kind in _MARKS:
        mark, name = _MARKS[kind]
        mark_style = base + style(name)
    return (
        Segment(backlink, base + style("source-view--backlink")),
        Segment(f"{line:>{digits}} ", number_style),
        Segment(mark, mark_style),
        Segment(" ", base),
    )


def quote_column(quote: Quote, lines: Sequence[str], line: int) -> int | None:
    """Where on its first line (1-based ``line``) a quote starts, 0-based: a SARIF region's
    start column, else where the start of the quote's first line is found on it (None when it
    is not: a quote collapsed from several lines, or not verbatim)."""
    if not 1 <= line <= len(lines):
        return None
    if quote.columns is not None and quote.columns[0] > 0:
        return quote.columns[0] - 1
    first = next((part.strip() for part in quote.text.splitlines() if part.strip()), "")
    if not first:
        return None
    text = lines[line - 1]
    at = text.find(first)  # whole: its start alone may stand earlier on a repetitive line
    if at < 0:  # collapsed from several lines: its start
        at = text.find(first[:40])
    return at if at >= 0 else None
