"""Drift of cited files: what became, at a newer revision, of each file a record cites
(``(SRC-1, src/a.js)``, ``src/a.js:12-14`` in its prose), as quotes' passages are followed.

A file cited with its lines is followed as a passage of those lines (evidence/drift.py: moved,
changed with a diff, deleted, and the commits). A file cited whole is followed as a file, through
its renames: unchanged, renamed, edited (by which commits) or deleted. An edit of a file cited
whole does not say the claim broke (a claim resting on a whole file rarely rests on every line of
it); its going does.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from evidence.citations import CitedPath, CitedState
from evidence.drift import follow_anchors
from evidence.drift_model import Drift, DriftStatus
from evidence.git.history import CommitInfo, kept_history, linked_names
from evidence.git.repo import open_repo
from evidence.model import Anchor, FileState, LineRange, Quote, Tier
from evidence.revision import Revision

__all__ = ["FileDrift", "cited_counterpart", "follow_cited", "follow_with_cited"]

#: what a file cited whole breaks on: it is gone, or cannot be read to tell
_WHOLE_BREAKS = (DriftStatus.FILE_DELETED, DriftStatus.UNREADABLE)


@dataclass(frozen=True)
class FileDrift:
    """A cited file (or the lines it names) at the newer revision."""

    path: str  # as the record cites it (no line suffix)
    lines: LineRange | None  # the lines it names, None when cited whole
    drift: Drift

    @property
    def breaks(self) -> bool:
        """The claim needs another look: its lines changed or went, or the file went."""
        if self.lines is None:
            return self.drift.status in _WHOLE_BREAKS
        return self.drift.status.breaks

    @property
    def status(self) -> str:
        """The drift's status as said of a file: a file cited whole and changed is ``edited``
        (not a passage that changed), one moved elsewhere is ``renamed``."""
        status = self.drift.status
        if self.lines is None and status is DriftStatus.CHANGED:
            return "edited"
        if status is DriftStatus.UNCHANGED and self.drift.renamed_from:
            return "renamed"
        return status.value

    def as_json(self) -> dict[str, Any]:
        """The ``drift`` entry of a citation in `assay check --against`'s JSON (``score`` null
        for a file cited whole that changed: its text was not compared)."""
        entry = {**self.drift.as_json(), "status": self.status, "breaks": self.breaks}
        if self.lines is None and self.drift.status is not DriftStatus.UNCHANGED:
            entry["score"] = None
        return entry


def follow_cited(
    citations: Sequence[CitedPath],
    cited: Revision,
    against: Revision,
    *,
    cancel: threading.Event | None = None,
) -> dict[tuple[str, LineRange | None], FileDrift]:
    """The drift of every file the citations name that is at the cited revision, keyed by
    (path as cited, lines named); wildcards, directories and paths not there are not followed.
    Empty when `cancel` is set before the end."""
    return follow_with_cited((), citations, cited, against, cancel=cancel)[1]


def cited_counterpart(path: str, cited: Revision, against: Revision) -> FileDrift | None:
    """The file of the cited revision that is ``path`` at ``against`` (one the reviewer opened
    at REV), followed there: the same path, or one renamed to it on the way, as `follow_cited`
    follows them; None when no file of the cited revision became it (written on the way)."""
    repo = open_repo(cited.repo_path)
    try:
        with kept_history(repo, cited.commit, against.commit, ()) as history:
            names = linked_names(history, path)
    finally:
        repo.close()
    before = cited.entries()
    # the path itself first: a file deleted and written again at its path is followed to it
    candidates = sorted(names & before.keys(), key=lambda name: (name != path, name))
    wanted = [CitedPath("", "", "", name, 0, CitedState.PRESENT) for name in candidates]
    followed = follow_cited(wanted, cited, against) if wanted else {}
    for name in candidates:
        found = followed.get((name, None))
        if found is not None and found.drift.path == path:
            return found
    return None


def follow_with_cited(
    anchors: Sequence[Anchor],
    citations: Sequence[CitedPath],
    cited: Revision,
    against: Revision,
    *,
    cancel: threading.Event | None = None,
) -> tuple[list[Drift | None], dict[tuple[str, LineRange | None], FileDrift]]:
    """`follow_anchors` of the quotes' anchors and `follow_cited` of the citations, the quotes
    and the lines named followed in one walk of the history. ([None, ...], {}) when `cancel`
    is set before the end."""
    wanted: dict[tuple[str, LineRange | None], str] = {}  # -> the tree's path at `cited`
    for citation in citations:
        key = (citation.path, citation.lines)
        if citation.state is not CitedState.PRESENT or key in wanted:
            continue
        tree_path = cited.resolve_link(citation.path)
        entry = cited.entries().get(tree_path) if tree_path else None
        if tree_path is not None and entry is not None and entry.kind == "blob":
            wanted[key] = tree_path
    cancelled: tuple[list[Drift | None], dict[tuple[str, LineRange | None], FileDrift]] = (
        [None] * len(anchors),
        {},
    )
    out: dict[tuple[str, LineRange | None], FileDrift] = {}
    # lines are followed where the file's text is here to read them (not a binary file's)
    with_lines = [
        (key, path)
        for key, path in wanted.items()
        if key[1] is not None and cited.line_count(path) is not None
    ]
    passages = [_lines_anchor(cited, path, lines) for (_, lines), path in with_lines if lines]
    drifts: list[Drift | None] = []
    if anchors or passages:
        drifts = follow_anchors([*anchors, *passages], cited, against, cancel=cancel)
        if any(drift is None for drift in drifts[len(anchors) :]):
            return cancelled
        for ((cited_as, lines), _), drift in zip(with_lines, drifts[len(anchors) :], strict=True):
            assert drift is not None
            out[cited_as, lines] = FileDrift(cited_as, lines, drift)
    whole = {key: path for key, path in wanted.items() if key not in out}
    if whole:
        if cancel is not None and cancel.is_set():
            return cancelled
        for (cited_as, lines), drift in _follow_whole(whole, cited, against).items():
            out[cited_as, lines] = FileDrift(cited_as, None, drift)
    return drifts[: len(anchors)], out


def _lines_anchor(revision: Revision, path: str, lines: LineRange) -> Anchor:
    """The cited lines as a verified passage at their place (what `follow_anchors` follows)."""
    text = "\n".join(revision.read(path).lines[lines[0] - 1 : lines[1]])
    quote = Quote(text, path, lines, 0, 0, "", 0)
    return Anchor(quote, FileState.OK, Tier.EXACT, 100.0, lines, (lines,), True)


def _follow_whole(
    paths: dict[tuple[str, LineRange | None], str], cited: Revision, against: Revision
) -> dict[tuple[str, LineRange | None], Drift]:
    """Each file followed whole ((path as cited, lines named) -> the tree's path) at `against`,
    through its renames, with the commits that changed it on the way (newest first)."""
    before, after = cited.entries(), against.entries()
    followed: dict[tuple[str, LineRange | None], tuple[str | None, tuple[CommitInfo, ...]]] = {}
    repo = open_repo(cited.repo_path)
    try:
        wanted = sorted(set(paths.values()))
        with kept_history(repo, cited.commit, against.commit, wanted) as history:
            for key, path in paths.items():
                # every line, and no more: lines past its end would outlive the file's deletion
                length = max(1, cited.line_count(path) or 1)
                now, _, touched = history.follow(path, ((0, length),))
                followed[key] = now, tuple(touched)
    finally:
        repo.close()
    out: dict[tuple[str, LineRange | None], Drift] = {}
    for key, path in paths.items():
        now, commits = followed[key]
        if now is None and path in after:
            now = path  # deleted on the way, written again
        entry = after.get(now) if now is not None else None
        if now is None or entry is None:
            out[key] = Drift(DriftStatus.FILE_DELETED, commits=commits)
            continue
        renamed = path if now != path else None
        if entry.oid == before[path].oid:
            out[key] = Drift(DriftStatus.UNCHANGED, now, None, renamed, 100.0)
        elif entry.kind != "blob":
            out[key] = Drift(
                DriftStatus.UNREADABLE, now, None, renamed, commits=commits, why="not a file now"
            )
        else:
            out[key] = Drift(DriftStatus.CHANGED, now, None, renamed, commits=commits)
    return out
