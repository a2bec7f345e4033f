"""The review screen's drift part: what became of each quoted passage at a newer revision (REV).

REV comes from ``assay review --against`` or the dialog `A` opens. Drift needs every anchor at
the cited revision, so it is computed once anchoring is done, in a thread worker
(evidence/drift.py's `follow_all`) that posts `DriftComputed`. The source pane can show REV
(`t`) with the passage marked at its new place; a commit row under a quote opens the commit.
Verdicts stay tied to the cited revision: this part never changes what they are saved with.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from textual.content import Content
from textual.message import Message

from screens.safe import visible
from screens.widgets.drift_rows import commit_content, drift_diff_content, drift_summary

if TYPE_CHECKING:
    from textual.app import App
    from textual.widget import Widget

    from evidence.drift import Drift
    from evidence.model import Quote, Record
    from evidence.revision import Revision, SourceFile
    from screens.session import ReviewSession
    from screens.widgets.record_pane import RecordPane
    from screens.widgets.source_lines import SourceMarks


class _Sources(Protocol):
    opened_path: str | None

    def show_quote(self) -> None: ...


class _Notes(Protocol):
    def append_note(self, line: str) -> None: ...


class _Moves(Protocol):
    def target_quote(self) -> Quote | None: ...


class DriftHost(Protocol):
    """What the drift part needs of the review screen."""

    session: ReviewSession
    revision: Revision | None
    repo: Path

    @property
    def sources(self) -> _Sources: ...

    @property
    def verdicts(self) -> _Notes: ...

    @property
    def moves(self) -> _Moves: ...

    @property
    def app(self) -> App[object]: ...

    @property
    def record(self) -> Record | None: ...

    @property
    def quote(self) -> Quote | None: ...

    @property
    def record_pane(self) -> RecordPane: ...

    def refresh_header(self) -> None: ...

    def fill_records(self) -> None: ...


class DriftComputed(Message):
    """The drift of every quote against REV, or why it could not be computed."""

    def __init__(
        self,
        rev: str,
        against: Revision | None,
        drifts: dict[Quote, Drift],
        error: str | None = None,
        relation: str = "descendant",
    ) -> None:
        super().__init__()
        self.rev, self.against, self.drifts, self.error = rev, against, drifts, error
        self.relation = relation  # how REV stands to the cited revision


class CommitRead(Message):
    """A commit's message and diff, read in a worker, to show in a modal."""

    def __init__(self, title: str, body: Content) -> None:
        super().__init__()
        self.title, self.body = title, body


