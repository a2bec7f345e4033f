"""The source view's syntax highlighting: the lines on screen first, then 200-line blocks.

Lexing runs in worker threads that share the GIL with the UI: the visible lines are lexed once
the frame showing them plain is painted, and whole blocks (correct across multi-line strings,
cached per document, theme and block) follow when the view rests. The lines a file shown next
will show (the record `n` leads to) are lexed ahead, so its first frame is in colour.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from cachetools import LRUCache
from textual.message import Message
from textual.worker import Worker, WorkerState, get_current_worker

from screens.safe import safe_line, visible
from screens.widgets.source_layout import centred_top
from screens.widgets.source_lines import Piece, highlight_block

if TYPE_CHECKING:
    from textual.geometry import Region, Size
    from textual.timer import Timer

BLOCK = 200  # lines highlighted together
MARGIN = 30  # lines above and below the screen highlighted ahead of scrolling
BLOCK_DELAY = 0.25  # seconds the view rests before whole blocks are highlighted
CACHE_BLOCKS = 64
CACHE_DOCS = 64  # documents whose lines highlighted ahead of their blocks are kept


class Highlighted(Message):
    """Highlighted blocks or lines arrived from a worker (posted from its thread)."""

    def __init__(
        self,
        generation: object,
        theme: str,
        blocks: dict[int, list[list[Piece]]],
        requested: tuple[int, ...] = (),
        lines: dict[int, list[Piece]] | None = None,
    ) -> None:
        super().__init__()
        self.requested = requested
        self.lines = lines or {}  # single lines (0-based) highlighted ahead of their block
        self.generation = generation
        self.theme = theme
        self.blocks = blocks


def document(path: str, key: object) -> object:
    """What highlighting is kept by: a file's path and its key (the blob id)."""
    return (path, key)


class View(Protocol):
    """What the highlighting needs of the source view."""

    path: str | None

    @property
    def doc(self) -> object: ...

    @property
    def lines(self) -> list[str]: ...

    @property
    def syntax_name(self) -> str: ...

    @property
    def scroll_y(self) -> float: ...

    @property
    def size(self) -> Size: ...

    @property
    def scrollable_content_region(self) -> Region: ...

    @property
    def is_mounted(self) -> bool: ...

    def display_text(self, index: int) -> str: ...

    def refresh(self) -> Any: ...

    def notify(
        self,
        message: str,
        *,
        title: str = ...,
        severity: Any = ...,
        timeout: float | None = ...,
        markup: bool = ...,
    ) -> None: ...

    def post_message(self, message: Message) -> bool: ...

    def call_after_refresh(self, callback: Callable[[], object]) -> bool: ...

    def set_timer(self, delay: float, callback: Callable[[], object]) -> Timer: ...

    def run_worker(
        self,
        work: Any,
        name: str | None = ...,
        group: str = ...,
        description: str = ...,
        exit_on_error: bool = ...,
        start: bool = ...,
        exclusive: bool = ...,
        thread: bool = ...,
    ) -> Any: ...


