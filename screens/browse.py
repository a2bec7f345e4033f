"""Browse a revision without reports: source pane, file finder, grep, go to line, permalinks.

`BrowseScreen` is also what the review app can push to look something up; the small app behind
`assay browse` is made by the app factory (tui/factory.py `make_browse_app`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Label
from textual.worker import Worker

from evidence.backlinks import Backlink, backlink_lines, backlinks
from evidence.finder import PathFinder
from evidence.model import Anchor, LineRange, Quote, ReportSet
from evidence.permalink import Link, link_to
from evidence.revision import GrepHit, Revision, RevisionError, SourceFile
from keymaps import Keymap, load_keymap
from keymaps.bindings import bindings
from screens.backlinks import BacklinksScreen
from screens.dialog import kept
from screens.finder import FileFinder
from screens.goto import FindInFile, GotoLine, find_again
from screens.grep import GrepScreen
from screens.safe import visible
from screens.widgets.footer import KeysBar
from screens.widgets.source_lines import SourceMarks, file_message
from screens.widgets.source_view import SourceView
from screens.workers import report_failure

#: binding ids (from keymaps/catalog.py) that the browse screen answers
BROWSE_BINDINGS: tuple[str, ...] = (
    "open_file",
    "grep",
    "goto_line",
    "find",
    "find_in_file",
    "permalink",
    "backlinks",
    "help",
    "quit",
)


#: the next and previous match of find in file: answered, not shown in the keys bar
FIND_AGAIN = ("find_next", "find_prev")
#: `find` (`/`) means "find by name" on every screen: records, quotes and files in review, the
#: files here; find in file is `find_in_file` (ctrl+f) on both
BROWSE_DESCRIPTIONS = {"find": "Find file"}


def browse_bindings() -> list[BindingType]:
    """The browse screen's bindings (all shown), keyed by the catalog ids."""
    shown = bindings(BROWSE_BINDINGS, shown=True, descriptions=BROWSE_DESCRIPTIONS)
    return shown + bindings(FIND_AGAIN, shown=False)


