"""Moves to other files (evidence/drift.py): passages gone from their files, or edited there,
looked up verbatim in the files written since the cited revision, as ``git blame -C`` looks."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from evidence.drift_commits import OwnLines
from evidence.drift_model import Drift, DriftStatus
from evidence.drift_windows import same_runs
from evidence.model import Anchor, LineRange
from evidence.verbatim import MOST_PLACES

__all__ = ["gone", "moved_out"]


def gone(
    anchors: Sequence[Anchor], places: Sequence[str | None], drifts: Sequence[Drift | None]
) -> list[int]:
    """The passages (their numbers) deleted from their files or changed there: each may have
    moved to another file."""
    return [
        number
        for number, drift in enumerate(drifts)
        if drift is not None
        and drift.status in (DriftStatus.DELETED, DriftStatus.FILE_DELETED, DriftStatus.CHANGED)
        and anchors[number].lines is not None
        and places[number] is not None
    ]


def moved_out(
    gone: Sequence[int],
    passages: Sequence[list[str]],
    found: Sequence[list[tuple[str, LineRange]]],
    drifts: list[Drift | None],
    held_before: Callable[[str], list[str]],
    floor: float,
) -> dict[int, OwnLines]:
    """Passages that stand verbatim in other files (`found`: every place) become moves there
    (the first MOST_PLACES listed), in the files that hold more copies of them than they did at
    the cited revision (`held_before`: a file's lines there, none when it was not): a copy there
    before is another passage (the same check in another module).

    A passage found in its file resembling it at least `floor` is moved only if one commit both
    changed its lines there and wrote the copy (a module split up, a like function left in its
    place); else it was edited there, and the copy is another's: those are returned, by number,
    for follow_anchors to tell once the commits are known."""
    edited: dict[int, OwnLines] = {}
    for number, passage, where in zip(gone, passages, found, strict=True):
        drift = drifts[number]
        assert drift is not None
        held = Counter(path for path, _ in where if path != drift.path)
        gained = {
            path
            for path, count in held.items()
            if count > len(same_runs(passage, held_before(path)))
        }
        others = tuple(place for place in where if place[0] in gained)[:MOST_PLACES]
        if others:
            path, span = others[0]
            moved = Drift(DriftStatus.MOVED, path, span, None, 100.0, elsewhere=others)
            if drift.status is DriftStatus.CHANGED and drift.score >= floor:
                edited[number] = OwnLines(drift, moved)
            drifts[number] = moved
    return edited
