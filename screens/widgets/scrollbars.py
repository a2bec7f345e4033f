"""Scrollbars drawn without Rich's console: Textual's own bars, cell for cell.

Textual draws a scrollbar through Rich (`ScrollBarRender` is a Rich renderable): each time one
moves or its pane's length changes, its lines go through Rich's console, then are cut into lines
again. `ScrollBarLines` is the same renderer made a Textual `Visual`: the same segments
(`ScrollBarRender.render_bar`), styled as Textual styles a Rich renderable's segments (the
widget's style, then the segment's), cut into lines the same way, and kept per bar drawn, so a
bar drawn again as it was (a pane's bar after a layout) is looked up. Textual's documented hook
installs it (`ScrollBar.renderer`).
"""

from __future__ import annotations

from math import ceil
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from cachetools import LRUCache
from rich.color import Color
from rich.segment import Segment
from rich.style import Style as RichStyle
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.strip import Strip
from textual.visual import Visual

if TYPE_CHECKING:
    from textual.css.styles import RulesMap
    from textual.style import Style
    from textual.visual import RenderOptions

#: the colours `ScrollBarRender` falls back on when its style has none
_BACK, _BAR = Color.parse("#555555"), Color.parse("bright_magenta")

#: (geometry, position, styles) -> the bar's lines
_DRAWN: LRUCache[tuple[object, ...], list[Strip]] = LRUCache(256)
#: scrollbar -> what it was drawn as last (the key of `_DRAWN`)
_LAST: WeakKeyDictionary[object, tuple[object, ...]] = WeakKeyDictionary()


class ScrollBarLines(ScrollBarRender, Visual):
    """A scrollbar drawn as Textual draws `ScrollBarRender`, as a Visual (no Rich console)."""

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return container_width

    def get_height(self, rules: RulesMap, width: int) -> int:
        return 1

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        key = self.key(width, height, style)
        bar = getattr(options.rules, "node", None)  # the ScrollBar drawn (its styles' node)
        if bar is not None:
            _LAST[bar] = key
        lines = _DRAWN.get(key)
        if lines is None:
            rich_style, base = key[-2:]
            assert isinstance(rich_style, RichStyle) and isinstance(base, RichStyle)
            lines = _DRAWN[key] = self._lines(width, height or 0, rich_style, base)
        return lines

    def key(self, width: int, height: int | None, style: Style) -> tuple[object, ...]:
        """What decides the lines drawn: the bar's size, where its thumb starts and ends (in
        eighths of a cell), its colours and the widget's style. A pane scrolled by a line
        seldom moves its thumb by an eighth: the bar is drawn as it was."""
        given = self.style
        rich_style = given if isinstance(given, RichStyle) else RichStyle.parse(given)
        length = (height if self.vertical else width) or 0
        return (
            width,
            height,
            self.thumb(length),
            self.vertical,
            rich_style,
            style.rich_style,
        )

    def thumb(self, length: int) -> tuple[int, int] | None:
        """Where `render_bar` starts and ends the thumb on a bar `length` cells long, in
        eighths (its arithmetic, step for step); None for a bar without one."""
        virtual, window = self.virtual_size, self.window_size
        if not (window and length and virtual and length != virtual):
            return None
        bars = len(self.VERTICAL_BARS if self.vertical else self.HORIZONTAL_BARS)
        thumb_size = max(1, window / (virtual / length))
        position = (length - thumb_size) * (self.position / (virtual - window))
        start = int(position * bars)
        return start, start + ceil(thumb_size * bars)

    def _lines(
        self, width: int, height: int, rich_style: RichStyle, base: RichStyle
    ) -> list[Strip]:
        vertical = self.vertical
        bar = self.render_bar(
            size=height if vertical else width,
            window_size=self.window_size,
            virtual_size=self.virtual_size,
            position=self.position,
            vertical=vertical,
            thickness=width if vertical else height,
            back_color=rich_style.bgcolor or _BACK,
            bar_color=rich_style.color or _BAR,
        )
        segments: list[Segment] = []
        newline = Segment.line()
        for segment in bar.segments:
            segments.append(segment)
            if bar.new_lines:
                segments.append(newline)
        if base:  # as Textual styles a Rich renderable's segments (Widget.post_render)
            add = base.__add__
            segments = [Segment(text, add(style), None) for text, style, _control in segments]
        return [
            Strip(line)
            for line in Segment.split_and_crop_lines(
                segments, width, include_new_lines=False, pad=False
            )
        ][: height or None]


def bar_lines(
    width: int, height: int, virtual: int, window: int, position: float, style: RichStyle
) -> list[Strip]:
    """The lines of a vertical bar ``width`` cells wide, as Textual's `ScrollBar` draws them for
    a pane `virtual` lines long showing `window` of them from `position` (its mouse actions left
    out: the pane that draws it takes the pointer itself)."""
    bar = ScrollBarLines(
        virtual_size=virtual,
        window_size=window,
        position=position,
        thickness=width,
        vertical=True,
        style=style,
    )
    key = (width, height, bar.thumb(height), True, style, None)
    lines = _DRAWN.get(key)
    if lines is None:
        drawn = bar._lines(width, height, style, RichStyle())
        lines = _DRAWN[key] = [
            Strip([Segment(text, cell and cell.clear_meta_and_links()) for text, cell, _ in line])
            for line in drawn
        ]
    return lines


def drawn_as_now(bar: ScrollBar) -> bool:
    """The scrollbar was last drawn as it would be drawn now (a repaint shows the same cells)."""
    last = _LAST.get(bar)
    if last is None:
        return False
    visual = bar.render()
    if not isinstance(visual, ScrollBarLines):
        return False
    width, height = bar.size
    return visual.key(width, height, bar.visual_style) == last


def install() -> None:
    """Draw every scrollbar with `ScrollBarLines` (Textual's documented class attribute)."""
    ScrollBar.renderer = ScrollBarLines
