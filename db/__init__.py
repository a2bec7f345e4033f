"""The verdict store: verdicts and notes with their history, on SQLite.

Every name below is importable from `db`; the store itself (db/store.py, and SQLite) is imported
on first use of one of its names, so that code needing only the keys (the review screen before
its first frame) does not wait for it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from db.keys import ItemRef, Verdict, make_key, normalize_quote, quote_hash, review_key
from db.reviewer import reviewer_name

if TYPE_CHECKING:
    from db.store import (
        Disagreement,
        Event,
        ImportResult,
        StaleVerdict,
        StoreError,
        VerdictStore,
        check_database,
        default_path,
    )

_FROM_STORE = frozenset(
    {
        "Disagreement",
        "Event",
        "ImportResult",
        "StaleVerdict",
        "StoreError",
        "VerdictStore",
        "check_database",
        "default_path",
    }
)


def __getattr__(name: str) -> Any:
    if name in _FROM_STORE:
        return getattr(importlib.import_module("db.store"), name)
    raise AttributeError(f"module 'db' has no attribute {name!r}")


__all__ = [
    "Disagreement",
    "Event",
    "ImportResult",
    "ItemRef",
    "StaleVerdict",
    "StoreError",
    "Verdict",
    "VerdictStore",
    "check_database",
    "default_path",
    "make_key",
    "normalize_quote",
    "quote_hash",
    "review_key",
    "reviewer_name",
]
