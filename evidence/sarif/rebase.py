"""SARIF paths -> paths of the revision under review.

A scanner run on another machine writes absolute paths of its checkout (``/home/ci/work/kestrel/
api/server.py``). Once the revision is known, such a path is replaced by its longest suffix that
is a file of the revision (``api/server.py``) when that suffix keeps a directory: the directories
it drops are the checkout's root. A bare file name (``index.js``, ``setup.py``) is taken only at
a root another path of the reports showed, and a path whose suffix drops a directory below such a
root is no file of that checkout (``<root>/node_modules/foo/lib/a.js`` is not ``lib/a.js``): both
are kept, as is any path with no such suffix, and read as missing. A relative path is the
repository's (SARIF 3.4.4) and is never rebased. A path of a Windows scanner (its file system
ignores case: ``C:/Src/App/Main.cs`` for ``src/app/Main.cs``) that is not found as written is
found ignoring case, when exactly one path of the revision folds as it does; the result says so
in a status (``path: found ignoring case``). A rebased quote's note names the path the log
wrote, and each report says how many it rebased. Report quotes are never touched: only quotes
read from SARIF (those with a ``role``). In an audit, a run is also kept under the system it was
run over (`for_system`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Container, Iterable
from typing import TYPE_CHECKING, TypeVar

from evidence.model import Diagnostic, Quote, Record, Report, ReportSet
from evidence.sarif.uris import is_absolute

if TYPE_CHECKING:
    from evidence.revision import Revision

__all__ = [
    "TYPE_PREFIX",
    "at_revision",
    "checkout_paths",
    "for_system",
    "has_sarif_quotes",
    "ignoring_case",
    "is_sarif_report",
    "rebase_paths",
    "repository_path",
    "slug",
    "system_scope",
]

#: how the type line of a report read from SARIF starts (``sarif/<tool>-<category>``, then
#: ``@<system>`` in an audit)
TYPE_PREFIX = "sarif/"
_SLUG = re.compile(r"[^a-z0-9]+")


def slug(text: str) -> str:
    """``text`` in lower case, each run of other characters than letters and digits one "-"
    (a run's tool and category in its type line; an audit's system after it)."""
    return _SLUG.sub("-", text.lower()).strip("-")


def is_sarif_report(report: Report) -> bool:
    """True for a report read from a SARIF run."""
    return report.type_line.startswith(TYPE_PREFIX)


def repository_path(path: str, paths: Container[str]) -> str | None:
    """The longest suffix of ``path`` (whole components) that is in ``paths``, or None."""
    parts = [part for part in path.split("/") if part]
    for start in range(len(parts)):
        candidate = "/".join(parts[start:])
        if candidate in paths:
            return candidate
    return None


def has_sarif_quotes(reportset: ReportSet) -> bool:
    """True when a loaded report holds quotes read from SARIF."""
    return any(quote.role for record in reportset.records() for quote in record.quotes)


_PATH = Quote._fields.index("path")
_NOTE = Quote._fields.index("note")
_QUOTES = Record._fields.index("quotes")
_Item = TypeVar("_Item", Quote, Record)


def _with(item: _Item, index: int, value: object) -> _Item:
    """``item._replace`` of the field at ``index``: the tuple made at once, in half the time
    (a scan of absolute paths has each of its results' quotes replaced before its first screen)."""
    return tuple.__new__(type(item), (*item[:index], value, *item[index + 1 :]))


def checkout_paths(absolute: Iterable[str], paths: Container[str]) -> dict[str, str]:
    """The path in ``paths`` of each ``absolute`` path of another checkout that has one, by its
    longest existing suffix (`repository_path`) when that suffix keeps a directory, or is a
    bare file name at the root such a suffix showed; none when the suffix drops a directory
    below such a root (a file under the checkout that is not in the tree)."""
    matched: dict[str, tuple[str, str]] = {}  # path -> (root it implies, repository path)
    for path in absolute:
        suffix = repository_path(path, paths)
        if suffix is not None and path.endswith("/" + suffix):
            matched[path] = (path[: len(path) - len(suffix)], suffix)
    roots = {root for root, suffix in matched.values() if "/" in suffix}
    found: dict[str, str] = {}
    for path, (root, suffix) in matched.items():
        if root not in roots:
            continue  # a file name alone: index.js of any directory of any machine
        # the root's parent directories, at each "/": one of them a root is a checkout above
        cut = root.rstrip("/")
        if any(cut[: end + 1] in roots for end in range(len(cut)) if cut[end] == "/"):
            continue
        found[path] = suffix
    return found


def _noted(quote: Quote, written: str) -> str:
    said = f"the log wrote {written}"
    return f"{quote.note} ({said})" if quote.note else said


class _IgnoringCase:
    """The paths of a tree by their case-folded spelling: one holds a name when exactly one
    path of the tree folds as it does."""

    def __init__(self, paths: Iterable[str]) -> None:
        self._paths: dict[str, str | None] = {}
        for path in paths:
            key = path.casefold()
            self._paths[key] = None if key in self._paths else path  # None: two paths

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.path(name) is not None

    def path(self, name: str) -> str | None:
        """The one path of the tree that ``name`` spells in another case, or None."""
        return self._paths.get(name.casefold())


def ignoring_case(
    written: Iterable[str], paths: Collection[str], shown: Iterable[str] = ()
) -> dict[str, str]:
    """The path in ``paths`` of each ``written`` path found only ignoring case: a relative one
    as a whole, an absolute one by its ending as `checkout_paths` finds it (with the roots the
    absolute paths ``shown`` show); none that two paths of the tree spell."""
    index = _IgnoringCase(paths)
    found: dict[str, str] = {}
    absolute = set()
    for path in written:
        if is_absolute(path):
            absolute.add(path)
        elif (match := index.path(path)) is not None:
            found[path] = match
    if absolute:
        for path, suffix in checkout_paths(absolute.union(shown), index).items():
            match = index.path(suffix)
            if path in absolute and match is not None:
                found[path] = match
    return found


#: the status of a result that a path of it was found only ignoring case
FOLDED = ("path", "found ignoring case")


def rebase_paths(reportset: ReportSet, paths: Collection[str], here: str = "") -> ReportSet:
    """``reportset`` with the absolute path of every SARIF quote not in ``paths`` replaced by
    its path under ``here`` (the repository's work tree, where a scanner run in it writes
    them), else by the path `checkout_paths` finds, and then any path still not there by the one
    found `ignoring_case` (unchanged when there is none), its note naming the path the log wrote
    (not for a path under ``here``), and a diagnostic on each report that had paths rebased."""
    quotes = [q for report in reportset.reports for record in report.records for q in record.quotes]
    if all(not q.role or q.path in paths for q in quotes):
        return reportset  # a scan of this very tree: one pass, nothing rebuilt (135,130: 0.5 s)
    wanted = {q.path for q in quotes if q.role and q.path not in paths and is_absolute(q.path)}
    top = here.rstrip("/") + "/" if here else ""
    inside = {path: path[len(top) :] for path in wanted if top and path.startswith(top)}
    inside = {path: found for path, found in inside.items() if found in paths}
    found = checkout_paths(wanted.difference(inside), paths)
    unfound = {
        q.path
        for q in quotes
        if q.role and q.path not in paths and q.path not in found and q.path not in inside
    }
    folded = ignoring_case(unfound, paths, shown=found) if unfound else {}
    if not found and not folded and not inside:
        return reportset

    def rebased(quote: Quote) -> Quote:
        if not quote.role:
            return quote
        if (path := inside.get(quote.path)) is not None:
            return _with(quote, _PATH, path)  # the log's own way of writing a path here
        if (path := found.get(quote.path)) is not None:
            return _with(_with(quote, _PATH, path), _NOTE, _noted(quote, quote.path))
        if (path := folded.get(quote.path)) is not None:
            note = _noted(quote, f"{quote.path}, found ignoring case")
            return _with(_with(quote, _PATH, path), _NOTE, note)
        return quote

    def record(value: Record) -> Record:
        quotes = tuple(rebased(quote) for quote in value.quotes)
        changed = any(new is not old for new, old in zip(quotes, value.quotes, strict=True))
        if not changed:
            return value
        if any(q.role and q.path in folded for q in value.quotes) and FOLDED not in value.statuses:
            value = value._replace(statuses=(*value.statuses, FOLDED))
        return _with(value, _QUOTES, quotes)

    def report(value: Report) -> Report:
        records = tuple(record(item) for item in value.records)
        said = []
        for moves, how in (
            (inside, "absolute path(s) in the repository's work tree read as the revision's"),
            (found, "absolute path(s) of another checkout found in the revision by their ending"),
            (folded, "path(s) found in the revision only ignoring case (a Windows scanner's)"),
        ):
            moved = {
                quote.path: moves[quote.path]
                for item in value.records
                for quote in item.quotes
                if quote.role and quote.path in moves
            }
            if moved:
                first, path = next(iter(moved.items()))
                more = f" and {len(moved) - 1:,} more" if len(moved) > 1 else ""
                said.append(Diagnostic(0, f"{len(moved):,} {how}: {first} as {path}{more}"))
        if not said:
            return value
        return value._replace(records=records, diagnostics=(*value.diagnostics, *said))

    return reportset._replace(reports=tuple(report(item) for item in reportset.reports))


def at_revision(reportset: ReportSet, revision: Revision) -> ReportSet:
    """`rebase_paths` with the paths of ``revision``, for reports that hold SARIF quotes (the
    others as they are): what `assay check`, `assay review` and an audit anchor, and the anchors
    kept on disk are keyed by."""
    if not has_sarif_quotes(reportset):
        return reportset
    return rebase_paths(reportset, revision.entries(), str(revision.repo_path))


def system_scope(system: str) -> str:
    """What a SARIF run's identity holds of an audit's ``system``: its name's ASCII letters
    and digits (two names alike but for other characters share it; none gives "system")."""
    return slug(system) or "system"


def for_system(reportset: ReportSet, system: str) -> ReportSet:
    """``reportset`` with each SARIF run's results kept under ``system`` (an audit's system).

    A run is known by its tool and category (`Report.identity`), which stay the same when one
    scanner runs over several systems: in an audit they were one report, whose items each
    system's review registered in turn, marking the other systems' results gone, and whose
    verdicts, failing quotes and reviewers every such system counted. The category is where
    SARIF tells runs over different code apart; the system's name is added to it."""
    scope = system_scope(system)

    def scoped(report: Report) -> Report:
        if not is_sarif_report(report) or report.type_line.endswith(f"@{scope}"):
            return report
        return report._replace(type_line=f"{report.type_line}@{scope}")

    return reportset._replace(reports=tuple(scoped(report) for report in reportset.reports))
