"""The audit screen's table: which columns fit a width, and each system's cells as text."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from rich.cells import cell_len

from evidence.text import visible
from screens.audit.systems import AuditEntry


class Column(NamedTuple):
    title: str
    width: int
    cell: Callable[[AuditEntry], str]
    right: bool = True  # numbers are right-aligned


def count(value: int, width: int = 7) -> str:
    """A count as the review's header writes it (``135,130``), shortened to fit ``width``
    cells (``135k``, ``1.2M``) rather than cut."""
    text = f"{value:,}"
    if len(text) <= width:
        return text
    for size, unit in ((1_000_000, "M"), (1_000, "k")):
        if value >= size:
            short = f"{value / size:.1f}".removesuffix(".0")
            return f"{short}{unit}" if len(short) + 1 <= width else f"{value // size:,}{unit}"
    return text


def _unknown(value: int | None, width: int) -> str:
    return "–" if value is None else count(value, width)


def _last(entry: AuditEntry) -> str:
    at = entry.last_activity
    return at[:16].replace("T", " ") if at else "never"


def reviewed_text(percent: str, reviewed: int, items: int) -> str:
    """``50% 1,200/2,400``, or past the column's width ``50% 135k/270k``."""
    text = f"{percent} {reviewed:,}/{items:,}"
    if len(text) <= REVIEWED:
        return text
    return f"{percent} {count(reviewed, 4)}/{count(items, 4)}"


REVIEWED = 14  # "100% 135k/270k"


#: every column, the system's name first; later ones are dropped first on narrow terminals
COLUMNS: tuple[Column, ...] = (
    Column("reports", 7, lambda e: count(e.reports)),
    Column("records", 7, lambda e: count(e.records)),
    Column("quotes", 7, lambda e: count(e.quotes)),
    Column("reviewed", REVIEWED, lambda e: reviewed_text(e.percent, e.reviewed, e.items)),
    Column("failing", 7, lambda e: _unknown(e.failing, 7)),
    Column("no path", 7, lambda e: _unknown(e.citations_missing, 7)),
    Column("drift", 5, lambda e: _unknown(e.drift, 5)),
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
    """Text cut or padded to ``width`` cells, its controls made visible first (a name's ESC
    is one symbol, a bidi override five) and its wide characters two cells each."""
    text = visible(text).replace("\t", " ")
    if cell_len(text) > width:
        kept = ""
        for char in text:
            if cell_len(kept + char) > width - 1:
                break
            kept += char
        text = kept + "…"
    pad = " " * max(0, width - cell_len(text))
    return pad + text if right else text + pad


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
