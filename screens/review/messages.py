"""Messages the review screen's thread workers post back to it (the UI never waits on them)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.message import Message

if TYPE_CHECKING:
    from evidence.citations import CitedPath
    from evidence.model import Anchor, Quote
    from evidence.revision import CommitSummary, GrepHit, Revision, SourceFile


class ReadsStarted(Message):
    """The review screen's first frame is whole and its reads have started (for the app)."""


class Loaded(Message):
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
    ) -> None:
        super().__init__()
        self.anchors = anchors
        self.replays = replays
        self.sources = sources
        self.citations = citations or {}  # (report file, record id) -> its cited paths


class SourceLoaded(Message):
    """A file read from the revision, to show in the source pane."""

    def __init__(self, request: int, source: SourceFile) -> None:
        super().__init__()
        self.request = request
        self.source = source


class Written(Message):
    """A store write finished (in the writer thread)."""

    def __init__(self, result: object, error: BaseException | None, then: Callable[..., Any]):
        super().__init__()
        self.result = result
        self.error = error
        self.then = then
