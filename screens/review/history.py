"""Where the reviewer is and has been: a location, and the jumps back and forward (no UI)."""

from __future__ import annotations

from typing import NamedTuple


class Location(NamedTuple):
    """Where the reviewer is: a record and (maybe) one of its quotes."""

    record: int
    quote: int | None = None


class History:
    """The locations left by jumps: `back` returns to them, `forward` undoes a `back`."""

    def __init__(self) -> None:
        self.back_stack: list[Location] = []
        self.forward_stack: list[Location] = []

    def left(self, here: Location) -> None:
        """A jump left ``here``: back returns to it, and what was ahead is forgotten."""
        self.back_stack.append(here)
        self.forward_stack.clear()

    def back(self, here: Location) -> Location | None:
        """Where back goes from ``here`` (None when nothing is behind)."""
        if not self.back_stack:
            return None
        self.forward_stack.append(here)
        return self.back_stack.pop()

    def forward(self, here: Location) -> Location | None:
        """Where forward goes from ``here`` (None unless back was used)."""
        if not self.forward_stack:
            return None
        self.back_stack.append(here)
        return self.forward_stack.pop()
