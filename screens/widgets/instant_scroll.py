"""A scrolling container whose keys move it at once.

Textual's containers animate home, end and the page keys (up to a second of movement, which the
next key waits on in a test and a reviewer sees as lag); the review's panes never animate a key.
"""

from __future__ import annotations

from textual.containers import VerticalScroll


class InstantScroll(VerticalScroll):
    """VerticalScroll whose key actions scroll without animation."""

    def action_scroll_home(self) -> None:
        self.scroll_home(animate=False, immediate=True)

    def action_scroll_end(self) -> None:
        self.scroll_end(animate=False, immediate=True)

    def action_page_down(self) -> None:
        page = self.scrollable_content_region.height
        self.scroll_relative(y=page, animate=False, immediate=True)

    def action_page_up(self) -> None:
        page = self.scrollable_content_region.height
        self.scroll_relative(y=-page, animate=False, immediate=True)

    def action_scroll_down(self) -> None:
        self.scroll_down(animate=False, immediate=True)

    def action_scroll_up(self) -> None:
        self.scroll_up(animate=False, immediate=True)
