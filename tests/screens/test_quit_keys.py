"""ctrl+c in the app: the first press says how to quit, a second one quits with 130."""

from __future__ import annotations

from pathlib import Path

from screenkit import watch_notices

from keymaps import load_keymap
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
