"""The one rule for the text of an event coming in from outside (`assay import`, `assay sync`).

A note's terminal controls are taken as their pictures (ESC as U+241B), as the note editor saves
them; a control in any other field (a record id, a reviewer's name: the event's identity, which
cannot be changed), a lone surrogate or an overlong field refuses the event. Both doors apply
it, so an event one reviewer's database took is never one the others' sync refuses.
"""

from __future__ import annotations

import dataclasses
import re

from db.check import StoreError
from db.events import Event
from db.names import CONTROL as _CONTROL
from db.names import MAX_FIELD, plain_name
from db.names import SURROGATE as _SURROGATE

__all__ = ["MAX_FIELD", "MAX_NOTE", "admitted", "plain_name", "plain_text", "sendable"]

MAX_NOTE = 200_000

#: the fields of an event checked, in the order an error names the first (the item key last:
#: it holds the report and record, which name the fault better)
_FIELDS = (
    "report",
    "record",
    "quote",
    "reviewer",
    "note",
    "at",
    "revision",
    "event",
    "undoes",
    "item",
)
#: a note's: terminal controls only. Right-to-left text pasted from a page or a word processor
#: holds direction marks and embeddings (U+200F, U+202B...) and line separators (U+2028): the
#: author's editor keeps them, every view shows them as escapes, and refusing them here lost the
#: verdict for everyone else (sent, never received)
_NOTE_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
#: what `sendable` makes of a note's terminal controls: their pictures (ESC as U+241B)
_PICTURES = {
    **{c: 0x2400 + c for c in (*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20))},
    0x7F: 0x2421,
    **{c: 0xFFFD for c in range(0x80, 0xA0)},
}


def sendable(note: str) -> str:
    """A note as its author wrote it, but the terminal controls `_NOTE_CONTROL` refuses shown
    as their pictures (an escape pasted with a terminal's output): one every reviewer's sync
    accepts."""
    return note.translate(_PICTURES) if _NOTE_CONTROL.search(note) else note


def plain_text(text: str) -> bool:
    """True when JSON ``text`` can hold no control nor surrogate in any value (ASCII with no
    escape): `admitted` then only measures the fields."""
    return text.isascii() and "\\u" not in text and "\x7f" not in text


def admitted(event: Event, where: str, *, plain: bool = False) -> Event:
    """The event as it may be stored: its note's terminal controls as their pictures; StoreError
    naming ``where`` and the field when another field holds a control, or any a lone surrogate,
    or a field is longer than it may be. ``plain``: read from `plain_text` (lengths alone)."""
    for name in _FIELDS:
        value = getattr(event, name)
        if value is None:
            continue
        limit = MAX_NOTE if name == "note" else MAX_FIELD
        if len(value) > limit:
            raise StoreError(f"{where}: {name} is longer than {limit} characters")
        if plain:
            continue
        if name != "note" and _CONTROL.search(value):
            raise StoreError(f"{where}: {name} holds terminal control characters")
        if _SURROGATE.search(value):
            raise StoreError(f"{where}: {name} holds a lone surrogate (not text UTF-8 can hold)")
    if plain or event.note is None:
        return event
    note = sendable(event.note)
    return event if note == event.note else dataclasses.replace(event, note=note)
