"""The review screen's source pane: the quoted file at the revision, or a file opened by path.

Files are read in a worker (`Loading.read_source`) and shown when their `SourceLoaded` arrives,
unless a later request replaced them; recently shown files are kept and shown without a read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from cachetools import LRUCache
from textual.content import Content

from screens.review.messages import SourceLoaded
from screens.safe import visible
from screens.session import ReviewSession
from screens.widgets.source_lines import SourceMarks, file_message
from screens.widgets.source_view import SourceView

if TYPE_CHECKING:
    from textual.app import App

    from evidence.backlinks import Backlink
    from evidence.model import Quote, Record
    from evidence.revision import Revision, SourceFile
    from screens.widgets.quote_diff import QuoteDiff
    from screens.widgets.quote_info import QuoteInfo

KEPT_FILES = 96  # files read from the revision kept for the source pane


class SourceHost(Protocol):
    """What the source pane needs of the review screen."""

    session: ReviewSession
    revision: Revision | None
    revision_error: str | None

    @property
    def app(self) -> App[object]: ...

    @property
    def record(self) -> Record | None: ...

    @property
    def quote(self) -> Quote | None: ...

    @property
    def source_view(self) -> SourceView: ...

    @property
    def quote_info(self) -> QuoteInfo: ...

    @property
    def quote_diff(self) -> QuoteDiff | None: ...

    def backlinks_of(self, path: str) -> list[Backlink]: ...

    def read_source(self, request: int, revision: Revision, path: str) -> None: ...


class SourcePane:
    """Shows the current quote's file, or a file opened by path, in the source pane."""

    def __init__(self, host: SourceHost) -> None:
        self.host = host
        self.opened_path: str | None = None  # a file opened by finder/grep rather than a quote
        self.request = 0  # file reads asked for, and the last one shown
        self.shown = 0
        self.source: SourceFile | None = None  # the file shown
        self._kept: LRUCache[str, SourceFile] = LRUCache(KEPT_FILES)
        self._pending_line: int | None = None  # where to open the next file opened by path

    def keep(self, sources: dict[str, SourceFile]) -> None:
        """Files read elsewhere (by the anchorer), to show without reading them again."""
        self._kept.update(sources)

    def show_quote(self) -> None:
        """Show the current quote's file (unless a file opened by path is shown)."""
        view = self.host.source_view
        self.refresh_quote_info()
        if self.opened_path is not None:
            return
        quote = self.host.quote
        if quote is None:
            self.request += 1  # a read still in flight is not shown any more
            self.shown = self.request
            text = "this record quotes no source" if self.host.record is not None else ""
            view.show_message(text, title="Source")
            self.refresh_diff()
            return
        if self.host.revision is None:
            if self.host.revision_error is None:
                return  # still opening; the Loaded handler shows the quote
            view.show_message(f"cannot open the revision: {visible(self.host.revision_error)}")
            return
        self._open(quote.path)

    def open_path(self, path: str, line: int | None = None) -> None:
        """Show a file of the revision (from the finder, grep or find), not tied to a quote."""
        if self.host.revision is None:
            self.host.app.notify("the revision is not open", severity="warning")
            return
        self.opened_path = path
        self._pending_line = line
        self.refresh_quote_info()
        self._open(path)

    def _open(self, path: str) -> None:
        """Read a file from the revision in a worker; SourceLoaded shows it."""
        assert self.host.revision is not None
        self.request += 1
        cached = self._kept.get(path)
        if cached is not None:  # read before: no git read, shown at once
            self.loaded(SourceLoaded(self.request, cached))
            return
        self.host.read_source(self.request, self.host.revision, path)

    def loaded(self, message: SourceLoaded) -> None:
        """A file was read: show it, unless another was asked for since."""
        if message.request != self.request:
            return
        self.shown = message.request
        source = self.source = message.source
        self._kept[source.path] = source
        view = self.host.source_view
        revision = self.host.revision
        short = revision.short if revision is not None else "?"
        problem = file_message(source)  # an empty file says so (it showed as a blank view)
        quote = self.host.quote if self.opened_path is None else None
        record = self.host.record
        if quote is not None and record is not None:
            title = Content.assemble(
                f"[{quote.index + 1}/{len(record.quotes)}] ",
                (visible(source.path), "bold"),
                f" @{short}",
            )
        else:
            title = Content.assemble((visible(source.path), "bold"), f" @{short}")
        if problem is not None:
            view.show_message(visible(problem), title=title)
            self.refresh_diff()
            return
        from evidence.backlinks import backlink_lines

        marks = SourceMarks(backlinks=backlink_lines(self.host.backlinks_of(source.path)))
        line = self._pending_line
        if quote is not None:
            anchor = self.host.session.anchor(quote)
            matched = anchor.lines if anchor is not None else None
            claimed = quote.claimed if quote.claimed != matched else None
            others = tuple(
                occurrence
                for occurrence in (anchor.occurrences if anchor is not None else ())
                if occurrence != matched
            )
            marks = SourceMarks(matched, claimed, others, marks.backlinks)
            target = matched or claimed
            line = target[0] if target else 1
        view.show(source.path, source.lines, marks=marks, line=line, title=title, key=source.oid)
        self._pending_line = None
        self.refresh_diff()

    def refresh_quote_info(self) -> None:
        quote = self.host.quote
        anchor = self.host.session.anchor(quote) if quote is not None else None
        self.host.quote_info.show(quote, anchor, opened=self.opened_path)

    def refresh_diff(self) -> None:
        diff = self.host.quote_diff
        if diff is None:
            return  # filled when shown
        quote = self.host.quote if self.opened_path is None else None
        anchor = self.host.session.anchor(quote) if quote is not None else None
        diff.show(quote, anchor)
