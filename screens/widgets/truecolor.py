"""Widgets drawn only in their theme's truecolours, without Textual's ANSI colour filter.

Textual passes every line a widget draws through `ANSIToTruecolor` (ANSI colours and dim text
turned into the theme's colours), a new copy of each line. The record, the source and the lists
draw a new line for almost every cell at each move, in styles that come from the theme's
variables and the syntax theme's colours: the filter changes none of them, and copying them was
a tenth of a key's frame. tests/screens/test_truecolor_only.py checks that it would change none.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from textual.filter import ANSIToTruecolor, LineFilter

if TYPE_CHECKING:
    from textual.widget import Widget

    MixedInto = Widget
else:
    MixedInto = object  # (Textual inherits CSS along the first base that is a widget)


class TruecolorOnly(MixedInto):
    """Mixed into a widget (before its Textual base) that draws no ANSI colour and no dim
    text: its lines skip the ANSI colour filter; every other filter of the app (no colour,
    dim) still applies."""

    def get_line_filters(self) -> Sequence[LineFilter]:
        return [
            each for each in super().get_line_filters() if not isinstance(each, ANSIToTruecolor)
        ]
