"""Drift as `assay check --against` writes it: the lines under a drifted quote and the drift part
of the text output (the drift itself: evidence/drift.py)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from evidence.anchoring import diff_markup
from evidence.drift import Drift, DriftStatus, Relation
from evidence.drift_model import drift_counts
from evidence.model import LineRange
from evidence.text import clipped, escaped

if TYPE_CHECKING:
    from evidence.citations import CitedPath
    from evidence.drift_files import FileDrift

__all__ = [
    "cited_drift_counts",
    "cited_drift_text",
    "drift_details",
    "drift_text",
    "relation_note",
]


def _span(lines: LineRange | None) -> str:
    if lines is None:
        return "-"
    return str(lines[0]) if lines[0] == lines[1] else f"{lines[0]}-{lines[1]}"


def _where(drift: Drift) -> str:
    """Where the passage is now: ``path:lines``, and the other files holding it when it left."""
    where = f"{drift.path}:{_span(drift.lines)}" if drift.path else "file deleted"
    if drift.status is DriftStatus.UNREADABLE:
        where = drift.why or (
            f"{drift.path}: its text cannot be read here (binary or too large now, or not in"
            " this clone: Git LFS, a partial clone)"
        )
    if drift.status is DriftStatus.DELETED:
        where = f"{drift.path}: passage gone"
        if drift.near is not None:
            where += f" (its place: {_span(drift.near)})"
    if drift.elsewhere:
        others = [f"{path}:{_span(span)}" for path, span in drift.elsewhere[1:]]
        where += " (left its file" + "".join(f"; also {o}" for o in others) + ")"
    return where


def found_line(drift: Drift) -> str:
    """Where a quote not anchored at the cited revision is at the newer one (`Drift.found`)."""
    found = drift.found
    if found is None:
        return "not found there either"
    return f"found: {found.path}:{_span(found.lines)} ({found.match.value})"


def drift_details(drift: Drift) -> list[str]:
    """The indented lines under a drifted quote: where it is now, what differs, the commits."""
    out = []
    head = f"    {drift.status.value}: {_where(drift)}"
    if drift.renamed_from:
        head += f" (renamed from {drift.renamed_from})"
    if drift.whitespace:  # the same but for whitespace: a diff of words shows little
        head += f", only whitespace: {drift.whitespace}"
    elif drift.status is DriftStatus.CHANGED:
        head += f", score {drift.score:.0f}"
        if drift.quoted_unchanged:
            head += ", the quoted text unchanged"
    out.append(head)
    if drift.diff and not drift.whitespace:
        out.append(f"    diff:  {clipped(' '.join(diff_markup(drift.diff).split()), 400)}")
    for commit in drift.commits:
        subject = clipped(commit.subject, 72)
        out.append(f"    {commit.id[:10]} {commit.date[:10]} {commit.author}: {subject}")
    return [escaped(line) for line in out]


def relation_note(against: str, how: str | None) -> str:
    """What the drift's first line adds when REV does not descend from the cited revision."""
    if how == Relation.DIVERGED:
        return f" (diverged: {against[:12]} does not descend from the cited revision)"
    if how == Relation.ANCESTOR:
        return f" (ancestor: {against[:12]} is older than the cited revision)"
    if how == Relation.SHALLOW:
        return (
            f" (shallow clone: git cannot tell whether {against[:12]} descends from the cited"
            " revision, and lists only the commits it has; `git fetch --unshallow` reads all)"
        )
    return ""


def drift_text(
    against: str,
    labels: Sequence[str],
    drifts: Sequence[Drift | None],
    how: str | None = None,
) -> list[str]:
    """The drift part of `assay check --against`'s text: changed and deleted quotes first with
    their commits, then moved and renamed ones, then the counts per status (the last line).
    `labels` are the quotes' lines as already shown (escaped); `how` is the relation."""
    pairs = [(label, d) for label, d in zip(labels, drifts, strict=False) if d is not None]
    out = [f"drift to {against}{relation_note(against, how)}"]
    broken = [(label, d) for label, d in pairs if d.status.breaks]
    moved = [
        (label, d)
        for label, d in pairs
        if d.status is DriftStatus.MOVED or (d.status is DriftStatus.UNCHANGED and d.renamed_from)
    ]
    for title, group in (
        ("changed or deleted since the cited revision (or not readable)", broken),
        ("moved or renamed, same text", moved),
    ):
        if group:
            out.extend(("", f"{len(group)} {title}:"))
            for label, drift in group:
                out.append(label)
                out.extend(drift_details(drift))
    unanchored = [(label, d) for label, d in pairs if d.status is DriftStatus.NOT_ANCHORED]
    if unanchored:
        there = sum(d.found is not None for _, d in unanchored)
        said = f"{len(unanchored)} not found at the cited revision, {there} found at {against[:12]}"
        out.extend(("", f"{said}:"))
        for label, drift in unanchored:
            out.append(label)
            out.append(escaped(f"    {found_line(drift)}"))
    counts = drift_counts([d for _, d in pairs])
    out.append("")
    shown = (
        f"{n} {status.replace('_', ' ')}"
        for status, n in counts.items()
        if n or status != DriftStatus.UNREADABLE  # rare: named when it happened
    )
    out.append("drift: " + ", ".join(shown))
    return out


