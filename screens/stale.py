"""Stale verdicts: the reviewer's verdicts and notes on quotes and records the loaded reports no
longer hold (a quote edited, a scanner's finding gone from its new scan). The header counts
them; this lists them, each with what it was on, and enter goes to its record where the report
still holds it. A key clears one the reviewer has dealt with: the item is left unreviewed by a
new event, so its history keeps the verdict and note (and `z` brings them back).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from db import Event
from keymaps.bindings import bindings_for
from screens.dialog import Dialog, dialog_css
from screens.safe import visible
from screens.widgets.dialog_lines import DialogLines
from screens.widgets.legible_options import LegibleOptionList
from screens.widgets.record_pane import verdict_word

#: rows listed at most: a scan whose judged results all went would list tens of thousands,
#: each measured as the list fills (~0.2 ms a row) and again as one is cleared (~0.06 ms);
#: the write-up lists every one
LISTED = 200


class Stale(NamedTuple):
    """One stale verdict as the list shows it."""

    event: Event  # the reviewer's current event on the item
    reason: str  # "quote changed" or "record missing"
    what: str  # what it was on, in words (db/gone.py), or "" when never registered here
    here: int | None  # the record's index in the review, when the reports still hold it
    quote: int | None = None  # the quote of it at the old one's place (a quote's verdict)


def stale_content(stale: Stale) -> Content:
    """Two lines: the verdict, the record and what it was on; then why it is stale, when it
    was given and at which revision, and the note's first line. All of it as data."""
    event = stale.event
    what = stale.what or ("a quote" if event.quote is not None else "the record")
    why = "its quote changed" if stale.reason == "quote changed" else "no longer in the report"
    when = event.at[:10] + (f" at {event.revision[:7]}" if event.revision else "")
    note = (event.note or "").strip().splitlines()
    return Content.assemble(
        verdict_word(event.verdict) if event.verdict else ("note", "$text-warning"),
        "  ",
        (visible(event.record), "bold $accent"),
        "  ",
        visible(what),
        "\n  ",
        (why, "$text-warning"),
        (f" · {visible(event.report)} · {visible(when)}", "$text-muted"),
        ("\n  ✎ " + visible(note[0]) + (" …" if len(note) > 1 else "")) if note else "",
    )


class StaleScreen(Dialog[Stale | None]):
    """The reviewer's stale verdicts; dismissed with the one to go to (None: closed)."""

    DEFAULT_CSS = dialog_css(__file__)
    BINDINGS = [
        Binding("escape,q", "close", "Close", id="close_dialog", tooltip="Close"),
        *bindings_for("stale"),
    ]

    def __init__(self, stale: Sequence[Stale], clear: Callable[[Stale], bool]) -> None:
        super().__init__()
        self.stale = list(stale)
        self.clear = clear  # clears one (store work): False when it cannot be saved

    def compose(self) -> ComposeResult:
        with Vertical(id="stale-box") as box:
            box.border_title = self._title()
            listed = self.stale[:LISTED]
            yield LegibleOptionList(*(Option(stale_content(s)) for s in listed), id="stale-list")
            yield Label(
                Content("no stale verdicts: each of yours is on a quote or record still here"),
                id="stale-empty",
            )

    def on_mount(self) -> None:
        self._shown()

    def reopen(self, stale: Sequence[Stale], clear: Callable[[Stale], bool]) -> None:
        self.stale, self.clear = list(stale), clear
        options = self.query_one("#stale-list", OptionList)
        options.clear_options()
        options.add_options(Option(stale_content(s)) for s in self.stale[:LISTED])
        options.scroll_home(animate=False, immediate=True)
        self._shown()

    def _shown(self) -> None:
        options = self.query_one("#stale-list", OptionList)
        options.display = bool(self.stale)
        self.query_one("#stale-empty").display = not self.stale
        if self.stale:
            if options.highlighted is None:
                options.highlighted = 0
            options.focus()
        self.query_one("#stale-box").border_title = self._title()
        for lines in self.query(DialogLines):
            lines.say(self.status())
        self.refresh_bindings()

    def _title(self) -> Content:
        count = len(self.stale)
        more = f" (the first {LISTED:,} listed; the write-up lists all)" if count > LISTED else ""
        return Content(f"Stale verdicts · {count:,}{more}")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # nothing to clear: the key is not offered (the keys bar leaves it out)
        return action != "clear_stale" or bool(self.stale)

    def status(self) -> Content:
        if not self.stale:
            return Content("keys → Stale verdicts: none")
        return Content("keys → the stale verdict highlighted · enter: go to its record")

    @on(OptionList.OptionSelected, "#stale-list")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        stale = self.stale[event.option_index]
        if stale.here is None:
            self.notify(
                visible(f"{stale.event.record} is no longer in its report: nothing to go to"),
                markup=False,
                timeout=4,
            )
            return
        self.dismiss(stale)

    def action_clear_stale(self) -> None:
        """Clear the highlighted stale verdict (the item is left unreviewed; history keeps it)."""
        options = self.query_one("#stale-list", OptionList)
        index = options.highlighted
        if index is None or not self.stale or not self.clear(self.stale[index]):
            return
        del self.stale[index]
        options.remove_option_at_index(index)
        if not options.option_count and self.stale:  # every one listed cleared: the next ones
            options.add_options(Option(stale_content(s)) for s in self.stale[:LISTED])
        if options.option_count:
            options.highlighted = min(index, options.option_count - 1)
        self._shown()

    def action_close(self) -> None:
        self.dismiss(None)
