"""Where lines of a file at one commit stand at another, when the direct diff leaves them as they
were: what tells a scan's findings apart when a message generic to a file (ruff's `D103 Missing
docstring in public function`) went and came unequally between two scans (db/carry.py)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path

from evidence.git.changes import map_ranges
from evidence.git.history import path_changes
from evidence.git.process import OBJECT_ID
from evidence.git.repo import open_repo
from evidence.revision import RevisionError

__all__ = ["counterpart_line", "lines_after", "renames"]


def lines_after(
    repository: Path, old: str, new: str, wanted: Mapping[str, Collection[int]]
) -> dict[tuple[str, int], int]:
    """The line at ``new`` of each (path, 1-based line) of ``wanted`` at ``old`` that no hunk of
    the diff between them touched (a file the diff does not name is as it was); a touched line, a
    file renamed or deleted, made binary or a link, has none. Raises RevisionError when a commit
    cannot be read, or is not a full commit id (what a database says is never handed to git as
    an option)."""
    for commit in (old, new):
        if not OBJECT_ID.fullmatch(commit):
            raise RevisionError(f"not a commit id: {commit[:60]!r}")
    repo = open_repo(repository)
    try:
        changes = {c.old_path: c for c in path_changes(repo, old, new, wanted)}
    finally:
        repo.close()
    found: dict[tuple[str, int], int] = {}
    for path, lines in wanted.items():
        change = changes.get(path)
        if change is not None and change.new_path != path:
            continue  # renamed or deleted: another file's lines
        if change is not None and change.opaque:
            continue  # made binary or a link: no hunk tells which lines stayed
        for line in lines:
            if change is None:
                found[(path, line)] = line
                continue
            ranges, touched = map_ranges(((line - 1, line),), change.hunks, forward=True)
            if not touched and len(ranges) == 1:
                found[(path, line)] = ranges[0][0] + 1
    return found


#: lines above an edited line tried in turn for one that stayed (past them: the same number)
_ABOVE = 40


def counterpart_line(old: Sequence[str], new: Sequence[str], line: int) -> int:
    """The line of ``new`` where a reader of ``old`` at 1-based ``line`` would go on reading
    (a file at two revisions, `t` in the review): the nearest line of the same text with a
    neighbour of the same text, the nearest such line above it when it was edited, else the
    same number within ``new``."""
    if not new:
        return 1
    if not old:
        return min(max(line, 1), len(new))
    index = min(max(line, 1), len(old)) - 1
    places: dict[str, list[int]] = {}
    for at, text in enumerate(new):  # once, not a scan of the file per line tried
        places.setdefault(text, []).append(at)
    for above in range(min(index, _ABOVE) + 1):
        found = _nearest(old, new, index - above, places.get(old[index - above], []))
        if found is not None:
            return min(found + above, len(new) - 1) + 1
    return min(index + 1, len(new))


def _nearest(old: Sequence[str], new: Sequence[str], index: int, places: list[int]) -> int | None:
    """Of ``places`` (where ``old[index]``'s text stands in ``new``), the nearest ``index``
    beside the same line above or below it (a file of one line: any)."""
    before = old[index - 1] if index > 0 else None
    after = old[index + 1] if index + 1 < len(old) else None
    fitting = [
        at
        for at in places
        if (before is None and after is None)
        or (before is not None and at > 0 and new[at - 1] == before)
        or (after is not None and at + 1 < len(new) and new[at + 1] == after)
    ]
    return min(fitting, key=lambda at: (abs(at - index), at)) if fitting else None


def renames(repository: Path, old: str, new: str, paths: Collection[str]) -> dict[str, str]:
    """The name at ``new`` of each of ``paths`` at ``old`` that git's diff between them finds
    renamed (the file edited or not). Raises RevisionError as `lines_after` does."""
    for commit in (old, new):
        if not OBJECT_ID.fullmatch(commit):
            raise RevisionError(f"not a commit id: {commit[:60]!r}")
    wanted = set(paths)
    repo = open_repo(repository)
    try:
        changes = path_changes(repo, old, new, wanted)
    finally:
        repo.close()
    return {
        change.old_path: change.new_path
        for change in changes
        if change.status.startswith("R")
        and change.old_path in wanted
        and change.new_path
        and change.new_path != change.old_path
    }
