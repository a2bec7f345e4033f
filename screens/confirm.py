"""A yes/no question in a modal, its keys said beneath it (the keymap's: `y`, `n` or `escape`)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from keymaps.bindings import bindings_for
from keymaps.display import short_keys
from screens.dialog import Dialog, dialog_css
from screens.safe import safe_content


class ConfirmScreen(Dialog[bool]):
    """Ask a question; dismiss with True (yes) or False (no).

    No buttons: Textual's drew the focused one's label at 3.62:1 and their bevels and a warning
    border under 3:1 (measured from the screenshot); the keys are said in the dialog instead.
    """

    DEFAULT_CSS = dialog_css(__file__)
    BINDINGS = bindings_for("confirm")

    def __init__(self, question: str, *, yes: str = "Yes", no: str = "No") -> None:
        super().__init__()
        self.question = question
        self.yes_label = yes
        self.no_label = no

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-dialog"):
            yield Static(safe_content(self.question, multiline=True), id="confirm-question")
            yield Static(self._keys(), id="confirm-keys")

    def _keys(self) -> Content:
        keymap = getattr(self.app, "keymap", None)

        def keys(binding_id: str, default: str) -> str:
            found = keymap.keys_for(binding_id) if keymap is not None else ()
            return short_keys(found or (default,))

        yes, no = keys("confirm_yes", "y"), keys("confirm_no", "n")
        return safe_content(f"{yes}: {self.yes_label} · {no}: {self.no_label}")

    def status(self) -> Content:
        first = self.question.strip().splitlines()[0] if self.question.strip() else "a question"
        return Content.assemble("keys → ", safe_content(first))

    def action_yes(self) -> None:
        self.dismiss(True)

    def action_no(self) -> None:
        self.dismiss(False)
