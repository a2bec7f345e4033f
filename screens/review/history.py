"""Where the reviewer is and has been: a location, and the jumps back and forward (no UI)."""

from __future__ import annotations

from typing import Generic, NamedTuple, TypeVar


class Location(NamedTuple):
    """Where the reviewer is: a record and (maybe) one of its quotes."""

    record: int
    quote: int | None = None


class Place(NamedTuple):
    """Where the reviewer was reading when a jump left: the location, what verdict keys acted
    on, the focused pane, and how far each pane was read (back returns to all of it)."""

    location: Location
    on_quote: bool = False
    pane: str | None = None  # the id of the focused pane
    record_top: int = 0  # the record pane's first line shown
    record_row: str | None = None  # the id of the record pane's row under the cursor
    opened: str | None = None  # a file opened by path in the source pane (not the quote's)
    opened_at_against: bool = False  # that file is REV's, with no cited file known to be it
    source_line: int | None = None  # the source pane's cursor line (None: no file shown)
    source_top: int = 0  # the source pane's first line shown


Entry = TypeVar("Entry")


class History(Generic[Entry]):
    """The places left by jumps: `back` returns to them, `forward` undoes a `back`."""

    def __init__(self) -> None:
        self.back_stack: list[Entry] = []
        self.forward_stack: list[Entry] = []

    def left(self, here: Entry) -> None:
        """A jump left ``here``: back returns to it, and what was ahead is forgotten."""
        self.back_stack.append(here)
        self.forward_stack.clear()

    def back(self, here: Entry) -> Entry | None:
        """Where back goes from ``here`` (None when nothing is behind)."""
        if not self.back_stack:
            return None
        self.forward_stack.append(here)
        return self.back_stack.pop()

    def forward(self, here: Entry) -> Entry | None:
        """Where forward goes from ``here`` (None unless back was used)."""
        if not self.forward_stack:
            return None
        self.back_stack.append(here)
        return self.forward_stack.pop()
