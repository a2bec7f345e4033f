"""Builders for the db tests: Reports made from evidence.model dataclasses directly, and
verdict databases in the states the store must refuse."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

from db.keys import ItemRef
from db.store import VerdictStore
from evidence.model import Anchor, FileState, Kind, Quote, Record, Report, ReportSet, Tier

TYPE_PREFIX = "agentic-system-analyses/types/agentic-system-"


def make_record(
    record_id: str,
    quotes: Sequence[str | tuple[str, str]] = (),
    *,
    kind: Kind = Kind.CLAIM,
    label: str = "",
    file: str = "runtime.md",
) -> Record:
    """A record whose quotes are texts (cited from src/app.py) or (text, path) pairs."""
    built = []
    for index, quote in enumerate(quotes):
        text, path = (quote, "src/app.py") if isinstance(quote, str) else quote
        built.append(
            Quote(
                text=text,
                path=path,
                claimed=None,
                report_line=10 + index,
                text_line=11 + index,
                record=record_id,
                index=index,
            )
        )
    return Record(
        id=record_id,
        kind=kind,
        label=label or f"label of {record_id}",
        body="",
        report=file,
        section=str(kind),
        lines=(1, 5),
        quotes=tuple(built),
    )


def make_report(
    records: Sequence[Record], *, system: str = "KESTREL", member: str = "runtime", file: str = ""
) -> Report:
    """A report of a system and member type holding these records."""
    file = file or f"{member}.md"
    return Report(
        file=file,
        title=f"{system} {member} report",
        type_line=f"{TYPE_PREFIX}{member}-report.md",
        system=system,
        records=tuple(record._replace(report=file) for record in records),
    )


def reportset(*reports: Report) -> ReportSet:
    """Reports loaded together."""
    return ReportSet(reports=tuple(reports))


def filled(path: Path, events: int = 1) -> Path:
    """A verdict database holding ``events`` verdicts."""
    with VerdictStore.open(path) as store:
        for n in range(events):
            store.give(ItemRef("S/runtime", f"R{n}"), "confirmed", note="x" * 40, reviewer="ann")
    return path


def newer(path: Path) -> Path:
    """A database written by a newer assay (schema version 99)."""
    filled(path)
    with sqlite3.connect(path) as raw:
        raw.execute("INSERT INTO schema_migrations VALUES (99, 'from the future', 'then')")
    raw.close()
    return path


def foreign(path: Path) -> Path:
    """An SQLite database of some other program."""
    with sqlite3.connect(path) as raw:
        raw.execute("CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance INTEGER)")
    raw.close()
    return path


def not_sqlite(path: Path) -> Path:
    path.write_text("ann,confirmed\n", encoding="utf-8")
    return path


def truncated(path: Path) -> Path:
    """A database cut short inside its pages."""
    filled(path, events=300)
    path.write_bytes(path.read_bytes()[:5000])
    return path


# The report and verdict history that the export and write-up tests both read
REPORT = make_report(
    [
        make_record(
            "RT-CLM-retries",
            ["if retries > 3:", ("MAX = 3", "src/config.py"), "give_up()"],
            label="Retries stop after three",
        ),
        make_record("RT-RTE-upload", [], kind=Kind.ROUTE, label="Upload route"),
    ]
)
CLAIM, ROUTE = REPORT.records
REV = "0123456789abcdef0123456789abcdef01234567"


def qref(index: int) -> ItemRef:
    return ItemRef.for_quote(REPORT, CLAIM, CLAIM.quotes[index])


def fill(store: VerdictStore) -> None:
    store.give(ItemRef.for_record(REPORT, CLAIM), "confirmed", reviewer="ann", revision=REV)
    store.give(qref(0), "refuted", note="line 40 says >= 3", reviewer="ann", revision=REV)
    store.give(qref(1), "unclear", note="ünïcode — and\ntwo lines", reviewer="bob", revision=REV)
    store.give(qref(1), "confirmed", reviewer="ann", revision=REV)
    store.give(qref(0), "refuted", reviewer="bob", revision=REV)
    store.give(ItemRef.for_record(REPORT, ROUTE), "skip", reviewer="bob")
    store.give(ItemRef.for_record(REPORT, ROUTE), "refuted", reviewer="ann")
    store.undo("ann")
    store.note(qref(2), "[click](javascript:x) <b>bold</b> \x1b[31mred\x9b", reviewer="bob")


def anchors() -> dict[Quote, Anchor]:
    first, second, third = CLAIM.quotes
    return {
        first: Anchor(first, FileState.OK, Tier.EXACT, 100.0, (40, 40), range_ok=None),
        second: Anchor(second, FileState.OK, Tier.FUZZY, 81.5, (7, 7)),
        third: Anchor(third, FileState.MISSING, Tier.MISSING, 0.0, None),
    }
