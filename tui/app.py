"""The assay Textual app: wires keymap, theme and the review screen (screens hold the UI)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette
from textual.filter import ANSIToTruecolor, LineFilter
from textual.screen import Screen
from textual.theme import Theme

from keymaps import Keymap, load_keymap, short_key
from screens.dialog import Covered, Dialog, kept
from screens.review.messages import Anchored, ReadsStarted
from screens.safe import visible
from screens.themes import DARK, save_theme, use_assay_themes
from screens.widgets import scrollbars
from tui import startup
from tui.crash import CrashWatch, run_app
from tui.interrupt import InterruptQuit
from tui.terminal import exit_when_terminal_gone

if TYPE_CHECKING:
    from rich.console import RenderableType
    from textual.timer import Timer

#: seconds a background thread (lexing, reading, anchoring) may hold the GIL while the UI
#: waits for it: Python's default is 5 ms, a third of a frame
UI_SWITCH_INTERVAL = 0.001

#: what the reviewer does: while it comes, the collector's older generations wait
INPUT = (events.Key, events.MouseDown, events.MouseScrollDown, events.MouseScrollUp)


class AssayApp(CrashWatch, InterruptQuit, App[None]):
    """The one app shell of review, audit and browse (tui/factory.py, tui/audit_app.py make it):
    runs the screen ``make_screen`` makes, with the keymap, the themes, ctrl+c twice and SIGINT
    (tui/interrupt.py), an exit when the terminal is gone (tui/terminal.py) and a crash file
    (tui/crash.py)."""

    CSS_PATH = Path(__file__).with_name("app.tcss")
    TITLE = "assay"
    ENABLE_COMMAND_PALETTE = True
    #: seconds after the first frame by which a review is taken as loaded for the collector,
    #: whether or not it loaded (`startup.loaded`)
    SETTLED_AFTER = 60.0

    def __init__(
        self,
        make_screen: Callable[[], Screen[None]],
        *,
        keymap: Keymap | None = None,
        theme: str = DARK,
        closers: Iterable[Callable[[], object]] = (),
        screen_css: Sequence[str | Path] = (),
        resume_collector: bool = False,
        theme_file: Path | None = None,
    ) -> None:
        # The screen's CSS files read with the app's: pushing a screen whose CSS is new to the
        # app parses every stylesheet again and restyles every widget.
        super().__init__(css_path=[self.CSS_PATH, *screen_css])
        self.keymap = keymap or load_keymap(user=False)
        self._make_screen = make_screen
        self._closers = list(closers)
        # the theme chosen last (kept in theme_file), else ``theme``
        self._theme_file = theme_file
        # (the theme it was made for, the filter): the chosen theme's ANSI colour filter
        filter_made = use_assay_themes(self, theme, theme_file)
        self._theme_filter = None if filter_made is None else (self.theme, filter_made)
        scrollbars.install()  # the same bars, not drawn through Rich's console
        # the factory pauses the cycle collector while the first screen is built
        self._resume_collector = resume_collector
        self._done = False  # unmounted or closed: the collector is left as `startup.closed` put it
        #: the older generations collected when the reviewer rests (`startup.rest`), once the
        #: review is loaded
        self.resting: Timer | None = None
        self._told: list[str] = []  # what quitting kept, said once the app is gone (`close`)
        self._warnings: list[str] = []  # said when the app starts (`warn_on_start`)
        self._switch_interval = sys.getswitchinterval()  # the process's, given back at unmount

    def get_default_screen(self) -> Screen[None]:
        # The screen is the app's first screen, not pushed over Textual's blank default one
        # (which would be composed, styled and painted for nothing).
        self.set_keymap(self.keymap.changes())
        return self._make_screen()

    def warn_on_start(self, message: str) -> None:
        """Say ``message`` (a keymap that could not be used) when the app starts, and again on
        stderr once it is gone."""
        self._warnings.append(message)
        self._told.append(message)

    def on_mount(self) -> None:
        for message in self._warnings:
            self.notify(visible(message), severity="warning", timeout=30, markup=False)
        # the review screen says when its first frame is whole; this is for screens that do not
        self.set_timer(1.0, self.startup_done)
        sys.setswitchinterval(UI_SWITCH_INTERVAL)
        exit_when_terminal_gone(self)
        if self._theme_file is not None:
            self.theme_changed_signal.subscribe(self, self._theme_chosen)

    def _theme_chosen(self, theme: Theme) -> None:
        if self._theme_file is not None:
            save_theme(self._theme_file, theme.name)

    def on_reads_started(self, message: ReadsStarted) -> None:
        self.startup_done()

    def startup_done(self) -> None:
        """The first frame is painted: the cycle collector paused by the factory runs again."""
        if self._resume_collector:
            self._resume_collector = False
            startup.started()
            if not self._done:  # closed or unmounted: no event loop to time anything
                # a review that never loads (its revision cannot be opened, anchoring failed)
                # has its older generations collected at rest all the same
                self.set_timer(self.SETTLED_AFTER, self._review_loaded)

    def on_anchored(self, message: Anchored) -> None:
        # once the screen has taken the anchors in and painted them
        self.call_after_refresh(self._review_loaded)

    def _review_loaded(self) -> None:
        if self._done:  # not after unmount: nothing would unfreeze it
            return
        startup.loaded()
        if self.resting is None:
            self.resting = self.set_interval(0.1, lambda: startup.rest(time.monotonic()))

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, INPUT):  # the reviewer is busy: older collections wait (`rest`)
            startup.input_seen(time.monotonic())
        await super().on_event(event)

    def on_unmount(self) -> None:
        sys.setswitchinterval(self._switch_interval)
        self._done = True
        self.startup_done()
        startup.closed()

    def get_line_filters(self) -> Sequence[LineFilter]:
        filters = super().get_line_filters()
        if self._theme_filter is None:
            return filters
        theme, own = self._theme_filter
        if theme != self.theme:  # another theme chosen since: Textual made its filter for it
            self._theme_filter = None
            return filters
        return [own if isinstance(each, ANSIToTruecolor) else each for each in filters]

    def get_key_display(self, binding: Binding) -> str:
        """Keys in the short form the help screen uses too (``ctrl+]``, not ``^]``)."""
        return binding.key_display or short_key(binding.key)

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        # the screen's own first: the palette lists them in this order before anything is typed
        commands = getattr(screen, "palette_commands", None)
        if commands is not None:
            yield from commands()
        yield from super().get_system_commands(screen)

    def search_themes(self) -> None:
        from screens.palette import ThemePicker

        self.push_screen(ThemePicker())

    def on_command_palette_opened(self, message: CommandPalette.Opened) -> None:
        # a palette of Textual's own (the theme picker, `search_commands`) covers the
        # review's lines with its own, as assay's dialogs do
        from screens.palette import cover_lines

        for screen in self.screen_stack:
            if isinstance(screen, CommandPalette):
                cover_lines(screen)

    def push_screen(self, *args: Any, **options: Any) -> Any:
        # the screen covered skips the repaint Textual asks of it (screens.dialog.Covered)
        covered = self.screen_stack[-1] if self.screen_stack else None
        if isinstance(covered, Covered):
            covered.covering = True
        try:
            return super().push_screen(*args, **options)
        finally:
            if isinstance(covered, Covered):
                covered.covering = False

    def action_command_palette(self) -> None:
        # assay's palette, kept between openings (not over itself, nor over Textual's own
        # palette: the theme picker)
        if not self.use_command_palette or CommandPalette.is_open(self):
            return
        from screens.palette import Palette

        if not any(isinstance(screen, Palette) for screen in self.screen_stack):
            self.push_screen(kept(self, Palette, self.screen))

    def action_quit(self) -> None:  # type: ignore[override]
        self.exit()

    def exit(
        self, result: None = None, return_code: int = 0, message: RenderableType | None = None
    ) -> None:
        # every way out (q, ctrl+q, the palette, ctrl+c twice, the terminal gone) comes here:
        # what an open dialog holds (a note being written) is kept, and said once the app is gone
        for screen in self.screen_stack:
            if isinstance(screen, Dialog):
                said = screen.keep_on_exit()
                if said is not None:
                    self._told.append(said)
        super().exit(result, return_code, message)

    def close(self) -> list[str]:
        """Release what the factory opened (the verdict store, the revision); call after run.

        Returns what the user must be told once the app is gone (a closer that returns text:
        verdicts kept aside from a locked database, screens/review/writer.py)."""
        self._done = True
        self.startup_done()
        startup.closed()
        said, self._told = self._told, []
        while self._closers:
            result = self._closers.pop()()
            if isinstance(result, str):
                said.append(result)
        return said


def run(app: AssayApp) -> NoReturn:
    """Run ``app`` in the terminal (`tui.crash.run_app`), close what it opened, print what
    closing says on stderr, and exit with the app's return code."""
    from evidence.text import escaped

    try:
        code = run_app(app)
    finally:
        for line in app.close():
            print(escaped(line, keep="\n"), file=sys.stderr, flush=True)
    raise SystemExit(code)
