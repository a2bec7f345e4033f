"""A verdict on a group of scanner results, asked first: the count, what the filter leaves, and an
optional note for every one of them (a SARIF export's justification, `Refute 119,592`)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input, Static

from db.event_text import sendable
from keymaps.display import short_keys
from screens.dialog import Dialog, dialog_css
from screens.safe import safe_content


class GroupVerdictScreen(Dialog[str | None]):
    """Ask before a group verdict; dismiss with the note typed ("" for none), or None: not given.

    The note field has the focus: `enter` gives the verdict, `escape` does not (no buttons: the
    keys are said in the dialog, and Textual's buttons drew their labels under 4.5:1).
    """

    DEFAULT_CSS = dialog_css(__file__)
    BINDINGS = [Binding("escape", "close", "Close", id="close_dialog", tooltip="Cancel")]

    def __init__(self, question: str, *, yes: str) -> None:
        super().__init__()
        self.question, self.yes_label = question, yes

    def compose(self) -> ComposeResult:
        with Vertical(id="group-dialog") as box:
            box.border_title = "Group verdict"
            yield Static(safe_content(self.question, multiline=True), id="group-question")
            yield Input(placeholder="a note for each (optional): why", id="group-note")
            yield Static(self._keys(), id="group-keys")

    def _keys(self) -> Content:
        keymap = getattr(self.app, "keymap", None)
        closing = keymap.keys_for("close_dialog") if keymap is not None else ()
        close = short_keys(closing[:1] or ("escape",))  # the field takes `q`: its first key
        return Content(f"enter: {self.yes_label} · {close}: none given")

    def on_mount(self) -> None:
        self.query_one("#group-note", Input).focus()

    def status(self) -> Content:
        first = self.question.splitlines()[0]
        typing = isinstance(self.focused, Input)
        said = f"a note, then enter: {first}" if typing else first
        return Content.assemble("typing → " if typing else "keys → ", safe_content(said))

    @on(Input.Submitted, "#group-note")
    def _submitted(self, event: Input.Submitted) -> None:
        # a terminal's output pasted in: its controls kept as their pictures, as the note
        # editor keeps them (the other reviewers' sync refuses a note holding them)
        self.dismiss(sendable(event.value.strip()))

    def action_close(self) -> None:
        self.dismiss(None)
