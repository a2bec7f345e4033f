"""The review screen's moves: to the next record or quote, along references, back and forward.

A part the review screen owns: it decides where to go; the screen shows it (`show_record`) and
the store keeps the review's position.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from screens.result_groups import GROUPING_NOTICES
from screens.review.history import History, Location, Place
from screens.safe import visible
from screens.session import FILTER_NOTICES, ReviewSession
from screens.widgets.cited_rows import cited_target

if TYPE_CHECKING:
    from textual.app import App
    from textual.widget import Widget

    from evidence.model import Quote, Record
    from screens.review.drift import DriftPart
    from screens.review.source import SourcePane
    from screens.review.verdicts import Verdicts
    from screens.widgets.quote_info import QuoteInfo
    from screens.widgets.record_pane import RecordPane
    from screens.widgets.records_pane import RecordsPane
    from screens.widgets.source_view import SourceView


class NavigationHost(Protocol):
    """What the moves need of the review screen."""

    session: ReviewSession
    location: Location
    filter: str
    sources: SourcePane
    verdicts: Verdicts
    drift: DriftPart

    @property
    def app(self) -> App[object]: ...

    @property
    def record(self) -> Record | None: ...

    @property
    def quote(self) -> Quote | None: ...

    @property
    def record_pane(self) -> RecordPane: ...

    @property
    def records_pane(self) -> RecordsPane: ...

    @property
    def rows(self) -> list[int]: ...

    @property
    def source_view(self) -> SourceView: ...

    @property
    def quote_info(self) -> QuoteInfo: ...

    def show_record(self) -> None: ...

    def fill_records(self) -> None: ...

    def focus_source(self) -> None: ...

    def open_path(self, path: str, line: int | None = None) -> None: ...

    @property
    def focused(self) -> Widget | None: ...

    def query_one(self, selector: str) -> Widget: ...

    def set_focus(self, widget: Widget | None, scroll_visible: bool = True) -> None: ...


class Navigation:
    """Moves the review screen's location; jumps can be retraced with back and forward."""

    def __init__(self, host: NavigationHost) -> None:
        self.host = host
        self.history: History[Place] = History()
        self.moved = False  # the reviewer moved (before the saved position was read, maybe)
        #: verdict keys act on the quote shown (selected with ]/[, or the cursor on its row),
        #: else on the record (selected with n/p, a row of the records list, or any other move)
        self.on_quote = False
        self.cleared = False  # the filter lists no record: the record and source panes are empty

    def target_quote(self) -> Quote | None:
        """The quote verdict keys act on (selected, and shown in the source pane), or None."""
        host = self.host
        return host.quote if self.on_quote and host.sources.opened_path is None else None

    def first_quote(self, index: int) -> int | None:
        """The quote shown first for a record: its first, if it has any."""
        return 0 if self.host.session.records[index].quotes else None

    def at(self, index: int) -> Location:
        """A record, at its first quote."""
        return Location(index, self.first_quote(index))

    def go(self, location: Location, *, remember: bool = False, on_quote: bool = False) -> None:
        """Show a record (and quote); with ``remember`` the jump can be undone with back.

        Verdict keys then act on the record, or with ``on_quote`` on the quote shown.
        """
        host = self.host
        if not host.session.records:
            return
        if remember and location != host.location:
            self.history.left(self.here())
        changed = location.record != host.location.record
        host.location = location
        self.on_quote = on_quote and location.quote is not None
        host.sources.opened_path = host.sources.found = None
        self.moved = True
        self.cleared = False
        if changed and host.verdicts.error is None:
            record, key = host.session.records[location.record], host.session.review_key
            host.verdicts.write(lambda store: store.set_position(key, record.id))
        host.show_record()

    def step_record(self, step: int, filter_name: str | None = None) -> None:
        """Go to the next (``step`` 1) or previous (-1) record passing the filter."""
        host = self.host
        if not host.session.records:
            return
        wanted = filter_name or host.filter
        target = host.session.next_index(host.location.record, step, wanted)
        if target is not None:
            self.go(self.at(target))
        elif filter_name == "unreviewed":
            host.app.notify("every record has a verdict")

    def step_quote(self, step: int) -> None:
        """Select the record's next (``step`` 1) or previous (-1) quote, wrapping.

        From the record (verdicts acting on it), the quote shown is selected first.
        """
        host = self.host
        record = host.record
        if record is None or not record.quotes:
            host.app.notify("this record has no quotes")
            return
        if host.sources.opened_path is not None or host.location.quote is None:
            quote = 0
        elif not self.on_quote:
            quote = min(host.location.quote, len(record.quotes) - 1)
        elif step < 0 and host.location.quote == 0:
            self.to_record()  # before the first quote: the record itself
            return
        else:
            quote = (host.location.quote + step) % len(record.quotes)
        self.select_quote(quote)

    def to_record(self) -> None:
        """Verdict keys act on the record again; the quote stays shown in the source pane."""
        if self.host.record is None or self.cleared:
            return
        self.select_quote(None)

    def select_quote(self, quote: int | None) -> None:
        """Verdict keys act on this quote of the record shown (None: on the record)."""
        host = self.host
        self.on_quote = quote is not None
        host.record_pane.highlight_quote(quote)
        if quote is not None and (
            quote != host.location.quote or host.sources.opened_path is not None
        ):
            host.location = Location(host.location.record, quote)
            host.sources.opened_path = host.sources.found = None
            host.sources.show_quote()
        else:
            host.sources.refresh_quote_info()  # the same file: only what verdicts act on

    def reach(self, location: Location) -> None:
        """Show a record, or a quote of it (``location.quote``), and select it for verdicts."""
        host = self.host
        if location.record != host.location.record or host.sources.opened_path is not None:
            quote = location.quote
            shown = Location(location.record, self.first_quote(location.record))
            self.go(shown if quote is None else location, remember=True, on_quote=quote is not None)
        else:
            self.select_quote(location.quote)
        host.record_pane.scroll_to_cursor()  # its row in view: the quote's, or the record's

    def back(self) -> None:
        place = self.history.back(self.here())
        if place is None:
            self.host.app.notify("nothing to go back to")
            return
        self.restore(place)

    def forward(self) -> None:
        place = self.history.forward(self.here())
        if place is None:
            self.host.app.notify("nothing to go forward to")
            return
        self.restore(place)

    def here(self) -> Place:
        """Where the reviewer is reading now: location, target, focused pane, and the lines of
        the record and source panes in view."""
        host = self.host
        pane, view = host.record_pane, host.source_view
        return Place(
            host.location,
            on_quote=self.on_quote,
            pane=host.focused.id if host.focused is not None else None,
            record_top=round(pane.scroll_y),
            record_row=pane.highlighted_id or None,
            opened=host.sources.opened_path,
            source_line=view.cursor_line if view.line_count else None,
            source_top=round(view.scroll_y),
        )

    def restore(self, place: Place) -> None:
        """Return to a place left by a jump, read where it was read."""
        host = self.host
        self.go(place.location, on_quote=place.on_quote)
        pane = host.record_pane
        if place.record_row is not None:
            pane.move_to(pane.row_index(place.record_row))
        pane.scroll_to(y=place.record_top, animate=False, immediate=True, force=True)
        if place.opened is not None:
            host.open_path(place.opened, place.source_line)
        if place.source_line is not None:
            host.sources.restore_view(place.source_line, place.source_top)
        if place.pane is not None:  # the pane read in (one hidden since cannot take the focus)
            widget = host.query_one(f"#{place.pane}")
            if widget.focusable:
                host.set_focus(widget)

    def cycle_filter(self) -> None:
        """Show the records of the next filter; go to the first one if the current is hidden."""
        host = self.host
        filters = host.session.filters()
        at = filters.index(host.filter) if host.filter in filters else -1
        host.filter = filters[(at + 1) % len(filters)]
        host.fill_records()
        first = next((n for n in host.rows if n >= 0), None)
        if first is None:
            self.clear(f'no records match "{host.filter}"')
        elif host.location.record not in host.rows:
            self.go(self.at(first))
        elif self.cleared:
            self.go(host.location)
        host.app.notify(FILTER_NOTICES[host.filter], timeout=2)

    def cycle_grouping(self) -> None:
        """Group the SARIF results by the next way (rule, file, severity); the cursor stays on
        the record shown, its group's heading above it when both fit."""
        host = self.host
        grouping = host.session.cycle_grouping()
        host.fill_records()
        host.records_pane.show_heading()
        host.app.notify(GROUPING_NOTICES[grouping], timeout=2)

    def shows_a_record(self) -> bool:
        """False (and says why) when the filter lists no record: no verdict or note on one."""
        if self.cleared:
            filter_name = self.host.filter
            self.host.app.notify(f'no records match "{filter_name}": change the filter first')
        return not self.cleared

    def clear(self, message: str) -> None:
        """Empty the record and source panes: the filter lists no record to show."""
        host = self.host
        self.cleared = True
        host.sources.opened_path = None
        pane = host.record_pane
        pane.show(None, None)
        pane.border_title, pane.border_subtitle = "Record", ""
        host.source_view.show_message(message, title="Source")
        host.quote_info.show(None, None, opened=None)

    def follow(self, row_id: str) -> None:
        """Follow a row of the record pane: a quote, a reference, an annotation, a search hit."""
        host = self.host
        if row_id.startswith("quote-"):
            self.select_quote(int(row_id.removeprefix("quote-")))  # chosen: verdicts act on it
            if host.sources.missing_but_found():
                host.sources.open_found()  # not in its cited file: where it was found
            host.focus_source()
        elif row_id.startswith("ref-"):
            target = host.session.find(row_id.removeprefix("ref-"))
            if target is not None:
                self.go(self.at(target), remember=True)
        elif row_id.startswith("ann-"):
            self.go(self.at(int(row_id.removeprefix("ann-"))), remember=True)
        elif row_id.startswith("hit-") and host.record is not None:
            search_index, hit_index = (int(n) for n in row_id.split("-")[1:3])
            search = host.record.searches[search_index]
            hits = host.session.replays.get((search.record, search.line)) or []
            if hit_index < len(hits):
                host.open_path(hits[hit_index].path, hits[hit_index].line)
                host.focus_source()
        elif row_id.startswith("commit-"):
            host.drift.show_commit(row_id)
        elif row_id.startswith("cite-") and host.record is not None:
            path, why = cited_target(host.session, host.record, row_id)
            if path is not None:
                host.open_path(path)
            elif why:
                host.app.notify(visible(why), markup=False, timeout=4)

    def preview(self, row_id: str) -> None:
        """The cursor of the record pane is on a row that is not a quote: a search hit shows in
        the source pane at its line (as a quote does), without moving the focus."""
        host = self.host
        if not row_id.startswith("hit-") or host.record is None:
            return
        search_index, hit_index = (int(n) for n in row_id.split("-")[1:3])
        search = host.record.searches[search_index]
        hits = host.session.replays.get((search.record, search.line)) or []
        if hit_index < len(hits):
            host.open_path(hits[hit_index].path, hits[hit_index].line)
