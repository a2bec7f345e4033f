"""Grep at the revision: fixed string or regex, case toggle, path filter; enter opens a hit.

The search runs in a thread worker over `Revision.grep`, streams hits to the list in batches with
a running count, and stops when cancelled (escape while it runs, or a new search).
"""

from __future__ import annotations

import shlex
import threading
import time
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option
from textual.worker import Worker

from evidence.revision import GrepHit, RevisionError
from keymaps.bindings import bindings_for
from screens.dialog import Dialog, dialog_css, relabel
from screens.safe import visible
from screens.widgets.legible_options import LegibleOptionList
from screens.workers import report_failure

if TYPE_CHECKING:
    from evidence.revision import Revision

#: hits listed; the count goes on beyond it
MAX_SHOWN = 2000
#: characters of a hit's line shown
MAX_TEXT = 300
#: what the dialog says before a search: it runs on Enter, not as one types
RUN_HINT = "type a pattern, then ⏎ (enter) runs the search"
#: a batch of hits goes to the list at least this often (seconds) while the search runs
BATCH_SECONDS = 0.1


def hit_content(hit: GrepHit) -> Content:
    """``path:line:text`` with the matches highlighted through spans, never markup."""
    head = Content.assemble(
        (visible(hit.path), "$accent"), (":", "$text-muted"), (str(hit.line), "$success")
    )
    pieces: list[tuple[str, str] | str] = [(":", "$text-muted")]
    text = hit.text[:MAX_TEXT]
    at = 0
    for start, end in sorted(hit.spans):
        start, end = max(start, at), min(end, len(text))
        if start >= end:
            continue
        pieces.append(_shown(text[at:start]))
        pieces.append((_shown(text[start:end]), "bold reverse $warning"))
        at = end
    pieces.append(_shown(text[at:]))
    return head + Content.assemble(*pieces)


def _shown(text: str) -> str:
    return visible(text.replace("\t", "  "))


def parse_paths(text: str) -> tuple[str, ...]:
    """The path filter: paths (files or directories) separated by spaces or commas, a name
    with spaces in quotes (a backslash is a Windows separator, no escape)."""
    words = shlex.shlex(text, posix=True, punctuation_chars=False)
    words.whitespace += ","
    words.whitespace_split = True
    words.escape = ""
    try:
        return tuple(part for part in words if part)
    except ValueError:  # a quote left open: the words as typed
        return tuple(part for part in text.replace(",", " ").split() if part)