class Highlights:
    """The highlighting of one SourceView: what is lexed, asked for, and cached."""

    def __init__(self, view: View) -> None:
        self.view = view
        self._blocks: LRUCache[tuple[object, str, int], list[list[Piece]]] = LRUCache(CACHE_BLOCKS)
        self._pending: set[int] = set()
        self._asked = False  # a window highlight waits for the next frame
        #: (document, theme) -> lines (0-based) highlighted ahead of their block: those on
        #: screen, or those a file shown next will show (`ahead`)
        self._partial: LRUCache[tuple[object, str], dict[int, list[Piece]]] = LRUCache(CACHE_DOCS)
        self._window_asked: tuple[object, str, int, int] | None = None
        self._block_timer: Timer | None = None
        #: running -> the document it lexes and its path
        self._workers: dict[Worker[None], tuple[object, str]] = {}
        self._failed: set[object] = set()  # documents the lexer failed on: shown plain

    def forget_pending(self) -> None:
        """Another document is shown: the blocks asked for were for the one before."""
        self._pending = set()

    def clear(self) -> None:
        """The theme changed: every cached block is in the old colours."""
        self._blocks.clear()
        self._pending = set()

    def pieces(self, index: int) -> list[Piece] | None:
        """Line ``index`` (0-based) highlighted, or None while it is not."""
        view = self.view
        block = self._blocks.get((view.doc, view.syntax_name, index // BLOCK))
        if block is not None:
            return block[index % BLOCK]
        lines = self._partial.get((view.doc, view.syntax_name))
        return None if lines is None else lines.get(index)

    @property
    def busy(self) -> bool:
        """True while lines or blocks on screen wait for their highlighting."""
        if self.view.doc in self._failed:
            return False
        return bool(self._pending) or bool(self._needed_blocks())

    def worker_changed(self, event: Worker.StateChanged) -> None:
        """A worker of the view changed state. When it is one of the highlighting's own and it
        failed, its document is shown plain from then on (no lexing started for it again) and
        the reviewer is told, once per document."""
        worker = event.worker
        if worker not in self._workers:
            return
        event.stop()  # the highlighting's affair, not the screen's
        if event.state not in (WorkerState.SUCCESS, WorkerState.ERROR, WorkerState.CANCELLED):
            return
        doc, path = self._workers.pop(worker)
        if event.state is not WorkerState.ERROR or doc in self._failed:
            return
        self._failed.add(doc)
        if doc == self.view.doc:
            self._pending = set()
        error = worker.error
        said = f"{path}: syntax highlighting failed ({type(error).__name__}: {error}); shown plain"
        self.view.notify(visible(said), severity="warning", markup=False, timeout=6)

    def done(self, line: int) -> bool:
        """True when ``line`` (1-based) has its syntax highlighting."""
        view = self.view
        if (view.doc, view.syntax_name, (line - 1) // BLOCK) in self._blocks:
            return True
        return line - 1 in self._partial.get((view.doc, view.syntax_name), ())

    def _needed_blocks(self) -> list[int]:
        view = self.view
        if not view.lines:
            return []
        top = int(view.scroll_y)
        height = max(view.size.height, 1)
        first = max(0, top - MARGIN) // BLOCK
        last = min(len(view.lines) - 1, top + height + MARGIN) // BLOCK
        theme = view.syntax_name
        return [
            block
            for block in range(first, last + 1)
            if (view.doc, theme, block) not in self._blocks and block not in self._pending
        ]

    def request(self) -> None:
        """Highlight the lines on screen after the next frame, and their blocks once it rests."""
        if not self._asked:
            self._asked = True
            self.view.call_after_refresh(self._window)

    def _window(self) -> None:
        self._asked = False
        view = self.view
        if not view.is_mounted or view.path is None or not view.lines or view.doc in self._failed:
            return
        top = int(view.scroll_y)
        height = max(view.size.height, 1)
        last = min(len(view.lines), top + height)
        missing = [index for index in range(top, last) if not self.done(index + 1)]
        asked = (view.doc, view.syntax_name, top, last)
        if missing and asked != self._window_asked:
            self._window_asked = asked
            doc, path, theme = view.doc, view.path, view.syntax_name
            window = [view.display_text(index) for index in range(top, last)]

            def highlight_window() -> None:
                pieces = highlight_block(path, window, theme)
                lines = {top + n: line for n, line in enumerate(pieces)}
                view.post_message(Highlighted(doc, theme, {}, (), lines))

            self._in_thread(highlight_window, "highlight-window", f"{path} {top + 1}-{last}")
        if self._block_timer is not None:
            self._block_timer.stop()
        self._block_timer = view.set_timer(BLOCK_DELAY, self._request_blocks)

    def ahead(self, path: str, key: object, lines: Sequence[str], line: int) -> None:
        """Highlight, in a worker, the lines ``view.show(path, lines, line=line, key=key)`` will
        show, centred as it centres them, before it is called: its first frame draws them
        highlighted."""
        view, doc, theme = self.view, document(path, key), self.view.syntax_name
        rows = view.scrollable_content_region.height
        if not rows or not lines or doc in self._failed:
            return
        top = max(0, min(centred_top(line, rows), len(lines) - rows))  # as scrolled there
        done = self._partial.get((doc, theme), {})
        shown = range(top, min(len(lines), top + max(view.size.height, 1)))
        if all(index in done for index in shown):
            return
        window = [safe_line(lines[index]) for index in shown]

        def highlight_ahead() -> None:
            pieces = highlight_block(path, window, theme)
            found = {top + n: piece for n, piece in enumerate(pieces)}
            self.view.post_message(Highlighted(doc, theme, {}, (), found))

        what = f"{path} {top + 1}-{top + len(window)}"
        self._in_thread(highlight_ahead, "highlight-ahead", what, doc, path)

    def _request_blocks(self) -> None:
        self._block_timer = None
        view = self.view
        if not view.is_mounted or view.path is None or view.doc in self._failed:
            return
        needed = self._needed_blocks()
        if not needed:
            return
        self._pending.update(needed)
        doc, path, theme = view.doc, view.path, view.syntax_name
        centre = (int(view.scroll_y) + max(view.size.height, 1) // 2) // BLOCK
        needed.sort(key=lambda block: abs(block - centre))
        inputs = {block: self._block_display(block) for block in needed}

        def highlight_blocks() -> None:
            worker = get_current_worker()
            for block, lines in inputs.items():
                if worker.is_cancelled:
                    break
                done = {block: highlight_block(path, lines, theme)}
                view.post_message(Highlighted(doc, theme, done, (block,)))
            view.post_message(Highlighted(doc, theme, {}, tuple(inputs)))

        self._in_thread(highlight_blocks, "highlight", path)

    def _in_thread(
        self, work: Callable[[], None], group: str, what: str, doc: object = None, path: str = ""
    ) -> None:
        """Run ``work`` in a thread worker of the view, in its own group of this view's workers
        (its state comes back to `worker_changed`), for ``doc`` at ``path`` (else the view's)."""
        worker = self.view.run_worker(
            work,
            thread=True,
            group=f"{group}-{id(self.view)}",
            exit_on_error=False,
            description=f"highlight {what}",
        )
        if doc is None:
            doc, path = self.view.doc, self.view.path or ""
        self._workers[worker] = (doc, path)

    def arrived(self, message: Highlighted) -> None:
        """Highlighted lines or blocks came back from a worker: keep them, draw, ask for more."""
        if message.lines:  # kept for their document, shown now or next
            key = (message.generation, message.theme)
            lines = self._partial.get(key)
            if lines is None:
                lines = self._partial[key] = {}
            lines.update(message.lines)
        if message.generation != self.view.doc:
            return
        self._pending.difference_update(message.requested)
        for block, pieces in message.blocks.items():
            self._blocks[(message.generation, message.theme, block)] = pieces
        self.view.refresh()
        if message.requested:
            self._request_blocks()

    def _block_display(self, block: int) -> list[str]:
        view = self.view
        start = block * BLOCK
        end = min(start + BLOCK, len(view.lines))
        return [view.display_text(index) for index in range(start, end)]
