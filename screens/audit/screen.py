"""The audit screen: every system of an audit with its progress, what needs attention first;
enter opens a system's review (screens/audit/system_review.py), escape there comes back here
with the counts read again."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import events, on, work
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static
from textual.worker import Worker, WorkerState

from db.stats import percent_done
from keymaps import BY_ID, Keymap, short_keys
from keymaps.bindings import bindings
from keymaps.display import UNBOUND_TEXT
from screens.audit.anchors import Cached, read_cached, revision_errors
from screens.audit.status import header_text, status_text
from screens.audit.system_review import SystemReviewScreen
from screens.audit.systems import AuditState, SystemTarget
from screens.audit.table import header_line, row_cells
from screens.review.history import Location
from screens.review.writer import StoreHandle
from screens.safe import visible
from screens.session import ReviewSession
from screens.themes import other_theme
from screens.widgets.footer import KeysBar
from screens.widgets.lists import Row, RowList
from screens.workers import report_failure

if TYPE_CHECKING:
    from db.audit import SystemCounts
    from evidence.model import ReportSet

#: the audit screen's keys shown in the footer, in order, then those it does not show (beside
#: open_system, `keymaps.catalog.AUDIT_SCREEN_IDS`, which the keymap's clash check reads)
AUDIT_SHOWN = ("open_system", "find", "filter", "help", "quit")
AUDIT_HIDDEN = ("move_down", "move_up", "toggle_theme")
#: what the help lists first on this screen: its keys, moving first
AUDIT_KEYS = ("move_down", "move_up", *AUDIT_SHOWN, "toggle_theme")
#: a cell's style on the audit screen, by column
STYLES = {
    "mark": "$text-muted",
    "system": "bold",
    "failing": "$text-error",
    "no path": "$text-warning",
    "drift": "$text-warning",
}
#: a system's mark (screens.audit.table.mark) in the colour of what it says
MARK_STYLES = {"✗": "$text-error", "!": "$text-error", "∅": "$text-warning"}


class SystemsList(RowList, inherit_bindings=False):
    """The systems, one line each; enter is the screen's (`open_system`, remappable)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        binding
        for binding in RowList.BINDINGS
        if not isinstance(binding, Binding) or binding.action != "select"
    ]
    ONE_LINE_ROWS = True


