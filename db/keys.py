"""Stable keys for the things reviewers give verdicts on.

A key survives renaming, moving or regenerating a report: it is built from the report's identity
(system and report type, never the file path), the record id and, for a quote, a short hash of the
quote's normalized text. Editing a quote's text changes its key, which is how an old verdict is
found to be stale instead of silently moving to the new text.
"""

import hashlib
import re
from collections.abc import Iterable
from enum import StrEnum
from typing import NamedTuple

from evidence.model import Quote, Record, Report

#: hex digits of a quote hash kept in keys (48 bits: collisions within one record are negligible)
QUOTE_HASH_LENGTH = 12

_BULLET_AT_LINE_START = re.compile(r"^[ \t]*(?:[•·▪‣◦●○■□–—]|\d{1,3}[.)])[ \t]+", re.MULTILINE)
_BULLET_ANYWHERE = re.compile(r"[•·▪‣◦●○■□]")
_MARKDOWN_MARKS = re.compile(r"[`*]")
_WHITESPACE = re.compile(r"\s+")


class Verdict(StrEnum):
    """What a reviewer says about a record or a quote."""

    CONFIRMED = "confirmed"
    REFUTED = "refuted"
    UNCLEAR = "unclear"
    SKIP = "skip"


def normalize_quote(text: str) -> str:
    """The quote text with Markdown damage stripped and whitespace collapsed (what gets hashed)."""
    text = _BULLET_AT_LINE_START.sub("", text)
    text = _BULLET_ANYWHERE.sub(" ", text)
    text = _MARKDOWN_MARKS.sub("", text)
    return _WHITESPACE.sub(" ", text).strip()


def quote_hash(text: str, occurrence: int = 1) -> str:
    """Short hash of a quote's normalized text; the n-th identical quote in a record differs."""
    data = normalize_quote(text)
    if occurrence > 1:
        data += f"\n#{occurrence}"
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


def record_quote_hashes(record: Record) -> list[str]:
    """The quote hash of every quote of a record, in order."""
    seen: dict[str, int] = {}
    hashes = []
    for quote in record.quotes:
        normalized = normalize_quote(quote.text)
        seen[normalized] = seen.get(normalized, 0) + 1
        hashes.append(quote_hash(quote.text, seen[normalized]))
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
