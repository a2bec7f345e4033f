"""The note editor: a modal TextArea; ctrl+s saves, escape asks before discarding a change.

Its status line names the record or quote in full (the dialog's title may be cut)."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.geometry import Region
from textual.widgets import TextArea

from db.event_text import MAX_NOTE, sendable
from keymaps.bindings import bindings_for
from screens.confirm import ConfirmScreen
from screens.dialog import Dialog, dialog_css
from screens.safe import safe_content


class NoteScreen(Dialog[str | None]):
    """Edit a note; dismiss with the new text, or None when nothing is to be saved."""

    DEFAULT_CSS = dialog_css(__file__)
    BINDINGS = bindings_for("note")

    def __init__(
        self,
        title: str,
        text: str = "",
        *,
        place: Region | None = None,
        keep: Callable[[str], None] | None = None,
    ) -> None:
        """``place``: the part of the screen the editor covers (else a band at the bottom), so
        that the claim and the code it is about stay in sight. ``keep`` saves a changed note
        when the app quits with the editor open (ctrl+q, the palette's quit, ctrl+c twice)."""
        super().__init__()
        self.title_text = title
        self.original = text
        self.place = place
        self.keep = keep

    def compose(self) -> ComposeResult:
        with Vertical(id="note-dialog") as dialog:
            dialog.border_title = safe_content(self.title_text)
            yield TextArea(
                self.original,
                id="note-text",
                soft_wrap=True,
                show_line_numbers=False,
                tab_behavior="focus",
            )

    def status(self) -> Content:
        # in full, where the title may be cut: which record or quote the note is written on
        return safe_content(f"typing → {self.title_text}")

    def on_mount(self) -> None:
        if self.place is not None:
            dialog = self.query_one("#note-dialog")
            dialog.styles.offset = (self.place.x, self.place.y)
            dialog.styles.width = self.place.width
            dialog.styles.height = self.place.height
            dialog.styles.max_width = None
            self.add_class("-placed")
        area = self.query_one(TextArea)
        area.cursor_blink = False if self.app.is_headless else area.cursor_blink
        area.focus()
        area.move_cursor(area.document.end)

    @property
    def text(self) -> str:
        """The text in the editor, terminal controls (an escape pasted with a terminal's output)
        as their pictures: a note every reviewer's sync accepts."""
        return sendable(self.query_one(TextArea).text)

    def keep_on_exit(self) -> str | None:
        keep, self.keep = self.keep, None  # once, however many times the app is told to exit
        if keep is None or not self.is_mounted or self.text == self.original:
            return None
        keep(self.text)
        said = (
            f"assay: the note you were writing ({self.title_text}) was saved as typed on quitting"
        )
        if len(self.text) > MAX_NOTE:  # kept here all the same: nothing typed is lost
            said += f" (over {MAX_NOTE:,} characters: other reviewers' syncs will not take it)"
        return said + ("; the note it replaced stays in its history" if self.original else "")

    def action_save(self) -> None:
        text = self.text
        if len(text) > MAX_NOTE:  # every other reviewer's sync refuses it: kept open, not lost
            self.notify(
                f"not saved: a note holds at most {MAX_NOTE:,} characters, this one "
                f"{len(text):,}; shorten it (a log can be cited by path instead)",
                severity="error",
                markup=False,
            )
            return
        self.dismiss(text if text != self.original else None)

    def action_cancel(self) -> None:
        if self.text == self.original:
            self.dismiss(None)
            return

        def answered(discard: bool | None) -> None:
            if discard:
                self.dismiss(None)

        self.app.push_screen(
            ConfirmScreen("Discard the changes to this note?", yes="Discard", no="Keep editing"),
            answered,
        )
