"""Many rows in one statement: SQLite expands a JSON array of them, or gathers them into one.

Python's sqlite3 steps a statement once a row and lets other threads run at every step (it
releases the interpreter around each); it takes it back only when a busy thread gives it up, a
switch interval later. Beside a busy thread (the app's event loop while the reviewer keeps
pressing keys, the anchoring), `executemany` of 60,000 events took 29 s instead of 0.8 s, and
reading 121,936 current verdicts 87 s instead of 1 s. A statement that holds thousands of rows
is one step, and costs the same alone (benchmarks/bench_group_verdict.py).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

__all__ = ["CHUNK", "insert_rows"]

#: rows in one statement
CHUNK = 20_000


def insert_rows(
    conn: sqlite3.Connection,
    head: str,
    rows: Sequence[Sequence[Any]],
    *,
    tail: str = "",
) -> None:
    """``{head} VALUES (...) {tail}`` for each row, CHUNK rows a statement.

    ``head`` names the table and its columns (``INSERT OR IGNORE INTO t (a, b)``), ``tail`` an
    upsert clause; the values are text, numbers or None, as they bind.
    """
    if not rows:
        return
    width = len(rows[0])
    values = ", ".join(f"json_extract(value, '$[{n}]')" for n in range(width))
    gathered = f"{head} SELECT {values} FROM json_each(?) WHERE true {tail}"
    one = f"{head} VALUES ({', '.join('?' * width)}) {tail}"
    for start in range(0, len(rows), CHUNK):
        part = rows[start : start + CHUNK]
        text = json.dumps(part, ensure_ascii=False, separators=(",", ":"))
        if "\\u0000" in text:  # SQLite's JSON ends a text at a NUL: these rows bind one by one
            conn.executemany(one, part)
        else:
            conn.execute(gathered, (text,))
