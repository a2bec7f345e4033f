"""The lookup keys inside the review app on the sample: finder, backlinks to a record, grep, y."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from screenkit import on_top, reviewing

from evidence.sample import CITED_REVISION
from screens.backlinks import BacklinksScreen
from screens.finder import FileFinder
from screens.grep import GrepScreen
from screens.widgets.source_view import SourceView
from tui.factory import make_demo_app


async def settle(pilot: Any, screen: Any) -> None:
    for _ in range(3):
        await pilot.app.workers.wait_for_complete()
        await screen.settle()
        await pilot.pause()


async def test_review_app_finder_backlinks_permalink_grep(tmp_path: Path) -> None:
    app = make_demo_app(tmp_path, reviewer="tester")
    async with app.run_test(size=(160, 50)) as pilot:
        review = reviewing(app)
        await settle(pilot, review)
        view = review.query_one(SourceView)

        # open a file by a few letters of its name
        await pilot.press("o")
        await settle(pilot, review)
        assert isinstance(app.screen, FileFinder)
        await pilot.press(*"kestickets", "enter")
        await settle(pilot, review)
        assert on_top(app) is review
        assert view.path == "api/kestrel/tickets.py"
        assert view.marks.backlinks  # quoted lines are marked in the gutter

        # the backlinks list, then enter jumps to the record that quotes the file
        await pilot.press("b")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, BacklinksScreen)
        found = [n for n, link in enumerate(dialog.links) if link.found]
        assert len(found) >= 2
        target = dialog.links[found[1]]
        for _ in range(found[1]):
            await pilot.press("down")
        await pilot.press("enter")
        await settle(pilot, review)
        assert on_top(app) is review
        assert review.record is not None and review.record.id == target.record
        assert review.quote == target.quote
        assert view.path == "api/kestrel/tickets.py"
        assert view.marks.matched == target.lines

        # y copies a reference to the quoted lines (the sample has no remote: local form)
        await pilot.press("y")
        await pilot.pause()
        assert target.lines is not None
        first, last = target.lines
        span = f"{first}" if first == last else f"{first}-{last}"
        assert app.clipboard == f"api/kestrel/tickets.py:{span}@{CITED_REVISION}"

        # grep at the revision and open a hit
        await pilot.press("G")
        await pilot.pause()
        grep = app.screen
        assert isinstance(grep, GrepScreen)
        await pilot.press(*"def ", "enter")
        await settle(pilot, review)
        assert grep.count > 0 and not grep.running
        hit = grep.hits[0]
        await pilot.press("f4", "enter")
        await settle(pilot, review)
        assert on_top(app) is review
        assert view.path == hit.path and view.cursor_line == hit.line
