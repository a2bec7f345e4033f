"""Drift: where each passage quoted at the cited revision is at a newer revision, and which
commits changed it.

`follow_anchors` is a pure function of anchors at the cited revision, that revision and the
newer one (`Revision`s; the history is read through GitPython, evidence/git/history.py): a UI
can call it from a worker. Lines are carried through the diffs of one path of commits from the
cited revision to the newer one (or through the direct diff when the newer one does not descend
from it); that only says where to look. A status comes from the text: `unchanged` and `moved`
only when the lines found at the newer revision are the passage's own lines, verbatim;
otherwise it is looked for again in its file (evidence/drift_refind.py: a verbatim place:
moved; a fuzzy one: changed, with a score and a diff), then, when it left its file, verbatim in
the other files (moved there). The commits of every passage still there are those
``git log -L`` lists at its new lines, computed for all passages in one walk of the history.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from functools import partial

from evidence import drift_across
from evidence.anchoring import Anchorer
from evidence.drift_commits import Carried, MovedHere, OwnLines, with_forward
from evidence.drift_focus import focused
from evidence.drift_inside import follow_inside, inside_submodule
from evidence.drift_model import Drift, DriftStatus
from evidence.drift_refind import DELETED_BELOW, Refinder
from evidence.git.history import (
    History,
    Ranges,
    Relation,
    extend_history,
    kept_history,
    relation,
    written_files,
)
from evidence.git.repo import open_repo
from evidence.model import Anchor, FileState, LineRange, Quote, Tier
from evidence.revision import Revision
from evidence.verbatim import verbatim_places

__all__ = [
    "DELETED_BELOW",
    "Drift",
    "DriftStatus",
    "Relation",
    "follow_all",
    "follow_anchors",
    "relation_of",
]

#: a file gone, and not renamed, continues in the added file holding this share of its lines
SUCCESSOR_SHARE = 0.3


def _anchored_path(anchor: Anchor, cited: Revision) -> str | None:
    """The file the anchor's lines are in, as the anchorer found it (symlinks followed, the
    tree's spelling); None inside a submodule: its history is another repository's
    (evidence/drift_inside.py follows it)."""
    if anchor.lines is None or anchor.file is not FileState.OK or anchor.match is Tier.MISSING:
        return None
    return cited.resolve_link(anchor.quote.path, ending=not anchor.quote.role)


def relation_of(cited: Revision, against: Revision) -> Relation:
    """How `against` stands to `cited`: it descends from it, it is an ancestor, or neither."""
    repo = open_repo(cited.repo_path)
    try:
        return relation(repo, cited.commit, against.commit)
    finally:
        repo.close()


def follow_anchors(
    anchors: Sequence[Anchor],
    cited: Revision,
    against: Revision,
    *,
    cancel: threading.Event | None = None,
    floor: float = 80.0,
) -> list[Drift | None]:
    """The drift of each anchor's passage from `cited` to `against`, in order; the entries not
    reached when `cancel` is set are None."""
    places = [_anchored_path(anchor, cited) for anchor in anchors]
    repo = open_repo(cited.repo_path)
    try:
        paths = sorted({p for p in places if p is not None})
        with kept_history(repo, cited.commit, against.commit, paths) as history:
            follower = _Follower(
                history,
                cited,
                against,
                Anchorer(against, floor=floor, workers=1),
                lambda: written_files(repo, cited.commit, against.commit),
            )
            follower.read_ahead({p for p in places if p is not None})
            out: list[Drift | None] = []
            own_lines: dict[int, OwnLines] = {}  # by passage: its own lines set aside
            forward: dict[int, Carried] = {}  # by passage: where the path forward took its lines
            moves: dict[int, MovedHere] = {}  # by passage: a move within its file, to be confirmed
            for anchor, path in zip(anchors, places, strict=True):
                if cancel is not None and cancel.is_set():
                    out.append(None)
                    continue
                follower.own_lines, follower.moved_here = None, None
                out.append(follower.follow(anchor, path))
                forward[len(out) - 1] = follower.carried
                if follower.own_lines is not None:
                    own_lines[len(out) - 1] = follower.own_lines
                if follower.moved_here is not None:
                    moves[len(out) - 1] = follower.moved_here
            # inside a submodule: another repository's history, so its text (no commit list)
            inner = {n for n, a in enumerate(anchors) if out[n] and inside_submodule(a, cited)}
            for number in inner:
                at = follow_inside(
                    anchors[number], cited, against, follower.anchorer, DELETED_BELOW
                )
                out[number] = at
            gone = drift_across.gone(anchors, places, out)
            if gone:  # a move is to a file written since the cited revision, as git blame -C sees
                passages = [follower.cited_lines(anchors[n], places[n]) for n in gone]
                holding = drift_across.Holding(passages, partial(follower.lines_of, against))
                texts = holding.reading(follower.texts_at_against(follower.written()))
                found = verbatim_places(passages, texts, most=None)  # each file's copies counted
                before = partial(follower.lines_of, cited)
                floor = follower.anchorer.floor
                edited = drift_across.moved_out(gone, passages, found, out, before, floor)
                for number, own in edited.items():
                    own_lines.setdefault(number, own)  # edited there, or moved: its commits tell
                changed = partial(follower._changed, renamed=None)  # moved and edited there
                drift_across.edited_out(gone, passages, out, holding, before, floor, changed)
            # the commits of every passage still there: git log -L's at its new lines, in one walk
            there = [
                (number, drift)
                for number, drift in enumerate(out)
                if drift is not None and drift.path and drift.lines and number not in inner
            ]
            extend_history(repo, history, sorted({d.path for _, d in there if d.path}))
            kept = list(own_lines.values())
            wanted = [(d.path or "", _ranges(d.lines or (1, 1))) for _, d in there]
            wanted += [(own.drift.path or "", _ranges(own.drift.lines or (1, 1))) for own in kept]
            logs = history.line_logs(wanted)  # one walk for both
    finally:
        repo.close()
    for (number, drift), commits in zip(there, logs[: len(there)], strict=True):
        out[number] = replace(drift, commits=tuple(commits))
        if number in moves and not moves[number].stands(drift, commits):
            out[number] = moves[number].instead
    for (number, own), commits in zip(own_lines.items(), logs[len(there) :], strict=True):
        chosen = out[number]
        if chosen is not None and own.is_it(chosen, commits):
            out[number] = replace(own.drift, commits=tuple(commits))
    # git log -L misses a deletion at an end of the lines (a line deleted, written again)
    with_forward(out, [number for number, _ in there], forward, history.commits)
    return focused(out, anchors)  # a quote of part of its lines: the diff about it


def follow_all(
    anchors: Mapping[Quote, Anchor],
    cited: Revision,
    against: Revision,
    *,
    cancel: threading.Event | None = None,
) -> dict[Quote, Drift]:
    """`follow_anchors` keyed by quote (the shape `anchor_all` returns); {} when cancelled."""
    quotes = list(anchors)
    drifts = follow_anchors([anchors[q] for q in quotes], cited, against, cancel=cancel)
    if any(drift is None for drift in drifts):
        return {}
    return {quote: drift for quote, drift in zip(quotes, drifts, strict=True) if drift}


class _Follower(Refinder):
    """Finds one passage at a time at the newer revision (its commits are added after)."""

    def __init__(
        self,
        history: History,
        cited: Revision,
        against: Revision,
        anchorer: Anchorer,
        written_files: Callable[[], list[str]],
    ) -> None:
        self.history = history
        self.cited = cited
        self.against = against
        self.anchorer = anchorer
        self._cache = {}
        self._successors: dict[str, str | None] = {}
        self._added_files: list[tuple[str, list[str]]] | None = None
        self._added_by_oid: dict[str, str] | None = None  # a blob's first path added since
        self._written: list[str] | None = None
        self.written_files = written_files
        self.own_lines = None
        self.moved_here = None
        #: the last passage followed: where the path forward took its lines
        self.carried = Carried(None, None, ())

    def written(self) -> list[str]:
        """The files added or modified since the cited revision (read once)."""
        if self._written is None:
            self._written = self.written_files()
        return self._written

    def cited_lines(self, anchor: Anchor, path: str | None) -> list[str]:
        """The lines of an anchored passage at the cited revision."""
        assert anchor.lines is not None and path is not None
        return self._lines_at(self.cited, path, anchor.lines)

    def read_ahead(self, paths: set[str]) -> None:
        """Read the files that differ between the two revisions in one stream each."""
        before, after = self.cited.entries(), self.against.entries()
        changed = [
            path
            for path in sorted(paths)
            if path in before and (path not in after or after[path].oid != before[path].oid)
        ]
        for _ in self.cited.scan(changed):
            pass
        for _ in self.against.scan([path for path in changed if path in after]):
            pass

    def _twin(self, path: str) -> str | None:
        """A file added since the cited revision that is `path` as it was there, byte for byte
        (when `path` is gone: the history led elsewhere, to a copy edited since)."""
        before, after = self.cited.entries(), self.against.entries()
        if path in after or path not in before:
            return None
        if self._added_by_oid is None:
            self._added_by_oid = {}
            for other, entry in sorted(after.items()):
                if other not in before:
                    self._added_by_oid.setdefault(entry.oid, other)
        return self._added_by_oid.get(before[path].oid)

    def _same_blob(self, path: str, now: str) -> bool:
        before, after = self.cited.entries().get(path), self.against.entries().get(now)
        return before is not None and after is not None and before.oid == after.oid

    def _readable(self, path: str) -> bool:
        entry = self.against.entries().get(path)
        return entry is not None and entry.kind == "blob"

    def follow(self, anchor: Anchor, path: str | None) -> Drift:
        if path is None or anchor.lines is None:
            return Drift(DriftStatus.NOT_ANCHORED)
        first, last = anchor.lines
        now, ranges, touched = self.history.follow(path, ((first - 1, last),))
        carried = (ranges[0][0] + 1, ranges[-1][1]) if ranges else None
        self.carried = Carried(now, carried, tuple(touched))
        again = now is None and self._readable(path)
        if again:
            now, ranges = path, ()  # deleted on the way, there again: looked for afresh
        successor = now is None or not self._readable(now)
        if successor:
            now, ranges = self._successor(path), ()
        if now is None:
            return Drift(DriftStatus.FILE_DELETED, commits=tuple(touched))
        if now != path and not self._same_blob(path, now):
            twin = self._twin(path)
            if twin is not None:  # renamed twice over (rename/rename kept both): the copy
                now, ranges = twin, ((first - 1, last),)
        renamed = path if now != path else None
        span = (ranges[0][0] + 1, ranges[-1][1]) if ranges else None
        if span == anchor.lines and self._same_blob(path, now):
            return self._same(anchor.lines, now, span, renamed)  # the same bytes, the same lines
        now_file = self.against.read(now)
        if not now_file.text_here:  # binary or too large now, or not in the clone
            why = now_file.problem or ""
            return Drift(
                DriftStatus.UNREADABLE, now, None, renamed, commits=tuple(touched), why=why
            )
        passage = self._lines_at(self.cited, path, anchor.lines)
        if span is not None and self._lines_at(self.against, now, span) == passage:
            if span != anchor.lines and self._lines_at(self.against, now, anchor.lines) == passage:
                # verbatim at its own lines as well as where the diffs carried it (git aligned
                # a repeated line with its other copy): the claim's lines still hold
                span = anchor.lines
            return self._same(anchor.lines, now, span, renamed)
        drift = self._refind(anchor.lines, passage, now, span, renamed, touched, successor)
        if self.moved_here is not None:
            near = self._cut_at(path, anchor.lines)  # where it stood
            place = self.moved_here.moved.lines or (0, 0)
            if again or (near is not None and near[0] <= place[0] and place[1] <= near[1]):
                self.moved_here = None  # written again where it stood (a revert): it is back
            else:
                instead = replace(self.moved_here.instead, near=near)
                self.moved_here = replace(self.moved_here, instead=instead)
        if drift.status is DriftStatus.DELETED and drift.near is None and not successor:
            drift = replace(drift, near=self._cut_at(path, anchor.lines))
        return drift

    def _cut_at(self, path: str, cited: LineRange) -> LineRange | None:
        """Where a passage whose every line was deleted stood at the newer revision: the lines
        that were either side of it, carried there (one of them when the other is gone)."""
        first, last = cited
        neighbours = []
        if first > 1:
            _, above, _ = self.history.follow(path, ((first - 2, first - 1),))
            neighbours.append(above[-1][1] if above else None)
        if last < len(self.lines_of(self.cited, path)):
            _, below, _ = self.history.follow(path, ((last, last + 1),))
            neighbours.append(below[0][0] + 1 if below else None)
        known = sorted(line for line in neighbours if line is not None)
        return (known[0], known[-1]) if known else None

    def _successor(self, path: str) -> str | None:
        """The file added since the cited revision that holds most of the lines of `path` (a
        file gone, not paired by rename detection: split up, or edited on the way), when that is
        at least SUCCESSOR_SHARE of them."""
        if path not in self._successors:
            mine = {line.strip() for line in self.lines_of(self.cited, path)}
            mine = {line for line in mine if len(line) >= 8}
            best, share = None, SUCCESSOR_SHARE
            for other, lines in self._added():
                held = len(mine & {line.strip() for line in lines}) / max(1, len(mine))
                if held >= share:
                    best, share = other, held
            self._successors[path] = best
        return self._successors[path]

    def _added(self) -> list[tuple[str, list[str]]]:
        if self._added_files is None:
            before = self.cited.entries()
            added = [path for path in self.written() if path not in before]
            self._added_files = list(self.texts_at_against(added))
        return self._added_files

    def texts_at_against(self, paths: list[str]) -> Iterator[tuple[str, list[str]]]:
        """The lines of the text files at `paths` at the newer revision, read in one stream."""
        for path, _ in self.against.scan(paths):
            source = self.against.read(path)
            if source.state is FileState.OK and source.text:
                yield path, source.lines


def _ranges(span: LineRange) -> Ranges:
    return ((span[0] - 1, span[1]),)
