"""Cited paths checked at a revision: present, a directory, absent, or a near miss of a path that
exists (which is suggested). Citations are evidence too: ``(SRC-1, src/a.js)`` names a file the
record rests on even when it quotes nothing from it.

UI-free; `PathIndex` works on a plain list of paths, so it is tested without git.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable, Iterator
from enum import StrEnum
from typing import NamedTuple

from evidence.model import Citation, Record, ReportSet
from evidence.reports.ranges import RANGE_RE

#: a line suffix a citation may carry (evidence/reports/ranges.py's RANGE_RE, whose forms
#: a marker takes): ``a.py:12``, ``a.py:L12-L14``, ``a.py:12:5``, ``a.py#L3-L9``, ``#L3C1-L9C4``
_LINES = RANGE_RE
#: how close (0-100, rapidfuzz ratio) another path must be to be suggested
SUGGEST_FROM = 75.0


class CitedState(StrEnum):
    """What a cited path is at the revision."""

    PRESENT = "present"  # a file, symlink or submodule
    DIRECTORY = "directory"
    NEAR_MISS = "near_miss"  # absent, and a path that exists is close: see the suggestion
    ABSENT = "absent"
    UNCHECKED = "unchecked"  # inside a submodule this clone does not have
    PATTERN = "pattern"  # a wildcard (``src/*.py``) matching files: see `CitedPath.matches`
    PAST_END = "past_end"  # a file, but the lines named are past its end: `CitedPath.length`

    @property
    def missing(self) -> bool:
        """The path, or the lines it names, are not at the revision."""
        return self in (CitedState.NEAR_MISS, CitedState.ABSENT, CitedState.PAST_END)


#: the states of a cited path `assay check` fails on, as stored (db, exports, the anchor cache)
MISSING_STATES = frozenset(state.value for state in CitedState if state.missing)


class CitedPath(NamedTuple):
    """One path of one citation of one record, with its state at the revision."""

    report: str  # the report file
    record: str  # the record id
    source: str  # ``SRC-1``
    path: str  # as cited, without a line suffix
    line: int  # report line of the citation
    state: CitedState
    suggestion: str | None = None  # the closest existing path, for a near miss
    #: for a wildcard (``src/*.py``, ``docs/**/*.md``): how many files it matches (none: absent);
    #: its first match is the suggestion
    matches: int = 0
    lines: tuple[int, int] | None = None  # the lines it names (``a.py:12-14``), the first named
    length: int = 0  # the file's lines, when those are past its end


def cited_path(path: str) -> str:
    """A cited path as the tree spells it: no line suffix, no leading ``./`` or ``/``."""
    path = _LINES.sub("", path.strip().strip("`'\"")).replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return re.sub("/+", "/", path.lstrip("/")).rstrip("/")


def cited_lines(path: str) -> tuple[int, int] | None:
    """The lines a cited path names (``a.py:12-14``, ``a.py#L3``), None when it names none."""
    found = _LINES.search(path.strip().strip("`'\""))
    if found is None:
        return None
    first = found.group(1) or found.group(3)
    last = found.group(2) or found.group(4) or first
    return int(first), max(int(first), int(last))


class PathIndex:
    """The paths of a revision, to tell what a cited path is and suggest the closest one."""

    def __init__(
        self,
        paths: Iterable[str],
        held: Callable[[str], bool | None] | None = None,
        root: str = "",
    ) -> None:
        """``held``: for a path not among ``paths``, whether the revision holds it all the
        same (`Revision.held`: through a symlinked directory, in another Unicode form, inside a
        submodule; None when a submodule this clone lacks would hold it). ``root``: the
        directory cited paths are relative to (`Revision.root`), looked in first."""
        self.files = frozenset(paths)
        self._held = held
        self._root = root
        directories: set[str] = set()
        by_name: dict[str, list[str]] = {}
        for path in self.files:
            by_name.setdefault(posixpath.basename(path), []).append(path)
            parent = posixpath.dirname(path)
            while parent and parent not in directories:
                directories.add(parent)
                parent = posixpath.dirname(parent)
        self.directories = frozenset(directories)
        self._by_name = by_name
        self._everything: list[str] | None = None

    def cited(self, path: str) -> tuple[CitedState, str | None, int]:
        """`state`, and how many files a wildcard matches: a cited path missing as written
        that holds ``*`` or ``?`` is a wildcard, its first match the suggestion."""
        path = cited_path(path)
        state, suggestion = self.state(path)
        if state.missing and is_pattern(path):
            matched = self.matching(path)
            if not matched:
                return CitedState.ABSENT, None, 0
            return CitedState.PATTERN, matched[0], len(matched)
        return state, suggestion, 0

    def matching(self, pattern: str) -> list[str]:
        """The files a wildcard matches (`files_matching`, from the root first)."""
        return files_matching(pattern, self.files, self._root)

    def state(self, path: str) -> tuple[CitedState, str | None]:
        """The state of a cited path, and the closest existing path when it is a near miss."""
        path = cited_path(path)
        root = self._root
        if root and path != root and not path.startswith(root + "/"):
            under = f"{root}/{path}" if path else root
            if under in self.files:
                return CitedState.PRESENT, None
            if under in self.directories:
                return CitedState.DIRECTORY, None
        if path in self.files:
            return CitedState.PRESENT, None
        if path in self.directories or path == "":
            return CitedState.DIRECTORY, None
        held = self._held(path) if self._held is not None else False
        if held is None:
            return CitedState.UNCHECKED, None
        if held:
            return CitedState.PRESENT, None
        suggestion = self.closest(path)
        if suggestion is None:
            return CitedState.ABSENT, None
        return CitedState.NEAR_MISS, suggestion

    def closest(self, path: str) -> str | None:
        """The existing path most like ``path``: one with the same file name first, else any
        file or directory at least `SUGGEST_FROM` alike; None when nothing is that close."""
        from rapidfuzz import fuzz, process

        same_name = self._by_name.get(posixpath.basename(path))
        if same_name:
            found = process.extractOne(path, same_name, scorer=fuzz.ratio)
            return str(found[0]) if found else None
        if self._everything is None:
            self._everything = sorted(self.files | self.directories)
        close = process.extractOne(
            path, self._everything, scorer=fuzz.ratio, score_cutoff=SUGGEST_FROM
        )
        return str(close[0]) if close else None


def is_pattern(path: str) -> bool:
    """The cited path is a wildcard (``src/*.py``, ``docs/**/*.md``, ``a/file?.js``). Brackets
    are no wildcard: ``app/[id]/page.tsx`` is a route's folder."""
    return "*" in path or "?" in path


def files_matching(pattern: str, files: Iterable[str], root: str = "") -> list[str]:
    """The files a wildcard matches, sorted; from ``root`` (a system's directory) first, as a
    cited path is read. ``*`` and ``?`` stay within a name, ``**`` crosses directories."""
    files = list(files)
    for prefix in (f"{root}/", "") if root else ("",):
        found = _glob(prefix + pattern)
        matched = sorted(path for path in files if found.fullmatch(path))
        if matched:
            return matched
    return []


def _glob(pattern: str) -> re.Pattern[str]:
    """A wildcard as a regular expression over a whole path."""
    pieces = re.split(r"(\*\*/|\*\*|\*|\?)", pattern)
    wild = {"**/": "(?:.*/)?", "**": ".*", "*": "[^/]*", "?": "[^/]"}
    return re.compile("".join(wild.get(piece) or re.escape(piece) for piece in pieces))


def _cited(record: Record) -> Iterator[tuple[Citation, str]]:
    """Each path the record cites, once, in order, with the citation naming it first."""
    seen: set[str] = set()
    for citation in record.citations:
        for raw in citation.paths:
            path = cited_path(raw)
            if path not in seen:
                seen.add(path)
                yield citation, path


def named_lines(record: Record) -> dict[str, tuple[int, int]]:
    """The lines the record names of each cited path, the first it names."""
    named: dict[str, tuple[int, int]] = {}
    for citation in record.citations:
        for raw in citation.paths:
            lines = cited_lines(raw) if ":" in raw or "#" in raw else None
            if lines is not None:
                named.setdefault(cited_path(raw), lines)
    return named


def record_citations(record: Record, index: PathIndex) -> tuple[CitedPath, ...]:
    """Every path the record cites, in order, each once, with its state."""
    named = named_lines(record)
    return tuple(
        CitedPath(
            record.report, record.id, citation.source, path, citation.line, *index.cited(path)
        )._replace(lines=named.get(path))
        for citation, path in _cited(record)
    )


def past_end(
    citations: tuple[CitedPath, ...], length: Callable[[str], int | None]
) -> tuple[CitedPath, ...]:
    """The cited paths with a file's named lines past its end made `CitedState.PAST_END`
    (``length``: a file's lines at the revision, None when its text is not here to count)."""
    counted: dict[str, int | None] = {}
    checked: list[CitedPath] = []
    for cited in citations:
        if cited.state is CitedState.PRESENT and cited.lines is not None:
            if cited.path not in counted:
                counted[cited.path] = length(cited.path)
            total = counted[cited.path]
            if total is not None and cited.lines[1] > total:
                cited = cited._replace(state=CitedState.PAST_END, length=total)
        checked.append(cited)
    return tuple(checked)


def cited_places(reportset: ReportSet) -> tuple[tuple[str, str, str, str, int], ...]:
    """(report, record, source, path, line) of every cited path, as `check_citations` lists
    them, without a revision: what cited paths kept beside anchors were read from (an edit to
    a report's citations alone leaves its quotes, and so the cache's key, as they were)."""
    return tuple(
        (record.report, record.id, citation.source, path, citation.line)
        for report in reportset.reports
        for record in report.records
        for citation, path in _cited(record)
    )


def check_citations(reportset: ReportSet, index: PathIndex) -> tuple[CitedPath, ...]:
    """Every cited path of every record of the reports, in report order."""
    return tuple(
        cited
        for report in reportset.reports
        for record in report.records
        for cited in record_citations(record, index)
    )


def citation_json(cited: CitedPath) -> dict[str, object]:
    """One entry of the "citations" list of `assay check --format json`."""
    return {
        "report": cited.report,
        "report_line": cited.line,
        "record": cited.record,
        "source": cited.source,
        "path": cited.path,
        "state": cited.state.value,
        "suggestion": cited.suggestion,
        "matches": cited.matches,
        "lines": list(cited.lines) if cited.lines is not None else None,
        "length": cited.length or None,
    }
