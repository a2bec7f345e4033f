"""What the review screen does when its reads arrive: the revision opened (or not), the stored
verdicts read, the quotes anchored. Each changes the session and the review's state, then redraws
only what it must. The reads post their messages back to this part."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, cast

from screens.review.history import Location
from screens.review.loading import Loading
from screens.review.messages import Written
from screens.review.replies import ReadStored, Registered
from screens.review.state import Part, ReviewState, while_shown
from screens.safe import visible

#: a file's path and a 1-based line in it
Place = tuple[str, int]

if TYPE_CHECKING:
    from collections.abc import Collection, Mapping

    from db.carry import Carried
    from db.store import VerdictStore
    from screens.review.header import Header
    from screens.review.loading import StoredState
    from screens.review.messages import Anchored, AnchorProgress, Loaded
    from screens.review.verdicts import Verdicts


class Arrivals(Part):
    """The review screen's reads (`Loading`) and its handlers of what they bring."""

    def __init__(
        self,
        state: ReviewState,
        verdicts: Verdicts,
        header: Header,
        *,
        repo: Path,
        rev: str | None,
    ) -> None:
        super().__init__()
        self.state, self.session, self.repo = state, state.session, repo
        moves = self.moves = verdicts.moves
        self.sources, self.verdicts, self.drift = moves.sources, verdicts, moves.drift
        self.header = header
        self.reads = Loading(self, self.read_store, repo=repo, rev=rev, revision=state.revision)

    @while_shown
    def on_loaded(self, message: Loaded) -> None:
        """The revision is open, or could not be: anchoring starts, or the source pane says why."""
        state, session = self.state, self.session
        state.update(
            revision=message.revision,
            revision_error=message.error,
            remote=message.remote,
            commit=message.commit,
        )
        self.moves.record_pane.refresh_record()
        self.sources.show_quote()
        self.reads.loaded.set()
        from evidence.sarif.invocations import incomplete_runs  # after the first frame

        for notice in incomplete_runs(list(session.reportset.reports)):  # a scan that failed
            self.notify(visible(notice), severity="warning", markup=False, timeout=20)
        if state.revision is not None:
            self.reads.anchor(session, state.revision)
        else:
            session.anchored = False
            session.unchecked = "the revision cannot be opened"
            self.moves.fill_records()  # their quotes' marks: not checked, not pending
            self.moves.record_pane.refresh_record()
            self.sources.refresh_quote_info()
            self.sources.view.show_message(
                f"cannot open the revision: {visible(state.revision_error or '?')}",
                title="Source",
            )

    def read_store(self) -> None:
        """Read the reviewer's verdicts on the writer thread (once the store opened)."""
        from screens.review.loading import read_verdicts  # needed once the screen is shown

        session = self.session
        self.verdicts.writer.submit(lambda store: read_verdicts(store, session), ReadStored(), self)

    @while_shown
    def on_written(self, message: Written) -> None:
        """The store's first work (`read_store`) is done."""
        if message.error is None:
            self.verdicts_read(cast("StoredState", message.result))
        else:
            self.verdicts.failed(message.error, reading=True)

    def verdicts_read(self, verdicts: StoredState) -> None:
        """The reviewer's verdicts, read on the writer thread once the store opened."""
        state, session, moves = self.state, self.session, self.moves
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
        state.stale = verdicts.stale
        state.gone = {
            s.event.item: (s.reason, verdicts.what_was.get(s.event.item)) for s in verdicts.stale
        }
        moved = False
        if verdicts.position is not None and not moves.moved:
            found = session.find(verdicts.position)
            if found is not None and found != state.location.record:
                record = session.records[found]
                state.location = Location(found, 0 if record.quotes else None)
                moved = True
        if state.filter != "all" or moved:
            moves.fill_records()
        else:  # redraw only the rows whose badge changed (none for a new database)
            moves.records_pane.update_records(changed)
        shown = state.record
        if moved:
            moves.show_record()
        elif state.stale or (shown and session.record_item(shown).key in changed):
            moves.record_pane.stale = state.stale
            moves.record_pane.refresh_record()
        self.verdicts.done_reading()
        self.header.refresh()  # after: the header says "reading verdicts…" until they are

    @while_shown
    def on_anchor_progress(self, message: AnchorProgress) -> None:
        # here, not on the screen: after the last progress, never after `Anchored` (one queue)
        self.header.refresh(anchoring=(message.done, message.total))

    @while_shown
    def on_anchored(self, message: Anchored) -> None:
        """Every quote anchored: the panes show it, the store registers the review, and the
        drift asked for is computed."""
        session = self.session
        session.anchors = message.anchors
        session.set_replays(message.replays)
        session.citations = message.citations
        links = message.backlinks
        self.sources.keep(message.sources, None if links is None else (message.anchors, links))
        session.anchored = True
        self.moves.fill_records()
        self.moves.show_record()
        self.header.refresh()
        opened = self.state.revision
        commit = opened.commit if opened is not None else None
        root = opened.repo_path if opened is not None else self.repo  # the work tree's top
        reportset, anchors = session.reportset, message.anchors
        repository, remote = str(self.repo.resolve()), self.state.remote
        citations = [cited for each in message.citations.values() for cited in each]
        # here: once anchored, not before the first frame
        from db.items import registered_elsewhere
        from evidence.sarif.rebase import is_sarif_report

        scans = {report.identity for report in reportset.reports if is_sarif_report(report)}
        reviewer = session.reviewer

        def lines_after(old: str, wanted: Mapping[str, Collection[int]]) -> dict[Place, int]:
            # an earlier scan's lines at this revision, through git's diff (on the writer
            # thread, once a scan moved); a commit this clone lacks tells nothing apart
            from evidence.line_map import lines_after as through_the_diff
            from evidence.revision import RevisionError

            if commit is None:
                return {}
            try:
                return through_the_diff(root, old, commit, wanted)
            except RevisionError:
                return {}

        def renamed(old: str, paths: Collection[str]) -> dict[str, str]:
            # the files of an earlier scan renamed since (on the writer thread, once a scan's
            # findings went from a file and none of them came in it)
            from evidence.line_map import renames
            from evidence.revision import RevisionError

            if commit is None:
                return {}
            try:
                return renames(root, old, commit, paths)
            except RevisionError:
                return {}

        def register(store: VerdictStore) -> tuple[dict[str, str], Carried | None]:
            elsewhere = registered_elsewhere(store.sources(), scans, repository, remote)
            # before registering: the items are the last scan's until then; never from
            # another repository's run of the same name
            followed = [
                report
                for report in reportset.reports
                if report.identity in scans and report.identity not in elsewhere
            ]
            carried = None
            if followed:
                carried = store.carry(
                    followed,
                    reviewer=reviewer,
                    revision=commit,
                    lines_after=lines_after,
                    renamed=renamed,
                )
            store.register(
                reportset,
                anchors,
                revision=commit,
                repository=repository,
                remote=remote,
                citations=citations,
            )
            return elsewhere, carried

        self.verdicts.write(register, Registered())
        self.drift.anchored()
