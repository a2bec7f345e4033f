"""What an event's fields may not hold (its identity: a record id, a reviewer's name), and a
reviewer's name as every door takes it. Standard library only: the review app reads the name
before its first frame (db/event_text.py holds the rest of the rule)."""

from __future__ import annotations

import re

__all__ = ["CONTROL", "MAX_FIELD", "SURROGATE", "plain_name"]

#: longest text accepted in an event's fields (a note may be longer)
MAX_FIELD = 4096
#: terminal and bidi controls, refused in every field but a note
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200e\u200f\u2028-\u202e\u2066-\u2069]")
SURROGATE = re.compile("[\ud800-\udfff]")


def plain_name(name: str) -> str:
    """A reviewer's name as every door admits it: without terminal or bidi controls (a
    direction mark in git's user.name) nor lone surrogates, its spaces collapsed. Taken where
    the name comes in (`--reviewer`, git, the login): a name the sync refuses made every other
    reviewer's sync refuse all of that reviewer's events."""
    kept = SURROGATE.sub("", CONTROL.sub(" ", name))
    return " ".join(kept.split())[:MAX_FIELD]
