"""The records pane: every record grouped by report and section, with verdict badge and status.

Attributes down (`session`, then `fill(filter, record)`), messages up: `RecordHighlighted` when
the reviewer moves the cursor onto a record, `RecordSelected` when they choose it (enter, click).

A `RowList` of one line per row: its height is known before it is laid out, and only the lines
on screen are drawn (an OptionList measured every one of a long report's records first).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from cachetools import LRUCache
from rich.cells import cell_len
from rich.segment import Segment
from textual import events, on
from textual.content import Content
from textual.message import Message
from textual.strip import Strip

from evidence.model import Kind, Record
from evidence.sarif.triage import only_location
from screens.quote_status import claimed_place
from screens.safe import visible
from screens.session import ReviewSession
from screens.session_rows import Row
from screens.widgets.badges import VERDICT_STYLES
from screens.widgets.cut import cut, cut_path, cut_text, keep_cells, pad_cells
from screens.widgets.drift_rows import DRIFT_STYLES, worst_drift
from screens.widgets.lists import RowList
from screens.widgets.result_line import ResultLine, shortened
from screens.widgets.truecolor import TruecolorOnly

if TYPE_CHECKING:
    from textual.style import Style


#: past this many records changed at once, the whole list is drawn again (not row by row)
MANY_ROWS = 64
#: records with more quotes than this show counts (``4✓ 1✗ 7·``) instead of one mark per quote
MAX_QUOTE_MARKS = 6


def quote_marks_content(marks: list[tuple[str, bool]], *, compact: bool = False) -> Content:
    """The reviewer's verdicts on a record's quotes: ``[✓✗✎·]`` (quote 2 refuted, with a note);
    ``compact`` (a narrow list): only the counts of the quotes with a verdict, ``[1✗]``."""
    if compact:
        marks = [(badge, noted) for badge, noted in marks if badge != "·" or noted]
    if not marks:
        return Content("")
    parts: list[tuple[str, str] | str] = ["["]
    if len(marks) <= MAX_QUOTE_MARKS and not compact:
        for badge, noted in marks:
            parts.append((badge, VERDICT_STYLES[badge]))
            if noted:
                parts.append(("✎", "$text-warning"))
    else:
        counts: dict[str, int] = {}
        for badge, _noted in marks:
            counts[badge] = counts.get(badge, 0) + 1
        shown = [(f"{n}{badge}", VERDICT_STYLES[badge]) for badge, n in sorted(counts.items())]
        for n, part in enumerate(shown):
            parts += [" "] * bool(n) + [part]
        notes = sum(noted for _badge, noted in marks)
        if notes:
            parts += [" ", (f"✎{notes}", "$text-warning")]
    parts.append("]")
    return Content.assemble(*parts)


#: the columns a record's name keeps before its quotes' marks give way to their verdict counts
NAME_ROOM = 18
#: what a row needs beside its name: indent, badge and drift, note mark, status and marks
ROW_EXTRA = 16


def cut_id(name: str, room: int) -> str:
    """A record id in ``room`` cells, cut in the middle: its tail stays, since ids of one kind
    differ after their prefix (``KS-RTE-…note-sync``, ``KS-…n-check``), and the prefix when the
    room allows."""
    if cell_len(name) <= room:
        return name
    parts = name.split("-", 2)
    prefix = cell_len(name) - cell_len(parts[-1]) if len(parts) == 3 else room
    # the whole prefix when the tail keeps 8 columns, else a third: the tail tells ids apart
    head = prefix if room >= prefix + 9 else (room - 1) // 3
    kept = keep_cells(name, head).rstrip()  # "On…calation", not "On …alation"
    tail = keep_cells(name[::-1], room - 1 - cell_len(kept))[::-1]
    return kept + "…" + tail


class RecordRow:
    """One record's row: badge, name, note mark, quote status and the verdicts on its quotes.

    The name is cut to the width drawn at. Cutting at draw time (not when the rows are built)
    means the rows need no rebuilding when the pane is laid out or resized: the pane can be
    filled before its width is known.
    """

    def __init__(
        self,
        badge: str,
        name: str,
        status: str,
        reason: str = "",
        *,
        noted: bool = False,
        quotes: list[tuple[str, bool]] | None = None,
        drift: str = "",
        disagreed: bool = False,
        is_id: bool = True,
    ) -> None:
        self.badge, self.name, self.status, self.reason = badge, name, status, reason
        self.is_id = is_id  # an id is cut in the middle, a label (a narrative's heading) at its end
        self.drift = drift  # the worst drift of its quotes: "" when none is computed
        self.disagreed = disagreed  # reviewers' verdicts differ on it or one of its quotes
        self.noted = noted
        self.quotes = quote_marks_content(quotes or [])
        self.compact = quote_marks_content(quotes or [], compact=True)

    def content(self, width: int) -> Content:
        """The row as Content for a width (0: uncut)."""
        name, reason = self.name, self.reason
        cells = cell_len(name)  # a name in wide characters takes two cells a character
        # under a filter, why the record is listed says more than its quotes' marks
        marks = self.quotes if not reason else Content("")
        fixed = width - 5 - cell_len(self.drift) - (1 if self.noted else 0) - self.disagreed
        tail = self._tail(marks)
        if width > 0 and fixed - tail.cell_length < cells:
            # a narrow list: the whole name if fewer marks make room for it, else a name of some
            # length with the verdict counts, or no marks, or not the quotes' status either (a
            # filter's reason stays)
            tails = [(tail, NAME_ROOM), (self._tail(self.compact), NAME_ROOM // 2)] if marks else []
            tails += [(self._tail(Content("")), NAME_ROOM // 2)]
            tails += [(self._tail(Content(""), with_status=False), NAME_ROOM // 2)]
            whole = [each for each, _keep in tails[:-1] if fixed - each.cell_length >= cells]
            kept = [each for each, keep in tails if fixed - each.cell_length >= min(cells, keep)]
            tail = (whole or kept or [tails[-1][0]])[0]
        room = fixed - tail.cell_length
        if width > 0 and cells > max(room, 8):
            room = max(room, 8)
            # an id cut in its middle, a title just after a space ("Forcing cases…"); the marks
            # in their column (a wide character left out at the edge leaves a cell)
            name = pad_cells(cut_id(name, room) if self.is_id else cut_text(name, room), room)
        return Content.assemble(
            ("  ", ""),
            (self.badge, VERDICT_STYLES[self.badge]),
            (self.drift, DRIFT_STYLES.get(self.drift, "")),
            ("≠" if self.disagreed else "", "bold $text-error"),
            " ",
            name,
            ("✎" if self.noted else "", "$text-warning"),
            tail,
        )

    def _tail(self, marks: Content, with_status: bool = True) -> Content:
        status, reason = self.status if with_status else "", self.reason
        return Content.assemble(
            ("  " + status if status else "", "$text-muted"),
            " " if marks and status else "  " if marks else "",
            marks,
            ("  " + reason if reason else "", "$text-warning"),
        )

    def __str__(self) -> str:
        return str(self.content(0))


class ResultRow(RecordRow):
    """A SARIF result's row: badge, rule, ``file:line`` and the message's first words, then
    what fails among its locations and the verdicts on them (when it has several)."""

    def __init__(
        self, badge: str, rule: str, place: str, message: str, status: str, reason: str = "",
        *, noted: bool = False, quotes: list[tuple[str, bool]] | None = None, drift: str = "",
    ) -> None:  # fmt: skip
        super().__init__(badge, rule, status, reason, noted=noted, quotes=quotes, drift=drift)
        self.place, self.message = place, message

    def content(self, width: int) -> Content:
        """The row as Content for a width (0: uncut): the message is cut first, then the
        path's directories, then the marks of the verdicts on its locations."""
        rule, place, message = self.name, self.place, self.message
        marks = self.quotes if not self.reason else Content("")
        fixed = width - 5 - cell_len(self.drift) - (1 if self.noted else 0)
        tail = self._tail(marks)
        if width > 0:
            least = (cell_len(rule) + 1 if rule else 0) + cell_len(place.rsplit("/", 1)[-1])
            for fewer in (self.compact, Content("")):
                if not marks or fixed - tail.cell_length >= least:
                    break
                tail = self._tail(fewer)
        room = fixed - tail.cell_length if width > 0 else None
        body = ResultLine(rule, place, message).content(room)
        return Content.assemble(
            ("  ", ""),
            (self.badge, VERDICT_STYLES[self.badge]),
            (self.drift, DRIFT_STYLES.get(self.drift, "")),
            " ",
            body,
            ("✎" if self.noted else "", "$text-warning"),
            tail,
        )


