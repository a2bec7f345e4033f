"""SQLite access for the API: one connection per store, migrations applied at start."""

from __future__ import annotations

import sqlite3
from pathlib import Path

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"


def connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None)
    db.row_factory = sqlite3.Row
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA journal_mode = WAL")
    apply_migrations(db)
    return db


def apply_migrations(db: sqlite3.Connection) -> list[str]:
    db.execute("CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY)")
    done = {row[0] for row in db.execute("SELECT name FROM schema_migrations")}
    applied = []
    for script in sorted(MIGRATIONS.glob("*.sql")):
        if script.name in done:
            continue
        db.executescript(script.read_text(encoding="utf-8"))
        db.execute("INSERT INTO schema_migrations (name) VALUES (?)", (script.name,))
        applied.append(script.name)
    return applied
