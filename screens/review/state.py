"""Where the review is: the record and quote shown, what verdict keys act on, the file opened by
path, the filter, and the revision read. The parts are given this object and change it; the
review screen watches it (``watch``) and redraws what follows from a change.

Also the base of the parts that receive their own messages (`Part`): widgets without a place on
the screen, so that what their workers and the store's writer post comes back to them.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, overload

from textual.message import Message
from textual.widget import Widget

from screens.review.history import Location

if TYPE_CHECKING:
    from db import Event, StaleVerdict
    from db.gone import Was
    from evidence.model import Quote, Record
    from evidence.revision import CommitSummary, Revision
    from screens.session import ReviewSession

T = TypeVar("T")

#: the fields whose changes the watchers are told of
WATCHED = frozenset({"location", "filter", "revision", "revision_error", "on_quote", "opened"})


class ReviewState:
    """The review's location and what it reads; setting a watched field calls its watchers
    (synchronously, as Textual's reactive attributes do), once per `update`."""

    def __init__(self, session: ReviewSession) -> None:
        self._watchers: list[tuple[frozenset[str], Callable[[], object]]] = []
        self.session = session
        first = session.order[0] if session.order else 0  # the first record listed
        quoted = bool(session.records) and bool(session.records[first].quotes)
        self.location = Location(first, 0 if quoted else None)
        #: verdict keys act on the quote shown (selected with ]/[, or the cursor on its row),
        #: else on the record (selected with n/p, a row of the records list, or any other move)
        self.on_quote = False
        self.opened: str | None = None  # a file opened by path (finder, grep) rather than a quote
        # the file opened is REV's (the finder's or grep's at REV), not known as a cited file
        self.opened_at_against = False
        # the quote shown where it was found in another file: (quote, index in its `elsewhere`)
        self.found: tuple[Quote, int] | None = None
        self.filter = "all"
        self.cleared = False  # the filter lists no record: the record and source panes are empty
        self.revision: Revision | None = None
        self.revision_error: str | None = None
        self.remote: str | None = None  # the origin URL, read with the revision (permalinks)
        self.commit: CommitSummary | None = None  # its subject, author and date (the header)
        self.stale: list[StaleVerdict] = []  # verdicts on quotes or records no longer in reports
        #: every item found stale at launch, in order: why, and what it was (db/gone.py; None:
        #: never registered here, or past the first ones described)
        self.gone: dict[str, tuple[str, Was | None]] = {}
        self.store_error: str | None = None  # why verdicts cannot be saved (store unusable)
        self.verdicts_read = False  # the reviewer's verdicts are read from the store (or failed)
        #: changes given that wait for the store (another process holds it locked), oldest
        #: first: the item key each is on (None: a group's results) and what it gives there
        self.waiting: list[tuple[str | None, str]] = []

    def watch(self, names: set[str], callback: Callable[[], object]) -> None:
        """Call ``callback`` after any of these fields changed."""
        self._watchers.append((frozenset(names), callback))

    def update(self, **fields: Any) -> None:
        """Set several fields, then call the watchers of those that changed (each once)."""
        changed = {name for name, value in fields.items() if getattr(self, name) != value}
        for name, value in fields.items():
            object.__setattr__(self, name, value)
        if "opened" in fields and fields["opened"] is None:  # no file opened, so none of REV's
            object.__setattr__(self, "opened_at_against", False)
        for names, callback in self._watchers:
            if names & changed:
                callback()

    def __setattr__(self, name: str, value: Any) -> None:
        if name in WATCHED and hasattr(self, "_watchers") and hasattr(self, name):
            self.update(**{name: value})
        else:
            object.__setattr__(self, name, value)

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

    def target_quote(self) -> Quote | None:
        """The quote verdict keys act on (selected, and shown in the source pane), or None."""
        return self.quote if self.on_quote and self.opened is None else None


def restale(state: ReviewState, events: list[Event]) -> bool:
    """Events stored on stale items: one left unreviewed leaves the list, one given its verdict
    again (an undo) comes back to it, in its place. Whether the list changed."""
    from db import StaleVerdict

    gone = state.gone
    touched = [event for event in events if event.item in gone]
    if not touched:
        return False
    by_item = {stale.event.item: stale for stale in state.stale}
    for event in touched:
        if event.empty:
            by_item.pop(event.item, None)
        else:
            by_item[event.item] = StaleVerdict(event, gone[event.item][0])
    state.stale = [by_item[key] for key in gone if key in by_item]
    return True


class Part(Widget):
    """A part of the review screen that handles the messages its work posts back to it."""

    DEFAULT_CSS: ClassVar[str] = "Part { display: none; }"

    @property
    def screen_up(self) -> bool:
        """Whether the part's screen is still up. Work can come back after the reviewer quit or
        closed the screen, while its panes are being taken down: it must not draw them."""
        return self.is_attached and self.screen.is_running


P = TypeVar("P", bound=Part)
M = TypeVar("M", bound=Message)


def while_shown(handler: Callable[[P, M], None]) -> Callable[[P, M], None]:
    """A part's handler of what its work brings back, skipped once the screen is going
    (`Part.screen_up`)."""

    @wraps(handler)  # Textual reads the handler's parameters through this
    def guarded(part: P, message: M) -> None:
        if part.screen_up:
            handler(part, message)

    return guarded


class StateView(Generic[T]):
    """A read-only view of a field of the `ReviewState` its owner holds as ``state`` (the review
    screen's location, for the app, tests and tools)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, holder: None, owner: type) -> StateView[T]: ...

    @overload
    def __get__(self, holder: object, owner: type) -> T: ...

    def __get__(self, holder: Any, owner: type) -> StateView[T] | T:
        if holder is None:  # read on the class
            return self
        value: T = getattr(holder.state, self.name)
        return value
