"""The record pane: the selected record's label, fields, body, quotes, references and annotations.

Attributes down (`session`, `stale`, `revision_open`, then `show(record, quote)`), messages up:
`QuoteHighlighted` when the cursor moves onto a quote, `Followed` when a row is chosen.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, ClassVar

from rich.cells import cell_len
from textual import events, on
from textual.content import Content
from textual.message import Message

from db.keys import Verdict
from evidence.model import Kind, Quote, Record, Tier
from keymaps.bindings import bindings_for
from screens.quote_status import BADGES, tier_symbol
from screens.safe import safe_content, visible
from screens.session import ReviewSession
from screens.widgets.badges import TIER_STYLES, VERDICT_STYLES, lines_text
from screens.widgets.cited_rows import cited_rows
from screens.widgets.drift_rows import drift_rows
from screens.widgets.lists import Row, RowList
from screens.widgets.prepared_list import PreparedList
from screens.widgets.records_pane import cut_id
from screens.widgets.truecolor import TruecolorOnly

if TYPE_CHECKING:
    from db import Event, StaleVerdict


#: replayed search hits listed under a search command; the rest are counted
MAX_REPLAY_HITS = 12


VERDICT_WORDS = {
    "confirmed": "confirmed",
    "refuted": "refuted",
    "unclear": "unclear",
    "skip": "skipped",
}


def verdict_word(verdict: Verdict | None) -> Content:
    """The reviewer's verdict as a word in its colour: ``refuted``, or ``open`` for none."""
    word = VERDICT_WORDS[verdict.value] if verdict is not None else "open"
    return Content.styled(word, VERDICT_STYLES[BADGES[verdict]])


def note_lines(note: str) -> Content:
    """A note under what it is on: ``✎ `` then its text, as data."""
    return Content.assemble(("✎ ", "$text-warning"), visible(note.strip(), multiline=True))


def quote_prompt(
    session: ReviewSession, record: Record, quote: Quote, *, revision_open: bool
) -> Content:
    """One quote of the record pane: number, verdict, anchor tier, place, first line, note."""
    anchor = session.anchor(quote)
    symbol = tier_symbol(anchor) if session.anchored else "∅" if session.unchecked else "…"
    item = session.quote_item(record, quote)
    if anchor is None:
        where = f"{quote.path}:{lines_text(quote.claimed)}" if quote.claimed else quote.path
        detail = "anchoring…" if revision_open else "not anchored"
        if session.unchecked:
            detail = f"not checked: {session.unchecked}"
    else:
        where = f"{quote.path}:{lines_text(anchor.lines)}" if anchor.lines else quote.path
        detail = f"{anchor.match.value} {anchor.score:.0f}"
        if anchor.match is Tier.LOCATED:
            detail = "located (no snippet)"
        if anchor.range_ok is False and quote.claimed:
            detail += f", claimed {lines_text(quote.claimed)}"
        if len(anchor.occurrences) > 1:
            detail += f", {len(anchor.occurrences)} occurrences"
    first_line = quote.text.strip().splitlines()[0] if quote.text.strip() else ""
    if quote.role:  # SARIF: "step: <its message> — <snippet>"
        said = f"{quote.role}: {quote.note}" if quote.note else quote.role
        first_line = f"{said} — {first_line}" if first_line else said
    note = session.note(item)
    return Content.assemble(
        f"[{quote.index + 1}] ",
        verdict_word(session.verdict(item)),
        " · ",
        (symbol, TIER_STYLES.get(symbol, "$text-muted")),
        " ",
        (visible(detail), "$text-muted"),
        "  ",
        (visible(where), "$text-primary"),
        "\n    ",
        (visible(first_line[:200]), "italic $text-muted"),
        Content("\n    ") + note_lines(note) if note else "",
    )


def other_verdict(event: Event, quote: int | None) -> Content:
    """Another reviewer's verdict (and note) on the record or one of its quotes."""
    state = event.verdict.value if event.verdict else "note"
    if quote is None:
        on = "on the record"
    elif quote < 0:
        on = "on a quote that changed"
    else:
        on = f"on quote {quote + 1}"
    return Content.assemble(
        (visible(event.reviewer), "bold $text-secondary"),
        "  ",
        (f"{BADGES[event.verdict]} {state}", VERDICT_STYLES[BADGES[event.verdict]]),
        (f"  {on}", "$text-muted"),
        ("\n" + visible(event.note, multiline=True)) if event.note else "",
    )


