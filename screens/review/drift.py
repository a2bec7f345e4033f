"""The review screen's drift part: what became of each quoted passage at a newer revision (REV).

REV comes from ``assay review --against`` or the dialog `A` opens. Drift needs every anchor at
the cited revision, so it is computed once anchoring is done, in a thread worker (evidence/
drift_files.py's `follow_with_cited`: the quotes and the files cited) that posts `DriftComputed`
back to this part (a failure raises `DriftFailed`, which the screen's one worker-failure route
hands to `failed`). The source
pane can show REV (`t`) with the passage marked at its new place; a commit row under a quote
opens the commit.
Verdicts stay tied to the cited revision: this part never changes what they are saved with.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual.content import Content

from screens.review.messages import CommitRead, DriftComputed, FileFollowed, QuoteAtRev, Redraw
from screens.review.rev_quotes import RevQuotes, rev_phrase
from screens.review.state import Part, ReviewState, while_shown
from screens.safe import visible
from screens.widgets.cited_rows import cited_paths
from screens.widgets.drift_rows import (
    CITED_SYMBOLS,
    DRIFT_STYLES,
    cited_drift_summary,
    drift_counts_said,
    drift_diff_content,
)

if TYPE_CHECKING:
    from evidence.drift import Drift
    from evidence.drift_files import FileDrift
    from evidence.model import Quote
    from evidence.revision import Revision, SourceFile
    from screens.widgets.record_pane import RecordPane
    from screens.widgets.source_lines import SourceMarks


class DriftFailed(Exception):
    """The drift against REV could not be computed (raised in its worker)."""

    def __init__(self, rev: str, error: str) -> None:
        super().__init__(error)
        self.rev, self.error = rev, error


class DriftPart(Part):
    """Drift against REV for the review screen (one REV at a time)."""

    def __init__(
        self, state: ReviewState, record_pane: RecordPane, repo: Path, against: str | None
    ) -> None:
        super().__init__()
        self.state, self.session, self.record_pane, self.repo = (
            state,
            state.session,
            record_pane,
            repo,
        )
        self.wanted = against  # the REV asked for: computed once anchoring is done
        self.against: Revision | None = None  # REV, open, once its drift is known
        self.against_name = ""  # REV as the reviewer gave it (a branch, a tag, an id)
        self.computing = False
        self.showing_against = False  # the source pane shows REV rather than the cited revision
        self.relation = "descendant"  # REV against the cited revision: descendant, diverged...
        # files opened by path that the record does not cite, followed to REV (None: not a
        # file to follow); the one being followed (one at a time: a follow walks the history)
        self.opened_drifts: dict[str, FileDrift | None] = {}
        self._following: str | None = None
        # files opened at REV by its path (its finder's, grep's), each traced back to the cited
        # file it is (None: none, written on the way)
        self.counterparts: dict[str, FileDrift | None] = {}
        self.rev_quotes = RevQuotes(self)  # quotes not anchored at the cited revision, at REV

    # --- computing ---------------------------------------------------------------------------

    def header_label(self) -> str:
        """What the header adds: ``drift vs 8df75ac`` (``…`` while a REV is being computed)."""
        shown = self.against
        if self.wanted and (shown is None or (self.computing and self.wanted != shown.commit)):
            return f"drift vs {self.wanted[:12]}…"
        if shown is None:
            return ""
        # said only when REV does not descend from the cited revision
        how = "" if self.relation == "descendant" else f" ({self.relation})"
        return f"drift vs {shown.short}{how}"

    def ask(self) -> None:
        """Ask for REV in a dialog, then compute the drift against it."""
        from screens.drift_dialogs import AgainstDialog

        def answered(rev: str | None) -> None:
            if rev:
                self.start(rev)

        self.app.push_screen(AgainstDialog(self.wanted or "HEAD"), answered)

    def start(self, rev: str) -> None:
        self.wanted = rev
        if self.session.anchored and self.state.revision is not None:
            self._run()
        else:
            self.notify("drift is computed once every quote is anchored", timeout=3)
        self.post_message(Redraw(header=True))

    def anchored(self) -> None:
        """Every quote is anchored: compute the drift asked for, if any."""
        if self.wanted and self.state.revision is not None:
            self._run()

    def _run(self) -> None:
        assert self.state.revision is not None and self.wanted
        cited, repo, rev = self.state.revision, self.repo, self.wanted
        anchors = dict(self.session.anchors)
        citations = [cited for each in self.session.citations.values() for cited in each]
        self.computing = True

        def work() -> None:
            from evidence.drift import relation_of
            from evidence.drift_files import follow_with_cited
            from evidence.revision import Revision

            try:
                against = Revision.open(repo, rev)
            except Exception as error:  # said in a notice, never a traceback
                raise DriftFailed(rev, str(error) or "unknown revision") from error
            try:
                quotes = list(anchors)  # and the cited files, in one walk of the history
                found, files = follow_with_cited(
                    [anchors[quote] for quote in quotes], citations, cited, against
                )
                drifts = {q: drift for q, drift in zip(quotes, found, strict=True) if drift}
                against.entries()  # REV's tree read here, not when its finder first opens
                how = relation_of(cited, against).value
            except Exception as error:  # said in a notice
                against.close()
                raise DriftFailed(rev, f"{type(error).__name__}: {error}") from error
            self.post_message(DriftComputed(rev, against, drifts, how, files))

        self.screen.run_worker(
            work, thread=True, exclusive=True, group="drift", exit_on_error=False
        )

    def failed(self, failure: DriftFailed) -> None:
        """The drift against REV could not be computed: said in a notice."""
        if failure.rev != self.wanted:  # an earlier REV's thread ended after another was asked
            return
        self.computing = False
        self.wanted = self.against.commit if self.against is not None else None
        self.notify(
            visible(f"drift against {failure.rev}: {failure.error}"),
            severity="error",
            markup=False,
        )
        self.post_message(Redraw(header=True))

    def on_drift_computed(self, message: DriftComputed) -> None:
        if message.rev != self.wanted or not self.screen_up:  # an earlier REV's, or too late
            message.against.close()
            return
        self.computing = False
        if self.against is not None:
            self.against.close()
        self.against = message.against
        self.against_name = message.rev
        self.relation = message.relation
        self.session.drifts = message.drifts
        self.session.cited_drifts = message.cited
        self.opened_drifts, self._following, self.counterparts = {}, None, {}
        self.rev_quotes.clear()
        self.follow_opened()  # a file opened before the drift was known
        self.record_pane.against = message.against.short
        self.showing_against = False
        said = drift_counts_said(list(message.drifts.values()), list(message.cited.values()))
        self.notify(visible(f"{self.header_label()}: {said}"), markup=False)
        if message.relation == "shallow":  # git cannot see the history between them
            from evidence.drift_report import relation_note

            note = relation_note(message.against.commit, message.relation)
            said = f"drift vs {message.against.short}{note}"
            self.notify(visible(said), severity="warning", markup=False, timeout=15)
        self.post_message(Redraw(header=True, records=True, record=True, source=True))

    async def settle(self) -> None:
        """Wait for the drift and commit workers running (for tests and tools)."""
        for worker in list(self.workers):
            if worker.group in ("drift", "commit", "follow") and worker.is_running:
                await worker.wait()

    def close(self) -> None:
        if self.against is not None:
            self.against.close()

    # --- the source pane at REV --------------------------------------------------------------

    def drift_of_quote(self) -> Drift | None:
        quote = self.state.quote
        return self.session.drifts.get(quote) if quote is not None else None

    def toggle_source(self) -> bool:
        """Show the current quote's file at REV (its passage marked), or back at the cited one;
        False (said in a notice) when there is no drift yet."""
        if self.against is None:
            self.notify("no drift yet: A asks for a revision to compare with", timeout=3)
            return False
        self.showing_against = not self.showing_against
        return True

    def cited_drift_opened(self) -> FileDrift | None:
        """The drift at REV of the file the source pane shows, when the record cites it (opened
        from its row in the record pane); None for a quote, or a file opened otherwise."""
        record, opened = self.state.record, self.state.opened
        if record is None or opened is None or self.against is None or self.state.opened_at_against:
            return None
        for path, checked in cited_paths(self.session, record):
            if path == opened and checked is not None:
                return self.session.cited_drifts.get((checked.path, checked.lines))
        return None

    def file_drift_opened(self) -> FileDrift | None:
        """The drift at REV of the file opened by path: a cited file's, or one followed on `t`
        (the finder's, grep's, a reference's); None for a quote, or a file not followed yet."""
        if self.state.opened_at_against:  # REV's file: followed from nothing
            return None
        found = self.cited_drift_opened()
        if found is None and self.state.opened is not None and self.against is not None:
            found = self.opened_drifts.get(self.state.opened)
        return found

    def follow_opened(self) -> None:
        """Follow the file opened by path to REV in a worker (`FileFollowed`), unless the
        record cites it or it was followed already: a file the finder or grep opened is said
        and shown at REV as a cited one is."""
        path, against, cited = self.state.opened, self.against, self.state.revision
        if path is None or against is None or cited is None or self.cited_drift_opened():
            return
        rev_path = self.state.opened_at_against  # traced back to the cited file it is
        if path in (self.counterparts if rev_path else self.opened_drifts):
            return
        if self._following is not None:
            return  # after the one being followed (files opened in a row: the last)
        self._following = path

        def work() -> None:
            from evidence.citations import CitedPath, CitedState
            from evidence.drift_files import cited_counterpart, follow_cited

            wanted = CitedPath("", "", "", path, 0, CitedState.PRESENT)
            try:
                if rev_path:
                    found = cited_counterpart(path, cited, against)
                else:
                    found = follow_cited([wanted], cited, against).get((path, None))
            except Exception:  # git could not tell: said in the source pane, not raised
                found = None
            self.post_message(FileFollowed(against.commit, path, found, rev_path=rev_path))

        self.screen.run_worker(work, thread=True, group="follow", exit_on_error=False)

    @while_shown
    def on_file_followed(self, message: FileFollowed) -> None:
        if self.against is None or message.against != self.against.commit:
            return  # followed to a REV no longer shown
        self._following = None
        if message.rev_path:
            self.counterparts[message.path] = message.drift
            if message.drift is not None:  # followed, as the cited file it is
                self.opened_drifts[message.drift.path] = message.drift
        else:
            self.opened_drifts[message.path] = message.drift
        opened = self.state.opened, self.state.opened_at_against
        if opened == (message.path, message.rev_path):
            self.post_message(Redraw(opened=True))
        else:
            self.follow_opened()  # the file opened since

    @while_shown
    def on_quote_at_rev(self, message: QuoteAtRev) -> None:
        if self.against is not None and message.against == self.against.commit:
            self.rev_quotes.keep(message)
            self.post_message(Redraw(source=True))

    def _unanchored(self) -> Quote | None:
        """The quote shown, when it has no lines at the cited revision to follow: it is looked
        for at REV instead (`RevQuotes`)."""
        quote = self.state.quote
        if quote is None or self.state.opened is not None:
            return None
        drift = self.session.drifts.get(quote)
        return quote if drift is not None and drift.status.value == "not_anchored" else None

    def _shown_drift(self) -> Drift | None:
        """The drift of what the source pane shows: the cited file opened, or the quote."""
        if self.state.opened is not None:
            found = self.file_drift_opened()
            return found.drift if found is not None else None
        return self.drift_of_quote()

    def source_at_against(self) -> tuple[Revision, str] | None:
        """The revision and path the source pane shows for the current quote (or the cited file
        opened), when it shows REV (None: the cited revision's file, as without drift)."""
        if not self.showing_against or self.against is None:
            return None
        if self.state.opened is not None and self.rev_only() is not None:
            return self.against, self.state.opened  # REV's file, by its path there
        unanchored = self._unanchored()
        if unanchored is not None:
            place = self.rev_quotes.place(unanchored)
            return (self.against, place[0]) if place is not None else None
        drift = self._shown_drift()
        if drift is None or drift.path is None or drift.status.value == "file_deleted":
            return None
        return self.against, drift.path

    def quote_phrase(self, key: str) -> Content | None:
        """What the line under the source says of the current quote's drift, or of the cited
        file opened (``key``: the one that shows REV); None without drift or for a passage
        unchanged."""
        if self.against is None:
            return None
        rev_only = self.rev_only()
        if rev_only is not None:  # REV's file
            return rev_phrase(f"  + {rev_only.removesuffix('…')}", key, self.showing_against)
        if self.state.opened is not None:
            found = self.file_drift_opened()
            if found is None:
                return None
            drift, status = found.drift, found.status  # a file's words: edited, renamed
        else:
            quoted, unanchored = self.drift_of_quote(), self._unanchored()
            if unanchored is not None:  # looked for at REV
                said = self.rev_quotes.phrase(unanchored, self.against.short)
                if not said:  # not looked for yet
                    offer = f"  {key}: look for it at {self.against.short}"
                    return Content.styled(offer, "$text-muted") if key else None
                return rev_phrase(said, key, self.showing_against)
            if quoted is None:
                return None
            drift, status = quoted, quoted.status.value
        if status in ("unchanged", "not_anchored"):
            return None
        symbol = CITED_SYMBOLS[status]
        said = f"  {symbol} {status.replace('_', ' ')} at {self.against.short}"
        if drift.near is not None and drift.lines is None:  # the pane's title may cut it
            said += f" (its place: {drift.near[0]}-{drift.near[1]})"
        opened = self.state.opened
        if opened is not None and drift.path and drift.path != opened:  # renamed on the way
            said += f", now {visible(drift.path)}"
        hint = ""
        if key:
            hint = f", {key}: back" if self.showing_against else f", {key}: see it"
        return Content.assemble(
            (said, DRIFT_STYLES.get(symbol, "$text-accent")), (hint, "$text-muted")
        )

    def against_label(self) -> str:
        """``@8df75ac (main)``: REV's short id and the name the reviewer gave (not an id)."""
        assert self.against is not None
        short, name = self.against.short, self.against_name
        if not name or self.against.commit.startswith(name.lower()):
            return f"@{short}"
        return f"@{short} ({name if len(name) <= 24 else name[:23] + '…'})"

    def shown_label(self) -> str:
        """``@8df75ac (main)`` while the source pane shows REV, else ``@802776d`` (cited)."""
        if self.showing_against and self.against is not None:
            return self.against_label()
        return f"@{self.state.revision.short}" if self.state.revision is not None else ""

    def rev_only(self) -> str | None:
        """The source pane's file opened at REV by REV's path, while no file of the cited
        revision is known to be it: what it is said to be, and shown as, at REV."""
        opened = self.state.opened
        if opened is None or not self.state.opened_at_against or self.against is None:
            return None
        if self.counterparts.get(opened, True) is not None:  # traced back to it soon, or being
            return "finding it at the cited revision…"
        return "not at the cited revision"

    def against_message(self) -> str | None:
        """What the source pane says for a file it cannot show: at REV, a quote's (or a file
        opened) there no more; at the cited revision, one opened at REV that is not there
        (None: the file is shown)."""
        rev_only = self.rev_only()
        if rev_only is not None and not self.showing_against:
            assert self.against is not None
            return f"{self.shown_label()}: {rev_only}; t shows it at {self.against.short}"
        if not self.showing_against or self.against is None or rev_only is not None:
            return None
        at = self.against_label()
        opened = self.state.opened
        if opened is not None:
            found = self.file_drift_opened()
            if found is None:
                if opened in self.opened_drifts:
                    return f"{at}: this file cannot be followed there; t shows the cited revision"
                return f"{at}: following the file there…"
            if found.drift.path is None or found.status == "file_deleted":
                what = "cited file" if self.cited_drift_opened() is not None else "file"
                return f"{at}: the {what} was deleted; t shows the cited revision"
            return None
        if self.state.quote is None:
            return None
        unanchored = self._unanchored()
        if unanchored is not None:
            said = self.rev_quotes.look(unanchored, self.against)
            return f"{at}: {said}" if said is not None else None
        drift = self.drift_of_quote()
        if drift is None:  # a quote loaded after the drift was computed
            return f"{at}: no drift for this quote"
        if drift.path is None or drift.status.value == "file_deleted":
            return f"{at}: the quoted file was deleted; t shows the cited revision"
        return None

    def whole_file_said(self) -> str | None:
        """What became of the file the source pane shows at REV, when the record cites it
        whole (`d` then compares the whole file); None otherwise."""
        found = self.file_drift_opened() if self.state.opened is not None else None
        if found is None or found.lines is not None or self.against is None:
            return None
        what = "the cited file" if self.cited_drift_opened() is not None else "the file"
        return f"{what} {cited_drift_summary(found, self.against.short)}"

    def diff_content(self) -> Content:
        """The diff pane's text while the source pane shows REV: a quote's passage, or the
        lines a record names of a cited file, against its counterpart at REV."""
        short = self.against.short if self.against else "?"
        rev_only = self.rev_only()
        if rev_only is not None:
            return Content.styled(
                f"the file at {short}: {rev_only}, nothing to compare", "$text-muted"
            )
        what = "lines" if self.state.opened is not None else "passage"  # a file's named lines
        return drift_diff_content(self._shown_drift(), short, what)

    def against_view(self, source: SourceFile) -> tuple[Content, SourceMarks, int | None]:
        """Title, marks and first line for the current quote's file (or the cited file opened)
        shown at REV: the passage, or the lines the record names, marked at their new place
        (the first line None: none marked)."""
        from screens.widgets.source_lines import SourceMarks

        rev_only = self.rev_only()
        found = self.file_drift_opened() if self.state.opened is not None else None
        drift = found.drift if found is not None else self.drift_of_quote()
        drift = None if rev_only is not None else drift
        assert self.against is not None
        whole = found is not None and found.lines is None  # no lines to mark
        lines = drift.lines if drift is not None and not whole else None
        near = drift.near if drift is not None and lines is None and not whole else None
        status = rev_only or "?"
        if found is not None:
            status = found.status.replace("_", " ")
        elif drift is not None:
            status = drift.status.value.replace("_", " ")
        if near is not None:  # deleted: what stands where it stood, in the warning colour
            status += f" (its place: {near[0]}-{near[1]})"
        unanchored = self._unanchored() if rev_only is None else None
        place = self.rev_quotes.place(unanchored) if unanchored is not None else None
        if place is not None:  # not at the cited revision, but here
            lines, status = place[1], f"not found when cited; here: {place[2]}"
        cited = self.state.revision.short if self.state.revision is not None else "?"
        title = Content.assemble(
            (visible(source.path), "bold"),
            (" " + visible(self.against_label()), "bold $text-warning"),
            (f"  {status}; cited @{cited}, t: back", "i"),
        )
        shown = lines or near
        return title, SourceMarks(lines, near, ()), shown[0] if shown else None

    # --- commits and notes -------------------------------------------------------------------

    def show_commit(self, row_id: str) -> None:
        """Show a commit row's commit (``commit-N-K`` under quote N, ``filecommit-N-K`` under
        cited file N): message and diff, read in a worker."""
        from screens.review.drift_notes import read_commit, row_commit

        found = row_commit(self.session, self.state.record, row_id)
        if found is not None:
            read_commit(self, self.repo, *found)

    @while_shown
    def on_commit_read(self, message: CommitRead) -> None:
        from screens.drift_dialogs import CommitScreen

        self.app.push_screen(CommitScreen(message.title, message.body))

    def note_line(self) -> str | None:
        """The drift of what verdict keys act on, in one line for its note (None, said in a
        notice, when none is known there)."""
        from screens.review.drift_notes import note_line

        line = note_line(self.state, self.against)
        if line is None:
            self.notify("no drift known here: put the cursor on a quote", timeout=3)
        return line
