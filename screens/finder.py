"""The file finder: fuzzy-open any path of the revision by a few letters of its name."""

from __future__ import annotations

import threading
from collections.abc import Sequence

from cachetools import LRUCache
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option
from textual.worker import Worker, get_current_worker

from evidence.finder import FinderMatch, PathFinder
from screens.dialog import Dialog, back_to_top, dialog_css, relabel
from screens.safe import visible
from screens.widgets.legible_options import LegibleOptionList
from screens.workers import report_failure

#: rows shown (the list's height): rendering rows costs more than ranking them, so no more
RESULTS = 20


#: what the finder says until its first search is done
INDEXING = Content("indexing the file list…")

#: path lists whose index is kept, so that reopening the finder on a revision is instant
KEEP_INDEXES = 2
_INDEXES: LRUCache[int, tuple[tuple[str, ...], PathFinder]] = LRUCache(KEEP_INDEXES)
_INDEXES_LOCK = threading.Lock()


def indexed(paths: Sequence[str]) -> PathFinder:
    """A PathFinder for these paths, reused when the same list was indexed recently."""
    key = tuple(paths)
    fingerprint = hash(key)
    with _INDEXES_LOCK:
        cached = _INDEXES.get(fingerprint)  # a hit becomes the most recently used
        if cached is not None and cached[0] == key:
            return cached[1]
    finder = PathFinder(key)
    with _INDEXES_LOCK:
        _INDEXES[fingerprint] = (key, finder)
    return finder


def match_content(match: FinderMatch) -> Content:
    """A path with the characters the query matched in bold accent (never markup)."""
    shown = visible(match.path)
    content = Content(shown)
    if shown != match.path:  # control characters changed the offsets: show it plain
        return content
    for position in match.positions:
        content = content.stylize("bold $accent", position, position + 1)
    return content


class FileFinder(Dialog[str | None]):
    """Type a few letters, pick a path; dismisses with the path, or None on escape."""

    DEFAULT_CSS = dialog_css(__file__, "finder.tcss")
    BINDINGS = [
        Binding("escape", "close", "Close", id="close_dialog", tooltip="Close the finder"),
        Binding("down", "move(1)", "Next", show=False, id="finder_next"),
        Binding("up", "move(-1)", "Previous", show=False, id="finder_previous"),
        Binding("pagedown", "move(10)", "Page down", show=False, id="finder_page_down"),
        Binding("pageup", "move(-10)", "Page up", show=False, id="finder_page_up"),
    ]

    def __init__(
        self,
        paths: Sequence[str] | PathFinder,
        *,
        query: str = "",
        title: str = "Open file",
    ) -> None:
        super().__init__()
        # indexing a large tree's paths is slow enough to be felt: done in the first worker
        self.finder: PathFinder | None = paths if isinstance(paths, PathFinder) else None
        self._paths = paths
        self._index_lock = threading.Lock()
        self._initial = query
        self._title = title
        self.matches: list[FinderMatch] = []
        self.searched = ""  # the query the list currently shows
        self._asked = query  # the query searched last

    def compose(self) -> ComposeResult:
        with Vertical(id="finder-box") as box:
            box.border_title = self._title
            yield Input(self._initial, placeholder="file name…", id="finder-query")
            yield LegibleOptionList(id="finder-results")
            yield Label(INDEXING, id="finder-status")

    def on_mount(self) -> None:
        self.query_one("#finder-query", Input).focus()
        self._search(self._initial)

    def reopen(
        self,
        paths: Sequence[str] | PathFinder,
        *,
        query: str = "",
        title: str = "Open file",
    ) -> None:
        field = self.query_one("#finder-query", Input)
        results = self.query_one("#finder-results", OptionList)
        self._initial, self._title = query, title
        self.query_one("#finder-box").border_title = title
        if self.searched == query and (paths is self._paths or paths == self._paths):
            # the list shows these paths searched for this query already: only back to its top
            self._asked = query
            back_to_top(field, results, query, bool(self.matches))
            return
        with self._index_lock:  # (the list's index is kept: `indexed` finds it again)
            self.finder = paths if isinstance(paths, PathFinder) else None
            self._paths = paths
        self.matches, self.searched = [], ""
        field.value = query  # (its Changed, if any, asks for the search started below)
        results.clear_options()
        relabel(self.query_one("#finder-status", Label), INDEXING)
        self._search(query)
        field.focus()

    @on(Input.Changed, "#finder-query")
    def _query_changed(self, event: Input.Changed) -> None:
        if event.value != self._asked:  # not the query searched already (the one opened with)
            self._search(event.value)

    def _search(self, query: str) -> None:
        self._asked = query
        self._searching(query)

    @work(thread=True, exclusive=True, group="finder", exit_on_error=False)
    def _searching(self, query: str) -> None:
        with self._index_lock:
            if self.finder is None and not isinstance(self._paths, PathFinder):
                self.finder = indexed(self._paths)
            assert self.finder is not None
        matches = self.finder.search(query, limit=RESULTS)
        worker = get_current_worker()
        if worker.is_cancelled:
            return
        self.app.call_from_thread(self._show, query, matches, len(self.finder))
        if not worker.is_cancelled:  # while the reviewer reads, ready the next keystroke
            self.finder.prepare(query)

    @on(Worker.StateChanged)
    def _worker_changed(self, event: Worker.StateChanged) -> None:
        said = report_failure(self, event)
        if said is not None:
            relabel(self.query_one("#finder-status", Label), Content(said))

    def _show(self, query: str, matches: list[FinderMatch], total: int) -> None:
        if query != self._asked:  # a search overtaken by later typing (or a reopening)
            return
        self.matches = matches
        self.searched = query
        results = self.query_one("#finder-results", OptionList)
        results.set_options(Option(match_content(match)) for match in matches)
        if matches:
            results.highlighted = 0
        if not query.strip() and len(matches) < total:  # only the first can be listed
            status = f"first {len(matches)} of {total:,} files: type to find any"
        elif not query.strip():
            status = f"{total:,} files"
        elif matches:
            status = f"best {len(matches)} of {total:,} files"
        else:
            status = f"no file matches among {total:,}"
        relabel(self.query_one("#finder-status", Label), Content(status))

    def action_move(self, delta: int) -> None:
        results = self.query_one("#finder-results", OptionList)
        if not self.matches:
            return
        current = results.highlighted or 0
        results.highlighted = min(max(0, current + delta), len(self.matches) - 1)

    @on(Input.Submitted, "#finder-query")
    def _submitted(self) -> None:
        results = self.query_one("#finder-results", OptionList)
        if results.highlighted is not None and results.highlighted < len(self.matches):
            self.dismiss(self.matches[results.highlighted].path)

    @on(OptionList.OptionSelected, "#finder-results")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_index < len(self.matches):
            self.dismiss(self.matches[event.option_index].path)

    def action_close(self) -> None:
        self.dismiss(None)
