"""Issue 23: source lines longer than the pane are read by keys (sideways, the line numbers and
marks staying), and the quote/source diff shows the quote, the source and what differs on a
small terminal (over the source there, `D` puts it below or over at any size)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot

from keymaps import load_keymap
from screens.help import help_content
from screens.review.history import Location
from screens.review.screen import ReviewScreen
from tui.factory import make_demo_app

SIZES = [(120, 40), (80, 24)]


def diff_shown(screen: ReviewScreen) -> str:
    """The lines of the diff that fit in its pane (not scrolled)."""
    pane, text = screen.query_one("#diff"), screen.query_one("#diff-text")
    lines = [strip.text for strip in text.render_lines(text.region.reset_offset)]
    return "\n".join(lines[: pane.scrollable_content_region.height])


async def at_quote(pilot: Pilot[Any], app: App[Any], record_id: str, quote: int) -> ReviewScreen:
    screen = next(s for s in app.screen_stack if isinstance(s, ReviewScreen))
    await screen.settle()
    index = next(n for n, r in enumerate(screen.session.records) if r.id == record_id)
    screen.go(Location(index, quote), on_quote=True)
    await screen.settle()
    for _ in range(100):
        await pilot.pause()
        if screen.sources.shown == screen.sources.request and screen.source_view.line_count:
            break
    # and until the view has stopped scrolling to the quote (a loaded machine takes frames)
    view, last = screen.source_view, (-1.0, -1.0)
    for _ in range(100):
        now = (view.scroll_x, view.scroll_y)
        if now == last:
            break
        last = now
        await pilot.pause(0.02)
    return screen


@pytest.mark.parametrize("preset", ["default", "vim"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_long_source_lines_scroll_sideways_and_stay_marked(
    tmp_path: Path, sample: Path, size: tuple[int, int], preset: str
) -> None:
    app = make_demo_app(tmp_path, reviewer="w", keymap=load_keymap(preset, user=False))
    async with app.run_test(size=size) as pilot:
        # the registry's rows are longer than the source pane at both sizes
        screen = await at_quote(pilot, app, "KS-OBJ-station-registry", 0)
        view = screen.source_view
        first, _last = view.marks.matched or (0, 0)
        top = int(view.scroll_y)
        assert first and top < first <= top + view.size.height
        mark_row = first - 1 - top
        code_width = view.scrollable_content_region.width - len(str(view.line_count)) - 4
        row = next(
            n
            for n in range(view.scrollable_content_region.height)
            if len(view.display_text(top + n).rstrip()) > code_width
        )
        whole = view.display_text(top + row).rstrip()
        before = view.render_line(row).text
        gutter = len(before) - len(before[len(str(view.line_count)) + 4 :])

        def code(line: str) -> str:
            return line[gutter:].rstrip()

        assert code(before) != whole and whole.startswith(code(before))  # cut at the edge
        view.focus()
        await pilot.press("right")
        await pilot.pause()
        assert view.scroll_x > 0
        after = view.render_line(row).text
        assert whole.find(code(after)) == view.scroll_x  # the columns further right
        assert view.render_line(mark_row).text[:gutter].rstrip().endswith("▐")  # still marked
        for _ in range(10):
            await pilot.press("right")
        await pilot.pause()
        assert view.scroll_x == view.max_scroll_x > 0
        await pilot.press("left")
        await pilot.pause()
        assert 0 < view.scroll_x < view.max_scroll_x
        assert whole.find(code(view.render_line(row).text)) == view.scroll_x
        await pilot.press("0")
        await pilot.pause()
        assert view.scroll_x == 0 and view.render_line(row).text == before
        # another quote's file opens at its first column
        await pilot.press("right")
        await pilot.pause()
        assert view.scroll_x > 0
        screen = await at_quote(pilot, app, "KS-RTE-note-sync", 0)
        assert view.scroll_x == 0
    app.close()


def test_help_lists_the_sideways_keys() -> None:
    for preset in ("default", "vim"):
        text = help_content(load_keymap(preset, user=False)).plain
        for spec_id in ("source_right", "source_left", "source_line_start", "diff_full"):
            assert f"[{spec_id}]" in text
        assert "in the source pane" in text


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_diff_shows_quote_source_and_what_differs(
    tmp_path: Path, sample: Path, size: tuple[int, int]
) -> None:
    app = make_demo_app(tmp_path, reviewer="w", keymap=load_keymap(user=False))
    async with app.run_test(size=size) as pilot:
        screen = await at_quote(pilot, app, "KS-RTE-note-sync", 1)
        view = screen.source_view
        await pilot.press("d")
        await pilot.pause()
        await pilot.pause()
        diff = screen.query_one("#diff")
        shown = diff_shown(screen)
        for part in ("quote   const MAX_ATTEMPTS", "source  const MAX_ATTEMPTS", "after “"):
            assert part in shown, shown
        small = size == (80, 24)
        # small: over the source (the source is hidden); large: below it
        assert view.display is not small
        await pilot.press("D")
        await pilot.pause()
        await pilot.pause()
        assert view.display is small and diff.display
        assert "quote   const MAX_ATTEMPTS" in diff_shown(screen)
        await pilot.press("d")  # hidden, and shown again where D put it
        await pilot.press("d")
        await pilot.pause()
        assert view.display is small
        await pilot.press("d")
        await pilot.pause()
        assert not diff.display and view.display
    app.close()
