"""The citations of a report line: ``(SRC-1, path, path)``, ``[SRC-1: path]`` and ``SRC-1, a
and b`` in running text; layer words (``implementation``) skipped; a path with spaces read in
quotes or backticks, or cut by spaces and ending in a file extension."""

from __future__ import annotations

import re
from collections.abc import Iterator

from evidence.model import Citation, Diagnostic
from evidence.reports.vocabulary import (
    CITE_RE,
    DRIVE_RE,
    ITEM_RE,
    LAYER_WORDS,
    MARKDOWN_LINK_RE,
    SEP_RE,
    SMART_QUOTES,
    is_path_like,
    permalink_path,
    relative_link_path,
    split_claimed,
    unescaped,
    written_path,
)

__all__ = ["citations_in"]


def citations_in(
    line: str, number: int, following: str = "", unread: list[Diagnostic] | None = None
) -> Iterator[Citation]:
    """The citations that start in one line: ``SRC-n, path, path`` (layer words skipped),
    their lists read on into ``following`` (the paragraph's next lines: a wrapped report);
    a cited path that cannot be read as one of the repository's is said in ``unread``."""
    starts_before = len(line)
    if following:
        line = f"{line} {following}"
    line = line.translate(SMART_QUOTES)  # "src/a b.md" as a word processor quotes it
    read_to = 0  # the end of the list read last: a source named inside it is a path's part
    for match in CITE_RE.finditer(line):
        if match.start() >= starts_before:
            break  # the next line's own: read with that line
        if match.start() < read_to:
            continue  # ("a/SRC-1, b/SRC-1, ...": each read again to the end of the line)
        position, paths = match.end(), []
        while True:
            linked = (
                MARKDOWN_LINK_RE.match(line, position) if line.startswith("[", position) else None
            )
            if linked is not None:  # [text](url): the file a code host's or a relative link names
                url = linked.group(2)
                path = permalink_path(url) or relative_link_path(url)
                if path is not None and is_path_like(split_claimed(path)[0]):
                    paths.append(path)
                separator = SEP_RE.match(line, linked.end())
                if separator is None:
                    break
                position = separator.end()
                continue
            spaced = _spaced_item(line, position)  # a path with spaces, quoted or not
            if spaced is not None:
                paths.append(spaced[0])
                separator = SEP_RE.match(line, spaced[1])
                if separator is None:
                    break
                position = separator.end()
                continue
            item = ITEM_RE.match(line, position)
            if item is None:
                break
            token = item.group()
            if token[-1] == ":" or "–" in token or line.startswith(_LINES_AFTER, item.end()):
                spelled = _CITED_LINES.match(line, position)  # a.js: 3-9, a.js lines 3 to 9
                if spelled is not None:
                    item, token = spelled, _compact_lines(spelled)
            written = token.rstrip(".`'\"")
            # `a.js`, my\\_module.py, my%20notes.md: as meant
            path = written_path(unescaped(written.lstrip("`'\"")))
            if path.startswith(("https://", "http://")):  # a code host's permalink: its file
                path = permalink_path(path) or path
            if DRIVE_RE.match(path):  # said, and the list read on past it
                if unread is not None:
                    unread.append(Diagnostic(number, _DRIVE_PATH.format(match[1], written)))
            elif path.lower() not in LAYER_WORDS:
                # a.js:12 cites a.js; a space only where an escape was
                # a glob's wildcards read as a name's letters: src/*.py cites what it matches
                if not is_path_like(_WILDCARDS.sub("_", split_claimed(path)[0].replace(" ", "_"))):
                    break
                paths.append(path)
            if written != token.rstrip("`'\""):  # a period: the sentence ends here
                break
            separator = SEP_RE.match(line, item.end())
            if separator is None:
                break
            position = separator.end()
        read_to = position
        if paths:
            yield Citation(match.group(1), tuple(paths), number)


_WILDCARDS = re.compile(r"[*?]")
_DRIVE_PATH = (
    "{} cites {}, a path on the writer's disk: not read (which of its directories is the"
    " repository's root the report does not say); cite it from the repository's root"
)


#: a cited path and its lines as a sentence writes them (``a.js: 3-9``, ``a.js:3 - 9``, ``a.js,
#: lines 3 to 9``, ``a.js (line 3)``): the path ends in a letter, as a file's name does
_CITED_LINES = re.compile(
    r"([^\s,;()\[\]]*[A-Za-z])(?::[ \t]*|,?[ \t]+(\()?[ \t]*(?:lines?|L)[ \t]*)(\d+)"
    r"(?:[ \t]*(?:[-–]|to)[ \t]*L?(\d+))?(?(2)[ \t]*\))"
)


#: what follows a cited item whose lines a sentence writes (cheap before `_CITED_LINES`)
_LINES_AFTER = (" -", " –", " to ", " line", " L", " (line", ", line")


def _compact_lines(found: re.Match[str]) -> str:
    """A cited path with its lines as a marker writes them, ``a.js:3-9``."""
    return f"{found[1]}:{found[3]}-{found[4]}" if found[4] else f"{found[1]}:{found[3]}"


#: a cited path in quotes or backticks (it may hold spaces)
_QUOTED_ITEM = re.compile(r"""(["'`])([^"'`,;()\[\]]+?)\1""")
#: a cited path cut by spaces: a word without an extension, then up to two words, the last with
#: one, before the list goes on or ends (``docs/User Guide.md,``)
_SPACED_ITEM = re.compile(r"[^\s,;()\[\]]+(?: [^\s,;()\[\]]+){1,2}(?=[,;)\]]|\s+and\s|[.]?\s*$)")
#: words of a sentence, never of a path cut by spaces
_PROSE = frozenset(
    {"a", "also", "an", "and", "are", "as", "at", "but", "by", "for", "from", "in", "is", "it"}
    | {"its", "nor", "not", "of", "on", "only", "or", "see", "than", "that", "the", "then"}
    | {"this", "to", "used", "via", "was", "where", "which", "with"}
)


def _spaced_item(line: str, position: int) -> tuple[str, int] | None:
    """A cited path with spaces at ``position`` (in quotes, or cut by spaces and ending in a file
    extension) and where it ends; None for any other item (read as before)."""
    quoted = _QUOTED_ITEM.match(line, position)
    if quoted is not None:
        path = quoted[2].strip()
        if " " in path and is_path_like(path.replace(" ", "_")):
            return path, quoted.end()
        return None
    spaced = _SPACED_ITEM.match(line, position)
    if spaced is None:
        return None
    words = spaced.group().split(" ")
    if "." in words[0].rsplit("/", 1)[-1] or _PROSE.intersection(w.lower() for w in words):
        return None  # a file name with its extension, then words: not one path
    written = spaced.group().rstrip(".")
    path = unescaped(written)  # docs/my\\ notes.md as a shell completes it
    if "/" not in path or not is_path_like(path.replace(" ", "_")):
        return None
    return path, position + len(written)
