"""Drift's second look: a passage whose lines, carried through the history, no longer hold it
verbatim, looked for again in its file at the newer revision (moved, edited in place, moved and
edited, or deleted), never at a place that its copies at the cited revision went to.

`Refinder` is the part of drift's follower that reads lines and decides; the follower (in
evidence/drift.py) gives it the two revisions, the history and the anchorer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from evidence.anchoring import char_diff
from evidence.anchoring.forms import quote_forms
from evidence.drift_commits import MovedHere, OwnLines, judged_by
from evidence.drift_model import Drift, DriftStatus, changed_drift
from evidence.drift_windows import (
    counterpart_run,
    fitted,
    holds_in_order,
    most_alike_run,
    same_runs,
    similarity,
)
from evidence.model import LineRange, Quote, Tier

if TYPE_CHECKING:
    from evidence.anchoring import Anchorer
    from evidence.git.history import CommitInfo, History
    from evidence.revision import Revision

__all__ = ["DELETED_BELOW", "Refinder"]

#: a passage whose lines are still there but resemble it less than this (0-100) is deleted
DELETED_BELOW = 50


class Refinder:
    """Reads the files at both revisions (once each) and finds a passage again in its file."""

    history: History
    cited: Revision
    against: Revision
    anchorer: Anchorer
    _cache: dict[tuple[str, str], list[str]]
    #: the last passage followed: its own lines set aside for a place elsewhere (or None)
    own_lines: OwnLines | None
    #: the last passage followed: deleted, and its text found elsewhere in its file
    moved_here: MovedHere | None

    def _lines_at(self, revision: Revision, path: str, span: LineRange) -> list[str]:
        return self.lines_of(revision, path)[span[0] - 1 : span[1]]

    def lines_of(self, revision: Revision, path: str) -> list[str]:
        """The lines of the file at `path` at `revision` (none when it is not there)."""
        key = (revision.commit, path)
        if key not in self._cache:
            self._cache[key] = revision.read(path).lines
        return self._cache[key]

    def _same(self, cited: LineRange, path: str, span: LineRange, renamed: str | None) -> Drift:
        status = DriftStatus.UNCHANGED if span == cited else DriftStatus.MOVED
        return Drift(status, path, span, renamed, 100.0)

    def _refind(
        self,
        cited: LineRange,
        passage: list[str],
        path: str,
        span: LineRange | None,
        renamed: str | None,
        touched: list[CommitInfo],
        successor: bool = False,
    ) -> Drift:
        """The passage looked for in its file at the newer revision, near where its lines went
        (`successor`: in the file that took over from its own, gone)."""
        verbatim = same_runs(passage, self.lines_of(self.against, path))
        # not where its copies at the cited revision went (a check repeated in each route)
        theirs = self._copies_at(renamed or path, cited, passage, path, span) if verbatim else set()
        mine = [run for run in verbatim if run not in theirs]
        if mine:  # the nearest place holding it, line for line
            at = span[0] if span is not None else cited[0]
            place = min(mine, key=lambda s: (abs(s[0] - at), s[0]))
            moved = self._same(cited, path, place, renamed)
            if span is None and judged_by(touched, successor):
                instead = Drift(DriftStatus.DELETED, path, None, renamed, commits=tuple(touched))
                self.moved_here = MovedHere(moved, frozenset(c.id for c in touched), instead)
            return moved
        if verbatim and span is not None:
            # only its copies hold it: it is at its own lines, edited ("before" holds them too)
            score = similarity(passage, self._lines_at(self.against, path, span))
            if score >= DELETED_BELOW:
                return self._changed(passage, path, span, score, renamed)
            return Drift(
                DriftStatus.DELETED, path, None, renamed, score, None, tuple(touched), near=span
            )
        text = "\n".join(passage)
        # the file at the cited revision without the passage: what else was there
        before = list(self.lines_of(self.cited, renamed or path))
        before[cited[0] - 1 : cited[1]] = ["\0"] * (cited[1] - cited[0] + 1)
        if successor:
            # its file is gone: in the file that took over most of it, the most similar lines
            near, score = most_alike_run(passage, self.lines_of(self.against, path), None, before)
            if near is not None and score >= self.anchorer.floor:
                return self._changed(passage, path, near, score, renamed)
            return Drift(
                DriftStatus.DELETED, path, None, renamed, score, None, tuple(touched), near=near
            )
        if span is None:
            # every line of it was deleted: a passage merely like it is another one (a sibling
            # edited too); the same text but for whitespace or formatting (verified tiers) is it
            forms = quote_forms(text)
            paths = [path] if forms.exact else []  # as written: a link's new target is a change
            same = self.anchorer.verified_places(forms, "", paths, rendered=False)
            known = set(before)  # lines of other passages, there before: not this one
            same = [
                p for p in same if not known >= set(self._lines_at(self.against, path, p.lines))
            ]
            if same:
                closest = min(same, key=lambda other: abs(other.lines[0] - cited[0]))
                return self._changed(passage, path, closest.lines, 100.0, renamed)
            # moved within the file and edited: lines like it, holding one of its own lines
            # that no other passage of the file had (indented anew, as code moved into a block)
            own = {line.strip() for line in passage} - {line.strip() for line in before} - {""}
            lines = self.lines_of(self.against, path)
            near, score = most_alike_run(passage, lines, None, before, own)
            if near is not None and score >= self.anchorer.floor:
                return self._changed(passage, path, near, score, renamed)
            return Drift(DriftStatus.DELETED, path, None, renamed, commits=tuple(touched))
        run = self._lines_at(self.against, path, span)
        score = similarity(passage, run) if holds_in_order(run, passage) else 0.0
        if score >= DELETED_BELOW:
            # lines added among its own, all there: where the history carried it, not a window
            # of its length that a table's like lines make look closer
            return self._changed(passage, path, span, score, renamed)
        near, score = counterpart_run(passage, self.lines_of(self.against, path), span, before)
        if near is not None and score >= self.anchorer.floor:  # edited in place
            chosen = self._changed(passage, path, near, score, renamed)
            # beside its own lines, like lines (a table's rows) no commit of theirs wrote are
            # other passages: its own lines, as alike as a deleted passage's are not, kept aside
            alike = similarity(passage, self._lines_at(self.against, path, span))
            if near != span and alike >= DELETED_BELOW:
                return self._set_aside(self._changed(passage, path, span, alike, renamed), chosen)
            return chosen
        # its own lines, edited more: the passage unless it moved (told in follow_anchors)
        kept: Drift | None = None
        run = self._lines_at(self.against, path, near) if near is not None else []
        if near is not None and score >= DELETED_BELOW and not set(run) <= set(before):
            kept = self._changed(passage, path, near, score, renamed)
        anchored = self.anchorer.anchor_here(Quote(text, path, span, 0, 0, "", 0))[0]
        found = anchored.lines
        if anchored.match is not Tier.MISSING and found is not None:
            run = self._lines_at(self.against, path, found)
            if not set(run) <= set(before):  # not only other passages' lines
                chosen = self._changed(passage, path, found, anchored.score, renamed)
                return self._set_aside(kept, chosen)
        elsewhere, score = most_alike_run(passage, self.lines_of(self.against, path), None, before)
        if elsewhere is not None and score >= self.anchorer.floor:  # moved and edited
            chosen = self._changed(passage, path, elsewhere, score, renamed)
            return self._set_aside(kept, chosen)
        # the lines are still there, edited past the anchorer's floor; those left only of what
        # the rest of the file held (a branch's `return`) are not the passage
        run = self._lines_at(self.against, path, span)
        score = similarity(passage, run)
        if score < DELETED_BELOW or set(run) <= set(before):
            return Drift(
                DriftStatus.DELETED, path, None, renamed, score, None, tuple(touched), near=span
            )
        return self._changed(passage, path, span, score, renamed)

    def _copies_at(
        self, old: str, cited: LineRange, passage: list[str], now: str, span: LineRange | None
    ) -> set[LineRange]:
        """Where the passage's copies at the cited revision (its lines elsewhere in its file `old`)
        stand in `now`, carried by the history; not those among its own lines (`span`)."""
        places = set()
        for first, last in same_runs(passage, self.lines_of(self.cited, old)):
            if (first, last) == cited:
                continue
            at, ranges, _ = self.history.follow(old, ((first - 1, last),))
            if at == now and ranges:
                place = (ranges[0][0] + 1, ranges[-1][1])
                if span is None or place[1] < span[0] or place[0] > span[1]:
                    places.add(place)
        return places

    def _set_aside(self, own: Drift | None, chosen: Drift) -> Drift:
        """`chosen`, a place elsewhere in the file, with the passage's own lines kept aside
        (`own_lines`) for follow_anchors to tell which one it is once their commits are known."""
        if own is not None and own.lines != chosen.lines:
            self.own_lines = OwnLines(own, chosen)
        return chosen

    def _changed(
        self, passage: list[str], path: str, lines: LineRange, score: float, renamed: str | None
    ) -> Drift:
        lines = fitted(passage, self.lines_of(self.against, path), lines)
        counterpart = self._lines_at(self.against, path, lines)
        if [line.split() for line in counterpart] == [line.split() for line in passage]:
            score = 100.0  # re-indented, trailing spaces: only the whitespace differs
        diff = char_diff(" ".join(passage).split(), " ".join(counterpart).split())
        return changed_drift(passage, counterpart, path, lines, score, diff, renamed)
