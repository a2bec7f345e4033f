"""The rows of a damaged SQLite file read from its pages, without SQLite (db/salvage.py): when
the schema itself cannot be read (a copy cut short loses the pages the schema grew into, and
SQLite then reads nothing), every page that is still a table's leaf still holds its rows.

The file format is SQLite's own (https://www.sqlite.org/fileformat2.html): pages of the size
the header names, table leaf pages (type 13) holding cells of (payload size, rowid, record),
a payload too large for its page continued on a chain of overflow pages. Only reading: a page
or a cell that does not parse is skipped, never trusted.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator

__all__ = ["leaf_rows"]

_HEADER = b"SQLite format 3\x00"
_TABLE_LEAF = 13
#: a row's values as SQLite stores them
Value = int | float | str | bytes | None


def leaf_rows(data: bytes) -> Iterator[tuple[int, list[Value]]]:
    """(rowid, values) of every cell of every table leaf page of the file ``data`` that parses
    (a row may come twice: an old copy on a page freed since)."""
    if not data.startswith(_HEADER) or len(data) < 100:
        return
    size = int.from_bytes(data[16:18], "big")
    size = 65536 if size == 1 else size
    if size < 512 or size & (size - 1):
        return
    usable = size - data[20]
    for number in range(1, len(data) // size + 1):
        yield from _page_rows(data, number, size, usable)


def _page_rows(
    data: bytes, number: int, size: int, usable: int
) -> Iterator[tuple[int, list[Value]]]:
    start = (number - 1) * size
    head = start + (100 if number == 1 else 0)
    if data[head] != _TABLE_LEAF:
        return
    cells = int.from_bytes(data[head + 3 : head + 5], "big")
    for index in range(cells):
        at = head + 8 + 2 * index
        pointer = int.from_bytes(data[at : at + 2], "big")
        if not 0 < pointer < size:
            continue
        try:
            found = _cell(data, start + pointer, size, usable)
        except (IndexError, ValueError, UnicodeDecodeError):
            continue  # a damaged cell: not a row
        if found is not None:
            yield found


def _cell(data: bytes, at: int, size: int, usable: int) -> tuple[int, list[Value]] | None:
    length, at = _varint(data, at)
    rowid, at = _varint(data, at)
    if length > len(data):
        return None
    most = usable - 35
    if length <= most:
        payload = data[at : at + length]
    else:  # the rest on overflow pages: each a next page number, then usable - 4 bytes
        least = ((usable - 12) * 32 // 255) - 23
        local = least + (length - least) % (usable - 4)
        local = local if local <= most else least
        parts = [data[at : at + local]]
        page = int.from_bytes(data[at + local : at + local + 4], "big")
        held = local
        seen = set()
        while held < length:
            if not 0 < page <= len(data) // size or page in seen:
                return None
            seen.add(page)
            start = (page - 1) * size
            take = min(usable - 4, length - held)
            parts.append(data[start + 4 : start + 4 + take])
            held += take
            page = int.from_bytes(data[start : start + 4], "big")
        payload = b"".join(parts)
    if len(payload) != length:
        return None
    return rowid, _record(payload)


def _record(payload: bytes) -> list[Value]:
    header, at = _varint(payload, 0)
    if not 0 < header <= len(payload):
        raise ValueError("a record's header past its end")
    types = []
    while at < header:
        kind, at = _varint(payload, at)
        types.append(kind)
    values: list[Value] = []
    body = header
    for kind in types:
        value, body = _value(payload, body, kind)
        values.append(value)
    if body != len(payload):
        raise ValueError("a record's values do not end with it")
    return values


_INT_SIZES = {1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8}


def _value(payload: bytes, at: int, kind: int) -> tuple[Value, int]:
    if kind == 0:
        return None, at
    if kind in _INT_SIZES:
        end = at + _INT_SIZES[kind]
        if end > len(payload):
            raise ValueError("an integer past the record's end")
        return int.from_bytes(payload[at:end], "big", signed=True), end
    if kind == 7:
        return struct.unpack(">d", payload[at : at + 8])[0], at + 8
    if kind in (8, 9):
        return kind - 8, at
    if kind >= 12:
        length = (kind - 12) // 2
        end = at + length
        if end > len(payload):
            raise ValueError("a value past the record's end")
        raw = payload[at:end]
        return (raw.decode("utf-8") if kind % 2 else bytes(raw)), end
    raise ValueError(f"serial type {kind}")


def _varint(data: bytes, at: int) -> tuple[int, int]:
    """SQLite's variable-length integer at ``at``: its value and where it ends."""
    value = 0
    for index in range(8):
        byte = data[at + index]
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            return value, at + index + 1
    return (value << 8) | data[at + 8], at + 9
