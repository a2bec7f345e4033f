"""The review screen: records, the selected record with its quotes, and the source they quote.

Layout: a header line (system, revision, reviewer, progress), the records pane (grouped by report
and section, with verdict badges and quote status), the record pane (label, fields, body, quotes,
references, annotations; a cursor over what can be followed) and the source pane (SourceView at the
revision, with the quote/source diff below it on `d`). The panes build their own content
(screens/widgets/); this screen coordinates them: where the reviewer is, verdicts, and the lookups.

Reads (revision, anchoring, source files, search replays) run in Textual thread workers that post
messages back (screens/review/messages.py). The verdict store is opened, read and written on one
writer thread (screens/review/writer.py), so verdicts are stored in the order they were given;
a verdict key pressed before the store is open waits in that queue. The screen updates from the
stored event. A store that cannot be opened is reported in the app (header and a notice), and
verdict keys then say that nothing can be saved.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widget import Widget
from textual.worker import Worker, WorkerState

from keymaps import Keymap, specs_for
from keymaps.bindings import bindings_for
from screens.review.lookups import LookupActions
from screens.review.messages import Anchored, AnchorProgress, Loaded, SourceLoaded, Written
from screens.review.session import FILTERS, Location, ReviewSession
from screens.review.writer import StoreHandle, StoreWriter
from screens.safe import visible
from screens.widgets.footer import KeysBar
from screens.widgets.lists import RowList
from screens.widgets.quote_diff import QuoteDiff
from screens.widgets.quote_info import QuoteInfo
from screens.widgets.record_pane import RecordPane
from screens.widgets.records_pane import RecordsPane
from screens.widgets.review_header import ReviewHeader
from screens.widgets.source_view import SourceMarks, SourceView, file_message

if TYPE_CHECKING:  # imported where used, so the first frame does not wait for them
    from db import Event, ItemRef, StaleVerdict, VerdictStore
    from evidence.model import Quote, Record
    from evidence.revision import Revision, SourceFile
    from screens.review.loading import Verdicts

NARROW_WIDTH = 120  # below this the records pane goes on top of the other two


class ReviewScreen(LookupActions, Screen[None]):
    """Review records and quotes of loaded reports against the revision they cite."""

    CSS_PATH = Path(__file__).with_suffix(".tcss")
    BINDINGS = bindings_for("review")

    def __init__(
        self,
        session: ReviewSession,
        store: StoreHandle | VerdictStore,
        *,
        repo: Path,
        rev: str | None,
        keymap: Keymap,
        revision: Revision | None = None,
    ) -> None:
        super().__init__()
        self.session = session
        self.store = store if isinstance(store, StoreHandle) else StoreHandle(store)
        self.store_error: str | None = None  # why verdicts cannot be saved (store unusable)
        self.repo = repo
        self.rev = rev
        self.keymap = keymap
        self.revision: Revision | None = revision
        self.revision_error: str | None = None
        self.remote: str | None = None  # the origin URL, read with the revision (permalinks)
        self.filter = "all"
        self.location = Location(0, 0 if session.records and session.records[0].quotes else None)
        self.back_stack: list[Location] = []
        self.forward_stack: list[Location] = []
        self.opened_path: str | None = None  # a file opened by finder/grep rather than a quote
        self.source_request = 0  # file reads asked for, and the last one shown
        self.shown_request = 0
        self._source: SourceFile | None = None
        self._sources: dict[str, SourceFile] = {}  # recently shown files (small LRU)
        self._pending_line: int | None = None  # where to open the next file opened by path
        self._find_text = ""  # the last text of find in file
        self._writer = StoreWriter(self, self.store)
        self._loaded = asyncio.Event()  # the revision is open (or failed)
        self._verdicts_ready = asyncio.Event()  # the reviewer's verdicts are read (or failed)
        self._after_verdicts: list[Callable[[], object]] = []  # actions waiting for them
        self._navigated = False  # the reviewer moved before the saved position was read
        self._loading_waited = False  # `_start_loading` waited for the first whole frame
        self._loading_started = False
        self._resumed = False  # the screen has been made active once
        self._first_paint = True  # no frame painted yet
        self.stale: list[StaleVerdict] = []  # verdicts on quotes or records no longer in reports

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
        yield KeysBar()

    def on_mount(self) -> None:
        self.records_pane.border_title = "Records"
        self.record_pane.border_title = "Record"
        self.query_one(SourceView).show_message("opening the revision…", title="Source")
        self._fill_records()
        self._show_record()
        self._refresh_header()
        self.records_pane.focus()
        self.call_after_refresh(self._start_loading)

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        # Textual's own handler (the Screen class's, called after this one) restyles every
        # widget when a screen becomes active. The first time, each was styled as it mounted
        # a moment before: that second pass was a good part of the first frame.
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False

    def _compositor_refresh(self) -> None:
        # The first layout changes what it lays out: each pane learns its size, and the record
        # pane, its text wrapped at its width, that it needs a scrollbar. Textual would paint
        # that first frame, lay out again at its next refresh and paint again, the record pane
        # whole (~10 ms of the first frame). Laid out again before the first paint instead.
        if self._first_paint:
            self._first_paint = False
            if any(widget._layout_required for widget in self._compositor.visible_widgets):
                self._refresh_layout()  # which paints
                return
        super()._compositor_refresh()

    def _start_loading(self) -> None:
        """Start the reads once the first frame is whole (called after the first refresh).

        The first refresh comes while the app is still starting (in its startup batch), with the
        layout that follows the mounting of every pane still to come. The reads' threads hold the
        GIL for most of their first ~300 ms (importing GitPython and SQLite): started then, they
        halved the main thread's share of the CPU while it finished that frame, which shows
        nothing they read. So they start after the next layout (or a quarter second at most).
        """
        if self._loading_started:
            return
        if (self.app._batch_count or self._layout_required) and not self._loading_waited:
            self._loading_waited = True
            self.screen_layout_refresh_signal.subscribe(self, self._laid_out)
            self.set_timer(0.25, self._start_loading)
            return
        self._loading_started = True
        self.screen_layout_refresh_signal.unsubscribe(self)
        resume = getattr(self.app, "startup_done", None)
        if resume is not None:
            resume()
        # the writer's first work opens the store; verdicts given meanwhile queue behind it
        from screens.review.loading import (
            read_verdicts,  # here: nothing before the first frame needs them
        )

        session = self.session
        self._writer.submit(lambda store: read_verdicts(store, session), self._on_verdicts)
        self.run_worker(self._load, thread=True, exclusive=True, group="load", exit_on_error=False)

    def _laid_out(self, _screen: Screen[object]) -> None:
        self.call_after_refresh(self._start_loading)

    def on_resize(self, event: events.Resize) -> None:
        narrow = self.size.width < NARROW_WIDTH
        if narrow != self.has_class("-narrow"):
            self.set_class(narrow, "-narrow")
        self._refresh_header()  # record names are cut to the pane's width as they are drawn
        if event.size == self._compositor.size:
            # Already laid out at this size: the screen is sent a Resize by its own first layout
            # and another by the app at start-up, and Textual's handler (which this skips) laid
            # out and painted the screen again for each (~10 ms before the first frame). What
            # else changed meanwhile is laid out and painted by the next refresh as usual.
            event.prevent_default()

    def on_unmount(self) -> None:
        self._writer.close()  # every verdict given is written before the app exits

    @property
    def records_pane(self) -> RecordsPane:
        return self.query_one("#records", RecordsPane)

    @property
    def record_pane(self) -> RecordPane:
        return self.query_one("#record", RecordPane)

    @property
    def _rows(self) -> list[int]:
        """Line of the records pane -> record index (-1 for a report or section heading)."""
        return self.records_pane.rows

    # --- workers ---------------------------------------------------------------------------------

    def _load(self) -> None:
        from screens.review.loading import load_review

        self.post_message(load_review(self.repo, self.rev, self.revision))

    def _anchor(self, revision: Revision) -> None:
        def progress(done: int, total: int) -> None:
            self.post_message(AnchorProgress(done, total))

        from screens.review.loading import anchor_review

        self.post_message(anchor_review(self.session, revision, progress))

    def on_loaded(self, message: Loaded) -> None:
        self.revision, self.revision_error = message.revision, message.error
        self.remote = message.remote
        self.record_pane.revision_open = self.revision is not None
        self.record_pane.refresh_record()
        self._show_source()
        self._refresh_header()
        self._loaded.set()
        if self.revision is not None:
            revision = self.revision
            self.run_worker(
                lambda: self._anchor(revision),
                thread=True,
                exclusive=True,
                group="anchor",
                exit_on_error=False,
            )
        else:
            self.session.anchored = False
            self.query_one(SourceView).show_message(
                f"cannot open the revision: {visible(self.revision_error or '?')}",
                title="Source",
            )

    def _on_verdicts(self, verdicts: Verdicts) -> None:
        """The reviewer's verdicts, read on the writer thread once the store opened."""
        # events of verdicts given before this arrive after it, in order, and are applied then
        before, self.session.current = self.session.current, dict(verdicts.current)
        changed = {
            event.ref.record_key
            for key, event in (before | self.session.current).items()
            if before.get(key) != self.session.current.get(key)
        }
        self.stale = verdicts.stale
        moved = False
        if verdicts.position is not None and not self._navigated:
            found = self.session.find(verdicts.position)
            if found is not None and found != self.location.record:
                record = self.session.records[found]
                self.location = Location(found, 0 if record.quotes else None)
                moved = True
        if self.filter != "all" or moved:
            self._fill_records()
        else:  # redraw only the rows whose badge changed (none for a new database)
            self._update_rows(changed)
        shown = self.record
        if moved:
            self._show_record()
        elif self.stale or (shown and self.session.record_item(shown).key in changed):
            self.record_pane.stale = self.stale
            self.record_pane.refresh_record()
        self._verdicts_done()
        self._refresh_header()  # after: the header says "reading verdicts…" until they are

    def _verdicts_done(self) -> None:
        self._verdicts_ready.set()
        waiting, self._after_verdicts = self._after_verdicts, []
        for action in waiting:
            action()

    def _store_failed(self, error: BaseException) -> None:
        """The store could not be opened: say so in the header and a notice; nothing is saved."""
        first = self.store_error is None
        self.store_error = str(error) or type(error).__name__
        if first:
            self._refresh_header()
            self.notify(
                visible(f"verdicts cannot be saved: {self.store_error}"),
                title="Verdict database",
                severity="error",
                markup=False,
                timeout=30,
            )
        self._verdicts_done()

    def on_anchor_progress(self, message: AnchorProgress) -> None:
        self._refresh_header(anchoring=(message.done, message.total))

    def on_anchored(self, message: Anchored) -> None:
        self.session.anchors = message.anchors
        self.session.set_replays(message.replays)
        self._sources.update(message.sources)
        self.session.anchored = True
        self._fill_records()
        self._show_record()
        self._refresh_header()
        commit = self.revision.commit if self.revision is not None else None
        reportset, anchors = self.session.reportset, message.anchors
        self._write(lambda store: store.register(reportset, anchors, revision=commit))

    def _read_source(self, request: int, revision: Revision, path: str) -> None:
        source = revision.read(path)
        _ = source.lines  # split in the worker, not on the event loop
        self.post_message(SourceLoaded(request, source))

    @on(Worker.StateChanged)
    def _worker_failed(self, event: Worker.StateChanged) -> None:
        if event.state is not WorkerState.ERROR:
            return
        error = event.worker.error
        text = f"{event.worker.group} failed: {type(error).__name__}: {error}"
        if event.worker.group in ("load", "anchor", "source"):
            self.query_one(SourceView).show_message(visible(text), title="Source")
        self.notify(visible(text), severity="error", markup=False)

    def _write(
        self, work: Callable[[VerdictStore], object], then: Callable[..., Any] | None = None
    ) -> bool:
        """Run store work on the writer thread; ``then(result)`` runs on the UI afterwards.

        Refused with a notice (False) when the store is known to be unusable.
        """
        if self._refuse_unusable_store():
            return False
        self._writer.submit(work, then)
        return True

    def _refuse_unusable_store(self) -> bool:
        """True, with a notice saying why, when the store could not be opened."""
        if self.store_error is None:
            return False
        self.notify(
            visible(f"not saved: verdicts cannot be saved: {self.store_error}"),
            severity="error",
            markup=False,
            timeout=10,
        )
        return True

    def on_written(self, message: Written) -> None:
        if message.error is None:
            message.then(message.result)
            return
        reading = message.then == self._on_verdicts
        if self.store.error is not None:  # the store could not be opened
            if self.store_error is None:
                self._store_failed(self.store.error)  # in the header, and one notice
            elif not reading:
                self._refuse_unusable_store()  # a verdict given before that was known
            return
        what = "cannot read verdicts" if reading else "not saved"
        self.notify(visible(f"{what}: {message.error}"), severity="error", markup=False, timeout=10)
        if reading:
            self._verdicts_done()

    async def settle(self) -> None:
        """Wait until loading is done and every write so far is stored (for tests and tools)."""
        await self._loaded.wait()
        await self._verdicts_ready.wait()
        await self._writer.flush()
        for group in ("anchor", "source"):
            for worker in list(self.workers):
                if worker.group == group and worker.is_running:
                    await worker.wait()

    # --- header and records pane -----------------------------------------------------------------

    def _refresh_header(self, anchoring: tuple[int, int] | None = None) -> None:
        reports = self.session.reportset.reports
        if self.revision is not None:
            revision = f"@{self.revision.short}"
        elif self.revision_error:
            revision = "@(revision unavailable)"
        else:
            revision = f"@{(self.rev or 'HEAD')[:12]}…"
        if anchoring is not None:
            progress = f"anchoring quotes {anchoring[0]}/{anchoring[1]}…"
        elif self.revision is not None and not self.session.anchored:
            progress = "anchoring quotes…"
        elif self.store_error is None and not self._verdicts_ready.is_set():
            progress = "reading verdicts…"
        else:
            progress = self.session.progress_text()
        if self.stale:
            progress += f" · {len(self.stale)} stale"
        if self.store_error is not None:
            progress = "verdicts cannot be saved · " + progress
        self.query_one(ReviewHeader).show(
            system=reports[0].system if reports else "no reports",
            revision=revision,
            failed=bool(self.revision_error),
            reviewer=self.session.reviewer,
            progress=progress,
        )

    def _fill_records(self) -> None:
        self.records_pane.fill(self.filter, self.location.record)

    def _update_rows(self, record_keys: set[str]) -> None:
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
            self.go(Location(event.index, self._first_quote(event.index)), remember=False)

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

    def _first_quote(self, index: int) -> int | None:
        return 0 if self.session.records[index].quotes else None

    def _show_record(self) -> None:
        record = self.record
        pane = self.record_pane
        pane.stale, pane.revision_open = self.stale, self.revision is not None
        pane.show(record, self.location.quote)
        if record is None:
            self.query_one(SourceView).show_message("no records in these reports")
            return
        self.records_pane.show(self.location.record)
        self._show_source()

    @on(RecordPane.QuoteHighlighted)
    def _quote_highlighted(self, event: RecordPane.QuoteHighlighted) -> None:
        if event.quote != self.location.quote:
            self.location = Location(self.location.record, event.quote)
            self.opened_path = None
            self._show_source()

    @on(RecordPane.Followed)
    def _followed(self, event: RecordPane.Followed) -> None:
        self._follow_row(event.target)

    def _follow_row(self, row_id: str) -> None:
        if row_id.startswith("quote-"):
            self.set_focus(self.query_one(SourceView))
        elif row_id.startswith("ref-"):
            target = self.session.find(row_id.removeprefix("ref-"))
            if target is not None:
                self.jump(Location(target, self._first_quote(target)))
        elif row_id.startswith("ann-"):
            target = int(row_id.removeprefix("ann-"))
            self.jump(Location(target, self._first_quote(target)))
        elif row_id.startswith("hit-") and self.record is not None:
            search_index, hit_index = (int(n) for n in row_id.split("-")[1:3])
            search = self.record.searches[search_index]
            hits = self.session.replays.get((search.record, search.line)) or []
            if hit_index < len(hits):
                self.open_path(hits[hit_index].path, hits[hit_index].line)

    # --- source pane -----------------------------------------------------------------------------

    def _show_source(self) -> None:
        view = self.query_one(SourceView)
        self._refresh_quote_info()
        if self.opened_path is not None:
            return
        quote = self.quote
        if quote is None:
            self.source_request += 1  # a read still in flight is not shown any more
            self.shown_request = self.source_request
            record = self.record
            text = "this record quotes no source" if record is not None else ""
            view.show_message(text, title="Source")
            self._refresh_diff()
            return
        if self.revision is None:
            if self.revision_error is None:
                return  # still opening; the Loaded handler shows the quote
            view.show_message(f"cannot open the revision: {visible(self.revision_error)}")
            return
        self._open(quote.path)

    def _open(self, path: str) -> None:
        """Read a file from the revision in a worker; SourceLoaded shows it."""
        assert self.revision is not None
        self.source_request += 1
        request, revision = self.source_request, self.revision
        cached = self._sources.get(path)
        if cached is not None:  # read before: no git read, show it in this frame
            self.on_source_loaded(SourceLoaded(request, cached))
            return
        self.run_worker(
            lambda: self._read_source(request, revision, path),
            thread=True,
            exclusive=True,
            group="source",
            exit_on_error=False,
        )

    def on_source_loaded(self, message: SourceLoaded) -> None:
        if message.request != self.source_request:
            return
        self.shown_request = message.request
        source = self._source = message.source
        self._sources[source.path] = source
        while len(self._sources) > 96:
            self._sources.pop(next(iter(self._sources)))
        view = self.query_one(SourceView)
        short = self.revision.short if self.revision is not None else "?"
        problem = file_message(source)  # an empty file says so (it showed as a blank view)
        quote = self.quote if self.opened_path is None else None
        record = self.record
        if quote is not None and record is not None:
            title = Content.assemble(
                f"[{quote.index + 1}/{len(record.quotes)}] ",
                (visible(source.path), "bold"),
                f" @{short}",
            )
        else:
            title = Content.assemble((visible(source.path), "bold"), f" @{short}")
        if problem is not None:
            view.show_message(visible(problem), title=title)
            self._refresh_diff()
            return
        from evidence.backlinks import backlink_lines

        marks = SourceMarks(backlinks=backlink_lines(self.backlinks_of(source.path)))
        line = self._pending_line
        if quote is not None:
            anchor = self.session.anchor(quote)
            matched = anchor.lines if anchor is not None else None
            claimed = quote.claimed if quote.claimed != matched else None
            others = tuple(
                occurrence
                for occurrence in (anchor.occurrences if anchor is not None else ())
                if occurrence != matched
            )
            marks = SourceMarks(matched, claimed, others, marks.backlinks)
            target = matched or claimed
            line = target[0] if target else 1
        view.show(source.path, source.lines, marks=marks, line=line, title=title, key=source.oid)
        self._pending_line = None
        self._refresh_diff()

    def open_path(self, path: str, line: int | None = None) -> None:
        """Show a file of the revision (from the finder, grep or find), not tied to a quote."""
        if self.revision is None:
            self.notify("the revision is not open", severity="warning")
            return
        self.opened_path = path
        self._pending_line = line
        self._refresh_quote_info()
        self._open(path)

    def _refresh_quote_info(self) -> None:
        quote = self.quote
        anchor = self.session.anchor(quote) if quote is not None else None
        self.query_one(QuoteInfo).show(quote, anchor, opened=self.opened_path)

    def _refresh_diff(self) -> None:
        if not self.has_class("-diff"):
            return  # filled when shown
        quote = self.quote if self.opened_path is None else None
        anchor = self.session.anchor(quote) if quote is not None else None
        self.query_one(QuoteDiff).show(quote, anchor)

    # --- moving ----------------------------------------------------------------------------------

    def go(self, location: Location, *, remember: bool = False) -> None:
        """Show a record (and quote); with ``remember`` the jump can be undone with back."""
        if not self.session.records:
            return
        if remember and location != self.location:
            self.back_stack.append(self.location)
            self.forward_stack.clear()
        changed = location.record != self.location.record
        self.location = location
        self.opened_path = None
        self._navigated = True
        if changed and self.store_error is None:
            record, key = self.session.records[location.record], self.session.review_key
            self._write(lambda store: store.set_position(key, record.id))
        self._show_record()

    def jump(self, location: Location) -> None:
        """Go somewhere and remember where we came from."""
        self.go(location, remember=True)

    def action_next_record(self) -> None:
        self._step_record(1)

    def action_prev_record(self) -> None:
        self._step_record(-1)

    def _step_record(self, step: int) -> None:
        if not self.session.records:
            return
        target = self.session.next_index(self.location.record, step, self.filter)
        if target is not None:
            self.go(Location(target, self._first_quote(target)))

    def action_next_unreviewed(self) -> None:
        if not self.session.records:
            return
        target = self.session.next_index(self.location.record, 1, "unreviewed")
        if target is None:
            self.notify("every record has a verdict")
            return
        self.go(Location(target, self._first_quote(target)))

    def action_next_quote(self) -> None:
        self._step_quote(1)

    def action_prev_quote(self) -> None:
        self._step_quote(-1)

    def _step_quote(self, step: int) -> None:
        record = self.record
        if record is None or not record.quotes:
            self.notify("this record has no quotes")
            return
        if self.opened_path is not None or self.location.quote is None:
            quote = 0
        else:
            quote = (self.location.quote + step) % len(record.quotes)
        self.location = Location(self.location.record, quote)
        self.opened_path = None
        self.record_pane.highlight_quote(quote)
        self._show_source()

    def action_move_down(self) -> None:
        self._move_focused(1)

    def action_move_up(self) -> None:
        self._move_focused(-1)

    def _move_focused(self, step: int) -> None:
        focused = self.focused
        if isinstance(focused, (RowList, SourceView)):
            focused.action_cursor_down() if step > 0 else focused.action_cursor_up()
        elif isinstance(focused, Widget):
            focused.scroll_relative(y=step, animate=False)

    def _panes(self) -> list[Widget]:
        panes: list[Widget] = [self.records_pane, self.record_pane]
        panes.append(self.query_one(SourceView))
        if self.has_class("-diff"):
            panes.append(self.query_one("#diff"))
        return panes

    def action_next_pane(self) -> None:
        self._cycle_pane(1)

    def action_prev_pane(self) -> None:
        self._cycle_pane(-1)

    def _cycle_pane(self, step: int) -> None:
        panes = self._panes()
        focused = self.focused
        index = panes.index(focused) if focused in panes else -1
        # now, not after the keys already queued: `tab j` typed fast moves in the new pane
        self.set_focus(panes[(index + step) % len(panes)])

    def action_follow(self) -> None:
        focused = self.focused
        records, pane = self.records_pane, self.record_pane
        if focused is records:
            if records.highlighted is not None:
                records.action_select()
        elif focused is pane:
            if pane.highlighted is not None:
                self._follow_row(pane.highlighted_id)
        elif isinstance(focused, SourceView):
            self.action_backlinks()

    def action_back(self) -> None:
        if not self.back_stack:
            self.notify("nothing to go back to")
            return
        self.forward_stack.append(self.location)
        self.go(self.back_stack.pop())

    def action_forward(self) -> None:
        if not self.forward_stack:
            self.notify("nothing to go forward to")
            return
        self.back_stack.append(self.location)
        self.go(self.forward_stack.pop())

    def action_cycle_filter(self) -> None:
        self.filter = FILTERS[(FILTERS.index(self.filter) + 1) % len(FILTERS)]
        self._fill_records()
        if self.session.records and self.location.record not in self._rows:
            first = next((n for n in self._rows if n >= 0), None)
            if first is not None:
                self.go(Location(first, self._first_quote(first)))
        self.notify(f"showing {self.filter} records", timeout=2)

    # --- verdicts and notes ----------------------------------------------------------------------

    def _target(self) -> tuple[ItemRef, str] | None:
        """The item a verdict key acts on: the focused quote, else the record."""
        record = self.record
        if record is None:
            return None
        quote = None
        focused = self.focused
        if self.opened_path is None and self.quote is not None:
            in_source = isinstance(focused, SourceView) or focused is self.query_one("#diff")
            pane = self.record_pane
            if in_source or (focused is pane and pane.highlighted_id.startswith("quote-")):
                quote = self.quote
        if quote is not None:
            return self.session.quote_item(record, quote), f"{record.id} [{quote.index + 1}]"
        return self.session.record_item(record), record.id

    def _revision_id(self) -> str | None:
        return self.revision.commit if self.revision is not None else self.rev

    def action_verdict(self, value: str) -> None:
        target = self._target()
        if target is None:
            return
        item, label = target
        from db import Verdict

        verdict = Verdict(value)
        reviewer, revision = self.session.reviewer, self._revision_id()

        def saved(event: Event) -> None:
            self._after_change(event)
            self.notify(visible(f"{label}: {verdict.value}"), markup=False, timeout=2)

        self._write(
            lambda store: store.give(item, verdict, reviewer=reviewer, revision=revision), saved
        )

    def _after_change(self, event: Event) -> None:
        self.session.apply(event)
        record_key = event.ref.record_key
        self._update_rows({record_key})
        record = self.record
        if record is not None and self.session.record_item(record).key == record_key:
            self.record_pane.refresh_record()
        self._refresh_header()

    def action_undo(self) -> None:
        reviewer = self.session.reviewer

        def undone(event: Event | None) -> None:
            if event is None:
                self.notify("nothing to undo")
                return
            self._after_change(event)
            state = event.verdict.value if event.verdict else "no verdict"
            what = f"a quote of {event.record}" if event.quote else event.record
            self.notify(visible(f"undone: {what} is back to {state}"), markup=False, timeout=3)

        self._write(lambda store: store.undo(reviewer), undone)

    def action_note(self) -> None:
        target = self._target()
        if target is None:
            return
        if not self._verdicts_ready.is_set():  # the current note is not read yet: edit it then
            self._after_verdicts.append(lambda: self._edit_note(*target))
            return
        self._edit_note(*target)

    def _edit_note(self, item: ItemRef, label: str) -> None:
        if self._refuse_unusable_store():
            return
        verdict = self.session.verdict(item)
        from screens.note import NoteScreen

        title = f"Note on {label} · {verdict.value if verdict else 'not reviewed'}"
        reviewer, revision = self.session.reviewer, self._revision_id()

        def edited(text: str | None) -> None:
            if text is None:
                return
            self._write(
                lambda store: store.note(item, text, reviewer=reviewer, revision=revision),
                self._after_change,
            )

        self.app.push_screen(NoteScreen(title, self.session.note(item)), edited)

    # --- dialogs ---------------------------------------------------------------------------------

    def action_quit(self) -> None:
        self.app.exit()

    def action_help(self) -> None:
        from screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self.keymap))

    def action_toggle_theme(self) -> None:
        self.app.theme = "textual-light" if self.app.current_theme.dark else "textual-dark"

    def action_diff(self) -> None:
        self.toggle_class("-diff")
        self._refresh_diff()
        if not self.has_class("-diff") and self.focused is self.query_one("#diff"):
            self.query_one(SourceView).focus()


__all__ = ["ReviewScreen", "Location", "specs_for"]
