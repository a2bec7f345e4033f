"""Messages of the review screen: what its thread workers and the store's writer post back (the
UI never waits on them), and what its parts ask of the screen (`Redraw`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from textual.content import Content

    from evidence.backlinks import Backlink
    from evidence.citations import CitedPath
    from evidence.drift import Drift
    from evidence.drift_files import FileDrift
    from evidence.model import Anchor, Quote
    from evidence.revision import CommitSummary, GrepHit, Revision, SourceFile


class ReadsStarted(Message):
    """The review screen's first frame is whole and its reads have started (for the app)."""


class Loaded(Message, bubble=False):
    """The revision is open (or failed), with its origin URL (for permalinks) and its commit's
    subject, author and date (for the header)."""

    def __init__(
        self,
        revision: Revision | None,
        error: str | None,
        remote: str | None = None,
        commit: CommitSummary | None = None,
    ) -> None:
        super().__init__()
        self.revision = revision
        self.error = error
        self.remote = remote
        self.commit = commit


class AnchorProgress(Message):
    """Anchoring progress (merged: only the latest one waiting is kept)."""

    def __init__(self, done: int, total: int) -> None:
        super().__init__()
        self.done = done
        self.total = total

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, AnchorProgress)


class Anchored(Message):
    """Every quote is anchored and every search replayed."""

    def __init__(
        self,
        anchors: dict[Quote, Anchor],
        replays: dict[tuple[str, int], list[GrepHit]],
        sources: dict[str, SourceFile],
        citations: dict[tuple[str, str], tuple[CitedPath, ...]] | None = None,
        backlinks: dict[str, list[Backlink]] | None = None,
    ) -> None:
        super().__init__()
        self.anchors = anchors
        self.replays = replays
        self.sources = sources
        self.citations = citations or {}  # (report file, record id) -> its cited paths
        self.backlinks = backlinks  # normalized path -> the quotes and records citing it


class SourceLoaded(Message, bubble=False):
    """A file read from the revision, to show in the source pane."""

    def __init__(self, request: int, source: SourceFile) -> None:
        super().__init__()
        self.request = request
        self.source = source


class Written(Message, bubble=False):
    """A store work finished (in the writer thread): its result, or the error it raised, and
    the reply it was submitted with (data naming what it was, for the receiver to act on; None:
    nothing to do but say an error)."""

    def __init__(self, reply: object, result: object, error: BaseException | None) -> None:
        super().__init__()
        self.reply = reply
        self.result = result
        self.error = error


class Redraw(Message):
    """A part changed what other panes show (the header's progress, the records listed, the
    record, the source; ``opened``: the file opened by path, followed to REV): the screen draws
    them again."""

    def __init__(
        self,
        *,
        header: bool = False,
        records: bool = False,
        record: bool = False,
        source: bool = False,
        opened: bool = False,
    ) -> None:
        super().__init__()
        self.header, self.records, self.record, self.source = header, records, record, source
        self.opened = opened


class FileFollowed(Message, bubble=False):
    """A file opened by path (not one the record cites) followed to REV (None: it cannot be,
    not a file at the cited revision, or git could not tell); or, ``rev_path``, a file opened
    at REV traced back to the cited file it is (None: none is)."""

    def __init__(
        self, against: str, path: str, drift: FileDrift | None, *, rev_path: bool = False
    ) -> None:
        super().__init__()
        self.against, self.path, self.drift, self.rev_path = against, path, drift, rev_path


class FileDiffReady(Message, bubble=False):
    """A file cited whole compared with itself at REV, for the diff pane (``request``: the
    source pane's read it was computed for)."""

    def __init__(self, request: int, key: tuple[str | None, str | None], content: Content) -> None:
        super().__init__()
        self.request, self.key, self.content = request, key, content


class DriftComputed(Message, bubble=False):
    """The drift of every quote against REV."""

    def __init__(
        self,
        rev: str,
        against: Revision,
        drifts: dict[Quote, Drift],
        relation: str,
        cited: dict[tuple[str, tuple[int, int] | None], FileDrift],
    ) -> None:
        super().__init__()
        self.rev, self.against, self.drifts = rev, against, drifts
        self.relation = relation  # how REV stands to the cited revision
        self.cited = cited  # each cited file's drift


class CommitRead(Message, bubble=False):
    """A commit's message and diff, read in a worker, to show in a modal."""

    def __init__(self, title: str, body: Content) -> None:
        super().__init__()
        self.title, self.body = title, body


class QuoteAtRev(Message, bubble=False):
    """A quote not anchored at the cited revision, looked for at REV (None: it could not be)."""

    def __init__(self, against: str, quote: Quote, anchor: Anchor | None) -> None:
        super().__init__()
        self.against, self.quote, self.anchor = against, quote, anchor
