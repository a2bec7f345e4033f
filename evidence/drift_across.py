"""Moves to other files (evidence/drift.py): passages gone from their files, or edited there,
looked up verbatim in the files written since the cited revision, as ``git blame -C`` looks;
then those still gone, looked up edited there (`edited_out`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence

from evidence.drift_commits import OwnLines
from evidence.drift_model import Drift, DriftStatus
from evidence.drift_windows import most_alike_run, same_runs, similarity, with_own_lines
from evidence.model import Anchor, LineRange
from evidence.verbatim import MOST_PLACES

__all__ = ["Holding", "edited_out", "gone", "moved_out"]


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


#: a line of a passage long enough to tell it from other code (a brace, `else:` are not)
_TELLING = 8
#: a telling line held by more files written since than this tells nothing of where it went
_FEW_FILES = 16


def telling(passage: list[str]) -> set[str]:
    """The passage's lines, stripped, long enough to tell it from other code."""
    return {line.strip() for line in passage if len(line.strip()) >= _TELLING}


class Holding:
    """Which files written since the cited revision hold each telling line of the passages
    gone, noted as the verbatim search reads them (`reading`), so that `edited_out` reads only
    those files again (`lines_at`: a file's lines at the newer revision)."""

    def __init__(self, passages: Sequence[list[str]], lines_at: Callable[[str], list[str]]):
        self.wanted: set[str] = set().union(*map(telling, passages))
        self.lines_at = lines_at
        self.files: dict[str, list[str]] = {}  # a telling line: the files holding it
        self.order: dict[str, int] = {}  # a file holding one: when it was read

    def reading(self, texts: Iterable[tuple[str, list[str]]]) -> Iterator[tuple[str, list[str]]]:
        for path, lines in texts:
            held = self.wanted.intersection(map(str.strip, lines)) if self.wanted else ()
            for line in held:
                self.files.setdefault(line, []).append(path)
                self.order.setdefault(path, len(self.order))
            yield path, lines

    def few(self, line: str) -> list[str]:
        """The files holding ``line`` when they are few (a line in many, an import, tells
        nothing of where a passage went), else none."""
        paths = self.files.get(line, [])
        return paths if len(paths) <= _FEW_FILES else []

    def candidates(self, mine: set[str]) -> list[str]:
        """The files holding one of the lines `mine` that few files hold, in the order read."""
        found = {path for line in mine for path in self.few(line)}
        return sorted(found, key=self.order.__getitem__)


def edited_out(
    gone: Sequence[int],
    passages: Sequence[list[str]],
    drifts: list[Drift | None],
    holding: Holding,
    held_before: Callable[[str], list[str]],
    floor: float,
    changed: Callable[[list[str], str, LineRange, float], Drift],
) -> None:
    """Passages still gone from their files (deleted there, or their file deleted) after
    `moved_out`, moved to another file and edited since (a module split up, its code edited
    later), become `changed` there: the lines most like the passage, at least `floor` alike,
    in a file written since (`holding`) holding one of the passage's telling lines that it did
    not hold at the cited revision (`held_before`) and that few such files hold; of such files
    the most alike, the first of equals. A run of lines the file held before is another
    passage."""
    for number, passage in zip(gone, passages, strict=True):
        drift = drifts[number]
        mine = telling(passage)
        still = (DriftStatus.DELETED, DriftStatus.FILE_DELETED)
        if drift is None or drift.status not in still or not mine:
            continue
        best: tuple[float, str, LineRange] | None = None
        for path in holding.candidates(mine):
            if path == drift.path:
                continue  # its own file was searched already
            before = held_before(path)
            new = mine - {line.strip() for line in before}
            if not any(path in holding.few(line) for line in new):
                continue  # none of its lines new there that few files hold: another passage's
            lines = holding.lines_at(path)
            near, score = most_alike_run(passage, lines, None, before, new)
            if near is not None and score >= floor and (best is None or score > best[0]):
                best = (score, path, near)
        if best is not None:
            score, path, near = best
            lines = holding.lines_at(path)
            wider = with_own_lines(mine, lines, near)
            if wider != near:  # scored as shown
                score = similarity(passage, lines[wider[0] - 1 : wider[1]])
            drifts[number] = changed(passage, path, wider, score)
