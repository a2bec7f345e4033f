"""What `assay sync` remembers in the database: the last sync (which the review app shows), and
how each remembered value, a JSON object, is read back."""

from __future__ import annotations

import json

from db.store import VerdictStore

__all__ = ["json_object", "last_sync"]


def json_object(text: str | None) -> dict[str, object] | None:
    """The JSON object ``text`` holds; None when there is no text, or it is not a JSON object."""
    try:
        found = json.loads(text) if text else None
    except (json.JSONDecodeError, RecursionError):  # a database written by another hand
        return None
    return found if isinstance(found, dict) else None


def last_sync(store: VerdictStore) -> dict[str, object] | None:
    """What the last sync of the database did (at, received, sent, pending, remote), if any."""
    return json_object(store.sync_state("last").get("last"))
