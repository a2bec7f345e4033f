"""`/` fuzzy find over records, quotes and files (matched by evidence/text_finder.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input, OptionList
from textual.widgets.option_list import Option
from textual.worker import Worker, WorkerState

from evidence.text_finder import FoldedText, best_matches, matching, narrows
from keymaps.bindings import bindings_for
from screens.dialog import Dialog, back_to_top, dialog_css
from screens.safe import visible
from screens.widgets.legible_options import LegibleOptionList
from screens.widgets.result_line import FittedRow, ResultLine
from screens.workers import report_failure

KIND_MARKS = {"record": "▤", "quote": "❝", "file": "□"}
#: up to this many targets are ranked on the event loop at each keystroke; more are ranked in a
#: thread, so that typing never waits for a large report's targets
RANK_AT_ONCE = 2000


@dataclass(frozen=True)
class FindTarget:
    """Something `/` can jump to: a record, a quote of a record, or a file at the revision."""

    kind: str  # "record", "quote" or "file"
    label: str  # what the list shows
    text: str  # what the query is matched against
    record: int = -1  # record index in the session
    quote: int = -1  # quote index in the record
    path: str = ""
    # a scanner's result (as given: made visible when shown): its row keeps the file and line
    # whole, cutting its message first
    result: ResultLine | None = None

    @cached_property
    def folded(self) -> FoldedText:
        """The text lower-cased once (at the first search: in its thread when they are many)."""
        return FoldedText(self.text)


def rank(query: str, targets: Sequence[FindTarget], limit: int = 60) -> list[FindTarget]:
    """Targets best matching a query (all, in order, for an empty query): each word typed must
    be in a word of a target's text, its letters in order; one in its name (the text's first
    word: a record's id, a quote's or file's path) ranks a record before the annotations
    (``On RT-X``) naming it."""
    if not query.strip():
        return list(targets[:limit])
    folded = [target.folded for target in targets]
    return [targets[index] for index in best_matches(query, folded, limit)]


def ranked(
    query: str, targets: Sequence[FindTarget], among: list[int] | None, limit: int = 60
) -> tuple[str, list[FindTarget], list[int]]:
    """`rank` in a thread: the query, the targets shown, and the indices of every target
    matching it (``among``: only those, found for a query this one narrows)."""
    if not query.strip():
        return query, list(targets[:limit]), []
    folded = [target.folded for target in targets]
    found = matching(query, folded, among)
    return query, [targets[i] for i in best_matches(query, folded, limit, found)], found


def found_row(target: FindTarget) -> Content | FittedRow:
    """A target's row in the list: its kind's mark, then its label (a result's fitted)."""
    mark = Content.styled(KIND_MARKS.get(target.kind, " ") + " ", "$text-muted")
    if target.result is not None:
        return FittedRow(mark, ResultLine(*map(visible, target.result)))
    return Content.assemble(mark, visible(target.label))


class FindScreen(Dialog[FindTarget | None]):
    """Type to fuzzy-find; enter jumps to the highlighted target; escape closes."""

    DEFAULT_CSS = dialog_css(__file__)
    BINDINGS = [
        *bindings_for("dialog"),
        Binding("down", "move(1)", "Down", show=False),
        Binding("up", "move(-1)", "Up", show=False),
    ]

    def __init__(self, targets: Sequence[FindTarget], query: str = "") -> None:
        super().__init__()
        self.targets = list(targets)
        self.query_text = query
        self.shown: list[FindTarget] = []
        self._wanted = query  # the query whose results the list should show
        self._given = targets  # the targets as given (the list above is a copy)
        self._listed: tuple[Sequence[FindTarget], str] | None = None  # (targets, query) shown
        # (query, indices of the targets matching it) of the last ranking in a thread: the next
        # keystroke, typing on, looks only among them
        self._matched: tuple[str, list[int]] | None = None

    @property
    def showing(self) -> str | None:
        """The query whose ranking the list shows (None before the first one is shown)."""
        return None if self._listed is None else self._listed[1]

    def compose(self) -> ComposeResult:
        with Vertical(id="find-dialog") as dialog:
            dialog.border_title = "Find records, quotes and files"
            yield Input(self.query_text, placeholder="type a few letters…", id="find-input")
            yield LegibleOptionList(id="find-results")

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        self._fill(self.query_text)

    def reopen(self, targets: Sequence[FindTarget], query: str = "") -> None:
        field = self.query_one(Input)
        results = self.query_one(OptionList)
        self.query_text = query
        if self._listed is not None and self._listed[0] is targets and self._listed[1] == query:
            # the list shows these targets ranked for this query already: only back to its top
            self._wanted = query
            back_to_top(field, results, query, bool(self.shown))
            return
        self.targets, self._given = list(targets), targets
        self.shown = []
        self._matched = None
        field.value = query  # (its Changed, if any, asks for the ranking filled below)
        results.clear_options()
        results.scroll_home(animate=False, immediate=True)
        self.query_one("#find-dialog").border_subtitle = ""
        self._fill(query)
        field.focus()

    def _fill(self, query: str) -> None:
        """Rank the targets for a query: at once when they are few, else in a thread."""
        self._wanted = query
        if len(self.targets) <= RANK_AT_ONCE:
            self._show(rank(query, self.targets))
            return
        targets, matched = self.targets, self._matched
        if not query.strip():
            # many targets: each one's text lower-cased in a thread while the reviewer types
            # the first letter (on 50,000 an audit's first keystroke took 280 ms, not 60)
            self.run_worker(
                lambda: [target.folded for target in targets],
                thread=True,
                group="fold",
                exit_on_error=False,
            )
        among = matched[1] if matched is not None and narrows(query, matched[0]) else None
        self.run_worker(
            lambda: (targets, *ranked(query, targets, among)),
            thread=True,
            exclusive=True,  # a keystroke makes the ranking for the one before useless
            group="find",
            exit_on_error=False,
        )

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        report_failure(self, event)
        if worker.group == "find" and event.state is WorkerState.SUCCESS:
            targets, query, shown, found = worker.result  # type: ignore[misc]
            if query.strip() and targets is self.targets:  # (not those before a reopen)
                self._matched = (query, found)
            if query == self._wanted:  # not a ranking overtaken by later typing
                self._show(shown)

    def _show(self, shown: list[FindTarget]) -> None:
        results = self.query_one(OptionList)
        self.shown = shown
        self._listed = (self._given, self._wanted)
        results.clear_options()
        results.add_options(Option(found_row(target)) for target in self.shown)
        if self.shown:
            results.highlighted = 0
        dialog = self.query_one("#find-dialog")
        dialog.border_subtitle = f"{len(self.shown)} shown · enter open · escape close"

    @on(Input.Changed, "#find-input")
    def _changed(self, event: Input.Changed) -> None:
        if event.value != self._wanted:  # not the query already ranked (the one opened with)
            self._fill(event.value)

    @on(Input.Submitted, "#find-input")
    def _submitted(self) -> None:
        results = self.query_one(OptionList)
        if results.highlighted is not None and self.shown:
            self.dismiss(self.shown[results.highlighted])

    @on(OptionList.OptionSelected, "#find-results")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.shown[event.option_index])

    def action_move(self, step: int) -> None:
        results = self.query_one(OptionList)
        if self.shown:
            current = results.highlighted or 0
            results.highlighted = max(0, min(len(self.shown) - 1, current + step))

    def action_close(self) -> None:
        self.dismiss(None)
