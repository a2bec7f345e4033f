"""What a stale verdict was on: its item as the database last registered it, in words
(``quote 2 (src/a.py lines 10-12)``, ``the record (B101 found, api/a.py line 3)``). A stale
verdict's key names nothing a reviewer can read (``B101:37a5e519860e``, a quote's hash); the
write-up and the review's list of stale verdicts say this instead.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

from db.gathered import gathered

if TYPE_CHECKING:
    import sqlite3

__all__ = ["Was", "first_quotes", "lines_words", "quote_lines", "read_what_was", "what_it_was"]

#: item keys per statement (SQLite's default limit on a statement's parameters is 999)
CHUNK = 500

Item = dict[str, Any]


class Was(NamedTuple):
    """What an item was, in words, and which quote of its record (None: the record)."""

    what: str
    quote_index: int | None


def lines_words(first: int | None, last: int | None) -> str:
    """``line 17`` or ``lines 17-19`` ("" without a line)."""
    if first is None:
        return ""
    if last is None or last == first:
        return f"line {first}"
    return f"lines {first}-{last}"


def quote_lines(item: Item) -> str:
    """Where the quote is (else where it claims to be): ``line 40``, ``lines 7-9``."""
    if item["lines_first"] is not None:
        return lines_words(item["lines_first"], item["lines_last"])
    return lines_words(item["claimed_first"], item["claimed_last"])


def first_quotes(
    items: Iterable[Item], records: set[tuple[str, str]]
) -> dict[tuple[str, str], Item]:
    """The first quote registered of each of ``records`` (report, record): what a gone record
    quoted."""
    firsts: dict[tuple[str, str], Item] = {}
    for item in items:
        key = (item["report"], item["record"])
        if item["quote"] is not None and key in records:
            earlier = firsts.get(key)
            if earlier is None or (item["quote_index"] or 0) < (earlier["quote_index"] or 0):
                firsts[key] = item
    return firsts


def what_it_was(
    item: Item,
    firsts: dict[tuple[str, str], Item],
    text: Callable[[str], str] = str,
) -> str:
    """What an item was: ``quote 2 (src/a.py lines 10-12)``, or ``the record (label, src/a.py
    line 10)`` with its first quote's place; ``text`` escapes the item's own words (Markdown)."""
    quote: Item | None
    if item["quote"] is not None:
        quote = item
        said = f"quote {(item['quote_index'] or 0) + 1}"
    else:
        quote = firsts.get((item["report"], item["record"]))
        said = "the record"
    where = []
    if item["quote"] is None and item["label"]:
        where.append(text(item["label"]))
    if quote is not None and quote["quote_path"]:
        lines = quote_lines(quote)
        where.append(text(quote["quote_path"]) + (f" {lines}" if lines else ""))
    return f"{said} ({', '.join(where)})" if where else said


def read_what_was(conn: sqlite3.Connection, keys: Collection[str]) -> dict[str, Was]:
    """What each of these items was (`what_it_was`), by key; a key never registered here (a
    teammate's verdict imported) is left out. Read as db/gathered.py reads, one step a
    statement: it runs on the writer thread beside the busy app."""
    items: list[Item] = []
    quoted: list[Item] = []
    wanted = list(dict.fromkeys(keys))
    for start in range(0, len(wanted), CHUNK):
        chunk = wanted[start : start + CHUNK]
        marks = ", ".join("?" * len(chunk))
        items += gathered(
            conn,
            f"SELECT json_group_array({_object('i')}) FROM items AS i {_IN.format(marks)}",
            chunk,
        )
        # a record's first quote is the row registered right after it (`items.item_rows`),
        # joined through the (report, ord) index: a scan's report holds 100,000s of rows
        quoted += gathered(
            conn,
            f"SELECT json_group_array({_object('q')}) FROM items AS i JOIN items AS q"
            " ON q.report = i.report AND q.ord = i.ord + 1 AND q.record = i.record"
            f" AND q.quote IS NOT NULL {_IN.format(marks)} AND i.quote IS NULL",
            chunk,
        )
    firsts = first_quotes(quoted, {(item["report"], item["record"]) for item in items})
    return {
        item["item"]: Was(
            what_it_was(item, firsts),
            (item["quote_index"] or 0) if item["quote"] is not None else None,
        )
        for item in items
    }


#: the columns `what_it_was` reads
_COLUMNS = (
    "item", "report", "record", "quote", "quote_index", "label", "quote_path",
    "lines_first", "lines_last", "claimed_first", "claimed_last",
)  # fmt: skip
_IN = "WHERE i.item IN ({})"


def _object(alias: str) -> str:
    """A row of ``alias`` as a JSON object of `_COLUMNS`."""
    return "json_object(" + ", ".join(f"'{c}', {alias}.{c}" for c in _COLUMNS) + ")"
