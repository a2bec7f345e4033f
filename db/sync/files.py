"""The verdict files of a verdicts repository: where each one lives and reading one safely.

Each reviewer's events on one report are one file, ``verdicts/<report identity>/<reviewer>.jsonl``,
spelled exactly as ``assay export --format jsonl`` spells them. A file read from the repository
is untrusted: a line that is not an event, an event that does not belong in that file (another
reviewer's name, another report), text with terminal control characters, or a file too large is
reported and skipped; the events that pass are imported by the caller.
"""

from __future__ import annotations

import hashlib
import json
import re
import urllib.parse
from collections.abc import Iterable

from db.check import StoreError
from db.events import Event
from db.export import FIELDS, json_visible, parse_event

__all__ = [
    "MAX_FILE_BYTES",
    "VERDICTS",
    "file_path",
    "file_text",
    "is_verdict_path",
    "read_events",
]

#: the folder of the verdict files in the repository
VERDICTS = "verdicts"
#: a verdict file larger than this is skipped unread (100,000 events take about 40 MB)
MAX_FILE_BYTES = 64 * 1024 * 1024
#: longest text accepted in an event's fields (a note may be longer)
MAX_FIELD = 4096
MAX_NOTE = 200_000

_SAFE_NAME = re.compile(r"[A-Za-z0-9._ -]+")
#: terminal and bidi controls; a note may hold tabs and line breaks
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200e\u200f\u2028-\u202e\u2066-\u2069]")
_NOTE_CONTROL = re.compile(
    r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200e\u200f\u2028-\u202e\u2066-\u2069]"
)


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


def file_path(report: str, reviewer: str) -> str:
    """Where a reviewer's events on a report live in the repository."""
    folders = "/".join(_component(part) for part in report.split("/"))
    return f"{VERDICTS}/{folders}/{_component(reviewer)}.jsonl"


def is_verdict_path(path: str) -> bool:
    """True for the paths of the verdict files (anything else in the repository is left alone)."""
    return path.startswith(f"{VERDICTS}/")


def file_text(lines: Iterable[str]) -> bytes:
    """The bytes of a verdict file: its lines (compact JSON objects, in order) as export writes."""
    return json_visible("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")


def read_events(path: str, data: bytes, problems: list[str]) -> list[Event]:
    """The events of a verdict file that belong there; every line skipped is told in problems."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        problems.append(f"{path}: not UTF-8 text (skipped)")
        return []
    events: dict[str, Event] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            event = _event(line, where)
        except StoreError as error:
            problems.append(f"{error} (skipped)")
            continue
        if file_path(event.report, event.reviewer) != path:
            problems.append(
                f"{where}: an event of {event.reviewer!r} on {event.report!r} does not belong "
                "in this file (skipped)"
            )
            continue
        known = events.setdefault(event.event, event)
        if known != event:
            problems.append(f"{where}: event id {event.event} is used twice (skipped)")
    return list(events.values())


def _event(line: str, where: str) -> Event:
    try:
        data = json.loads(line)
    except (json.JSONDecodeError, RecursionError) as error:
        message = error.msg if isinstance(error, json.JSONDecodeError) else "nested too deeply"
        raise StoreError(f"{where}: not an event (not JSON: {message})") from None
    event = parse_event(data, where)
    plain = line.isascii() and "\\u" not in line and "\x7f" not in line
    for name in FIELDS:
        value = getattr(event, name)
        if value is None:
            continue
        text = str(value)
        limit = MAX_NOTE if name == "note" else MAX_FIELD
        if len(text) > limit:
            raise StoreError(f"{where}: {name} is longer than {limit} characters")
        if not plain and (_NOTE_CONTROL if name == "note" else _CONTROL).search(text):
            raise StoreError(f"{where}: {name} holds terminal control characters")
    return event
