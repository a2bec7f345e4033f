"""Stable keys for the things reviewers give verdicts on.

A key survives renaming, moving or regenerating a report: it is built from the report's identity
(system and report type, never the file path), the record id and, for a quote, a short hash of the
quote's normalized text. Editing a quote's text changes its key, which is how an old verdict is
found to be stale instead of silently moving to the new text. A text a record quotes at two or
more paths is told apart by its path, so that the report listing them in another order never
moves a verdict from one file's quote to the other's.
"""

import hashlib
from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import NamedTuple

from evidence.anchoring.normalize import normalize_quote as normalize_quote
from evidence.model import Quote, Record, Report

#: hex digits of a quote hash kept in keys (48 bits: collisions within one record are negligible)
QUOTE_HASH_LENGTH = 12


class Verdict(StrEnum):
    """What a reviewer says about a record or a quote."""

    CONFIRMED = "confirmed"
    REFUTED = "refuted"
    UNCLEAR = "unclear"
    SKIP = "skip"


def quote_hash(text: str, occurrence: int = 1) -> str:
    """Short hash of a quote's normalized text; the n-th identical quote in a record differs.

    The text is normalized by the anchorer's own `normalize_quote`, so two quotes share a key
    exactly when the anchorer takes them for the same quote.
    """
    return _hashed(normalize_quote(text), occurrence)


def _hashed(normalized: str, occurrence: int) -> str:
    data = normalized if occurrence == 1 else f"{normalized}\n#{occurrence}"
    return hashlib.sha256(data.encode("utf-8", "surrogatepass")).hexdigest()[:QUOTE_HASH_LENGTH]


def make_key(report: str, record: str, quote: str | None = None) -> str:
    """The item key for a report identity, a record id and optionally a quote hash."""
    key = f"{report}#{record}"
    return f"{key}#{quote}" if quote is not None else key


# Real annotations, not `from __future__ import annotations`: a NamedTuple compiles each one
# given as a string when its class is made, before the review app's first frame.
class ItemRef(NamedTuple):
    """A record or one quote of a record, by stable key."""

    report: str  # report identity, e.g. "ATLAS/agentic-system-runtime-report"
    record: str  # record id
    quote: str | None = None  # hash of the quote's normalized text, None for the record itself

    @property
    def key(self) -> str:
        """The item key stored with every event."""
        return make_key(self.report, self.record, self.quote)

    @property
    def record_key(self) -> str:
        """The key of the record this item is or belongs to."""
        return make_key(self.report, self.record)

    @classmethod
    def for_record(cls, report: Report, record: Record) -> "ItemRef":
        """The item for a record of a report."""
        return cls(report.identity, record.id)

    @classmethod
    def for_quote(cls, report: Report, record: Record, quote: Quote) -> "ItemRef":
        """The item for one quote of a record (identical quotes of one record stay distinct)."""
        position = _position(record, quote)
        if position is None:  # not (or no longer) one of the record's quotes: hash it on its own
            return cls(report.identity, record.id, quote_hash(quote.text))
        return cls(report.identity, record.id, record_quote_hashes(record)[position])


def quote_items(report: Report, record: Record) -> list[ItemRef]:
    """The items of every quote of a record, in order (``ItemRef.for_quote`` of each, the
    record's quotes hashed once, not once per quote)."""
    return [ItemRef(report.identity, record.id, hashed) for hashed in record_quote_hashes(record)]


def record_keys(identity: str, record: Record) -> tuple[str, ...]:
    """The item keys of a record of the report ``identity`` and of its quotes, in order (those
    of `ItemRef.for_record` and `quote_items`, without making the items)."""
    hashes = record_quote_hashes(record) if record.quotes else ()
    return (make_key(identity, record.id), *(make_key(identity, record.id, h) for h in hashes))


def record_quote_hashes(record: Record) -> list[str]:
    """The quote hash of every quote of a record, in order."""
    return quote_hashes([(quote.text, quote.path) for quote in record.quotes])


def quote_hashes(quotes: Sequence[tuple[str, str]]) -> list[str]:
    """The quote hash of each of a record's quotes, (text, path), in order.

    Repeated quotes are numbered in order. A text the record quotes at more than one path is
    hashed with its path (and numbered among that path's), so that the same text cited in
    ``a.js`` and ``b.js`` keeps each verdict on its file's quote whatever the order; a text
    quoted at one path, and a SARIF location without a snippet (no text), is hashed as before.
    """
    # once each: a scan's review hashes 135,130 of them
    normalized = [normalize_quote(text) for text, _path in quotes]
    told: list[str] = normalized
    if len(normalized) > 1 and len(set(normalized)) < len(normalized):
        paths: dict[str, set[str]] = {}
        for text, (_text, path) in zip(normalized, quotes, strict=True):
            paths.setdefault(text, set()).add(path)
        told = [
            f"{text}\n@{path}" if text and len(paths[text]) > 1 else text
            for text, (_text, path) in zip(normalized, quotes, strict=True)
        ]
    seen: dict[str, int] = {}
    hashes = []
    for text in told:
        seen[text] = seen.get(text, 0) + 1
        hashes.append(_hashed(text, seen[text]))
    return hashes


def _position(record: Record, quote: Quote) -> int | None:
    if 0 <= quote.index < len(record.quotes) and record.quotes[quote.index] == quote:
        return quote.index
    for position, candidate in enumerate(record.quotes):
        if candidate == quote:
            return position
    return None


def review_key(reviewer: str, report_identities: Iterable[str]) -> str:
    """The key a review position is kept under: the reviewer and the reports reviewed together."""
    return f"{reviewer}|{','.join(sorted(set(report_identities)))}"
