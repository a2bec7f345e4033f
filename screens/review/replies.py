"""The replies of the review's store work (`Written.reply`): what each work was, for the part
that takes its result in, and for the notice when it fails."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from screens.review.changes import Redone, Undone
from screens.review.groups import GaveGroup
from screens.review.history import Location

if TYPE_CHECKING:
    from db import ItemRef


class Target(NamedTuple):
    """What verdict keys act on: an item of the store, its name, and where it is."""

    item: ItemRef
    label: str  # "quote [2] of KS-RTE-x" or "record KS-RTE-x"
    location: Location  # its record, and its quote (None for the record)


class Gave(NamedTuple):
    """The reply of a verdict's store work (`Written.reply`): on what, and which verdict."""

    target: Target
    verdict: str


class Noted(NamedTuple):
    """The reply of a note's store work: on what."""

    target: Target


#: the replies of store work that changes a verdict or a note (undo and redo follow them)
CHANGES = (Gave, GaveGroup, Noted, Undone, Redone)


class Exported(NamedTuple):
    """The reply of the write-up's store work (its result is the notice to show)."""

    name: str


class Registered(NamedTuple):
    """The reply of the review's registration: its result, the SARIF runs the database last
    registered from another repository (`db.items.registered_elsewhere`)."""


class ReadStored(NamedTuple):
    """The reply of the store's first work: the reviewer's state read (`loading.StoredState`)."""


def unsaved(reply: object) -> str:
    """What the store work of ``reply`` was to save, as its failure names it."""
    if isinstance(reply, (Gave, GaveGroup)):
        return f" ({reply.verdict} on {reply.target.label})"
    if isinstance(reply, Noted):
        return f" (the note on {reply.target.label})"
    if isinstance(reply, (Undone, Redone)):
        return f" ({'undo' if isinstance(reply, Undone) else 'redo'} on {reply.change.label})"
    if isinstance(reply, Registered):  # "try again" has no key: the next review does it
        return " (the reports' records and quotes, which the next review registers)"
    return ""
