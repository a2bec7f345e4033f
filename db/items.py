"""The ``items`` table: what the reports hold (records, quotes and their anchors), so that the md
and SARIF exports work from the database alone. Written and read through sqlite_utils.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from db.gathered import insert_rows
from db.keys import make_key, record_quote_hashes
from evidence.model import Anchor, Quote, ReportSet

if TYPE_CHECKING:
    import sqlite_utils

    from evidence.citations import CitedPath

__all__ = [
    "citation_rows",
    "item_rows",
    "read_citations",
    "read_items",
    "read_quote_items",
    "read_result_files",
    "read_sources",
    "register_context",
    "register_items",
    "registered_elsewhere",
    "source_rows",
]


def register_items(
    utils: sqlite_utils.Database, identities: Iterable[str], rows: list[dict[str, Any]]
) -> int:
    """Store ``rows`` (from `item_rows`) in the caller's transaction; items of these reports
    that the rows no longer hold stay, marked not present. Returns the number of rows."""
    conn = utils.conn
    for identity in identities:
        conn.execute("UPDATE items SET present = 0 WHERE report = ?", (identity,))
    if not rows:
        return 0
    # an upsert, thousands of rows a statement (sqlite-utils' upsert_all takes two statements a
    # row, and builds them in Python): each launch registers every item again, a large scan's
    # hundreds of thousands, while the app is busy (db/gathered.py)
    columns = tuple(rows[0])
    updated = ", ".join(f"{column} = excluded.{column}" for column in columns if column != "item")
    insert_rows(
        conn,
        f"INSERT INTO items ({', '.join(columns)})",
        [tuple(row[column] for column in columns) for row in rows],
        tail=f"ON CONFLICT (item) DO UPDATE SET {updated}",
    )
    return len(rows)


def read_items(
    utils: sqlite_utils.Database, columns: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    """Registered items, by report then report order (``columns``: only those)."""
    if columns is None:
        return list(utils.query("SELECT * FROM items ORDER BY report, ord"))
    known = set(utils["items"].columns_dict)
    unknown = [name for name in columns if name not in known]
    if unknown:  # names from the code, never from input: a mistake said as one
        raise ValueError(f"no such item column: {', '.join(unknown)}")
    chosen = ", ".join(f'"{name}"' for name in columns)
    return list(utils.query(f"SELECT {chosen} FROM items ORDER BY report, ord"))


def read_result_files(utils: sqlite_utils.Database) -> list[dict[str, Any]]:
    """Of each registered SARIF result, only where it came from (kind, report, report_file,
    registered_at, ord, present), by report then report order: a scan's every item, read whole,
    took 460 MB while its SARIF file was parsed for the export."""
    return list(
        utils.query(
            "SELECT kind, report, report_file, registered_at, ord, present FROM items "
            "WHERE kind = 'result' AND report_file IS NOT NULL ORDER BY report, ord"
        )
    )


def read_quote_items(utils: sqlite_utils.Database) -> list[dict[str, Any]]:
    """The registered quotes of reports (not of SARIF results), by report then report order."""
    return list(
        utils.query(
            "SELECT * FROM items WHERE quote IS NOT NULL AND kind != 'result' ORDER BY report, ord"
        )
    )


def item_rows(
    reportset: ReportSet, anchors: Mapping[Quote, Anchor], revision: str | None, at: str
) -> list[dict[str, Any]]:
    """One row per record and per quote of the reports, with the quote's anchor if known."""
    rows: list[dict[str, Any]] = []
    for report in reportset.reports:
        identity = report.identity  # a property, worked out on each call
        for record in report.records:
            base = {
                "report": identity,
                "record": record.id,
                "kind": str(record.kind),
                "label": record.label,
                "report_file": report.file,
                "section": record.section,
                "revision": revision,
                "present": 1,
                "registered_at": at,
            }
            rows.append(_blank_quote(base | {"item": make_key(identity, record.id)}, len(rows)))
            for quote, digest in zip(record.quotes, record_quote_hashes(record), strict=True):
                anchor = anchors.get(quote)
                row = base | {
                    "item": make_key(identity, record.id, digest),
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


def source_rows(
    reportset: ReportSet, repository: str | None, remote: str | None, revision: str | None, at: str
) -> list[dict[str, Any]]:
    """One row per report: the repository (and its remote) and revision it was reviewed at,
    what a scan said of its own run (it may be incomplete), one note a line, the files a scan
    was read from (``run_files``, one a line) and the report's place in the reportset."""
    from evidence.sarif.invocations import incomplete_notes
    from evidence.sarif.rebase import is_sarif_report

    notes: dict[str, list[str]] = {}
    files: dict[str, list[str]] = {}
    for report in reportset.reports:  # two files of one run are one report: their notes joined
        notes.setdefault(report.identity, []).extend(incomplete_notes(report))
        if is_sarif_report(report):  # a scan that found nothing is still a run to export
            files.setdefault(report.identity, []).append(report.file)
    return [
        {
            "report": identity,
            "repository": repository,
            "remote": remote,
            "revision": revision,
            "registered_at": at,
            "incomplete": "\n".join(dict.fromkeys(said)) or None,
            "run_files": "\n".join(dict.fromkeys(files[identity])) if identity in files else None,
            "ord": ord_,
        }
        for ord_, (identity, said) in enumerate(notes.items())
    ]


def citation_rows(
    reportset: ReportSet, citations: Iterable[CitedPath], revision: str | None
) -> list[dict[str, Any]]:
    """One row per cited path of a record, with its state at the revision."""
    identity = {report.file: report.identity for report in reportset.reports}
    return [
        {
            "report": identity.get(cited.report, cited.report),
            "record": cited.record,
            "path": cited.path,
            "source": cited.source,
            "state": cited.state.value,
            "suggestion": cited.suggestion,
            "report_line": cited.line,
            "revision": revision,
            "present": 1,
        }
        for cited in citations
    ]


def register_context(
    utils: sqlite_utils.Database,
    identities: Iterable[str],
    sources: list[dict[str, Any]],
    citations: list[dict[str, Any]] | None,
) -> None:
    """Store the reports' sources and (when checked) their citations in the caller's
    transaction; citations the reports no longer hold stay, marked not present."""
    utils.table("report_sources").upsert_all(sources, pk="report")
    if citations is None:
        return
    for identity in identities:
        utils.conn.execute("UPDATE citations SET present = 0 WHERE report = ?", (identity,))
    utils.table("citations").upsert_all(citations, pk=("report", "record", "path"))


def read_sources(utils: sqlite_utils.Database) -> list[dict[str, Any]]:
    """Where each registered report was reviewed, by report."""
    return list(utils.query("SELECT * FROM report_sources ORDER BY report"))


def read_citations(utils: sqlite_utils.Database) -> list[dict[str, Any]]:
    """Cited paths the reports hold now (present), by report, record and report line."""
    return list(
        utils.query(
            "SELECT * FROM citations WHERE present = 1 ORDER BY report, record, report_line, path"
        )
    )


def registered_elsewhere(
    sources: Iterable[Mapping[str, Any]],
    identities: Collection[str],
    repository: str | None,
    remote: str | None,
) -> dict[str, str]:
    """Of ``identities`` (SARIF runs: a tool and category, no system), those the database last
    registered from another repository (no remote in common): identity -> that repository.
    One scanner's runs over two code bases reviewed into one database share a report there:
    each registration marks the other's results gone, and counts and write-ups mix them."""
    found: dict[str, str] = {}
    for row in sources:
        identity, there = row.get("report"), row.get("repository")
        if identity not in identities or not there or there == repository:
            continue
        if remote is not None and row.get("remote") == remote:
            continue  # another clone of the same code
        found[str(identity)] = str(there)
    return found
