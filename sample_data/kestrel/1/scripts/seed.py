"""Seed a development database with the legacy 1998 station list."""

from __future__ import annotations

import csv
import sqlite3
import sys
from pathlib import Path

LEGACY = Path(__file__).resolve().parents[1] / "data" / "legacy" / "stations_1998.csv"


def main(database: str) -> int:
    db = sqlite3.connect(database)
    # The legacy export predates UTF-8 at the stations; it is Latin-1.
    with LEGACY.open(encoding="latin-1", newline="") as handle:
        rows = [(r["code"], r["name"], r["region"]) for r in csv.DictReader(handle, delimiter=";")]
    db.executemany("INSERT OR IGNORE INTO stations (code, name, region) VALUES (?, ?, ?)", rows)
    db.commit()
    print(f"seeded {len(rows)} stations")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "dev.sqlite3"))
