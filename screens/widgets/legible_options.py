"""An OptionList whose rows read at WCAG AA on whatever they are drawn on.

A dialog's rows colour their parts for the dialog's background (a path in the accent, a line
number in the success colour); on the highlighted row's background, or in the light theme,
those read at 1-3:1. Each line is drawn as Textual draws it, then every coloured part is moved
towards legibility on its own background (screens/contrast.py), as the review's lists do.
"""

from __future__ import annotations

from textual.strip import Strip
from textual.widgets import OptionList

from screens.contrast import legible_strip


class LegibleOptionList(OptionList):
    """OptionList, each coloured part of a line legible on the background it is drawn on."""

    def render_line(self, y: int) -> Strip:
        return legible_strip(super().render_line(y), self.rich_style)
