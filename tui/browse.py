"""`assay browse`: one revision, no reports, in the browse screen."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from textual.app import App

from evidence.revision import Revision
from screens.browse import BrowseScreen
from screens.themes import DARK, save_theme, theme_file, use_assay_themes
from tui.interrupt import InterruptQuit
from tui.terminal import exit_when_terminal_gone


class BrowseApp(InterruptQuit, App[None]):
    """`assay browse`: one revision, no reports."""

    TITLE = "assay browse"
    CSS_PATH = Path(__file__).with_name("app.tcss")  # the review app's: toasts, background

    def __init__(
        self,
        revision: Revision,
        *,
        path: str | None = None,
        line: int | None = None,
        keys: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__()
        use_assay_themes(self, DARK, theme_file())
        self.revision = revision
        self._start = (path, line)
        self._keys = keys

    def on_mount(self) -> None:
        exit_when_terminal_gone(self)
        self.theme_changed_signal.subscribe(
            self, lambda theme: save_theme(theme_file(), theme.name)
        )
        if self._keys:
            self.set_keymap(dict(self._keys))
        path, line = self._start
        self.push_screen(BrowseScreen(self.revision, path=path, line=line))
