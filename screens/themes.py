"""assay's two themes: Textual's dark and light themes with text colours that meet WCAG AA
(4.5:1) on every background the panes use, and unfocused pane borders that stay visible (3:1).

tests/screens/test_keys_and_themes.py computes the ratios from these colours, and
tests/screens/test_legible.py from what the app draws in each pane.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.theme import BUILTIN_THEMES, Theme

if TYPE_CHECKING:
    from textual.app import App
    from textual.filter import LineFilter

DARK, LIGHT = "assay-dark", "assay-light"
#: the file in the user config directory (beside keymap.toml) that keeps the chosen theme
THEME_FILE_NAME = "theme"

#: Textual derives text colours from the base colours (``text-accent`` is the accent tinted into
#: the contrasting text colour): the light theme's accent, warning and success are darker, the
#: dark theme's secondary lighter, so that the text made from them reads on every background
_DARK_COLOURS = {"secondary": "#2A7AB8"}
_LIGHT_COLOURS = {
    "accent": "#B06400",
    "warning": "#B06400",
    "success": "#24703B",
    "secondary": "#005FB0",
}
#: variables Textual reads from the theme: unfocused borders, the footer's keys, the cursor
#: row of a focused list (the primary colour under light text reads at less than 4.5:1) and
#: scrollbar thumbs, the primary at 80% (dark) and 70% (light) on the track, hovered 90% / 80%
#: (Textual's 40% / 50% read at 1.6:1 and 1.9:1 against the track)
_DARK_VARIABLES = {
    "border-blurred": "#6B7886",
    "block-cursor-background": "#0062B0",
    "scrollbar": "#0060A9",
    "scrollbar-hover": "#006CBE",
}
_LIGHT_VARIABLES = {
    "border-blurred": "#6E6E6E",
    "footer-key-foreground": "#002A8C",
    "text-accent": "#8C2800",
    "text-warning": "#8C2800",
    "text-primary": "#002A8C",
    "text-secondary": "#3A2A8C",
    "scrollbar": "#3C6C90",
    "scrollbar-hover": "#285F88",
}


def _derived(base: str, name: str, colours: dict[str, str], variables: dict[str, str]) -> Theme:
    theme = BUILTIN_THEMES[base]
    return Theme(
        name=name,
        primary=theme.primary,
        secondary=colours.get("secondary", theme.secondary),
        warning=colours.get("warning", theme.warning),
        error=theme.error,
        success=colours.get("success", theme.success),
        accent=colours.get("accent", theme.accent),
        foreground=theme.foreground,
        background=theme.background,
        surface=theme.surface,
        panel=theme.panel,
        boost=theme.boost,
        dark=theme.dark,
        luminosity_spread=theme.luminosity_spread,
        text_alpha=theme.text_alpha,
        variables={**theme.variables, **variables},
    )


THEMES: tuple[Theme, ...] = (
    _derived("textual-dark", DARK, _DARK_COLOURS, _DARK_VARIABLES),
    _derived("textual-light", LIGHT, _LIGHT_COLOURS, _LIGHT_VARIABLES),
)


def other_theme(dark: bool) -> str:
    """The theme `ctrl+t` switches to from a dark (or light) one."""
    return LIGHT if dark else DARK


def theme_file() -> Path:
    """Where the chosen theme is kept: ``theme`` in the user config directory."""
    from platformdirs import user_config_dir

    return Path(user_config_dir("assay")) / THEME_FILE_NAME


def saved_theme(path: Path | None) -> str | None:
    """The theme kept in ``path``, if it holds the name of one of assay's themes."""
    if path is None or not path.is_file():  # a FIFO there would block the launch
        return None
    try:
        name = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return name if name in (DARK, LIGHT) else None


def save_theme(path: Path, name: str) -> None:
    """Keep ``name`` in ``path`` for the next launch (a file that cannot be written: not kept)."""
    if saved_theme(path) == name:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        written = path.with_name(path.name + ".new")
        written.write_text(name + "\n", encoding="utf-8")
        written.replace(path)
    except OSError:
        pass


def use_assay_themes(app: App[Any], theme: str, path: Path | None) -> LineFilter | None:
    """Give ``app`` (not running yet) assay's themes and no other (the palette's theme list too)
    and choose the one kept in ``path``, else ``theme``; the app saves a change with
    `save_theme`.

    Returns the ANSI colour filter to draw with in place of Textual's while the chosen theme is
    the app's, when that theme is not as dark as Textual's default (None: Textual's is right).
    """
    from textual.app import App

    default = app.current_theme  # Textual's, that the app's stylesheet and filters were made for
    for each in THEMES:
        app.register_theme(each)
    for name in list(app.available_themes):
        if name not in (DARK, LIGHT):
            app.unregister_theme(name)
    chosen = saved_theme(path) or theme
    wanted = app.get_theme(chosen)
    # (`Theme.ansi` is newer than textual 8.2.0, whose themes are all truecolor)
    ansi = getattr(wanted, "ansi", False), getattr(default, "ansi", False)
    if wanted is None or ansi[0] != ansi[1]:
        app.theme = chosen
        return None
    # Chosen by its variables: setting `theme` would parse every stylesheet again and restyle
    # every widget once the first screen is up.
    app.set_reactive(App.theme, chosen)
    app.stylesheet.set_variables(app.get_css_variables())
    app.set_class(True, f"-theme-{chosen}", update=False)
    if wanted.dark == default.dark:
        return None
    # Textual set the mode classes and made its ANSI colour filter for its default's darkness
    app.set_class(wanted.dark, "-dark-mode", update=False)
    app.set_class(not wanted.dark, "-light-mode", update=False)
    from textual.filter import ANSIToTruecolor

    return ANSIToTruecolor(app.ansi_theme_dark if wanted.dark else app.ansi_theme_light)
