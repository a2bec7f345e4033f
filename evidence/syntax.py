"""Which Pygments lexer reads a file, by its name (shared by the source pane and `assay show`).

Pygments' own lookup by file name compiles every lexer's ~930 file name patterns and asks the
installed plugins again at each first lookup (60-75 ms of the first file shown in a process);
here the patterns are indexed once by the literal name or suffix most of them are, and the
answer is Pygments' own: the same matches in the same order, rated as it rates them.
"""

from __future__ import annotations

import threading
from functools import cache, lru_cache
from posixpath import basename
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import re

    from pygments.lexer import Lexer

#: a pattern: (its place in Pygments' order, the lexer's name, the glob)
_Pattern = tuple[int, str, str]


_Index = tuple[
    dict[str, list[_Pattern]], dict[str, list[_Pattern]], list[tuple["re.Pattern[str]", _Pattern]]
]
#: the index is made once: a second thread asking meanwhile (the source pane's highlighting
#: beside the next record's) waits for it rather than making it again (~30 ms of the GIL)
_INDEXING = threading.Lock()


def _index() -> _Index:
    with _INDEXING:
        return _made_index()


@cache
def _made_index() -> _Index:
    """Patterns without a wildcard by the whole name; "*" then a literal by the name's ending;
    the rest as Pygments matches them. (Imports here: the module is imported at launch.)"""
    import fnmatch
    import re

    from pygments.lexers import get_all_lexers

    special = re.compile(r"[*?\[]")
    names: dict[str, list[_Pattern]] = {}
    suffixes: dict[str, list[_Pattern]] = {}
    others = []
    order = 0
    for name, _aliases, globs, _mimetypes in get_all_lexers(plugins=True):
        for glob in globs:
            pattern = (order, name, glob)
            order += 1
            if not special.search(glob):
                names.setdefault(glob, []).append(pattern)
            elif glob.startswith("*") and not special.search(glob, 1):
                suffixes.setdefault(glob[1:], []).append(pattern)
            else:
                others.append((re.compile(fnmatch.translate(glob)), pattern))
    return names, suffixes, others


def lexer_class(path: str) -> type[Lexer] | None:
    """The class Pygments' `find_lexer_class_for_filename` answers for ``path`` (no content
    given), or None."""
    from pygments.lexers import find_lexer_class

    name = basename(path)
    names, suffixes, others = _index()
    found = list(names.get(name, ()))
    # "*" matches any start, the empty one too: every ending of the name from a dot or not
    found += (p for at in range(len(name)) for p in suffixes.get(name[at:], ()))
    found += (pattern for regex, pattern in others if regex.match(name))
    rated: list[tuple[tuple[float, str], type[Lexer]]] = []
    for _order, lexer, glob in sorted(found):
        cls = find_lexer_class(lexer)
        if cls is not None:
            # as Pygments rates them: a pattern without "*" a bonus, then the class's name
            bonus = 0.5 if "*" not in glob else 0
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