class BrowseScreen(Screen[None]):
    """One revision's files in a source pane, with the lookup dialogs."""

    CSS_PATH = Path(__file__).with_name("browse.tcss")
    BINDINGS = browse_bindings()

    def __init__(
        self,
        revision: Revision,
        *,
        path: str | None = None,
        line: int | None = None,
        anchors: Mapping[Quote, Anchor] | None = None,
        reportset: ReportSet | None = None,
        keymap: Keymap | None = None,
    ) -> None:
        """``keymap``: the one the app runs with, for the help screen (None: the default)."""
        super().__init__()
        self.revision = revision
        self.keymap = keymap
        self.anchors = anchors or {}
        self.reportset = reportset
        self.finder: PathFinder | None = None
        self.remote: str | None = None
        self.source: SourceFile | None = None
        self.links: list[Backlink] = []
        self.last_link: Link | None = None
        self._start = (path, line)
        self._find_text = ""
        self._column: int | None = None  # where on the line opened to bring into view

    def compose(self) -> ComposeResult:
        yield Label(self._title(), id="browse-title")
        yield SourceView(id="browse-source")
        yield KeysBar()

    def on_mount(self) -> None:
        view = self.query_one(SourceView)
        view.show_message("loading the tree…")
        view.focus()
        self._load_tree()

    # --- loading -------------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="browse-tree", exit_on_error=False)
    def _load_tree(self) -> None:
        try:
            paths = self.revision.paths()
            remote = self.revision.remote_url()
        except RevisionError as error:
            self.app.call_from_thread(self._fail, str(error))
            return
        finder = PathFinder(paths)
        self.app.call_from_thread(self._tree_loaded, finder, remote)

    def _tree_loaded(self, finder: PathFinder, remote: str | None) -> None:
        self.finder = finder
        self.remote = remote
        path, line = self._start
        if path:
            self.open(path, line=line)
        else:
            self.query_one(SourceView).show_message(
                f"{len(finder):,} files at {self.revision.short}: o open a file · G grep · q quit"
            )

    def _fail(self, message: str) -> None:
        self.query_one(SourceView).show_message(visible(message))

    @on(Worker.StateChanged)
    def _worker_changed(self, event: Worker.StateChanged) -> None:
        said = report_failure(self, event)
        if said is not None:  # the pane says what it was loading: now why it is not
            self.query_one(SourceView).show_message(said)

    def open(
        self,
        path: str,
        *,
        line: int | None = None,
        matched: LineRange | None = None,
        column: int | None = None,
    ) -> None:
        """Show ``path`` at the revision, at ``line`` (read in a worker); ``column`` (0-based,
        of ``line``: a grep hit's match) brought into view sideways."""
        self._column = column
        self._read(path, line, matched)

    @work(thread=True, exclusive=True, group="browse-read", exit_on_error=False)
    def _read(self, path: str, line: int | None, matched: LineRange | None) -> None:
        try:
            source = self.revision.read(path)
        except RevisionError as error:
            self.app.call_from_thread(self._fail, str(error))
            return
        links = backlinks(self.anchors, source.path, self.reportset) if self.anchors else []
        self.app.call_from_thread(self._display, source, line, matched, links)

    def _display(
        self,
        source: SourceFile,
        line: int | None,
        matched: LineRange | None,
        links: list[Backlink],
    ) -> None:
        self.source = source
        self.links = links
        view = self.query_one(SourceView)
        message = file_message(source)
        if message is not None:
            view.show_message(visible(message))
        else:
            marks = SourceMarks(matched=matched, backlinks=backlink_lines(links))
            view.show(source.path, source.lines, marks=marks, line=line)
            column, self._column = self._column, None
            if column is not None and line is not None:
                view.show_column(line, column)
        self._update_title()

    # --- the title line ------------------------------------------------------------------------

    def _title(self) -> Content:
        repo = Path(self.revision.repo_path).name
        pieces: list[tuple[str, str] | str] = [
            (visible(repo), "bold"),
            " @ ",
            (self.revision.short, "$text-accent"),
        ]
        if self.source is not None:
            pieces += ["  ", (visible(self.source.path), "bold $text-secondary")]
            view = self.query_one(SourceView)
            if view.line_count:
                pieces += [("  line ", "$text-muted"), f"{view.cursor_line}/{view.line_count}"]
            if self.links:
                pieces += [("  · backlinks ", "$text-muted"), str(len(self.links))]
        return Content.assemble(*pieces)

    def _update_title(self) -> None:
        self.query_one("#browse-title", Label).update(self._title())

    def on_source_view_cursor_moved(self, message: SourceView.CursorMoved) -> None:
        self._update_title()

    # --- actions -------------------------------------------------------------------------------

    def action_open_file(self) -> None:
        if self.finder is None:
            self.notify("the file list is still loading", severity="warning")
            return
        self.app.push_screen(FileFinder(self.finder), self._opened)

    def _opened(self, path: str | None) -> None:
        if path:
            self.open(path)

    def action_grep(self) -> None:
        self.app.push_screen(GrepScreen(self.revision), self._grepped)

    def _grepped(self, hit: GrepHit | None) -> None:
        if hit is not None:
            self.open(hit.path, line=hit.line, column=hit.spans[0][0] if hit.spans else None)

    def action_goto_line(self) -> None:
        view = self.query_one(SourceView)
        if not view.line_count:
            self.notify("no file is open", severity="warning")
            return
        dialog = GotoLine(view.line_count, view.cursor_line)

        def went(line: int | None) -> None:
            if dialog.selected is not None:  # a range: select it, so that y cites it
                view.set_marks(view.marks._replace(matched=dialog.selected))
            self._went(line)

        self.app.push_screen(dialog, went)

    def _went(self, line: int | None) -> None:
        if line is not None:
            self.query_one(SourceView).go_to_line(line)

    def action_find(self) -> None:
        """Find a file by name (what `/` does on every screen: find by name)."""
        self.action_open_file()

    def action_find_in_file(self) -> None:
        view = self.query_one(SourceView)
        if self.source is None or not view.line_count:
            self.notify("no file is open", severity="warning")
            return
        dialog = FindInFile(self.source.lines, view.cursor_line, text=self._find_text)

        def found(line: int | None) -> None:
            self._find_text = dialog.text
            self._went(line)
            if line is not None:
                self.notify(visible(dialog.notice), markup=False, timeout=3)

        self.app.push_screen(dialog, found)

    def action_find_again(self, step: int) -> None:
        """The next (1) or previous (-1) line holding the text last found in the file."""
        view = self.query_one(SourceView)
        if not self._find_text:
            self.action_find_in_file()
            return
        if self.source is None or not view.line_count:
            self.notify("no file is open", severity="warning")
            return
        line, notice = find_again(
            self.source.lines, self._find_text, at=view.cursor_line, step=step
        )
        self._went(line)
        self.notify(visible(notice), markup=False, timeout=3)

    def action_permalink(self) -> None:
        view = self.query_one(SourceView)
        if self.source is None:
            self.notify("no file is open", severity="warning")
            return
        lines = view.selection if view.line_count else None
        link = link_to(self.revision, self.remote, self.source.path, lines)
        self.last_link = link
        self.app.copy_to_clipboard(link.text)
        if link.web:
            self.notify(visible(link.text), title="Permalink copied", markup=False)
        else:
            self.notify(
                visible(f"{link.reason}: copied {link.text}"),
                title="No web link",
                severity="warning",
                markup=False,
            )

    def action_backlinks(self) -> None:
        if self.source is None:
            self.notify("no file is open", severity="warning")
            return
        self.app.push_screen(BacklinksScreen(self.links, path=self.source.path), self._jumped)

    def _jumped(self, link: Backlink | None) -> None:
        if link is None or link.lines is None:
            return
        view = self.query_one(SourceView)
        view.set_marks(SourceMarks(matched=link.lines, backlinks=backlink_lines(self.links)))
        view.go_to_line(link.lines[0])

    def action_help(self) -> None:
        from screens.help import HelpScreen, Here

        keymap = self.keymap or load_keymap(user=False)
        ids = (*BROWSE_BINDINGS[:-2], *FIND_AGAIN, *BROWSE_BINDINGS[-2:])  # help, quit last
        here = Here("Browsing a revision", ids, BROWSE_DESCRIPTIONS)
        self.app.push_screen(kept(self.app, HelpScreen, keymap, here))

    def action_quit(self) -> None:
        self.app.exit()
