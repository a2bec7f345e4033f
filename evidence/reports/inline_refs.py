"""Inline code followed by the file it is in, read as quotes.

A report written in Markdown often quotes a line, or a name, as inline code and says where it
is in parentheses or with a preposition: ``the pass runs `escalate_due(TICKETS, clock())`
(api/server.py:74)``, ``the handler is `run_escalation` in `api/server.py:73` ``, ``compared
with `hmac.compare_digest` ([auth.py:30](https://host/o/r/blob/REV/api/auth.py#L30))``. Such a
claim was no quote at all: the report checked nothing there, and said nothing. The code span
just before the reference is a quote of the file it names, claiming the lines it names. A span
that is the path, or its file's name (`` `server.py` (api/server.py:74) ``), is no code; a
reference must name a file (a folder in it, or an extension). The line stays prose: its
citations and record ids are read as before.
"""

from __future__ import annotations

import re

from evidence.model import Quote
from evidence.reports.blocks import fenced_lines
from evidence.reports.vocabulary import (
    ID_FULL_RE,
    is_path_like,
    marker_token,
    split_claimed,
)

__all__ = ["inline_references"]

#: a code span: a run of backticks, its text, the same run (CommonMark)
_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)")
#: what names the span's file right after it: ``(path:3)``, ``(see `path`, line 3)``,
#: ``([text](url))``, or ``in path:3`` / ``at `path` `` ("from" says where something came from)
_REFERENCE = re.compile(
    r"\s*\(\s*(?:(?:see|in|at|defined in)\s+)?"
    r"(?P<inner>\[[^\]\n]+\]\([^)\s]+\)|[^()\n]+?)\s*\)"
    r"|\s+(?:in|at)\s+(?P<after>`[^`\n]+`|\[[^\]\n]+\]\([^)\s]+\)|[^\s`()\[\],;]+"
    r"(?:,?\s+(?:lines?|L)\s*\d+(?:\s*(?:-|–|to)\s*\d+)?)?)(?=[\s.,;:!?)]|$)",
    re.IGNORECASE,
)
#: a reference naming its lines first: ``lines 26-33 of src/a.py``, ``line 4 in `a.py` ``
_LINES_OF = re.compile(
    r"^(?:lines?\s+|L)(\d+)(?:\s*(?:-|–|to)\s*L?(\d+))?\s+(?:of|in)\s+`?([^\s`]+?)`?$", re.I
)
#: code as a link's text, the link to its file: [`def save(…)`](…/blob/REV/src/save.py#L3)
_LINKED = re.compile(r"\[(`+)(?!`)([^\]\n]+?)(?<!`)\1\]\(([^)\s]+)\)")
#: a file name's extension, when the reference has no folder: `.py`, `.tsx`, `.json`, `.H`
_EXTENSION = re.compile(r"[\w-]\.(?:[a-z][a-z0-9]{0,5}|[A-Z][A-Z0-9]{0,5})$")
#: the fewest characters a span quotes (`if`, `0` are anywhere)
MIN_SPAN = 3


def _named(reference: str) -> tuple[str, tuple[int, int] | None] | None:
    """The path and claimed lines a reference names, when it names a file."""
    lines_of = _LINES_OF.match(reference.strip())
    if lines_of is not None:
        first, last, path = lines_of.groups()
        reference = f"{path}:{first}-{last or first}"
    token = marker_token(reference.strip())
    if " " in token:
        return None
    path, claimed = split_claimed(token)
    if not is_path_like(path) or path.endswith("/"):
        return None
    if "/" not in path and not _EXTENSION.search(path):
        return None  # `os.path.join`, `state.ReviewState`: a name in code, no file
    return path, claimed


def _spans(line: str) -> list[tuple[str, str]]:
    """Each (quoted code, reference) on a line of prose, in order."""
    found: list[tuple[int, str, str]] = []
    for span in _SPAN.finditer(line):
        reference = _REFERENCE.match(line, span.end())
        if reference is not None:
            said = reference.group("inner") or reference.group("after")
            found.append((span.start(), span.group(2).strip(), said))
    if "](" in line:
        found += [(at.start(), at.group(2).strip(), at.group(3)) for at in _LINKED.finditer(line)]
    return [
        (code, reference)
        for _, code, reference in sorted(found)
        if len(code) >= MIN_SPAN and not ID_FULL_RE.match(code) and not code.startswith("SRC-")
    ]


def inline_references(
    lines: list[str], first: int, end: int, taken: set[int], record_id: str
) -> tuple[list[Quote], set[int]]:
    """The code spans from ``first`` to ``end`` that a file reference follows, on lines no
    quote took and outside fenced blocks, as quotes (numbered from 0, in order), and the
    lines they are on."""
    quotes: list[Quote] = []
    held: set[int] = set()
    if not any("`" in lines[index] for index in range(first, end)):
        return quotes, held
    fenced = {first + at for at in fenced_lines(lines[first:end])}  # code, not prose
    for index in range(first, end):
        line = lines[index]
        if "`" not in line or index in taken or index in fenced:
            continue
        for code, reference in _spans(line):
            named = _named(reference)
            if named is None:
                continue
            path, claimed = named
            if " " not in code and ("/" in code or code == path.rsplit("/", 1)[-1]):
                continue  # a path named as code (`api/server.py`, `server.py`): no code quoted
            held.add(index)
            quotes.append(
                Quote(
                    text=code,
                    path=path,
                    claimed=claimed,
                    report_line=index + 1,
                    text_line=index + 1,
                    record=record_id,
                    index=len(quotes),
                    inline=True,
                )
            )
    return quotes, held
