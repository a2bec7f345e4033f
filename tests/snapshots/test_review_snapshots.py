"""Snapshots of the review app (pytest-textual-snapshot), built by the app factory on real data."""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from snapshotkit import steady
from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from evidence.model import Kind, Quote, Record, Report, ReportSet
from keymaps import load_keymap
from screens.review.history import Location
from screens.review.screen import ReviewScreen
from screens.widgets.source_view import SourceView
from tui.app import AssayApp
from tui.factory import make_app, make_demo_app


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[AssayApp]:
    app = make_demo_app(tmp_path, reviewer="reviewer", keymap=load_keymap(user=False))
    yield app
    app.close()


async def settled(pilot: Pilot[Any]) -> ReviewScreen:
    """Everything loaded, anchored, read and highlighted; no blinking cursors."""
    screen = next(s for s in pilot.app.screen_stack if isinstance(s, ReviewScreen))
    await pilot.pause()
    await screen.settle()
    view = screen.query_one(SourceView)
    for _ in range(500):
        await pilot.pause()
        if screen.sources.shown == screen.sources.request and not view.highlighting:
            break
        await pilot.pause(0.01)
    else:
        raise AssertionError("the source never settled: not shown, or still highlighting")
    for widget in pilot.app.screen.query(Input):
        widget.cursor_blink = False
    for area in pilot.app.screen.query(TextArea):
        area.cursor_blink = False
    await steady(pilot)
    return screen


def go(screen: ReviewScreen, record_id: str, quote: int | None = 0, *, on: bool = False) -> None:
    """Show a record at a quote; ``on``: the quote selected (verdicts and enter act on it)."""
    index = next(n for n, record in enumerate(screen.session.records) if record.id == record_id)
    screen.go(Location(index, quote), on_quote=on)


class TestReviewScreen:
    def test_review_80x24(self, snap_compare: Any, demo: AssayApp) -> None:
        async def run_before(pilot: Pilot[Any]) -> None:
            screen = await settled(pilot)
            go(screen, "KS-RTE-ticket-escalation", 1)
            await settled(pilot)

        assert snap_compare(demo, terminal_size=(80, 24), run_before=run_before)

    def test_review_200x50(self, snap_compare: Any, demo: AssayApp) -> None:
        async def run_before(pilot: Pilot[Any]) -> None:
            screen = await settled(pilot)
            go(screen, "KS-RTE-ticket-escalation", 1)
            await settled(pilot)

        assert snap_compare(demo, terminal_size=(200, 50), run_before=run_before)


class TestReading:
    """Issue 14: a long record read by keys, its note under the verdict (and marked in the list)."""

    @pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
    def test_reading_a_long_record(
        self, snap_compare: Any, demo: AssayApp, size: tuple[int, int]
    ) -> None:
        async def run_before(pilot: Pilot[Any]) -> None:
            screen = await settled(pilot)
            go(screen, "KS-RTE-ticket-escalation", 0)
            await settled(pilot)
            await pilot.press("e", *"clock source unclear", "ctrl+s")
            await settled(pilot)
            pilot.app.clear_notifications()
            await pilot.press("tab", "pagedown", "j", "j")
            await settled(pilot)

        assert snap_compare(demo, terminal_size=size, run_before=run_before)


class TestTarget:
    """Issue 14: the second quote selected and refuted: the status line, rows and counts."""

    @pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
    def test_quote_target(self, snap_compare: Any, demo: AssayApp, size: tuple[int, int]) -> None:
        async def run_before(pilot: Pilot[Any]) -> None:
            screen = await settled(pilot)
            go(screen, "KS-RTE-ticket-escalation", 0)
            await settled(pilot)
            await pilot.press("c", "right_square_bracket", "right_square_bracket", "r")
            await settled(pilot)
            pilot.app.clear_notifications()  # the verdicts' notices would cover the panes
            await pilot.pause()

        assert snap_compare(demo, terminal_size=size, run_before=run_before)


