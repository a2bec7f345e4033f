"""Fenced code blocks that name the file they quote, with no ``--- path`` marker, read as quotes
(and indented ones a caption line names).

A report written in Markdown often names a block's file in the fence's info string (```` ```python
title="src/app.py" ````, MkDocs' form; ```` ```js:src/a.js ````; ```` ```src/a.js ````) or in a
comment on the block's first line (``# src/app.py:3-9``, ``// src/a.js lines 3-9``), or in a
line just above or under it that holds only the path (``**src/app.py** (lines 3-9):``,
``(src/app.py:3-9)``). Such a block
was no quote at all: a report of them checked nothing and said nothing. It is a quote of its
lines (the naming comment left out), claiming the lines it names (``linenums="N"``: from line N,
as many as it holds).
"""

from __future__ import annotations

import re

from evidence.model import Quote
from evidence.reports.blocks import fence_line
from evidence.reports.vocabulary import (
    EXTENSION_RE,
    MARKDOWN_LINK_RE,
    PROSE_RANGE_RE,
    is_path_like,
    marker_token,
    split_claimed,
    written_path,
)

__all__ = ["named_fences", "named_indented"]

# title="src/a.py", file=src/a.py, filename='a b/c.py' (MkDocs, Docusaurus, pandoc attributes)
_ATTRIBUTE = re.compile(
    r"""(?<![\w-])(?:title|file|filename|name|path|source)\s*=\s*(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"'{}]+))""",
    re.IGNORECASE,
)
_LINENUMS = re.compile(r"""(?<![\w-])(?:linenums|startline|start)\s*=\s*["']?(\d{1,9})""", re.I)
#: a fence's language that says its block is a terminal's or a program's text, not source,
#: or commands to type (a shell block that names no file is how to run something)
_NOT_CODE = frozenset(
    {"text", "txt", "plain", "plaintext", "console", "output", "log", "terminal", "mermaid"}
    | {"shell-session", "sh-session", "pycon", "nohighlight", "none"}
    | {"sh", "bash", "shell", "zsh", "fish", "powershell", "pwsh", "ps1", "bat", "cmd"}
)
_LANGUAGE_PATH = re.compile(r"^[\w+#.-]{1,20}:(\S+)$")  # js:src/a.js
# a comment that is only a path (and its lines): # src/a.py:3-9, // src/a.js lines 3-9
_COMMENT = re.compile(r"^\s*(?:#|//|--|;|%|/\*|<!--|\(\*)\s*(?:(?:file|path|source)\s*:\s*)?", re.I)
_COMMENT_END = ("*/", "-->", "*)")
# what decorates a caption line's path: **bold**, _emphasis_, `code`, a heading's, list's or
# blockquote's mark
_CAPTION_MARKS = re.compile(r"^(?:#{1,6}\s+|[-*+>]\s+)|[*`]+")
# _emphasis_ around a word of it (an underscore inside a name is the name's: my_module.py)
_UNDERSCORED = re.compile(r"(?<!\S)(__?)(\S(?:.*?\S)?)\1(?=[\s:,;)]|$)")
# a caption's words before its path: "File:", "in", "see", "Evidence:", "Code location:"
_CAPTION_WORD = re.compile(
    r"^(?:(?:file|path|source|in|from|see)\s*:?|[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){0,2}\s*:)\s+",
    re.IGNORECASE,
)
# a sentence introducing the block that ends naming its file: "The handler (src/a.py:3-9):"
_CAPTION_END = re.compile(
    r"\(\s*([^()\s]+(?:,?\s+(?:lines?\s+|L)\d+(?:\s*(?:[–-]|to)\s*L?\d+)?)?)\s*\)\s*:$", re.I
)


