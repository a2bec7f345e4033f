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
from evidence.model import DiffPart, Elsewhere, LineRange


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
    #: changed, the same but for whitespace: what differs in it (`whitespace_change`), so that
    #: a reviewer is told which lines were re-indented rather than shown a diff with no change
    whitespace: str = ""
    #: changed around the quote, which holds part of the passage's lines and is in the
    #: counterpart as it was (`drift_focus.around_quote`): the lines changed, not its words
    quoted_unchanged: bool = False
    #: unreadable: why its text cannot be read at the newer revision (`SourceFile.problem`:
    #: binary now, too large, a Git LFS object not fetched, an object a partial clone lacks)
    why: str = ""
    #: not anchored: where the quote itself is at the newer revision, looked for there as
    #: anchoring looks at the cited one (`assay check --against`; None: not there, or not looked)
    found: Elsewhere | None = None

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
            "whitespace": self.whitespace or None,
            "quoted_unchanged": self.quoted_unchanged,
            "unreadable": self.why or None,
            "found": None
            if self.found is None
            else {
                "path": self.found.path,
                "lines": list(self.found.lines),
                "match": self.found.match.value,
            },
        }


def diff_json(diff: tuple[DiffPart, ...] | None) -> list[dict[str, str]] | None:
    """DiffParts as `assay check` prints them."""
    if diff is None:
        return None
    return [{"op": part.op, "quote": part.quote, "source": part.source} for part in diff]


def changed_drift(
    passage: Sequence[str],
    counterpart: Sequence[str],
    path: str,
    lines: LineRange,
    score: float,
    diff: tuple[DiffPart, ...] | None,
    renamed: str | None = None,
) -> Drift:
    """A passage's Drift as `changed` to ``counterpart`` (at ``lines`` of ``path``), saying what
    differs when only its whitespace does (`whitespace_change`)."""
    spacing = whitespace_change(passage, counterpart, lines[0])
    return Drift(DriftStatus.CHANGED, path, lines, renamed, score, diff, whitespace=spacing)


def whitespace_change(passage: Sequence[str], counterpart: Sequence[str], first: int) -> str:
    """What differs between two passages the same but for whitespace, read as a reviewer would:
    ``line 77 re-indented from 8 spaces to 12 spaces``, ``lines 3-4 re-indented``, ``spacing
    within line 9``, ``rewrapped from 2 lines to 3`` (``first``: the counterpart's first line); ""
    when their words differ or nothing does."""
    if "".join("".join(passage).split()) != "".join("".join(counterpart).split()):
        return ""  # more than whitespace differs
    if len(passage) != len(counterpart):
        return f"rewrapped from {_count(len(passage))} to {len(counterpart)}"
    indents: list[tuple[int, str, str]] = []
    inside: list[int] = []
    trailing: list[int] = []
    for at, (was, now) in enumerate(zip(passage, counterpart, strict=True), start=first):
        if was == now:
            continue
        if not was.strip() or not now.strip():
            trailing.append(at)  # a blank line's spaces
            continue
        if _indent(was) != _indent(now):
            indents.append((at, _indent(was), _indent(now)))
        if was.strip() != now.strip():
            inside.append(at)  # between its words
        if was[len(was.rstrip()) :] != now[len(now.rstrip()) :]:
            trailing.append(at)
    said = []
    if indents:
        widths = {(was, now) for _, was, now in indents}
        said.append(f"{_numbers([at for at, _, _ in indents])} re-indented")
        if len(widths) == 1:
            ((was, now),) = widths
            said[-1] += f" from {_indent_name(was)} to {_indent_name(now)}"
    if inside:
        said.append(f"spacing within {_numbers(inside)}")
    if trailing:
        said.append(f"trailing whitespace on {_numbers(trailing)}")
    return "; ".join(said)


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _indent_name(indent: str) -> str:
    """``8 spaces``, ``2 tabs``, ``1 tab and 4 spaces``, ``none``."""
    if not indent:
        return "none"
    tabs, spaces = indent.count("\t"), len(indent) - indent.count("\t")
    parts = [f"{tabs} tab{'s' * (tabs != 1)}"] if tabs else []
    if spaces:
        parts.append(f"{spaces} space{'s' * (spaces != 1)}")
    return " and ".join(parts)


def _count(lines: int) -> str:
    return f"{lines} line{'s' * (lines != 1)}"


def _numbers(lines: list[int]) -> str:
    """``line 7``, ``lines 7-9, 12``: consecutive lines as ranges."""
    runs: list[list[int]] = []
    for line in lines:
        if runs and runs[-1][1] == line - 1:
            runs[-1][1] = line
        else:
            runs.append([line, line])
    text = ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)
    return f"line{'s' * (len(lines) > 1)} {text}"


def drift_counts(drifts: Sequence[Drift | None]) -> dict[str, int]:
    """How many quotes have each status (every status named, zero included)."""
    counts = Counter(drift.status for drift in drifts if drift is not None)
    return {status.value: counts[status] for status in DriftStatus}
