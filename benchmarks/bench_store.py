"""Verdict store benchmark: durable verdict writes and export of 100,000 events.

Run: .venv/bin/python benchmarks/bench_store.py [--writes N] [--events N]

Each figure is printed beside a plain sqlite3 baseline measured in the same run on the same disk:
- one verdict write: VerdictStore.give (BEGIN IMMEDIATE, read the previous note, INSERT,
  COMMIT, WAL with synchronous=FULL) against a bare INSERT + COMMIT into a table of the same
  columns with the same pragmas. Goal: p50 under 2 ms.
- export: `assay export --format jsonl` of 100,000 events (db.export.write) against a bare
  SELECT ... ORDER BY + json.dumps per row. Goal: under 2 s.
- registration: `VerdictStore.register` of a scan's review (100,000 results, a quote each:
  200,000 items), the first time and again (each launch registers the review once anchored),
  against a bare INSERT of the same rows into a table of the same columns (the rows made, the
  keys hashed, outside its time). Until 2026-12-04 (sqlite-utils' upsert_all): 3.7x and 3.9x;
  one UPSERT a row since: 2.1x and 2.3x.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from db.export import write
from db.keys import ItemRef, Verdict
from db.store import Event, VerdictStore

REPORT = "KESTREL/agentic-system-runtime-report"
COLUMNS = "event, item, report, record, quote, reviewer, verdict, note, at, revision, undoes"


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def plain_connection(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute(f"CREATE TABLE IF NOT EXISTS events ({COLUMNS})")
    return conn


def bench_writes(folder: Path, count: int) -> None:
    store = VerdictStore.open(folder / "store.sqlite3")
    plain = plain_connection(folder / "plain.sqlite3")
    ours: list[float] = []
    base: list[float] = []
    rounds = 10
    for round_ in range(rounds):  # interleaved, so both see the same disk and neighbours
        for n in range(count // rounds):
            key = f"R{round_}-{n}"
            started = time.perf_counter()
            plain.execute("BEGIN IMMEDIATE")
            plain.execute(
                f"INSERT INTO events ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    uuid.uuid4().hex,
                    f"{REPORT}#{key}",
                    REPORT,
                    key,
                    None,
                    "ann",
                    "confirmed",
                    None,
                    "2026-01-01T00:00:00.000000Z",
                    None,
                    None,
                ),
            )
            plain.execute("COMMIT")
            base.append(time.perf_counter() - started)
            started = time.perf_counter()
            store.give(ItemRef(REPORT, key), Verdict.CONFIRMED, reviewer="ann")
            ours.append(time.perf_counter() - started)
    store.close()
    plain.close()
    print(f"durable verdict write (synchronous=FULL, WAL), {len(ours)} writes each:")
    for name, values in (("VerdictStore.give", ours), ("plain sqlite3 INSERT", base)):
        print(
            f"  {name:<22} p50 {1000 * statistics.median(values):6.3f} ms"
            f"   p99 {1000 * percentile(values, 0.99):6.3f} ms"
        )
    ratio50 = statistics.median(ours) / statistics.median(base)
    ratio99 = percentile(ours, 0.99) / percentile(base, 0.99)
    print(
        f"  ratio to baseline     p50 {ratio50:5.2f}x     p99 {ratio99:5.2f}x   (goal: p50 < 2 ms)"
    )


def synthetic_events(count: int) -> list[Event]:
    verdicts = list(Verdict)
    events = []
    for n in range(count):
        record = f"RT-CLM-{n % 5000:04d}"
        quote = f"{n % 7:012x}" if n % 3 else None
        key = f"{REPORT}#{record}" + (f"#{quote}" if quote else "")
        events.append(
            Event(
                event=uuid.uuid4().hex,
                item=key,
                report=REPORT,
                record=record,
                quote=quote,
                reviewer=("ann", "bob", "cy")[n % 3],
                verdict=verdicts[n % 4],
                note="checked against line 120 of src/app.py" if n % 5 == 0 else None,
                at=f"2026-01-01T{n // 3_600_000 % 24:02d}:{n // 60_000 % 60:02d}:"
                f"{n // 1000 % 60:02d}.{n % 1000:03d}000Z",
                revision="0123456789abcdef0123456789abcdef01234567",
            )
        )
    return events


def bench_export(folder: Path, count: int) -> None:
    path = folder / "export.sqlite3"
    events = synthetic_events(count)
    with VerdictStore.open(path) as store:
        started = time.perf_counter()
        store.import_events(events)
        imported = time.perf_counter() - started
    started = time.perf_counter()
    store = VerdictStore.open(path, readonly=True)
    opened = time.perf_counter() - started
    started = time.perf_counter()
    with (folder / "ours.jsonl").open("w", encoding="utf-8") as out:
        exported = write(store, "jsonl", out)
    ours = time.perf_counter() - started
    store.close()
    assert exported == count

    started = time.perf_counter()
    conn = sqlite3.connect(path)
    names = [c.strip() for c in COLUMNS.split(",")]
    with (folder / "plain.jsonl").open("w", encoding="utf-8") as out:
        for row in conn.execute(f"SELECT {COLUMNS} FROM events ORDER BY at, event"):
            out.write(json.dumps(dict(zip(names, row, strict=True)), ensure_ascii=False))
            out.write("\n")
    conn.close()
    base = time.perf_counter() - started

    print(f"export of {count:,} events as jsonl:")
    print(f"  assay export (db.export.write)  {ours:6.3f} s")
    print(f"  plain sqlite3 + json.dumps      {base:6.3f} s")
    print(f"  ratio to baseline               {ours / base:5.2f}x   (goal: < 2 s)")
    print(f"  (import of the same events: {imported:.3f} s; open with quick_check: {opened:.3f} s)")


def bench_register(folder: Path, count: int) -> None:
    from db.items import item_rows
    from evidence.model import Kind, Quote, Record, Report, ReportSet

    records = tuple(
        Record(
            id=f"R{n:06d}:rule",
            kind=Kind.RESULT,
            label="Single quotes found but double quotes preferred",
            body="",
            report="scan.sarif",
            section="Results",
            lines=(n, n),
            quotes=(
                Quote(
                    text=f"name_{n} = 'value {n}'",
                    path=f"pkg/module_{n % 500}.py",
                    claimed=(n % 400 + 1, n % 400 + 1),
                    report_line=n,
                    text_line=n,
                    record=f"R{n:06d}:rule",
                    index=0,
                ),
            ),
        )
        for n in range(count)
    )
    reports = ReportSet(reports=(Report("scan.sarif", "ruff", "sarif/ruff", "ruff", (), records),))
    path = folder / "register.sqlite3"
    with VerdictStore.open(path) as store:
        started = time.perf_counter()
        items = store.register(reports, revision="0" * 40, repository="/r")
        first = time.perf_counter() - started
        started = time.perf_counter()
        store.register(reports, revision="0" * 40, repository="/r")
        again = time.perf_counter() - started

    rows = item_rows(reports, {}, "0" * 40, "2026-12-04T00:00:00")
    conn = sqlite3.connect(folder / "plain-register.sqlite3")
    columns = tuple(rows[0])
    conn.execute(f"CREATE TABLE items ({', '.join(columns)}, PRIMARY KEY (item))")
    started = time.perf_counter()
    with conn:
        conn.executemany(
            f"INSERT INTO items VALUES ({', '.join('?' * len(columns))})",
            [tuple(row[column] for column in columns) for row in rows],
        )
    base = time.perf_counter() - started
    conn.close()
    print(f"registration of a review of {count:,} results ({items:,} items):")
    print(f"  VerdictStore.register, first    {first:6.3f} s   ratio {first / base:5.2f}x")
    print(f"  VerdictStore.register, again    {again:6.3f} s   ratio {again / base:5.2f}x")
    print(f"  plain sqlite3 INSERT            {base:6.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writes", type=int, default=1000)
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--results", type=int, default=100_000)
    parser.add_argument("--dir", type=Path, default=None, help="where the databases go")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        bench_writes(Path(folder), args.writes)
        bench_export(Path(folder), args.events)
        bench_register(Path(folder), args.results)


if __name__ == "__main__":
    main()