class AuditScreen(Screen[None]):
    """The systems of an audit: reports, records, quotes, reviewed, failing, missing paths,
    drift, reviewers, last activity."""

    CSS_PATH = Path(__file__).with_suffix(".tcss")
    BINDINGS = [
        *bindings(AUDIT_SHOWN, shown=True, descriptions={"open_system": "Open"}),
        *bindings(AUDIT_HIDDEN, shown=False),
    ]

    def __init__(
        self,
        state: AuditState,
        store: StoreHandle,
        *,
        reviewer: str,
        keymap: Keymap,
        against: str | None = None,
        anchor_cache: Path | None = None,
    ) -> None:
        super().__init__()
        self.anchor_cache = anchor_cache  # anchors kept on disk (evidence/anchor_cache.py)
        self.state = state
        self.store = store
        self.reviewer = reviewer
        self.keymap = keymap
        self.against = against
        self.order: list[int] = []  # entry index of each row
        self.reviews: dict[int, SystemReviewScreen] = {}  # systems opened so far, kept
        self.counted = False  # the database's counts were read once
        # the readings the revisions wait for (not to slow the first frame), and the systems
        # whose revision was not read with the counts
        self._before_revisions = (
            {"audit-counts", "audit-cache"} if anchor_cache else {"audit-counts"}
        )
        self._unverified = [] if anchor_cache else list(range(len(state.entries)))
        self.revisions_read = False  # every system's revision read (for tests and benchmarks)

    def compose(self) -> ComposeResult:
        yield Static(id="audit-header")
        yield Static(id="audit-columns")
        yield SystemsList(id="systems")
        yield Static(id="audit-status")
        yield KeysBar()

    def on_mount(self) -> None:
        self.query_one(SystemsList).focus()
        self.fill()
        self.read_counts()
        if self.anchor_cache is not None:
            self.read_cache(self.anchor_cache)

    def on_resize(self, event: events.Resize) -> None:
        self.fill()

    def on_screen_resume(self) -> None:
        if self.is_mounted and self.counted:
            self.read_counts()

    # --- reading ---------------------------------------------------------------------------------

    @work(thread=True, group="audit-counts", exclusive=True, exit_on_error=False)
    def read_counts(self) -> tuple[list[SystemCounts], list[int]]:
        """The database's counts per system and each one's reviewed items, read on a thread."""
        from db.audit import system_counts

        counts = system_counts(self.store.get(), self.state.refs)
        pairs = zip(self.state.entries, counts, strict=True)
        return counts, [entry.count_reviewed(count.reviewed_items) for entry, count in pairs]

    @work(thread=True, group="audit-cache", exit_on_error=False)
    def read_cache(self, directory: Path) -> list[Cached]:
        """The systems' counts from the anchoring cache, read on a thread (`read_cached`)."""
        return read_cached(self.state.entries, directory, self.against)

    @work(thread=True, group="audit-revisions", exit_on_error=False)
    def read_revisions(self, indexes: list[int]) -> list[tuple[int, str]]:
        """The systems whose repository lacks their revision, read on a thread once the counts
        are drawn (`revision_errors`)."""
        return revision_errors(self.state.entries, indexes)

    def _read(self, group: str | None) -> None:
        """``group`` read: the revisions once the counts they wait for are drawn."""
        if group in self._before_revisions:
            self._before_revisions.discard(group)
            if not self._before_revisions:
                self.call_after_refresh(self.read_revisions, self._unverified)

    def _unreadable(self, index: int, error: str) -> None:
        """`!` and the reason, as `assay check` says it, not counts kept for that commit from
        another repository."""
        entry = self.state.entries[index]
        entry.error = error
        entry.failing = entry.citations_missing = None

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if report_failure(self, event) is not None:
            if worker.group == "audit-counts":
                self.counted = True  # read again on the way back from a system
            self.revisions_read = self.revisions_read or worker.group == "audit-revisions"
            self._read(worker.group)
            return
        if worker.group == "audit-revisions" and event.state is WorkerState.SUCCESS:
            for index, error in worker.result:  # type: ignore[union-attr]
                self._unreadable(index, error)
            self.revisions_read = True
            self.fill()
            return
        if worker.group == "audit-cache" and event.state is WorkerState.SUCCESS:
            cached: Cached
            for cached in worker.result:  # type: ignore[union-attr]
                entry = self.state.entries[cached.system]
                # the same records, their paths as the review has them
                entry.reportset, entry.paths_found = cached.reportset, True
                if cached.error is not None:
                    self._unreadable(cached.system, cached.error)
                    continue
                if not cached.read:
                    self._unverified.append(cached.system)
                if cached.failing is None:  # not in the cache: nothing known yet
                    continue
                entry.failing, entry.drift = cached.failing, cached.drifted
                if cached.missing is not None:
                    entry.citations_missing = cached.missing
            self.fill()
            self._read(worker.group)
            return
        if worker.group != "audit-counts":
            return
        if event.state is WorkerState.SUCCESS:
            self.counted = True
            self.state.set_counts(*worker.result)  # type: ignore[misc]
            self.fill()
            self._read(worker.group)

    # --- drawing ---------------------------------------------------------------------------------

    @property
    def systems(self) -> SystemsList:
        return self.query_one(SystemsList)

    def fill(self) -> None:
        """Draw the header, the column titles and the rows (the cursor stays on its system)."""
        current = self.current_index()
        self.order = self.state.shown()
        # the rows' room less the bar the list draws in their lines when they overflow it: a
        # screen of systems lost its last column to the bar
        region = self.systems.scrollable_content_region
        width = region.width or self.size.width - 4
        if len(self.order) > region.height:
            width -= SystemsList.BAR
        width = max(20, width)
        drift = any(entry.drift is not None for entry in self.state.entries)
        rows = []
        for index in self.order:
            entry = self.state.entries[index]
            parts = []
            for column, text in row_cells(entry, width, drift=drift):
                style = STYLES.get(column, "")
                if column == "failing" and text.strip() in ("0", "–"):
                    style = ""
                if column == "mark":
                    style = MARK_STYLES.get(text.strip(), style)
                parts.append((visible(text), style))
            rows.append(Row(Content.assemble(*parts), id=f"system-{index}"))
        cursor = self.order.index(current) if current in self.order else (0 if rows else None)
        self.systems.set_rows(rows, cursor)
        name, total = self.state.filter, len(self.state.entries)
        shown = "" if name == "all" else f" · {name}: {len(self.order)} of {total}"
        self.systems.border_title = f"Systems{shown}"  # a filter name, not untrusted text
        self.query_one("#audit-columns", Static).update(Content(header_line(width, drift=drift)))
        self.refresh_header()

    def refresh_header(self) -> None:
        totals = self.state.totals()
        audit = self.state.audit
        percent = percent_done(totals["reviewed"], totals["items"])
        unchecked = f" ({totals['unchecked']:,} not checked)" if totals["unchecked"] else ""
        # what the review stands at first: a narrow header leaves out the directory, then
        # the reviewer, then the counts from the last (none is cut to a stub)
        counts = [
            f" assay audit  reviewed {percent} ({totals['reviewed']:,}/{totals['items']:,})",
            f"{totals['failing']:,} failing",
            # the sums leave out what is not known: "0 failing" is not "none fail"
            f"{totals['missing']:,} no path{unchecked}",
            f"{totals['systems']:,} systems",
            f"{totals['unavailable']:,} without a repository",
        ]
        width = self.size.width or self.app.size.width
        line = header_text(counts, self.reviewer, _shown_path(audit.path), width)
        text = Content(line).stylize("bold", 1, len(" assay audit"))
        self.query_one("#audit-header", Static).update(text)
        self.refresh_status()

    def refresh_status(self) -> None:
        index = self.current_index()
        entry = None if index is None else self.state.entries[index]
        line = self.query_one("#audit-status", Static)
        # before the first layout: the screen's width less the line's padding
        width = max(20, line.content_region.width or self.size.width - 2)
        line.update(Content(status_text(self.state, entry, width, listed=bool(self.order))))

    def current_index(self) -> int | None:
        """The system under the cursor."""
        row = self.systems.highlighted if self.is_mounted else None
        if row is None or row >= len(self.order):
            return None
        return self.order[row]

    @on(RowList.Moved)
    def _moved(self) -> None:
        self.refresh_status()

    @on(RowList.Chosen)
    def _chosen(self, event: RowList.Chosen) -> None:
        self.open_system(self.order[event.index])

    # --- actions ---------------------------------------------------------------------------------

    def palette_commands(self) -> Iterator[SystemCommand]:
        """This screen's actions for the command palette (the way to them when a keymap leaves
        their keys unbound)."""
        for binding_id, run in (
            ("open_system", self.action_open_system),
            ("find", self.action_find),
            ("filter", self.action_cycle_filter),
            ("help", self.action_help),
        ):
            spec = BY_ID[binding_id]
            keys = short_keys(self.keymap.keys_for(binding_id), ", ") or UNBOUND_TEXT
            yield SystemCommand(spec.description, f"{spec.group} · {keys}", run)

    def action_move_down(self) -> None:
        self.systems.action_cursor_down()
        self.refresh_status()

    def action_move_up(self) -> None:
        self.systems.action_cursor_up()
        self.refresh_status()

    def action_open_system(self) -> None:
        index = self.current_index()
        if index is not None:
            self.open_system(index)

    def action_cycle_filter(self) -> None:
        # said by the list's title and the status line: a notice covered the list's last rows
        self.state.next_filter()
        self.fill()

    def action_find(self) -> None:
        """`/` across every system: the chosen record, quote or file opens in its system."""
        from screens.find import FindScreen, FindTarget

        targets = self.state.targets()
        found = [  # `record` carries the index of the target
            FindTarget(target.kind, target.label, target.text, record=n, result=target.result)
            for n, target in enumerate(targets)
        ]

        def chosen(target: FindTarget | None) -> None:
            if target is not None:
                picked = targets[target.record]
                self.open_system(picked.system, picked)

        self.app.push_screen(FindScreen(found), chosen)

    def action_help(self) -> None:
        from screens.help import HelpScreen, Here

        self.app.push_screen(HelpScreen(self.keymap, Here("The audit screen", AUDIT_KEYS)))

    def action_toggle_theme(self) -> None:
        self.app.theme = other_theme(self.app.current_theme.dark)

    def action_quit(self) -> None:
        self.app.exit()

    # --- a system's review -----------------------------------------------------------------------

    def open_system(self, index: int, target: SystemTarget | None = None) -> None:
        """Push the system's review screen (made once, kept), at ``target`` when given."""
        entry = self.state.entries[index]
        # `!`: as `assay review` refuses its reports (a system holding another's reports too:
        # its verdicts would be that system's)
        if entry.reportset is None or entry.error:
            self.notify(visible(f"{entry.name}: {entry.error}"), severity="error", markup=False)
            return
        screen = self.reviews.get(index)
        if screen is None:
            screen = self.reviews[index] = self._review_screen(index)
            # installed: escape (dismiss) keeps it mounted, with its state and store writer
            self.app.install_screen(screen, f"audit-system-{index}")
        if screen in self.app.screen_stack:
            return
        self.app.push_screen(screen, lambda _result: self._returned(index))
        if target is not None:
            location = _location(screen.session, target)
            if location is not None:
                screen.call_after_refresh(screen.moves.reach, location)

    def _review_screen(self, index: int) -> SystemReviewScreen:
        from evidence.inputs import CheckError, choose_revision

        entry = self.state.entries[index]
        assert entry.reportset is not None
        system = entry.system
        rev: str | None = None
        origin = "assay.toml rev" if system.rev else "stated"
        if system.available:
            try:
                rev = choose_revision(entry.reportset, system.rev)
            except CheckError as error:
                self.notify(visible(str(error)), severity="error", markup=False)
        if rev is None:  # readable, not checked: the review says its repository cannot be read
            repo = self.state.audit.base / f"{system.name} (no repository on this machine)"
            if system.repository is not None:
                repo = system.repository
        else:
            assert system.repository is not None
            repo = system.repository
        against = self.against or system.against
        newer = None if rev is None or against is None else _full(repo, against)
        if rev is not None and against is not None and newer is None:
            # as `assay check` says of this system (`assay review --against` stops on it)
            self.notify(
                visible(f"{system.name}: revision {against} not found in {repo}: no drift shown"),
                severity="warning",
                markup=False,
            )
        if rev is not None and not entry.paths_found:  # read_cache has not done it yet
            entry.reportset = self._at_revision(entry.reportset, repo, rev)
            entry.paths_found = True
        return SystemReviewScreen(
            ReviewSession(entry.reportset, self.reviewer),
            self.store,
            repo=repo,
            rev=rev or "(not checked)",
            keymap=self.keymap,
            rev_origin=f"{origin} {system.rev}" if system.rev else origin,
            against=newer,
            system=index,
            name=system.name,
            anchor_cache=self.anchor_cache,
        )

    def _at_revision(self, reportset: ReportSet, repo: Path, rev: str) -> ReportSet:
        """The reports with SARIF paths of another checkout found at ``rev``, as `assay review`
        reads them before its app opens (else each such quote reads as a file that does not
        exist). On the event loop: only when the counts' worker has not done it yet."""
        from evidence.revision import Revision, RevisionError
        from evidence.sarif.rebase import at_revision, has_sarif_quotes

        if not has_sarif_quotes(reportset):
            return reportset
        try:
            with Revision.open(repo, rev) as revision:
                return at_revision(reportset, revision)
        except RevisionError as error:  # the review says what cannot be read
            self.notify(visible(str(error)), severity="error", markup=False)
            return reportset

    def _returned(self, index: int) -> None:
        """Back from a system: its anchoring's counts, then the database's again."""
        screen = self.reviews.get(index)
        entry = self.state.entries[index]
        if screen is not None and entry.available and screen.revision_error:
            # its repository does not hold the revision (or is no repository)
            self._unreadable(index, screen.revision_error)
        elif screen is not None and screen.session.anchored:
            anchors = screen.session.anchors
            failing = sum(1 for anchor in anchors.values() if anchor.failing)
            missing = sum(
                1
                for cited in screen.session.citations.values()
                for path in cited
                if path.state.missing
            )
            self.state.set_anchoring(index, failing, missing)
            if screen.session.drifts or screen.session.cited_drifts:  # a report may quote nothing
                drifts = screen.session.drifts.values()
                files = screen.session.cited_drifts.values()  # as the audit's own count
                self.state.entries[index].drift = sum(1 for d in drifts if d.status.breaks) + sum(
                    1 for d in files if d.breaks
                )
        self.fill()
        if screen is not None:
            self.run_worker(self._count_after(screen), group="audit-flush", exit_on_error=False)

    async def _count_after(self, screen: SystemReviewScreen) -> None:
        """The counts, once every verdict given in ``screen`` is stored."""
        await screen.verdicts.writer.flush()
        self.read_counts()


def _location(session: ReviewSession, target: SystemTarget) -> Location | None:
    for index, record in enumerate(session.records):
        if record.id == target.record and record.report == target.report:
            return Location(index, target.quote)
    return None


def _full(repo: Path, rev: str) -> str | None:
    """The full id of ``rev`` in ``repo`` (None when git does not know it)."""
    from evidence.revision import Revision, RevisionError

    try:
        with Revision.open(repo, rev) as revision:
            return revision.commit
    except RevisionError:
        return None


def _shown_path(path: Path) -> str:
    """The audit file as the header names it: its directory, the home directory as ``~``."""
    shown = path.parent if path.name == "assay.toml" else path
    home = Path.home()
    if shown.is_relative_to(home):
        return "~/" + shown.relative_to(home).as_posix()
    return str(shown)
