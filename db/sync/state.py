"""What `assay sync` remembers in the database that the review app shows: the last sync."""

from __future__ import annotations

import json

from db.store import VerdictStore

__all__ = ["last_sync"]


def last_sync(store: VerdictStore) -> dict[str, object] | None:
    """What the last sync of the database did (at, received, sent, pending, remote), if any."""
    text = store.sync_state("last").get("last")
    try:
        found = json.loads(text) if text else None
    except json.JSONDecodeError:
        return None
    return found if isinstance(found, dict) else None
