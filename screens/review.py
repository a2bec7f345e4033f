"""The review screen: records, the selected record with its quotes, and the source they quote.

Layout: a header line (system, revision, reviewer, progress), the records pane (grouped by report
and section, with verdict badges and quote status), the record pane (label, fields, body, quotes,
references, annotations; a cursor over what can be followed) and the source pane (SourceView at the
revision, with the quote/source diff below it on `d`).

Reads (revision, anchoring, source files, search replays) run in Textual thread workers that post
messages back. Writes to the verdict store go through one writer thread, so verdicts are stored in
the order they were given; the screen updates from the stored event.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import on
from textual.app import ComposeResult, SystemCommand
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import Worker, WorkerState

from db import Event, ItemRef, StaleVerdict, Verdict, VerdictStore
from evidence.model import Anchor, FileState, Kind, Quote, Record, Tier
from keymaps import SPECS, Keymap, specs_for
from keymaps.bindings import bindings_for
from tui.safe import safe_content, visible
from tui.session import BADGES, FILTERS, ReviewSession, tier_symbol
from tui.widgets.lists import PaneList
from tui.widgets.source_view import SourceMarks, SourceView

if TYPE_CHECKING:  # imported where used, so the first frame does not wait for them
    from evidence.revision import GrepHit, Revision, SourceFile
    from screens.find import FindTarget

NARROW_WIDTH = 120  # below this the records pane goes on top of the other two
VERDICT_STYLES = {
    "✓": "$text-success",
    "✗": "$text-error",
    "?": "$text-warning",
    "–": "$text-muted",
    "·": "$text-muted",
}
TIER_STYLES = {"✓": "$text-success", "≈": "$text-warning", "✗": "$text-error", "!": "$text-warning"}


@dataclass(frozen=True)
class Location:
    """Where the reviewer is: a record and (maybe) one of its quotes."""

    record: int
    quote: int | None = None


# --- messages from workers ----------------------------------------------------------------------


class Loaded(Message):
    """The revision is open (or failed) and the reviewer's verdicts and position are read."""

    def __init__(
        self,
        revision: Revision | None,
        error: str | None,
        current: dict[str, Event],
        position: str | None,
        stale: list[StaleVerdict] | None = None,
    ) -> None:
        super().__init__()
        self.revision = revision
        self.error = error
        self.current = current
        self.position = position
        self.stale = stale or []


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
    ) -> None:
        super().__init__()
        self.anchors = anchors
        self.replays = replays
        self.sources = sources


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


def file_message(source: SourceFile) -> str | None:
    """What to show instead of a file that has no lines to display, or None."""
    if source.state is FileState.MISSING:
        return f"{source.path} does not exist at this revision"
    if source.state is FileState.BINARY:
        return f"{source.path} is a binary file ({source.size:,} bytes)"
    if source.state is FileState.TOO_LARGE:
        return f"{source.path} is too large to show ({source.size:,} bytes)"
    if source.symlink_target is not None:
        return f"{source.path} is a symbolic link to {source.symlink_target}"
    if source.submodule is not None:
        return f"{source.path} is a submodule at commit {source.submodule}"
    return None


def lines_text(lines: tuple[int, int] | None) -> str:
    """``231-236`` or ``231``."""
    if lines is None:
        return "?"
    return str(lines[0]) if lines[0] == lines[1] else f"{lines[0]}-{lines[1]}"