class TestExport:
    """Issue 14: `x` saves the write-up; the notice says where (a fixed directory: the path
    shows in the snapshot)."""

    @pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
    def test_writeup_saved(
        self,
        snap_compare: Any,
        demo: AssayApp,
        size: tuple[int, int],
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:
        out = Path(tempfile.gettempdir()) / "assay-snapshot-export"
        out.mkdir(exist_ok=True)
        monkeypatch.chdir(out)

        async def run_before(pilot: Pilot[Any]) -> None:
            screen = await settled(pilot)
            go(screen, "KS-RTE-ticket-escalation", 0)
            await settled(pilot)
            await pilot.press("r")
            await settled(pilot)
            pilot.app.clear_notifications()
            await pilot.press("x")
            await settled(pilot)
            await pilot.pause()

        assert snap_compare(demo, terminal_size=size, run_before=run_before)


class TestSmallTerminal:
    """Below the width of three panes: records on the left, the record above the source."""

    def test_records_list_hidden_80x24(self, snap_compare: Any, demo: AssayApp) -> None:
        async def run_before(pilot: Pilot[Any]) -> None:
            screen = await settled(pilot)
            go(screen, "KS-RTE-ticket-escalation", 1)
            await settled(pilot)
            await pilot.press("l")  # the record and the source take the whole width
            await settled(pilot)

        assert snap_compare(demo, terminal_size=(80, 24), run_before=run_before)

    def test_quote_found_in_another_file_80x24(self, snap_compare: Any, demo: AssayApp) -> None:
        async def run_before(pilot: Pilot[Any]) -> None:
            screen = await settled(pilot)
            go(screen, "KS-OBJ-station-db", 1, on=True)
            await settled(pilot)

        assert snap_compare(demo, terminal_size=(80, 24), run_before=run_before)

    def test_diff_over_the_source_80x24(self, snap_compare: Any, demo: AssayApp) -> None:
        async def run_before(pilot: Pilot[Any]) -> None:
            screen = await settled(pilot)
            go(screen, "KS-RTE-note-sync", 1, on=True)
            await settled(pilot)
            await pilot.press("d")  # the quote, the source and what differs, over the source
            await settled(pilot)

        assert snap_compare(demo, terminal_size=(80, 24), run_before=run_before)

    def test_long_lines_scrolled_sideways_80x24(self, snap_compare: Any, demo: AssayApp) -> None:
        async def run_before(pilot: Pilot[Any]) -> None:
            screen = await settled(pilot)
            go(screen, "KS-OBJ-station-registry", 0, on=True)
            await settled(pilot)
            screen.source_view.focus()
            await pilot.press("right")  # the code further right, the numbers and marks kept
            await settled(pilot)

        assert snap_compare(demo, terminal_size=(80, 24), run_before=run_before)


class TestNoDeadEnds:
    def test_quote_found_in_another_file_opened_and_compared(
        self, snap_compare: Any, demo: AssayApp
    ) -> None:
        async def run_before(pilot: Pilot[Any]) -> None:
            screen = await settled(pilot)
            go(screen, "KS-OBJ-station-db", 1, on=True)
            await settled(pilot)
            screen.record_pane.focus()
            await pilot.press("enter", "d")  # opens notes.py:48-49, compares the quote with it
            await settled(pilot)

        assert snap_compare(demo, terminal_size=(120, 40), run_before=run_before)

    def test_empty_filter(self, snap_compare: Any, demo: AssayApp) -> None:
        async def run_before(pilot: Pilot[Any]) -> None:
            await settled(pilot)
            await pilot.press("f", "f")  # refuted: nothing yet
            await settled(pilot)
            pilot.app.clear_notifications()  # the filters' notices: timed, not what is shown
            await settled(pilot)

        assert snap_compare(demo, terminal_size=(120, 40), run_before=run_before)


class TestSourcePane:
    def test_fuzzy_quote_diff(self, snap_compare: Any, demo: AssayApp) -> None:
        async def run_before(pilot: Pilot[Any]) -> None:
            screen = await settled(pilot)
            go(screen, "KS-RTE-note-sync", 1)
            await settled(pilot)
            await pilot.press("d")
            await settled(pilot)

        assert snap_compare(demo, terminal_size=(140, 40), run_before=run_before)

    def test_large_file_at_a_quote_near_its_end(self, snap_compare: Any, demo: AssayApp) -> None:
        async def run_before(pilot: Pilot[Any]) -> None:
            screen = await settled(pilot)
            go(screen, "KS-OBJ-station-registry", 0)
            screen = await settled(pilot)
            view = screen.query_one(SourceView)
            assert view.line_count > 20_000 and view.cursor_line > 20_000

        assert snap_compare(demo, terminal_size=(140, 40), run_before=run_before)


class TestDialogs:
    def test_help(self, snap_compare: Any, demo: AssayApp) -> None:
        async def run_before(pilot: Pilot[Any]) -> None:
            await settled(pilot)
            await pilot.press("question_mark")
            await pilot.pause()

        assert snap_compare(demo, terminal_size=(100, 40), run_before=run_before)

    def test_note_modal(self, snap_compare: Any, demo: AssayApp) -> None:
        async def run_before(pilot: Pilot[Any]) -> None:
            screen = await settled(pilot)
            go(screen, "KS-CMP-api-server", 0)
            await settled(pilot)
            await pilot.press("e")
            await pilot.press(*"Token first [b]then[/b] role")
            await settled(pilot)

        assert snap_compare(demo, terminal_size=(100, 30), run_before=run_before)

    # the lookups not drawn elsewhere: each dialog's stylesheet is default CSS (dialog_css), which
    # Textual's own widget rules can outrank; these hold their look
    @pytest.mark.parametrize(
        "keys",
        [
            ("colon", *"9999"),  # go to line, out of range
            ("ctrl+f", *"def"),  # find in file
            ("slash", *"tok"),  # find: records, quotes, files
            ("A", *"nope"),  # drift against a revision, unknown
            ("ctrl+p", *"KS-RTE"),  # the command palette, records found by typing
        ],
        ids=lambda keys: keys[0],
    )
    def test_lookup(self, snap_compare: Any, demo: AssayApp, keys: tuple[str, ...]) -> None:
        async def run_before(pilot: Pilot[Any]) -> None:
            screen = await settled(pilot)
            go(screen, "KS-RTE-note-sync", 0, on=True)
            await settled(pilot)
            await pilot.press(*keys)
            for _ in range(3):
                await pilot.app.workers.wait_for_complete()
                await pilot.pause()
            await settled(pilot)

        assert snap_compare(demo, terminal_size=(100, 30), run_before=run_before)


# --- untrusted text ------------------------------------------------------------------------------

HOSTILE = "[bold red]bold?[/] [@click=app.quit]click me[/] $var \x1b[31mred\x1b[0m bell\x07 cr\r"
BIDI = "access \u202eresu_nimda\u202c check \u2066x\u2069 zw\u200bsp"


def _git(repo: Path, *args: str) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.org",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.org",
        "GIT_AUTHOR_DATE": "2024-01-01T00:00:00Z",
        "GIT_COMMITTER_DATE": "2024-01-01T00:00:00Z",
        "GIT_CONFIG_GLOBAL": "/dev/null",
    }
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


