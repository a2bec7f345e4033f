"""While the app runs, a background thread (lexing, reading, anchoring) gives the GIL back to
the UI within a millisecond, not Python's default five; the process gets its own back after."""

from __future__ import annotations

import sys
from pathlib import Path

from keymaps import load_keymap
from tui.app import UI_SWITCH_INTERVAL
from tui.factory import make_demo_app


async def test_the_app_shortens_the_switch_interval_while_it_runs(tmp_path: Path) -> None:
    before = sys.getswitchinterval()
    assert before != UI_SWITCH_INTERVAL
    app = make_demo_app(tmp_path, reviewer="t", keymap=load_keymap(user=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert sys.getswitchinterval() == UI_SWITCH_INTERVAL
    assert sys.getswitchinterval() == before
