"""Answers of drift that stand or fall once the commit lists are known (evidence/drift.py asks
``git log -L`` for every place in one walk, after every passage has an answer): a place chosen
in a passage's file holds it only when a commit wrote it there that also took it from its own
lines. A move within a file is one commit that changes both."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from evidence.drift_model import Drift
from evidence.git.history import CommitInfo

__all__ = ["MovedHere", "OwnLines"]


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
