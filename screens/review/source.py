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
from screens.widgets.cited_rows import cited_summary
from screens.widgets.record_pane import verdict_word
from screens.widgets.source_lines import SourceMarks, file_message
from screens.widgets.source_view import SourceView

if TYPE_CHECKING:
    from textual.app import App

    from evidence.backlinks import Backlink
    from evidence.model import Elsewhere, Quote, Record
    from evidence.revision import Revision, SourceFile
    from screens.review.drift import DriftPart
    from screens.widgets.quote_diff import QuoteDiff
    from screens.widgets.quote_info import QuoteInfo

KEPT_FILES = 96  # files read from the revision kept for the source pane


def no_quote_message(session: ReviewSession, record: Record | None) -> str:
    """What the source pane says for a record without quotes: the files it cites and where its
    search hits are."""
    if record is None:
        return ""
    text = cited_summary(session, record)
    hits = sum(len(session.replays.get((s.record, s.line)) or ()) for s in record.searches)
    if hits:
        many = "hits" if hits > 1 else "hit"
        text += f" Its searches found {hits} {many}: pick one in the record pane."
    return text


class SourceHost(Protocol):
    """What the source pane needs of the review screen."""

    session: ReviewSession
    revision: Revision | None
    revision_error: str | None
    drift: DriftPart

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

    def show_target(self) -> None: ...

    def quotes_key(self) -> str: ...


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
        # the quote shown where it was found in another file: (quote, index in its `elsewhere`)
        self.found: tuple[Quote, int] | None = None
        self._against_request = 0  # the read of the quote's file at the drift's REV (`t`)
        # where `back` puts the cursor and view of the file it shows: (request, line, top line)
        self._restore: tuple[int, int, int] | None = None

    def place(self) -> Elsewhere | None:
        """The place in another file where the current quote is shown, if it is."""
        quote = self.host.quote
        if self.found is None or quote is None or self.opened_path is not None:
            return None
        anchor = self.host.session.anchor(quote)
        shown, n = self.found
        if shown != quote or anchor is None or n >= len(anchor.elsewhere):
            return None
        return anchor.elsewhere[n]

    def open_found(self) -> bool:
        """Show the current quote where it was found in another file; again, the next place,
        then its cited file. False when it was found nowhere else."""
        quote = self.host.quote
        anchor = self.host.session.anchor(quote) if quote is not None else None
        if quote is None or anchor is None or not anchor.elsewhere:
            return False
        shown = self.place()
        n = 0 if shown is None or self.found is None else self.found[1] + 1
        self.opened_path = None
        self.found = (quote, n) if n < len(anchor.elsewhere) else None
        self.show_quote()
        return True

    def missing_but_found(self) -> bool:
        """The current quote is not in its cited file but was found in another."""
        quote = self.host.quote
        anchor = self.host.session.anchor(quote) if quote is not None else None
        return anchor is not None and not anchor.verified and bool(anchor.elsewhere)

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
            text = no_quote_message(self.host.session, self.host.record)
            view.show_message(text, title="Source")
            self.refresh_diff()
            return
        if self.host.revision is None:
            if self.host.revision_error is None:
                return  # still opening; the Loaded handler shows the quote
            view.show_message(f"cannot open the revision: {visible(self.host.revision_error)}")
            return
        place = self.place()
        said = self.host.drift.against_message()
        if said is not None and place is None:
            self.request += 1  # a read still in flight is not shown any more
            self.shown = self.request
            at = self.host.drift.against_label()
            view.show_message(visible(said), title=Content(visible(f"{quote.path} {at}")))
            return
        at_against = self.host.drift.source_at_against()
        if at_against is not None and place is None:
            self.request += 1
            self._against_request = self.request
            self.host.read_source(self.request, *at_against)
            return
        self._open(place.path if place is not None else quote.path)

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

    def restore_view(self, line: int, top: int) -> None:
        """Put the cursor on ``line`` and ``top`` first in view, once the file asked for last is
        shown (now, when it already is)."""
        self._restore = (self.request, line, top)
        if self.shown == self.request:
            self._restored()

    def _restored(self) -> None:
        if self._restore is None or self._restore[0] != self.shown:
            return
        _request, line, top = self._restore
        self._restore = None
        view = self.host.source_view
        view.go_to_line(line, center=False)
        view.scroll_to(y=top, animate=False, force=True, immediate=True)

    def loaded(self, message: SourceLoaded) -> None:
        """A file was read: show it, unless another was asked for since."""
        if message.request != self.request:
            return
        self.shown = message.request
        source = self.source = message.source
        view = self.host.source_view
        if message.request == self._against_request:  # at REV: not kept, marked at its new place
            title, marks, at = self.host.drift.against_view(source)
            view.show(source.path, source.lines, marks=marks, line=at, title=title, key=source.oid)
            self.refresh_diff()
            return
        self._kept[source.path] = source
        revision = self.host.revision
        short = revision.short if revision is not None else "?"
        problem = file_message(source)  # an empty file says so (it showed as a blank view)
        quote = self.host.quote if self.opened_path is None else None
        record = self.host.record
        place = self.place()
        if place is not None and source.path != place.path:
            place = None
        if quote is not None and record is not None:
            title = Content.assemble(
                f"[{quote.index + 1}/{len(record.quotes)}] ",
                (visible(source.path), "bold"),
                f" @{short}",
                (f"  found here, cited {visible(quote.path)}" if place is not None else "", "i"),
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
        if quote is not None and place is not None:
            marks = SourceMarks(place.lines, None, (), marks.backlinks)
            line = place.lines[0]
        elif quote is not None:
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
        self._restored()
        self.refresh_diff()

    def refresh_quote_info(self) -> None:
        """The line under the source (the quote's verdict and anchor), and what verdicts act on."""
        quote, record, session = self.host.quote, self.host.record, self.host.session
        anchor = session.anchor(quote) if quote is not None else None
        verdict = None
        if quote is not None and record is not None:
            verdict = verdict_word(session.verdict(session.quote_item(record, quote)))
        self.host.quote_info.show(
            quote,
            anchor,
            opened=self.opened_path,
            verdict=verdict,
            place=self.place(),
            back_to_quotes=self.host.quotes_key() if record is not None and record.quotes else "",
        )
        self.host.show_target()

    def diff_shown(self, shown: bool) -> None:
        """The diff was shown or hidden: a quote missing from its cited file but found in another
        is compared with the place found, shown in the source pane."""
        if shown and self.place() is None and self.missing_but_found():
            self.open_found()
        self.refresh_diff()

    def refresh_diff(self) -> None:
        diff = self.host.quote_diff
        if diff is None:
            return  # filled when shown
        if self.shown == self._against_request and self.opened_path is None:
            diff.update(self.host.drift.diff_content())  # at REV: cited passage against REV's
            return
        quote = self.host.quote if self.opened_path is None else None
        anchor = self.host.session.anchor(quote) if quote is not None else None
        place = self.place()
        lines = place.lines if place is not None else anchor.lines if anchor is not None else None
        source = self.source
        passage = None
        wanted = place.path if place is not None else quote.path if quote is not None else None
        if lines is not None and source is not None and source.path == wanted:
            passage = "\n".join(source.lines[lines[0] - 1 : lines[1]])
        diff.show(quote, anchor, place=place, passage=passage)
