"""No dead ends: a quote found in another file opens there and is compared
with it, replayed search hits are rows the cursor reaches, filters say what they show and why a
record is listed, grep's results are reached from its pattern and find in file counts matches."""

from __future__ import annotations

from pathlib import Path

from screenkit import focused, index_of, review_screen, settle, watch_notices
from textual.widget import Widget
from textual.widgets import Input, OptionList

from evidence.anchoring.explain import normalized_away
from evidence.model import ReportSet
from evidence.revision import GrepHit, Revision
from keymaps import Keymap, load_keymap
from screens.goto import FindInFile, match_notice
from screens.grep import GrepScreen
from screens.review.history import Location
from screens.widgets.quote_diff import QuoteDiff
from screens.widgets.quote_info import QuoteInfo
from screens.widgets.source_view import SourceView
from tui.factory import make_app, make_demo_app

SIZE = (120, 40)


def shown_text(widget: Widget) -> str:
    """What a widget shows on screen, line by line."""
    return "\n".join(strip.text for strip in widget.render_lines(widget.region.reset_offset))


async def test_a_quote_found_in_another_file_opens_there_and_is_compared_with_it(
    tmp_path: Path, sample: Path
) -> None:
    app = make_demo_app(tmp_path, reviewer="w", keymap=load_keymap(user=False))
    async with app.run_test(size=SIZE) as pilot:
        screen = review_screen(app)
        await settle(pilot, screen)
        # KS-OBJ-station-db [2] cites api/kestrel/tickets.py; the text is in notes.py:48-49
        screen.go(Location(index_of(screen, "KS-OBJ-station-db"), 1), on_quote=True)
        await settle(pilot, screen)
        info = " ".join(shown_text(screen.query_one(QuoteInfo)).split())  # lines wrapped
        assert "api/kestrel/notes.py:48-49" in info and "enter: open it" in info  # not cut
        screen.record_pane.focus()
        await pilot.press("enter")
        await settle(pilot, screen)
        view = screen.query_one(SourceView)
        assert view.path == "api/kestrel/notes.py"
        assert view.cursor_line == 48 and view.marks.matched == (48, 49)
        assert screen.focused is view
        assert "found here, cited api/kestrel/tickets.py" in str(view.border_title)
        await pilot.press("d")
        await settle(pilot, screen)
        diff = str(screen.query_one(QuoteDiff).render())
        assert "api/kestrel/notes.py:48-49" in diff
        assert "the quote matches the source" in diff
        assert "not found" not in diff
        # d at once from the cited file compares with the place too
        await pilot.press("d")
        screen.go(Location(index_of(screen, "KS-OBJ-station-db"), 1), on_quote=True)
        await settle(pilot, screen)
        assert view.path == "api/kestrel/tickets.py"
        await pilot.press("d")
        await settle(pilot, screen)
        assert view.path == "api/kestrel/notes.py"
        assert "the quote matches the source" in str(screen.query_one(QuoteDiff).render())
    app.close()


async def test_a_missing_quote_keeps_its_hints_on_a_small_terminal(
    tmp_path: Path, sample: Path
) -> None:
    """At 80x24 the line under the source has three lines at most: a quote missing from its
    cited file (whose path the source's title already shows) still says where it was found and
    which keys act on it, rather than losing its last words."""
    app = make_demo_app(tmp_path, reviewer="w", keymap=load_keymap(user=False))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = review_screen(app)
        await settle(pilot, screen)
        # KS-RTE-token-check [1] cites api/kestrel/permissions.py, which does not exist; the
        # text is in api/kestrel/auth.py
        screen.go(Location(index_of(screen, "KS-RTE-token-check"), 0), on_quote=True)
        await settle(pilot, screen)
        widget = screen.query_one(QuoteInfo)
        assert widget.size.height <= 3
        info = " ".join(shown_text(widget).split())
        assert "missing" in info and "found in api/kestrel/auth.py:" in info
        assert "enter: open it" in info and info.endswith("d: diff")
    app.close()


async def test_d_on_a_normalized_match_says_what_was_normalized(
    tmp_path: Path, sample: Path
) -> None:
    app = make_demo_app(tmp_path, reviewer="n", keymap=load_keymap(user=False))
    async with app.run_test(size=SIZE) as pilot:
        screen = review_screen(app)
        await settle(pilot, screen)
        # KS-CMP-sync-worker [1]: the report's bullets are the source's " * " comment markers
        screen.go(Location(index_of(screen, "KS-CMP-sync-worker"), 0), on_quote=True)
        await settle(pilot, screen)
        await pilot.press("d")
        await settle(pilot, screen)
        diff = str(screen.query_one(QuoteDiff).render())
        assert "normalized" in diff
        assert "list markers or bullets: “*” in the source, “•” in the quote" in diff
    app.close()


