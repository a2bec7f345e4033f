"""The review screen's reads, run off the event loop: open the revision, anchor every quote and
replay every search (thread workers posting their messages back to the part that asked,
screens/review/arrivals.py), and read the reviewer's verdicts (on the store's writer thread,
screens/review/writer.py).

The revision reader, rapidfuzz and the anchoring code are imported in the worker threads, not
before the screen is shown.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from screens.review.messages import Anchored, AnchorProgress, Loaded, ReadsStarted
from screens.session import ReviewSession

if TYPE_CHECKING:
    from textual.screen import Screen
    from textual.widget import Widget

    from db import Event, StaleVerdict, VerdictStore
    from db.gone import Was
    from evidence.revision import GrepHit, Revision, SourceFile

KEPT_SOURCES = 64  # files read by the anchorer kept for the source pane


def load_review(repo: Path, rev: str | None, revision: Revision | None = None) -> Loaded:
    """Open the revision (unless given), read its origin URL and its commit's subject, author
    and date."""
    from evidence.revision import Revision

    error, remote, commit = None, None, None
    if revision is None:
        try:
            revision = Revision.open(repo, rev)
        except Exception as exc:  # shown in the panes, never a traceback
            error = str(exc) or type(exc).__name__
    if revision is not None:
        # the tree listed here, once: the file finder and `/` ask for it on the event loop (a
        # failure is anchoring's to report: it lists the tree again)
        with contextlib.suppress(Exception):
            revision.entries()
        try:
            remote = revision.remote_url()
        except Exception:  # without a remote, permalinks cite path and commit
            remote = None
        try:
            commit = revision.commit_summary()
        except Exception:  # the header then shows the commit id alone
            commit = None
    return Loaded(revision, error, remote, commit)


@dataclass(frozen=True)
class StoredState:
    """The reviewer's state in the store: current verdicts and notes, position, stale verdicts."""

    current: dict[str, Event]
    position: str | None
    stale: list[StaleVerdict]
    others: list[Event] = field(default_factory=list)  # other reviewers' current verdicts
    synced: dict[str, object] | None = None  # what the last `assay sync` did
    what_was: dict[str, Was] = field(default_factory=dict)  # stale items, in words (db/gone.py)


#: stale verdicts said in words at launch (db/gone.py), at most
DESCRIBED = 2_000


def read_verdicts(store: VerdictStore, session: ReviewSession) -> StoredState:
    """Read the reviewer's verdicts, review position and stale verdicts, the other reviewers'
    verdicts and the last sync (on the writer thread)."""
    from db.events import find_stale
    from db.sync.state import last_sync

    everyone = store.current_all()  # once: `store.stale` would read it again (1 s at 600,000)
    stale = find_stale(everyone, session.reportset, session.reviewer)
    return StoredState(
        {e.item: e for e in everyone if e.reviewer == session.reviewer},
        store.position(session.review_key),
        stale,
        [e for e in everyone if e.reviewer != session.reviewer],
        last_sync(store),
        # the first ones only: the list shows 200 at a time, and a scan whose judged results
        # all went leaves tens of thousands, each a read (those past it say less)
        store.what_was(s.event.item for s in stale[:DESCRIBED]) if stale else {},
    )


