"""The review screen's lookups: find, the file finder, grep, go to line, find in file,
permalinks, backlinks and the command palette's entries.

A part the review screen owns: each lookup pushes a dialog of screens/ and acts on the answer
through the moves (`jump`, `reach`) and the source pane (`open_path`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from textual.app import SystemCommand

from evidence.model import Kind
from keymaps import SPECS, Keymap, short_keys
from keymaps.display import UNBOUND_TEXT
from screens.dialog import kept
from screens.review.history import Location
from screens.safe import as_markup, visible

if TYPE_CHECKING:
    from textual.screen import Screen

    from evidence.revision import GrepHit, Revision
    from screens.find import FindTarget
    from screens.review.navigation import Navigation
    from screens.review.state import ReviewState


#: the palette goes to each record of a review up to this many (it gathers every command at
#: each opening: a scan's hundred thousand results made it slow); past it, `/` finds records
MAX_RECORD_JUMPS = 10_000


class Lookups:
    """Lookups in the reports and the revision, for the review screen."""

    def __init__(
        self,
        state: ReviewState,
        screen: Screen[None],
        moves: Navigation,
        keymap: Keymap,
        actions: dict[str, str],
    ) -> None:
        self.state, self.session, self.keymap = state, state.session, keymap
        self.screen = screen  # its dialogs are pushed over it, its actions run by the palette
        self.moves, self.sources = moves, moves.sources
        self.actions = actions  # binding id -> the screen's action, where not the catalog's
        self.find_text = ""  # the last text of find in file
        # what `/` can find, per revision its files were listed from (the cited one, REV)
        self._targets: dict[object, list[FindTarget]] = {}
        self._jumps: list[SystemCommand] | None = None  # the palette's record jumps, once made

    def notify(self, message: str, **options: Any) -> None:
        self.screen.notify(message, **options)

    def run(self, name: str, step: int = 1) -> None:
        """Run the lookup ``name`` (a binding's): a dialog, or find again (``step`` 1 or -1)."""
        lookups: dict[str, Callable[[], None]] = {
            "find": self.find,
            "open_file": self.open_file,
            "grep": self.grep,
            "goto_line": self.goto_line,
            "find_in_file": self.find_in_file,
            "find_again": lambda: self.find_again(step),
            "permalink": self.permalink,
            "backlinks": self.backlinks,
        }
        lookups[name]()

    def find_targets(self) -> list[FindTarget]:
        """Everything `/` can find: records, quotes, and the files of the revision looked in
        (REV's while the source pane shows REV).

        Listed once per revision: the records and quotes do not change during a review.
        """
        revision, _ = self.looked_in()
        targets = self._targets.get(revision)
        if targets is None:
            if len(self._targets) > 1:  # another REV asked for since: its files go
                self._targets.clear()
            targets = self._targets[revision] = self._list_find_targets(revision)
        return targets

    def _list_find_targets(self, revision: Revision | None) -> list[FindTarget]:
        from screens.find import FindTarget
        from screens.quote_status import claimed_place, found_label
        from screens.widgets.result_line import ResultLine

        targets: list[FindTarget] = []
        for n, record in enumerate(self.session.records):
            if record.kind is Kind.RESULT:
                # a rule's results share their message: where each is tells them apart
                place = claimed_place(record.quotes[0]) if record.quotes else ""
                message = record.label if record.label != record.section else ""
                result = ResultLine(record.section, place, message)
                label = " ".join(part for part in (record.section, place, message) if part)
                # its id's digest is left out: typed digits matched it in results of every rule
                text = f"{record.section} {place} {record.label}"
                targets.append(FindTarget("record", label, text, n, result=result))
                continue
            label = f"{record.id}  {record.label}"
            targets.append(FindTarget("record", label, f"{record.id} {record.label}", n))
        for n, record in enumerate(self.session.records):
            for quote in record.quotes:
                label = found_label(record.id, quote, 80)
                text = f"{quote.path} {quote.text[:300]}"
                targets.append(FindTarget("quote", label, text, n, quote.index))
        if revision is not None:
            for path in revision.paths():
                targets.append(FindTarget("file", path, path, path=path))
        return targets

    def find(self) -> None:
        from screens.find import FindScreen

        _, at_against = self.looked_in()

        def found(target: FindTarget | None) -> None:
            if target is None:
                return
            if target.kind == "file":  # a file at REV, while REV is shown
                self.moves.visit(target.path, at_against=at_against)
            elif target.kind == "quote":  # arrived at a quote: verdicts act on it, as after ]
                self.moves.reach(Location(target.record, target.quote))
            else:
                self.moves.jump(Location(target.record, self.moves.first_quote(target.record)))

        dialog = kept(self.screen.app, FindScreen, self.find_targets())
        self.screen.app.push_screen(dialog, found)

    # --- hooks for the lookup screens ---------------------------------------------------------

    def looked_in(self) -> tuple[Revision | None, bool]:
        """The revision the finder and grep look in, and whether it is REV: REV while the
        source pane shows it (`t`), so that what is only there can be found; else the cited."""
        drift = self.sources.drift
        if drift.showing_against and drift.against is not None:
            return drift.against, True
        return self.state.revision, False

    def open_file(self) -> None:
        """Push the file finder; open the chosen path in the source pane."""
        revision, at_against = self.looked_in()
        if revision is None or self.state.revision is None:
            self.notify("the revision is not open", severity="warning")
            return
        from screens.finder import FileFinder

        def chosen(path: str | None) -> None:
            if path:
                self.moves.visit(path, at_against=at_against)

        title = f"Open file at {revision.short} (REV)" if at_against else "Open file"
        dialog = kept(self.screen.app, FileFinder, revision.paths(), title=title)
        self.screen.app.push_screen(dialog, chosen)

    def grep(self) -> None:
        """Push grep at the revision (REV while shown); open the chosen hit."""
        revision, at_against = self.looked_in()
        if revision is None or self.state.revision is None:
            self.notify("the revision is not open", severity="warning")
            return
        from screens.grep import GrepScreen

        def chosen(hit: GrepHit | None) -> None:
            if hit is not None:  # at the match, also far along a long line
                column = hit.spans[0][0] if hit.spans else None
                self.moves.visit(hit.path, hit.line, column, at_against=at_against)

        self.screen.app.push_screen(kept(self.screen.app, GrepScreen, revision), chosen)

    def goto_line(self) -> None:
        """Push go-to-line for the file in the source pane."""
        view = self.sources.view
        if not view.line_count:
            self.notify("no file is open", severity="warning")
            return
        from screens.goto import GotoLine

        dialog = kept(self.screen.app, GotoLine, view.line_count, view.cursor_line)

        def chosen(line: int | None) -> None:
            if dialog.selected is not None:  # a range: selected, so that `y` cites it
                view.set_marks(view.marks._replace(selected=dialog.selected))
            if line is not None:
                view.go_to_line(line)
                view.focus()

        self.screen.app.push_screen(dialog, chosen)

    def find_in_file(self) -> None:
        """Ask for text; move the source cursor to the next line of the open file holding it."""
        view = self.sources.view
        source = self.sources.source
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

        self.screen.app.push_screen(dialog, found)

    def find_again(self, step: int) -> None:
        """The next (``step`` 1) or previous (-1) line of the open file holding the text last
        found in it; find in file asks for one when none was found yet."""
        view = self.sources.view
        source = self.sources.source
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
        view, revision = self.sources.view, self.sources.shown_revision  # REV's lines at REV
        if revision is None or view.path is None:
            self.notify("no file is open", severity="warning")
            return
        from evidence.permalink import link_to

        link = link_to(revision, self.state.remote, view.path, view.selection)
        self.screen.app.copy_to_clipboard(link.text)
        shown = link.text if link.web else f"{link.text} ({link.reason})"
        self.notify(visible(f"copied {shown}"), markup=False, timeout=6)

    def backlinks(self) -> None:
        """List the quotes that cite the open file; jump to the chosen record and quote (at
        REV, the file as the reports cite it: its path at the cited revision)."""
        quote, path = self.state.quote, self.sources.view.path
        if self.sources.shown_revision is not self.state.revision:
            path = self.state.opened or (quote.path if quote is not None else path)
        if path is None:
            self.notify("no file is open", severity="warning")
            return
        from screens.backlinks import BacklinksScreen

        links = self.sources.backlinks.of(path)

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
                # a quote found: verdicts act on it, as after ]; else on the record
                self.moves.reach(Location(target, quote))

        self.screen.app.push_screen(BacklinksScreen(links, path=path), chosen)

    # --- command palette -------------------------------------------------------------------------

    def palette_commands(self) -> Iterator[SystemCommand]:
        """Every action of this screen, listed as the palette opens, and a jump to every record,
        listed when typed for (for the command palette)."""
        for spec in SPECS:
            if spec.context != "review" or spec.id == "quit":
                continue
            keys = short_keys(self.keymap.keys_for(spec.id), ", ") or UNBOUND_TEXT
            action = self.actions.get(spec.id, spec.action)
            yield SystemCommand(
                spec.description,
                f"{spec.group} · {keys}",
                lambda action=action: self.screen.run_action(action),
            )
        yield from self._record_jumps()

    def _record_jumps(self) -> list[SystemCommand]:
        """A palette command going to each record: made once per session (the palette asks for
        every command at each opening, and the records do not change during a review); none past
        MAX_RECORD_JUMPS records, where `/` finds them."""
        if self._jumps is not None:
            return self._jumps
        jumps = []
        records = self.session.records
        for n, record in enumerate(records if len(records) <= MAX_RECORD_JUMPS else ()):
            label = f" · {record.label}" if record.label and record.label != record.id else ""
            # the palette reads titles and help as markup: report text is escaped for it; the
            # jumps are not listed before typing (discover): a list growing with the review
            # would be parsed and drawn at every opening, and would bury the actions
            jumps.append(
                SystemCommand(
                    as_markup(f"Go to {record.id}{label}"),
                    as_markup(f"{record.kind.value} in {record.section}"),
                    lambda n=n: self.moves.jump(Location(n, self.moves.first_quote(n))),
                    discover=False,
                )
            )
        self._jumps = jumps
        return jumps
