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

from typing import TYPE_CHECKING

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


class ScrollBarLines(ScrollBarRender, Visual):
    """A scrollbar drawn as Textual draws `ScrollBarRender`, as a Visual (no Rich console)."""

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return container_width

    def get_height(self, rules: RulesMap, width: int) -> int:
        return 1

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        given = self.style
        rich_style = given if isinstance(given, RichStyle) else RichStyle.parse(given)
        base = style.rich_style
        key = (
            width,
            height,
            self.virtual_size,
            self.window_size,
            self.position,
            self.vertical,
            rich_style,
            base,
        )
        lines = _DRAWN.get(key)
        if lines is None:
            lines = _DRAWN[key] = self._lines(width, height or 0, rich_style, base)
        return lines

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


def install() -> None:
    """Draw every scrollbar with `ScrollBarLines` (Textual's documented class attribute)."""
    ScrollBar.renderer = ScrollBarLines
