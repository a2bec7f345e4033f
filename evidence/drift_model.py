"""What drift says of one passage: its status at the newer revision, where it is, how it
differs and which commits changed it (`Drift`), as `assay check --against` writes it. Found by
evidence/drift.py.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from evidence.git.changes import CommitInfo
from evidence.model import DiffPart, LineRange


class DriftStatus(StrEnum):
    """What became of a quoted passage at the newer revision."""

    UNCHANGED = "unchanged"  # the same text at the same lines (the file may have been renamed)
    MOVED = "moved"  # the same text at other lines, or in other files
    CHANGED = "changed"  # recognisably there, edited
    DELETED = "deleted"  # the file is there, the passage is not
    FILE_DELETED = "file_deleted"
    NOT_ANCHORED = "not_anchored"  # no lines at the cited revision to follow
    #: the file is at the newer revision, changed, but its text cannot be read: binary or too
    #: large now, or not in this clone (a Git LFS object not fetched, an object a partial clone
    #: lacks): what became of the passage is unknown
    UNREADABLE = "unreadable"

    @property
    def breaks(self) -> bool:
        """The claim needs another look: `assay check --against` exits 1."""
        return self in (
            DriftStatus.CHANGED,
            DriftStatus.DELETED,
            DriftStatus.FILE_DELETED,
            DriftStatus.UNREADABLE,
        )


@dataclass(frozen=True)
class Drift:
    """One quote's passage at the newer revision."""

    status: DriftStatus
    path: str | None = None  # at the newer revision
    lines: LineRange | None = None
    renamed_from: str | None = None  # the path at the cited revision, when renamed
    score: float = 0.0  # 100 for the same text
    diff: tuple[DiffPart, ...] | None = None  # cited passage against its counterpart
    commits: tuple[CommitInfo, ...] = ()  # newest first
    #: moved out of its file: every place in other files where it stands verbatim (the first
    #: is `path` and `lines`)
    elsewhere: tuple[tuple[str, LineRange], ...] = ()
    #: deleted: where to look in `path` for what took its place (what is left of its lines, the
    #: two lines it stood between, or in a file that took over from its own the lines most
    #: like it)
    near: LineRange | None = None

    def as_json(self) -> dict[str, Any]:
        """The ``drift`` entry of `assay check --against`'s JSON."""
        return {
            "status": self.status.value,
            "path": self.path,
            "lines": None if self.lines is None else list(self.lines),
            "renamed_from": self.renamed_from,
            "score": round(self.score, 1),
            "diff": diff_json(self.diff),
            "commits": [commit.as_json() for commit in self.commits],
            "elsewhere": [{"path": path, "lines": list(span)} for path, span in self.elsewhere],
            "near": None if self.near is None else list(self.near),
        }


def diff_json(diff: tuple[DiffPart, ...] | None) -> list[dict[str, str]] | None:
    """DiffParts as `assay check` prints them."""
    if diff is None:
        return None
    return [{"op": part.op, "quote": part.quote, "source": part.source} for part in diff]


def drift_counts(drifts: Sequence[Drift | None]) -> dict[str, int]:
    """How many quotes have each status (every status named, zero included)."""
    counts = Counter(drift.status for drift in drifts if drift is not None)
    return {status.value: counts[status] for status in DriftStatus}