def hostile_review(tmp_path: Path) -> tuple[ReportSet, Path]:
    """A repository and a hand-built report whose text holds markup and escape sequences."""
    repo = tmp_path / "repo"
    repo.mkdir()
    source = "def check(user):\n    # [red]not markup[/] \x1b]0;title\x07\n    return user.admin\n"
    (repo / "evil.py").write_text(source, encoding="utf-8")
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", "evil.py")
    _git(repo, "commit", "-q", "-m", "evil")
    quote = Quote(
        text="    # [red]not markup[/] \x1b]0;title\x07\n    return user.admin",
        path="evil.py",
        claimed=(2, 3),
        report_line=9,
        text_line=10,
        record="EV-CLM-[b]markup[/b]",
        index=0,
    )
    record = Record(
        id="EV-CLM-[b]markup[/b]",
        kind=Kind.CLAIM,
        label="Label " + HOSTILE,
        body="Body " + HOSTILE + "\n" + BIDI,
        report="hostile.txt",
        section="Claims",
        lines=(5, 12),
        fields=(("field [i]name[/i]", "value \x1b[2J cleared?"),),
        statuses=(("implementation", "[blink]wired[/blink]"),),
        quotes=(quote,),
        references=("[@click=app.quit]",),
    )
    report = Report(
        file="hostile.txt",
        title="Evil [b]report[/b]",
        type_line="agentic-system-analyses/types/agentic-system-runtime-report.md",
        system="Evil\x1b[5m",
        records=(record,),
    )
    return ReportSet(reports=(report,)), repo


class TestUntrustedText:
    def test_record_with_markup_and_escapes(self, snap_compare: Any, tmp_path: Path) -> None:
        reportset, repo = hostile_review(tmp_path)
        app = make_app(
            reportset, repo, None, tmp_path / "db.sqlite", "rev[i]iewer", load_keymap(user=False)
        )

        async def run_before(pilot: Pilot[Any]) -> None:
            await settled(pilot)
            await pilot.press("tab")
            await settled(pilot)

        try:
            assert snap_compare(app, terminal_size=(140, 30), run_before=run_before)
        finally:
            app.close()