#: the order a cited file's statuses are counted in (`FileDrift.status`)
CITED_STATUSES = (
    "unchanged",
    "renamed",
    "moved",
    "edited",
    "changed",
    "deleted",
    "file_deleted",
    "unreadable",
)


#: files cited whole and edited listed in the text (a long review cites hundreds)
MAX_EDITED = 50


def cited_drift_counts(drifts: Sequence[FileDrift | None]) -> dict[str, int]:
    """How many cited files (each path and lines once) have each status, every one named."""
    seen = {(d.path, d.lines): d.status for d in drifts if d is not None}
    counts = Counter(seen.values())
    return {status: counts[status] for status in CITED_STATUSES}


def cited_drift_text(
    citations: Sequence[CitedPath], drifts: Sequence[FileDrift | None]
) -> list[str]:
    """The cited files' part of `assay check --against`'s drift: those whose named lines changed
    or went, or that went, then those renamed or moved, then those cited whole and edited (a
    line each), then the counts (the last line; nothing when no cited file was followed). Each
    file once, with the records citing it."""
    cited_by: dict[tuple[str, LineRange | None], list[CitedPath]] = {}
    followed: dict[tuple[str, LineRange | None], FileDrift] = {}
    for cited, drift in zip(citations, drifts, strict=False):
        if drift is not None:
            key = (drift.path, drift.lines)
            followed[key] = drift
            cited_by.setdefault(key, []).append(cited)
    if not followed:
        return []

    def label(key: tuple[str, LineRange | None], mark: str) -> str:
        path, lines = key
        named = f"{path}:{_span(lines)}" if lines is not None else path
        first, *more = cited_by[key]
        others = f" and {len(more)} more" if more else ""
        return escaped(f"{mark} {named}  cited by {first.record} ({first.report}:{first.line})"
                       f"{others}")  # fmt: skip

    broken = [key for key, d in followed.items() if d.breaks]
    moved = [key for key, d in followed.items() if d.status in ("renamed", "moved")]
    edited = [key for key, d in followed.items() if d.status == "edited"]
    out: list[str] = []
    for title, keys, mark in (
        ("cited file(s) or lines changed or gone since the cited revision", broken, "✗"),
        ("cited file(s) or lines renamed or moved, same text", moved, "→"),
    ):
        if keys:
            out.extend(("", f"{len(keys)} {title}:"))
            for key in keys:
                out.append(label(key, mark))
                out.extend(drift_details(followed[key].drift))
    if edited:
        out.extend(("", f"{len(edited)} cited file(s) edited since (cited whole, no lines named):"))
        for key in edited[:MAX_EDITED]:
            edit = followed[key].drift
            out.append(label(key, "~"))
            where = f"now {edit.path}, " if edit.renamed_from else ""
            if not edit.commits:  # the direct diff to a revision not descending from it
                out.append(escaped(f"    edited: {where}its text differs"))
                continue
            newest = edit.commits[0]
            out.append(
                escaped(
                    f"    edited: {where}{len(edit.commits)} commit(s), the newest"
                    f" {newest.id[:10]} {newest.date[:10]}: {clipped(newest.subject, 60)}"
                )
            )
    if len(edited) > MAX_EDITED:
        out.append(f"… {len(edited) - MAX_EDITED} more edited (--format json lists every one)")
    counts = cited_drift_counts(list(followed.values()))
    shown = ", ".join(f"{n} {status.replace('_', ' ')}" for status, n in counts.items() if n)
    out.extend(("", f"cited files: {shown}"))
    return out