def _named(token: str) -> tuple[str, tuple[int, int] | None] | None:
    """The path and claimed lines a token names (``src/a.py``, ``src/a.py:3-9``,
    ``src/a.py lines 3-9``), when it names a file: a folder in it or an extension."""
    claimed: tuple[int, int] | None
    prose = PROSE_RANGE_RE.match(token)
    if prose is not None:
        first = int(prose.group("first"))
        path, claimed = prose.group("path"), (first, int(prose.group("last") or first))
    elif " " in token:
        return None
    else:
        path, claimed = split_claimed(token)
    path = written_path(path)
    if not is_path_like(path) or ("/" not in path and not EXTENSION_RE.search(path)):
        return None
    return path, claimed


def _from_info(info: str) -> tuple[str, tuple[int, int] | None] | None:
    attribute = _ATTRIBUTE.search(info)
    if attribute is not None:
        said = next(group for group in attribute.groups() if group is not None).strip()
        path, claimed = split_claimed(said)
        return (written_path(path), claimed) if path else None
    words = info.split()
    if not words:
        return None
    language = _LANGUAGE_PATH.match(words[0])
    return _named(language.group(1) if language is not None else words[0])


def _caption_above(
    lines: list[str], opening: int, first: int, taken: set[int]
) -> tuple[int, tuple[str, tuple[int, int] | None]] | None:
    """The line just above a fence (or one empty line above it) when it is only a path, as a
    caption (``**src/app.py** (lines 3-9):``, `` `src/a.js`: ``, ``File: src/a.js``): where it is,
    and what it names."""
    for above in (opening - 1, opening - 2):
        if above < first or above in taken:
            return None
        line = lines[above].strip()
        if not line:
            continue
        named = _caption(line)
        return (above, named) if named is not None else None
    return None


def _caption_below(
    lines: list[str], closing: int, end: int, taken: set[int]
) -> tuple[int, tuple[str, tuple[int, int] | None]] | None:
    """The line just under a fence when it is only a path (``(src/app.py:3-9)``, ``Source:
    src/a.js``) and no fence follows it (then it is that one's caption)."""
    below = closing + 1
    if below >= end or below in taken or not lines[below].strip():
        return None
    if below + 1 < end and fence_line(lines[below + 1]) is not None:
        return None
    named = _caption(lines[below].strip(), enclosed=True)
    return (below, named) if named is not None else None


def _unmarked(line: str) -> str:
    """A caption line without its Markdown: its marks, bold, code and emphasis."""
    return _UNDERSCORED.sub(r"\2", _CAPTION_MARKS.sub("", line)).strip()


def _caption(line: str, *, enclosed: bool = False) -> tuple[str, tuple[int, int] | None] | None:
    """What a caption line names when it is only a path (decorated, its lines or not);
    ``enclosed``: in parentheses too, as a caption under a block writes it."""
    if "](" in line:  # [src/a.py:3-9](https://host/o/r/blob/REV/src/a.py#L3-L9)
        line = _unmarked(line).rstrip(":")
        link = MARKDOWN_LINK_RE.fullmatch(_CAPTION_WORD.sub("", line, count=1).strip())
        return _named(marker_token(link.group(0))) if link is not None else None
    ending = _CAPTION_END.search(line) if not enclosed and line.endswith(":") else None
    if ending is not None:
        line = ending.group(1)
    said = _unmarked(line).rstrip(":").strip()
    if enclosed and said.startswith("(") and said.endswith(")"):
        said = said[1:-1].strip()
    said = _CAPTION_WORD.sub("", said, count=1).strip()
    if said.startswith("(") or ("(" in said and not said.endswith(")")):
        return None
    return _named(said.replace("(", "").replace(")", "").replace(",", ""))


def _indented(line: str) -> bool:
    """A line of an indented code block: four spaces or a tab before something."""
    return line.startswith(("    ", "\t")) and bool(line.strip())


def _unindented(line: str) -> str:
    """The line as the code had it: the block's four spaces (or its tab) taken off."""
    return line[1:] if line.startswith("\t") else line[4:]


