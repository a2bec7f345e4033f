"""Dialogs draw the tinted screen beneath them as Textual's modal screens do, draw it again when it
changes, and only then (screens/dialog.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rendered import Cell, screen_cells
from rich.console import Console, ConsoleOptions
from screenkit import opened, press, wait_until, watch_notices
from textual import messages
from textual.app import App, ComposeResult
from textual.command import CommandPalette
from textual.containers import Vertical
from textual.content import Content
from textual.renderables.background_screen import BackgroundScreen
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Label, OptionList, Static

from keymaps import load_keymap
from screens.dialog import Dialog, relabel
from screens.grep import GrepScreen
from screens.palette import Palette
from screens.widgets.dialog_lines import DialogLines
from screens.widgets.footer import KeysBar
from tui.app import AssayApp
from tui.factory import make_demo_app

CSS = """
Asked { align: center middle; background: $background 60%; }
Asked Vertical { width: 30; height: auto; border: round $accent; background: $surface; }
"""
#: styled text, a link and a click action beneath the dialog (Textual clears links and meta)
BENEATH = (
    "[b]bold[/b] [i red on blue]red on blue[/] [link='https://example.org']a link[/link]"
    " [@click=app.bell]a click[/] plain"
)


class Plain(ModalScreen[None]):
    """Textual's own modal screen, for comparison (with the lines a dialog adds)."""

    DEFAULT_CSS = CSS.replace("Asked", "Plain")

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Input("an answer")
            yield Label("a question")
        yield DialogLines(Content("typing → this dialog"))


class Asked(Dialog[None]):
    DEFAULT_CSS = CSS

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Input("an answer")
            yield Label("a question")


class Beneath(App[object]):
    def compose(self) -> ComposeResult:
        for n in range(12):
            yield Static(f"{n} {BENEATH}", id=f"line-{n}")


async def test_a_dialog_draws_the_screen_beneath_as_a_modal_screen_does() -> None:
    app = Beneath()
    async with app.run_test(size=(90, 16)) as pilot:
        await app.push_screen(Plain())
        await pilot.pause()
        textual = screen_cells(app)
        app.pop_screen()
        await pilot.pause()
        await app.push_screen(Asked())
        await pilot.pause()
        asked = screen_cells(app)
        assert asked == textual
        assert textual[0, 0].char == "0"  # (the screen beneath is there to compare)
        # the last lines are the dialog's own (DialogLines), not the screen beneath's
        rows = ["".join(asked[x, y].char for x in range(90) if (x, y) in asked) for y in range(16)]
        assert "typing→thisdialog" in rows[-3:], rows  # (the cells hold no spaces)


async def test_a_change_beneath_an_open_dialog_shows_through_it() -> None:
    app = Beneath()
    async with app.run_test(size=(90, 16)) as pilot:
        await app.push_screen(Asked())
        await pilot.pause()
        before = screen_cells(app)
        app.query_one("#line-0", Static).update("changed while the dialog is open")
        await pilot.pause()
        await app.screen.wait_for_refresh()
        after = screen_cells(app)
        assert "".join(after[x, 0].char for x in range(7) if (x, 0) in after) == "changed"
        assert after[0, 0].fg == before[0, 0].fg  # tinted as before
        assert after[0, 1] == before[0, 1]


async def test_the_screen_beneath_is_drawn_fewer_times_than_under_a_modal_screen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    draws: list[object] = []
    draw = BackgroundScreen.__rich_console__

    def counted(self: BackgroundScreen, console: Console, options: ConsoleOptions) -> Any:
        draws.append(self)
        return draw(self, console, options)

    monkeypatch.setattr(BackgroundScreen, "__rich_console__", counted)
    app = Beneath()
    async with app.run_test(size=(90, 16)) as pilot:
        await pilot.pause()
        for _ in range(3):
            opened = {}
            for dialog in (Plain, Asked):
                draws.clear()
                await app.push_screen(dialog())
                await pilot.pause()
                await app.screen.wait_for_refresh()
                assert isinstance(app.screen, dialog)
                opened[dialog] = len(draws)
                app.pop_screen()
                await pilot.pause()
            # a modal screen draws it for its layout, its first resize and its widgets mounting;
            # a dialog once (twice when the screen beneath refreshes as it is covered)
            assert 1 <= opened[Asked] <= 2
            assert opened[Asked] < opened[Plain]


