"""How the review screen's dialogs open: kept by the app and opened again as new ones (the
same cells as a new dialog's, whatever was done in them before), the screen beneath drawn
once, and the command palette listing the actions at once and a record's jump when typed for."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rendered import Cell, screen_cells
from rich.console import Console, ConsoleOptions
from screenkit import on_top, opened, wait_until
from textual.pilot import Pilot
from textual.renderables.background_screen import BackgroundScreen
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input, OptionList

from evidence.revision import Revision
from screens.find import FindScreen
from screens.finder import FileFinder
from screens.goto import GotoLine
from screens.grep import GrepScreen
from screens.help import HelpScreen
from screens.palette import Palette
from screens.review.screen import ReviewScreen
from screens.widgets.source_view import SourceView
from tui.factory import make_demo_app

SIZE = (120, 40)


def palette_prompts(app: Any) -> list[str]:
    palette = on_top(app)
    assert isinstance(palette, Palette)
    options = palette.query_one(OptionList)
    return [str(options.get_option_at_index(n).prompt) for n in range(options.option_count)]


async def listed(pilot: Pilot[Any], wanted: str) -> list[str]:
    """The palette's prompts once one holds ``wanted``."""
    await wait_until(
        pilot, lambda: any(wanted in p for p in palette_prompts(pilot.app)), f"{wanted} listed"
    )
    return palette_prompts(pilot.app)


async def test_the_palette_lists_the_actions_then_finds_a_record_by_typing(tmp_path: Path) -> None:
    app = make_demo_app(tmp_path, reviewer="p")
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, app)
        await pilot.press("ctrl+p")
        before = await listed(pilot, "Confirm")
        assert "Next unreviewed" in "\n".join(before)
        # no record before typing: a list as long as the review would open slowly
        jumps = [f"Go to {record.id}" for record in screen.session.records]
        assert not any(p.startswith(jump) for p in before for jump in jumps), before
        await pilot.press(*"token-check")
        typed = await listed(pilot, "Go to KS-RTE-token-check")
        assert typed[0].startswith("Go to KS-RTE-token-check"), typed
        await pilot.press("enter")
        await wait_until(pilot, lambda: on_top(app) is screen, "the palette closed")
        await screen.settle()
        assert screen.record is not None and screen.record.id == "KS-RTE-token-check"
        # opened again, it lists the actions again, not the last search's records
        await pilot.press("ctrl+p")
        again = await listed(pilot, "Confirm")
        assert not any(p.startswith(jump) for p in again for jump in jumps), again
    app.close()


#: each dialog's key, what is done in it before it closes (text typed, an error, a list moved,
#: toggles), and a new one as the review screen makes it
MESSES: dict[str, tuple[tuple[str, ...], Callable[[ReviewScreen], Screen[Any]]]] = {
    "colon": (
        ("x", "y", "enter"),  # "not a line of this file"
        lambda screen: GotoLine(
            screen.query_one(SourceView).line_count, screen.query_one(SourceView).cursor_line
        ),
    ),
    "slash": (("t", "o", "k", "down", "down"), lambda screen: FindScreen(screen.find_targets())),
    "o": (("s", "t", "a", "down"), lambda screen: FileFinder(revision(screen).paths())),
    "ctrl+g": (
        ("d", "e", "f", "enter", "f2", "f3", "f4", "down"),
        lambda screen: GrepScreen(revision(screen)),
    ),
    "question_mark": (("end",), lambda screen: HelpScreen(screen.keymap)),
    "ctrl+p": (("n", "e", "x", "down"), Palette),
}


def revision(screen: ReviewScreen) -> Revision:
    assert screen.revision is not None
    return screen.revision


async def drawn(pilot: Pilot[Any]) -> dict[tuple[int, int], Cell]:
    """The cells on screen once they stop changing (the finder, find and grep fill their lists
    from workers), the inputs' cursors shown without blinking."""
    app = pilot.app
    for field in app.screen.query(Input):
        field.cursor_blink = False
    before: dict[tuple[int, int], Cell] = {}
    for _ in range(100):
        # the lists' workers done first: two equal frames 50 ms apart under a loaded machine
        # were once both before the finder's list was filled
        await app.workers.wait_for_complete()
        await pilot.pause(0.05)
        await app.screen.wait_for_refresh()
        cells = screen_cells(app)
        text = "".join(cell.char for cell in cells.values())
        if cells == before and "indexing" not in text and "searching" not in text:
            return cells
        before = cells
    raise AssertionError("the screen never settled")


async def close(pilot: Pilot[Any], screen: ReviewScreen) -> None:
    for _ in range(3):  # grep's first escape stops a running search
        await pilot.press("escape")
        await pilot.pause()
        if on_top(pilot.app) is screen:
            return
    raise AssertionError("the dialog did not close")


