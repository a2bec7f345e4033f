"""A dialog's own status line and keys, over the two lines of the screen beneath.

Beneath a dialog, the review's status line says what the verdict keys act on and its keys bar
lists `c Confirm`; while the dialog is open neither is true (`c` types a letter in its field).
The dialog covers them with what holds while it is open: what typing or a key goes to, and the
dialog's keys as the active keymap binds them.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

from screens.widgets.footer import KeysBar


class DialogLines(Widget):
    """Two lines docked at the bottom of a dialog's screen: a status line and the keys.

    A Widget, not a container: a dialog's stylesheet styling its own containers by type
    (`Asked Vertical { border: ... }`) would style these lines too."""

    DEFAULT_CSS = """
    DialogLines { dock: bottom; height: 2; layout: vertical; }
    DialogLines > .dialog-status {
        height: 1; padding: 0 1; background: $panel;
        text-wrap: nowrap; text-overflow: ellipsis;
    }
    """

    def __init__(self, status: Content) -> None:
        super().__init__()
        self._status = status

    def compose(self) -> ComposeResult:
        yield Static(self._status, classes="dialog-status")
        yield KeysBar()

    def say(self, status: Content) -> None:
        """Show another status (a kept dialog opened again, on another target)."""
        if status != self._status:
            self._status = status
            self.query_one(".dialog-status", Static).update(status)
