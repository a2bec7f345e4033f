"""The verdict files of a verdicts repository: where each one lives and reading one safely.

Each reviewer's events on one report are one file, ``verdicts/<report identity>/<reviewer>.jsonl``,
spelled exactly as ``assay export --format jsonl`` spells them; past `PART_BYTES` they go on in
parts, ``<reviewer>+2.jsonl``, ``<reviewer>+3.jsonl``... (a plain name never holds ``+``).
A file read from the repository is untrusted: a line that is not an event, an event that does
not belong in that file (another reviewer's name, another report), a time more than a few
minutes in the future, text `db.event_text.admitted` refuses (terminal controls but in a note,
whose controls are taken as their pictures, as `assay import` takes them), or a file too large is
reported and skipped; the events that pass are imported by the caller.
"""

from __future__ import annotations

import hashlib
import json
import re
import urllib.parse
from collections.abc import Iterable
from typing import Any

from db.check import StoreError
from db.event_text import MAX_FIELD, admitted, plain_text
from db.events import Event, latest_acceptable
from db.export import FIELDS, parse_event
from db.keys import Verdict, make_key
from evidence.text import json_escaped

__all__ = [
    "MAX_FILE_BYTES",
    "PART_BYTES",
    "VERDICTS",
    "file_parts",
    "file_path",
    "first_part",
    "file_text",
    "is_verdict_path",
    "read_events",
]

#: the folder of the verdict files in the repository
VERDICTS = "verdicts"
#: a verdict file larger than this is skipped unread (100,000 events take about 40 MB)
MAX_FILE_BYTES = 64 * 1024 * 1024
#: a part of a reviewer's events on a report ends before this size (teammates read up to
#: MAX_FILE_BYTES a file, so a part past it by one long note still reads)
PART_BYTES = 32 * 1024 * 1024
#: the end of a path of a later part: ``+N.jsonl``, N from 2 spelled without leading zeros
_PART = re.compile(r"\+(?:[2-9]|[1-9][0-9]+)\.jsonl\Z")
_SAFE_NAME = re.compile(r"[A-Za-z0-9._ -]+")
_FIELD_LIST = list(FIELDS)
_VERDICTS: dict[str | None, Verdict | None] = {None: None, **{v.value: v for v in Verdict}}
#: a time exactly as assay writes it (other spellings, and other offsets, are read by
#: parse_event)
_CANONICAL_AT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z")


def _component(text: str) -> str:
    """One path component for any text: readable when it is plain, percent-encoded otherwise."""
    if _SAFE_NAME.fullmatch(text) and not text.startswith((".", " ")) and not text.endswith(" "):
        name = text
    else:
        name = urllib.parse.quote(text, safe="").replace(".", "%2E") or "%"
    if len(name.encode()) > 200:  # file names are limited to 255 bytes
        digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
        name = f"{name[:180]}~{digest}"
    return name


def file_path(report: str, reviewer: str, part: int = 1) -> str:
    """Where a reviewer's events on a report live in the repository (``part``: from its
    second part on, where that part lives)."""
    folders = "/".join(_component(piece) for piece in report.split("/"))
    suffix = f"+{part}" if part > 1 else ""
    return f"{VERDICTS}/{folders}/{_component(reviewer)}{suffix}.jsonl"


def first_part(path: str) -> str:
    """The path of the file a path is a part of (a first part's, or any other path: itself)."""
    return _PART.sub(".jsonl", path)


def is_verdict_path(path: str) -> bool:
    """True for the paths of the verdict files (anything else in the repository is left alone)."""
    return path.startswith(f"{VERDICTS}/")


def file_text(lines: Iterable[str]) -> bytes:
    """The bytes of a verdict file: its lines (compact JSON objects, in order) as export writes."""
    return json_escaped("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")


def file_parts(data: bytes) -> list[bytes]:
    """A verdict file's bytes (`file_text`) cut between lines into parts before PART_BYTES (a
    line longer than that, which no event is, a part of its own)."""
    parts = []
    start = 0
    while len(data) - start > PART_BYTES:
        cut = data.rfind(b"\n", start, start + PART_BYTES)
        if cut < 0:
            cut = data.find(b"\n", start + PART_BYTES)
        parts.append(data[start : cut + 1])
        start = cut + 1
    if start < len(data) or not parts:
        parts.append(data[start:])
    return parts


def read_events(path: str, data: bytes, problems: list[str]) -> list[Event]:
    """The events of a verdict file that belong there; every line skipped is told in problems."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        problems.append(f"{path}: not UTF-8 text (skipped)")
        return []
    lines = [(n, line) for n, line in enumerate(text.split("\n"), start=1) if line.strip()]
    # the whole file decoded at once when every line is JSON (the usual case), else line by line
    decoded: list[Any] | None = None
    if lines and lines[0][1].startswith("{"):
        try:
            decoded = json.loads("[" + ",".join(line for _, line in lines) + "]")
        except (json.JSONDecodeError, RecursionError):
            decoded = None
        if decoded is not None and len(decoded) != len(lines):
            decoded = None  # a line held more than one value: read them one by one
    plain = plain_text(text)
    belongs: dict[tuple[str, str], bool] = {}
    events: dict[str, Event] = {}
    latest = latest_acceptable()
    for index, (number, line) in enumerate(lines):
        where = f"{path}:{number}"
        try:
            value = decoded[index] if decoded is not None else _decode(line, where)
            event = _fast_event(value) or parse_event(value, where)
            if not plain or len(line) > MAX_FIELD:  # else no field can hold a control or be long
                event = admitted(event, where, plain=plain)
        except StoreError as error:
            problems.append(f"{error} (skipped)")
            continue
        if event.at > latest:
            problems.append(f"{where}: at {event.at} is in the future (skipped)")
            continue
        pair = (event.report, event.reviewer)
        fits = belongs.get(pair)
        if fits is None:
            fits = belongs[pair] = file_path(*pair) == first_part(path)
        if not fits:
            problems.append(
                f"{where}: an event of {event.reviewer!r} on {event.report!r} does not belong "
                "in this file (skipped)"
            )
            continue
        known = events.setdefault(event.event, event)
        if known != event:
            problems.append(f"{where}: event id {event.event} is used twice (skipped)")
    return list(events.values())


def _decode(line: str, where: str) -> Any:
    try:
        return json.loads(line)
    except (json.JSONDecodeError, RecursionError) as error:
        message = error.msg if isinstance(error, json.JSONDecodeError) else "nested too deeply"
        raise StoreError(f"{where}: not an event (not JSON: {message})") from None


def _fast_event(value: Any) -> Event | None:
    """The event of a line exactly as assay writes it, checked quickly; None for any other line
    (`parse_event` then reads it, or says what is wrong with it)."""
    if type(value) is not dict or list(value) != _FIELD_LIST:
        return None
    item, report, record, quote, reviewer, verdict, note, at, revision, event, undoes = (
        value.values()
    )
    if not (
        type(item) is str
        and type(report) is str
        and type(record) is str
        and type(reviewer) is str
        and type(event) is str
        and type(at) is str
        and report
        and record
        and reviewer
        and event
        and (quote is None or type(quote) is str)
        and (note is None or type(note) is str)
        and (revision is None or type(revision) is str)
        and (undoes is None or type(undoes) is str)
        and verdict in _VERDICTS
        and _CANONICAL_AT.fullmatch(at)
        and item == make_key(report, record, quote)
    ):
        return None
    return Event(
        event, item, report, record, quote, reviewer, _VERDICTS[verdict], note, at, revision, undoes
    )
