"""A damaged verdict database: `assay export --salvage` writes every event that can still be
read, for `assay import` into a new database. Before, the only answer was "restore it from a
backup": a copy cut short, or one bad page, lost every verdict of the file."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from click.testing import CliRunner, Result
from storekit import filled

from db import VerdictStore
from db.salvage import salvage
from db.salvage_pages import leaf_rows
from tui.cli import cli

EVENTS = 400


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def events_of(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def leaf_pages(data: bytes) -> list[tuple[int, list[int]]]:
    """(page number, the seq of the events rows on it) of each table leaf page of events: each
    page read as the second of a file of two, after the header page."""
    size = int.from_bytes(data[16:18], "big")
    pages = []
    for number in range(2, len(data) // size + 1):
        alone = data[:size] + data[(number - 1) * size : number * size]
        rows = [rowid for rowid, values in leaf_rows(alone) if len(values) == 12 and not values[0]]
        if rows:
            pages.append((number, rows))
    return pages


def test_a_database_with_a_damaged_page_loses_only_that_pages_events(tmp_path: Path) -> None:
    database = filled(tmp_path / "verdicts.sqlite3", events=EVENTS)
    data = bytearray(database.read_bytes())
    size = int.from_bytes(data[16:18], "big")
    pages = leaf_pages(bytes(data))
    number, on_it = pages[len(pages) // 2]
    data[(number - 1) * size + 8 : number * size] = b"\xa5" * (size - 8)  # its cells garbled
    database.write_bytes(data)
    before = hashlib.sha256(database.read_bytes()).hexdigest()
    refused = run("stats", "--db", str(database))
    assert refused.exit_code == 2 and "is damaged" in refused.stderr
    assert "--salvage --out rescued.jsonl" in refused.stderr  # the way out is named

    rescued = tmp_path / "rescued.jsonl"
    result = run("export", "--db", str(database), "--salvage", "--out", str(rescued))
    assert result.exit_code == 0, result.output
    kept = events_of(rescued)
    assert len(kept) == EVENTS - len(on_it)
    assert {event["record"] for event in kept} == {f"R{n}" for n in range(EVENTS)} - {
        f"R{seq - 1}" for seq in on_it
    }
    assert f"{EVENTS - len(on_it)} event(s)" in result.stderr
    assert f"{len(on_it)} row(s) could not be read (seq {on_it[0]}, " in result.stderr
    assert hashlib.sha256(database.read_bytes()).hexdigest() == before  # left untouched

    # into a new database, as the message says
    imported = run("import", str(rescued), "--db", str(tmp_path / "new.sqlite3"))
    assert imported.exit_code == 0 and f"{len(kept)} new" in imported.output
    with VerdictStore.open(tmp_path / "new.sqlite3", readonly=True) as store:
        assert store.count() == len(kept)


def test_a_copy_cut_short_gives_the_events_of_the_pages_it_kept(tmp_path: Path) -> None:
    # SQLite reads nothing of it (its schema's pages are gone too): the pages are read
    database = filled(tmp_path / "verdicts.sqlite3", events=EVENTS)
    whole = database.read_bytes()
    database.write_bytes(whole[: len(whole) // 2])
    found = salvage(database)
    assert found.pages_only and found.open_ended and not found.lost
    assert 0 < len(found.events) < EVENTS
    assert [event.record for event in found.events] == [f"R{n}" for n in range(len(found.events))]
    result = run("export", "--db", str(database), "--salvage")
    assert result.exit_code == 0
    assert len(result.stdout.splitlines()) == len(found.events)
    assert "read from its pages" in result.stderr and "rows written after" in result.stderr


def test_a_sound_database_gives_every_event_and_other_files_are_refused(tmp_path: Path) -> None:
    database = filled(tmp_path / "verdicts.sqlite3", events=30)
    found = salvage(database)
    assert len(found.events) == 30 and not found.lost and not found.open_ended
    with VerdictStore.open(database, readonly=True) as store:
        assert [e.event for e in found.events] == [e.event for e in store.events()]
    other = tmp_path / "notes.txt"
    other.write_text("ann,confirmed\n", encoding="utf-8")
    for path, said in ((other, "nothing can be read"), (tmp_path / "none.db", "no verdict")):
        result = run("export", "--db", str(path), "--salvage")
        assert result.exit_code == 2 and said in result.stderr, result.output
    result = run("export", "--db", str(database), "--salvage", "--format", "csv")
    assert result.exit_code == 2 and "--salvage writes the events as jsonl" in result.stderr
