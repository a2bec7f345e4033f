"""Colours made legible: a syntax colour (or any foreground) moved towards white or black until
it meets a WCAG 2 contrast ratio on the background it is drawn on, keeping its hue."""

from __future__ import annotations

from functools import lru_cache

from rich.color import Color, ColorSystem
from rich.color_triplet import ColorTriplet
from rich.segment import Segment
from rich.style import Style
from textual.constants import DIM_FACTOR
from textual.strip import Strip

#: WCAG AA for text
TEXT_RATIO = 4.5
_WHITE, _BLACK = ColorTriplet(255, 255, 255), ColorTriplet(0, 0, 0)


def luminance(colour: ColorTriplet) -> float:
    """WCAG 2 relative luminance."""

    def channel(value: int) -> float:
        v = value / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    red, green, blue = (channel(value) for value in colour)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(first: ColorTriplet, second: ColorTriplet) -> float:
    """WCAG 2 contrast ratio (1 to 21)."""
    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _mix(colour: ColorTriplet, towards: ColorTriplet, amount: float) -> ColorTriplet:
    return ColorTriplet(
        *(round(a + (b - a) * amount) for a, b in zip(colour, towards, strict=True))
    )


@lru_cache(maxsize=4096)
def in_256(colour: ColorTriplet) -> ColorTriplet:
    """The colour a terminal of 256 colours shows for ``colour``: Rich's console writes the
    nearest of the colour cube's or the grey ramp's (Textual's without COLORTERM, as in tmux or
    macOS's Terminal), whose values are the same in every terminal."""
    return Color.from_triplet(colour).downgrade(ColorSystem.EIGHT_BIT).get_truecolor()


def reads(colour: ColorTriplet, background: ColorTriplet, minimum: float = TEXT_RATIO) -> bool:
    """Whether ``colour`` meets ``minimum`` on ``background`` in truecolor and in 256 colours
    (where both are moved to the nearest of the palette, often towards each other)."""
    return (
        contrast(colour, background) >= minimum
        and contrast(in_256(colour), in_256(background)) >= minimum
    )


@lru_cache(maxsize=1024)
def legible_colour(
    colour: ColorTriplet, background: ColorTriplet, minimum: float = TEXT_RATIO
) -> ColorTriplet:
    """``colour``, or the least change of it towards white or black that meets ``minimum``
    (in truecolor and in 256 colours)."""
    if reads(colour, background, minimum):
        return colour
    towards = _WHITE if contrast(_WHITE, background) >= contrast(_BLACK, background) else _BLACK
    for step in range(1, 21):
        mixed = _mix(colour, towards, step / 20)
        if reads(mixed, background, minimum):
            return mixed
    return towards


def legible(style: Style, background: ColorTriplet | None) -> Style:
    """``style`` with its foreground made legible on ``background`` (unchanged without one).
    Dim text is judged as Textual draws it, blended towards the background (DIM_FACTOR), and
    when that is too faint, drawn in the least changed colour that reads, not dimmed."""
    if background is None or style.color is None:
        return style
    triplet = style.color.get_truecolor()
    if style.dim:
        dimmed = _mix(triplet, background, 1 - DIM_FACTOR)
        fixed = legible_colour(dimmed, background)
        if fixed == dimmed:
            return style
        return style + Style(color=Color.from_triplet(fixed), dim=False)
    fixed = legible_colour(triplet, background)
    if fixed == triplet:
        return style
    return style + Style(color=Color.from_triplet(fixed))


def legible_strip(strip: Strip, row: Style, width: int | None = None) -> Strip:
    """A list row's line with each coloured part readable on the background it is drawn on
    (its own, else the row's ``row`` style): a status colour picked for the pane's background
    (a refuted record's ✗) read at 1-2:1 on the cursor's. With ``width``, the line is cut or
    padded (in ``row``) to it, in the same pass: one new Strip a line, not three."""
    if width is not None and strip.cell_length > width:
        strip = strip.crop(0, width)
    default = row.bgcolor.get_truecolor() if row.bgcolor else None
    parts = []
    for text, style, control in strip:
        if style is not None and style.color is not None and not control:
            background = style.bgcolor.get_truecolor() if style.bgcolor else default
            style = legible(style, background)
        parts.append(Segment(text, style, control))
    length = strip.cell_length
    if width is not None and length < width:
        pad = legible(row, default) if row.color is not None else row
        parts.append(Segment(" " * (width - length), pad))
        length = width
    return Strip(parts, length)
