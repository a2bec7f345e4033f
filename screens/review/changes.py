"""Undo and redo of the reviewer's own changes in this session, each named as it is undone.

A part the review screen owns. Only changes made in this session are undone: a change of an
earlier session is never reached by `z` (it is changed by giving a new verdict or note). Undo and
redo are events in the store like any other: an undo appends the state before the change (with
`undoes` naming it), a redo gives the verdict or writes the note again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from screens.review.history import Location

if TYPE_CHECKING:
    from collections.abc import Callable

    from db import Event, ItemRef, Verdict, VerdictStore
    from screens.session import ReviewSession


class Change(NamedTuple):
    """One change of a verdict or note: where it is, what it was before and what it made."""

    item: ItemRef
    location: Location  # the record, and the quote (None: the change is on the record)
    label: str  # "quote [2] of KS-RTE-x" or "record KS-RTE-x"
    before: Event | None  # the item's state before the change (None: nothing)
    after: Event  # the event that made it


class GroupChange(NamedTuple):
    """One verdict given to a group of results at once (screens/review/groups.py): one change."""

    items: tuple[ItemRef, ...]
    location: Location  # the record shown when it was given
    label: str  # "12 results of rule B608"
    verdict: Verdict
    after: tuple[Event, ...]  # the events that made it, one per result
    note: str = ""  # added to each result's note


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


def describe_group(change: GroupChange, made: int, *, undone: bool) -> str:
    """What undoing (or redoing) a group verdict did (``made``: of its results, those changed)."""
    if not undone:
        return f"redone: {change.label} {change.verdict.value}"
    said = f"undone: {change.verdict.value} on {change.label}"
    left = len(change.after) - made
    return said + (f" ({left:,} changed since, left as they are)" if left else "")


class Undone(NamedTuple):
    """The reply of an undo's store work (`Written.reply`): the change it reverts."""

    change: Change | GroupChange


class Redone(NamedTuple):
    """The reply of a redo's store work: the change it makes again."""

    change: Change | GroupChange


class Changes:
    """The reviewer's changes of this session, to undo (last first) and redo."""

    def __init__(self, session: ReviewSession) -> None:
        self.session = session
        self.done: list[Change | GroupChange] = []
        self.undone: list[Change | GroupChange] = []

    def made(self, change: Change | GroupChange) -> None:
        """A new change was stored: it can be undone; what was undone can no longer be redone."""
        self.done.append(change)
        self.undone.clear()

    def undo(self) -> tuple[Change | GroupChange, Callable[[VerdictStore], object]] | None:
        """The last change of this session and the store work that reverts it (None: none; the
        work returns the event made, None when the item changed since; a group's, a list)."""
        if not self.done:
            return None
        change = self.done.pop()
        reviewer = self.session.reviewer
        if isinstance(change, GroupChange):
            ids = [event.event for event in change.after]
            return change, lambda store: store.undo_many(reviewer, ids)
        event_id = change.after.event
        return change, lambda store: store.undo(reviewer, event=event_id)

    def redo(self) -> tuple[Change | GroupChange, Callable[[VerdictStore], object]] | None:
        """The last change undone and the store work that makes it again (None: none)."""
        if not self.undone:
            return None
        change = self.undone.pop()
        reviewer = self.session.reviewer
        if isinstance(change, GroupChange):
            items, verdict, note = change.items, change.verdict, change.note
            revision = change.after[0].revision if change.after else None
            return change, lambda store: store.give_many(
                items, verdict, reviewer=reviewer, revision=revision, note=note
            )
        item, after = change.item, change.after
        verdict_changed = _state(change.before)[0] != _state(after)[0]

        def again(store: VerdictStore) -> Event:
            if verdict_changed and after.verdict is not None:
                return store.give(item, after.verdict, reviewer=reviewer, revision=after.revision)
            return store.note(item, after.note or "", reviewer=reviewer, revision=after.revision)

        return change, again

    def refused(self, reply: Undone | Redone) -> None:
        """The store could not take the work: the change stays where it was."""
        if isinstance(reply, Undone):
            self.done.append(reply.change)
        else:
            self.undone.append(reply.change)

    def stored(self, reply: Undone | Redone, events: list[Event]) -> str:
        """An undo or redo was stored (its events: one, or a group's): what it did, in words."""
        change = reply.change
        if isinstance(change, GroupChange):
            if isinstance(reply, Undone):
                self.undone.append(change)
            else:
                self.done.append(change._replace(after=tuple(events)))
            return describe_group(change, len(events), undone=isinstance(reply, Undone))
        if isinstance(reply, Undone):
            self.undone.append(change)
            return describe(change, undone=True)
        before = self.session.event(change.item)
        self.done.append(change._replace(before=before, after=events[0]))
        return describe(change, undone=False)
