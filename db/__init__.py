"""The verdict store: verdicts and notes with their history, on SQLite.

Every name below is importable from `db`; the store and its records (db/store.py, db/events.py)
are imported on first use of one of their names, so that code needing only the keys does not
load them. `check_database`, `database_check`, `StoreError` and `default_path` come from
db/check.py (stdlib sqlite3 only), so checking a database before the app starts does not
import the store either.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from db.keys import ItemRef, Verdict, make_key, normalize_quote, quote_hash, review_key
from db.reviewer import reviewer_lookup, reviewer_name

if TYPE_CHECKING:
    from db.check import LockedOut, StoreError, check_database, database_check, default_path
    from db.events import Disagreement, Event, ImportResult, StaleVerdict
    from db.store import VerdictStore

#: the module each lazily imported name comes from (relative: installed, this package is assay.db)
_LAZY = {
    "Disagreement": ".events",
    "Event": ".events",
    "ImportResult": ".events",
    "StaleVerdict": ".events",
    "VerdictStore": ".store",
    "StoreError": ".check",
    "LockedOut": ".check",
    "check_database": ".check",
    "database_check": ".check",
    "default_path": ".check",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Disagreement",
    "Event",
    "ImportResult",
    "ItemRef",
    "LockedOut",
    "StaleVerdict",
    "StoreError",
    "Verdict",
    "VerdictStore",
    "check_database",
    "database_check",
    "default_path",
    "make_key",
    "normalize_quote",
    "quote_hash",
    "review_key",
    "reviewer_lookup",
    "reviewer_name",
]
