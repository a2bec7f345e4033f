"""The review screen: records, the selected record with its quotes, and the source they quote.

A header line, the records pane, the record pane and the source pane (with the quote/source diff
below it on `d`); the panes build their own content (screens/widgets/). The screen lays them out
and coordinates the parts it owns: its reads (loading.py), moves (navigation.py), verdicts
(verdicts.py), lookups (lookups.py) and source pane (source.py).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from textual import events, on
from textual.app import ComposeResult, SystemCommand
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.reactive import Reactive
from textual.screen import Screen
from textual.worker import Worker

from keymaps import Keymap, short_key
from keymaps.bindings import bindings_for
from screens.progress import header_progress
from screens.review.arrivals import Arrivals
from screens.review.drift import CommitRead, DriftComputed, DriftPart
from screens.review.history import Location
from screens.review.loading import Loading
from screens.review.lookups import Lookups
from screens.review.messages import Anchored, AnchorProgress, Loaded, SourceLoaded, Written
from screens.review.motions import Motions
from screens.review.navigation import Navigation
from screens.review.panes import Panes
from screens.review.source import SourcePane
from screens.review.verdicts import Verdicts
from screens.review.writer import StoreHandle, StoreWriter
from screens.session import ReviewSession
from screens.themes import other_theme
from screens.widgets.footer import KeysBar
from screens.widgets.quote_diff import QuoteDiff
from screens.widgets.quote_info import QuoteInfo
from screens.widgets.record_pane import RecordPane
from screens.widgets.records_pane import RecordsPane
from screens.widgets.review_header import ReviewHeader, revision_label
from screens.widgets.source_view import SourceView
from screens.widgets.target_line import TargetLine, record_hint, target_text

if TYPE_CHECKING:  # imported where used, not before the screen is shown
    from collections.abc import Iterator

    from textual.widget import Widget

    from db import Event, StaleVerdict, VerdictStore
    from evidence.backlinks import Backlink
    from evidence.model import Quote, Record
    from evidence.revision import CommitSummary, Revision, SourceFile
    from screens.find import FindTarget


FULL_ID = re.compile(r"[0-9a-f]{40}")


class ReviewScreen(Screen[None]):
    """Review records and quotes of loaded reports against the revision they cite."""

    CSS_PATH = Path(__file__).with_suffix(".tcss")
    BINDINGS = bindings_for("review")
    # A focus change repaints the panes it restyles, not the whole screen (Screen's own
    # `focused` repaints every line of every pane).
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)

    def __init__(
        self,
        session: ReviewSession,
        store: StoreHandle | VerdictStore,
        *,
        repo: Path,
        rev: str | None,
        keymap: Keymap,
        revision: Revision | None = None,
        rev_origin: str | None = None,
        against: str | None = None,
    ) -> None:
        super().__init__()
        self.rev_origin = rev_origin  # where the revision came from, shown in the header
        self.session = session
        self.store = store if isinstance(store, StoreHandle) else StoreHandle(store)
        self.repo = repo
        self.rev = rev
        self.keymap = keymap
        self.revision: Revision | None = revision
        self.revision_error: str | None = None
        self.remote: str | None = None  # the origin URL, read with the revision (permalinks)
        self.commit: CommitSummary | None = None  # its subject, author and date (the header)
        self.filter = "all"
        first = session.order[0] if session.order else 0  # the first record listed
        quoted = bool(session.records) and bool(session.records[first].quotes)
        self.location = Location(first, 0 if quoted else None)
        self._resumed = False  # the screen has been made active once
        self.stale: list[StaleVerdict] = []  # verdicts on quotes or records no longer in reports
        self.verdicts = Verdicts(self, self.store, StoreWriter(self, self.store))
        self.reads = Loading(self, self._read_store, repo=repo, rev=rev, revision=revision)
        self.lookups = Lookups(self)
        self.sources = SourcePane(self)
        self.moves = Navigation(self)
        self.arrivals = Arrivals(self)
        self.panes = Panes(self)
        self.motions = Motions()
        self.drift = DriftPart(self, self, against)  # drift against REV (screens/review/drift.py)

    # --- layout ----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield ReviewHeader(id="review-header")
        with Horizontal(id="panes"):
            yield RecordsPane(self.session, id="records")
            with Horizontal(id="detail"):
                yield RecordPane(self.session, id="record")
                with Vertical(id="source-pane"):
                    yield SourceView(id="source")
                    yield QuoteInfo(id="quote-info")
                    with VerticalScroll(id="diff"):
                        yield QuoteDiff(id="diff-text")
        yield TargetLine(id="target")
        yield KeysBar()

    def on_mount(self) -> None:
        self.records_pane.border_title = "Records"
        self.record_pane.border_title = "Record"
        self.query_one(SourceView).show_message("opening the revision…", title="Source")
        self.fill_records()
        self.show_record()
        self.refresh_header()
        self.records_pane.focus()
        self.reads.schedule()

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # Textual's own handler (the Screen class's, run after this one) restyles every widget
        # when a screen becomes active; the first time, each was just styled as it mounted.
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False

    def on_resize(self, event: events.Resize) -> None:
        self.panes.resized()
        self.refresh_header()  # record names are cut to the pane's width as they are drawn
        if event.size == self.outer_size:
            # already laid out at this size (the screen's own layout sends a Resize, and so does
            # the app at start-up): Textual's handler would lay out and paint it all again
            event.prevent_default()

    def on_unmount(self) -> None:
        self.verdicts.writer.close()  # every verdict given is written before the app exits
        self.drift.close()

    @property
    def records_pane(self) -> RecordsPane:
        return self.query_one("#records", RecordsPane)

    @property
    def record_pane(self) -> RecordPane:
        return self.query_one("#record", RecordPane)

    @property
    def source_view(self) -> SourceView:
        return self.query_one(SourceView)

    @property
    def store_error(self) -> str | None:
        """Why verdicts cannot be saved (the store could not be opened), or None."""
        return self.verdicts.error

    @property
    def rows(self) -> list[int]:
        """Line of the records pane -> record index (-1 for a report or section heading)."""
        return self.records_pane.rows

    # --- workers ---------------------------------------------------------------------------------

    def on_loaded(self, message: Loaded) -> None:
        self.arrivals.loaded(message)

    def _read_store(self) -> None:
        self.arrivals.read_store()

    def on_anchor_progress(self, message: AnchorProgress) -> None:
        self.refresh_header(anchoring=(message.done, message.total))

    def on_anchored(self, message: Anchored) -> None:
        self.arrivals.anchored(message)
        self.drift.anchored()

    @on(Worker.StateChanged)
    def _worker_failed(self, event: Worker.StateChanged) -> None:
        self.arrivals.worker_changed(event)

    async def settle(self) -> None:
        """Wait until loading is done and every write so far is stored (for tests and tools)."""
        await self.reads.loaded.wait()
        await self.verdicts.ready.wait()
        await self.verdicts.writer.flush()
        await self.reads.settle()
        await self.drift.settle()

    def on_written(self, message: Written) -> None:
        self.verdicts.written(message)

    # --- header and records pane -----------------------------------------------------------------

    def refresh_header(self, anchoring: tuple[int, int] | None = None) -> None:
        reports = self.session.reportset.reports
        reading = self.store_error is None and not self.verdicts.ready.is_set()
        forms = header_progress(
            self.session,
            revision_open=self.revision is not None,
            anchoring=anchoring,
            reading=reading,
            stale=len(self.stale),
            store_error=self.store_error,
        )
        progress, *shorter = self.drift.decorate(forms)
        self.query_one(ReviewHeader).show(
            # every system (a tool, for SARIF runs) loaded, each once: "ruff + Bandit"
            system=" + ".join(dict.fromkeys(r.system for r in reports)) or "no reports",
            revision=revision_label(self.revision, self.revision_error, self.rev, self.rev_origin),
            failed=bool(self.revision_error),
            reviewer=self.session.reviewer,
            progress=progress,
            shorter=tuple(shorter),
            commit=self.commit,
        )

    def fill_records(self) -> None:
        self.records_pane.fill(self.filter, self.location.record)

    def update_rows(self, record_keys: set[str]) -> None:
        """Redraw the rows of the records with these item keys (their badge changed)."""
        if not record_keys:
            return
        for n, each in enumerate(self.session.records):
            if self.session.record_item(each).key in record_keys:
                self.records_pane.update_row(n)

    @on(RecordsPane.RecordHighlighted)
    def _record_highlighted(self, event: RecordsPane.RecordHighlighted) -> None:
        pane = self.records_pane
        if pane.highlighted is None or pane.rows[pane.highlighted] != event.index:
            return  # the pane was refilled since (e.g. the saved position was read): stale
        if event.index != self.location.record:
            self.moves.go(self.moves.at(event.index))

    @on(RecordsPane.RecordSelected)
    def _record_selected(self) -> None:
        self.set_focus(self.record_pane)

    # --- record pane -----------------------------------------------------------------------------

    @property
    def record(self) -> Record | None:
        """The record shown."""
        if not self.session.records:
            return None
        return self.session.records[self.location.record]

    @property
    def quote(self) -> Quote | None:
        """The quote shown in the source pane."""
        record = self.record
        if record is None or self.location.quote is None or not record.quotes:
            return None
        return record.quotes[min(self.location.quote, len(record.quotes) - 1)]

    def show_record(self) -> None:
        record = self.record
        pane = self.record_pane
        pane.stale, pane.revision_open = self.stale, self.revision is not None
        pane.show(record, self.location.quote if self.moves.on_quote else None)
        if record is None:
            self.query_one(SourceView).show_message("no records in these reports")
            return
        self.records_pane.show(self.location.record)
        self.sources.show_quote()

    @on(RecordPane.QuoteHighlighted)
    def _quote_highlighted(self, event: RecordPane.QuoteHighlighted) -> None:
        self.moves.select_quote(event.quote)

    @on(RecordPane.RowHighlighted)
    def _row_highlighted(self, event: RecordPane.RowHighlighted) -> None:
        self.moves.preview(event.row_id)

    @on(RecordPane.Followed)
    def _followed(self, event: RecordPane.Followed) -> None:
        self.moves.follow(event.target)

    def focus_source(self) -> None:
        self.set_focus(self.source_view)

    # --- source pane (screens/review/source.py) ------------------------------------------------

    @property
    def source(self) -> SourceFile | None:
        """The file in the source pane."""
        return self.sources.source

    @property
    def quote_info(self) -> QuoteInfo:
        return self.query_one(QuoteInfo)

    @property
    def quote_diff(self) -> QuoteDiff | None:
        """The quote/source diff, when shown."""
        return self.query_one(QuoteDiff) if self.has_class("-diff") else None

    def read_source(self, request: int, revision: Revision, path: str) -> None:
        self.reads.read_source(request, revision, path)

    def on_source_loaded(self, message: SourceLoaded) -> None:
        self.sources.loaded(message)

    def open_path(self, path: str, line: int | None = None) -> None:
        """Show a file of the revision (from the finder, grep or find), not tied to a quote."""
        self.sources.open_path(path, line)

    # --- moving ----------------------------------------------------------------------------------

    def go(self, location: Location, *, remember: bool = False, on_quote: bool = False) -> None:
        """Show a record (and quote: verdicts act on it ``on_quote``); ``remember``: for back."""
        self.moves.go(location, remember=remember, on_quote=on_quote)

    def reach(self, location: Location) -> None:
        """Show a record, or a quote of it (``location.quote``), and select it for verdicts."""
        self.moves.reach(location)

    def jump(self, location: Location) -> None:
        """Go somewhere and remember where we came from."""
        self.moves.go(location, remember=True)

    def first_quote(self, index: int) -> int | None:
        return self.moves.first_quote(index)

    def action_next_record(self) -> None:
        self.moves.step_record(1)

    def action_prev_record(self) -> None:
        self.moves.step_record(-1)

    def action_next_unreviewed(self) -> None:
        self.moves.step_record(1, "unreviewed")

    def action_next_quote(self) -> None:
        self.moves.step_quote(1)

    def action_prev_quote(self) -> None:
        self.moves.step_quote(-1)

    def action_target_record(self) -> None:
        self.moves.to_record()

    def action_move_down(self) -> None:
        self._move_focused(1)

    def action_move_up(self) -> None:
        self._move_focused(-1)

    def _move_focused(self, step: int) -> None:
        self.motions.move(self.focused, step)

    def action_to_top(self, presses: int = 1) -> None:
        self.motions.to_top(self.focused, presses)

    def action_to_bottom(self) -> None:
        self.motions.to_bottom(self.focused)

    def action_half_page(self, step: int) -> None:
        self.motions.half_page(self.focused, step)

    def action_next_pane(self) -> None:
        self._cycle_pane(1)

    def action_prev_pane(self) -> None:
        self._cycle_pane(-1)

    def _cycle_pane(self, step: int) -> None:
        # now, not after the keys already queued: `tab j` typed fast moves in the new pane
        self.set_focus(self.panes.next_pane(self.focused, step))

    def action_follow(self) -> None:
        focused = self.focused
        records, pane = self.records_pane, self.record_pane
        if focused is records:
            if records.highlighted is not None:
                records.action_select()
        elif focused is pane:
            if pane.highlighted is not None:
                self.moves.follow(pane.highlighted_id)
        elif isinstance(focused, SourceView):
            self.lookups.backlinks()

    def action_back(self) -> None:
        self.moves.back()

    def action_forward(self) -> None:
        self.moves.forward()

    def action_cycle_filter(self) -> None:
        self.moves.cycle_filter()

    def action_cycle_grouping(self) -> None:
        self.moves.cycle_grouping()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # grouping is for SARIF results: without them the key is neither active nor shown
        return action != "cycle_grouping" or bool(self.session.results)

    def action_toggle_records(self) -> None:
        self.panes.toggle_records()

    # --- verdicts and notes ----------------------------------------------------------------------

    def show_target(self) -> None:
        """Name what verdict keys act on in the status line."""
        quote, keys = self.moves.target_quote(), self.keymap.keys_for("record_target")
        self.query_one(TargetLine).show(
            target_text(self.session, self.record, quote),
            record_hint(quote, short_key(keys[0]) if keys else ""),
        )

    def quotes_key(self) -> str:
        """The key that selects the record's quotes (``]``), as the keys bar shows it."""
        keys = self.keymap.keys_for("next_quote")
        return short_key(keys[0]) if keys else ""

    def revision_id(self) -> str | None:
        """The commit verdicts are saved against: the open revision's; while it opens, the full
        id the command resolved; None when it cannot be opened (never an unresolved name)."""
        if self.revision is not None:
            return self.revision.commit
        if self.revision_error is None and self.rev and FULL_ID.fullmatch(self.rev):
            return self.rev
        return None

    def action_verdict(self, value: str) -> None:
        if self.moves.shows_a_record():
            self.verdicts.give(value)

    def action_undo(self) -> None:
        self.verdicts.undo()

    def action_redo(self) -> None:
        self.verdicts.redo()

    def action_note(self) -> None:
        if self.moves.shows_a_record():
            self.verdicts.note()

    def action_export(self) -> None:
        reports = self.session.reportset.reports
        self.verdicts.export(reports[0].system if reports else "review", self.revision_id())

    def after_change(self, event: Event) -> None:
        """A stored event changed a verdict or a note: show it."""
        self.session.apply(event)
        record_key = event.ref.record_key
        self.update_rows({record_key})
        record = self.record
        if record is not None and self.session.record_item(record).key == record_key:
            self.record_pane.refresh_record()
        self.sources.refresh_quote_info()
        self.refresh_header()

    # --- drift against a newer revision (screens/review/drift.py) -------------------------------

    def action_against(self) -> None:
        self.drift.ask()

    def action_source_against(self) -> None:
        self.drift.toggle_source()

    def action_note_drift(self) -> None:
        if self.moves.shows_a_record():
            self.drift.note_drift()

    def on_drift_computed(self, message: DriftComputed) -> None:
        self.drift.computed(message)

    def on_commit_read(self, message: CommitRead) -> None:
        self.drift.commit_read(message)

    # --- dialogs ---------------------------------------------------------------------------------

    def action_quit(self) -> None:
        self.app.exit()

    def action_help(self) -> None:
        from screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self.keymap))

    def action_toggle_theme(self) -> None:
        self.app.theme = other_theme(self.app.current_theme.dark)

    # --- lookups (screens/review/lookups.py) -------------------------------------------------

    def action_find(self) -> None:
        self.lookups.find()

    def action_open_file(self) -> None:
        self.lookups.open_file()

    def action_grep(self) -> None:
        self.lookups.grep()

    def action_goto_line(self) -> None:
        self.lookups.goto_line()

    def action_find_in_file(self) -> None:
        self.lookups.find_in_file()

    def action_find_again(self, step: int) -> None:
        self.lookups.find_again(step)

    def action_permalink(self) -> None:
        self.lookups.permalink()

    def action_backlinks(self) -> None:
        self.lookups.backlinks()

    def find_targets(self) -> list[FindTarget]:
        """Everything `/` can find: records, quotes, and the files of the revision."""
        return self.lookups.find_targets()

    def backlinks_of(self, path: str) -> list[Backlink]:
        """The quotes that cite ``path``."""
        return self.lookups.backlinks_of(path)

    def palette_commands(self) -> Iterator[SystemCommand]:
        """Every action of this screen, and a jump to every record (for the command palette)."""
        return self.lookups.palette_commands()

    def action_diff(self) -> None:
        self.panes.toggle_diff()
        self.sources.diff_shown(self.has_class("-diff"))

    def action_diff_full(self) -> None:
        if self.panes.toggle_diff_over():
            self.action_diff()


__all__ = ["ReviewScreen"]
