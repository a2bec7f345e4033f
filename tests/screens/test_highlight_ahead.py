"""The record `n` leads to has its source's lines on screen highlighted ahead (once the record
shown is painted), so its first frame draws them in colour, not plain and then in colour."""

from __future__ import annotations

from pathlib import Path

from screenkit import reviewing

from keymaps import Keymap
from screens.review.screen import ReviewScreen
from tui.factory import make_demo_app


def shown_highlighted(screen: ReviewScreen) -> bool:
    view = screen.source_view
    top = int(view.scroll_y)
    last = min(view.line_count, top + view.scrollable_content_region.height)
    return all(view.is_highlighted(line + 1) for line in range(top, last))


async def test_the_next_records_source_is_highlighted_in_its_first_frame(
    tmp_path: Path, sample: Path, keymap: Keymap
) -> None:
    app = make_demo_app(tmp_path, reviewer="t", keymap=keymap)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = reviewing(app)
        await screen.settle()
        await pilot.pause()
        records = screen.session.records
        seen: list[bool] = []
        for _ in range(12):
            await pilot.pause(0.05)  # the record shown is painted: the next one is prepared
            await app.workers.wait_for_complete()
            await pilot.pause()
            before = screen.source_view.path
            await screen.run_action("move('record', 1)")
            # at once, before any frame: the window highlighting that follows a frame (of a file
            # not seen before) has not started
            quote = records[screen.location.record].quotes
            if quote and screen.source_view.line_count and screen.source_view.path != before:
                seen.append(shown_highlighted(screen))
        assert len(seen) >= 6
        assert all(seen)


async def test_k_in_the_records_list_prepares_the_record_above(
    tmp_path: Path, sample: Path, keymap: Keymap
) -> None:
    """`k` leads up the list: the record prepared after its frame is the one above, as after `p`
    (it was the one below, the way `n` had gone last, so that every `k` was drawn unprepared)."""
    app = make_demo_app(tmp_path, reviewer="t", keymap=keymap)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = reviewing(app)
        await screen.settle()
        await screen.run_action("move('record', 1)")  # `n`: the last step was down
        await screen.run_action("move('record', 1)")
        screen.records_pane.focus()
        await pilot.pause()
        await screen.run_action("motion('line', -1)")  # `k`
        assert screen.moves.direction == -1
        await screen.run_action("motion('line', 1)")  # `j`
        assert screen.moves.direction == 1