class RecordsPane(TruecolorOnly, RowList):
    """The list of records passing a filter; the cursor is on one record's line."""

    ONE_LINE_ROWS: ClassVar[bool] = True
    BAR: ClassVar[int] = 1

    class RecordHighlighted(Message):
        """The cursor moved onto a record (by key or mouse, not by `fill` or `show`)."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    class RecordSelected(Message):
        """The reviewer chose the record under the cursor (enter, or a click on it)."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, session: ReviewSession, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.session = session
        self.rows: list[int] = []  # line -> record index (-1 for a report or section line)
        self._line_of: dict[int, int] = {}  # record index -> its line
        self._lines: list[Row] = []  # the session's rows: one line each
        self.filter_name = "all"
        self._wanted: int | None = None
        # (what a record's row says, width, style, theme) -> its line: a list filled again (`f`,
        # a regrouping) draws the records it showed before from here
        self._record_lines: LRUCache[tuple[object, ...], list[Strip]] = LRUCache(4096)

    def fill(self, filter_name: str, record: int) -> None:
        """List the records passing a filter, the cursor on ``record`` when it is listed."""
        self.filter_name = filter_name
        self._lines = self.session.rows(filter_name)
        if not any(row.kind == "record" for row in self._lines):
            empty = f'no "{filter_name}" records'
            if not self.session.records:  # 'no "all" records' said it as if a filter hid them
                empty = "no records to review"
            self._lines = [Row("empty", empty)]
        self.rows = [row.position for row in self._lines]  # -1 but for records
        self._line_of = {}
        for line, position in enumerate(self.rows):
            self._line_of.setdefault(position, line)
        self._rows_changed(self._line_of.get(record) if record >= 0 else None)
        title = "Records"
        if self.session.results:
            title += f" by {self.session.results.grouping}"  # the SARIF results' grouping
        self.border_title = title
        shown = len(self.rows) - self.rows.count(-1)  # 0: the one row says no record matches
        # the filter beside the count it gives ("7/22 failing quotes"), not after the title: a
        # SARIF review's title ("Records by severity") left no room for it, 30 columns wide
        counted = f"{shown:,}/{len(self.session.records):,}"
        self.border_subtitle = counted if filter_name == "all" else f"{counted} {filter_name}"

    def show(self, record: int) -> None:
        """Put the cursor on a record, if it is listed (no message: the caller knows). A record
        out of view comes to the middle of the list: going on with `n` then moves the cursor
        down the rows already drawn for half a list, instead of scrolling (and drawing the
        whole list again) at every press once it reached the bottom."""
        line = self._line_of.get(record) if record >= 0 else None
        if line is not None:
            self.move_to(line, centre=True)

    def show_heading(self) -> None:
        """Scroll the heading of the cursor's group (or section) to the top, when the cursor's
        row still shows below it (after a regrouping, the record is seen in its group)."""
        index = self.highlighted
        height = self.scrollable_content_region.height
        if index is None or not height:
            return
        heading = next((n for n in range(index, -1, -1) if self.rows[n] < 0), None)
        if heading is not None and index - heading < height:
            self.scroll_to(y=heading, animate=False, force=True, immediate=True)

    def update_records(self, record_keys: set[str]) -> None:
        """Redraw the rows of the records with these item keys (their badge changed)."""
        if len(record_keys) > MANY_ROWS:  # a group verdict: every row drawn again, once
            self.redraw_row()
            return
        for key in record_keys:
            for n in self.session.records_with_key(key):
                self.update_row(n)

    def update_row(self, index: int) -> None:
        """Draw one record's line again (its verdict or quote status changed)."""
        line = self._line_of.get(index) if index >= 0 else None
        if line is not None:
            self.redraw_row(line)

    def prompt(self, index: int) -> RecordRow:
        """The row of one record: badge, id (label for narrative) and quote status."""
        record = self.session.records[index]
        if record.kind is Kind.RESULT:
            return self.result_prompt(record)
        name = visible(record.label if record.kind is Kind.NARRATIVE else record.id)
        session = self.session
        return RecordRow(
            session.badge(record),
            name,
            session.quote_status(record),
            session.filter_reason(record, self.filter_name),
            noted=bool(session.note(session.record_item(record))),
            quotes=session.quote_marks(record),
            drift=worst_drift(session, record),
            disagreed=session.disagrees(record),
            is_id=record.kind is not Kind.NARRATIVE,
        )

    def width_wanted(self) -> int:
        """The columns (borders, padding and scrollbar too) that show every record's whole id."""
        if self._wanted is None:
            ids = (cell_len(r.id) for r in self.session.records if r.kind is not Kind.NARRATIVE)
            self._wanted = max(ids, default=NAME_ROOM) + ROW_EXTRA + 5
        return self._wanted

    def result_prompt(self, record: Record) -> ResultRow:
        """The row of a SARIF result: rule, place and message; of its quotes' status only what
        fails; the marks of its locations' verdicts only when it has several (the verdict on
        its only location is the result's badge)."""
        session = self.session
        only = only_location(record)
        status = " ".join(p for p in session.quote_status(record).split() if p[0] in "≈✗!")
        noted = session.note(session.record_item(record))
        if not noted and only is not None:
            noted = session.note(session.quote_item(record, only))
        # a row does not say again what its heading does: under a rule, where the result is
        # (a Semgrep id, 40 cells and more, was all each row of a rule showed, cut); under a
        # file, the rule and the line
        grouping = session.results.grouping
        first = record.quotes[0] if record.quotes else None
        if first is None:
            place = ""
        elif grouping == "file":
            place = f"line {first.claimed[0]}" if first.claimed else ""
        else:
            place = claimed_place(first)
        return ResultRow(
            session.badge(record),
            "" if grouping == "rule" else visible(record.section),
            visible(place),
            visible(record.label if record.label != record.section else ""),
            status,
            session.filter_reason(record, self.filter_name),
            noted=bool(noted),
            quotes=None if only is not None else session.quote_marks(record),
            drift=worst_drift(session, record),
        )

    def _row_total(self) -> int:
        return len(self._lines)

    def _row_disabled(self, index: int) -> bool:
        return self.rows[index] < 0

    def draw_row(self, index: int, width: int, style: Style) -> list[Strip]:
        entry = self._lines[index]
        if entry.kind == "record":
            prompt = self.prompt(entry.position)
            said = tuple(
                tuple(value) if isinstance(value, list) else value
                for value in vars(prompt).values()
            )
            key = (type(prompt), said, width, style, self.app.theme)
            lines = self._record_lines.get(key)
            if lines is None:
                lines = self._record_lines[key] = self._line(prompt.content(width), width, style)
            return lines
        if entry.kind == "empty":
            content = Content.styled(visible(entry.text), "$text-warning")
        elif entry.kind == "report":
            content = Content.styled(visible(entry.text), "bold")
        elif entry.kind == "group":
            label, grouping = visible(entry.text), self.session.results.grouping
            if grouping == "rule":  # a long id: the last part of it, which names the rule
                label = shortened(label, width - 1)
            elif grouping == "file":  # a long path: its file's name, whole
                label = cut_path(label, width - 1)
            # the count and severity, or none of them: an ellipsis after a path read as its own
            detail = "  " + entry.detail if width - 1 - cell_len(label) >= 6 else ""
            content = Content.assemble((" " + label, "bold $text-accent"), (detail, "$text-muted"))
        else:
            content = Content.styled(" " + visible(entry.text), "$text-accent")
        return self._line(content, width, style)

    @staticmethod
    def _line(content: Content, width: int, style: Style) -> list[Strip]:
        if content.cell_length > width:
            content = cut(content, width)
        segments = [
            Segment(text, part.rich_style if part else None)
            for text, part in content.render(style, end="")
        ]
        return [Strip(segments)]

    def on_resize(self, event: events.Resize) -> None:
        # the selected record stays in view when the terminal (or the layout) changes size
        if self.highlighted is not None:
            self.scroll_to_cursor()

    @on(RowList.Moved)
    def _moved(self, event: RowList.Moved) -> None:
        event.stop()
        self.post_message(self.RecordHighlighted(self.rows[event.index]))

    @on(RowList.Chosen)
    def _chosen(self, event: RowList.Chosen) -> None:
        event.stop()
        self.post_message(self.RecordSelected(self.rows[event.index]))
