"""Drift in the record pane's commit rows (the commit each shows, read for its modal) and in a
note (`N`: the drift in one line)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from screens.review.messages import CommitRead
from screens.widgets.cited_rows import cited_paths
from screens.widgets.drift_rows import cited_drifts_line, commit_content, drift_summary

if TYPE_CHECKING:
    from pathlib import Path

    from evidence.git.changes import CommitInfo
    from evidence.model import Record
    from evidence.revision import Revision
    from screens.review.state import Part, ReviewState
    from screens.session import ReviewSession


def row_commit(
    session: ReviewSession, record: Record | None, row_id: str
) -> tuple[CommitInfo, list[str], str] | None:
    """A commit row's commit (``commit-N-K`` under quote N, ``filecommit-N-K`` under cited file
    N), the paths its diff is shown for, and its modal's title; None when it shows none."""
    n, k = (int(part) for part in row_id.split("-")[1:3])
    if record is None:
        return None
    if row_id.startswith("filecommit-"):
        cited = cited_paths(session, record)
        checked = cited[n][1] if n < len(cited) else None
        if checked is None:
            return None
        found = session.cited_drifts.get((checked.path, checked.lines))
        drift, path, what = (found.drift if found else None), checked.path, "cited file"
    elif n < len(record.quotes):
        drift = session.drifts.get(record.quotes[n])
        path, what = record.quotes[n].path, "quote"
    else:
        return None
    if drift is None or k >= len(drift.commits):
        return None
    commit = drift.commits[k]
    paths = list(dict.fromkeys(p for p in (drift.renamed_from, drift.path, path) if p))
    return commit, paths, f"commit {commit.id[:10]} · {what} [{n + 1}]"


def read_commit(part: Part, repo: Path, commit: CommitInfo, paths: list[str], title: str) -> None:
    """Read ``commit``'s message and its diff of ``paths`` in a worker; ``part`` gets them back
    (`CommitRead`), to show in a modal titled ``title``."""

    def read() -> None:
        from evidence.git.history import commit_patch
        from evidence.git.repo import open_repo

        opened = open_repo(repo)
        try:
            message, patch = commit_patch(opened, commit, paths)
        finally:
            opened.close()
        head = f"{commit.id}\n{commit.author} · {commit.date}\n\n"
        part.post_message(CommitRead(title, commit_content(head + message, patch)))

    part.screen.run_worker(read, thread=True, exclusive=True, group="commit", exit_on_error=False)


def note_line(state: ReviewState, against: Revision | None) -> str | None:
    """The drift at ``against`` of what verdict keys act on, in one line for its note: the
    quote's, else the record's cited files'; None when none is known there."""
    quote = state.target_quote()
    drift = state.session.drifts.get(quote) if quote is not None else None
    record = state.record if quote is None else None
    files = state.session.record_cited_drifts(record) if record is not None else []
    if against is not None and drift is None and files:  # the record: its cited files
        return cited_drifts_line(files, against.short)
    if drift is None or against is None:
        return None
    return "drift " + drift_summary(drift, against.short)
