"""Events found in the local reviewer's own verdict files that this database did not write.

A reviewer's file (``verdicts/<report>/<reviewer>.jsonl``) gains events through her own syncs
only. Anyone with push access can append lines to it, so an event there that carries her name
but that her database does not hold is not imported as hers: the sync reports it (file, the
commit that last changed the file, its author) and keeps it aside, in the sync state, until she
accepts what is kept aside (``assay sync --accept-foreign``: her second machine, or a database
started afresh). Her next push writes her files as her database holds them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from db.check import StoreError
from db.events import Event
from db.export import parse_event
from db.store import VerdictStore
from db.sync.state import json_object

__all__ = [
    "ASIDE_KEY",
    "Foreign",
    "aside_events",
    "keep_aside",
    "kept_aside",
    "split_foreign",
]

#: the sync state key of the events kept aside
ASIDE_KEY = "foreign events"


@dataclass(frozen=True)
class Foreign:
    """Events of the local reviewer found in her file that her database did not write."""

    file: str
    commit: str | None  # the latest commit that changed the file
    author: str | None  # that commit's author, as git records it (name <email>)
    events: int


def split_foreign(
    store: VerdictStore, reviewer: str, events: Iterable[Event]
) -> tuple[list[Event], list[Event]]:
    """(the events others wrote or this database holds, the reviewer's events it does not)."""
    listed = list(events)
    own = [event.event for event in listed if event.reviewer == reviewer]
    if not own:
        return listed, []
    known = store.known(own)
    usual: list[Event] = []
    foreign: list[Event] = []
    for event in listed:
        if event.reviewer == reviewer and event.event not in known:
            foreign.append(event)
        else:
            usual.append(event)
    return usual, foreign


def kept_aside(store: VerdictStore) -> dict[str, dict[str, object]]:
    """The events kept aside by earlier syncs, by event id (file, commit, author, event)."""
    found = json_object(store.sync_state(ASIDE_KEY).get(ASIDE_KEY)) or {}
    return {str(k): v for k, v in found.items() if isinstance(v, dict)}


def keep_aside(store: VerdictStore, aside: dict[str, dict[str, object]]) -> None:
    """Remember the events kept aside (an empty mapping clears them)."""
    store.set_sync_state({ASIDE_KEY: json.dumps(aside, sort_keys=True)})


def aside_events(aside: dict[str, dict[str, object]]) -> list[Event]:
    """The events kept aside, read back (any entry that is no longer an event is dropped)."""
    events = []
    for event_id, entry in sorted(aside.items()):
        try:
            events.append(parse_event(entry.get("event"), f"kept aside {event_id}"))
        except StoreError:
            continue
    return events
