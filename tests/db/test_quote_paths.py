"""A text a record quotes at two paths: each file's quote keeps its own verdict, whatever order
the report lists them in (their keys were the text and its place in the record, so a report
regenerated in another order moved a confirmation from one file's quote to the other's); and
migration 9 moves the verdicts stored under the old keys."""

from __future__ import annotations

import hashlib
from pathlib import Path

import sqlite_utils
from storekit import make_record, make_report, reportset

from db import schema
from db.keys import ItemRef, Verdict, make_key, normalize_quote, record_quote_hashes
from db.store import VerdictStore

CHECK = "requireAuth(req);"
OTHER = "return next();"


def keyed(report_quotes: list[tuple[str, str]]) -> dict[tuple[str, str, int], str]:
    """(text, path, n-th at that path) -> item key, for a record holding these quotes."""
    report = make_report([make_record("RT-RTE-routes", report_quotes)])
    record = report.records[0]
    keys: dict[tuple[str, str, int], str] = {}
    for quote in record.quotes:
        n = sum(1 for k in keys if k[:2] == (quote.text, quote.path)) + 1
        keys[quote.text, quote.path, n] = ItemRef.for_quote(report, record, quote).key
    return keys


def test_the_same_text_at_two_paths_keeps_its_key_in_any_order() -> None:
    first = keyed([(CHECK, "src/a.js"), (OTHER, "src/a.js"), (CHECK, "src/b.js")])
    again = keyed([(CHECK, "src/b.js"), (CHECK, "src/a.js"), (OTHER, "src/a.js")])
    assert first == again
    assert first[CHECK, "src/a.js", 1] != first[CHECK, "src/b.js", 1]


def test_other_quotes_keep_the_keys_they_had() -> None:
    # a text at one path (repeated there or not) is hashed as before: its verdicts stay
    def old(text: str, n: int = 1) -> str:
        data = normalize_quote(text) if n == 1 else f"{normalize_quote(text)}\n#{n}"
        return hashlib.sha256(data.encode()).hexdigest()[:12]

    record = make_record("RT-X", [(CHECK, "a.js"), (OTHER, "a.js"), (CHECK, "a.js"), ("", "b.js")])
    assert record_quote_hashes(record) == [old(CHECK), old(OTHER), old(CHECK, 2), old("")]
    # SARIF locations without a snippet (no text) at several paths: by their place, as before
    flow = make_record("Q:1", [("", "a.js"), ("", "b.js"), ("", "a.js")])
    assert record_quote_hashes(flow) == [old(""), old("", 2), old("", 3)]


def test_a_verdict_stays_on_its_files_quote_when_the_report_is_reordered(db_path: Path) -> None:
    before = make_report([make_record("RT-RTE-routes", [(CHECK, "src/a.js"), (CHECK, "src/b.js")])])
    after = make_report([make_record("RT-RTE-routes", [(CHECK, "src/b.js"), (CHECK, "src/a.js")])])
    with VerdictStore.open(db_path) as store:
        record = before.records[0]
        a, b = (ItemRef.for_quote(before, record, q) for q in record.quotes)
        store.give(a, Verdict.CONFIRMED, reviewer="ann", note="checked in a.js")
        store.give(b, Verdict.REFUTED, reviewer="ann", note="b.js lost the check")
        current = store.current("ann")
        record = after.records[0]
        now = {q.path: current[ItemRef.for_quote(after, record, q).key] for q in record.quotes}
        assert now["src/a.js"].verdict is Verdict.CONFIRMED
        assert now["src/b.js"].verdict is Verdict.REFUTED
        assert store.stale(reportset(after)) == []


def test_migration_9_moves_the_verdicts_stored_under_the_old_keys(db_path: Path) -> None:
    report = make_report(
        [
            make_record(
                "RT-RTE-routes", [(CHECK, "src/a.js"), (OTHER, "src/a.js"), (CHECK, "src/b.js")]
            )
        ]
    )
    record = report.records[0]
    identity = report.identity
    # the keys assay wrote at schema version 8: the text and its place among the same texts
    old = {
        0: hashlib.sha256(CHECK.encode()).hexdigest()[:12],
        1: hashlib.sha256(OTHER.encode()).hexdigest()[:12],
        2: hashlib.sha256(f"{CHECK}\n#2".encode()).hexdigest()[:12],
    }
    db = sqlite_utils.Database(db_path)
    with db.conn:
        schema.migrate(db, upto=8)
        db.table("items").insert_all(
            {
                "item": make_key(identity, record.id, old[n]),
                "report": identity,
                "record": record.id,
                "quote": old[n],
                "ord": n + 1,
                "quote_index": n,
                "quote_path": quote.path,
                "quote_text": quote.text,
                "present": 1,
                "registered_at": "2026-01-01T00:00:00+00:00",
            }
            for n, quote in enumerate(record.quotes)
        )
        db.table("events").insert_all(
            {
                "event": f"e-{n}",
                "item": make_key(identity, record.id, old[n]),
                "report": identity,
                "record": record.id,
                "quote": old[n],
                "reviewer": "ann",
                "verdict": verdict,
                "note": None,
                "at": "2026-01-02T00:00:00+00:00",
            }
            for n, verdict in ((0, "confirmed"), (1, "unclear"), (2, "refuted"))
        )
    db.close()
    with VerdictStore.open(db_path) as store:
        current = store.current("ann")
        given = {
            (q.text, q.path): current[ItemRef.for_quote(report, record, q).key].verdict
            for q in record.quotes
        }
        assert given == {
            (CHECK, "src/a.js"): Verdict.CONFIRMED,
            (OTHER, "src/a.js"): Verdict.UNCLEAR,  # its key did not change
            (CHECK, "src/b.js"): Verdict.REFUTED,
        }
        assert len(current) == 3 and store.stale(reportset(report)) == []
        registered = {row["item"] for row in store.items()}
        assert registered == {ItemRef.for_quote(report, record, q).key for q in record.quotes}