def named_indented(
    lines: list[str], first: int, end: int, taken: set[int], record_id: str
) -> list[Quote]:
    """The indented code blocks from ``first`` to ``end`` that no marker took and that a
    caption line just above names (``**src/app.py** (lines 3-9):``, then an empty line, then
    the block), as quotes of their lines less the indentation (numbered from 0, in order;
    ``taken`` gets their lines). A block under a line of prose is no quote: it may be a list
    item's paragraph."""
    found: list[Quote] = []
    index = first
    while index < end:
        if index in taken or not _indented(lines[index]):
            index += 1
            continue
        last = index
        at = index + 1
        while at < end and at not in taken and (_indented(lines[at]) or not lines[at].strip()):
            if lines[at].strip():
                last = at
            at += 1
        caption = _caption_above(lines, index, first, taken)
        if caption is not None and not _indented(lines[caption[0]]):
            said_at, (path, claimed) = caption
            taken.update(range(said_at, last + 1))
            found.append(
                Quote(
                    text="\n".join(_unindented(line) for line in lines[index : last + 1]),
                    path=path,
                    claimed=claimed,
                    report_line=said_at + 1,
                    text_line=index + 1,
                    record=record_id,
                    index=len(found),
                    inline=False,
                )
            )
        index = last + 1
    return found


def _closes(line: str, character: str, length: int) -> bool:
    """The line closes a fence of ``length`` ``character``s: as long or longer, nothing after."""
    fence = fence_line(line)
    return fence is not None and fence[0] == character and fence[1] >= length and not fence[2]


def named_fences(
    lines: list[str],
    first: int,
    end: int,
    taken: set[int],
    record_id: str,
    unnamed: list[int] | None = None,
) -> list[Quote]:
    """The closed fenced blocks from ``first`` to ``end`` that no marker took and that name
    their file, as quotes (numbered from 0, in order; ``taken`` gets their lines). ``unnamed``
    gets the opening line of each other one that holds code (not a terminal's text)."""
    found: list[Quote] = []
    index = first
    while index < end:
        opening = fence_line(lines[index])
        if opening is None or index in taken:
            index += 1
            continue
        character, length, info = opening
        closing = next(
            (at for at in range(index + 1, end) if _closes(lines[at], character, length)), None
        )
        if closing is None:
            return found  # a fence never closed holds nothing
        body = list(range(index + 1, closing))
        named = _from_info(info)
        said_at = index
        if named is None and body:
            comment = _COMMENT.match(lines[body[0]])
            said = lines[body[0]][comment.end() :].strip() if comment is not None else ""
            for end_mark in _COMMENT_END:
                said = said.removesuffix(end_mark).rstrip()
            named = _named(said) if said else None
            if named is not None:
                said_at, body = body[0], body[1:]
        caption = _caption_above(lines, index, first, taken) if named is None else None
        if caption is None and named is None:
            caption = _caption_below(lines, closing, end, taken)
        if caption is not None:
            said_at, named = caption
        if named is not None and body and not taken.intersection(range(index, closing + 1)):
            path, claimed = named
            start = _LINENUMS.search(info)
            if claimed is None and start is not None:
                claimed = (int(start.group(1)), int(start.group(1)) + len(body) - 1)
            taken.update(range(min(said_at, index), max(said_at, closing) + 1))
            found.append(
                Quote(
                    text="\n".join(lines[at] for at in body),
                    path=path,
                    claimed=claimed,
                    report_line=said_at + 1,
                    text_line=body[0] + 1,
                    record=record_id,
                    index=len(found),
                    inline=False,
                )
            )
        elif unnamed is not None and named is None and any(lines[at].strip() for at in body):
            words = info.split()
            language = words[0].lstrip("{.").lower() if words else ""
            if language not in _NOT_CODE and not taken.intersection(range(index, closing + 1)):
                unnamed.append(index)
        index = closing + 1
    return found
