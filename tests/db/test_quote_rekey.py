"""Migration 2: verdicts stored under quote keys of the old normalization move to the new keys.

Before it, quote keys hashed a second normalization of the quote text (db/keys.py's own), which
kept "- " list markers and typographic quotes; now they hash the anchorer's `normalize_quote`.
The database here is written as assay wrote it at schema version 1, with the keys it computed.
"""

from __future__ import annotations

import csv
import hashlib
import io
import sqlite3
from pathlib import Path

import pytest
import sqlite_utils
from storekit import make_record, make_report, reportset

from db import schema
from db.export import render
from db.keys import ItemRef, Verdict, make_key
from db.store import StoreError, VerdictStore

YAML = "steps:\n  - run: make test"
TYPOGRAPHIC = "raise “retry later”"
PLAIN = "return value"
REPORT = make_report([make_record("RT-CLM-one", [YAML, PLAIN, TYPOGRAPHIC])])
IDENTITY = REPORT.identity


def old_hash(normalized_then: str) -> str:
    """A quote hash as schema version 1 computed it, from the text its normalization gave."""
    return hashlib.sha256(normalized_then.encode()).hexdigest()[:12]


# what the old normalization made of the quotes: "- " and the typographic quotes were kept
OLD = {
    YAML: old_hash("steps: - run: make test"),
    PLAIN: old_hash("return value"),
    TYPOGRAPHIC: old_hash("raise “retry later”"),
}


def version_1_database(path: Path, *, registered: bool = True) -> None:
    """A database at schema version 1 holding verdicts on REPORT's quotes under their old keys
    (and, when `registered`, the items row of each quote, as the review app registered them)."""
    db = sqlite_utils.Database(path)
    with db.conn:
        assert schema.migrate(db, upto=1) == 1
    rows = []
    events = []
    record = REPORT.records[0]
    for ord_, quote in enumerate(record.quotes, start=1):
        digest = OLD[quote.text]
        key = make_key(IDENTITY, record.id, digest)
        rows.append(
            {
                "item": key,
                "report": IDENTITY,
                "record": record.id,
                "quote": digest,
                "ord": ord_,
                "quote_index": quote.index,
                "quote_path": quote.path,
                "quote_text": quote.text,
                "present": 1,
                "registered_at": "2026-01-01T00:00:00+00:00",
            }
        )
        for seq, (verdict, note) in enumerate((("refuted", None), ("confirmed", "checked"))):
            events.append(
                {
                    "event": f"e-{ord_}-{seq}",
                    "item": key,
                    "report": IDENTITY,
                    "record": record.id,
                    "quote": digest,
                    "reviewer": "ann",
                    "verdict": verdict,
                    "note": note,
                    "at": f"2026-01-0{2 + seq}T00:00:00+00:00",
                }
            )
    with db.conn:
        if registered:
            db.table("items").insert_all(rows)
        db.table("events").insert_all(events)
    db.close()


def test_the_old_keys_of_changed_quotes_differ_from_the_new_ones() -> None:
    record = REPORT.records[0]
    new = {q.text: ItemRef.for_quote(REPORT, record, q).quote for q in record.quotes}
    assert new[PLAIN] == OLD[PLAIN]
    assert new[YAML] != OLD[YAML] and new[TYPOGRAPHIC] != OLD[TYPOGRAPHIC]


def test_verdicts_move_to_the_new_keys(db_path: Path) -> None:
    version_1_database(db_path)
    record = REPORT.records[0]
    with VerdictStore.open(db_path) as store:
        current = store.current("ann")
        for quote in record.quotes:
            ref = ItemRef.for_quote(REPORT, record, quote)
            event = current[ref.key]
            assert (event.verdict, event.note, event.quote) == (
                Verdict.CONFIRMED,
                "checked",
                ref.quote,
            )
            assert [e.verdict for e in store.history(ref.key)] == [
                Verdict.REFUTED,
                Verdict.CONFIRMED,
            ]
        assert len(current) == 3  # no verdict left behind under an old key
        assert store.stale(reportset(REPORT)) == []
        items = {row["item"]: row["quote_text"] for row in store.items()}
        assert items == {ItemRef.for_quote(REPORT, record, q).key: q.text for q in record.quotes}
    raw = sqlite3.connect(db_path)
    try:
        moves = dict(raw.execute("SELECT old, new FROM quote_rekeys").fetchall())
        assert moves == {
            make_key(IDENTITY, record.id, OLD[q.text]): ItemRef.for_quote(REPORT, record, q).key
            for q in record.quotes
            if q.text != PLAIN
        }
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute("UPDATE events SET note = 'rewritten'")
    finally:
        raw.close()


def test_verdicts_of_unregistered_quotes_keep_their_key_and_show_as_stale(db_path: Path) -> None:
    version_1_database(db_path, registered=False)
    with VerdictStore.open(db_path) as store:
        stale = store.stale(reportset(REPORT))
        assert sorted((s.event.quote for s in stale), key=str) == sorted(
            [OLD[YAML], OLD[TYPOGRAPHIC]]
        )
        assert {s.reason for s in stale} == {"quote changed"}
        assert len(store.current("ann")) == 3


def test_a_read_only_open_reads_an_older_database_as_migrated(db_path: Path) -> None:
    # `assay export` and `stats` open read-only, where no migration runs: the write-up failed
    # ("no such table: citations") and the csv showed the quotes unreviewed
    version_1_database(db_path)
    before = db_path.read_bytes()
    record = REPORT.records[0]
    with VerdictStore.open(db_path, readonly=True) as store:
        current = store.current("ann")
        assert {key: event.note for key, event in current.items()} == {
            ItemRef.for_quote(REPORT, record, quote).key: "checked" for quote in record.quotes
        }
        assert "ann: **confirmed**\n    > checked" in render(store, "md")
        rows = list(csv.DictReader(io.StringIO(render(store, "csv"))))
        assert [(row["quote_text"], row["verdict"]) for row in rows] == [
            (quote.text, "confirmed") for quote in record.quotes
        ]
        with pytest.raises(StoreError, match="opened read-only"):
            store.give(ItemRef.for_record(REPORT, record), "refuted", reviewer="ann")
    assert db_path.read_bytes() == before  # left as the older assay wrote it
    with VerdictStore.open(db_path) as store:  # migrated for good (`assay import`): the same
        assert "File: not recorded" in render(store, "md")  # was a crash: no report file then