class Reviewed(Screen[None]):
    def compose(self) -> ComposeResult:
        for n in range(20):
            yield Static(f"{n} {BENEATH}")


class PlainPalette(ModalScreen[None]):
    """Textual's own modal screen with the palette's backdrop, for comparison."""

    CSS = "PlainPalette { background: $background 60%; align: center middle; }"

    def compose(self) -> ComposeResult:
        yield Label("a command")


async def test_the_command_palette_draws_the_screen_beneath_as_a_modal_screen_does() -> None:
    app = AssayApp(Reviewed)
    async with app.run_test(size=(90, 20)) as pilot:
        await pilot.pause()
        drawn: dict[type[Screen[Any]], dict[tuple[int, int], Cell]] = {}
        for palette in (PlainPalette, Palette):
            if palette is PlainPalette:
                await app.push_screen(PlainPalette())
            else:
                await pilot.press("ctrl+p")
            await pilot.pause()
            await app.screen.wait_for_refresh()
            assert type(app.screen) is palette
            cells = screen_cells(app)
            # the rows above the palette's box: the screen beneath only
            drawn[palette] = {xy: cell for xy, cell in cells.items() if xy[1] < 2}
            app.pop_screen()
            await pilot.pause()
        assert drawn[Palette] == drawn[PlainPalette]
        assert drawn[Palette][0, 0].char == "0"  # (the screen beneath is there to compare)


async def test_a_change_beneath_two_dialogs_shows_when_the_top_one_closes() -> None:
    app = Beneath()
    async with app.run_test(size=(90, 16)) as pilot:
        await app.push_screen(Asked())
        await app.push_screen(Asked())
        await pilot.pause()
        app.query_one("#line-0", Static).update("changed under two dialogs")
        await pilot.pause()
        app.pop_screen()
        await pilot.pause()
        await app.screen.wait_for_refresh()
        cells = screen_cells(app)
        assert "".join(cells[x, 0].char for x in range(7) if (x, 0) in cells) == "changed"


class Told(Dialog[None]):
    """A dialog with a line of status the width of its box (as grep's, go to line's)."""

    DEFAULT_CSS = CSS.replace("Asked", "Told") + "Told Label { width: 100%; }"
    layouts = 0

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Input("an answer")
            yield Label("a status")

    def on_layout(self, message: messages.Layout) -> None:
        self.layouts += 1


@pytest.mark.parametrize("text", ["another status", "a status too long for one line of its box"])
async def test_a_dialog_line_told_a_text_that_fits_is_drawn_without_a_layout(text: str) -> None:
    app = Beneath()
    async with app.run_test(size=(90, 16)) as pilot:
        dialog = Told()
        await app.push_screen(dialog)
        await pilot.pause()
        await dialog.wait_for_refresh()
        label = dialog.query_one(Label)
        before = dialog.layouts
        relabel(label, Content(text))
        await pilot.pause()
        await dialog.wait_for_refresh()
        shown = "".join(cell.char for cell in screen_cells(app).values())
        fits = len(text) <= label.content_region.width
        # a text that fits is drawn in place; a longer one lays the dialog out (it wraps)
        assert (dialog.layouts - before > 0) is not fits
        assert label.size.height == (1 if fits else 2)
        assert text.split()[-1] in shown


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_each_dialog_says_what_its_keys_act_on_not_the_review(
    tmp_path: Path, sample: Path, size: tuple[int, int]
) -> None:
    # beneath, the review's lines say `c` confirms; in a dialog `c` types or does nothing
    app = make_demo_app(tmp_path, reviewer="d", keymap=load_keymap(user=False))
    notices = watch_notices(app)
    async with app.run_test(size=size) as pilot:
        screen = await opened(pilot, app)
        said = {}
        for key in ("slash", "o", "question_mark", "ctrl+g", "ctrl+p", "e"):
            await press(pilot, screen, key)
            dialog = app.screen
            assert isinstance(dialog, Dialog), key
            lines = dialog.query_one(DialogLines)
            assert lines.region.y == size[1] - 2 and lines.region.height == 2, key
            status = str(dialog.query_one(".dialog-status", Static).render())
            keys = str(dialog.query_one(KeysBar).render())
            assert "esc " in keys, (key, keys)  # the way out
            assert "Confirm" not in keys and "verdict keys" not in status, (key, status)
            said[key] = status
            await press(pilot, screen, "escape")
            assert app.screen is screen, key
        assert said["slash"] == "typing → Find records, quotes and files"
        assert said["question_mark"] == "keys → this list of keys"
        assert said["e"].startswith("typing → Note on record ")
        # with the presets every dialog's own action has a key that reaches it
        assert not [n for n in notices if "has no key here" in str(n.message)]
        # a question over the note editor says which one
        await press(pilot, screen, "e")
        await pilot.press("x")
        await press(pilot, screen, "escape")
        question = app.screen
        assert isinstance(question, Dialog)
        status = str(question.query_one(".dialog-status", Static).render())
        assert status == "keys → Discard the changes to this note?", status
    app.close()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_textuals_own_palette_says_what_its_keys_act_on_not_the_review(
    tmp_path: Path, sample: Path, size: tuple[int, int]
) -> None:
    # the palette's "Theme" opens Textual's theme picker: the review's lines beneath it went on
    # saying `c` confirms, while `c` typed into the picker's search
    app = make_demo_app(tmp_path, reviewer="d", keymap=load_keymap(user=False))
    async with app.run_test(size=size) as pilot:
        screen = await opened(pilot, app)
        await press(pilot, screen, "ctrl+p", *"theme", "enter")
        await wait_until(
            pilot,
            lambda: isinstance(app.screen, CommandPalette) and bool(app.screen.query(DialogLines)),
            "the theme picker's own lines",
        )
        picker = app.screen
        lines = picker.query_one(DialogLines)
        assert lines.region.y == size[1] - 2 and lines.region.height == 2
        status = str(picker.query_one(".dialog-status", Static).render())
        keys = str(picker.query_one(KeysBar).render())
        assert status == "typing → Themes", status
        assert "esc Close" in keys and "Confirm" not in keys, keys  # as every dialog says
        await press(pilot, screen, "escape")
        assert app.screen is screen
    app.close()


