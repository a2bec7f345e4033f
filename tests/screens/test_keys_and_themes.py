"""Issue 14, point 9: keys in their short form everywhere, the vim preset's G, gg, ctrl+d and
ctrl+u, text that meets WCAG AA in both themes, and fuzzy find listing a record above the
annotations that merely name it."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.color import Color
from textual.theme import Theme

from keymaps import SPECS, load_keymap, short_key
from screens.find import FindTarget, rank
from screens.help import help_content
from screens.review.history import Location
from screens.review.screen import ReviewScreen
from screens.themes import DARK, LIGHT, THEMES
from screens.widgets.footer import KeysBar
from tui.factory import make_demo_app

SIZE = (120, 40)


def test_short_keys() -> None:
    assert short_key("ctrl+right_square_bracket") == "ctrl+]"
    assert short_key("right_square_bracket") == "]"
    assert short_key("slash") == "/"
    assert short_key("enter") == "⏎"
    assert short_key("G") == "G"


@pytest.mark.parametrize("preset", ["default", "vim"])
def test_help_shows_short_keys_apart_from_their_description(preset: str) -> None:
    keymap = load_keymap(preset, user=False)
    text = help_content(keymap).plain
    assert "right_square_bracket" not in text and "question_mark" not in text
    for line in text.splitlines():
        if line.startswith("  ") and "[" in line:
            keys, _, rest = line[2:].partition("  ")
            assert keys and rest.strip(), line  # two spaces at least between keys and words
    if preset == "vim":
        assert "⏎ / ctrl+]  " in text
        follow = next(line for line in text.splitlines() if "[follow]" in line)
        assert "ctrl+]Follow" not in follow


async def test_footer_and_palette_use_short_keys(tmp_path: Path) -> None:
    app = make_demo_app(tmp_path, reviewer="k", keymap=load_keymap("vim", user=False))
    async with app.run_test(size=SIZE) as pilot:
        screen = next(s for s in app.screen_stack if isinstance(s, ReviewScreen))
        await screen.settle()
        await pilot.pause()
        bar = str(screen.query_one(KeysBar).render())
        assert "ctrl+p palette" in bar and "^" not in bar
        helps = [command.help for command in screen.palette_commands()]
        assert any("ctrl+]" in each for each in helps)
        assert not any("right_square_bracket" in each for each in helps)
    app.close()


async def test_vim_top_bottom_and_half_pages(tmp_path: Path) -> None:
    app = make_demo_app(tmp_path, reviewer="k", keymap=load_keymap("vim", user=False))
    async with app.run_test(size=(120, 30)) as pilot:
        screen = next(s for s in app.screen_stack if isinstance(s, ReviewScreen))
        await screen.settle()
        await pilot.pause()
        records = screen.records_pane
        records.focus()
        await pilot.pause()
        first = records.highlighted
        await pilot.press("G")
        await pilot.pause()
        last = records.highlighted
        assert last is not None and first is not None and last > first
        assert last == records.row_count - 1  # the last row is a record
        await pilot.press("g")  # one g: nothing yet
        await pilot.pause()
        assert records.highlighted == last
        await pilot.press("g")
        await pilot.pause()
        assert records.highlighted == first
        await pilot.press("ctrl+d")
        await pilot.pause()
        down = records.highlighted
        assert down is not None and down > first
        await pilot.press("ctrl+u")
        await pilot.pause()
        assert records.highlighted is not None and records.highlighted < down
        # in the source pane G goes to the last line
        index = next(
            n for n, r in enumerate(screen.session.records) if r.id == "KS-RTE-ticket-escalation"
        )
        screen.go(Location(index, 0))
        await screen.settle()
        for _ in range(100):
            await pilot.pause()
            if screen.sources.shown == screen.sources.request and screen.source_view.line_count:
                break
        screen.source_view.focus()
        await pilot.press("G")
        await pilot.pause()
        view = screen.source_view
        assert view.line_count > 10 and view.cursor_line == view.line_count
        await pilot.press("g", "g")
        await pilot.pause()
        assert view.cursor_line == 1
    app.close()


def test_vim_preset_binds_the_new_ids() -> None:
    vim = load_keymap("vim", user=False)
    assert vim.keys_for("to_top_twice") == ("g",)
    assert "G" in vim.keys_for("to_bottom")
    assert vim.keys_for("half_page_down") == ("ctrl+d",)
    assert vim.keys_for("half_page_up") == ("ctrl+u",)
    assert {spec.id for spec in SPECS} >= {"to_top", "to_bottom", "half_page_down"}


# --- contrast --------------------------------------------------------------------------------

TEXT = (
    "foreground",
    "text",
    "text-muted",
    "text-primary",
    "text-secondary",
    "text-accent",
    "text-warning",
    "text-error",
    "text-success",
)
BACKGROUNDS = ("background", "surface", "panel")


def luminance(color: Color) -> float:
    """WCAG 2 relative luminance."""

    def channel(value: int) -> float:
        v = value / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(color.r) + 0.7152 * channel(color.g) + 0.0722 * channel(color.b)


def contrast(first: Color, second: Color) -> float:
    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def resolved(value: str, background: Color) -> Color:
    """A theme colour as painted on a background: ``auto 60%`` and alpha blended."""
    if value.startswith("auto"):
        parts = value.split()
        alpha = float(parts[1].rstrip("%")) / 100 if len(parts) > 1 else 1.0
        return background + background.get_contrast_text(alpha)
    return background + Color.parse(value)


@pytest.mark.parametrize("theme", THEMES, ids=lambda theme: theme.name)
def test_text_meets_wcag_aa_in_both_themes(theme: Theme) -> None:
    colors = theme.to_color_system().generate()
    low = []
    for back in (*BACKGROUNDS, "footer-background"):
        background = Color.parse(colors[back])
        for text in TEXT:
            ratio = contrast(resolved(colors[text], background), background)
            if ratio < 4.5:
                low.append(f"{text} on {back}: {ratio:.2f}")
    footer = Color.parse(colors["footer-background"])
    for text in ("footer-key-foreground", "footer-description-foreground"):
        ratio = contrast(resolved(colors[text], footer), footer)
        if ratio < 4.5:
            low.append(f"{text}: {ratio:.2f}")
    assert low == []
    # unfocused pane borders stay visible (WCAG 1.4.11, non-text: 3:1)
    background = Color.parse(colors["background"])
    assert contrast(Color.parse(colors["border-blurred"]), background) >= 3.0
    assert {theme.name for theme in THEMES} == {DARK, LIGHT}


async def test_ctrl_t_switches_between_assay_themes(tmp_path: Path) -> None:
    app = make_demo_app(tmp_path, reviewer="k", keymap=load_keymap(user=False))
    async with app.run_test(size=SIZE) as pilot:
        assert app.theme == DARK
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert app.theme == LIGHT
    app.close()


# --- fuzzy find ------------------------------------------------------------------------------


def test_a_record_comes_before_the_annotations_that_name_it() -> None:
    annotation = FindTarget(
        "record",
        "On RT-RTE-chat-tools",
        "On RT-RTE-chat-tools On RT-RTE-chat-tools",
        0,
    )
    record = FindTarget(
        "record",
        "RT-RTE-chat-tools",
        "RT-RTE-chat-tools The chat route runs the tools the model asks for, with the user's "
        "token and without a second check",
        1,
    )
    assert rank("RT-RTE-chat-tools", [annotation, record])[0] is record
    assert rank("chat-tools", [annotation, record])[0] is record
