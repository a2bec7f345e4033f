"""The review screen's lookups: find, the file finder, grep, go to line, find in file,
permalinks, backlinks and the command palette's entries.

A part the review screen owns: each lookup pushes a dialog of screens/ and acts on the answer
through the screen's navigation (`jump`, `open_path`) and its source pane.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Protocol

from textual.app import SystemCommand
from textual.markup import escape

from keymaps import SPECS, Keymap, short_keys
from screens.review.history import Location
from screens.safe import visible
from screens.session import ReviewSession
from screens.widgets.source_view import SourceView

if TYPE_CHECKING:
    from textual.app import App

    from evidence.backlinks import Backlink
    from evidence.revision import GrepHit, Revision, SourceFile
    from screens.find import FindTarget


class LookupHost(Protocol):
    """What the lookups need of the review screen."""

    session: ReviewSession
    keymap: Keymap
    revision: Revision | None
    remote: str | None

    @property
    def source(self) -> SourceFile | None: ...

    @property
    def app(self) -> App[object]: ...

    @property
    def source_view(self) -> SourceView: ...

    def jump(self, location: Location) -> None: ...

    def reach(self, location: Location) -> None: ...

    def open_path(self, path: str, line: int | None = None) -> None: ...

    def first_quote(self, index: int) -> int | None: ...

    def run_action(self, action: str) -> Any: ...


class Lookups:
    """Lookups in the reports and the revision, for the review screen."""

    def __init__(self, host: LookupHost) -> None:
        self.host = host
        self.find_text = ""  # the last text of find in file
        # the backlinks of each path, for the anchors they were computed from
        self._backlinks: tuple[object, dict[str, list[Backlink]]] | None = None
        # what `/` can find, for the revision it was listed with (None: not opened yet)
        self._targets: tuple[object, list[FindTarget]] | None = None

    def notify(self, message: str, **options: Any) -> None:
        self.host.app.notify(message, **options)

    def backlinks_of(self, path: str) -> list[Backlink]:
        """The quotes that cite ``path``, every path's worked out at once and kept until the
        anchors change (the source pane asks on every record it shows)."""
        from evidence.backlinks import backlinks_by_path, normalize

        anchors = self.host.session.anchors
        cache = self._backlinks
        if cache is None or cache[0] is not anchors:
            index = backlinks_by_path(anchors, self.host.session.reportset)
            cache = self._backlinks = (anchors, index)
        return cache[1].get(normalize(path), [])

    def find_targets(self) -> list[FindTarget]:
        """Everything `/` can find: records, quotes, and the files of the revision.

        Listed once per revision: the records and quotes do not change during a review.
        """
        cache = self._targets
        if cache is None or cache[0] is not self.host.revision:
            cache = self._targets = (self.host.revision, self._list_find_targets())
        return cache[1]

    def _list_find_targets(self) -> list[FindTarget]:
        from screens.find import FindTarget

        targets: list[FindTarget] = []
        for n, record in enumerate(self.host.session.records):
            label = f"{record.id}  {record.label}"
            targets.append(FindTarget("record", label, f"{record.id} {record.label}", n))
        for n, record in enumerate(self.host.session.records):
            for quote in record.quotes:
                first = quote.text.strip().splitlines()[0] if quote.text.strip() else ""
                label = f"{record.id} [{quote.index + 1}] {quote.path}: {first[:80]}"
                text = f"{quote.path} {quote.text[:300]}"
                targets.append(FindTarget("quote", label, text, n, quote.index))
        if self.host.revision is not None:
            for path in self.host.revision.paths():
                targets.append(FindTarget("file", path, path, path=path))
        return targets

    def find(self) -> None:
        from screens.find import FindScreen

        def found(target: FindTarget | None) -> None:
            if target is None:
                return
            if target.kind == "file":
                self.host.open_path(target.path)
            elif target.kind == "quote":  # arrived at a quote: verdicts act on it, as after ]
                self.host.reach(Location(target.record, target.quote))
            else:
                self.host.jump(Location(target.record, self.host.first_quote(target.record)))

        self.host.app.push_screen(FindScreen(self.find_targets()), found)

    # --- hooks for the lookup screens ---------------------------------------------------------

    def open_file(self) -> None:
        """Push the file finder; open the chosen path in the source pane."""
        if self.host.revision is None:
            self.notify("the revision is not open", severity="warning")
            return
        from screens.finder import FileFinder

        def chosen(path: str | None) -> None:
            if path:
                self.host.open_path(path)

        self.host.app.push_screen(FileFinder(self.host.revision.paths()), chosen)

    def grep(self) -> None:
        """Push grep at the revision; open the chosen hit."""
        if self.host.revision is None:
            self.notify("the revision is not open", severity="warning")
            return
        from screens.grep import GrepScreen

        def chosen(hit: GrepHit | None) -> None:
            if hit is not None:
                self.host.open_path(hit.path, hit.line)

        self.host.app.push_screen(GrepScreen(self.host.revision), chosen)

    def goto_line(self) -> None:
        """Push go-to-line for the file in the source pane."""
        view = self.host.source_view
        if not view.line_count:
            self.notify("no file is open", severity="warning")
            return
        from screens.goto import GotoLine

        dialog = GotoLine(view.line_count, view.cursor_line)

        def chosen(line: int | None) -> None:
            if dialog.selected is not None:  # a range: selected, so that `y` cites it
                view.set_marks(view.marks._replace(selected=dialog.selected))
            if line is not None:
                view.go_to_line(line)
                view.focus()

        self.host.app.push_screen(dialog, chosen)

    def find_in_file(self) -> None:
        """Ask for text; move the source cursor to the next line of the open file holding it."""
        view = self.host.source_view
        source = self.host.source
        if source is None or view.path != source.path or not view.line_count:
            self.notify("no file is open", severity="warning")
            return
        from screens.goto import FindInFile

        dialog = FindInFile(source.lines, view.cursor_line, text=self.find_text)

        def found(line: int | None) -> None:
            self.find_text = dialog.text
            if line is not None:
                view.go_to_line(line)
                view.focus()
                self.notify(visible(dialog.notice), markup=False, timeout=3)

        self.host.app.push_screen(dialog, found)

    def find_again(self, step: int) -> None:
        """The next (``step`` 1) or previous (-1) line of the open file holding the text last
        found in it; find in file asks for one when none was found yet."""
        view = self.host.source_view
        source = self.host.source
        if not self.find_text:
            self.find_in_file()
            return
        if source is None or view.path != source.path or not view.line_count:
            self.notify("no file is open", severity="warning")
            return
        from screens.goto import find_again

        line, notice = find_again(source.lines, self.find_text, at=view.cursor_line, step=step)
        if line is not None:
            view.go_to_line(line)
        self.notify(visible(notice), markup=False, timeout=3)

    def permalink(self) -> None:
        """Copy a permalink to the selected lines of the open file (OSC 52) and show it."""
        view = self.host.source_view
        if self.host.revision is None or view.path is None:
            self.notify("no file is open", severity="warning")
            return
        from evidence.permalink import link_for

        link = link_for(self.host.remote, self.host.revision.commit, view.path, view.selection)
        self.host.app.copy_to_clipboard(link.text)
        shown = link.text if link.web else f"{link.text} ({link.reason})"
        self.notify(visible(f"copied {shown}"), markup=False, timeout=6)

    def backlinks(self) -> None:
        """List the quotes that cite the open file; jump to the chosen record and quote."""
        view = self.host.source_view
        if view.path is None:
            self.notify("no file is open", severity="warning")
            return
        from screens.backlinks import BacklinksScreen

        links = self.backlinks_of(view.path)

        def chosen(link: Any) -> None:
            if link is None:
                return
            target = next(
                (
                    n
                    for n, record in enumerate(self.host.session.records)
                    if record.id == link.record and link.quote in record.quotes
                ),
                self.host.session.find(link.record),
            )
            if target is not None:
                record = self.host.session.records[target]
                quote = record.quotes.index(link.quote) if link.quote in record.quotes else None
                # a quote found: verdicts act on it, as after ]; else on the record
                self.host.reach(Location(target, quote))

        self.host.app.push_screen(BacklinksScreen(links, path=view.path), chosen)

    # --- command palette -------------------------------------------------------------------------

    def palette_commands(self) -> Iterator[SystemCommand]:
        """Every action of this screen, and a jump to every record (for the command palette)."""
        for spec in SPECS:
            if spec.context != "review" or spec.id == "quit":
                continue
            keys = short_keys(self.host.keymap.keys_for(spec.id), ", ")
            yield SystemCommand(
                spec.description,
                f"{spec.group} · {keys}",
                lambda action=spec.action: self.host.run_action(action),
            )
        for n, record in enumerate(self.host.session.records):
            label = f" · {record.label}" if record.label and record.label != record.id else ""
            # the palette reads titles and help as markup: report text is escaped for it
            yield SystemCommand(
                escape(visible(f"Go to {record.id}{label}")),
                escape(visible(f"{record.kind.value} in {record.section}")),
                lambda n=n: self.host.jump(Location(n, self.host.first_quote(n))),
            )
