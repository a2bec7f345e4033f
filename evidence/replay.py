"""Re-run a search written in a report (`rg -n 'pat' path` ...) as a grep at the revision."""

from __future__ import annotations

import threading
from dataclasses import dataclass

from evidence.model import SearchReplay
from evidence.revision import GrepHit, Revision, Syntax

#: hits kept per replayed search
MAX_HITS = 1000


@dataclass(frozen=True)
class GrepOptions:
    """How a written command's flags translate into a grep at the revision."""

    fixed: bool = False
    ignore_case: bool = False
    word: bool = False
    syntax: Syntax = "perl"
    ignored: tuple[str, ...] = ()  # flags that cannot be honoured (globs, types, ...)


_LONG = {
    "--fixed-strings": "F",
    "--ignore-case": "i",
    "--smart-case": "S",
    "--word-regexp": "w",
    "--extended-regexp": "E",
    "--perl-regexp": "P",
    "--basic-regexp": "G",
    "--case-sensitive": "s",
}
# flags that change nothing about which lines match
_HARMLESS = set("nrRHIshocl") | {"-", "0"}
_HARMLESS_LONG = {
    "--line-number",
    "--recursive",
    "--with-filename",
    "--no-heading",
    "--heading",
    "--color",
    "--no-color",
    "--column",
    "--hidden",
    "--no-ignore",
    "--full-name",
    "--count",
    "--files-with-matches",
    "--only-matching",
}


def options_for(search: SearchReplay) -> GrepOptions:
    """The grep options equivalent to the written command's tool and flags."""
    tool = search.tool.strip().lower()
    syntax: Syntax = "perl" if tool == "rg" else "basic"
    fixed = ignore_case = word = smart = False
    ignored: list[str] = []
    for flag in search.flags:
        letters: str
        if flag.startswith("--"):
            name = flag.split("=", 1)[0]
            if name in _LONG:
                letters = _LONG[name]
            else:
                if name not in _HARMLESS_LONG:
                    ignored.append(flag)
                continue
        elif flag.startswith("-") and len(flag) > 1:
            letters = flag[1:]
        else:
            ignored.append(flag)
            continue
        for letter in letters:
            if letter == "F":
                fixed = True
            elif letter == "i":
                ignore_case = True
            elif letter == "S" and tool == "rg":
                smart = True
            elif letter == "s" and tool == "rg":
                ignore_case = smart = False
            elif letter == "w":
                word = True
            elif letter == "E":
                syntax = "extended"
            elif letter == "P":
                syntax = "perl"
            elif letter == "G":
                syntax = "basic"
            elif letter not in _HARMLESS and not (tool == "rg" and letter == "e"):
                ignored.append(f"-{letter}")
    if smart and search.pattern == search.pattern.lower():
        ignore_case = True
    return GrepOptions(fixed, ignore_case, word, syntax, tuple(ignored))


def replay(
    search: SearchReplay,
    revision: Revision,
    *,
    cancel: threading.Event | None = None,
    limit: int = MAX_HITS,
) -> list[GrepHit]:
    """The lines the written search finds at the revision (RevisionError on a bad pattern)."""
    options = options_for(search)
    hits: list[GrepHit] = []
    for hit in revision.grep(
        search.pattern,
        fixed=options.fixed,
        ignore_case=options.ignore_case,
        paths=search.paths,
        cancel=cancel,
        syntax=options.syntax,
        word=options.word,
    ):
        hits.append(hit)
        if len(hits) >= limit:
            break
    return hits
