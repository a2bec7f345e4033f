"""Where a line's ``--- path`` marker is, and its path token: as written, or as a renderer's
typography left it (SmartyPants makes ``---`` an em dash, ``--`` an en dash)."""

from __future__ import annotations

import re

from evidence.reports.vocabulary import (
    DRIVE_RE,
    SMART_QUOTES,
    is_path_like,
    marker_token,
    quoted_marker,
    split_claimed,
    unescaped,
    written_path,
)

__all__ = ["TYPOGRAPHIC_DASHES", "marker", "may_hold_marker", "typographic", "wrapped_marker"]

#: what a renderer makes of ``---`` (an em dash) and ``--`` (an en dash)
TYPOGRAPHIC_DASHES = ("—", "–")
#: a sign of code in the text before such a dash (a sentence ending in "— src/a.js:3" has none)
_CODE_SIGN = re.compile(r"[=*<>\[\]{}();]|\w\.\w|::|->")


def may_hold_marker(line: str) -> bool:
    """Cheap before `marker`: the line has a ``---`` or a typographic dash (every line of a
    report is asked)."""
    return "---" in line or "—" in line or "–" in line


def marker(line: str) -> tuple[int, str] | None:
    """Where a ``--- path`` marker at the end of the line starts, and its path token; also
    as a renderer's typography left it (SmartyPants makes ``---`` an em dash, ``--`` an en
    dash), then only with its lines (``— src/a.js:3-9``): prose has dashes before paths."""
    found = _dash_marker(line, "---")
    if found is None:
        found = typographic(line)
        before = line[: found[0]].strip() if found is not None else ""
        if found is not None and before and not _CODE_SIGN.search(before):
            return None  # a sentence ending in "— path:3" (a diagnostic says so)
    return found


def wrapped_marker(line: str, following: str) -> tuple[int, str] | None:
    """A marker a report's line wrapping cut after its dashes: ``code ---``, then its path
    alone on the next line (where it starts in ``line``, and its path token)."""
    if not line.rstrip().endswith(" ---") or line.strip() == "---":
        return None  # "---" alone is a Markdown rule
    found = marker(f"{line.rstrip()} {following.strip()}")
    return found if found is not None and found[0] < len(line) else None


def typographic(line: str) -> tuple[int, str] | None:
    """A marker whose ``---`` a renderer made a dash, with its lines said."""
    for dash in TYPOGRAPHIC_DASHES:
        found = _dash_marker(line, dash, lines_said=True)
        if found is not None:
            return found
    return None


def _dash_marker(line: str, dash: str, *, lines_said: bool = False) -> tuple[int, str] | None:
    position = line.rfind(dash)
    if position < 0:
        return None
    if position > 0 and not line[position - 1].isspace():
        return None
    rest = line[position + len(dash) :]
    if not rest[:1].isspace():
        return None
    # a path with spaces, in quotes (a word processor's too) or backticks
    quoted = quoted_marker(rest.strip().translate(SMART_QUOTES))
    if quoted is not None:
        return position, quoted
    written = rest.strip()
    meant = unescaped(written)
    # its spaces escaped or URL-encoded, in one word: read as if in quotes
    if meant != written and len(written.replace("\\ ", "_").split()) == 1:
        if " " in meant.strip():
            quoted = quoted_marker(f'"{meant.strip().rstrip(".,;")}"')
            return None if quoted is None else (position, quoted)
        written = meant
    token = marker_token(written)
    if DRIVE_RE.match(token):  # C:\Users\me\...: from the drive's root, as /home/me/... is
        token = written_path(token[2:])
    if not token or len(token.split()) != 1:
        return None
    path, claimed = split_claimed(token)
    if not is_path_like(path) or (lines_said and claimed is None):
        return None
    return position, token