@pytest.mark.parametrize("key", list(MESSES))
async def test_a_dialog_opened_again_is_as_a_new_one(tmp_path: Path, key: str) -> None:
    messes, made = MESSES[key]
    app = make_demo_app(tmp_path, reviewer="p")
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, app)
        await pilot.press(key)
        await wait_until(pilot, lambda: on_top(app) is not screen, f"{key} opened")
        dialog = on_top(app)
        first = await drawn(pilot)
        # nothing typed, the list moved: opened again as it was
        await pilot.press("down", "down", "pagedown")
        await close(pilot, screen)
        await pilot.press(key)
        await wait_until(pilot, lambda: on_top(app) is not screen, f"{key} opened again")
        assert on_top(app) is dialog
        assert await drawn(pilot) == first
        # typed, moved, toggled and in error: opened again as new
        await pilot.press(*messes)
        assert await drawn(pilot) != first  # (what was done shows)
        await close(pilot, screen)
        await pilot.press(key)
        await wait_until(pilot, lambda: on_top(app) is not screen, f"{key} opened again")
        assert on_top(app) is dialog  # kept, not made again
        assert await drawn(pilot) == first
        await pilot.press(*messes)
        await close(pilot, screen)

        # in the other theme, on another record and file: as a new one made there
        await pilot.press("ctrl+t")
        await opened(pilot, app, "KS-CMP-api-server")
        await pilot.press(key)
        await wait_until(pilot, lambda: on_top(app) is not screen, f"{key} opened a third time")
        assert on_top(app) is dialog
        again = await drawn(pilot)
        await close(pilot, screen)
        app.push_screen(made(screen))
        await wait_until(pilot, lambda: on_top(app) is not screen, "a new one opened")
        assert on_top(app) is not dialog
        assert await drawn(pilot) == again
        assert again != first  # (the theme and the file changed it)
    app.close()


async def test_a_dialog_draws_the_review_screen_beneath_once_as_it_opens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Textual's push_screen asks the covered screen to repaint itself; the review screen skips
    # that repaint (screens.dialog.Covered), which made the dialog draw it a second time
    draws: list[object] = []
    draw = BackgroundScreen.__rich_console__

    def counted(self: BackgroundScreen, console: Console, options: ConsoleOptions) -> Any:
        draws.append(self)
        return draw(self, console, options)

    monkeypatch.setattr(BackgroundScreen, "__rich_console__", counted)
    app = make_demo_app(tmp_path, reviewer="p")
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, app)
        view = screen.query_one(SourceView)
        await wait_until(pilot, lambda: view.is_highlighted(view.cursor_line), "highlighted")
        opened_before: list[Screen[Any]] = []
        for key in ("o", "ctrl+g", "colon") * 3:
            await pilot.pause()
            await screen.wait_for_refresh()
            draws.clear()
            await pilot.press(key)
            await wait_until(pilot, lambda: on_top(app) is not screen, f"{key} opened")
            await drawn(pilot)
            if on_top(app) in opened_before:  # (the first opening reads the dialog's CSS)
                assert len(draws) == 1, key
            opened_before.append(on_top(app))
            await close(pilot, screen)
        # what changes beneath an open dialog still shows through it
        await pilot.press("o")
        await wait_until(pilot, lambda: on_top(app) is not screen, "opened")
        await drawn(pilot)
        draws.clear()
        screen.refresh()
        await drawn(pilot)
        assert len(draws) == 1
    app.close()


async def test_a_dialog_reopened_as_it_was_styled_is_not_styled_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # restyled, every scrollbar in it is refreshed (Textual refreshes a widget's bars whenever
    # their colours are set): a second frame a tick after the dialog's first
    styled: list[object] = []
    notify = Widget.notify_style_update

    def counted(self: Widget) -> None:
        styled.append(self)
        notify(self)

    monkeypatch.setattr(Widget, "notify_style_update", counted)
    app = make_demo_app(tmp_path, reviewer="p")
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, app)
        for key in ("question_mark", "o"):
            await pilot.press(key)
            await wait_until(pilot, lambda: on_top(app) is not screen, f"{key} opened")
            dialog = on_top(app)
            await drawn(pilot)
            await close(pilot, screen)
            for theme_changed in (False, True):
                if theme_changed:
                    await pilot.press("ctrl+t")
                    await pilot.pause()
                styled.clear()
                await pilot.press(key)
                await wait_until(pilot, lambda: on_top(app) is not screen, f"{key} opened again")
                assert on_top(app) is dialog
                await drawn(pilot)
                restyled = [node for node in styled if node in dialog.walk_children()]
                assert bool(restyled) == theme_changed, (key, restyled)
                await close(pilot, screen)
    app.close()


async def test_a_dialog_opened_first_styles_its_own_widgets_only(tmp_path: Path) -> None:
    """A dialog's stylesheet is default CSS (screens/dialog.py, `dialog_css`), added as it first
    opens: the app's widgets are not styled all over again, as a screen's CSS_PATH has Textual
    do (every stylesheet parsed again, every widget of every screen restyled)."""
    app = make_demo_app(tmp_path, reviewer="p")
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, app)
        stylesheet = app.stylesheet
        update = stylesheet.update
        restyled: list[object] = []

        def counted(root: Any, animate: bool = False) -> None:
            restyled.append(root)
            update(root, animate=animate)

        stylesheet.update = counted  # type: ignore[method-assign]
        for key in MESSES:
            await pilot.press(key)
            await wait_until(pilot, lambda: on_top(app) is not screen, f"{key} opened")
            await close(pilot, screen)
        assert restyled == []
    app.close()
