"""Which Pygments lexer reads a file, by its name (shared by the source pane and `assay show`).

Pygments' own lookup by file name compiles every lexer's ~930 file name patterns and asks the
installed plugins again at each first lookup (60-75 ms of the first file shown in a process);
here the patterns are indexed once by the literal name or suffix most of them are, and the
answer is Pygments' own: the same matches in the same order, rated as it rates them.
"""

from __future__ import annotations

import fnmatch
import re
from collections import defaultdict
from functools import cache, lru_cache
from posixpath import basename
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from pygments.lexer import Lexer

_SPECIAL = re.compile(r"[*?\[]")


class _Pattern(NamedTuple):
    order: int  # Pygments' order: lexers as listed, then their patterns
    lexer: str  # the lexer's name
    glob: str


class _Index(NamedTuple):
    names: dict[str, list[_Pattern]]  # patterns without a wildcard: the whole name
    suffixes: dict[str, list[_Pattern]]  # "*" then a literal: the name's ending
    others: list[tuple[re.Pattern[str], _Pattern]]  # the rest, as Pygments matches them


@cache
def _index() -> _Index:
    from pygments.lexers import get_all_lexers

    names: dict[str, list[_Pattern]] = defaultdict(list)
    suffixes: dict[str, list[_Pattern]] = defaultdict(list)
    others = []
    order = 0
    for name, _aliases, globs, _mimetypes in get_all_lexers(plugins=True):
        for glob in globs:
            pattern = _Pattern(order, name, glob)
            order += 1
            if not _SPECIAL.search(glob):
                names[glob].append(pattern)
            elif glob.startswith("*") and not _SPECIAL.search(glob, 1):
                suffixes[glob[1:]].append(pattern)
            else:
                others.append((re.compile(fnmatch.translate(glob)), pattern))
    return _Index(dict(names), dict(suffixes), others)


def lexer_class(path: str) -> type[Lexer] | None:
    """The class Pygments' `find_lexer_class_for_filename` answers for ``path`` (no content
    given), or None."""
    from pygments.lexers import find_lexer_class

    name = basename(path)
    index = _index()
    found = list(index.names.get(name, ()))
    # "*" matches any start, the empty one too: every ending of the name from a dot or not
    found += (p for at in range(len(name)) for p in index.suffixes.get(name[at:], ()))
    found += (pattern for regex, pattern in index.others if regex.match(name))
    rated: list[tuple[tuple[float, str], type[Lexer]]] = []
    for pattern in sorted(found):
        cls = find_lexer_class(pattern.lexer)
        if cls is not None:
            # as Pygments rates them: a pattern without "*" a bonus, then the class's name
            bonus = 0.5 if "*" not in pattern.glob else 0
            rated.append(((cls.priority + bonus, cls.__name__), cls))
    if not rated:
        return None
    rated.sort(key=lambda item: item[0])  # stable: the last of equals is Pygments' choice
    return rated[-1][1]


@lru_cache(maxsize=256)
def lexer_for(path: str) -> Lexer:
    """The lexer for a file name (plain text when Pygments knows none); lines kept as given."""
    from pygments.lexers.special import TextLexer

    cls = lexer_class(path)
    return (cls or TextLexer)(stripnl=False, ensurenl=False)