def test_normalized_away_names_each_kind_of_formatting() -> None:
    assert normalized_away("call foo() now", "call `foo()` **now**") == (
        "backticks: 2 in the source, none in the quote",
        "asterisks: 4 in the source, none in the quote",
    )
    assert normalized_away("he said “no”", 'he said "no"') == (
        "typographic quotes: none in the source, 2 in the quote",
    )
    assert normalized_away("same text", "same text") == ()


async def test_replayed_search_hits_are_rows_the_cursor_reaches(
    tmp_path: Path, sample: Path
) -> None:
    app = make_demo_app(tmp_path, reviewer="h", keymap=load_keymap(user=False))
    async with app.run_test(size=SIZE) as pilot:
        screen = review_screen(app)
        await settle(pilot, screen)
        screen.go(Location(index_of(screen, "KS-ABS-station-list"), 0), on_quote=True)
        await settle(pilot, screen)
        pane = screen.record_pane
        await pilot.press("tab")
        assert screen.focused is pane
        for _ in range(20):  # from the quote onto the first hit, by key (lines scroll on the way)
            await pilot.press("j")
            await settle(pilot, screen)
            if pane.highlighted_id != "quote-0":
                break
        assert pane.highlighted_id == "hit-0-0"
        view = screen.query_one(SourceView)
        # the source pane shows the hit at its line (it said the quote's file before)
        assert (view.path, view.cursor_line) == ("api/server.py", 11)
        assert screen.focused is pane
        for _ in range(20):
            await pilot.press("j")
            await settle(pilot, screen)
            if pane.highlighted_id != "hit-0-0":
                break
        assert pane.highlighted_id == "hit-0-1"
        assert view.cursor_line == 37
        await pilot.press("enter")  # opens it: the source pane takes the keys
        await settle(pilot, screen)
        assert focused(screen) is view and view.cursor_line == 37
        # back on the quote, the source shows the quote again
        await pilot.press("shift+tab", "k", "k")
        await settle(pilot, screen)
        assert pane.highlighted_id == "quote-0"
        assert view.marks.matched == (30, 31) and screen.state.opened is None
    app.close()


async def test_a_record_without_quotes_leads_to_its_search_hits(
    tmp_path: Path, sample: Path, keymap: Keymap, sample_reports: ReportSet, cited: str
) -> None:
    # the record of the sample that runs a search, its quote taken away: the hits are all it has
    report = sample_reports.reports[0]
    records = tuple(
        record._replace(quotes=()) if record.id == "KS-ABS-station-list" else record
        for record in report.records
    )
    reportset = sample_reports._replace(
        reports=(report._replace(records=records), *sample_reports.reports[1:])
    )
    app = make_app(reportset, sample, cited, tmp_path / "s.db", "s", keymap)
    async with app.run_test(size=SIZE) as pilot:
        screen = review_screen(app)
        await settle(pilot, screen)
        screen.go(Location(index_of(screen, "KS-ABS-station-list"), None))
        await settle(pilot, screen)
        view = screen.query_one(SourceView)
        assert view.message is not None and "searches found 5 hits" in view.message
        await pilot.press("tab", "j")
        await settle(pilot, screen)
        assert screen.record_pane.highlighted_id == "hit-0-0"
        assert (view.path, view.cursor_line) == ("api/server.py", 11)
        await pilot.press("enter")
        await settle(pilot, screen)
        assert screen.focused is view
    app.close()


