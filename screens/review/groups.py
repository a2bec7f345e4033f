"""A verdict on a whole group of scanner results (`C`, `R`, `U`, `S`): the group of the record
shown, as far as the filter shows it, asked about once, written in one transaction, undone by one
`z`.

A large scan is triaged by rule ("every Q000 here is quote style: refuted"): one key a result
would be 119,592 presses and as many transactions. No Textual here: the screen asks and writes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from screens.review.changes import GroupChange, Redone, Undone
from screens.review.history import Location

if TYPE_CHECKING:
    from collections.abc import Callable

    from db import Event, ItemRef, VerdictStore
    from screens.session import ReviewSession

#: a group verdict (or its undo) of this many results or more is said as it starts: it takes
#: the writer a second or more (bench_group_verdict.py: 120,000 results in 2.5 s, undone in 5)
SAY_SAVING = 5_000
#: what the question and its yes (``Refute 3``) say for each verdict
VERBS = {"confirmed": "Confirm", "refuted": "Refute", "unclear": "Mark unclear", "skip": "Skip"}


class GroupTarget(NamedTuple):
    """The results a group verdict acts on: those of the record's group the filter shows."""

    items: tuple[ItemRef, ...]
    label: str  # "12 results of rule B608"
    location: Location  # the record shown when it was given (where undo goes back to)
    total: int  # the group's results, those the filter hides included
    filter_name: str


class GaveGroup(NamedTuple):
    """The reply of a group verdict's store work (its result: the events, one per result)."""

    target: GroupTarget
    verdict: str
    note: str = ""  # added to each result's note


def results(count: int) -> str:
    """``1 result``, ``1,200 results``."""
    return f"{count:,} result{'s' * (count != 1)}"


def group_target(session: ReviewSession, index: int, filter_name: str) -> GroupTarget | None:
    """The results of the group record ``index`` is listed in that ``filter_name`` shows (None:
    the record is not a scanner result)."""
    groups = session.results
    group = groups.group_of(index) if groups else None
    if group is None:
        return None
    # at the key, on the event loop: the filter's set lookup and each record's item, made
    # once (ruff's 119,592 Q000 results asked record by record took 0.8 s under a filter)
    shown = (
        group.members
        if filter_name == "all"
        else tuple(filter(session.passes(filter_name), group.members))
    )
    records, item = session.records, session.record_item
    name = group.label or ("(no file)" if groups.grouping == "file" else "(no rule)")
    return GroupTarget(
        tuple(item(records[n]) for n in shown),
        f"{results(len(shown))} of {groups.grouping} {name}",
        Location(index, None),
        len(group.members),
        filter_name,
    )


def question(verdict: str, target: GroupTarget) -> str:
    """What the reviewer is asked before a group verdict is given."""
    count = len(target.items)
    hidden = target.total - count
    lines = [f"{VERBS[verdict]} {target.label}?"]
    if hidden:
        lines.append(f"The filter ({target.filter_name}) hides {results(hidden)} of the group: ")
        lines[-1] += "they are left as they are."
    lines.append("Each keeps its note (a note typed below is added to each); z undoes them all.")
    return "\n".join(lines)


def yes_label(verdict: str, target: GroupTarget) -> str:
    """The question's yes button: ``Refute 1,200``."""
    return f"{VERBS[verdict]} {len(target.items):,}"


def give_work(
    reply: GaveGroup, reviewer: str, revision: str
) -> Callable[[VerdictStore], list[Event]]:
    """The store work of a group verdict: one transaction, an event per result."""
    items, verdict, note = reply.target.items, reply.verdict, reply.note
    return lambda store: store.give_many(
        items, verdict, reviewer=reviewer, revision=revision, note=note
    )


def given(reply: GaveGroup) -> str:
    """The notice once a group verdict is stored: ``12 results of rule B608: refuted``."""
    said = f"{reply.target.label}: {reply.verdict}"
    return f"{said}, noted: {reply.note}" if reply.note else said


def saving(reply: object) -> str | None:
    """What to say as a large group's verdict, undo or redo is sent to the writer (None: it is
    quick, its notice when done is enough)."""
    if isinstance(reply, GaveGroup):
        count, said = len(reply.target.items), f"saving {reply.target.label}: {reply.verdict}"
    elif isinstance(reply, (Undone, Redone)) and isinstance(reply.change, GroupChange):
        change = reply.change
        doing = "undoing" if isinstance(reply, Undone) else "redoing"
        count, said = len(change.items), f"{doing} {change.verdict.value} on {change.label}"
    else:
        return None
    return f"{said}…" if count >= SAY_SAVING else None


def group_change(reply: GaveGroup, events: list[Event]) -> GroupChange:
    """A stored group verdict as the session's one change, for undo and redo."""
    from db import Verdict

    target = reply.target
    verdict = Verdict(reply.verdict)
    return GroupChange(
        target.items, target.location, target.label, verdict, tuple(events), reply.note
    )
