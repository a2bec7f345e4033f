"""The ``items`` table: what the reports hold (records, quotes and their anchors), so that the md
and SARIF exports work from the database alone. Written and read through sqlite_utils.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from db.keys import make_key, record_quote_hashes
from evidence.model import Anchor, Quote, ReportSet

if TYPE_CHECKING:
    import sqlite_utils

__all__ = ["item_rows", "read_items", "register_items"]


def register_items(
    utils: sqlite_utils.Database, identities: Iterable[str], rows: list[dict[str, Any]]
) -> int:
    """Store ``rows`` (from `item_rows`) in the caller's transaction; items of these reports
    that the rows no longer hold stay, marked not present. Returns the number of rows."""
    for identity in identities:
        utils.conn.execute("UPDATE items SET present = 0 WHERE report = ?", (identity,))
    utils.table("items").upsert_all(rows, pk="item")
    return len(rows)


def read_items(utils: sqlite_utils.Database) -> list[dict[str, Any]]:
    """Registered items, by report then report order."""
    return list(utils.query("SELECT * FROM items ORDER BY report, ord"))


def item_rows(
    reportset: ReportSet, anchors: Mapping[Quote, Anchor], revision: str | None, at: str
) -> list[dict[str, Any]]:
    """One row per record and per quote of the reports, with the quote's anchor if known."""
    rows: list[dict[str, Any]] = []
    for report in reportset.reports:
        for record in report.records:
            base = {
                "report": report.identity,
                "record": record.id,
                "kind": str(record.kind),
                "label": record.label,
                "report_file": report.file,
                "section": record.section,
                "revision": revision,
                "present": 1,
                "registered_at": at,
            }
            rows.append(
                _blank_quote(base | {"item": make_key(report.identity, record.id)}, len(rows))
            )
            for quote, digest in zip(record.quotes, record_quote_hashes(record), strict=True):
                anchor = anchors.get(quote)
                row = base | {
                    "item": make_key(report.identity, record.id, digest),
                    "ord": len(rows),
                    "quote": digest,
                    "quote_index": quote.index,
                    "quote_path": quote.path,
                    "quote_text": quote.text,
                    "claimed_first": quote.claimed[0] if quote.claimed else None,
                    "claimed_last": quote.claimed[1] if quote.claimed else None,
                    "tier": str(anchor.match) if anchor else None,
                    "score": anchor.score if anchor else None,
                    "lines_first": anchor.lines[0] if anchor and anchor.lines else None,
                    "lines_last": anchor.lines[1] if anchor and anchor.lines else None,
                    "range_ok": None
                    if anchor is None or anchor.range_ok is None
                    else int(anchor.range_ok),
                }
                rows.append(row)
    return rows


def _blank_quote(row: dict[str, Any], ord_: int) -> dict[str, Any]:
    return row | {
        "ord": ord_,
        "quote": None,
        "quote_index": None,
        "quote_path": None,
        "quote_text": None,
        "claimed_first": None,
        "claimed_last": None,
        "tier": None,
        "score": None,
        "lines_first": None,
        "lines_last": None,
        "range_ok": None,
    }
