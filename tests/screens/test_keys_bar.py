"""The review screen's key bar: the screen's shown keys in one line; a click presses the key."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from keymaps import Keymap, load_keymap
from screens.review.screen import ReviewScreen
from screens.widgets.footer import KeysBar
from tui.app import AssayApp
from tui.factory import make_demo_app

SIZE = (120, 40)


async def test_keys_bar_shows_the_keymap_and_a_click_presses_the_key(
    tmp_path: Path, sample: Path, keymap: Keymap
) -> None:
    app = make_demo_app(tmp_path, reviewer="k", keymap=keymap)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await screen.settle()
        await pilot.pause()
        bar = screen.query_one(KeysBar)
        text = str(bar.render())
        assert text.startswith(" n Next record  ] Next quote  c Confirm")
        assert text.rstrip().endswith("▏ ctrl+p palette") and len(text) == SIZE[0]
        start = screen.location.record
        first, end, key = bar._spans[0]
        assert key == "n"
        await pilot.click(KeysBar, offset=(first + 1, 0))
        await screen.settle()
        await pilot.pause()
        assert screen.location.record == start + 1
    app.close()


def with_keymap(tmp_path: Path, text: str) -> AssayApp:
    """The demo app with a user keymap.toml of ``text``."""
    user_file = tmp_path / "keymap.toml"
    user_file.write_text(text, encoding="utf-8")
    return make_demo_app(tmp_path, reviewer="v", keymap=load_keymap(user_file=user_file))


async def settled(pilot: Pilot[None]) -> ReviewScreen:
    screen = pilot.app.screen
    assert isinstance(screen, ReviewScreen)
    await screen.settle()
    await pilot.pause()
    return screen


async def test_keys_bar_shows_the_reviewers_own_keys(tmp_path: Path, sample: Path) -> None:
    app = with_keymap(tmp_path, 'next_record = "ctrl+n"\n')
    async with app.run_test(size=SIZE) as pilot:
        screen = await settled(pilot)
        assert str(screen.query_one(KeysBar).render()).startswith(" ctrl+n Next record ")
    app.close()


async def test_a_key_written_as_its_character_runs_and_shows(tmp_path: Path, sample: Path) -> None:
    # keymap.toml says "!": the key whose event Textual names exclamation_mark
    app = with_keymap(tmp_path, 'next_record = "!"\n')
    async with app.run_test(size=SIZE) as pilot:
        screen = await settled(pilot)
        assert str(screen.query_one(KeysBar).render()).startswith(" ! Next record ")
        start = screen.location.record
        await pilot.press("exclamation_mark")
        await screen.settle()
        await pilot.pause()
        assert screen.location.record == start + 1
    app.close()