class ReviewScreen(Screen[None]):
    """Review records and quotes of loaded reports against the revision they cite."""

    CSS_PATH = Path(__file__).with_suffix(".tcss")
    BINDINGS = bindings_for("review")

    def __init__(
        self,
        session: ReviewSession,
        store: VerdictStore,
        *,
        repo: Path,
        rev: str | None,
        keymap: Keymap,
        revision: Revision | None = None,
    ) -> None:
        super().__init__()
        self.session = session
        self.store = store
        self.repo = repo
        self.rev = rev
        self.keymap = keymap
        self.revision: Revision | None = revision
        self.revision_error: str | None = None
        self.filter = "all"
        self.location = Location(0, 0 if session.records and session.records[0].quotes else None)
        self.back_stack: list[Location] = []
        self.forward_stack: list[Location] = []
        self.opened_path: str | None = None  # a file opened by finder/grep rather than a quote
        self.source_request = 0  # file reads asked for, and the last one shown
        self.shown_request = 0
        self._source: SourceFile | None = None
        self._sources: dict[str, SourceFile] = {}  # recently shown files (small LRU)
        self._syncing = False
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="assay-store")
        self._loaded = asyncio.Event()
        self._rows: list[int] = []  # option index -> record index (-1 for headers)
        self._records_width = -1
        self.stale: list[StaleVerdict] = []  # verdicts on quotes or records no longer in reports

    # --- layout ----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="review-header")
        with Horizontal(id="panes"):
            yield PaneList(id="records")
            with Horizontal(id="detail"):
                yield PaneList(id="record")
                with Vertical(id="source-pane"):
                    yield SourceView(id="source")
                    yield Static(id="quote-info")
                    with VerticalScroll(id="diff"):
                        yield Static(id="diff-text")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#records").border_title = "Records"
        self.query_one("#record").border_title = "Record"
        self.query_one(SourceView).show_message("opening the revision…", title="Source")
        self._fill_records()
        self._show_record()
        self._refresh_header()
        self.query_one("#records", OptionList).focus()
        self.run_worker(self._load, thread=True, exclusive=True, group="load", exit_on_error=False)

    def on_resize(self) -> None:
        narrow = self.size.width < NARROW_WIDTH
        if narrow != self.has_class("-narrow"):
            self.set_class(narrow, "-narrow")
        self._refresh_header()
        self.call_after_refresh(self._refit_records)

    def _refit_records(self) -> None:
        width = self.query_one("#records").scrollable_content_region.width
        if width != self._records_width:  # names are cut to the pane's width
            self._records_width = width
            self._fill_records()

    def on_unmount(self) -> None:
        self._writer.shutdown(wait=True)  # every verdict given is written before the app exits

    # --- workers ---------------------------------------------------------------------------------

    def _load(self) -> None:
        from evidence.revision import Revision

        revision, error = self.revision, None
        if revision is None:
            try:
                revision = Revision.open(self.repo, self.rev)
            except Exception as exc:  # noqa: BLE001 - shown in the panes, never a traceback
                error = str(exc) or type(exc).__name__
        current = self.store.current(self.session.reviewer)
        position = self.store.position(self.session.review_key)
        stale = self.store.stale(self.session.reportset, self.session.reviewer)
        self.post_message(Loaded(revision, error, current, position, stale))

    def _anchor(self, revision: Revision) -> None:
        from evidence.anchoring import anchor_all
        from evidence.replay import replay

        def progress(done: int, total: int) -> None:
            self.post_message(AnchorProgress(done, total))

        anchors = anchor_all(self.session.reportset, revision, progress=progress)
        replays: dict[tuple[str, int], list[GrepHit]] = {}
        for record in self.session.records:
            for search in record.searches:
                try:
                    replays[(search.record, search.line)] = replay(search, revision)
                except Exception:  # noqa: BLE001 - a search that cannot run shows no hits
                    replays[(search.record, search.line)] = []
        # the anchorer read every quoted file: keep them so moving between records needs no read
        sources: dict[str, SourceFile] = {}
        for quote in anchors:
            if quote.path not in sources and len(sources) < 64:
                sources[quote.path] = revision.read(quote.path)
        self.post_message(Anchored(anchors, replays, sources))

    def on_loaded(self, message: Loaded) -> None:
        self.revision, self.revision_error = message.revision, message.error
        self.session.current = message.current
        self.stale = message.stale
        if message.position is not None:
            found = self.session.find(message.position)
            if found is not None:
                record = self.session.records[found]
                self.location = Location(found, 0 if record.quotes else None)
        self._fill_records()
        self._show_record()
        self._refresh_header()
        self._loaded.set()
        if self.revision is not None:
            revision = self.revision
            self.run_worker(
                lambda: self._anchor(revision),
                thread=True,
                exclusive=True,
                group="anchor",
                exit_on_error=False,
            )
        else:
            self.session.anchored = False
            self.query_one(SourceView).show_message(
                f"cannot open the revision: {visible(self.revision_error or '?')}",
                title="Source",
            )

    def on_anchor_progress(self, message: AnchorProgress) -> None:
        self._refresh_header(anchoring=(message.done, message.total))

    def on_anchored(self, message: Anchored) -> None:
        self.session.anchors = message.anchors
        self.session.set_replays(message.replays)
        self._sources.update(message.sources)
        self.session.anchored = True
        self._fill_records()
        self._show_record()
        self._refresh_header()
        commit = self.revision.commit if self.revision is not None else None
        reportset, anchors = self.session.reportset, message.anchors
        self._write(lambda: self.store.register(reportset, anchors, revision=commit))

    def _read_source(self, request: int, revision: Revision, path: str) -> None:
        self.post_message(SourceLoaded(request, revision.read(path)))

    @on(Worker.StateChanged)
    def _worker_failed(self, event: Worker.StateChanged) -> None:
        if event.state is not WorkerState.ERROR:
            return
        error = event.worker.error
        text = f"{event.worker.group} failed: {type(error).__name__}: {error}"
        if event.worker.group in ("load", "anchor", "source"):
            self.query_one(SourceView).show_message(visible(text), title="Source")
        self.notify(visible(text), severity="error", markup=False)

    def _write(self, work: Callable[[], object], then: Callable[..., Any] | None = None) -> None:
        """Run a store write on the writer thread; ``then(result)`` runs on the UI afterwards."""

        def done(future: Future[object]) -> None:
            error = future.exception()
            result = None if error is not None else future.result()
            self.post_message(Written(result, error, then or (lambda _result: None)))

        try:
            self._writer.submit(work).add_done_callback(done)
        except RuntimeError:  # the screen is closing: the write still must not be lost
            work()

    def on_written(self, message: Written) -> None:
        if message.error is not None:
            self.notify(
                visible(f"not saved: {message.error}"), severity="error", markup=False, timeout=10
            )
            return
        message.then(message.result)

    async def settle(self) -> None:
        """Wait until loading is done and every write so far is stored (for tests and tools)."""
        await self._loaded.wait()
        await asyncio.wrap_future(self._writer.submit(lambda: None))
        for group in ("anchor", "source"):
            for worker in list(self.workers):
                if worker.group == group and worker.is_running:
                    await worker.wait()

    # --- header and records pane -----------------------------------------------------------------

    def _refresh_header(self, anchoring: tuple[int, int] | None = None) -> None:
        reports = self.session.reportset.reports
        system = reports[0].system if reports else "no reports"
        if self.revision is not None:
            revision = f"@{self.revision.short}"
        elif self.revision_error:
            revision = "@(revision unavailable)"
        else:
            revision = f"@{(self.rev or 'HEAD')[:12]}…"
        if anchoring is not None:
            progress = f"anchoring quotes {anchoring[0]}/{anchoring[1]}…"
        elif self.revision is not None and not self.session.anchored:
            progress = "anchoring quotes…"
        else:
            progress = self.session.progress_text()
        if self.stale:
            progress += f" · {len(self.stale)} stale"
        width = max(self.size.width, 40)
        if len(system) + len(revision) + len(self.session.reviewer) + len(progress) + 16 > width:
            progress = progress.replace(" quotes failing", " failing").replace(
                " quote failing", " failing"
            )
        left = Content.assemble(
            (" assay ", "bold $text-accent"),
            " ",
            (visible(system), "bold"),
            "  ",
            (revision, "$text-warning" if self.revision_error else "$text-primary"),
            "  ",
            (visible(self.session.reviewer), "$text-secondary"),
        )
        gap = max(2, width - left.cell_length - len(progress) - 1)
        header = self.query_one("#review-header", Static)
        header.update(left + " " * gap + progress, layout=False)

    def _record_prompt(self, index: int) -> Content:
        record = self.session.records[index]
        badge = self.session.badge(record)
        name = visible(record.label if record.kind is Kind.NARRATIVE else record.id)
        status = self.session.quote_status(record)
        width = self.query_one("#records").scrollable_content_region.width
        room = width - 5 - (len(status) + 2 if status else 0)
        if width > 0 and len(name) > max(room, 8):
            name = name[: max(room, 8) - 1] + "…"
        return Content.assemble(
            ("  ", ""),
            (badge, VERDICT_STYLES[badge]),
            " ",
            name,
            ("  " + status if status else "", "$text-muted"),
        )

    def _fill_records(self) -> None:
        records = self.query_one("#records", OptionList)
        options: list[Option] = []
        self._rows = []
        for row in self.session.rows(self.filter):
            if row.kind == "report":
                options.append(Option(Content.styled(visible(row.text), "bold"), disabled=True))
            elif row.kind == "section":
                options.append(
                    Option(Content.styled(" " + visible(row.text), "$text-accent"), disabled=True)
                )
            else:
                options.append(Option(self._record_prompt(row.index), id=f"rec-{row.index}"))
            self._rows.append(row.index if row.kind == "record" else -1)
        self._syncing = True
        try:
            records.clear_options()
            records.add_options(options)
            self._sync_records_highlight()
        finally:
            self._syncing = False
        title = "Records" if self.filter == "all" else f"Records (f: {self.filter})"
        shown = sum(1 for n in self._rows if n >= 0)
        records.border_title = title
        records.border_subtitle = f"{shown}/{len(self.session.records)}"

    def _sync_records_highlight(self) -> None:
        records = self.query_one("#records", OptionList)
        if self.location.record in self._rows:
            option = self._rows.index(self.location.record)
            if records.highlighted != option:
                previous, self._syncing = self._syncing, True
                try:
                    records.highlighted = option
                finally:
                    self._syncing = previous

    def _update_record_row(self, index: int) -> None:
        records = self.query_one("#records", OptionList)
        if index in self._rows:
            records.replace_option_prompt_at_index(
                self._rows.index(index), self._record_prompt(index)
            )

    @on(OptionList.OptionHighlighted, "#records")
    def _record_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        # highlight messages arrive after the fact: act only on the one still highlighted
        stale = event.option_index != event.option_list.highlighted
        if self._syncing or stale or event.option_index >= len(self._rows):
            return
        index = self._rows[event.option_index]
        if index >= 0 and index != self.location.record:
            self.go(Location(index, self._first_quote(index)), remember=False)

    @on(OptionList.OptionSelected, "#records")
    def _record_selected(self) -> None:
        self.query_one("#record", OptionList).focus()

    # --- record pane -----------------------------------------------------------------------------

    @property
    def record(self) -> Record | None:
        """The record shown."""
        if not self.session.records:
            return None
        return self.session.records[self.location.record]

    @property
    def quote(self) -> Quote | None:
        """The quote shown in the source pane."""
        record = self.record
        if record is None or self.location.quote is None or not record.quotes:
            return None
        return record.quotes[min(self.location.quote, len(record.quotes) - 1)]

    def _first_quote(self, index: int) -> int | None:
        return 0 if self.session.records[index].quotes else None

    def _record_options(self, record: Record) -> Iterator[Option]:
        session = self.session
        report = session.report_of(record)
        verdict = session.verdict(session.record_item(record))
        head = Content.assemble(
            (visible(record.label or record.id), "bold"),
            "\n",
            (visible(f"{record.id} · {record.kind.value} · {record.section}"), "$text-muted"),
            "\n",
            (
                f"verdict: {verdict.value if verdict else 'not reviewed'}",
                VERDICT_STYLES[BADGES[verdict]],
            ),
        )
        yield Option(head, disabled=True)
        details: list[Content] = []
        for name, value in record.fields:
            details.append(
                Content.assemble((visible(name) + ": ", "$text-secondary"), visible(value))
            )
        for name, value in record.statuses:
            details.append(
                Content.assemble((visible(name) + ": ", "$text-secondary"), (visible(value), "b"))
            )
        if record.body.strip():
            details.append(safe_content(record.body.strip(), multiline=True))
        if details:
            yield Option(Content("\n").join(details), disabled=True)
        note = session.note(session.record_item(record))
        if note:
            yield Option(
                Content.assemble(("note: ", "$text-warning"), visible(note, multiline=True)),
                disabled=True,
            )
        if record.quotes:
            yield Option(Content.styled("─ quotes ─", "$text-accent"), disabled=True)
            for n, quote in enumerate(record.quotes):
                yield Option(self._quote_prompt(record, n, quote), id=f"quote-{n}")
        for search in record.searches:
            hits = session.replays.get((search.record, search.line))
            count = "…" if hits is None else str(len(hits))
            yield Option(
                Content.assemble(
                    (f"⌕ {count} ", "$text-accent"), (visible(search.command), "italic")
                ),
                disabled=True,
            )
        if record.references:
            yield Option(Content.styled("─ references ─", "$text-accent"), disabled=True)
            for ref in record.references:
                target = session.find(ref)
                known = target is not None
                label = session.records[target].label if target is not None else "not loaded"
                yield Option(
                    Content.assemble(
                        ("→ ", "$text-accent"),
                        (visible(ref), "underline" if known else "$text-muted"),
                        ("  " + visible(label), "$text-muted"),
                    ),
                    id=f"ref-{ref}",
                    disabled=not known,
                )
        record_key = session.record_item(record).key
        stale = [item for item in self.stale if item.event.ref.record_key == record_key]
        if stale:
            yield Option(Content.styled("─ stale verdicts ─", "$text-warning"), disabled=True)
            for item in stale:
                event = item.event
                state = event.verdict.value if event.verdict else "note"
                yield Option(
                    Content.assemble(
                        (f"{BADGES[event.verdict]} {state}", VERDICT_STYLES[BADGES[event.verdict]]),
                        (f"  on a quote that changed ({event.at[:10]})", "$text-warning"),
                        ("\n" + visible(event.note, multiline=True)) if event.note else "",
                    ),
                    disabled=True,
                )
        annotations = session.annotations(record)
        if annotations:
            yield Option(Content.styled("─ annotations ─", "$text-accent"), disabled=True)
            for annotation in annotations:
                other = session.report_of(annotation)
                where = other.title if other is not report else "this report"
                body = annotation.body.strip()
                yield Option(
                    Content.assemble(
                        (visible(f"{annotation.id} ({where})"), "underline"),
                        "\n",
                        visible(body, multiline=True),
                    ),
                    id=f"ann-{session.index_of(annotation)}",
                )
        if record.kind is Kind.ANNOTATION and record.annotates:
            yield Option(Content.styled("─ annotates ─", "$text-accent"), disabled=True)
            yield Option(
                Content.assemble(("→ ", "$text-accent"), (visible(record.annotates), "underline")),
                id=f"ref-{record.annotates}",
                disabled=session.find(record.annotates) is None,
            )

    def _quote_prompt(self, record: Record, n: int, quote: Quote) -> Content:
        session = self.session
        anchor = session.anchor(quote)
        symbol = tier_symbol(anchor) if session.anchored else "…"
        verdict = session.verdict(session.quote_item(record, quote))
        badge = BADGES[verdict]
        if anchor is None:
            where = f"{quote.path}:{lines_text(quote.claimed)}" if quote.claimed else quote.path
            detail = "anchoring…" if self.revision is not None else "not anchored"
        else:
            where = f"{quote.path}:{lines_text(anchor.lines)}" if anchor.lines else quote.path
            detail = f"{anchor.match.value} {anchor.score:.0f}"
            if anchor.range_ok is False and quote.claimed:
                detail += f", claimed {lines_text(quote.claimed)}"
            if len(anchor.occurrences) > 1:
                detail += f", {len(anchor.occurrences)} occurrences"
        first_line = quote.text.strip().splitlines()[0] if quote.text.strip() else ""
        return Content.assemble(
            (badge, VERDICT_STYLES[badge]),
            f" [{n + 1}] ",
            (symbol, TIER_STYLES.get(symbol, "$text-muted")),
            " ",
            (visible(detail), "$text-muted"),
            "  ",
            (visible(where), "$text-primary"),
            "\n    ",
            (visible(first_line[:200]), "italic $text-muted"),
        )

    def _show_record(self) -> None:
        record = self.record
        pane = self.query_one("#record", OptionList)
        if record is None:
            pane.clear_options()
            self.query_one(SourceView).show_message("no records in these reports")
            return
        self._syncing = True
        try:
            pane.clear_options()
            pane.add_options(list(self._record_options(record)))
            self._sync_record_highlight()
        finally:
            self._syncing = False
        pane.border_title = Content.assemble(
            (visible(record.id), "bold"), "  ", (record.kind.value, "$text-muted")
        )
        report = self.session.report_of(record)
        pane.border_subtitle = safe_content(report.title or report.file)
        pane.scroll_home(animate=False)
        self._sync_records_highlight()
        self._show_source()

    def _sync_record_highlight(self) -> None:
        pane = self.query_one("#record", OptionList)
        if self.location.quote is None:
            return
        try:
            index = pane.get_option_index(f"quote-{self.location.quote}")
        except Exception:  # noqa: BLE001 - OptionDoesNotExist: no such quote
            return
        previous, self._syncing = self._syncing, True
        try:
            pane.highlighted = index
        finally:
            self._syncing = previous

    @on(OptionList.OptionHighlighted, "#record")
    def _link_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if self._syncing or event.option_index != event.option_list.highlighted:
            return
        option_id = event.option.id or ""
        if option_id.startswith("quote-"):
            quote = int(option_id.removeprefix("quote-"))
            if quote != self.location.quote:
                self.location = Location(self.location.record, quote)
                self.opened_path = None
                self._show_source()

    @on(OptionList.OptionSelected, "#record")
    def _link_selected(self, event: OptionList.OptionSelected) -> None:
        self._follow_option(event.option.id or "")

    def _follow_option(self, option_id: str) -> None:
        if option_id.startswith("quote-"):
            self.query_one(SourceView).focus()
        elif option_id.startswith("ref-"):
            target = self.session.find(option_id.removeprefix("ref-"))
            if target is not None:
                self.jump(Location(target, self._first_quote(target)))
        elif option_id.startswith("ann-"):
            target = int(option_id.removeprefix("ann-"))
            self.jump(Location(target, self._first_quote(target)))

    # --- source pane -----------------------------------------------------------------------------

    def _show_source(self) -> None:
        view = self.query_one(SourceView)
        self._refresh_quote_info()
        if self.opened_path is not None:
            return
        quote = self.quote
        if quote is None:
            self.source_request += 1  # a read still in flight is not shown any more
            self.shown_request = self.source_request
            record = self.record
            text = "this record quotes no source" if record is not None else ""
            view.show_message(text, title="Source")
            self._refresh_diff()
            return
        if self.revision is None:
            if self.revision_error is None:
                return  # still opening; the Loaded handler shows the quote
            view.show_message(f"cannot open the revision: {visible(self.revision_error)}")
            return
        self._open(quote.path)

    def _open(self, path: str) -> None:
        """Read a file from the revision in a worker; SourceLoaded shows it."""
        assert self.revision is not None
        self.source_request += 1
        request, revision = self.source_request, self.revision
        cached = self._sources.get(path)
        if cached is not None:  # read before: no git read, show it in this frame
            self.on_source_loaded(SourceLoaded(request, cached))
            return
        self.run_worker(
            lambda: self._read_source(request, revision, path),
            thread=True,
            exclusive=True,
            group="source",
            exit_on_error=False,
        )

    def on_source_loaded(self, message: SourceLoaded) -> None:
        if message.request != self.source_request:
            return
        self.shown_request = message.request
        source = self._source = message.source
        self._sources[source.path] = source
        while len(self._sources) > 96:
            self._sources.pop(next(iter(self._sources)))
        view = self.query_one(SourceView)
        short = self.revision.short if self.revision is not None else "?"
        problem = file_message(source)
        quote = self.quote if self.opened_path is None else None
        record = self.record
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
            self._refresh_diff()
            return
        from evidence.backlinks import backlink_lines, backlinks

        links = backlinks(self.session.anchors, source.path, self.session.reportset)
        marks = SourceMarks(backlinks=backlink_lines(links))
        line = self._pending_line
        if quote is not None:
            anchor = self.session.anchor(quote)
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
        self._refresh_diff()

    _pending_line: int | None = None

    def open_path(self, path: str, line: int | None = None) -> None:
        """Show a file of the revision (from the finder, grep or find), not tied to a quote."""
        if self.revision is None:
            self.notify("the revision is not open", severity="warning")
            return
        self.opened_path = path
        self._pending_line = line
        self._refresh_quote_info()
        self._open(path)

    def _refresh_quote_info(self) -> None:
        info = self.query_one("#quote-info", Static)
        quote = self.quote
        if self.opened_path is not None:
            info.update(
                Content.assemble(
                    ("file ", "$text-muted"),
                    visible(self.opened_path),
                    ("  (] returns to the quotes)", "$text-muted"),
                ),
                layout=False,
            )
            return
        if quote is None:
            info.update("", layout=False)
            return
        anchor = self.session.anchor(quote)
        parts: list[Content | str | tuple[str, str]] = [f"[{quote.index + 1}] "]
        if anchor is None:
            parts.append(("not anchored yet", "$text-muted"))
        else:
            symbol = tier_symbol(anchor)
            parts += [
                (f"{symbol} {anchor.match.value} {anchor.score:.0f}", TIER_STYLES[symbol]),
                f"  lines {lines_text(anchor.lines)}" if anchor.lines else "  not found",
            ]
            if quote.claimed is not None:
                if anchor.range_ok:
                    parts.append(("  as claimed", "$text-success"))
                else:
                    parts.append((f"  claimed {lines_text(quote.claimed)}", "$text-warning"))
            others = [o for o in anchor.occurrences if o != anchor.lines]
            if others:
                parts.append(
                    ("  also at " + ", ".join(lines_text(o) for o in others[:4]), "$text-accent")
                )
            if anchor.elsewhere:
                first = anchor.elsewhere[0]
                parts.append(
                    (
                        f"  found in {visible(first.path)}:{lines_text(first.lines)}",
                        "$text-accent",
                    )
                )
            for note in anchor.notes[:1]:
                parts.append(("  " + visible(note), "$text-muted"))
            if anchor.diff and not anchor.match.verified or anchor.match is Tier.FUZZY:
                parts.append(("  d: diff", "$text-muted"))
        info.update(Content.assemble(*parts), layout=False)

    def _refresh_diff(self) -> None:
        if not self.has_class("-diff"):
            return  # filled when shown
        diff = self.query_one("#diff-text", Static)
        quote = self.quote if self.opened_path is None else None
        anchor = self.session.anchor(quote) if quote is not None else None
        if quote is None or anchor is None:
            diff.update(Content.styled("no quote to compare", "$text-muted"))
            return
        if not anchor.diff:
            text = (
                "the quote matches the source"
                if anchor.match.verified
                else "the quote was not found in the source"
            )
            diff.update(Content.styled(text, "$text-muted"))
            return
        quote_side: list[Content] = [Content.styled("quote   ", "bold")]
        source_side: list[Content] = [Content.styled("source  ", "bold")]
        for part in anchor.diff:
            if part.op == "equal":
                quote_side.append(Content(visible(part.quote, multiline=True)))
                source_side.append(Content(visible(part.source, multiline=True)))
            else:
                if part.quote:
                    quote_side.append(
                        Content.styled(
                            visible(part.quote, multiline=True), "bold underline $text-error"
                        )
                    )
                if part.source:
                    source_side.append(
                        Content.styled(
                            visible(part.source, multiline=True), "bold underline $text-success"
                        )
                    )
        header = Content.styled(
            f"[{quote.index + 1}] {tier_symbol(anchor)} {anchor.match.value} "
            f"{anchor.score:.0f}  {quote.path}:{lines_text(anchor.lines)}",
            "$text-accent",
        )
        legend = Content.styled(
            "underlined red: only in the quote · underlined green: only in the source",
            "$text-muted",
        )
        candidates = [
            f"{lines_text(candidate.lines)} ({candidate.score:.0f})"
            for candidate in anchor.candidates[:5]
        ]
        lines = [
            header,
            Content("").join(quote_side),
            Content("").join(source_side),
            legend,
        ]
        if candidates:
            lines.append(
                Content.styled("other candidates: " + ", ".join(candidates), "$text-muted")
            )
        diff.update(Content("\n").join(lines))

    # --- moving ----------------------------------------------------------------------------------

    def go(self, location: Location, *, remember: bool = False) -> None:
        """Show a record (and quote); with ``remember`` the jump can be undone with back."""
        if not self.session.records:
            return
        if remember and location != self.location:
            self.back_stack.append(self.location)
            self.forward_stack.clear()
        changed = location.record != self.location.record
        self.location = location
        self.opened_path = None
        if changed:
            record = self.session.records[location.record]
            self._write(lambda: self.store.set_position(self.session.review_key, record.id))
        self._show_record()

    def jump(self, location: Location) -> None:
        """Go somewhere and remember where we came from."""
        self.go(location, remember=True)

    def action_next_record(self) -> None:
        self._step_record(1)

    def action_prev_record(self) -> None:
        self._step_record(-1)

    def _step_record(self, step: int) -> None:
        if not self.session.records:
            return
        target = self.session.next_index(self.location.record, step, self.filter)
        if target is not None:
            self.go(Location(target, self._first_quote(target)))

    def action_next_unreviewed(self) -> None:
        if not self.session.records:
            return
        target = self.session.next_index(self.location.record, 1, "unreviewed")
        if target is None:
            self.notify("every record has a verdict")
            return
        self.go(Location(target, self._first_quote(target)))

    def action_next_quote(self) -> None:
        self._step_quote(1)

    def action_prev_quote(self) -> None:
        self._step_quote(-1)

    def _step_quote(self, step: int) -> None:
        record = self.record
        if record is None or not record.quotes:
            self.notify("this record has no quotes")
            return
        if self.opened_path is not None or self.location.quote is None:
            quote = 0
        else:
            quote = (self.location.quote + step) % len(record.quotes)
        self.location = Location(self.location.record, quote)
        self.opened_path = None
        self._sync_record_highlight()
        self._show_source()

    def action_move_down(self) -> None:
        self._move_focused(1)

    def action_move_up(self) -> None:
        self._move_focused(-1)

    def _move_focused(self, step: int) -> None:
        focused = self.focused
        if isinstance(focused, (OptionList, SourceView)):
            focused.action_cursor_down() if step > 0 else focused.action_cursor_up()
        elif isinstance(focused, Widget):
            focused.scroll_relative(y=step, animate=False)

    def _panes(self) -> list[Widget]:
        panes: list[Widget] = [self.query_one("#records"), self.query_one("#record")]
        panes.append(self.query_one(SourceView))
        if self.has_class("-diff"):
            panes.append(self.query_one("#diff"))
        return panes

    def action_next_pane(self) -> None:
        self._cycle_pane(1)

    def action_prev_pane(self) -> None:
        self._cycle_pane(-1)

    def _cycle_pane(self, step: int) -> None:
        panes = self._panes()
        focused = self.focused
        index = panes.index(focused) if focused in panes else -1
        panes[(index + step) % len(panes)].focus()

    def action_follow(self) -> None:
        focused = self.focused
        if focused is self.query_one("#records"):
            records = self.query_one("#records", OptionList)
            if records.highlighted is not None:
                records.action_select()
        elif focused is self.query_one("#record"):
            pane = self.query_one("#record", OptionList)
            if pane.highlighted is not None:
                option = pane.get_option_at_index(pane.highlighted)
                self._follow_option(option.id or "")
        elif isinstance(focused, SourceView):
            self.action_backlinks()

    def action_back(self) -> None:
        if not self.back_stack:
            self.notify("nothing to go back to")
            return
        self.forward_stack.append(self.location)
        self.go(self.back_stack.pop())

    def action_forward(self) -> None:
        if not self.forward_stack:
            self.notify("nothing to go forward to")
            return
        self.back_stack.append(self.location)
        self.go(self.forward_stack.pop())

    def action_cycle_filter(self) -> None:
        self.filter = FILTERS[(FILTERS.index(self.filter) + 1) % len(FILTERS)]
        self._fill_records()
        if self.session.records and self.location.record not in self._rows:
            first = next((n for n in self._rows if n >= 0), None)
            if first is not None:
                self.go(Location(first, self._first_quote(first)))
        self.notify(f"showing {self.filter} records", timeout=2)

    # --- verdicts and notes ----------------------------------------------------------------------

    def _target(self) -> tuple[ItemRef, str] | None:
        """The item a verdict key acts on: the focused quote, else the record."""
        record = self.record
        if record is None:
            return None
        quote = None
        focused = self.focused
        if self.opened_path is None and self.quote is not None:
            if isinstance(focused, SourceView) or focused is self.query_one("#diff"):
                quote = self.quote
            elif focused is self.query_one("#record"):
                pane = self.query_one("#record", OptionList)
                if pane.highlighted is not None:
                    option_id = pane.get_option_at_index(pane.highlighted).id or ""
                    if option_id.startswith("quote-"):
                        quote = self.quote
        if quote is not None:
            return self.session.quote_item(record, quote), f"{record.id} [{quote.index + 1}]"
        return self.session.record_item(record), record.id

    def _revision_id(self) -> str | None:
        return self.revision.commit if self.revision is not None else self.rev

    def action_verdict(self, value: str) -> None:
        target = self._target()
        if target is None:
            return
        item, label = target
        verdict = Verdict(value)
        reviewer, revision = self.session.reviewer, self._revision_id()

        def saved(event: Event) -> None:
            self._after_change(event)
            self.notify(f"{label}: {verdict.value}", timeout=2)

        self._write(
            lambda: self.store.give(item, verdict, reviewer=reviewer, revision=revision), saved
        )

    def _after_change(self, event: Event) -> None:
        self.session.apply(event)
        record_key = event.ref.record_key
        for n, each in enumerate(self.session.records):
            if self.session.record_item(each).key == record_key:
                self._update_record_row(n)
        record = self.record
        if record is not None and self.session.record_item(record).key == record_key:
            highlighted = self.query_one("#record", OptionList).highlighted
            self._syncing = True
            try:
                pane = self.query_one("#record", OptionList)
                pane.clear_options()
                pane.add_options(list(self._record_options(record)))
                if highlighted is not None and highlighted < pane.option_count:
                    pane.highlighted = highlighted
            finally:
                self._syncing = False
        self._refresh_header()

    def action_undo(self) -> None:
        reviewer = self.session.reviewer

        def undone(event: Event | None) -> None:
            if event is None:
                self.notify("nothing to undo")
                return
            self._after_change(event)
            state = event.verdict.value if event.verdict else "no verdict"
            what = f"a quote of {event.record}" if event.quote else event.record
            self.notify(visible(f"undone: {what} is back to {state}"), markup=False, timeout=3)

        self._write(lambda: self.store.undo(reviewer), undone)

    def action_note(self) -> None:
        target = self._target()
        if target is None:
            return
        item, label = target
        verdict = self.session.verdict(item)
        from screens.note import NoteScreen

        title = f"Note on {label} · {verdict.value if verdict else 'not reviewed'}"
        reviewer, revision = self.session.reviewer, self._revision_id()

        def edited(text: str | None) -> None:
            if text is None:
                return
            self._write(
                lambda: self.store.note(item, text, reviewer=reviewer, revision=revision),
                self._after_change,
            )

        self.app.push_screen(NoteScreen(title, self.session.note(item)), edited)

    # --- dialogs ---------------------------------------------------------------------------------

    def action_quit(self) -> None:
        self.app.exit()

    def action_help(self) -> None:
        from screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self.keymap))

    def action_toggle_theme(self) -> None:
        self.app.theme = "textual-light" if self.app.current_theme.dark else "textual-dark"

    def action_diff(self) -> None:
        self.toggle_class("-diff")
        self._refresh_diff()
        if not self.has_class("-diff") and self.focused is self.query_one("#diff"):
            self.query_one(SourceView).focus()

    def find_targets(self) -> list[FindTarget]:
        """Everything `/` can find: records, quotes, and the files of the revision."""
        from screens.find import FindTarget

        targets: list[FindTarget] = []
        for n, record in enumerate(self.session.records):
            label = f"{record.id}  {record.label}"
            targets.append(FindTarget("record", label, f"{record.id} {record.label}", n))
        for n, record in enumerate(self.session.records):
            for quote in record.quotes:
                first = quote.text.strip().splitlines()[0] if quote.text.strip() else ""
                label = f"{record.id} [{quote.index + 1}] {quote.path}: {first[:80]}"
                text = f"{quote.path} {quote.text[:300]}"
                targets.append(FindTarget("quote", label, text, n, quote.index))
        if self.revision is not None:
            for path in self.revision.paths():
                targets.append(FindTarget("file", path, path, path=path))
        return targets

    def action_find(self) -> None:
        from screens.find import FindScreen

        def found(target: FindTarget | None) -> None:
            if target is None:
                return
            if target.kind == "file":
                self.open_path(target.path)
            elif target.kind == "quote":
                self.jump(Location(target.record, target.quote))
            else:
                self.jump(Location(target.record, self._first_quote(target.record)))

        self.app.push_screen(FindScreen(self.find_targets()), found)

    # --- hooks for the lookup screens (issue 7) --------------------------------------------------

    def action_open_file(self) -> None:
        """Push the file finder; open the chosen path in the source pane."""
        if self.revision is None:
            self.notify("the revision is not open", severity="warning")
            return
        from screens.finder import FileFinder

        def chosen(path: str | None) -> None:
            if path:
                self.open_path(path)

        self.app.push_screen(FileFinder(self.revision.paths()), chosen)

    def action_grep(self) -> None:
        """Push grep at the revision; open the chosen hit."""
        if self.revision is None:
            self.notify("the revision is not open", severity="warning")
            return
        from screens.grep import GrepScreen

        def chosen(hit: GrepHit | None) -> None:
            if hit is not None:
                self.open_path(hit.path, hit.line)

        self.app.push_screen(GrepScreen(self.revision), chosen)

    def action_goto_line(self) -> None:
        """Push go-to-line for the file in the source pane."""
        view = self.query_one(SourceView)
        if not view.line_count:
            self.notify("no file is open", severity="warning")
            return
        from screens.goto import GotoLine

        def chosen(line: int | None) -> None:
            if line is not None:
                view.go_to_line(line)
                view.focus()

        self.app.push_screen(GotoLine(view.line_count, view.cursor_line), chosen)

    def action_permalink(self) -> None:
        """Copy a permalink to the selected lines of the open file (OSC 52) and show it."""
        view = self.query_one(SourceView)
        if self.revision is None or view.path is None:
            self.notify("no file is open", severity="warning")
            return
        from evidence.permalink import link_for

        link = link_for(self.revision.remote_url(), self.revision.commit, view.path, view.selection)
        self.app.copy_to_clipboard(link.text)
        shown = link.text if link.web else f"{link.text} ({link.reason})"
        self.notify(visible(f"copied {shown}"), markup=False, timeout=6)

    def action_backlinks(self) -> None:
        """List the quotes that cite the open file; jump to the chosen record and quote."""
        view = self.query_one(SourceView)
        if view.path is None:
            self.notify("no file is open", severity="warning")
            return
        from evidence.backlinks import backlinks
        from screens.backlinks import BacklinksScreen

        links = backlinks(self.session.anchors, view.path, self.session.reportset)

        def chosen(link: Any) -> None:
            if link is None:
                return
            target = next(
                (
                    n
                    for n, record in enumerate(self.session.records)
                    if record.id == link.record and link.quote in record.quotes
                ),
                self.session.find(link.record),
            )
            if target is not None:
                record = self.session.records[target]
                quote = record.quotes.index(link.quote) if link.quote in record.quotes else None
                if quote is None:
                    quote = self._first_quote(target)
                self.jump(Location(target, quote))

        self.app.push_screen(BacklinksScreen(links, path=view.path), chosen)

    # --- command palette -------------------------------------------------------------------------

    def palette_commands(self) -> Iterator[SystemCommand]:
        """Every action of this screen, and a jump to every record (for the command palette)."""
        for spec in SPECS:
            if spec.context != "review" or spec.id == "quit":
                continue
            keys = ", ".join(self.keymap.keys_for(spec.id))
            yield SystemCommand(
                spec.description,
                f"{spec.group} · {keys}",
                lambda action=spec.action: self.run_action(action),
            )
        for n, record in enumerate(self.session.records):
            label = f" · {record.label}" if record.label and record.label != record.id else ""
            yield SystemCommand(
                visible(f"Go to {record.id}{label}"),
                visible(f"{record.kind.value} in {record.section}"),
                lambda n=n: self.jump(Location(n, self._first_quote(n))),
            )


__all__ = ["ReviewScreen", "Location", "specs_for"]