def record_rows(
    session: ReviewSession,
    record: Record,
    *,
    stale: list[StaleVerdict],
    revision_open: bool,
    against: str = "",
) -> Iterator[Row]:
    """The rows of the record pane; quotes, references, annotations and commits can be
    followed (``against``: the short id of the revision drift is shown against)."""
    report = session.report_of(record)
    own = session.record_item(record)
    note = session.note(own)
    head = Content.assemble(
        (visible(record.label or record.id), "bold"),
        "\n",
        (visible(f"{record.id} · {record.kind.value} · {record.section}"), "$text-muted"),
        "\n",
        ("verdict: ", "$text-muted"),
        verdict_word(session.record_verdict(record)),
        (" (on its only location)", "$text-muted")
        if session.verdict(own) is None and session.record_verdict(record) is not None
        else "",
        Content("\n") + note_lines(note) if note else "",
    )
    yield Row(head, id="record")  # the cursor on it: verdict keys act on the record
    details: list[Content] = []
    for name, value in record.fields:
        details.append(Content.assemble((visible(name) + ": ", "$text-secondary"), visible(value)))
    for name, value in record.statuses:
        # a SARIF result's level and baseline state are fields too (the statuses drive triage):
        # said once
        if any(value == said and field.startswith(name) for field, said in record.fields):
            continue
        details.append(
            Content.assemble((visible(name) + ": ", "$text-secondary"), (visible(value), "b"))
        )
    if record.body.strip():
        details.append(safe_content(record.body.strip(), multiline=True))
    if details:
        yield Row(Content("\n").join(details), disabled=True)
    # what the parser noted in the record's lines (an unattributed passage: not checked)
    first, last = record.lines
    noted = [d for d in report.diagnostics if first <= d.line <= last]
    if noted:
        yield Row(
            Content("\n").join(
                Content.styled(
                    visible(f"! {d.shown(results=record.kind is Kind.RESULT)}"), "$text-warning"
                )
                for d in noted
            ),
            disabled=True,
        )
    others = session.others_on(record)
    if others:
        yield Row(Content.styled("─ other reviewers ─", "$text-accent"), disabled=True)
        for event, place in others:
            yield Row(other_verdict(event, place), disabled=True)
    if record.quotes:
        yield Row(Content.styled("─ quotes ─", "$text-accent"), disabled=True)
        for n, quote in enumerate(record.quotes):
            prompt = quote_prompt(session, record, quote, revision_open=revision_open)
            yield Row(prompt, id=f"quote-{n}")
            yield from drift_rows(session, quote, n, against)
    for s_index, search in enumerate(record.searches):
        hits = session.replays.get((search.record, search.line))
        count = "…" if hits is None else str(len(hits))
        yield Row(
            Content.assemble(
                (f"⌕ {count} ", "$text-accent"),
                (visible(search.command), "italic"),
                (" replayed at the revision" if hits is not None else " replaying…", "$text-muted"),
            ),
            disabled=True,
        )
        for h_index, hit in enumerate((hits or [])[:MAX_REPLAY_HITS]):
            yield Row(
                Content.assemble(
                    (f"  {visible(hit.path)}:{hit.line}  ", "$text-accent"),
                    visible(hit.text.strip()),
                ),
                id=f"hit-{s_index}-{h_index}",
            )
        if hits is not None and len(hits) > MAX_REPLAY_HITS:
            yield Row(
                Content.styled(f"  … {len(hits) - MAX_REPLAY_HITS} more hits", "$text-muted"),
                disabled=True,
            )
    yield from cited_rows(session, record, against)
    if record.references:
        yield Row(Content.styled("─ references ─", "$text-accent"), disabled=True)
        for ref in record.references:
            target = session.find(ref)
            known = target is not None
            label = session.records[target].label if target is not None else "not loaded"
            yield Row(
                Content.assemble(
                    ("→ ", "$text-accent"),
                    (visible(ref), "underline" if known else "$text-muted"),
                    ("  " + visible(label), "$text-muted"),
                ),
                id=f"ref-{ref}",
                disabled=not known,
            )
    record_key = session.record_item(record).key
    stale_here = [item for item in stale if item.event.ref.record_key == record_key]
    if stale_here:
        yield Row(Content.styled("─ stale verdicts ─", "$text-warning"), disabled=True)
        for item in stale_here:
            event = item.event
            state = event.verdict.value if event.verdict else "note"
            yield Row(
                Content.assemble(
                    (f"{BADGES[event.verdict]} {state}", VERDICT_STYLES[BADGES[event.verdict]]),
                    (f"  on a quote that changed ({visible(event.at[:10])})", "$text-warning"),
                    ("\n" + visible(event.note, multiline=True)) if event.note else "",
                ),
                disabled=True,
            )
    annotations = session.annotations(record)
    if annotations:
        yield Row(Content.styled("─ annotations ─", "$text-accent"), disabled=True)
        for annotation in annotations:
            other = session.report_of(annotation)
            where = other.title if other is not report else "this report"
            body = annotation.body.strip()
            yield Row(
                Content.assemble(
                    (visible(f"{annotation.id} ({where})"), "underline"),
                    "\n",
                    visible(body, multiline=True),
                ),
                id=f"ann-{session.index_of(annotation)}",
            )
    if record.kind is Kind.ANNOTATION and record.annotates:
        yield Row(Content.styled("─ annotates ─", "$text-accent"), disabled=True)
        yield Row(
            Content.assemble(("→ ", "$text-accent"), (visible(record.annotates), "underline")),
            id=f"ref-{record.annotates}",
            disabled=session.find(record.annotates) is None,
        )