async def test_palette_shows_record_text_as_data(tmp_path: Path) -> None:
    # the command palette reads titles and help as markup: the record's text is escaped for it
    from textual.content import Content

    reportset, repo = hostile_review(tmp_path)
    app = make_app(reportset, repo, None, tmp_path / "db.sqlite", "ann", load_keymap(user=False))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await settled(pilot)
            command = next(c for c in screen.palette_commands() if "EV-CLM" in c.title)
            shown = Content.from_markup(command.title).plain
            assert "EV-CLM-[b]markup[/b]" in shown
            assert "[bold red]bold?[/]" in shown and "[@click=app.quit]click me[/]" in shown
            assert "␛" in shown or "\x1b" not in shown  # the escape is made visible
    finally:
        app.close()


SARIF = Path(__file__).resolve().parents[1] / "evidence" / "sarif"


class TestSarifTriage:
    """Issue 23: ruff's and Bandit's results of the sample, grouped by rule (the worst first,
    count and severity on each heading), then by severity at 80x24; the header names both."""

    @pytest.fixture
    def scans(self, tmp_path: Path, sample: Path) -> Iterator[AssayApp]:
        from evidence.reports.loading import load_reports
        from evidence.revision import Revision
        from evidence.sample import CITED_REVISION
        from evidence.sarif.rebase import rebase_paths

        reportset = load_reports([SARIF / "ruff-kestrel.sarif", SARIF / "bandit-kestrel.sarif"])
        with Revision.open(sample, CITED_REVISION) as revision:
            reportset = rebase_paths(reportset, revision.entries())
        keymap = load_keymap(user=False)
        app = make_app(reportset, sample, CITED_REVISION, tmp_path / "db", "reviewer", keymap)
        yield app
        app.close()

    def test_by_rule_120x40(self, snap_compare: Any, scans: AssayApp) -> None:
        assert snap_compare(scans, terminal_size=(120, 40), run_before=settled)

    def test_by_severity_80x24(self, snap_compare: Any, scans: AssayApp) -> None:
        async def run_before(pilot: Pilot[Any]) -> None:
            await settled(pilot)
            await pilot.press("v", "v")
            await settled(pilot)
            pilot.app.clear_notifications()
            await settled(pilot)

        assert snap_compare(scans, terminal_size=(80, 24), run_before=run_before)


class TestDrift:
    """Issue 17: drift against the sample's tip: badges, a changed quote's commit row, its file
    at REV with the passage marked at its new lines; a commit's modal."""

    @pytest.fixture
    def drifted(self, tmp_path: Path) -> Iterator[AssayApp]:
        keymap = load_keymap(user=False)
        # REV by name, as a reviewer gives it: the source title names it (`@8df75ac (main)`)
        app = make_demo_app(tmp_path, reviewer="reviewer", keymap=keymap, against="main")
        yield app
        app.close()

    async def _at_commit_row(self, pilot: Pilot[Any]) -> ReviewScreen:
        screen = await settled(pilot)
        go(screen, "KS-OBJ-station-registry", 0, on=True)
        await settled(pilot)
        pane = screen.record_pane
        screen.set_focus(pane)
        row = pane.row_index("commit-0-0")
        assert row is not None
        pane.move_to(row)
        await pilot.press("t")
        screen = await settled(pilot)
        pilot.app.clear_notifications()  # the drift's counts, said as it arrived
        await pilot.pause()
        return screen

    @pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
    def test_drift_view(self, snap_compare: Any, drifted: AssayApp, size: tuple[int, int]) -> None:
        async def run_before(pilot: Pilot[Any]) -> None:
            await self._at_commit_row(pilot)

        assert snap_compare(drifted, terminal_size=size, run_before=run_before)

    def test_commit_modal(self, snap_compare: Any, drifted: AssayApp) -> None:
        async def run_before(pilot: Pilot[Any]) -> None:
            screen = await self._at_commit_row(pilot)
            await pilot.press("enter")
            await screen.settle()
            for _ in range(100):
                await pilot.pause(0.02)
                if pilot.app.screen is not screen:
                    break
            await pilot.pause()

        assert snap_compare(drifted, terminal_size=(120, 40), run_before=run_before)
