"""The review screen's reads, run off the event loop: open the revision, anchor every quote and
replay every search (thread workers: each returns the message the screen handles), and read the
reviewer's verdicts (on the store's writer thread, screens/review/writer.py).

git (GitPython), rapidfuzz and the anchoring code are imported here, in the worker thread, so the
first frame never waits for them.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from screens.review.messages import Anchored, Loaded
from screens.review.session import ReviewSession

if TYPE_CHECKING:
    from db import Event, StaleVerdict, VerdictStore
    from evidence.revision import GrepHit, Revision, SourceFile

KEPT_SOURCES = 64  # files read by the anchorer kept for the source pane


def load_review(repo: Path, rev: str | None, revision: Revision | None = None) -> Loaded:
    """Open the revision (unless given) and read its origin URL."""
    from evidence.revision import Revision

    error, remote = None, None
    if revision is None:
        try:
            revision = Revision.open(repo, rev)
        except Exception as exc:  # noqa: BLE001 - shown in the panes, never a traceback
            error = str(exc) or type(exc).__name__
    if revision is not None:
        # the tree listed here, once: the file finder and `/` ask for it on the event loop (a
        # failure is anchoring's to report: it lists the tree again)
        with contextlib.suppress(Exception):
            revision.entries()
        try:
            remote = revision.remote_url()
        except Exception:  # noqa: BLE001 - without a remote, permalinks cite path and commit
            remote = None
    return Loaded(revision, error, remote)


@dataclass(frozen=True)
class Verdicts:
    """The reviewer's state in the store: current verdicts and notes, position, stale verdicts."""

    current: dict[str, Event]
    position: str | None
    stale: list[StaleVerdict]


def read_verdicts(store: VerdictStore, session: ReviewSession) -> Verdicts:
    """Read the reviewer's verdicts, review position and stale verdicts (on the writer thread)."""
    return Verdicts(
        store.current(session.reviewer),
        store.position(session.review_key),
        store.stale(session.reportset, session.reviewer),
    )


def anchor_review(
    session: ReviewSession, revision: Revision, progress: Callable[[int, int], None]
) -> Anchored:
    """Anchor every quote and replay every search of the session's reports at the revision."""
    from evidence.anchoring import Anchorer, anchor_all
    from evidence.replay import replay

    # One process: forking worker processes from a thread of the running app (its event loop and
    # driver threads hold locks a child could inherit mid-use) risks a deadlock in the child.
    anchorer = Anchorer(revision, workers=1)
    anchors = anchor_all(session.reportset, revision, progress=progress, anchorer=anchorer)
    replays: dict[tuple[str, int], list[GrepHit]] = {}
    for record in session.records:
        for search in record.searches:
            try:
                replays[(search.record, search.line)] = replay(search, revision)
            except Exception:  # noqa: BLE001 - a search that cannot run shows no hits
                replays[(search.record, search.line)] = []
    # the anchorer read every quoted file: keep them so moving between records needs no read
    sources: dict[str, SourceFile] = {}
    for quote in anchors:
        if quote.path not in sources and len(sources) < KEPT_SOURCES:
            source = sources[quote.path] = revision.read(quote.path)
            _ = source.lines  # split here, not on the event loop when the file is first shown
    return Anchored(anchors, replays, sources)
