"""What an app draws, read back from its SVG screenshot (`App.export_screenshot`): each cell's
character and the truecolor foreground and background it was painted with (Rich's export has
already blended dim text, alpha and tints into plain colours), and WCAG 2 contrast ratios, in
truecolor and in 256 colours."""

from __future__ import annotations

import html
import re
from functools import cache
from typing import NamedTuple

from rich.cells import cell_len
from rich.color import Color, ColorSystem
from textual.app import App
from textual.geometry import Region

CELL_WIDTH, LINE_HEIGHT, TOP = 12.2, 24.4, 1.5
_CLASS = re.compile(r"\.terminal-\d+-(r\d+) \{ fill: (#[0-9a-f]{6})")
_RECT = re.compile(
    r'<rect fill="(#[0-9a-f]{6})" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="[\d.]+"'
    r' shape-rendering="crispEdges"/>'
)
_TEXT = re.compile(
    r'<text class="terminal-\d+-(r\d+)" x="([\d.]+)" y="[\d.]+" textLength="[\d.]+"'
    r' clip-path="url\(#terminal-\d+-line-(\d+)\)">([^<]*)</text>'
)
#: borders, blocks and marks (the source gutter's, bullets): non-text (WCAG 1.4.11: 3:1)
DRAWING = re.compile(r"[\u2500-\u259f\u2800-\u28ff•┆]")


class Cell(NamedTuple):
    char: str
    fg: str
    bg: str


def _backgrounds(svg: str) -> dict[tuple[int, int], str]:
    backgrounds: dict[tuple[int, int], str] = {}
    for fill, x, y, width in _RECT.findall(svg):
        row = round((float(y) - TOP) / LINE_HEIGHT)
        first = round(float(x) / CELL_WIDTH)
        for column in range(first, first + round(float(width) / CELL_WIDTH)):
            backgrounds[column, row] = fill
    return backgrounds


def screen_backgrounds(app: App[object]) -> dict[tuple[int, int], str]:
    """(x, y) -> the background painted there, for every cell (blank ones too)."""
    return _backgrounds(app.export_screenshot())


def screen_cells(app: App[object]) -> dict[tuple[int, int], Cell]:
    """(x, y) -> the cell drawn there, for every cell holding a visible character."""
    svg = app.export_screenshot()
    fills = dict(_CLASS.findall(svg))
    backgrounds = _backgrounds(svg)
    cells: dict[tuple[int, int], Cell] = {}
    for name, x, line, text in _TEXT.findall(svg):
        column, row = round(float(x) / CELL_WIDTH), int(line)
        for char in html.unescape(text):
            if not char.isspace() and char != "\xa0":
                cells[column, row] = Cell(char, fills[name], backgrounds.get((column, row), ""))
            column += cell_len(char)
    return cells


@cache
def in_256(colour: str) -> str:
    """``colour`` as a terminal of 256 colours shows it (tmux's default, macOS's Terminal):
    Textual's console without COLORTERM writes the nearest of the colour cube's or the grey
    ramp's, whose values are the same in every terminal."""
    return Color.parse(colour).downgrade(ColorSystem.EIGHT_BIT).get_truecolor().hex


def luminance(colour: str) -> float:
    """WCAG 2 relative luminance of ``#rrggbb``."""

    def channel(hex_pair: str) -> float:
        v = int(hex_pair, 16) / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(colour[n : n + 2]) for n in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(first: str, second: str) -> float:
    """WCAG 2 contrast ratio of two colours (1 to 21)."""
    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def low_contrast(
    cells: dict[tuple[int, int], Cell], region: Region, *, text: float = 4.5, drawing: float = 3.0
) -> list[str]:
    """The runs of characters in ``region`` below ``text`` (letters, digits, signs) or
    ``drawing`` (box drawing, blocks: borders, scrollbars, marks), as "line: text fg/bg ratio",
    in truecolor or as a terminal of 256 colours shows them (`in_256`), whichever is lower."""
    low: list[str] = []
    for y in range(region.y, region.bottom):
        run: list[str] = []
        last: tuple[str, str, float] | None = None
        for x in range(region.x, region.right):
            cell = cells.get((x, y))
            if cell is None or not cell.bg:
                continue
            ratio, fg, bg = min(
                (contrast(cell.fg, cell.bg), cell.fg, cell.bg),
                (contrast(in_256(cell.fg), in_256(cell.bg)), in_256(cell.fg), in_256(cell.bg)),
            )
            if ratio >= (drawing if DRAWING.match(cell.char) else text):
                continue
            key = (fg, bg, round(ratio, 2))
            if key != last and run and last:
                low.append(f"{y}: {''.join(run)!r} {last[0]}/{last[1]} {last[2]}")
                run = []
            run.append(cell.char)
            last = key
        if run and last:
            low.append(f"{y}: {''.join(run)!r} {last[0]}/{last[1]} {last[2]}")
    return low
