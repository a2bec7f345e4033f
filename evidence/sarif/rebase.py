"""SARIF paths -> paths of the revision under review.

A scanner run on another machine writes absolute paths of its checkout (``/home/ci/work/kestrel/
api/server.py``), or paths relative to a directory above or below the repository's root. Once the
revision is known, each such path is replaced by its longest suffix that is a file of the revision
(``api/server.py``); a path with no such suffix is kept (it reads as missing). Report quotes are
never touched: only quotes read from SARIF (those with a ``role``). In an audit, a run is also
kept under the system it was run over (`for_system`).
"""

from __future__ import annotations

import re
from collections.abc import Container
from typing import TYPE_CHECKING, TypeVar

from evidence.model import Quote, Record, Report, ReportSet

if TYPE_CHECKING:
    from evidence.revision import Revision

__all__ = [
    "TYPE_PREFIX",
    "at_revision",
    "for_system",
    "has_sarif_quotes",
    "is_sarif_report",
    "rebase_paths",
    "repository_path",
    "slug",
]

#: how the type line of a report read from SARIF starts (``sarif/<tool>-<category>``, then
#: ``@<system>`` in an audit)
TYPE_PREFIX = "sarif/"
_SLUG = re.compile(r"[^a-z0-9]+")


def slug(text: str) -> str:
    """``text`` in lower case, each run of other characters than letters and digits one "-"
    (a run's tool and category in its type line; an audit's system after it)."""
    return _SLUG.sub("-", text.lower()).strip("-")


def is_sarif_report(report: Report) -> bool:
    """True for a report read from a SARIF run."""
    return report.type_line.startswith(TYPE_PREFIX)


def repository_path(path: str, paths: Container[str]) -> str | None:
    """The longest suffix of ``path`` (whole components) that is in ``paths``, or None."""
    parts = [part for part in path.split("/") if part]
    for start in range(len(parts)):
        candidate = "/".join(parts[start:])
        if candidate in paths:
            return candidate
    return None


def has_sarif_quotes(reportset: ReportSet) -> bool:
    """True when a loaded report holds quotes read from SARIF."""
    return any(quote.role for record in reportset.records() for quote in record.quotes)


_PATH = Quote._fields.index("path")
_QUOTES = Record._fields.index("quotes")
_Item = TypeVar("_Item", Quote, Record)


def _with(item: _Item, index: int, value: object) -> _Item:
    """``item._replace`` of the field at ``index``: the tuple made at once, in half the time
    (a scan of absolute paths has each of its results' quotes replaced before its first screen)."""
    return tuple.__new__(type(item), (*item[:index], value, *item[index + 1 :]))


def rebase_paths(reportset: ReportSet, paths: Container[str]) -> ReportSet:
    """``reportset`` with the path of every SARIF quote not in ``paths`` replaced by its longest
    suffix that is (unchanged when none is)."""
    records = (record for report in reportset.reports for record in report.records)
    if all(not q.role or q.path in paths for record in records for q in record.quotes):
        return reportset  # a scan of this very tree: one pass, nothing rebuilt (135,130: 0.5 s)
    found: dict[str, str] = {}

    def rebased(quote: Quote) -> Quote:
        if not quote.role or quote.path in paths:
            return quote
        path = found.get(quote.path)
        if path is None:
            path = repository_path(quote.path, paths) or quote.path
            found[quote.path] = path
        return quote if path == quote.path else _with(quote, _PATH, path)

    def record(value: Record) -> Record:
        quotes = tuple(rebased(quote) for quote in value.quotes)
        changed = any(new is not old for new, old in zip(quotes, value.quotes, strict=True))
        return _with(value, _QUOTES, quotes) if changed else value

    def report(value: Report) -> Report:
        records = tuple(record(item) for item in value.records)
        changed = any(new is not old for new, old in zip(records, value.records, strict=True))
        return value._replace(records=records) if changed else value

    return reportset._replace(reports=tuple(report(item) for item in reportset.reports))


def at_revision(reportset: ReportSet, revision: Revision) -> ReportSet:
    """`rebase_paths` with the paths of ``revision``, for reports that hold SARIF quotes (the
    others as they are): what `assay check`, `assay review` and an audit anchor, and the anchors
    kept on disk are keyed by."""
    if not has_sarif_quotes(reportset):
        return reportset
    return rebase_paths(reportset, revision.entries())


def for_system(reportset: ReportSet, system: str) -> ReportSet:
    """``reportset`` with each SARIF run's results kept under ``system`` (an audit's system).

    A run is known by its tool and category (`Report.identity`), which stay the same when one
    scanner runs over several systems: in an audit they were one report, whose items each
    system's review registered in turn, marking the other systems' results gone, and whose
    verdicts, failing quotes and reviewers every such system counted. The category is where
    SARIF tells runs over different code apart; the system's name is added to it."""
    scope = slug(system) or "system"

    def scoped(report: Report) -> Report:
        if not is_sarif_report(report) or report.type_line.endswith(f"@{scope}"):
            return report
        return report._replace(type_line=f"{report.type_line}@{scope}")

    return reportset._replace(reports=tuple(scoped(report) for report in reportset.reports))
