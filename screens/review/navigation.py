"""The review screen's moves: to the next record or quote, along references, back and forward.

A part the review screen owns: it moves the review's location (`ReviewState`), shows the record
there in the record and records panes and asks the source pane for its quote; the store keeps the
review's position (`Verdicts.save_position`, watching the location).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from evidence.citations import files_matching
from screens.dialog import kept
from screens.result_groups import GROUPING_NOTICES
from screens.review.history import History, Location, Place
from screens.safe import visible
from screens.widgets.cited_rows import cited_line, cited_pattern, cited_target
from screens.widgets.record_pane import RecordPane
from screens.widgets.records_pane import RecordsPane
from screens.widgets.source_view import SourceView

#: what each filter shows, in words (the notice when it is chosen, the empty list's message)
FILTER_NOTICES: dict[str, str] = {
    "all": "showing all records",
    "unreviewed": "showing records without a verdict",
    "refuted": "showing refuted records and records with a refuted quote",
    "failing quotes": "showing records with failing quotes",
    "new results": "showing SARIF results new since the baseline (and every other record)",
    "unsuppressed": "showing records but the SARIF results a suppression accepts",
    "drifted": (
        "showing records with a quote changed or deleted, or a cited file gone or its lines"
        " changed, since the cited revision"
    ),
}

if TYPE_CHECKING:
    from textual.message import Message
    from textual.screen import Screen
    from textual.timer import Timer

    from evidence.model import Quote
    from screens.review.drift import DriftPart
    from screens.review.source import SourcePane
    from screens.review.state import ReviewState


#: seconds after a record is shown that the next one is prepared (after its frame is painted)
PREPARE_AFTER = 0.01


class Navigation:
    """Moves the review's location; jumps can be retraced with back and forward."""

    def __init__(
        self,
        state: ReviewState,
        screen: Screen[None],
        panes: tuple[RecordsPane, RecordPane],
        sources: SourcePane,
        drift: DriftPart,
    ) -> None:
        self.state, self.session = state, state.session
        self.screen = screen  # the focus, and the panes by id (a place read before a jump)
        self.records_pane, self.record_pane = panes
        self.sources, self.drift = sources, drift
        self.history: History[Place] = History()
        self.moved = False  # the reviewer moved (before the saved position was read, maybe)
        self._followed: int | None = None  # the record pane's row a key moved onto, shown
        self.direction = 1  # the last step between records (1: next, -1: previous)
        self._prepare_timer: Timer | None = None
        state.watch({"filter"}, self.fill_records)

    @property
    def on_quote(self) -> bool:
        """Verdict keys act on the quote shown (else on the record)."""
        return self.state.on_quote

    def target_quote(self) -> Quote | None:
        """The quote verdict keys act on (selected, and shown in the source pane), or None."""
        return self.state.target_quote()

    def notify(self, message: str, **options: Any) -> None:
        self.screen.notify(message, **options)

    def first_quote(self, index: int) -> int | None:
        """The quote shown first for a record: its first, if it has any."""
        return 0 if self.session.records[index].quotes else None

    def at(self, index: int) -> Location:
        """A record, at its first quote."""
        return Location(index, self.first_quote(index))

    def show_record(self) -> None:
        """Show the record of the location, its row in the records list and its quote's file."""
        state = self.state
        record = state.record
        pane = self.record_pane
        pane.stale, pane.revision_open = state.stale, state.revision is not None
        pane.show(record, state.location.quote if state.on_quote else None)
        if record is None:
            self.sources.view.show_message("no records in these reports")
            return
        self.records_pane.show(state.location.record)
        self.sources.show_quote()
        # counted from the painted frame, not from the show: a frame can take longer than
        # PREPARE_AFTER (the launch's does), and the preparation would follow it at once
        self.screen.call_after_refresh(self._prepare_later, state.location.record)

    def _prepare_later(self, shown: int) -> None:
        if self._prepare_timer is not None:
            self._prepare_timer.stop()
        self._prepare_timer = self.screen.set_timer(
            PREPARE_AFTER, partial(self.prepare_next, shown)
        )

    def prepare_next(self, shown: int) -> None:
        """After the record's frame, measure and draw the one the last move leads to, so that
        the next press of the same key finds it drawn (a held key: the work moves from its frame
        to the pause before it)."""
        self._prepare_timer = None
        if shown != self.state.location.record or not self.session.records:
            return  # moved on since
        after = self.session.next_index(shown, self.direction, self.state.filter)
        if after is not None and after != shown:
            self.record_pane.prepare_record(self.session.records[after], None)  # as `go` shows
            self.sources.prepare(self.session.records[after])

    def fill_records(self) -> None:
        """List the records of the filter, the cursor on the record shown."""
        self.records_pane.fill(self.state.filter, self.state.location.record)

    def refilter(self) -> None:
        """List the filter's records again after many changed at once (a group verdict): one
        by one they stay listed until `f`, a group given its verdict under "unreviewed" leaves
        (the next group is what is left to do); the record shown, once not listed, gives way
        to the next one listed."""
        state = self.state
        if state.filter == "all":
            return
        self.fill_records()
        record = state.record
        if record is None or self.session.visible(record, state.filter):
            return
        following = self.session.next_index(state.location.record, 1, state.filter)
        if following is None:
            self.clear(f'no records match "{state.filter}"')
        else:
            self.go(self.at(following))

    def go(self, location: Location, *, remember: bool = False, on_quote: bool = False) -> None:
        """Show a record (and quote); with ``remember`` the jump can be undone with back.

        Verdict keys then act on the record, or with ``on_quote`` on the quote shown.
        """
        state = self.state
        if not self.session.records:
            return
        if remember and location != state.location:
            self.history.left(self.here())
        self.moved = True
        state.cleared = False
        on_quote = on_quote and location.quote is not None
        state.update(location=location, on_quote=on_quote, opened=None, found=None)
        self.show_record()

    def jump(self, location: Location) -> None:
        """Go somewhere and remember where we came from."""
        self.go(location, remember=True)

    def visit(
        self,
        path: str,
        line: int | None = None,
        column: int | None = None,
        *,
        at_against: bool = False,
    ) -> None:
        """Open a file of the revision in the source pane (a cited file, the finder's, grep's)
        and remember where the reviewer was reading, for back (``column``: where on ``line``
        to bring into view, 0-based; ``at_against``: a path at REV, from a lookup there)."""
        self.history.left(self.here())
        self.sources.open_path(path, line, column, at_against=at_against)

    def step(self, what: str, step: int = 1) -> None:
        """A move by a key: the next (``step`` 1) or previous (-1) ``record``, ``unreviewed``
        record or ``quote``; ``back`` or ``forward`` along the jumps; or the record as the
        ``target`` of verdict keys."""
        if what == "quote":
            self.step_quote(step)
        elif what == "target":
            self.to_record()
        elif what in ("back", "forward"):
            self.retrace(back=what == "back")
        else:
            self.step_record(step, "unreviewed" if what == "unreviewed" else None)

    def step_record(self, step: int, filter_name: str | None = None) -> None:
        """Go to the next (``step`` 1) or previous (-1) record passing the filter."""
        state = self.state
        if not self.session.records:
            return
        wanted = filter_name or state.filter
        self.direction = step
        target = self.session.next_index(state.location.record, step, wanted)
        if target is not None:
            self.go(self.at(target))
        elif filter_name == "unreviewed":
            self.notify("every record has a verdict")

    def step_quote(self, step: int) -> None:
        """Select the record's next (``step`` 1) or previous (-1) quote, wrapping.

        From the record (verdicts acting on it), the quote shown is selected first.
        """
        state = self.state
        record, at = state.record, state.location.quote
        if record is None or not record.quotes:
            self.notify("this record has no quotes")
            return
        if state.opened is not None or at is None:
            quote = 0
        elif not state.on_quote:
            quote = min(at, len(record.quotes) - 1)
        elif step < 0 and at == 0:
            self.to_record()  # before the first quote: the record itself
            return
        else:
            quote = (at + step) % len(record.quotes)
        self.select_quote(quote)

    def to_record(self) -> None:
        """Verdict keys act on the record again; the quote stays shown in the source pane."""
        if self.state.record is None or self.state.cleared:
            return
        self.select_quote(None)

    def select_quote(self, quote: int | None) -> None:
        """Verdict keys act on this quote of the record shown (None: on the record)."""
        state = self.state
        state.on_quote = quote is not None
        self.record_pane.highlight_quote(quote)
        if quote is not None and (quote != state.location.quote or state.opened is not None):
            state.update(location=Location(state.location.record, quote), opened=None, found=None)
            self.sources.show_quote()
        else:
            self.sources.refresh_quote_info()  # the same file: only what verdicts act on

    def reach(self, location: Location) -> None:
        """Show a record, or a quote of it (``location.quote``), and select it for verdicts."""
        if location.record != self.state.location.record or self.state.opened is not None:
            quote = location.quote
            shown = Location(location.record, self.first_quote(location.record))
            self.go(shown if quote is None else location, remember=True, on_quote=quote is not None)
        else:
            self.select_quote(location.quote)
        self.record_pane.scroll_to_cursor()  # its row in view: the quote's, or the record's

    def retrace(self, *, back: bool) -> None:
        """Back to where the last jump left, or forward again after back."""
        here = self.here()
        place = self.history.back(here) if back else self.history.forward(here)
        if place is None:
            self.notify(f"nothing to go {'back' if back else 'forward'} to")
            return
        self.restore(place)

    def here(self) -> Place:
        """Where the reviewer is reading now: location, target, focused pane, and the lines of
        the record and source panes in view."""
        pane, view, focused = self.record_pane, self.sources.view, self.screen.focused
        return Place(
            self.state.location,
            on_quote=self.state.on_quote,
            pane=focused.id if focused is not None else None,
            record_top=round(pane.scroll_y),
            record_row=pane.highlighted_id or None,
            opened=self.state.opened,
            opened_at_against=self.state.opened_at_against,
            source_line=view.cursor_line if view.line_count else None,
            source_top=round(view.scroll_y),
        )

    def restore(self, place: Place) -> None:
        """Return to a place left by a jump, read where it was read."""
        self.go(place.location, on_quote=place.on_quote)
        pane = self.record_pane
        if place.record_row is not None:
            pane.move_to(pane.row_index(place.record_row))
        pane.scroll_to(y=place.record_top, animate=False, immediate=True, force=True)
        if place.opened is not None:
            self.sources.open_path(
                place.opened, place.source_line, at_against=place.opened_at_against
            )
        if place.source_line is not None:
            self.sources.restore_view(place.source_line, place.source_top)
        if place.pane is not None:  # the pane read in (one hidden since cannot take the focus)
            widget = self.screen.query_one(f"#{place.pane}")
            if widget.focusable:
                self.screen.set_focus(widget)

    def cycle(self, what: str) -> None:
        """The next filter of the records (``what`` "filter") or grouping of the results."""
        if what == "filter":
            self.cycle_filter()
        else:
            self.cycle_grouping()

    def cycle_filter(self) -> None:
        """Show the records of the next filter; go to the first one if the current is hidden."""
        state = self.state
        filters = self.session.filters()
        at = filters.index(state.filter) if state.filter in filters else -1
        state.filter = filters[(at + 1) % len(filters)]  # listed (`fill_records`)
        rows = self.records_pane.rows
        first = next((n for n in rows if n >= 0), None)
        if first is None:
            self.clear(f'no records match "{state.filter}"')
        elif state.location.record not in rows:
            self.go(self.at(first))
        elif self.state.cleared:
            self.go(state.location)
        self.notify(FILTER_NOTICES[state.filter], timeout=2)

    def cycle_grouping(self) -> None:
        """Group the SARIF results by the next way (rule, file, severity); the cursor stays on
        the record shown, its group's heading above it when both fit."""
        grouping = self.session.cycle_grouping()
        self.fill_records()
        self.records_pane.show_heading()
        self.notify(GROUPING_NOTICES[grouping], timeout=2)

    def shows_a_record(self) -> bool:
        """False (and says why) when the filter lists no record: no verdict or note on one."""
        if self.state.cleared:
            self.notify(f'no records match "{self.state.filter}": change the filter first')
        return not self.state.cleared

    def clear(self, message: str) -> None:
        """Empty the record and source panes: the filter lists no record to show."""
        self.state.cleared = True
        self.state.opened = None
        pane = self.record_pane
        pane.show(None, None)
        pane.border_title, pane.border_subtitle = "Record", ""
        self.sources.view.show_message(message, title="Source")
        self.sources.info.show(None, None, opened=None)
        self.sources.show_target()  # on nothing: `c` says so too (`shows_a_record`)

    def pane_moved(self, event: Message) -> None:
        """The cursor moved in the records or the record pane, or a row was chosen there."""
        records, pane = self.records_pane, self.record_pane
        if isinstance(event, RecordsPane.RecordHighlighted):
            if records.highlighted is None or records.rows[records.highlighted] != event.index:
                return  # the pane was refilled since (e.g. the saved position was read): stale
            if event.index != self.state.location.record:
                self._list_move(event.index)
        elif isinstance(event, RecordsPane.RecordSelected):
            self.screen.set_focus(self.record_pane)
        elif isinstance(event, (RecordPane.QuoteHighlighted, RecordPane.RowHighlighted)):
            if isinstance(event, RecordPane.RowHighlighted):
                row_id = event.row_id
            else:
                row_id = "record" if event.quote is None else f"quote-{event.quote}"
            # the cursor has moved on since (a newer message follows), or a key's move was
            # followed when it was made (`cursor_moved`)
            if pane.highlighted_id != row_id or self._followed == pane.highlighted:
                return
            self._followed = None
            self._show_row(row_id)
        elif isinstance(event, RecordPane.Followed):
            self.follow(event.target)

    def cursor_moved(self, focused: object) -> None:
        """A key moved the cursor of the focused pane: what it is on now is shown at once, in
        the frame that paints the cursor, not a frame later when the pane's message arrives."""
        records, pane = self.records_pane, self.record_pane
        if focused is records and records.highlighted is not None:
            index = records.rows[records.highlighted]
            if index != self.state.location.record:
                self._list_move(index)
        elif focused is pane and pane.highlighted is not None:
            self._followed = pane.highlighted
            self._show_row(pane.highlighted_id)

    def _list_move(self, index: int) -> None:
        """Show the record the records list's cursor moved to; the record prepared after its
        frame is the next one in the same direction (`k` prepares the one above, as `p` does)."""
        if not self.session.records:
            return
        up = self.session.next_index(self.state.location.record, -1, self.state.filter)
        self.direction = -1 if index == up else 1
        self.go(self.at(index))

    def _show_row(self, row_id: str) -> None:
        """What the record pane's cursor row shows: its quote, the record, or a search hit."""
        if row_id.startswith("quote-"):
            self.select_quote(int(row_id.removeprefix("quote-")))
        elif row_id == "record":
            self.select_quote(None)
        else:
            self.preview(row_id)

    def follow_focused(self) -> bool:
        """Follow the row under the cursor of the focused pane (records: choose it; record: the
        quote or reference); False when the source pane is focused (not a move)."""
        focused, records, pane = self.screen.focused, self.records_pane, self.record_pane
        if focused is records and records.highlighted is not None:
            records.action_select()
        elif focused is pane and pane.highlighted is not None:
            self.follow(pane.highlighted_id)
        return not isinstance(focused, SourceView)

    def follow(self, row_id: str) -> None:
        """Follow a row of the record pane: a quote, a reference, an annotation, a search hit."""
        record = self.state.record
        if row_id.startswith("quote-"):
            self.select_quote(int(row_id.removeprefix("quote-")))  # chosen: verdicts act on it
            if self.sources.missing_but_found():
                self.sources.open_found()  # not in its cited file: where it was found
            self.screen.set_focus(self.sources.view)
        elif row_id.startswith("ref-"):
            target = self.session.find(row_id.removeprefix("ref-"))
            if target is not None:
                self.go(self.at(target), remember=True)
        elif row_id.startswith("ann-"):
            self.go(self.at(int(row_id.removeprefix("ann-"))), remember=True)
        elif row_id.startswith("hit-") and self.preview(row_id):
            self.screen.set_focus(self.sources.view)
        elif row_id.startswith(("commit-", "filecommit-")):
            self.drift.show_commit(row_id)
        elif row_id.startswith("cite-") and record is not None:
            path, why = cited_target(self.session, record, row_id)
            pattern = cited_pattern(self.session, record, row_id)
            if pattern is not None:
                self.choose_matching(pattern)
            elif path is not None:
                self.visit(path, cited_line(self.session, record, row_id))
            elif why:
                self.notify(visible(why), markup=False, timeout=4)

    def cited_against(self) -> bool:
        """`t` on a cited file's row (or a row under it) in the record pane: open that file at
        REV, as `enter` then `t` would. False when the cursor is on no such row, the file is
        shown already (`t` then goes back and forth), or it has no drift."""
        record, pane = self.state.record, self.record_pane
        row_id = pane.highlighted_id if self.screen.focused is pane else ""
        if record is None or self.drift.against is None:
            return False
        if not row_id.startswith(("cite-", "filecommit-")):
            return False
        cite = f"cite-{row_id.split('-')[1]}"
        path, _why = cited_target(self.session, record, cite)
        if path is None or path == self.state.opened:
            return False
        if not any(key[0] == path for key in self.session.cited_drifts):
            return False
        self.drift.showing_against = True
        self.visit(path, cited_line(self.session, record, cite))
        return True

    def choose_matching(self, pattern: str) -> None:
        """The file finder over the files a cited wildcard matches; the one chosen opens."""
        revision = self.state.revision
        if revision is None:
            return
        from screens.finder import FileFinder

        def chosen(path: str | None) -> None:
            if path:
                self.visit(path)

        matched = files_matching(pattern, revision.paths(), revision.root)
        title = f"{visible(pattern)}: {len(matched)} file{'s' if len(matched) != 1 else ''}"
        self.screen.app.push_screen(kept(self.screen.app, FileFinder, matched, title=title), chosen)

    def preview(self, row_id: str) -> bool:
        """The cursor of the record pane is on a row that is not a quote: a search hit shows in
        the source pane at its line (as a quote does), without moving the focus; True when one
        was shown."""
        record = self.state.record
        if not row_id.startswith("hit-") or record is None:
            return False
        search_index, hit_index = (int(n) for n in row_id.split("-")[1:3])
        search = record.searches[search_index]
        hits = self.session.replays.get((search.record, search.line)) or []
        if hit_index >= len(hits):
            return False
        hit = hits[hit_index]
        self.sources.open_path(hit.path, hit.line, hit.spans[0][0] if hit.spans else None)
        return True