class RecordPane(TruecolorOnly, PreparedList):
    """One record, read line by line: the cursor rests on the record and on what can be followed.

    `j`/`k` move the cursor to the next row one can act on when it is on screen, else scroll a
    line, so that every line of a long record is read on the way; the page keys, `home` and
    `end` scroll the lines and leave the cursor (and what verdict keys act on) alone. The cursor
    on the record's own row (its label and verdict) or on a quote selects what verdicts land on.
    """

    BINDINGS = bindings_for("record")
    BAR: ClassVar[int] = 1

    class QuoteHighlighted(Message):
        """The cursor moved onto a quote, or onto the record (``quote`` None), by key or mouse."""

        def __init__(self, quote: int | None) -> None:
            super().__init__()
            self.quote = quote

    class RowHighlighted(Message):
        """The cursor moved onto a row that is not a quote (a search hit, a reference...)."""

        def __init__(self, row_id: str) -> None:
            super().__init__()
            self.row_id = row_id

    class Followed(Message):
        """A row was chosen: ``quote-N``, ``ref-ID``, ``ann-N``, ``hit-S-H`` or ``cite-N``."""

        def __init__(self, target: str) -> None:
            super().__init__()
            self.target = target

    def __init__(self, session: ReviewSession, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.session = session
        self.record: Record | None = None
        self.stale: list[StaleVerdict] = []  # verdicts on quotes that changed
        self.revision_open = False  # unanchored quotes: "anchoring…", else "not anchored"
        self.against = ""  # the short id of the revision drift is shown against
        self._title: tuple[str, str] | None = None  # the record's id and kind, for the border
        self._title_shown: tuple[str, str] | None = None  # what the border shows of it

    @property
    def highlighted_id(self) -> str:
        """The id of the row under the cursor ("" for none or a row that cannot be followed)."""
        if self.highlighted is None:
            return ""
        return self.row(self.highlighted).id or ""

    def show(self, record: Record | None, quote: int | None) -> None:
        """Show a record scrolled to the top, the cursor on a quote (None: on the record)."""
        self.record = record
        self.set_rows(list(self._rows_of(record)) if record is not None else [])
        self.highlight_quote(quote)
        self.show_top()  # the record's label first, even when its quote is further down
        self._title = None if record is None else (visible(record.id), record.kind.value)
        self._title_shown = None  # set whatever the border shows (a title set in between)
        if record is None:
            return
        self._fit_title()
        report = self.session.report_of(record)
        self.border_subtitle = safe_content(report.title or report.file)

    def on_resize(self, event: events.Resize) -> None:
        self._fit_title()  # (RowList's own on_resize is dispatched too, as Textual does)

    def _fit_title(self) -> None:
        """The record's id and kind in the border's room: the kind left out before the id is
        cut (in its middle, as the records list cuts ids), not cut by the border to "id  …"."""
        if self._title is None:
            return
        name, kind = self._title
        # before the first layout, the width it will give (`expect_width`): the title is fitted
        # once, not again on the layout's Resize, which would draw every line of the pane again
        outer = (
            self.outer_size.width or self._expected and self._expected + self.styles.gutter.width
        )
        room = outer - 6  # the corners, the lines and spaces beside the title
        if room > 0 and cell_len(name) + 2 + cell_len(kind) > room:  # (0: not known yet)
            name, kind = cut_id(name, max(room, 8)), ""
        if (name, kind) == self._title_shown:
            return  # a resize that leaves the title as it was: setting it repaints every line
        self._title_shown = (name, kind)
        if kind:
            self.border_title = Content.assemble((name, "bold"), "  ", (kind, "$text-muted"))
        else:
            self.border_title = Content.styled(name, "bold")

    def prepare_record(self, record: Record, quote: int | None) -> None:
        """Measure and draw ahead what `show` would show of this record (`PreparedList`)."""
        rows = list(self._rows_of(record))
        wanted = "record" if quote is None else f"quote-{quote}"
        cursor = next((n for n, row in enumerate(rows) if row.id == wanted), None)
        self.prepare(rows, cursor)

    def refresh_record(self) -> None:
        """Rebuild the rows of the record shown (a verdict or note changed), keeping the view."""
        if self.record is None:
            return
        highlighted, top = self.highlighted, self.scroll_y
        self.set_rows(list(self._rows_of(self.record)), highlighted)
        self.scroll_to(y=top, animate=False, immediate=True, force=True)

    def highlight_quote(self, quote: int | None) -> None:
        """Put the cursor on a quote, or on the record's own row for None."""
        self.move_to(self.row_index("record" if quote is None else f"quote-{quote}"))

    def _rows_of(self, record: Record) -> Iterator[Row]:
        return record_rows(
            self.session,
            record,
            stale=self.stale,
            revision_open=self.revision_open,
            against=self.against,
        )

    # --- reading: every line reachable from the keyboard -------------------------------------

    def _view(self) -> tuple[int, int]:
        top = round(self.scroll_y)
        return top, top + max(1, self.scrollable_content_region.height) - 1

    def _in_view(self, index: int | None) -> bool:
        if index is None:
            return False
        first, last = self.row_lines(index)
        top, bottom = self._view()
        return last >= top and first <= bottom

    def _step(self, step: int) -> None:
        """Cursor to the next row one can act on if it is on screen, else scroll one line."""
        cursor = self.highlighted
        if self._in_view(cursor):
            assert cursor is not None
            candidate = self._next(cursor + step, step)
        else:  # the view was paged away from the cursor: start from what is on screen
            shown = [
                index
                for index in range(self.row_count)
                if not self._row_disabled(index) and self._in_view(index)
            ]
            candidate = (shown[0] if step > 0 else shown[-1]) if shown else None
        if candidate is not None and self._in_view(candidate):
            self.highlighted = candidate  # already on screen: the view stays where it is read
            self.post_message(self.Moved(self, candidate))
            return
        self.scroll_to(y=self._view()[0] + step, animate=False, immediate=True, force=True)

    def action_cursor_down(self) -> None:
        self._step(1)

    def action_cursor_up(self) -> None:
        self._step(-1)

    def _scroll_to_line(self, line: int) -> None:
        self.scroll_to(y=max(0, line), animate=False, immediate=True, force=True)

    def action_page_down(self) -> None:
        self._scroll_to_line(self._view()[1])

    def action_page_up(self) -> None:
        top, bottom = self._view()
        self._scroll_to_line(top - (bottom - top))

    def half_page(self, step: int) -> None:
        """Scroll half the pane's height down (``step`` 1) or up (-1), as the page keys do."""
        top, bottom = self._view()
        self._scroll_to_line(top + step * max(1, (bottom - top + 1) // 2))

    def action_first(self) -> None:
        self._scroll_to_line(0)

    def action_last(self) -> None:
        self._scroll_to_line(self.line_count)

    @on(RowList.Moved)
    def _moved(self, event: RowList.Moved) -> None:
        event.stop()
        row_id = self.row(event.index).id or ""
        if row_id.startswith("quote-"):
            self.post_message(self.QuoteHighlighted(int(row_id.removeprefix("quote-"))))
        elif row_id == "record":
            self.post_message(self.QuoteHighlighted(None))
        else:
            self.post_message(self.RowHighlighted(row_id))

    @on(RowList.Chosen)
    def _chosen(self, event: RowList.Chosen) -> None:
        event.stop()
        self.post_message(self.Followed(self.row(event.index).id or ""))
