"""Answers of drift that stand or fall once the commit lists are known (evidence/drift.py asks
``git log -L`` for every place in one walk, after every passage has an answer): a place chosen
in a passage's file holds it only when a commit wrote it there that also took it from its own
lines. A move within a file is one commit that changes both."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from evidence.drift_model import Drift, DriftStatus
from evidence.git.history import CommitInfo
from evidence.model import LineRange

__all__ = ["Carried", "MovedHere", "OwnLines", "judged_by", "with_forward"]


@dataclass(frozen=True)
class OwnLines:
    """A passage's own lines, edited where the history carried them, resembling it less than
    the floor, set aside for a place more like it elsewhere in its file (`elsewhere`)."""

    drift: Drift  # changed, at its own lines
    elsewhere: Drift  # changed, at the place chosen

    def is_it(self, chosen: Drift, commits: Sequence[CommitInfo]) -> bool:
        """Its own lines (their ``git log -L``: `commits`) are the passage when the place
        elsewhere (still `chosen`) was written by none of the commits that changed them: another
        passage, like it, added beside."""
        if chosen.lines != self.elsewhere.lines or chosen.path != self.elsewhere.path:
            return False  # made a move or a deletion since
        return bool(commits) and not {c.id for c in chosen.commits} & {c.id for c in commits}


@dataclass(frozen=True)
class MovedHere:
    """A passage every line of which was deleted, found verbatim elsewhere in its file
    (`moved`: moved, or unchanged at its own line numbers): there only if a commit that deleted
    it (`deleted_by`) wrote that place; else a copy another commit wrote (the same check added
    to a new route) and it is `instead` (deleted)."""

    moved: Drift
    deleted_by: frozenset[str]
    instead: Drift

    def stands(self, chosen: Drift, commits: Sequence[CommitInfo]) -> bool:
        """Whether `chosen` (with `commits`, its place's ``git log -L``) is still the move."""
        if chosen.lines != self.moved.lines or chosen.path != self.moved.path:
            return True  # another answer since (a move to another file): not this one's to judge
        return bool({c.id for c in commits} & self.deleted_by)


@dataclass(frozen=True)
class Carried:
    """Where the path of commits forward took a passage's lines: the file (None: deleted), the
    lines (None: every one deleted) and the commits whose diffs touched them, newest first."""

    path: str | None
    lines: LineRange | None
    touched: tuple[CommitInfo, ...]

    def holds(self, found: Drift) -> bool:
        """Whether the commits it saw touch the passage are the answer's too: its text back at
        its own lines, among those the path forward took (or, every line deleted, written
        again). A changed passage keeps git log -L's: where like lines drew the answer away
        from the lines carried, the commits that touched those are another passage's."""
        if not self.touched or found.status is not DriftStatus.UNCHANGED or found.lines is None:
            return False
        if found.path != self.path:
            return False
        return self.lines is None or (
            found.lines[0] <= self.lines[1] and self.lines[0] <= found.lines[1]
        )


def with_forward(
    drifts: list[Drift | None],
    numbers: Sequence[int],
    carried: Mapping[int, Carried],
    history: Sequence[CommitInfo],
) -> None:
    """Add to each passage of `numbers` its `carried` commits (no merge) that its ``git log -L``
    lacks, when they are its (`Carried.holds`), newest first by their place in `history`."""
    order = {commit.id: number for number, commit in enumerate(history)}
    for number in numbers:
        answer = drifts[number]
        if answer is None or not carried[number].holds(answer):
            continue
        known = {commit.id for commit in answer.commits}
        extra = [
            commit
            for commit in carried[number].touched
            if commit.id not in known and len(commit.parents) < 2 and commit.id in order
        ]
        if extra:
            listed = sorted([*answer.commits, *extra], key=lambda commit: order.get(commit.id, -1))
            drifts[number] = replace(answer, commits=tuple(listed))


def judged_by(touched: Sequence[CommitInfo], successor: bool) -> bool:
    """Whether the commits that deleted a passage tell a move within its file from a copy: in
    its own file, through no merge (a merge's diff shows a branch's move as its own, where
    ``git log -L`` names the branch's commit)."""
    return bool(touched) and not successor and all(len(c.parents) < 2 for c in touched)
