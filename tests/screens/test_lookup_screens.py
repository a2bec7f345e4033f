"""Pilot tests of the lookup dialogs on a small app of their own: finder, go to line, grep."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from screenkit import DialogApp, git
from textual.widgets import Label, OptionList

from evidence.revision import GrepHit, Revision
from screens.finder import FileFinder
from screens.goto import FindInFile, GotoLine, find_in_lines, parse_line, parse_range
from screens.grep import GrepScreen, hit_content, parse_paths

PATHS = [
    "README.md",
    "src/server/routes/auth_routes.js",
    "src/server/auth.js",
    "src/client/app.ts",
    "docs/guide.md",
]


async def settle(pilot: Any) -> None:
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.email", "t@example.org")
    git(root, "config", "user.name", "T")
    (root / "src").mkdir()
    (root / "src" / "auth.py").write_text(
        "def check_auth(user):\n    return user.ok\n\n\ndef login(user):\n    check_auth(user)\n"
    )
    (root / "src" / "Notes.txt").write_text("CHECK_AUTH in capitals\nnothing else\n")
    (root / "README.md").write_text("# demo\ncheck_auth is documented\n")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "one")
    return root


# --- finder ------------------------------------------------------------------------------------


async def test_finder_opens_a_file_by_fuzzy_name() -> None:
    app = DialogApp(FileFinder(PATHS))
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press(*"authrts")
        await settle(pilot)
        finder = app.dialog
        assert isinstance(finder, FileFinder)
        assert finder.searched == "authrts"
        assert finder.matches[0].path == "src/server/routes/auth_routes.js"
        await pilot.press("enter")
        await pilot.pause()
    assert app.results == ["src/server/routes/auth_routes.js"]


async def test_finder_arrow_keys_pick_another_row() -> None:
    app = DialogApp(FileFinder(PATHS))
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press(*"auth")
        await settle(pilot)
        finder = app.dialog
        assert isinstance(finder, FileFinder)
        expected = finder.matches[1].path
        await pilot.press("down", "enter")
        await pilot.pause()
    assert app.results == [expected]


async def test_finder_escape_and_no_match() -> None:
    app = DialogApp(FileFinder(PATHS))
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press(*"qqq")
        await settle(pilot)
        status = app.dialog.query_one("#finder-status", Label)
        assert "no file matches" in str(status.content)
        await pilot.press("enter")  # nothing to open: stays
        await pilot.pause()
        assert app.screen is app.dialog
        await pilot.press("escape")
        await pilot.pause()
    assert app.results == [None]


# --- go to line / find in file -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [("42", 42), (":7", 7), ("+3", 13), ("-4", 6), ("$", 100), ("0", None), ("101", None)],
)
def test_parse_line(text: str, expected: int | None) -> None:
    assert parse_line(text, current=10, max_line=100) == expected
    assert parse_line("x", current=10, max_line=100) is None
    assert parse_line("", current=10, max_line=100) is None


async def test_goto_line_validates_then_dismisses() -> None:
    app = DialogApp(GotoLine(100, current=5))
    async with app.run_test() as pilot:
        await pilot.press("5", "0", "0", "enter")
        await pilot.pause()
        assert app.screen is app.dialog  # out of range: still asking
        assert app.dialog.query_one("#goto-status", Label).has_class("-error")
        await pilot.press("backspace", "backspace", "backspace", "4", "2", "enter")
        await pilot.pause()
    assert app.results == [42]


async def test_goto_line_escape() -> None:
    app = DialogApp(GotoLine(10))
    async with app.run_test() as pilot:
        await pilot.press("escape")
        await pilot.pause()
    assert app.results == [None]


def test_find_in_lines_wraps_and_ignores_case() -> None:
    lines = ["alpha", "Beta", "gamma", "beta again"]
    assert find_in_lines(lines, "beta", after=1) == 2
    assert find_in_lines(lines, "beta", after=2) == 4
    assert find_in_lines(lines, "beta", after=4) == 2  # wraps
    assert find_in_lines(lines, "beta", after=2, backwards=True) == 4
    assert find_in_lines(lines, "delta", after=1) is None
    assert find_in_lines(lines, "", after=1) is None


async def test_find_in_file_dialog() -> None:
    app = DialogApp(FindInFile(["a", "b", "needle", "c"], current=1))
    async with app.run_test() as pilot:
        await pilot.press(*"missing", "enter")
        await pilot.pause()
        assert app.screen is app.dialog
        for _ in "missing":
            await pilot.press("backspace")
        await pilot.press(*"NEED", "enter")
        await pilot.pause()
    assert app.results == [3]


# --- grep --------------------------------------------------------------------------------------


def test_parse_paths() -> None:
    assert parse_paths(" src, docs/a.md  lib ") == ("src", "docs/a.md", "lib")
    assert parse_paths("") == ()
    # a name with spaces, quoted as in a shell; a backslash is a Windows separator, kept
    assert parse_paths("\"docs/User Guide\" 'a b.md',src\\app.py") == (
        "docs/User Guide",
        "a b.md",
        "src\\app.py",
    )
    assert parse_paths('"unclosed name') == ('"unclosed', "name")  # read as typed


def test_hit_content_highlights_spans_as_data() -> None:
    hit = GrepHit("a[b].py", 3, "x = [bold]check\x1b[0m(y)", ((10, 15),))
    content = hit_content(hit)
    assert content.plain == "a[b].py:3:x = [bold]check␛[0m(y)"
    styled = [content.plain[s.start : s.end] for s in content.spans if "reverse" in str(s.style)]
    assert styled == ["check"]


async def test_grep_lists_hits_and_enter_opens_one(repo: Path) -> None:
    with Revision.open(repo) as revision:
        app = DialogApp(GrepScreen(revision, pattern="check_auth"))
        async with app.run_test() as pilot:
            await settle(pilot)
            grep = app.dialog
            assert isinstance(grep, GrepScreen)
            assert not grep.running
            assert [(hit.path, hit.line) for hit in grep.hits] == [
                ("README.md", 2),
                ("src/auth.py", 1),
                ("src/auth.py", 6),
            ]
            status = str(grep.query_one("#grep-status", Label).content)
            assert status.startswith("3 hits in 2 files")
            assert grep.query_one("#grep-results", OptionList).option_count == 3
            await pilot.press("f4", "down", "enter")
            await pilot.pause()
        assert len(app.results) == 1
        chosen = app.results[0]
        assert isinstance(chosen, GrepHit)
        assert (chosen.path, chosen.line) == ("src/auth.py", 1)


async def test_grep_case_toggle_fixed_toggle_and_path_filter(repo: Path) -> None:
    with Revision.open(repo) as revision:
        app = DialogApp(GrepScreen(revision, pattern="check_auth"))
        async with app.run_test() as pilot:
            await settle(pilot)
            grep = app.dialog
            assert isinstance(grep, GrepScreen)
            assert grep.count == 3
            await pilot.press("f3")  # ignore case: the capitals in Notes.txt match too
            await settle(pilot)
            assert grep.count == 4 and "src/Notes.txt" in grep.files
            await pilot.click("#grep-paths")
            await pilot.press(*"src", "enter")
            await settle(pilot)
            assert grep.files == {"src/auth.py", "src/Notes.txt"}
            # a regex, then the same text as a fixed string
            await pilot.click("#grep-pattern")
            await pilot.press("end", "ctrl+u", *"check_.uth\\(", "enter")
            await settle(pilot)
            assert grep.error is None and grep.count == 2  # "\(" is a literal parenthesis
            await pilot.press("end", "ctrl+u", *"auth(", "enter")
            await settle(pilot)
            assert grep.error is not None  # unbalanced parenthesis as a regex
            await pilot.press("f2")  # fixed string
            await settle(pilot)
            assert grep.error is None
            assert [(hit.path, hit.line) for hit in grep.hits] == [
                ("src/auth.py", 1),
                ("src/auth.py", 6),
            ]


async def test_grep_escape_stops_a_running_search_then_closes(repo: Path) -> None:
    with Revision.open(repo) as revision:
        app = DialogApp(GrepScreen(revision))
        async with app.run_test() as pilot:
            grep = app.dialog
            assert isinstance(grep, GrepScreen)
            await pilot.press(*"check")
            # start and stop within one turn of the event loop: the worker's results must not land
            grep.search()
            assert grep.running
            grep.action_cancel_or_close()
            await settle(pilot)
            assert not grep.running
            assert grep.hits == []
            assert str(grep.query_one("#grep-status", Label).content).startswith("stopped")
            await pilot.press("escape")
            await pilot.pause()
        assert app.results == [None]


async def test_grep_empty_pattern_says_so(repo: Path) -> None:
    with Revision.open(repo) as revision:
        app = DialogApp(GrepScreen(revision))
        async with app.run_test() as pilot:
            await pilot.press("enter")
            await settle(pilot)
            status = str(app.dialog.query_one("#grep-status", Label).content)
            assert "type a pattern" in status


def test_indexes_are_reused_for_the_same_path_list() -> None:
    from screens.finder import indexed

    first = indexed(list(PATHS))
    assert indexed(list(PATHS)) is first
    assert indexed([*PATHS, "new.py"]) is not first


def test_parse_range() -> None:
    assert parse_range("231-236", max_line=300) == (231, 236)
    assert parse_range(":5-5", max_line=10) == (5, 5)
    assert parse_range("6-5", max_line=10) is None
    assert parse_range("5-11", max_line=10) is None
    assert parse_range("5", max_line=10) is None
    assert parse_range("-5", max_line=10) is None


async def test_goto_line_range_sets_selected() -> None:
    dialog = GotoLine(100)
    app = DialogApp(dialog)
    async with app.run_test() as pilot:
        await pilot.press(*"20-24", "enter")
        await pilot.pause()
    assert app.results == [20]
    assert dialog.selected == (20, 24)


async def test_finder_with_no_query_says_it_lists_only_the_first_files() -> None:
    many = [f"src/module_{n:03}.py" for n in range(45)]
    app = DialogApp(FileFinder(many))
    async with app.run_test() as pilot:
        await settle(pilot)
        status = str(app.dialog.query_one("#finder-status", Label).content)
        shown = len(app.dialog.query_one("#finder-results", OptionList).options)
        assert shown < 45 and status == f"first {shown} of 45 files: type to find any"
        await pilot.press("escape")
        await pilot.pause()