class GrepScreen(Dialog[GrepHit | None]):
    """Search every file of the revision; dismisses with the chosen hit, or None."""

    DEFAULT_CSS = dialog_css(__file__, "grep.tcss")
    BINDINGS = [
        Binding("escape", "cancel_or_close", "Stop/close", id="close_dialog", tooltip="Stop"),
        *bindings_for("grep"),  # grep_fixed (F2), grep_case (F3), grep_results (F4)
    ]

    def __init__(
        self,
        revision: Revision,
        *,
        pattern: str = "",
        paths: str = "",
        fixed: bool = False,
        ignore_case: bool = False,
    ) -> None:
        super().__init__()
        self._stop_event = threading.Event()
        self._start(revision, pattern, paths, fixed, ignore_case)

    def _start(
        self, revision: Revision, pattern: str, paths: str, fixed: bool, ignore_case: bool
    ) -> None:
        """The state of a dialog opened with these arguments, nothing searched yet."""
        self.revision = revision
        self._initial_pattern, self._initial_paths = pattern, paths
        self.fixed, self.ignore_case = fixed, ignore_case
        self.hits: list[GrepHit] = []
        self.count = 0
        self.files: set[str] = set()
        self.running = False
        self.error: str | None = None
        self.elapsed: float | None = None  # seconds the last finished search took
        self._search: Worker[None] | None = None  # the search running or last run

    def compose(self) -> ComposeResult:
        with Vertical(id="grep-box") as box:
            box.border_title = self._title()
            with Horizontal(id="grep-inputs"):
                yield Input(self._initial_pattern, placeholder="pattern…", id="grep-pattern")
                yield Input(self._initial_paths, placeholder="in paths…", id="grep-paths")
            yield Label(self._flags(), id="grep-flags")
            yield LegibleOptionList(id="grep-results")
            yield Label(RUN_HINT, id="grep-status")

    def _title(self) -> str:
        return f"Grep at {self.revision.short}"

    def on_mount(self) -> None:
        self.query_one("#grep-pattern", Input).focus()
        if self._initial_pattern:
            self.search()

    def reopen(
        self,
        revision: Revision,
        *,
        pattern: str = "",
        paths: str = "",
        fixed: bool = False,
        ignore_case: bool = False,
    ) -> None:
        self._stop_event.set()  # (a search is stopped as the dialog closes: never left running)
        self._stop_event = threading.Event()
        self._start(revision, pattern, paths, fixed, ignore_case)
        self.query_one("#grep-box").border_title = self._title()
        self.query_one("#grep-pattern", Input).value = pattern
        self.query_one("#grep-paths", Input).value = paths
        relabel(self.query_one("#grep-flags", Label), self._flags())
        self.query_one("#grep-results", OptionList).clear_options()
        self._status(Content(RUN_HINT))
        self.set_focus(self.query_one("#grep-pattern", Input))
        if pattern:
            self.search()

    # --- toggles -------------------------------------------------------------------------------

    def _flags(self) -> Content:
        kind = "fixed string" if self.fixed else "regex"
        case = "ignore case" if self.ignore_case else "match case"
        return Content.assemble((kind, "bold"), " · ", (case, "bold"))

    def action_toggle_fixed(self) -> None:
        self.fixed = not self.fixed
        relabel(self.query_one("#grep-flags", Label), self._flags())
        self._research()

    def action_toggle_case(self) -> None:
        self.ignore_case = not self.ignore_case
        relabel(self.query_one("#grep-flags", Label), self._flags())
        self._research()

    def _research(self) -> None:
        if self.query_one("#grep-pattern", Input).value:
            self.search()

    def action_focus_results(self) -> None:
        # now, not after the keys already queued: `down down enter` typed fast picks the second
        self.set_focus(self.query_one("#grep-results", OptionList))

    # --- searching -----------------------------------------------------------------------------

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.search()

    def search(self) -> None:
        """Start a search with the typed pattern and filter, stopping any running one."""
        pattern = self.query_one("#grep-pattern", Input).value
        paths = parse_paths(self.query_one("#grep-paths", Input).value)
        self._stop_event.set()
        self._stop_event = threading.Event()
        self.hits, self.count, self.files, self.error = [], 0, set(), None
        self.query_one("#grep-results", OptionList).clear_options()
        if not pattern:
            self.running = False
            self._status(Content(RUN_HINT))
            return
        self.running = True
        self._status(Content("searching…"))
        self._search = self._grep(pattern, paths, self.fixed, self.ignore_case, self._stop_event)

    @on(Worker.StateChanged)
    def _worker_changed(self, event: Worker.StateChanged) -> None:
        said = report_failure(self, event)
        if said is not None and event.worker is self._search:  # the dialog waited on it
            self.running = False
            self.error = said
            self._status(Content(said), error=True)

    @work(thread=True, exclusive=True, group="grep", exit_on_error=False)
    def _grep(
        self,
        pattern: str,
        paths: tuple[str, ...],
        fixed: bool,
        ignore_case: bool,
        cancel: threading.Event,
    ) -> None:
        started = time.perf_counter()
        batch: list[GrepHit] = []
        last = started
        error: str | None = None
        try:
            for hit in self.revision.grep(
                pattern, fixed=fixed, ignore_case=ignore_case, paths=paths, cancel=cancel
            ):
                batch.append(hit)
                now = time.perf_counter()
                if now - last >= BATCH_SECONDS:
                    self.app.call_from_thread(self._add, cancel, batch)
                    batch, last = [], now
        except RevisionError as problem:  # a bad pattern or path: said in the dialog
            error = str(problem)
        elapsed = time.perf_counter() - started
        self.app.call_from_thread(self._finish, cancel, batch, error, elapsed)

    def _add(self, cancel: threading.Event, batch: list[GrepHit]) -> None:
        if cancel is not self._stop_event or cancel.is_set():
            return  # a stale or stopped search
        self.count += len(batch)
        self.files.update(hit.path for hit in batch)
        room = MAX_SHOWN - len(self.hits)
        if room > 0:
            shown = batch[:room]
            first = not self.hits
            self.hits.extend(shown)
            results = self.query_one("#grep-results", OptionList)
            results.add_options(Option(hit_content(hit)) for hit in shown)
            if first and shown:
                results.highlighted = 0
        self._status(Content(f"searching… {self._tally()}"))

    def _finish(
        self, cancel: threading.Event, batch: list[GrepHit], error: str | None, elapsed: float
    ) -> None:
        if cancel is not self._stop_event:
            return
        stopped = cancel.is_set()
        if not stopped:
            self._add(cancel, batch)
        self.running = False
        if error is not None:
            self.error = error
            self._status(Content(visible(error)), error=True)
            return
        summary = self._tally()
        if self.count > len(self.hits):
            summary += f" (first {len(self.hits):,} listed)"
        if stopped:
            summary = f"stopped: {summary}"
        self.elapsed = elapsed
        self._status(Content(summary))

    def _tally(self) -> str:
        hits = "hit" if self.count == 1 else "hits"
        files = "file" if len(self.files) == 1 else "files"
        return f"{self.count:,} {hits} in {len(self.files):,} {files}"

    def _status(self, text: Content, *, error: bool = False) -> None:
        status = self.query_one("#grep-status", Label)
        relabel(status, text)
        status.set_class(error, "-error")

    # --- leaving -------------------------------------------------------------------------------

    @on(OptionList.OptionSelected, "#grep-results")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_index < len(self.hits):
            self._stop_event.set()
            self.dismiss(self.hits[event.option_index])

    def action_cancel_or_close(self) -> None:
        if self.running:
            self._stop_event.set()
            self.running = False
            self._status(Content(f"stopped: {self._tally()}"))
            return
        self.dismiss(None)

    def on_unmount(self) -> None:
        self._stop_event.set()
