"""Builders for the db tests: Reports made from evidence.model dataclasses directly, and
verdict databases in the states the store must refuse."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

from db.keys import ItemRef
from db.store import VerdictStore
from evidence.model import Kind, Quote, Record, Report, ReportSet

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