async def test_filters_say_what_they_show_and_why_a_record_is_listed(
    tmp_path: Path, sample: Path
) -> None:
    app = make_demo_app(tmp_path, reviewer="f", keymap=load_keymap(user=False))
    notices = watch_notices(app)
    async with app.run_test(size=SIZE) as pilot:
        screen = review_screen(app)
        await settle(pilot, screen)
        records = screen.records_pane
        # nothing is refuted yet: the refuted filter lists nothing and empties the panes
        await pilot.press("f", "f")
        await settle(pilot, screen)
        assert screen.filter == "refuted"
        assert records.row_count == 1
        assert 'no "refuted" records' in shown_text(records)
        assert screen.record_pane.row_count == 0
        view = screen.query_one(SourceView)
        assert view.message == 'no records match "refuted"'
        await pilot.press("c")  # no verdict on a record that is not shown
        await settle(pilot, screen)
        assert screen.session.current == {}
        assert notices[-1].message.startswith('no records match "refuted"')
        # the filter notices read as English
        await pilot.press("f")
        await settle(pilot, screen)
        assert notices[-1].message == "showing records with failing quotes"
        await pilot.press("f")
        await settle(pilot, screen)
        assert notices[-1].message == "showing all records"
        # a record listed under "refuted" for one quote says which
        screen.go(Location(index_of(screen, "KS-RTE-token-check"), 1), on_quote=True)
        await settle(pilot, screen)
        screen.query_one(SourceView).focus()
        await pilot.press("r")
        await settle(pilot, screen)
        await pilot.press("f", "f")
        await settle(pilot, screen)
        assert screen.filter == "refuted"
        assert screen.record is not None and screen.record.id == "KS-RTE-token-check"
        listed = shown_text(records)
        assert "refuted [2]" in listed
        assert screen.record_pane.row_count > 0
    app.close()


async def test_a_wrong_claimed_range_is_marked_in_the_records_list(
    tmp_path: Path, sample: Path
) -> None:
    app = make_demo_app(tmp_path, reviewer="m", keymap=load_keymap(user=False))
    async with app.run_test(size=SIZE) as pilot:
        screen = review_screen(app)
        await settle(pilot, screen)
        moved = [
            record
            for record in screen.session.records
            if any(
                (anchor := screen.session.anchor(quote)) is not None
                and anchor.verified
                and anchor.range_ok is False
                for quote in record.quotes
            )
        ]
        assert moved
        for record in moved:
            row = str(screen.records_pane.prompt(screen.session.index_of(record)))
            assert "!1" in row, row
    app.close()


async def test_grep_down_from_the_pattern_goes_to_the_results(tmp_path: Path) -> None:
    from screenkit import DialogApp, git

    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    (root / "a.py").write_text("check_auth()\nx = 1\ncheck_auth(2)\n")
    git(root, "add", ".")
    git(root, "-c", "user.name=T", "-c", "user.email=t@example.org", "commit", "-q", "-m", "1")
    with Revision.open(root) as revision:
        app = DialogApp(GrepScreen(revision, pattern="check_auth"))
        async with app.run_test() as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            grep = app.dialog
            assert isinstance(app.focused, Input)
            await pilot.press("down")
            assert focused(app) is grep.query_one("#grep-results", OptionList)
            await pilot.press("down", "enter")
            await pilot.pause()
        (hit,) = app.results
        assert isinstance(hit, GrepHit) and (hit.path, hit.line) == ("a.py", 3)


def test_match_notice_counts_and_says_when_it_wraps() -> None:
    lines = ["a", "needle 1", "b", "needle 2", "needle 3"]
    assert match_notice(lines, "NEEDLE", line=4, after=2) == "match 2 of 3"
    assert match_notice(lines, "needle", line=2, after=5) == "match 1 of 3 (wrapped to the top)"
    assert match_notice(["x", "needle"], "needle", line=2, after=2) == "match 1 of 1 (the only one)"


async def test_find_in_file_says_which_match_and_when_it_wraps(
    tmp_path: Path, sample: Path
) -> None:
    app = make_demo_app(tmp_path, reviewer="i", keymap=load_keymap(user=False))
    notices = watch_notices(app)
    async with app.run_test(size=SIZE) as pilot:
        screen = review_screen(app)
        await settle(pilot, screen)
        screen.go(Location(index_of(screen, "KS-ABS-station-list"), 0), on_quote=True)
        await settle(pilot, screen)
        view = screen.query_one(SourceView)
        assert screen.source is not None
        lines = screen.source.lines
        matching = [n for n, text in enumerate(lines, 1) if "require_token" in text]
        assert len(matching) > 2
        after = [n for n in matching if n > view.cursor_line]
        seen = []
        for _ in range(len(after) + 1):
            await pilot.press("ctrl+f")
            await pilot.pause()
            assert isinstance(app.screen, FindInFile)
            field = app.screen.query_one(Input)
            field.value = "require_token"
            await pilot.press("enter")
            await settle(pilot, screen)
            seen.append((view.cursor_line, notices[-1].message))
        total = len(matching)
        expected = [(n, f"match {matching.index(n) + 1} of {total}") for n in after]
        expected.append((matching[0], f"match 1 of {total} (wrapped to the top)"))
        assert seen == expected
    app.close()
