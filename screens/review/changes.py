"""Undo and redo of the reviewer's own changes in this session, each named as it is undone.

A part the review screen owns. Only changes made in this session are undone: a change of an
earlier session is never reached by `z` (it is changed by giving a new verdict or note). Undo and
redo are events in the store like any other: an undo appends the state before the change (with
`undoes` naming it), a redo gives the verdict or writes the note again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, Protocol

from screens.review.history import Location
from screens.safe import visible
from screens.session import ReviewSession

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.app import App

    from db import Event, ItemRef, VerdictStore


class Change(NamedTuple):
    """One change of a verdict or note: where it is, what it was before and what it made."""

    item: ItemRef
    location: Location  # the record, and the quote (None: the change is on the record)
    label: str  # "quote [2] of KS-RTE-x" or "record KS-RTE-x"
    before: Event | None  # the item's state before the change (None: nothing)
    after: Event  # the event that made it


def _state(event: Event | None) -> tuple[str | None, str]:
    if event is None:
        return None, ""
    return (event.verdict.value if event.verdict else None), event.note or ""


def describe(change: Change, *, undone: bool) -> str:
    """What undoing (or redoing) a change does, in words: ``note on quote [2] of X removed``."""
    (was, was_note), (now, now_note) = _state(change.before), _state(change.after)
    label = change.label
    if was != now:
        if undone:
            return f"undone: {now or 'no verdict'} on {label}; back to {was or 'no verdict'}"
        return f"redone: {label} {now or 'has no verdict'}"
    if was_note != now_note:
        if undone:
            if not was_note:
                return f"undone: note on {label} removed"
            if not now_note:
                return f"undone: note on {label} restored"
            return f"undone: note on {label} back to its earlier text"
        return f"redone: note on {label} {'removed' if not now_note else 'written'} again"
    return f"{'undone' if undone else 'redone'}: {label} unchanged ({now or 'no verdict'})"


class ChangesHost(Protocol):
    """What undo and redo need of the review screen."""

    @property
    def session(self) -> ReviewSession: ...

    @property
    def app(self) -> App[object]: ...

    def reach(self, location: Location) -> None: ...

    def write(
        self, work: Callable[[VerdictStore], object], then: Callable[..., object]
    ) -> bool: ...

    def after_change(self, event: Event) -> None: ...


class Changes:
    """The reviewer's changes of this session, to undo (last first) and redo."""

    def __init__(self, host: ChangesHost) -> None:
        self.host = host
        self.done: list[Change] = []
        self.undone: list[Change] = []

    def made(self, change: Change) -> None:
        """A new change was stored: it can be undone; what was undone can no longer be redone."""
        self.done.append(change)
        self.undone.clear()

    def undo(self) -> None:
        """Show the last change of this session, then revert it and say what changed."""
        if not self.done:
            self.host.app.notify(
                "nothing to undo in this session (changes of earlier sessions stay as they are)"
            )
            return
        change = self.done.pop()
        self.host.reach(change.location)
        reviewer = self.host.session.reviewer
        event_id = change.after.event

        def undone(event: Event | None) -> None:
            if event is None:
                self.host.app.notify(
                    visible(f"not undone: {change.label} was changed elsewhere since"),
                    severity="warning",
                    markup=False,
                )
                return
            self.undone.append(change)
            self.host.after_change(event)
            self.host.app.notify(visible(describe(change, undone=True)), markup=False, timeout=4)

        if not self.host.write(lambda store: store.undo(reviewer, event=event_id), undone):
            self.done.append(change)

    def redo(self) -> None:
        """Show the last change undone, then make it again and say what changed."""
        if not self.undone:
            self.host.app.notify("nothing to redo")
            return
        change = self.undone.pop()
        self.host.reach(change.location)
        session = self.host.session
        reviewer, item, after = session.reviewer, change.item, change.after
        verdict_changed = _state(change.before)[0] != _state(after)[0]

        def again(store: VerdictStore) -> Event:
            if verdict_changed and after.verdict is not None:
                return store.give(item, after.verdict, reviewer=reviewer, revision=after.revision)
            return store.note(item, after.note or "", reviewer=reviewer, revision=after.revision)

        def redone(event: Event) -> None:
            self.done.append(change._replace(before=session.event(item), after=event))
            self.host.after_change(event)
            self.host.app.notify(visible(describe(change, undone=False)), markup=False, timeout=4)

        if not self.host.write(again, redone):
            self.undone.append(change)
