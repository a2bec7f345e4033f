"""`assay export --salvage`: the events of a damaged verdict database that SQLite can still
read, written as jsonl for `assay import` into a new database (db/salvage.py)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

import click

from db.check import StoreError
from db.export import event_line
from evidence.text import shown_path
from tui.commands.errors import InputError, prefixed


def export_salvaged(
    path: Path, out: Path | None, write_atomically: Callable[[Path, Any], None]
) -> None:
    """Write what ``path`` still holds to ``out`` (standard output for None or ``-``), then say
    on stderr how much was read and what was lost."""
    from db.salvage import salvage

    if not path.is_file():
        raise InputError(f"there is no verdict database at {shown_path(path)}")
    try:
        found = salvage(path)
    except StoreError as error:
        raise InputError(str(error)) from None

    def produce(handle: TextIO) -> int:
        for event in found.events:
            handle.write(event_line(event) + "\n")
        return len(found.events)

    if out is None or str(out) == "-":
        produce(sys.stdout)
        target = "standard output"
    else:
        write_atomically(out, produce)
        target = shown_path(out)
    said = f"{len(found.events)} event(s) of {shown_path(path)} written to {target}"
    if found.pages_only:
        said += " (read from its pages: SQLite could not read its tables)"
    if found.lost:
        shown = ", ".join(map(str, found.lost[:5])) + (" and more" if len(found.lost) > 5 else "")
        said += f"; {len(found.lost)} row(s) could not be read (seq {shown})"
    if found.open_ended:
        said += "; rows written after the last one read, if any, could not be read either"
    if found.lost or found.open_ended:
        said += ": their verdicts are lost unless a backup or another reviewer's export has them"
    said += "; `assay import FILE --db NEW` takes them into a new database"
    click.echo(prefixed("assay export", said), err=True)
