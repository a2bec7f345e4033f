"""The review screen's source pane: the quoted file at the revision, or a file opened by path.

Files are read in a worker (`read_source`) and shown when their `SourceLoaded` arrives back at
this part, unless a later request replaced them; recently shown files are kept and shown without
a read. Below the source: the quote's line (`QuoteInfo`), the quote/source diff and the line that
names what verdict keys act on (`TargetLine`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from cachetools import LRUCache
from textual.content import Content

from keymaps import Keymap, short_key
from screens.review.backlink_index import BacklinkIndex
from screens.review.file_diffs import FileDiffs
from screens.review.messages import FileDiffReady, SourceLoaded
from screens.review.state import Part, ReviewState, while_shown
from screens.safe import visible
from screens.widgets.cited_rows import cited_line_range, no_quote_message
from screens.widgets.record_pane import verdict_word
from screens.widgets.source_lines import SourceMarks, file_message, quote_column
from screens.widgets.source_view import SourceView
from screens.widgets.target_line import TargetLine, no_target_text, record_hint, target_name

if TYPE_CHECKING:
    from collections.abc import Sequence

    from evidence.backlinks import Backlink
    from evidence.model import Elsewhere, Record
    from evidence.revision import Revision, SourceFile
    from screens.review.drift import DriftPart
    from screens.widgets.quote_diff import QuoteDiff
    from screens.widgets.quote_info import QuoteInfo

KEPT_FILES = 96  # files read from the revision kept for the source pane


#: the request of a file read to keep, never to show (`keep_cited`)
KEEP_ONLY = -1


class SourcePane(Part):
    """Shows the current quote's file, or a file opened by path, in the source pane."""

    def __init__(
        self,
        state: ReviewState,
        drift: DriftPart,
        widgets: tuple[SourceView, QuoteInfo, QuoteDiff, TargetLine],
        keymap: Keymap,
    ) -> None:
        super().__init__()
        self.state, self.session, self.drift, self.keymap = state, state.session, drift, keymap
        self.view, self.info, self.diff, self.target_line = widgets
        self.diff_visible = False  # the quote/source diff is shown (`d`)
        self.request = 0  # file reads asked for, and the last one shown
        self.shown = 0
        self.source: SourceFile | None = None  # the file shown
        self._kept: LRUCache[str, SourceFile] = LRUCache(KEPT_FILES)
        # `d` at REV on a file shown whole
        self.file_diffs = FileDiffs(self, drift, self._kept, self.keep_cited)
        self._pending_line: int | None = None  # where to open the next file opened by path
        self._pending_column: int | None = None  # and where on that line (a grep hit's)
        # `t` on a file opened whole: (its path, the lines shown, the cursor's line) to go on at
        self._carry: tuple[str, Sequence[str], int] | None = None
        self._against_request = 0  # the read of the quote's file at the drift's REV (`t`)
        # where `back` puts the cursor and view of the file it shows: (request, line, top line)
        self._restore: tuple[int, int, int] | None = None
        self.backlinks = BacklinkIndex(state)  # what cites each path

    @property
    def quote_diff(self) -> QuoteDiff | None:
        """The quote/source diff, when shown."""
        return self.diff if self.diff_visible else None

    def read_source(
        self, request: int, revision: Revision, path: str, *, ending: bool = False
    ) -> None:
        """Read a file of the revision in a worker (its `SourceLoaded` comes back here);
        ``ending``: as `Revision.read` takes it (a report's quote's file)."""

        def read() -> None:
            source = revision.read(path, ending=ending)
            _ = source.lines  # split in the worker, not on the event loop
            self.post_message(SourceLoaded(request, source))

        self.screen.run_worker(
            read, thread=True, exclusive=True, group="source", exit_on_error=False
        )

    @property
    def shown_revision(self) -> Revision | None:
        """The revision of the file the source pane shows: REV while it shows REV (`t`)."""
        at_against = self.shown == self._against_request and self.drift.against is not None
        return self.drift.against if at_against else self.state.revision

    def keep_cited(self, path: str) -> None:
        """Read a cited file at the cited revision to keep, not show (`d` at REV compares)."""
        revision = self.state.revision
        if revision is None or path in self._kept:
            return

        def read() -> None:
            source = revision.read(path)  # a symlink's comes back as its target's: kept as asked
            _ = source.lines
            self.post_message(SourceLoaded(KEEP_ONLY, replace(source, path=path)))

        self.screen.run_worker(
            read, thread=True, exclusive=True, group="source-kept", exit_on_error=False
        )

    def drift_action(self, what: str) -> None:
        """Ask for the drift's REV (``ask``), or show the quote's file at REV (its passage
        marked) or back at the cited revision (``source``, `t`)."""
        if what == "ask":
            self.drift.ask()
        elif (
            self.drift.against is not None
            and self.state.opened is None
            and self.state.quote is None
            and not self.drift.showing_against  # turned off, it is said on the next quote
        ):
            # nothing to show at REV: said, not a flag turned that shows nothing
            key = self._key("source_against")
            said = f"{key} shows a quote's file at REV, or a file opened (a cited file's row)"
            self.notify(said, timeout=3, markup=False)
        elif self.drift.toggle_source():
            opened, record, at_against = (self.state.opened, self.state.record,
                                          self.state.opened_at_against)  # fmt: skip
            if opened is None:
                self.show_quote()
                return
            # a file opened (a cited file from its row, the finder's, grep's): it, at REV or
            # back, at the lines the record names, else where the reader was in it
            named = cited_line_range(record, opened) if record and not at_against else None
            source, view = self.source, self.view
            if not named and source is not None and view.path == source.path:
                self._carry = (opened, source.lines, view.cursor_line)
            self.open_path(opened, named[0] if named else None, at_against=at_against)

    def file_followed(self) -> None:
        """The file opened by path was followed to REV (or REV's traced to the cited file it
        is, which it is from then on): shown there if asked for, else said."""
        state, at = self.state, self.drift.showing_against
        found = self.drift.counterparts.get(state.opened or "") if state.opened_at_against else None
        if found is not None:  # the reader's place kept, at REV
            line = self.view.cursor_line if at and self.shown == self.request else None
            self.open_path(found.path, line or self._pending_line, self._pending_column)
        elif state.opened is not None and (at or state.opened_at_against):
            at_against = state.opened_at_against
            self.open_path(
                state.opened, self._pending_line, self._pending_column, at_against=at_against
            )
        else:
            self.refresh_quote_info()

    def quotes_key(self) -> str:
        """The key that selects the record's quotes (``]``), as the keys bar shows it."""
        return self._key("next_quote")

    def _key(self, binding: str) -> str:
        keys = self.keymap.keys_for(binding)
        return short_key(keys[0]) if keys else ""

    def show_target(self) -> None:
        """Name what verdict keys act on in the status line."""
        if self.state.cleared:
            self.target_line.show(no_target_text(self.state.filter))
            return
        quote, keys = self.state.target_quote(), self.keymap.keys_for("record_target")
        waiting = {key: word for key, word in self.state.waiting if key is not None}
        self.target_line.show(
            target_name(self.session, self.state.record, quote, waiting),
            record_hint(quote, short_key(keys[0]) if keys else ""),
        )

    def place(self) -> Elsewhere | None:
        """The place in another file where the current quote is shown, if it is."""
        quote = self.state.quote
        if self.state.found is None or quote is None or self.state.opened is not None:
            return None
        anchor = self.session.anchor(quote)
        shown, n = self.state.found
        if shown != quote or anchor is None or n >= len(anchor.elsewhere):
            return None
        return anchor.elsewhere[n]

    def open_found(self) -> bool:
        """Show the current quote where it was found in another file; again, the next place,
        then its cited file. False when it was found nowhere else."""
        quote = self.state.quote
        anchor = self.session.anchor(quote) if quote is not None else None
        if quote is None or anchor is None or not anchor.elsewhere:
            return False
        shown = self.place()
        n = 0 if shown is None or self.state.found is None else self.state.found[1] + 1
        self.state.opened = None
        self.state.found = (quote, n) if n < len(anchor.elsewhere) else None
        self.show_quote()
        return True

    def missing_but_found(self) -> bool:
        """The current quote is not in its cited file but was found in another."""
        quote = self.state.quote
        anchor = self.session.anchor(quote) if quote is not None else None
        return anchor is not None and not anchor.verified and bool(anchor.elsewhere)

    def keep(
        self,
        sources: dict[str, SourceFile],
        backlinks: tuple[object, dict[str, list[Backlink]]] | None = None,
    ) -> None:
        """Files read elsewhere (by the anchorer), to show without reading them again; and
        (anchors, what cites each path) worked out with them, for `backlinks`."""
        self._kept.update(sources)
        if backlinks is not None:
            self.backlinks.kept = backlinks

    def show_quote(self) -> None:
        """Show the current quote's file (unless a file opened by path is shown)."""
        view = self.view
        self.refresh_quote_info()
        if self.state.opened is not None:
            return
        quote = self.state.quote
        if quote is None:
            self.request += 1  # a read still in flight is not shown any more
            self.shown = self.request
            text = no_quote_message(self.session, self.state.record)
            view.show_message(text, title="Source")
            self.refresh_diff()
            return
        if self.state.revision is None:
            if self.state.revision_error is None:
                return  # still opening; the Loaded handler shows the quote
            view.show_message(f"cannot open the revision: {visible(self.state.revision_error)}")
            return
        place = self.place()
        if place is None and self._at_against(quote.path):
            return
        if place is not None:
            self._open(place.path)
        else:  # a report's quote's path may be its writer's checkout's (`Revision.read`)
            self._open(quote.path, ending=not quote.role)

    def prepare(self, record: Record) -> None:
        """Highlight, ahead, the lines the record's first quote will show when its file was read
        before (a quote found elsewhere, or a file at another revision, is left to its frame)."""
        quote = record.quotes[0] if record.quotes else None
        anchor = self.session.anchor(quote) if quote is not None else None
        source = self._kept.get(quote.path) if quote is not None else None
        if quote is None or anchor is None or source is None or self.drift.showing_against:
            return
        if file_message(source) is not None or (anchor.elsewhere and not anchor.verified):
            return
        target = anchor.lines or quote.claimed
        line = target[0] if target else 1
        self.view.highlights.ahead(source.path, source.oid, source.lines, line)

    def open_path(
        self,
        path: str,
        line: int | None = None,
        column: int | None = None,
        *,
        at_against: bool = False,
    ) -> None:
        """Show a file of the revision (from the finder, grep or find), not tied to a quote;
        ``column`` (0-based, of ``line``) brought into view sideways. ``at_against``: ``path``
        is REV's (a lookup at REV), until the cited file it is has been found."""
        if self.state.revision is None:
            self.notify("the revision is not open", severity="warning")
            return
        self.state.opened, self.state.opened_at_against = path, at_against
        self._pending_line, self._pending_column = line, column
        self.drift.follow_opened()  # with drift: what became of it at REV, said under it
        self.refresh_quote_info()
        if not self._at_against(path):  # a cited file while the pane shows REV: it, at REV
            self._open(path)

    def _at_against(self, path: str) -> bool:
        """Show the quote's file (or the cited file opened, ``path``) at REV, or say why it
        cannot be (not there any more); False when the pane shows the cited revision."""
        said = self.drift.against_message()
        if said is not None:  # at REV, with nothing to show: the diff says what became of it
            self.request += 1  # a read still in flight is not shown any more
            self.shown = self._against_request = self.request
            at = self.drift.shown_label()
            self.view.show_message(visible(said), title=Content(visible(f"{path} {at}")))
            self.refresh_diff()
            return True
        at_against = self.drift.source_at_against()
        if at_against is None:
            return False
        self.request += 1
        self._against_request = self.request
        self.read_source(self.request, *at_against)
        return True

    def _open(self, path: str, *, ending: bool = False) -> None:
        """Read a file from the revision in a worker; SourceLoaded shows it."""
        from evidence.git.spelling import ENDING_NOTE  # imported by the revision already open

        assert self.state.revision is not None
        self.request += 1
        cached = self._kept.get(path)
        if cached is not None and (ending or not cached.via.startswith(ENDING_NOTE)):
            self.on_source_loaded(SourceLoaded(self.request, cached))  # no git read: at once
            return
        self.read_source(self.request, self.state.revision, path, ending=ending)

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
        view = self.view
        view.go_to_line(line, center=False)
        view.scroll_to(y=top, animate=False, force=True, immediate=True)

    @while_shown
    def on_source_loaded(self, message: SourceLoaded) -> None:
        """A file was read: show it, unless another was asked for since."""
        if message.request == KEEP_ONLY:  # kept to compare with, not shown
            self._kept[message.source.path] = message.source
            self.refresh_diff()
            return
        if message.request != self.request:
            return
        self.shown = message.request
        source = self.source = message.source
        view = self.view
        if message.request == self._against_request:  # at REV: not kept, marked at its new place
            title, marks, at = self.drift.against_view(source)
            # none marked: where `t` left the reader, else a line asked for (grep's at REV)
            line, column = (self._pending_line, self._pending_column) if at is None else (at, None)
            self._pending_line = self._pending_column = None
            line = self._carried(source, at) or line or 1
            problem = file_message(source)  # binary, too large, its content not in this clone
            if problem is not None:
                view.show_message(visible(problem), title=title)
            else:
                self._show(source, marks, line, title, column)
            self.refresh_diff()
            return
        self._kept[source.path] = source
        revision = self.state.revision
        short = revision.short if revision is not None else "?"
        problem = file_message(source)  # an empty file says so (it showed as a blank view)
        quote = self.state.quote if self.state.opened is None else None
        record = self.state.record
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

        marks = SourceMarks(backlinks=backlink_lines(self.backlinks.of(source.path)))
        line = self._pending_line
        if quote is not None and place is not None:
            marks = SourceMarks(place.lines, None, (), marks.backlinks)
            line = place.lines[0]
        elif quote is not None:
            anchor = self.session.anchor(quote)
            matched = anchor.lines if anchor is not None else None
            claimed = quote.claimed if quote.claimed != matched else None
            others = tuple(
                occurrence
                for occurrence in (anchor.occurrences if anchor is not None else ())
                if occurrence != matched
            )
            left_out = anchor.left_out if anchor is not None else ()
            marks = SourceMarks(matched, claimed, others, marks.backlinks, left_out=left_out)
            target = matched or claimed
            line = target[0] if target else 1
        line = self._carried(source, line) if quote is None else line
        column = self._pending_column if quote is None else None
        if quote is not None and place is None and line is not None:
            column = quote_column(quote, source.lines, line)
        self._show(source, marks, line, title, column)
        self._pending_line = self._pending_column = None
        self._restored()
        self.refresh_diff()

    def _carried(self, source: SourceFile, line: int | None) -> int | None:
        """The line where the reader of the file opened goes on in ``source`` (the file at the
        other revision, after `t`), else ``line``."""
        carry, self._carry = self._carry, None
        if carry is None or carry[0] != self.state.opened:
            return line
        from evidence.line_map import counterpart_line

        return counterpart_line(carry[1], source.lines, carry[2])

    def _show(
        self,
        source: SourceFile,
        marks: SourceMarks,
        line: int | None,
        title: object,
        column: int | None = None,
    ) -> None:
        """Show a file read, centred for the rows the view has once the line under it is laid
        out at its new height; ``column`` of ``line`` brought into view (far along it)."""
        view, growth = self.view, self.info.growth()
        rows = view.scrollable_content_region.height
        after = max(1, rows - growth) if growth and rows else None
        view.show(
            source.path,
            source.lines,
            marks=marks,
            line=line,
            title=title,
            key=source.oid,
            rows=after,
        )
        if column is not None and line is not None:
            view.show_column(line, column)

    def refresh_quote_info(self) -> None:
        """The line under the source (the quote's verdict and anchor), and what verdicts act on."""
        quote, record, session = self.state.quote, self.state.record, self.session
        anchor = session.anchor(quote) if quote is not None else None
        verdict = None
        if quote is not None and record is not None:
            verdict = verdict_word(session.verdict(session.quote_item(record, quote)))
        self.info.show(
            quote,
            anchor,
            opened=self.state.opened,
            verdict=verdict,
            place=self.place(),
            back_to_quotes=self.quotes_key() if record is not None and record.quotes else "",
            drift=self.drift.quote_phrase(self._key("source_against")),
            unchecked=session.unchecked,
        )
        self.show_target()

    def diff_shown(self, shown: bool) -> None:
        """The diff was shown or hidden: a quote missing from its cited file but found in another
        is compared with the place found, shown in the source pane."""
        self.diff_visible = shown
        if shown and self.place() is None and self.missing_but_found():
            self.open_found()
        self.refresh_diff()

    @while_shown
    def on_file_diff_ready(self, message: FileDiffReady) -> None:
        self.file_diffs.keep(message)
        if message.request == self.shown and self.quote_diff is not None:
            self.quote_diff.update(message.content)

    def refresh_diff(self) -> None:
        diff = self.quote_diff
        if diff is None:
            return  # filled when shown
        if self.shown == self._against_request:
            said = self.drift.whole_file_said()
            if said is not None:  # a file cited whole: the whole file compared
                diff.update(self.file_diffs.whole(said, self.state.opened, self.source, self.shown))
                return
            diff.update(self.drift.diff_content())  # cited passage against REV's
            return
        quote = self.state.quote if self.state.opened is None else None
        anchor = self.session.anchor(quote) if quote is not None else None
        place = self.place()
        lines = place.lines if place is not None else anchor.lines if anchor is not None else None
        source = self.source
        passage = None
        wanted = place.path if place is not None else quote.path if quote is not None else None
        if lines is not None and source is not None and source.path == wanted:
            passage = "\n".join(source.lines[lines[0] - 1 : lines[1]])
        diff.show(quote, anchor, place=place, passage=passage)