def anchor_review(
    session: ReviewSession,
    revision: Revision,
    progress: Callable[[int, int], None],
    cache: Path | None = None,
) -> Anchored:
    """Anchor every quote, replay every search and check every cited path of the session's
    reports at the revision (``cache``: anchors kept on disk, evidence/anchor_cache.py)."""
    from evidence.anchoring import Anchorer, anchor_all
    from evidence.replay import replay

    # One process: forking worker processes from a thread of the running app (its event loop and
    # driver threads hold locks a child could inherit mid-use) risks a deadlock in the child.
    caching = None
    if cache is not None:
        from evidence.anchor_cache import CachingAnchorer

        # stored below, with the cited paths: an audit counts a system reviewed alone from them
        caching = CachingAnchorer(revision, directory=cache, workers=1, store=False)
    anchorer = caching or Anchorer(revision, workers=1)
    anchors = anchor_all(session.reportset, revision, progress=progress, anchorer=anchorer)
    replays: dict[tuple[str, int], list[GrepHit]] = {}
    for record in session.records:
        for search in record.searches:
            try:
                replays[(search.record, search.line)] = replay(search, revision)
            except Exception:  # a search that cannot run shows no hits
                replays[(search.record, search.line)] = []
    # every store item hashed here (a quote's key hashes its text), not on the event loop when
    # the header first counts the review's progress
    for record in session.records:
        session.item_keys(record)
    session.records_with_key("")  # and the records by key, which the first count looks up
    session.results.prepare()  # the results' other groupings, which `v` lists
    # the anchorer read every quoted file: keep them so moving between records needs no read
    sources: dict[str, SourceFile] = {}
    for quote in anchors:
        if quote.path not in sources and len(sources) < KEPT_SOURCES:
            source = sources[quote.path] = revision.read(quote.path, ending=not quote.role)
            _ = source.lines  # split here, not on the event loop when the file is first shown
    from evidence.citations import PathIndex, past_end, record_citations

    index = PathIndex(revision.paths(), revision.held, revision.root)
    citations = {
        (record.report, record.id): past_end(record_citations(record, index), revision.line_count)
        for record in session.records
        if record.citations
    }
    cited = tuple(path for paths in citations.values() for path in paths)
    if caching is not None and not (caching.hit and caching.cited == cited):
        from evidence.anchor_cache import keep

        quotes = [quote for record in session.reportset.records() for quote in record.quotes]
        keep(caching.directory, revision, [anchors[quote] for quote in quotes], cited)
    # what cites each file, worked out here: on the event loop it held up the first file shown
    # (a pass over every quote and citation of the review)
    from evidence.backlinks import backlinks_by_path

    backlinks = backlinks_by_path(anchors, session.reportset, index.matching)
    return Anchored(anchors, replays, sources, citations, backlinks)


class Loading:
    """The screen's reads, started once its first frame is whole: the store's first read (on the
    writer thread, by ``read_store``) and the revision (a worker of the screen posting `Loaded` to
    ``target``; anchoring's progress goes to the screen, for its header).

    The reads' threads import the revision reader and SQLite, holding the GIL: started while the
    first frame is still being laid out, they would slow it for nothing it shows. They start
    after the first layout that follows the mount, or after `START_AFTER` seconds at most.
    """

    START_AFTER = 0.25

    def __init__(
        self,
        target: Widget,
        read_store: Callable[[], object],
        *,
        repo: Path,
        rev: str | None,
        revision: Revision | None,
    ) -> None:
        self.target = target
        self.read_store = read_store
        self.repo, self.rev, self.revision = repo, rev, revision
        self.anchor_cache: Path | None = None  # where anchors are kept (an audit's systems)
        self.started = False
        self.loaded = asyncio.Event()  # the revision is open (or failed)

    @property
    def screen(self) -> Screen[object]:
        """The screen whose workers run the reads (the target's)."""
        return self.target.screen

    def schedule(self) -> None:
        """Start the reads after the next layout (call from the screen's on_mount)."""
        self.screen.screen_layout_refresh_signal.subscribe(self.screen, self._laid_out)
        self.screen.set_timer(self.START_AFTER, self.start)

    def _laid_out(self, _screen: Screen[object]) -> None:
        self.screen.call_after_refresh(self.start)

    def start(self) -> None:
        """Start the reads now (once)."""
        if self.started:
            return
        self.started = True
        screen = self.screen
        screen.screen_layout_refresh_signal.unsubscribe(screen)
        screen.post_message(ReadsStarted())
        self.read_store()
        screen.run_worker(
            self._load, thread=True, exclusive=True, group="load", exit_on_error=False
        )

    def _load(self) -> None:
        self.target.post_message(load_review(self.repo, self.rev, self.revision))

    def anchor(self, session: ReviewSession, revision: Revision) -> None:
        """Anchor every quote and replay every search in a worker (posts `Anchored`)."""
        screen, target = self.screen, self.target

        def progress(done: int, total: int) -> None:
            target.post_message(AnchorProgress(done, total))

        screen.run_worker(
            lambda: target.post_message(
                anchor_review(session, revision, progress, self.anchor_cache)
            ),
            thread=True,
            exclusive=True,
            group="anchor",
            exit_on_error=False,
        )

    async def settle(self) -> None:
        """Wait until the revision is open and anchoring and file reads are done."""
        await self.loaded.wait()
        for group in ("anchor", "source", "source-kept", "file-diff"):
            for worker in list(self.screen.workers):
                if worker.group == group and worker.is_running:
                    await worker.wait()
