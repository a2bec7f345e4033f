"""Many rows in one statement: an INSERT of thousands of rows at once, and reads gathered by
SQLite into one value.

Python's sqlite3 steps a statement once a row and lets other threads run at every step (it
releases the interpreter around each); it takes it back only when a busy thread gives it up, a
switch interval later. Beside a busy thread (the app's event loop while the reviewer keeps
pressing keys, the anchoring), `executemany` of 5,000 events took 3.6 s instead of 0.06 s, and
reading 121,936 current verdicts 87 s instead of 1 s. A statement that holds thousands of rows
is one step, and costs what `executemany` costs alone (benchmarks/bench_group_verdict.py).
"""

from __future__ import annotations

import itertools
import json
import sqlite3
from collections.abc import Sequence
from typing import Any

__all__ = ["CHUNK", "gathered", "insert_rows"]

#: rows in one statement at most (fewer when SQLite's limit on parameters asks it)
CHUNK = 2_000


def insert_rows(
    conn: sqlite3.Connection,
    head: str,
    rows: Sequence[Sequence[Any]],
    *,
    tail: str = "",
) -> None:
    """``{head} VALUES (...), (...), ... {tail}`` for the rows, CHUNK rows a statement, each
    value bound as `executemany` binds it.

    ``head`` names the table and its columns (``INSERT OR IGNORE INTO t (a, b)``), ``tail`` an
    upsert clause (``ON CONFLICT ...``).
    """
    if not rows:
        return
    width = len(rows[0])
    limit = conn.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
    per = max(1, min(CHUNK, limit // width))
    one = f"({', '.join('?' * width)})"
    for start in range(0, len(rows), per):
        part = rows[start : start + per]
        # an upsert after a VALUES list needs no WHERE (only after a SELECT would it be ambiguous)
        statement = f"{head} VALUES {', '.join([one] * len(part))} {tail}"
        conn.execute(statement, list(itertools.chain.from_iterable(part)))


def gathered(conn: sqlite3.Connection, query: str, parameters: Sequence[Any] = ()) -> list[Any]:
    """The JSON array ``query`` gathers into its one value (``SELECT json_group_array(...)``),
    decoded: one step of SQLite's, whatever the number of rows (empty: no rows)."""
    (text,) = conn.execute(query, parameters).fetchone()
    return list(json.loads(text)) if text else []
