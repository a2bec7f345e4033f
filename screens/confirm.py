"""A yes/no question in a modal."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Button, Static

from keymaps.bindings import bindings_for
from screens.dialog import Dialog
from screens.safe import safe_content


class ConfirmScreen(Dialog[bool]):
    """Ask a question; dismiss with True (yes) or False (no)."""

    CSS_PATH = Path(__file__).with_suffix(".tcss")
    BINDINGS = bindings_for("confirm")

    def __init__(self, question: str, *, yes: str = "Yes", no: str = "No") -> None:
        super().__init__()
        self.question = question
        self.yes_label = yes
        self.no_label = no

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-dialog"):
            yield Static(safe_content(self.question, multiline=True), id="confirm-question")
            with Horizontal(id="confirm-buttons"):
                yield Button(self.yes_label, id="confirm-yes", variant="warning")
                yield Button(self.no_label, id="confirm-no", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#confirm-no", Button).focus()

    def status(self) -> Content:
        first = self.question.strip().splitlines()[0] if self.question.strip() else "a question"
        return Content.assemble("keys → ", safe_content(first))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "confirm-yes")

    def action_yes(self) -> None:
        self.dismiss(True)

    def action_no(self) -> None:
        self.dismiss(False)
