"""Review screen behaviours beyond the end-to-end flow: keymaps, dialogs, filters, errors (its
redraws are in test_review_redraws.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from screenkit import index_of, on_top, review_screen, settle, watch_notices

from db import VerdictStore
from evidence.model import ReportSet
from keymaps import Keymap, load_keymap
from screens.confirm import ConfirmScreen
from screens.find import FindScreen
from screens.help import HelpScreen, help_content
from screens.note import NoteScreen
from screens.review.history import Location
from screens.widgets.instant_scroll import InstantScroll
from screens.widgets.source_view import SourceView
from tui.cli import cli
from tui.factory import make_app, make_demo_app

SIZE = (120, 40)


async def test_vim_preset_and_help_show_the_active_keys(tmp_path: Path, sample: Path) -> None:
    keymap = load_keymap("vim", user=False)
    app = make_demo_app(tmp_path, reviewer="v", keymap=keymap)
    async with app.run_test(size=SIZE) as pilot:
        screen = review_screen(app)
        await settle(pilot, screen)
        start = screen.record
        screen.jump(Location(index_of(screen, "KS-RTE-token-check"), 0))
        await settle(pilot, screen)
        await pilot.press("ctrl+o")  # vim: back through the jump history
        await settle(pilot, screen)
        assert screen.record is start
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert "ctrl+o" in help_content(keymap).plain
        listed = app.screen.query_one("#help-dialog")
        await pilot.press("j", "j", "j")  # the list scrolls by the keys that move the review
        await pilot.pause()
        assert listed.scroll_y == 3
        await pilot.press("k")
        await pilot.pause()
        assert listed.scroll_y == 2
        # home, end and the page keys move it at once: Textual animated them for up to a second
        # (Pilot waits for animations, so the actions the keys run are asked directly)
        assert isinstance(listed, InstantScroll)
        listed.action_scroll_end()
        assert listed.scroll_y == listed.max_scroll_y > 20
        listed.action_scroll_home()
        assert listed.scroll_y == 0
        listed.action_page_down()
        assert listed.scroll_y == listed.scrollable_content_region.height
        listed.action_scroll_down()
        assert listed.scroll_y == listed.scrollable_content_region.height + 1
        await pilot.press("end")  # the key runs that action
        await pilot.pause()
        assert listed.scroll_y == listed.max_scroll_y
        await pilot.press("escape")
        await pilot.pause()
        assert on_top(app) is screen
    app.close()


async def test_user_override_moves_a_binding_to_another_key(tmp_path: Path, sample: Path) -> None:
    user = tmp_path / "keymap.toml"
    user.write_text('next_record = "X"\nquit = ""\n', encoding="utf-8")
    app = make_demo_app(tmp_path, reviewer="o", keymap=load_keymap(user_file=user))
    async with app.run_test(size=SIZE) as pilot:
        screen = review_screen(app)
        await settle(pilot, screen)
        start = screen.location.record
        await pilot.press("n")  # no longer bound
        await settle(pilot, screen)
        assert screen.location.record == start
        await pilot.press("X")
        await settle(pilot, screen)
        assert screen.location.record > start
        await pilot.press("q")  # unbound: Textual alone would have kept it on q
        await pilot.pause()
        assert app.is_running and app.screen is screen
        shown = str(screen.query_one("KeysBar").render())
        assert " X Next record " in shown and "Quit" not in shown
    app.close()


async def test_note_escape_asks_before_discarding(
    tmp_path: Path, sample: Path, keymap: Keymap
) -> None:
    app = make_demo_app(tmp_path, reviewer="n", keymap=keymap)
    async with app.run_test(size=SIZE) as pilot:
        screen = review_screen(app)
        await settle(pilot, screen)
        await pilot.press("e")
        await pilot.press(*"draft")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")  # keep editing
        await pilot.pause()
        assert isinstance(app.screen, NoteScreen) and app.screen.text == "draft"
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("y")  # discard
        await settle(pilot, screen)
        assert on_top(app) is screen
        assert screen.session.current == {}
        # an unchanged note closes on escape without asking
        await pilot.press("e", "escape")
        await pilot.pause()
        assert on_top(app) is screen
    app.close()
    store = VerdictStore.open(tmp_path / "demo.db", readonly=True)
    try:
        assert store.current("n") == {}
    finally:
        store.close()


async def test_filters_diff_find_palette_and_theme(
    tmp_path: Path, sample: Path, keymap: Keymap
) -> None:
    app = make_demo_app(tmp_path, reviewer="f", keymap=keymap)
    async with app.run_test(size=SIZE) as pilot:
        screen = review_screen(app)
        await settle(pilot, screen)
        seen = []
        for _ in range(4):
            await pilot.press("f")
            await settle(pilot, screen)
            seen.append(screen.filter)
        assert seen == ["unreviewed", "refuted", "failing quotes", "all"]
        await pilot.press("f", "f", "f")
        await settle(pilot, screen)
        shown = {screen.session.records[n].id for n in screen.rows if n >= 0}
        assert "KS-RTE-note-sync" in shown and "KS-CMP-api-server" not in shown
        assert all(screen.session.failing(screen.session.records[n]) for n in screen.rows if n >= 0)

        # the diff of a fuzzy quote
        screen.go(Location(index_of(screen, "KS-RTE-note-sync"), 1))
        await settle(pilot, screen)
        await pilot.press("d")
        await settle(pilot, screen)
        assert screen.has_class("-diff")
        diff = str(screen.query_one("#diff-text").render())
        assert "quote" in diff and "source" in diff and "fuzzy" in diff

        # fuzzy find a file of the revision and open it
        await pilot.press("slash")
        await pilot.pause()
        assert isinstance(app.screen, FindScreen)
        await pilot.press(*"stations.py")
        await pilot.pause()
        await pilot.press("enter")
        await settle(pilot, screen)
        for _ in range(100):
            if screen.query_one(SourceView).path == "api/kestrel/stations.py":
                break
            await pilot.pause(0.01)
        assert screen.state.opened == "api/kestrel/stations.py"
        # what `/` finds is listed once for the revision, not again at each `/`
        targets = screen.find_targets()
        assert targets is screen.find_targets()
        assert any(t.kind == "file" and t.path == "api/kestrel/stations.py" for t in targets)

        # the command palette offers actions and every record
        titles = [command.title for command in screen.palette_commands()]
        assert "Confirm" in titles and "Next unreviewed" in titles
        assert any(title.startswith("Go to KS-CMP-api-server · ") for title in titles)

        await pilot.press("ctrl+t")
        await pilot.pause()
        assert not app.current_theme.dark
        view = screen.query_one(SourceView)
        for _ in range(200):  # the source is highlighted again in the light syntax style
            if view.is_highlighted(view.cursor_line):
                break
            await pilot.pause(0.01)
        assert view.syntax_name == "friendly" and view.is_highlighted(view.cursor_line)

        # the palette's "Go to" jumps to the record
        command = next(c for c in screen.palette_commands() if "KS-RTE-token-check" in c.title)
        command.callback()
        await settle(pilot, screen)
        assert screen.record is not None and screen.record.id == "KS-RTE-token-check"
    app.close()


async def test_missing_revision_shows_in_the_panes(
    tmp_path: Path, sample: Path, keymap: Keymap, sample_reports: ReportSet
) -> None:
    app = make_app(sample_reports, sample, "0" * 40, tmp_path / "v.db", "e", keymap)
    async with app.run_test(size=SIZE) as pilot:
        screen = review_screen(app)
        await settle(pilot, screen)
        assert screen.revision is None and screen.revision_error
        found = screen.find_targets()
        assert found and not any(target.kind == "file" for target in found)  # no revision
        screen.go(Location(index_of(screen, "KS-CMP-api-server"), 0))
        await settle(pilot, screen)
        view = screen.query_one(SourceView)
        assert view.message is not None and "cannot open the revision" in view.message
        assert "revision unavailable" in str(screen.query_one("#review-header").render())
        # its quotes are said not checked, never pending ("…") as if anchoring would come
        record = screen.session.records[screen.state.location.record]
        assert screen.session.quote_status(record) == f"∅{len(record.quotes)}"
        pane = screen.record_pane
        rows = [pane.row(n).prompt.plain for n in range(pane.row_count)]
        assert any("∅ not checked: the revision cannot be opened" in row for row in rows)
        info = str(screen.query_one("#quote-info").render())
        assert "not checked: the revision cannot be opened" in info
        await pilot.press("c")  # never saved against a revision that was not resolved
        await settle(pilot, screen)
        assert screen.record is not None
        assert screen.session.badge(screen.record) == "·"
    app.close()


def test_review_command_errors_are_one_line(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(
        cli, ["review", str(tmp_path / "none.txt"), "--repo", str(tmp_path / "no")]
    )
    assert result.exit_code == 2
    assert "no such directory" in result.output and "Traceback" not in result.output
    result = runner.invoke(cli, ["review", str(tmp_path / "none.txt"), "--repo", str(tmp_path)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    result = runner.invoke(cli, ["review", "--repo", str(tmp_path)])
    assert result.exit_code == 2


def test_an_unknown_binding_in_the_user_keymap_is_named_with_the_id_meant(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the app starts with the preset's keys and says this (tests/tui/test_keymap_unusable.py)
    from keymaps import usable_keymap

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    (tmp_path / "assay").mkdir()
    (tmp_path / "assay" / "keymap.toml").write_text('refutee = "R"\n', encoding="utf-8")
    _keymap, problem = usable_keymap(None)
    assert problem is not None
    assert "unknown binding id 'refutee'" in problem and "'refute'" in problem


async def test_verdict_on_an_edited_quote_is_shown_stale(
    tmp_path: Path, sample: Path, keymap: Keymap, sample_reports: ReportSet, cited: str
) -> None:

    from db import ItemRef, Verdict

    report = sample_reports.reports[0]
    record = report.record("KS-CMP-api-server")
    assert record is not None
    store = VerdictStore.open(tmp_path / "s.db")
    try:
        item = ItemRef.for_quote(report, record, record.quotes[0])
        store.give(item, Verdict.REFUTED, note="wrong line", reviewer="s", revision=cited)
        # the report is regenerated with that quote edited
        edited = record.quotes[0]._replace(text=record.quotes[0].text + "  # edited")
        new_record = record._replace(quotes=(edited, *record.quotes[1:]))
        records = tuple(new_record if r is record else r for r in report.records)
        reportset = sample_reports._replace(
            reports=(report._replace(records=records), *sample_reports.reports[1:])
        )
        app = make_app(reportset, sample, cited, store, "s", keymap)
        async with app.run_test(size=SIZE) as pilot:
            screen = review_screen(app)
            await settle(pilot, screen)
            assert [item.reason for item in screen.stale] == ["quote changed"]
            assert "1 stale" in str(screen.query_one("#review-header").render())
            screen.go(Location(index_of(screen, "KS-CMP-api-server"), 0))
            await settle(pilot, screen)
            pane = screen.query_one("#record")
            texts = [str(pane.row(n).prompt) for n in range(pane.row_count)]  # type: ignore[attr-defined]
            assert any("stale verdicts" in text for text in texts)
            assert any("refuted" in text and "wrong line" in text for text in texts)
        app.close()
    finally:
        store.close()


async def test_find_in_file_moves_the_source_cursor(tmp_path: Path, sample: Path) -> None:
    from screens.goto import FindInFile

    app = make_demo_app(tmp_path, reviewer="f", keymap=load_keymap(user=False))
    async with app.run_test(size=SIZE) as pilot:
        screen = review_screen(app)
        await settle(pilot, screen)
        record, quote = next(
            (n, quote.index)
            for n, record in enumerate(screen.session.records)
            for quote in record.quotes
            if (anchor := screen.session.anchor(quote)) is not None and anchor.match.verified
        )
        screen.go(Location(record, quote))
        await settle(pilot, screen)
        view = screen.query_one(SourceView)
        assert view.path is not None and screen.source is not None
        lines = screen.source.lines
        start = view.cursor_line
        # a line after the cursor whose text appears nowhere before it in the file
        wanted = next(
            n
            for n in range(start + 1, len(lines) + 1)
            if len(lines[n - 1].strip()) > 12
            and not any(
                lines[n - 1].strip().casefold() in line.casefold() for line in lines[: n - 1]
            )
        )
        await pilot.press("ctrl+f")
        await pilot.pause()
        assert isinstance(app.screen, FindInFile)
        await pilot.press(*lines[wanted - 1].strip(), "enter")
        await pilot.pause()
        assert on_top(app) is screen
        assert view.cursor_line == wanted
        assert screen.focused is view
    app.close()


async def test_record_id_with_markup_is_notified_literally(
    tmp_path: Path, sample: Path, keymap: Keymap, sample_reports: ReportSet, cited: str
) -> None:
    """Bundles written by other tools may carry any id: the verdict notice shows it as data."""

    report = sample_reports.reports[0]
    record = report.records[0]
    hostile = "[b]X[/b][@click=app.quit]"
    records = (record._replace(id=hostile), *report.records[1:])
    reportset = sample_reports._replace(
        reports=(report._replace(records=records), *sample_reports.reports[1:])
    )
    app = make_app(reportset, sample, cited, tmp_path / "m.db", "m", keymap)
    notices = watch_notices(app)
    async with app.run_test(size=SIZE) as pilot:
        screen = review_screen(app)
        await settle(pilot, screen)
        screen.go(Location(index_of(screen, hostile), None))
        await settle(pilot, screen)
        await pilot.press("c")
        await settle(pilot, screen)
        (notice,) = [n for n in notices if n.message == f"record {hostile}: confirmed"]
        assert notice.markup is False
        assert app.is_running
    app.close()


async def test_replayed_search_hits_are_listed_and_open_at_their_line(
    tmp_path: Path, sample: Path, keymap: Keymap, sample_reports: ReportSet, cited: str
) -> None:
    app = make_app(sample_reports, sample, cited, tmp_path / "r.db", "r", keymap)
    async with app.run_test(size=SIZE) as pilot:
        screen = review_screen(app)
        await settle(pilot, screen)
        screen.go(Location(index_of(screen, "KS-ABS-station-list"), None))
        await settle(pilot, screen)
        pane = screen.query_one("#record")
        ids = [pane.row(n).id for n in range(pane.row_count)]  # type: ignore[attr-defined]
        hits = [option_id for option_id in ids if option_id and option_id.startswith("hit-0-")]
        assert len(hits) == 5  # the report claims five calls; true at the cited revision
        texts = [str(pane.row(ids.index(h)).prompt) for h in hits]  # type: ignore[attr-defined]
        assert any("api/server.py:37" in text and "require_token" in text for text in texts)
        pane.focus()
        pane.highlighted = ids.index("hit-0-1")  # type: ignore[attr-defined]
        await pilot.press("enter")
        await settle(pilot, screen)
        view = screen.query_one(SourceView)
        assert view.path == "api/server.py"
        assert view.cursor_line == 37
    app.close()


async def test_an_empty_file_says_so_in_the_source_pane(
    tmp_path: Path, keymap: Keymap, sample_reports: ReportSet
) -> None:
    import subprocess

    repo = tmp_path / "repo"
    repo.mkdir()

    def git(*args: str) -> str:
        done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True)
        return done.stdout.strip()

    git("init", "-q", "-b", "main")
    (repo / "empty.txt").write_bytes(b"")
    (repo / "a.py").write_text("x = 1\n")
    git("add", ".")
    git("-c", "user.name=T", "-c", "user.email=t@example.org", "commit", "-q", "-m", "one")
    app = make_app(sample_reports, repo, git("rev-parse", "HEAD"), tmp_path / "e.db", "e", keymap)
    async with app.run_test(size=SIZE) as pilot:
        screen = review_screen(app)
        await settle(pilot, screen)
        screen.open_path("empty.txt")
        await settle(pilot, screen)
        view = screen.query_one(SourceView)
        assert view._message == "empty.txt is empty"  # not a blank pane
        screen.open_path("a.py")
        await settle(pilot, screen)
        assert view._message is None and view.line_count == 1
    app.close()
