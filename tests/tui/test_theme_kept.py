"""Issue 23: the theme chosen with ctrl+t is kept for the next launch (`theme` in the user config
directory, beside keymap.toml), and the palette offers assay's two themes, not Textual's."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.color import Color as RichColor
from rich.style import Style
from textual.color import Color
from textual.command import CommandPalette
from textual.filter import ANSIToTruecolor
from textual.widgets import OptionList

from screens.themes import DARK, LIGHT, THEME_FILE_NAME, THEMES, theme_file
from tui.commands.review import demo_app
from tui.factory import make_browse_app


async def test_the_chosen_theme_is_kept_across_launches(
    tmp_path: Path, sample: Path, user_config_home: Path
) -> None:
    kept = user_config_home / "assay" / THEME_FILE_NAME
    assert theme_file() == kept
    app = demo_app("k", "default", tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        assert app.theme == DARK and not kept.exists()  # nothing written until one is chosen
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert app.theme == LIGHT
    app.close()
    assert kept.read_text(encoding="utf-8").strip() == LIGHT
    app = demo_app("k", "default", tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.theme == LIGHT
        await pilot.press("ctrl+t")
        await pilot.pause()
    app.close()
    assert kept.read_text(encoding="utf-8").strip() == DARK
    # a kept name that is not one of assay's themes is ignored
    kept.write_text("textual-light\n", encoding="utf-8")
    app = demo_app("k", "default", tmp_path)
    async with app.run_test(size=(80, 24)):
        assert app.theme == DARK
    app.close()


@pytest.mark.parametrize("kept_theme", [None, DARK, LIGHT])
async def test_the_first_frame_is_drawn_in_the_chosen_theme(
    tmp_path: Path, sample: Path, user_config_home: Path, kept_theme: str | None
) -> None:
    # either theme is chosen before the app runs without Textual's theme watcher (it would parse
    # every stylesheet again): its colours, classes, variables and ANSI colours must still be
    # the theme's
    if kept_theme is not None:
        kept = user_config_home / "assay" / THEME_FILE_NAME
        kept.parent.mkdir(parents=True, exist_ok=True)
        kept.write_text(kept_theme + "\n", encoding="utf-8")
    chosen = kept_theme or DARK
    theme = {each.name: each for each in THEMES}[chosen]
    app = demo_app("k", "default", tmp_path)
    reparsed: list[str] = []
    reparse = app.stylesheet.reparse

    def counted() -> None:
        reparsed.append(app.theme)
        reparse()

    app.stylesheet.reparse = counted  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert reparsed == []  # not parsed again for the theme
        assert app.theme == chosen and app.current_theme is theme
        assert app.has_class(f"-theme-{chosen}")
        (ansi,) = [each for each in app.get_line_filters() if isinstance(each, ANSIToTruecolor)]
        terminal = app.ansi_theme_dark if theme.dark else app.ansi_theme_light
        red = ansi.truecolor_style(Style(color="red"), RichColor.parse("black")).color
        assert red is not None and red.triplet == terminal.ansi_colors[1]
        assert app.has_class("-dark-mode") is theme.dark
        assert app.has_class("-light-mode") is not theme.dark
        assert app.theme_variables["border-blurred"] == theme.variables["border-blurred"]
        record = app.screen.query_one("#record")  # not focused: its border is border-blurred
        assert not record.has_focus
        assert record.styles.border_top[1] == Color.parse(theme.variables["border-blurred"])
    app.close()


async def test_the_palette_offers_only_assays_themes_and_keeps_the_one_chosen(
    tmp_path: Path, sample: Path, user_config_home: Path
) -> None:
    app = demo_app("k", "default", tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        assert set(app.available_themes) == {DARK, LIGHT}
        # assay's palette runs Textual's "Theme" command: Textual's own theme picker opens
        await pilot.press("ctrl+p", *"theme")
        await pilot.pause()
        await pilot.press("enter")
        for _ in range(50):
            await pilot.pause()
            palettes = [s for s in app.screen_stack if isinstance(s, CommandPalette)]
            if palettes and palettes[0].query_one(OptionList).option_count:
                break
        options = palettes[0].query_one(OptionList)
        offered = {str(options.get_option_at_index(n).prompt) for n in range(options.option_count)}
        assert offered == {DARK, LIGHT}, offered
        await pilot.press(*"light")
        for _ in range(50):
            await pilot.pause()
            if options.option_count == 1:
                break
        await pilot.press("enter")
        for _ in range(50):
            await pilot.pause()
            if not any(isinstance(s, CommandPalette) for s in app.screen_stack):
                break
        assert app.theme == LIGHT
    app.close()
    kept = user_config_home / "assay" / THEME_FILE_NAME
    assert kept.read_text(encoding="utf-8").strip() == LIGHT


async def test_browse_uses_the_kept_theme(sample: Path, user_config_home: Path) -> None:
    from evidence.revision import Revision

    (user_config_home / "assay").mkdir()
    (user_config_home / "assay" / THEME_FILE_NAME).write_text(LIGHT, encoding="utf-8")
    with Revision.open(sample) as revision:
        app = make_browse_app(revision, theme_file=theme_file())
        async with app.run_test(size=(80, 24)):
            assert app.theme == LIGHT and set(app.available_themes) == {DARK, LIGHT}
