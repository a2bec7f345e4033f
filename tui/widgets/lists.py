"""OptionList for the review panes, with its component styles cached between style updates."""

from __future__ import annotations

from textual import events
from textual.css.styles import RenderStyles
from textual.geometry import Region
from textual.reactive import reactive
from textual.strip import Strip
from textual.widgets import OptionList


class PaneList(OptionList):
    """An OptionList that looks up each component style once per style update.

    OptionList asks for its option padding on every rendered line; building a RenderStyles each
    time was the largest single cost of moving to the next record. Moving the highlight redraws
    only the rows of the options it left and reached, not the whole pane.

    OptionList drops every rendered option on each Resize event, though only a change of width
    changes how options render; the first Resize arrives just after the first frame, so every
    pane was rendered twice before the app settled. Here a Resize that keeps the width the
    options were rendered at keeps them.
    """

    highlighted: reactive[int | None] = reactive(None, repaint=False)

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self._component_cache: dict[tuple[str, ...], RenderStyles] = {}
        self._rendered_width: int | None = None  # content width of the last render

    def render_lines(self, crop: Region) -> list[Strip]:
        self._rendered_width = self.scrollable_content_region.width
        return super().render_lines(crop)

    def _on_resize(self, event: events.Resize) -> None:
        if self.scrollable_content_region.width == self._rendered_width:
            event.prevent_default()  # OptionList's handler would drop the rendered options

    def get_component_styles(self, *names: str) -> RenderStyles:
        styles = self._component_cache.get(names)
        if styles is None:
            styles = self._component_cache[names] = super().get_component_styles(*names)
        return styles

    def notify_style_update(self) -> None:
        self._component_cache.clear()
        super().notify_style_update()

    def on_focus(self) -> None:
        self._component_cache.clear()  # :focus styles apply now

    def on_blur(self) -> None:
        self._component_cache.clear()

    def _watch_highlighted(self, old: int | None, new: int | None) -> None:
        self._update_lines()
        for index in (old, new):
            if index is None:
                continue
            line = self._index_to_line.get(index)
            if line is None:
                self.refresh()
                return
            self.refresh_lines(line, self._heights.get(index, 1))
