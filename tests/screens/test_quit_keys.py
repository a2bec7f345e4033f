"""Quitting: ctrl+c in the app (the first press says how to quit, a second one quits with 130),
and reads that finish while the app quits."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from screenkit import watch_notices

from keymaps import load_keymap
from screens.review.loading import StoredState
from screens.review.messages import AnchorProgress, Written
from screens.review.screen import ReviewScreen
from tui.factory import make_demo_app
from tui.interrupt import INTERRUPTED


async def test_a_second_ctrl_c_quits_with_130(tmp_path: Path, sample: Path) -> None:
    app = make_demo_app(tmp_path, reviewer="c", keymap=load_keymap(user=False))
    seen = watch_notices(app)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app.is_running and app.return_code is None
        assert [notice.message for notice in seen] == ["Press ctrl+c again to quit"]
        await pilot.press("ctrl+c")
        await pilot.pause()
    app.close()
    assert app.return_code == INTERRUPTED


@pytest.mark.parametrize("late", ["verdicts read", "anchoring progress"])
async def test_reads_arriving_while_the_app_quits_draw_nothing(
    tmp_path: Path, sample: Path, late: str
) -> None:
    """A read that finishes as the reviewer quits reaches its part after the panes it would
    draw are gone (the header here): it is dropped, no traceback."""
    app = make_demo_app(tmp_path, reviewer="c", keymap=load_keymap(user=False))
    async with app.run_test(size=(120, 40)):
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await screen.settle()
        arrivals = screen.arrivals

        async def busy() -> None:  # the part is busy while the screen is taken down
            await asyncio.sleep(0.2)

        arrivals.call_later(busy)
        if late == "verdicts read":
            arrivals.post_message(Written(None, StoredState({}, None, []), None))
        else:
            arrivals.post_message(AnchorProgress(1, 2))
        app.exit()
    app.close()
    assert app.return_code == 0