async def test_a_dialog_s_status_follows_its_focus(tmp_path: Path, sample: Path) -> None:
    # grep's results take the focus on `down`: the status went on saying "typing →" though
    # typing no longer went to the pattern
    app = make_demo_app(tmp_path, reviewer="d", keymap=load_keymap(user=False))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, app)
        await press(pilot, screen, "ctrl+g")
        dialog = app.screen
        assert isinstance(dialog, GrepScreen)

        def status() -> str:
            return str(dialog.query_one(".dialog-status", Static).render())

        await pilot.press(*"token", "enter")
        for _ in range(100):
            await pilot.pause()
            if dialog.hits and not dialog.running:
                break
        assert dialog.hits and status().startswith("typing → Grep at "), status()
        await pilot.press("down")
        await pilot.pause()
        assert isinstance(dialog.focused, OptionList)
        assert status().startswith("keys → Grep at "), status()
        await pilot.press("shift+tab")
        await pilot.pause()
        assert isinstance(dialog.focused, Input)
        assert status().startswith("typing → Grep at "), status()
    app.close()


async def test_a_dialog_says_which_action_a_field_s_own_key_takes(
    tmp_path: Path, sample: Path
) -> None:
    # the editor deletes a word on ctrl+w: a note saved on ctrl+w only would never be saved
    user_file = tmp_path / "keymap.toml"
    user_file.write_text('note_save = "ctrl+w"\n', encoding="utf-8")
    app = make_demo_app(tmp_path, reviewer="d", keymap=load_keymap(user_file=user_file))
    notices = watch_notices(app)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, app)
        await press(pilot, screen, "e")
        await pilot.pause()
        said = [str(n.message) for n in notices if "has no key here" in str(n.message)]
        assert said == [
            "Save note has no key here: ctrl+w is the field's own."
            " Give note_save another key in keymap.toml"
        ], said
    app.close()


async def test_a_key_not_offered_now_is_not_said_to_lack_a_key(
    tmp_path: Path, sample: Path
) -> None:
    # nothing stale: clearing a stale verdict is not offered, which is no keymap's fault
    app = make_demo_app(tmp_path, reviewer="d", keymap=load_keymap(user=False))
    notices = watch_notices(app)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, app)
        await press(pilot, screen, "w")
        await pilot.pause()
        assert not [str(n.message) for n in notices if "has no key here" in str(n.message)]
    app.close()
