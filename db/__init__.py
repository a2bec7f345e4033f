"""The verdict store: verdicts and notes with their history, on sqlite-utils."""

from __future__ import annotations

from db.keys import ItemRef, Verdict, make_key, normalize_quote, quote_hash, review_key
from db.reviewer import reviewer_name
from db.store import (
    Disagreement,
    Event,
    ImportResult,
    StaleVerdict,
    StoreError,
    VerdictStore,
    default_path,
)

__all__ = [
    "Disagreement",
    "Event",
    "ImportResult",
    "ItemRef",
    "StaleVerdict",
    "StoreError",
    "Verdict",
    "VerdictStore",
    "default_path",
    "make_key",
    "normalize_quote",
    "quote_hash",
    "review_key",
    "reviewer_name",
]
