"""Many rows a statement (db/gathered.py): what one INSERT of many rows stores is what
`executemany` binds, row for row, whatever the text holds."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from db import gathered
from db.gathered import insert_rows

TEXTS = [
    "plain",
    "",
    'quotes " and \\ backslashes \\u0041',
    "line\nbreak\ttab\rreturn",
    "\x01\x1b[2J\x7f controls",
    "ünïcødé ✓ 𝄞 \u2028 \u202e bidi",
    "x" * 70_000,
    "NUL \x00 inside",
    "[1, 2]",
    "null",
]


def _table(conn: sqlite3.Connection, name: str) -> None:
    conn.execute(
        f"CREATE TABLE {name} (id INTEGER PRIMARY KEY, word TEXT, score REAL, n INTEGER, "
        "maybe TEXT) STRICT"
    )


def test_rows_inserted_many_at_once_are_the_rows_bound_one_by_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(gathered, "CHUNK", 4)  # several statements, and a last one shorter
    conn = sqlite3.connect(tmp_path / "t.db")
    _table(conn, "bound")
    _table(conn, "expanded")
    rows = [
        (n, text, [87.5, 100.0, 0.1 + 0.2, -3e-9][n % 4], [0, -1, 2**62, 7][n % 4], None)
        for n, text in enumerate(TEXTS * 3)
    ]
    conn.executemany("INSERT INTO bound VALUES (?, ?, ?, ?, ?)", rows)
    insert_rows(conn, "INSERT INTO expanded (id, word, score, n, maybe)", rows)
    bound = conn.execute("SELECT *, typeof(score), typeof(n) FROM bound ORDER BY id").fetchall()
    expanded = conn.execute(
        "SELECT *, typeof(score), typeof(n) FROM expanded ORDER BY id"
    ).fetchall()
    assert expanded == bound and len(bound) == 30
    assert expanded[7][1] == "NUL \x00 inside"


def test_sqlites_limit_on_parameters_makes_the_statements_smaller(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "t.db")
    _table(conn, "t")
    conn.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 12)  # two rows of five a statement
    steps: list[str] = []
    conn.set_trace_callback(steps.append)
    rows = [(n, str(n), 1.5, n, None) for n in range(7)]
    insert_rows(conn, "INSERT INTO t (id, word, score, n, maybe)", rows)
    conn.set_trace_callback(None)
    assert len([s for s in steps if s.startswith("INSERT")]) == 4
    assert conn.execute("SELECT count(*), sum(n) FROM t").fetchone() == (7, 21)


def test_an_upsert_tail_updates_what_is_there(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "t.db")
    _table(conn, "t")
    head = "INSERT INTO t (id, word, score, n, maybe)"
    tail = "ON CONFLICT (id) DO UPDATE SET word = excluded.word"
    insert_rows(conn, head, [(1, "a", 1.0, 1, None), (2, "b", 2.0, 2, "x")], tail=tail)
    insert_rows(conn, head, [(2, "B", 9.0, 9, None), (3, "c", 3.0, 3, None)], tail=tail)
    insert_rows(conn, head, [])
    rows = conn.execute("SELECT id, word, score, maybe FROM t ORDER BY id").fetchall()
    assert rows == [(1, "a", 1.0, None), (2, "B", 2.0, "x"), (3, "c", 3.0, None)]
