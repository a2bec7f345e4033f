"""The review screen's moves: to the next record or quote, along references, back and forward.

A part the review screen owns: it decides where to go; the screen shows it (`show_record`) and
the store keeps the review's position.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from screens.review.history import History, Location
from screens.session import ReviewSession

if TYPE_CHECKING:
    from textual.app import App

    from evidence.model import Record
    from screens.review.source import SourcePane
    from screens.review.verdicts import Verdicts
    from screens.widgets.record_pane import RecordPane


class NavigationHost(Protocol):
    """What the moves need of the review screen."""

    session: ReviewSession
    location: Location
    filter: str
    sources: SourcePane
    verdicts: Verdicts

    @property
    def app(self) -> App[object]: ...

    @property
    def record(self) -> Record | None: ...

    @property
    def record_pane(self) -> RecordPane: ...

    @property
    def rows(self) -> list[int]: ...

    def show_record(self) -> None: ...

    def fill_records(self) -> None: ...

    def focus_source(self) -> None: ...

    def open_path(self, path: str, line: int | None = None) -> None: ...


class Navigation:
    """Moves the review screen's location; jumps can be retraced with back and forward."""

    def __init__(self, host: NavigationHost) -> None:
        self.host = host
        self.history = History()
        self.moved = False  # the reviewer moved (before the saved position was read, maybe)

    def first_quote(self, index: int) -> int | None:
        """The quote shown first for a record: its first, if it has any."""
        return 0 if self.host.session.records[index].quotes else None

    def at(self, index: int) -> Location:
        """A record, at its first quote."""
        return Location(index, self.first_quote(index))

    def go(self, location: Location, *, remember: bool = False) -> None:
        """Show a record (and quote); with ``remember`` the jump can be undone with back."""
        host = self.host
        if not host.session.records:
            return
        if remember and location != host.location:
            self.history.left(host.location)
        changed = location.record != host.location.record
        host.location = location
        host.sources.opened_path = None
        self.moved = True
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
        """Show the record's next (``step`` 1) or previous (-1) quote, wrapping."""
        host = self.host
        record = host.record
        if record is None or not record.quotes:
            host.app.notify("this record has no quotes")
            return
        if host.sources.opened_path is not None or host.location.quote is None:
            quote = 0
        else:
            quote = (host.location.quote + step) % len(record.quotes)
        host.location = Location(host.location.record, quote)
        host.sources.opened_path = None
        host.record_pane.highlight_quote(quote)
        host.sources.show_quote()

    def back(self) -> None:
        location = self.history.back(self.host.location)
        if location is None:
            self.host.app.notify("nothing to go back to")
            return
        self.go(location)

    def forward(self) -> None:
        location = self.history.forward(self.host.location)
        if location is None:
            self.host.app.notify("nothing to go forward to")
            return
        self.go(location)

    def cycle_filter(self) -> None:
        """Show the records of the next filter; go to the first one if the current is hidden."""
        host = self.host
        filters = host.session.filters()
        at = filters.index(host.filter) if host.filter in filters else -1
        host.filter = filters[(at + 1) % len(filters)]
        host.fill_records()
        if host.session.records and host.location.record not in host.rows:
            first = next((n for n in host.rows if n >= 0), None)
            if first is not None:
                self.go(self.at(first))
        host.app.notify(f"showing {host.filter} records", timeout=2)

    def follow(self, row_id: str) -> None:
        """Follow a row of the record pane: a quote, a reference, an annotation, a search hit."""
        host = self.host
        if row_id.startswith("quote-"):
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
