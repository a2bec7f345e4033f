"""The audit screen's table: which columns fit a width, and each system's cells as text."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from screens.audit.systems import AuditEntry


class Column(NamedTuple):
    title: str
    width: int
    cell: Callable[[AuditEntry], str]
    right: bool = True  # numbers are right-aligned


def _unknown(value: int | None) -> str:
    return "–" if value is None else str(value)


def _last(entry: AuditEntry) -> str:
    at = entry.last_activity
    return at[:16].replace("T", " ") if at else "never"


def _reviewed(entry: AuditEntry) -> str:
    return f"{entry.percent} {entry.reviewed}/{entry.items}"


#: every column, the system's name first; later ones are dropped first on narrow terminals
COLUMNS: tuple[Column, ...] = (
    Column("reports", 7, lambda e: str(e.reports)),
    Column("records", 7, lambda e: str(e.records)),
    Column("quotes", 6, lambda e: str(e.quotes)),
    Column("reviewed", 13, _reviewed),
    Column("failing", 7, lambda e: _unknown(e.failing)),
    Column("no path", 7, lambda e: _unknown(e.citations_missing)),
    Column("drift", 5, lambda e: _unknown(e.drift)),
    Column("reviewers", 16, lambda e: ", ".join(e.reviewers) or "–", right=False),
    Column("last activity", 16, _last, right=False),
)
#: columns left out, in this order, while the table is too wide
DROP_ORDER = ("last activity", "reports", "drift", "reviewers")
NAME_MIN = 14
NAME_MAX = 24
GAP = 2


def columns_for(width: int, *, drift: bool) -> tuple[int, list[Column]]:
    """The name column's width and the columns that fit ``width`` cells."""
    shown = [c for c in COLUMNS if drift or c.title != "drift"]

    def total(columns: list[Column]) -> int:
        return sum(c.width + GAP for c in columns) + 2  # the availability mark

    for title in DROP_ORDER:
        if total(shown) + NAME_MIN <= width:
            break
        shown = [c for c in shown if c.title != title]
    name = max(NAME_MIN, min(NAME_MAX, width - total(shown)))
    return name, shown


def cell(text: str, width: int, right: bool) -> str:
    """Text cut or padded to ``width`` cells."""
    if len(text) > width:
        text = text[: max(0, width - 1)] + "…"
    return text.rjust(width) if right else text.ljust(width)


def header_line(width: int, *, drift: bool) -> str:
    """The column titles."""
    name, columns = columns_for(width, drift=drift)
    parts = ["  " + cell("system", name, False)]
    parts += [cell(c.title, c.width, c.right) for c in columns]
    return (" " * GAP).join(parts)


def mark(entry: AuditEntry) -> str:
    """What a system's first cell says of it, in the review's words for quotes: ``!`` its
    reports cannot be used, ``∅`` its repository is not on this machine, ``·`` not checked
    yet, ``✗`` failing quotes or missing cited paths, ``✓`` checked with neither. (A ``✓`` for
    any repository present read as checked and holding beside a system never anchored.)"""
    if entry.error:
        return "!"
    if not entry.available:
        return "∅"
    if entry.failing is None or entry.citations_missing is None:
        return "·"
    return "✗" if entry.failing or entry.citations_missing else "✓"


def row_cells(entry: AuditEntry, width: int, *, drift: bool) -> list[tuple[str, str]]:
    """A system's cells as (column title, text), the mark and name first."""
    name, columns = columns_for(width, drift=drift)
    cells = [("mark", mark(entry) + " "), ("system", cell(entry.name, name, False))]
    for column in columns:
        cells.append((" ", " " * GAP))
        cells.append((column.title, cell(column.cell(entry), column.width, column.right)))
    return cells
