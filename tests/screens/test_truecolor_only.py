"""The widgets that leave Textual's ANSI colour filter out of their lines (screens/widgets/
truecolor.py) draw nothing it would change, in both themes: no ANSI colour, no dim text."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.segment import Segment
from rich.style import Style
from textual.app import App
from textual.filter import ANSIToTruecolor
from textual.geometry import Region
from textual.pilot import Pilot
from textual.strip import Strip
from textual.widget import Widget

from keymaps import load_keymap
from screens.review.history import Location
from screens.review.screen import ReviewScreen
from screens.themes import DARK, LIGHT
from screens.widgets.truecolor import TruecolorOnly
from tui.factory import make_demo_app


def changed_by_the_filter(app: App[object], widget: Widget, lines: list[Strip]) -> list[str]:
    """The lines of ``widget`` that Textual's ANSI colour filter would draw otherwise."""
    truecolor = ANSIToTruecolor(app.ansi_theme)
    background = widget.background_colors[1]
    changed = []
    for y, line in enumerate(lines):
        segments = [Segment(text, style) for text, style, _control in line]
        if truecolor.apply(segments, background) != segments:
            changed.append(f"{type(widget).__name__} line {y}: {line.text!r}")
    return changed


async def drawn(app: App[object], screen: ReviewScreen, pilot: Pilot[object]) -> list[str]:
    """What the filter would change in the lines of the screen's widgets that skip it, once
    the source lines on screen are highlighted (the lines drawn are those: their blocks follow
    a quarter of a second later, in the same colours)."""
    view = screen.source_view
    for _ in range(200):
        await pilot.pause()
        top = int(view.scroll_y)
        shown = range(top + 1, min(view.line_count, top + view.size.height) + 1)
        if all(view.is_highlighted(line) for line in shown):
            break
    else:
        raise AssertionError("the source shown was never highlighted")
    changed = []
    for widget in screen.query(Widget):
        if isinstance(widget, TruecolorOnly) and widget.region.area:
            width, height = widget.size
            lines = widget.render_lines(Region(0, 0, width, height))
            changed += changed_by_the_filter(app, widget, lines)
    return changed


def test_the_check_sees_an_ansi_colour_and_dim_text() -> None:
    app = App[object]()
    widget = Widget()
    for style in (Style(color="red"), Style(dim=True, color="#808080")):
        line = Strip([Segment("text", style)])
        assert changed_by_the_filter(app, widget, [line]) != []
    assert changed_by_the_filter(app, widget, [Strip([Segment("x", Style(color="#ff0000"))])]) == []


@pytest.mark.parametrize("theme", [DARK, LIGHT])
async def test_no_line_of_the_review_needs_the_ansi_filter(
    tmp_path: Path, sample: Path, theme: str
) -> None:
    app = make_demo_app(tmp_path, reviewer="t", keymap=load_keymap(user=False), theme=theme)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = next(s for s in app.screen_stack if isinstance(s, ReviewScreen))
        await screen.settle()
        kinds: set[str] = set()
        changed: list[str] = []
        for n, record in enumerate(screen.session.records):
            for quote in [None, *range(len(record.quotes))]:
                screen.go(Location(n, quote), on_quote=quote is not None)
                await screen.settle()
                await pilot.pause()
                changed += await drawn(app, screen, pilot)
                kinds |= {
                    type(w).__name__ for w in screen.query(Widget) if isinstance(w, TruecolorOnly)
                }
        # a fuzzy quote's diff, the source focused
        index = next(n for n, r in enumerate(screen.session.records) if r.id == "KS-RTE-note-sync")
        screen.go(Location(index, 1), on_quote=True)
        await screen.settle()
        await pilot.press("d")
        screen.source_view.focus()
        await pilot.pause()
        changed += await drawn(app, screen, pilot)
        kinds |= {type(w).__name__ for w in screen.query(Widget) if isinstance(w, TruecolorOnly)}
        assert changed == []
        assert {
            "RecordPane",
            "RecordsPane",
            "SourceView",
            "QuoteInfo",
            "TargetLine",
            "QuoteDiff",
        } <= kinds
        # the app's other filters (no colour, dim) still apply to them
        assert screen.source_view.get_line_filters() == [
            each for each in app.get_line_filters() if not isinstance(each, ANSIToTruecolor)
        ]
    app.close()
