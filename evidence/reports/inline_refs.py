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

A Markdown table says the same in cells: a row with one cell naming a file (``api/server.py:73``,
`` `api/server.py:74` ``, a link to it; or the file in one cell and its line in a column headed
"Line") and one cell that is a code span quotes that code from that file. A row with several
files or several code cells (a rename's before and after) is no quote: which code is where is
not said. A table is never code a marker left unattributed.
"""

from __future__ import annotations

import re

from evidence.model import Quote
from evidence.reports.blocks import fenced_lines
from evidence.reports.mentions import names_a_file
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
#: the fewest characters a span quotes (`if`, `0` are anywhere)
MIN_SPAN = 3
#: a table's cell divider (GFM: ``\\|`` is a pipe in a cell); a delimiter row's cell
_DIVIDER = re.compile(r"(?<!\\)\|")
_ALIGNMENT = re.compile(r":?-+:?")
#: a cell of a "Line" column: ``73``, ``73-75``, ``L73-L75``
_LINE_CELL = re.compile(r"L?(\d+)(?:\s*(?:-|–|to)\s*L?(\d+))?")


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
    if "/" not in path and not names_a_file(path):
        return None  # `os.path.join`, `state.ReviewState`: a name in code; `api.stripe.com`
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
    return [(code, reference) for _, code, reference in sorted(found)]


def _cells(row: str) -> list[str]:
    """A Markdown table row's cells, stripped (its outer pipes are optional)."""
    inner = row.strip()
    if inner.startswith("|"):
        inner = inner[1:]
    if inner.endswith("|") and not inner.endswith("\\|"):
        inner = inner[:-1]
    return [cell.strip() for cell in _DIVIDER.split(inner)]


def _delimiter(line: str) -> int:
    """How many columns a table's delimiter row (``|---|:--:|``) has; 0 for any other line."""
    if "|" not in line or "-" not in line:
        return 0
    cells = _cells(line)
    return len(cells) if all(_ALIGNMENT.fullmatch(cell) for cell in cells) else 0


def tables(lines: list[str], first: int, end: int) -> list[tuple[list[str], range]]:
    """Each Markdown table from ``first`` to ``end``: its header's cells and the lines it spans
    (header, delimiter and rows)."""
    found: list[tuple[list[str], range]] = []
    index = first + 1
    while index < end:
        columns = _delimiter(lines[index])
        header = _cells(lines[index - 1]) if columns and "|" in lines[index - 1] else []
        if len(header) != columns or not columns:
            index += 1
            continue
        last = index + 1
        while last < end and "|" in lines[last] and lines[last].strip():
            last += 1
        found.append((header, range(index - 1, last)))
        index = last + 1
    return found


def _row_quotes(header: list[str], row: str) -> list[tuple[str, str, tuple[int, int] | None]]:
    """The (code, path, claimed lines) a table row quotes: its one code cell, from the file
    its one other cell names."""
    cells = _cells(row)
    named: list[tuple[int, tuple[str, tuple[int, int] | None]]] = []
    codes: list[str] = []
    for column, cell in enumerate(cells):
        span = _SPAN.fullmatch(cell)
        if span is not None and span.group(1) in span.group(2):
            span = None  # `a`, `b`: two spans
        file = _named(cell) if "." in cell or "/" in cell else None
        if file is not None and not names_a_file(file[0], lines=file[1] is not None):
            file = None  # "N/A", "read/write", "~/.config", a host: no file's name
        # `hmac.compare_digest` is code; `api/server.py:74` in backticks names a file
        if file is not None and (span is None or "/" in cell or ":" in cell):
            named.append((column, file))
        elif span is not None:
            codes.append(span.group(2).strip().replace("\\|", "|"))  # GFM: `\|` is a pipe
    if len(named) != 1 or len(codes) != 1:
        return []
    column, (path, claimed) = named[0]
    if claimed is None:  # its line in a column of its own
        for at, name in enumerate(header[: len(cells)]):
            lines = _LINE_CELL.fullmatch(cells[at]) if "line" in name.lower() else None
            if lines is not None and at != column:
                claimed = (int(lines.group(1)), int(lines.group(2) or lines.group(1)))
                break
    return [(codes[0], path, claimed)]


def _quotable(code: str, path: str) -> bool:
    """Code a span quotes, not a path or the file's own name, a record id or a source's."""
    if len(code) < MIN_SPAN or ID_FULL_RE.match(code) or code.startswith("SRC-"):
        return False
    return " " in code or ("/" not in code and code != path.rsplit("/", 1)[-1])


def inline_references(
    lines: list[str], first: int, end: int, taken: set[int], record_id: str
) -> tuple[list[Quote], set[int]]:
    """The code spans from ``first`` to ``end`` that a file reference follows, and table rows'
    code cells, on lines no quote took and outside fenced blocks, as quotes (numbered from 0,
    in order), and the lines read as prose of their own (those, and every table's)."""
    found: list[tuple[int, str, str, tuple[int, int] | None]] = []
    held: set[int] = set()
    spans = any("`" in lines[index] for index in range(first, end))
    rows = spans or any("|" in lines[index] for index in range(first, end))
    if not rows:
        return [], held
    fenced = {first + at for at in fenced_lines(lines[first:end])}  # code, not prose
    for index in range(first, end) if spans else ():
        line = lines[index]
        if "`" not in line or index in taken or index in fenced:
            continue
        for code, reference in _spans(line):
            named = _named(reference)
            if named is not None and _quotable(code, named[0]):
                found.append((index, code, *named))
    for header, spanned in tables(lines, first, end):
        if fenced.intersection(spanned) or taken.intersection(spanned):
            continue
        held.update(spanned)
        quoted = {index for index, *_ in found}
        for index in spanned[2:]:
            if index not in quoted and "`" in lines[index]:
                found += [
                    (index, code, path, claimed)
                    for code, path, claimed in _row_quotes(header, lines[index])
                    if _quotable(code, path)
                ]
    found.sort(key=lambda item: item[0])
    held.update(index for index, *_ in found)
    quotes = [
        Quote(
            text=code,
            path=path,
            claimed=claimed,
            report_line=index + 1,
            text_line=index + 1,
            record=record_id,
            index=number,
            inline=True,
        )
        for number, (index, code, path, claimed) in enumerate(found)
    ]
    return quotes, held
