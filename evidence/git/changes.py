"""What a history is made of, as drift reads it: commits, file changes between a commit and one
of its parents, zero-context hunks, and line ranges carried across them with the rules of git's
line-log.c (``git log -L``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["CommitInfo", "FileChange", "Hunk", "Ranges", "map_ranges", "union"]

#: 0-based half-open line ranges, sorted, disjoint, none empty (git's range_set)
Ranges = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class CommitInfo:
    """A commit as drift reports it."""

    id: str
    subject: str
    author: str
    date: str  # author date, ISO 8601
    parents: tuple[str, ...] = ()

    def as_json(self) -> dict[str, str]:
        """The ``{"id", "subject", "author", "date"}`` of `assay check --against`."""
        return {"id": self.id, "subject": self.subject, "author": self.author, "date": self.date}


@dataclass(frozen=True)
class Hunk:
    """One hunk of a zero-context diff: 0-based starts and counts, as xdiff gives them."""

    old_start: int
    old_count: int
    new_start: int
    new_count: int


@dataclass(frozen=True)
class FileChange:
    """What one commit did to one file against its parent number `parent` (0: the first):
    paths before and after (None: added / deleted)."""

    commit: CommitInfo
    old_path: str | None
    new_path: str | None
    status: str  # git's raw status letter: M, A, D, R, T ...
    hunks: tuple[Hunk, ...] = ()
    parent: int = 0
    binary: bool = False  # git printed no lines: "Binary files ... differ"

    @property
    def opaque(self) -> bool:
        """Its lines are not in the diff: a binary change, or a type change (a file become a
        link or a submodule), which git prints as a deletion and a creation."""
        return self.binary or self.status == "T"


def union(*ranges: Iterable[tuple[int, int]]) -> Ranges:
    """Sorted, empty ranges dropped, overlapping or adjacent ones merged (git merges both)."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(r for part in ranges for r in part if r[0] < r[1]):
        if merged and merged[-1][1] >= start:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return tuple(merged)


def _difference(ranges: Ranges, cuts: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for start, end in ranges:
        pieces = [(start, end)]
        for cut_start, cut_end in cuts:
            next_pieces = []
            for a, b in pieces:
                if cut_end <= a or b <= cut_start:
                    next_pieces.append((a, b))
                    continue
                if a < cut_start:
                    next_pieces.append((a, cut_start))
                if cut_end < b:
                    next_pieces.append((cut_end, b))
            pieces = next_pieces
        out.extend(p for p in pieces if p[0] < p[1])
    return out


def _old(hunk: Hunk) -> tuple[int, int]:
    return hunk.old_start, hunk.old_start + hunk.old_count


def _new(hunk: Hunk) -> tuple[int, int]:
    return hunk.new_start, hunk.new_start + hunk.new_count


def map_ranges(ranges: Ranges, hunks: Sequence[Hunk], *, forward: bool) -> tuple[Ranges, bool]:
    """`ranges` carried across one file diff, and whether a hunk touched them.

    Backward (new to old) is line-log.c's range_set_map_across_diff: the hunks overlapping a
    range are touched, the rest of the range shifts by the hunks before it, and the touched
    hunks' other side is added. Forward applies the same rule with the sides swapped."""
    sides = (_new, _old) if forward else (_old, _new)
    pairs = [(sides[0](h), sides[1](h)) for h in hunks]
    # pairs: (other side, this side); `ranges` are on this side
    touched = [
        (other, this)
        for other, this in pairs
        if any(not (this[1] <= a or b <= this[0]) for a, b in ranges)
    ]
    # not merged: a deletion inside a range splits it, and the part after it shifts (git's
    # range_set_difference keeps the two pieces apart)
    rest = sorted(_difference(ranges, [this for _, this in touched]))
    shifted: list[tuple[int, int]] = []
    index, offset = 0, 0
    for start, end in rest:
        while index < len(pairs) and start >= pairs[index][1][0]:
            other, this = pairs[index]
            offset += (other[1] - other[0]) - (this[1] - this[0])
            index += 1
        shifted.append((start + offset, end + offset))
    return union(shifted, (other for other, _ in touched)), bool(touched)
