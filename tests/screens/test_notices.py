"""A notice (Textual's toast, bottom right) is drawn above the status line and the keys bar of
the review and audit screens: what the verdict keys act on stays readable while it shows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rendered import screen_cells
from screenkit import review_screen
from textual.pilot import Pilot

from keymaps import load_keymap
from tui.audit_app import make_demo_audit_app
from tui.factory import make_demo_app

SIZES = [(120, 40), (80, 24)]
NOTICE = "Zanzibar: a notice long enough to reach into the status line"


def row_text(app: Any, row: int, width: int) -> str:
    cells = screen_cells(app)
    return "".join(cells[x, row].char if (x, row) in cells else " " for x in range(width))


async def shown_with_notice(
    pilot: Pilot[Any], width: int, height: int
) -> tuple[tuple[str, str], tuple[str, str]]:
    """The last two rows (status line, keys) drawn before and while a notice shows."""
    app = pilot.app
    before = row_text(app, height - 2, width), row_text(app, height - 1, width)
    app.notify(NOTICE, timeout=30)
    for _ in range(20):  # the toast is drawn a few frames later
        await pilot.pause(0.02)
        if "Zanzibar" in "".join(row_text(app, y, width) for y in range(height)):
            break
    else:
        raise AssertionError("the notice was never drawn")
    return before, (row_text(app, height - 2, width), row_text(app, height - 1, width))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_a_notice_leaves_the_review_status_line_readable(
    tmp_path: Path, sample: Path, size: tuple[int, int]
) -> None:
    app = make_demo_app(tmp_path, reviewer="t", keymap=load_keymap(user=False))
    async with app.run_test(size=size, notifications=True) as pilot:
        screen = review_screen(app)
        await screen.settle()
        await pilot.pause()
        before, during = await shown_with_notice(pilot, *size)
        assert "verdict keys" in before[0]
        assert during == before
    app.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_a_notice_leaves_the_audit_status_line_readable(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = make_demo_audit_app(
        tmp_path, reviewer="t", keymap=load_keymap(user=False), anchor_cache=tmp_path / "a"
    )
    async with app.run_test(size=size, notifications=True) as pilot:
        await app.workers.wait_for_complete()
        for _ in range(3):
            await pilot.pause()
        before, during = await shown_with_notice(pilot, *size)
        assert before[0].strip() and before[1].strip()
        assert during == before
    app.close()
