"""The review screen: records, the selected record with its quotes, and the source they quote.

A header line, the records pane, the record pane and the source pane (with the quote/source diff
below it on `d`); the panes build their own content (screens/widgets/). The screen lays them out,
holds the review's state (`ReviewState`: where the review is) and gives each part what it acts
on: its reads and what they bring (arrivals.py, loading.py), moves (navigation.py), verdicts
(verdicts.py), lookups (lookups.py), source pane (source.py), drift (drift.py) and layout
(panes.py, motions.py). Parts change the state or post messages (`Redraw`); the screen redraws.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual import events, messages, on
from textual.app import ComposeResult, SystemCommand
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import Reactive
from textual.screen import Screen
from textual.scrollbar import ScrollBar
from textual.worker import Worker, WorkerState

from keymaps import Keymap
from keymaps.bindings import bindings_for
from screens.dialog import Covered, kept
from screens.review.arrivals import Arrivals
from screens.review.drift import DriftFailed, DriftPart
from screens.review.header import Header
from screens.review.history import Location
from screens.review.keys import ACTIONS
from screens.review.lookups import Lookups
from screens.review.messages import Redraw
from screens.review.motions import Motions
from screens.review.navigation import Navigation
from screens.review.panes import Panes
from screens.review.source import SourcePane
from screens.review.state import ReviewState, StateView
from screens.review.verdicts import Verdicts
from screens.review.writer import StoreHandle
from screens.session import ReviewSession
from screens.themes import other_theme
from screens.widgets.footer import KeysBar
from screens.widgets.instant_scroll import InstantScroll
from screens.widgets.lists import RowList
from screens.widgets.quote_diff import QuoteDiff
from screens.widgets.quote_info import QuoteInfo
from screens.widgets.record_pane import RecordPane
from screens.widgets.records_pane import RecordsPane
from screens.widgets.scrollbars import drawn_as_now
from screens.widgets.source_view import SourceView
from screens.widgets.target_line import TargetLine
from screens.workers import report_failure

if TYPE_CHECKING:  # imported where used, not before the screen is shown
    from collections.abc import Iterator

    from textual.widget import Widget

    from db import StaleVerdict, VerdictStore
    from evidence.backlinks import Backlink
    from evidence.model import Quote, Record
    from evidence.revision import CommitSummary, Revision, SourceFile
    from screens.find import FindTarget
    from screens.review.stale import StaleList


class ReviewScreen(Covered, Screen[None]):
    """Review records and quotes of loaded reports against the revision they cite."""

    CSS_PATH = Path(__file__).with_suffix(".tcss")
    BINDINGS = bindings_for("review", ACTIONS)
    # A focus change repaints the panes it restyles, not the whole screen (Screen's own
    # `focused` repaints every line of every pane).
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)

    # the review's state, read-only (for the app, tests and tools)
    location: StateView[Location] = StateView()
    filter: StateView[str] = StateView()
    record: StateView[Record | None] = StateView()
    quote: StateView[Quote | None] = StateView()
    revision: StateView[Revision | None] = StateView()
    revision_error: StateView[str | None] = StateView()
    commit: StateView[CommitSummary | None] = StateView()
    stale: StateView[list[StaleVerdict]] = StateView()
    store_error: StateView[str | None] = StateView()  # why verdicts cannot be saved

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
        anchor_cache: Path | None = None,
    ) -> None:
        super().__init__()
        self.session, self.repo, self.rev, self.keymap = session, repo, rev, keymap
        self.rev_origin = rev_origin  # where the revision came from, shown in the header
        self.store = store if isinstance(store, StoreHandle) else StoreHandle(store)
        self.state = state = ReviewState(session)
        state.revision = revision
        state.watch({"revision", "revision_error"}, self._revision_read)
        self._resumed = False  # the screen has been made active once
        self.records_pane = RecordsPane(session, id="records")
        self.record_pane = RecordPane(session, id="record")
        self.source_view = SourceView(id="source")
        self.quote_info = QuoteInfo(id="quote-info")
        diff = QuoteDiff(id="diff-text")
        shown = (self.source_view, self.quote_info, diff, TargetLine(id="target"))
        # the parts, each given the state, the panes and the parts it acts on
        self.drift = DriftPart(state, self.record_pane, repo, against)
        self.sources = SourcePane(state, self.drift, shown, keymap)
        panes = (self.records_pane, self.record_pane)
        self.moves = Navigation(state, self, panes, self.sources, self.drift)
        self.header = header = Header(state, self.drift, rev, rev_origin)
        self.verdicts = Verdicts(state, self.store, self.moves, header, rev)
        self.arrivals = Arrivals(state, self.verdicts, header, repo=repo, rev=rev)
        self.reads = self.arrivals.reads
        self.reads.anchor_cache = anchor_cache  # anchors kept on disk: a relaunch reads them
        self.lookups = Lookups(state, self, self.moves, keymap, ACTIONS)
        self.panes = Panes(self, (*panes, self.source_view))
        self.motions = Motions()
        self._stale: StaleList | None = None  # the stale verdicts' list, once asked for

    def compose(self) -> ComposeResult:
        yield self.header.widget
        with Horizontal(id="panes"):
            yield self.records_pane
            with Horizontal(id="detail"):
                yield self.record_pane
                with Vertical(id="source-pane"):
                    yield self.source_view
                    yield self.quote_info
                    with InstantScroll(id="diff"):
                        yield self.sources.diff
        yield self.sources.target_line
        yield KeysBar()
        yield from (self.drift, self.sources, self.verdicts, self.arrivals)  # not drawn

    def on_mount(self) -> None:
        self.records_pane.border_title, self.record_pane.border_title = "Records", "Record"
        self.source_view.show_message("opening the revision…", title="Source")
        self.moves.fill_records()
        # the panes' widths before the first layout (not on its Resize): laid out and drawn
        # once, at the widths they keep
        self.panes.resized(self.app.size.width)
        self.moves.show_record()
        self.header.refresh()
        self.records_pane.focus()
        self.reads.schedule()

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # Textual's own handler (the Screen class's, run after this one) restyles every widget
        # when a screen becomes active; the first time, each was just styled as it mounted.
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False

    def on_update(self, message: messages.Update) -> None:
        # A pane's restyle (a focus change) refreshes its scrollbars whether their colours
        # changed or not, and their repaint reaches the screen after the frame that already
        # drew them: Textual's handler would paint the same cells again a tick later.
        if isinstance(message.widget, ScrollBar) and drawn_as_now(message.widget):
            message.prevent_default()
            message.stop()

    def on_resize(self, event: events.Resize) -> None:
        self.panes.resized()
        self.header.refresh()  # record names are cut to the pane's width as they are drawn
        if event.size == self.outer_size:
            # already laid out at this size (the screen's own layout sends a Resize, and so does
            # the app at start-up): Textual's handler would lay out and paint it all again
            event.prevent_default()

    def on_unmount(self) -> None:
        self.verdicts.write_position()
        self.verdicts.writer.close()  # every verdict given is written before the app exits
        self.drift.close()

    async def settle(self) -> None:
        """Wait until loading is done and every write so far is stored (for tests and tools)."""
        await self.reads.loaded.wait()
        await self.verdicts.ready.wait()
        self.verdicts.write_position()
        await self.verdicts.writer.flush()
        await self.reads.settle()
        await self.drift.settle()

    def _revision_read(self) -> None:
        self.record_pane.revision_open = self.state.revision is not None
        self.header.refresh()

    def on_redraw(self, message: Redraw) -> None:
        if message.records:
            self.moves.fill_records()
        if message.record:
            self.record_pane.refresh_record()
        if message.source:
            self.sources.show_quote()
        if message.opened:
            self.sources.file_followed()
        if message.header:
            self.header.refresh()

    @on(Worker.StateChanged)
    def _worker_failed(self, event: Worker.StateChanged) -> None:
        """A worker failed: the drift says why; others say so (in the source pane, its reads)."""
        error = event.worker.error
        if event.state is WorkerState.ERROR and isinstance(error, DriftFailed):
            self.drift.failed(error)
            return
        text = report_failure(self, event)
        if text is not None and event.worker.group in ("load", "anchor", "source"):
            self.source_view.show_message(text, title="Source")

    @on(RecordsPane.RecordHighlighted)
    @on(RecordsPane.RecordSelected)
    @on(RecordPane.QuoteHighlighted)
    @on(RecordPane.RowHighlighted)
    @on(RecordPane.Followed)
    def _pane_moved(self, event: Message) -> None:
        self.moves.pane_moved(event)

    # --- the actions (keys.py names each binding's) ----------------------------------------------

    def action_move(self, what: str, step: int = 1) -> None:
        self.moves.step(what, step)

    def action_motion(self, what: str, step: int = 1) -> None:
        focused = self.focused
        before = focused.highlighted if isinstance(focused, RowList) else None
        self.motions.act(focused, what, step)
        if isinstance(focused, RowList) and focused.highlighted != before:
            self.moves.cursor_moved(focused)

    def action_lookup(self, name: str, step: int = 1) -> None:
        self.lookups.run(name, step)

    def action_verdict(self, what: str, on: str = "target") -> None:
        self.verdicts.act(what, on)

    def action_drift(self, what: str) -> None:
        if what == "source" and self.moves.cited_against():
            return
        self.sources.drift_action(what)

    def action_view(self, what: str, step: int = 1) -> None:
        """Tab between the panes, the filter and grouping of the records, the records list shown
        or hidden, the diff shown, over the source or below it."""
        if what == "pane":  # now, not after the keys already queued: `tab j` moves in the new one
            self.set_focus(self.panes.next_pane(self.focused, step))
        elif what in ("filter", "grouping"):
            self.moves.cycle(what)
        elif what == "records":
            self.panes.toggle_records()
        elif what == "diff":
            self.panes.toggle_diff()
            self.sources.diff_shown(self.has_class("-diff"))
        elif what == "diff_full" and self.panes.toggle_diff_over():
            self.action_view("diff")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # grouping and group verdicts are for SARIF results: without them neither is active
        for_results = (action == "view" and parameters == ("grouping",)) or (
            action == "verdict" and parameters[1:] == ("group",)
        )
        return not for_results or bool(self.session.results)

    def on_key(self, event: events.Key) -> None:
        # check_action leaves those keys unbound in a review of reports (the footer has no use
        # for them); a press reaches the screen and is answered, not dropped without a word
        if not self.session.results and event.key in self._results_keys():
            event.stop()
            self.notify(
                "grouping and group verdicts are for a scan's results: this review has none",
                severity="warning",
                timeout=3,
            )

    def _results_keys(self) -> set[str]:
        ids = ("group_results", "confirm_group", "refute_group", "unclear_group", "skip_group")
        return {key for binding_id in ids for key in self.keymap.keys_for(binding_id)}

    def action_follow(self) -> None:
        if not self.moves.follow_focused():  # the source pane: the quotes that cite its file
            self.lookups.backlinks()

    def action_stale_verdicts(self) -> None:
        if self._stale is None:  # made at the first press: nothing of it before the first frame
            from screens.review.stale import StaleList

            self._stale = StaleList(self.state, self, self.verdicts, self.moves, self.keymap)
        self._stale.open()

    def action_quit(self) -> None:
        self.app.exit()

    def action_help(self) -> None:
        from screens.help import HelpScreen

        self.app.push_screen(kept(self.app, HelpScreen, self.keymap))

    def action_toggle_theme(self) -> None:
        self.app.theme = other_theme(self.app.current_theme.dark)

    # the screen's API for the app (the command palette), tests and tools

    @property
    def rows(self) -> list[int]:
        """Line of the records pane -> record index (-1 for a report or section heading)."""
        return self.records_pane.rows

    @property
    def source(self) -> SourceFile | None:
        """The file in the source pane."""
        return self.sources.source

    @property
    def quote_diff(self) -> QuoteDiff | None:
        """The quote/source diff, when shown."""
        return self.sources.quote_diff

    def go(self, location: Location, *, remember: bool = False, on_quote: bool = False) -> None:
        """Show a record (and quote: verdicts act on it ``on_quote``); ``remember``: for back."""
        self.moves.go(location, remember=remember, on_quote=on_quote)

    def jump(self, location: Location) -> None:
        """Go somewhere and remember where we came from."""
        self.moves.jump(location)

    def open_path(self, path: str, line: int | None = None) -> None:
        """Show a file of the revision (from the finder, grep or find), not tied to a quote."""
        self.sources.open_path(path, line)

    def palette_commands(self) -> Iterator[SystemCommand]:
        """Every action of this screen, and a jump to every record (for the command palette)."""
        return self.lookups.palette_commands()

    def find_targets(self) -> list[FindTarget]:
        """Everything `/` can find: records, quotes, and the files of the revision."""
        return self.lookups.find_targets()

    def backlinks_of(self, path: str) -> list[Backlink]:
        """The quotes that cite ``path``."""
        return self.sources.backlinks.of(path)


__all__ = ["ReviewScreen"]
