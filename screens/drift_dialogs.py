"""The drift dialogs: ask for the revision to compare with, and show one commit's message and
its change to a quoted file (all of it data, never markup)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input, Label, Static

from screens.dialog import Dialog, dialog_css
from screens.safe import safe_content
from screens.widgets.instant_scroll import InstantScroll


class AgainstDialog(Dialog[str | None]):
    """Ask for a revision (commit, tag, branch); dismisses with it, or None on escape."""

    DEFAULT_CSS = dialog_css(__file__, "drift_dialogs.tcss")
    BINDINGS = [Binding("escape", "close", "Close", id="close_dialog", tooltip="Cancel")]

    def __init__(self, current: str = "") -> None:
        super().__init__()
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(classes="lookup-dialog") as box:
            box.border_title = "Drift against revision"
            yield Input(self.current, placeholder="HEAD, main, v1.2, a commit id…", id="rev-input")
            yield Label(Content("what became of each quote since the cited revision"))

    def on_mount(self) -> None:
        self.query_one("#rev-input", Input).focus()

    @on(Input.Submitted, "#rev-input")
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_close(self) -> None:
        self.dismiss(None)


class CommitScreen(Dialog[None]):
    """One commit that touched a quoted passage: its message and its diff of the file."""

    DEFAULT_CSS = dialog_css(__file__, "drift_dialogs.tcss")
    BINDINGS = [Binding("escape,q", "close", "Close", id="close_dialog", tooltip="Close")]

    def __init__(self, title: str, body: Content) -> None:
        super().__init__()
        self.title_text = title
        self.body = body

    def compose(self) -> ComposeResult:
        with Vertical(id="commit-dialog") as box:
            box.border_title = safe_content(self.title_text)
            box.border_subtitle = "escape close"
            with InstantScroll(id="commit-scroll"):
                yield Static(self.body, id="commit-text")

    def on_mount(self) -> None:
        self.query_one("#commit-scroll").focus()

    def action_close(self) -> None:
        self.dismiss(None)
