"""What the review screen does when its reads arrive: the revision opened (or not), the stored
verdicts read, the quotes anchored. Each changes the session, then redraws only what it must."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from textual.worker import Worker, WorkerState

from screens.review.history import Location
from screens.safe import visible

if TYPE_CHECKING:
    from textual.app import App

    from db import StaleVerdict
    from evidence.model import Record
    from evidence.revision import CommitSummary, Revision
    from screens.review.loading import Loading, StoredState
    from screens.review.messages import Anchored, Loaded
    from screens.review.navigation import Navigation
    from screens.review.source import SourcePane
    from screens.review.verdicts import Verdicts
    from screens.session import ReviewSession
    from screens.widgets.record_pane import RecordPane
    from screens.widgets.source_view import SourceView


class ArrivalHost(Protocol):
    """What the arrivals need of the review screen."""

    session: ReviewSession
    location: Location
    filter: str
    revision: Revision | None
    revision_error: str | None
    remote: str | None
    commit: CommitSummary | None
    repo: Path
    stale: list[StaleVerdict]

    @property
    def app(self) -> App[object]: ...

    @property
    def reads(self) -> Loading: ...

    @property
    def verdicts(self) -> Verdicts: ...

    @property
    def moves(self) -> Navigation: ...

    @property
    def sources(self) -> SourcePane: ...

    @property
    def record_pane(self) -> RecordPane: ...

    @property
    def source_view(self) -> SourceView: ...

    @property
    def record(self) -> Record | None: ...

    def refresh_header(self) -> None: ...

    def fill_records(self) -> None: ...

    def update_rows(self, record_keys: set[str]) -> None: ...

    def show_record(self) -> None: ...


class Arrivals:
    """The review screen's handlers of what its reads bring."""

    def __init__(self, host: ArrivalHost) -> None:
        self.host = host

    def loaded(self, message: Loaded) -> None:
        """The revision is open, or could not be: anchoring starts, or the source pane says why."""
        host = self.host
        host.revision, host.revision_error = message.revision, message.error
        host.remote = message.remote
        host.commit = message.commit
        host.record_pane.revision_open = host.revision is not None
        host.record_pane.refresh_record()
        host.sources.show_quote()
        host.refresh_header()
        host.reads.loaded.set()
        if host.revision is not None:
            host.reads.anchor(host.session, host.revision)
        else:
            host.session.anchored = False
            host.source_view.show_message(
                f"cannot open the revision: {visible(host.revision_error or '?')}",
                title="Source",
            )

    def worker_changed(self, event: Worker.StateChanged) -> None:
        """A worker failed: say so (in the source pane when it was loading what it shows)."""
        if event.state is not WorkerState.ERROR:
            return
        error = event.worker.error
        text = f"{event.worker.group} failed: {type(error).__name__}: {error}"
        if event.worker.group in ("load", "anchor", "source"):
            self.host.source_view.show_message(visible(text), title="Source")
        self.host.app.notify(visible(text), severity="error", markup=False)

    def read_store(self) -> None:
        """Read the reviewer's verdicts on the writer thread (once the store opened)."""
        from screens.review.loading import read_verdicts  # needed once the screen is shown

        session = self.host.session
        self.host.verdicts.read(lambda store: read_verdicts(store, session), self.verdicts_read)

    def verdicts_read(self, verdicts: StoredState) -> None:
        """The reviewer's verdicts, read on the writer thread once the store opened."""
        host, session = self.host, self.host.session
        # events of verdicts given before this arrive after it, in order, and are applied then
        before, session.current = session.current, dict(verdicts.current)
        changed = {
            event.ref.record_key
            for key, event in (before | session.current).items()
            if before.get(key) != session.current.get(key)
        }
        session.set_others(verdicts.others)
        session.synced = verdicts.synced
        changed |= {event.ref.record_key for event in verdicts.others}
        host.stale = verdicts.stale
        moved = False
        if verdicts.position is not None and not host.moves.moved:
            found = session.find(verdicts.position)
            if found is not None and found != host.location.record:
                record = session.records[found]
                host.location = Location(found, 0 if record.quotes else None)
                moved = True
        if host.filter != "all" or moved:
            host.fill_records()
        else:  # redraw only the rows whose badge changed (none for a new database)
            host.update_rows(changed)
        shown = host.record
        if moved:
            host.show_record()
        elif host.stale or (shown and session.record_item(shown).key in changed):
            host.record_pane.stale = host.stale
            host.record_pane.refresh_record()
        host.verdicts.done_reading()
        host.refresh_header()  # after: the header says "reading verdicts…" until they are

    def anchored(self, message: Anchored) -> None:
        """Every quote anchored: the panes show it, and the store registers the review."""
        host, session = self.host, self.host.session
        session.anchors = message.anchors
        session.set_replays(message.replays)
        session.citations = message.citations
        host.sources.keep(message.sources)
        session.anchored = True
        host.fill_records()
        host.show_record()
        host.refresh_header()
        commit = host.revision.commit if host.revision is not None else None
        reportset, anchors = session.reportset, message.anchors
        repository, remote = str(host.repo.resolve()), host.remote
        citations = [cited for each in message.citations.values() for cited in each]
        host.verdicts.write(
            lambda store: store.register(
                reportset,
                anchors,
                revision=commit,
                repository=repository,
                remote=remote,
                citations=citations,
            )
        )