class DriftPart:
    """Drift against REV for the review screen (one REV at a time)."""

    def __init__(self, host: DriftHost, node: Widget, against: str | None) -> None:
        self.host = host
        self.node = node  # the screen: its workers, messages and notices
        self.wanted = against  # the REV asked for: computed once anchoring is done
        self.against: Revision | None = None  # REV, open, once its drift is known
        self.against_name = ""  # REV as the reviewer gave it (a branch, a tag, an id)
        self.computing = False
        self.showing_against = False  # the source pane shows REV rather than the cited revision
        self.relation = "descendant"  # REV against the cited revision: descendant, diverged...

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

    def decorate(self, forms: tuple[str, ...]) -> tuple[str, ...]:
        """The header's progress texts (longest first) with the drift's REV in front, when
        drift is shown."""
        drift = self.header_label()
        if not drift:
            return forms
        # kept whole with the counts: the names on the left give way first; at 80 columns the
        # cited id stays whole
        short = drift.replace("drift vs ", "Δ ")
        return tuple(f"{drift if n == 0 else short} · {form}" for n, form in enumerate(forms))

    def ask(self) -> None:
        """Ask for REV in a dialog, then compute the drift against it."""
        from screens.drift_dialogs import AgainstDialog

        def answered(rev: str | None) -> None:
            if rev:
                self.start(rev)

        self.host.app.push_screen(AgainstDialog(self.wanted or "HEAD"), answered)

    def start(self, rev: str) -> None:
        self.wanted = rev
        if self.host.session.anchored and self.host.revision is not None:
            self._run()
        else:
            self.node.notify("drift is computed once every quote is anchored", timeout=3)
        self.host.refresh_header()

    def anchored(self) -> None:
        """Every quote is anchored: compute the drift asked for, if any."""
        if self.wanted and self.host.revision is not None:
            self._run()

    def _run(self) -> None:
        host, node = self.host, self.node
        assert host.revision is not None and self.wanted
        cited, repo, rev = host.revision, host.repo, self.wanted
        anchors = dict(host.session.anchors)
        self.computing = True

        def work() -> None:
            from evidence.drift import follow_all, relation_of
            from evidence.revision import Revision

            try:
                against = Revision.open(repo, rev)
            except Exception as error:  # said in a notice, never a traceback
                node.post_message(DriftComputed(rev, None, {}, str(error) or "unknown revision"))
                return
            try:
                drifts = follow_all(anchors, cited, against)
                how = relation_of(cited, against).value
            except Exception as error:  # said in a notice
                against.close()
                node.post_message(DriftComputed(rev, None, {}, f"{type(error).__name__}: {error}"))
                return
            node.post_message(DriftComputed(rev, against, drifts, relation=how))

        node.run_worker(work, thread=True, exclusive=True, group="drift", exit_on_error=False)

    def computed(self, message: DriftComputed) -> None:
        host = self.host
        if message.rev != self.wanted:  # an earlier REV's thread ended after another was asked
            if message.against is not None:
                message.against.close()
            return
        self.computing = False
        if message.error is not None or message.against is None:
            self.wanted = self.against.commit if self.against is not None else None
            self.node.notify(
                visible(f"drift against {message.rev}: {message.error}"),
                severity="error",
                markup=False,
            )
            host.refresh_header()
            return
        if self.against is not None:
            self.against.close()
        self.against = message.against
        self.against_name = message.rev
        self.relation = message.relation
        host.session.drifts = message.drifts
        host.record_pane.against = message.against.short
        self.showing_against = False
        from evidence.drift import drift_counts

        counts = drift_counts(list(message.drifts.values()))
        said = ", ".join(f"{n} {s.replace('_', ' ')}" for s, n in counts.items() if n)
        self.node.notify(visible(f"{self.header_label()}: {said}"), markup=False)
        host.fill_records()
        host.record_pane.refresh_record()
        host.sources.show_quote()
        host.refresh_header()

    async def settle(self) -> None:
        """Wait for the drift and commit workers running (for tests and tools)."""
        for worker in list(self.node.workers):
            if worker.group in ("drift", "commit") and worker.is_running:
                await worker.wait()

    def close(self) -> None:
        if self.against is not None:
            self.against.close()

    # --- the source pane at REV --------------------------------------------------------------

    def drift_of_quote(self) -> Drift | None:
        quote = self.host.quote
        return self.host.session.drifts.get(quote) if quote is not None else None

    def toggle_source(self) -> None:
        """Show the current quote's file at REV (its passage marked), or back at the cited one."""
        if self.against is None:
            self.node.notify("no drift yet: A asks for a revision to compare with", timeout=3)
            return
        self.showing_against = not self.showing_against
        self.host.sources.opened_path = None
        self.host.sources.show_quote()

    def source_at_against(self) -> tuple[Revision, str] | None:
        """The revision and path the source pane shows for the current quote, when it shows REV
        (None: the cited revision's file, as without drift)."""
        drift = self.drift_of_quote()
        if not self.showing_against or self.against is None:
            return None
        if drift is None or drift.path is None or drift.status.value == "file_deleted":
            return None
        return self.against, drift.path

    def against_label(self) -> str:
        """``@8df75ac (main)``: REV's short id and the name the reviewer gave (not an id)."""
        assert self.against is not None
        short, name = self.against.short, self.against_name
        if not name or self.against.commit.startswith(name.lower()):
            return f"@{short}"
        return f"@{short} ({name if len(name) <= 24 else name[:23] + '…'})"

    def against_message(self) -> str | None:
        """What the source pane says at REV for a quote with no file there to show (None: the
        file is shown, or the pane shows the cited revision)."""
        if not self.showing_against or self.against is None or self.host.quote is None:
            return None
        drift = self.drift_of_quote()
        at = self.against_label()
        if drift is None or drift.status.value == "not_anchored":
            return f"{at}: no drift for this quote (not anchored at the cited revision)"
        if drift.path is None or drift.status.value == "file_deleted":
            return f"{at}: the quoted file was deleted; t shows the cited revision"
        return None

    def diff_content(self) -> Content:
        """The diff pane's text while the source pane shows REV."""
        return drift_diff_content(
            self.drift_of_quote(), self.against.short if self.against else "?"
        )

    def against_view(self, source: SourceFile) -> tuple[Content, SourceMarks, int]:
        """Title, marks and first line for the current quote's file shown at REV."""
        from screens.widgets.source_lines import SourceMarks

        drift = self.drift_of_quote()
        assert self.against is not None
        lines = drift.lines if drift is not None else None
        status = drift.status.value.replace("_", " ") if drift is not None else "?"
        cited = self.host.revision.short if self.host.revision is not None else "?"
        title = Content.assemble(
            (visible(source.path), "bold"),
            (" " + visible(self.against_label()), "bold $text-warning"),
            (f"  {status}; cited @{cited}, t: back", "i"),
        )
        return title, SourceMarks(lines, None, ()), lines[0] if lines else 1

    # --- commits and notes -------------------------------------------------------------------

    def show_commit(self, row_id: str) -> None:
        """Show a commit row's commit (``commit-N-K``): message and diff, read in a worker."""
        record = self.host.record
        n, k = (int(part) for part in row_id.split("-")[1:3])
        if record is None or n >= len(record.quotes):
            return
        drift = self.host.session.drifts.get(record.quotes[n])
        if drift is None or k >= len(drift.commits):
            return
        commit = drift.commits[k]
        paths = [p for p in (drift.renamed_from, drift.path, record.quotes[n].path) if p]
        repo, node = self.host.repo, self.node

        def read() -> None:
            from evidence.git.history import commit_patch
            from evidence.git.repo import open_repo

            opened = open_repo(repo)
            try:
                message, patch = commit_patch(opened, commit, paths)
            finally:
                opened.close()
            head = f"{commit.id}\n{commit.author} · {commit.date}\n\n"
            title = f"commit {commit.id[:10]} · quote [{n + 1}]"
            node.post_message(CommitRead(title, commit_content(head + message, patch)))

        node.run_worker(read, thread=True, exclusive=True, group="commit", exit_on_error=False)

    def commit_read(self, message: CommitRead) -> None:
        from screens.drift_dialogs import CommitScreen

        self.host.app.push_screen(CommitScreen(message.title, message.body))

    def note_drift(self) -> None:
        """Append the current quote's drift, in one line, to its note (saved at once)."""
        quote = self.host.moves.target_quote()
        drift = self.host.session.drifts.get(quote) if quote is not None else None
        if drift is None or self.against is None:
            self.node.notify("no drift known here: put the cursor on a quote", timeout=3)
            return
        self.host.verdicts.append_note("drift " + drift_summary(drift, self.against.short))
