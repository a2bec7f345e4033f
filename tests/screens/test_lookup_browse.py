"""Pilot tests of `assay browse`: finder, grep and open a hit, go to line, permalink, backlinks."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from screenkit import watch_notices
from textual.app import App

from evidence.backlinks import Backlink
from evidence.model import Anchor, FileState, Quote, Tier
from evidence.revision import Revision
from keymaps import load_keymap
from screens.backlinks import BacklinksScreen
from screens.browse import BrowseScreen
from screens.finder import FileFinder
from screens.grep import GrepScreen
from screens.help import HelpScreen
from screens.widgets.footer import KeysBar
from screens.widgets.source_view import SourceView
from tui.factory import make_browse_app


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


def make_repo(root: Path, remote: str | None) -> str:
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.email", "t@example.org")
    git(root, "config", "user.name", "T")
    if remote:
        git(root, "remote", "add", "origin", remote)
    (root / "src" / "server").mkdir(parents=True)
    body = "".join(f"line {n}\n" for n in range(1, 41))
    (root / "src" / "server" / "routes.py").write_text(body + "def handle_login():\n    pass\n")
    (root / "src" / "util.py").write_text("def helper():\n    return 1\n")
    (root / "README.md").write_text("# demo\n")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "one")
    commit = git(root, "rev-parse", "HEAD")
    # the work tree moves on: browse must keep showing the commit
    (root / "src" / "util.py").write_text("WORK TREE ONLY\n")
    return commit


@pytest.fixture
def github_repo(tmp_path: Path) -> tuple[Path, str]:
    root = tmp_path / "widget"
    return root, make_repo(root, "git@github.com:acme/widget.git")


async def settle(pilot: Any) -> None:
    for _ in range(3):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()


async def test_browse_find_open_goto_and_permalink(github_repo: tuple[Path, str]) -> None:
    repo, commit = github_repo
    with Revision.open(repo) as revision:
        app = make_browse_app(revision)
        notices = watch_notices(app)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, BrowseScreen)
            # in the order the screen declares (spaced out, or compact when they do not fit)
            keys = " ".join(str(screen.query_one(KeysBar).render()).split())
            assert keys.startswith(
                "o Open file G Grep revision : Go to line / Find file ctrl+f Find in file"
            )
            await pilot.press("o")
            await settle(pilot)
            assert isinstance(app.screen, FileFinder)
            await pilot.press(*"utl", "enter")
            await settle(pilot)
            view = screen.query_one(SourceView)
            assert view.path == "src/util.py"
            assert screen.source is not None
            assert screen.source.lines == ["def helper():", "    return 1"]  # not the work tree
            await pilot.press("colon", "2", "enter")
            await pilot.pause()
            assert view.cursor_line == 2
            await pilot.press("y")
            await pilot.pause()
            expected = f"https://github.com/acme/widget/blob/{commit}/src/util.py#L2"
            assert app.clipboard == expected
            assert any(expected in str(n.message) for n in notices)


async def test_browse_help_lists_its_own_keys_first_as_the_keymap_binds_them(
    github_repo: tuple[Path, str], tmp_path: Path
) -> None:
    repo, _commit = github_repo
    user_file = tmp_path / "keymap.toml"
    user_file.write_text('permalink = "Y"\n', encoding="utf-8")
    with Revision.open(repo) as revision:
        app = make_browse_app(revision, keymap=load_keymap(user_file=user_file))
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, BrowseScreen)
            assert "? Help" in str(screen.query_one(KeysBar).render())
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            text = str(app.screen.query_one("#help-text").render())
            here, _, rest = text.partition("Every key, on every screen")
            assert here.startswith("Browsing a revision") and rest, text[:400]
            for key, doing in (("/", "Find file"), ("Y", "Copy permalink"), ("?", "Help")):
                assert any(
                    line.split()[:1] == [key] and doing in line for line in here.splitlines()
                ), (key, here)
            assert "Next record" not in here and "Next record" in rest  # the review's, after
            await pilot.press("escape")
            await pilot.pause()
            assert screen.is_current


async def test_browse_grep_and_open_a_hit(github_repo: tuple[Path, str]) -> None:
    repo, commit = github_repo
    with Revision.open(repo) as revision:
        app = make_browse_app(revision)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            screen = app.screen
            await pilot.press("G")
            await pilot.pause()
            assert isinstance(app.screen, GrepScreen)
            await pilot.press(*"handle_login", "enter")
            await settle(pilot)
            assert [(h.path, h.line) for h in app.screen.hits] == [("src/server/routes.py", 41)]
            await pilot.press("f4", "enter")
            await settle(pilot)
            assert app.screen is screen
            view = screen.query_one(SourceView)
            assert view.path == "src/server/routes.py" and view.cursor_line == 41
            # "g" is the other go-to-line key; then the permalink cites the cursor line
            await pilot.press("g", "1", "0", "enter")
            await pilot.pause()
            assert view.cursor_line == 10
            await pilot.press("y")
            await pilot.pause()
            assert app.clipboard.endswith(f"/blob/{commit}/src/server/routes.py#L10")
            # a range typed in go-to-line selects those lines for the permalink
            await pilot.press("colon", *"12-15", "enter")
            await pilot.pause()
            assert view.cursor_line == 12 and view.marks.matched == (12, 15)
            await pilot.press("y")
            await pilot.pause()
            assert app.clipboard.endswith(f"/blob/{commit}/src/server/routes.py#L12-L15")


async def test_browse_find_in_file(github_repo: tuple[Path, str]) -> None:
    repo, _ = github_repo
    with Revision.open(repo) as revision:
        app = make_browse_app(revision, path="src/server/routes.py")
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            view = app.screen.query_one(SourceView)
            await pilot.press("ctrl+f", *"LOGIN", "enter")  # find in file: ctrl+f, as in review
            await pilot.pause()
            assert view.cursor_line == 41


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_browse_next_and_previous_match(
    github_repo: tuple[Path, str], size: tuple[int, int]
) -> None:
    repo, _ = github_repo
    with Revision.open(repo) as revision:
        app = make_browse_app(revision, path="src/server/routes.py")
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            view = app.screen.query_one(SourceView)
            notices = watch_notices(app)
            await pilot.press("ctrl+f", *"line 1", "enter")  # lines 1, 10-19
            await pilot.pause()
            assert view.cursor_line == 10
            await pilot.press("f3", "f3")
            await pilot.pause()
            assert view.cursor_line == 12 and notices[-1].message == "match 4 of 11"
            await pilot.press("shift+f3", "shift+f3", "shift+f3", "shift+f3")
            await pilot.pause()
            assert view.cursor_line == 19  # before the first: the last, wrapped
            assert notices[-1].message == "match 11 of 11 (wrapped to the bottom)"
            assert "f3" not in str(app.screen.query_one(KeysBar).render())  # not in the footer


async def test_slash_means_find_by_name_in_browse_too(github_repo: tuple[Path, str]) -> None:
    repo, _ = github_repo
    with Revision.open(repo) as revision:
        app = make_browse_app(revision, path="src/server/routes.py")
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            await pilot.press("slash")
            await pilot.pause()
            assert isinstance(app.screen, FileFinder)


async def test_browse_without_remote_copies_a_local_reference(tmp_path: Path) -> None:
    repo = tmp_path / "plain"
    commit = make_repo(repo, None)
    with Revision.open(repo) as revision:
        app = make_browse_app(revision, path="src/server/routes.py", line=5)
        notices = watch_notices(app)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            await pilot.press("y")
            await pilot.pause()
            assert app.clipboard == f"src/server/routes.py:5@{commit}"
            assert any("no remote" in str(n.message) for n in notices)


@pytest.mark.parametrize("remote", ["git@github.com:acme/widget.git", None])
async def test_browse_permalink_of_a_name_that_is_not_utf8(
    tmp_path: Path, remote: str | None
) -> None:
    # a name git holds as bytes that are not UTF-8 (Latin-1 "é"): `y` crashed the app
    repo = tmp_path / "latin"
    commit = make_repo(repo, remote)
    name = b"src/caf\xe9.txt"
    (repo / os.fsdecode(name)).write_bytes(b"one\ntwo\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "latin-1 name")
    commit = git(repo, "rev-parse", "HEAD")
    with Revision.open(repo) as revision:
        app = make_browse_app(revision, path=os.fsdecode(name), line=2)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            await pilot.press("y")
            await pilot.pause()
            if remote:
                expected = f"https://github.com/acme/widget/blob/{commit}/src/caf%E9.txt#L2"
            else:
                expected = f"src/caf\\udce9.txt:2@{commit}"
            assert app.clipboard == expected


async def test_the_finder_opens_a_name_with_a_backslash_or_an_end_space(tmp_path: Path) -> None:
    # listed by the finder, then "does not exist": the path was normalized as a cited one
    repo = tmp_path / "names"
    make_repo(repo, None)
    (repo / "a\\b.txt").write_text("back\n")
    (repo / "end space.txt ").write_text("space\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "names")
    with Revision.open(repo) as revision:
        app = make_browse_app(revision)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            view = app.screen.query_one(SourceView)
            for typed, name, text in (
                ("a\\b", "a\\b.txt", "back"),
                ("endspace", "end space.txt ", "space"),
            ):
                await pilot.press("o")
                await settle(pilot)
                await pilot.press(*typed, "enter")
                await settle(pilot)
                assert (view.path, view.message) == (name, None)
                screen = app.screen
                assert isinstance(screen, BrowseScreen)
                assert screen.source is not None and screen.source.lines == [text]


async def test_browse_missing_file_and_bad_actions(github_repo: tuple[Path, str]) -> None:
    repo, _ = github_repo
    with Revision.open(repo) as revision:
        app = make_browse_app(revision, path="no/such/file.py")
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            view = app.screen.query_one(SourceView)
            assert view.message is not None and "does not exist" in view.message
    with Revision.open(repo) as revision:  # `assay browse src`: a folder, not a missing file
        app = make_browse_app(revision, path="src/server/")
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            view = app.screen.query_one(SourceView)
            assert view.message == "src/server is a directory at this revision, not a file"
            await pilot.press("colon")  # no lines: no dialog
            await pilot.pause()
            assert isinstance(app.screen, BrowseScreen)


class BacklinkApp(App[None]):
    def __init__(self, screen: BrowseScreen) -> None:
        super().__init__()
        self.browse = screen

    def on_mount(self) -> None:
        self.push_screen(self.browse)


async def test_backlinks_marked_in_gutter_and_jump(github_repo: tuple[Path, str]) -> None:
    repo, _ = github_repo
    quote = Quote("def handle_login():", "src/server/routes.py", None, 3, 4, "RT-login", 0)
    other = Quote("line 3", "src/server/routes.py", None, 8, 9, "RT-lines", 0)
    anchors = {
        quote: Anchor(quote, FileState.OK, Tier.EXACT, 100.0, (41, 42)),
        other: Anchor(other, FileState.OK, Tier.EXACT, 100.0, (3, 3)),
    }
    with Revision.open(repo) as revision:
        browse = BrowseScreen(revision, path="src/server/routes.py", anchors=anchors)
        app = BacklinkApp(browse)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            view = browse.query_one(SourceView)
            assert view.marks.backlinks == frozenset({3, 41, 42})
            await pilot.press("b")
            await pilot.pause()
            dialog = app.screen
            assert isinstance(dialog, BacklinksScreen)
            assert [link.record for link in dialog.links] == ["RT-lines", "RT-login"]
            await pilot.press("down", "enter")
            await pilot.pause()
            assert app.screen is browse
            assert view.cursor_line == 41
            assert view.marks.matched == (41, 42)
            await pilot.press("y")
            await pilot.pause()
            assert app.clipboard.endswith("/src/server/routes.py#L41-L42")


class PickApp(App[None]):
    def __init__(self, dialog: BacklinksScreen) -> None:
        super().__init__()
        self.dialog = dialog
        self.results: list[Backlink | None] = []

    def on_mount(self) -> None:
        self.push_screen(self.dialog, self.results.append)


async def test_backlinks_dialog_dismisses_with_the_record() -> None:
    quote = Quote("x", "a.py", None, 1, 2, "RT-x", 0)
    link = Backlink("RT-x", "r.md", quote, (4, 5), Tier.FUZZY, True, "[b]label[/b]")
    app = PickApp(BacklinksScreen([link], path="a.py"))
    async with app.run_test() as pilot:
        await pilot.press("enter")
        await pilot.pause()
    assert app.results == [link]


async def test_backlinks_dialog_empty() -> None:
    app = PickApp(BacklinksScreen([], path="a.py"))
    async with app.run_test() as pilot:
        await pilot.press("escape")
        await pilot.pause()
    assert app.results == [None]


async def test_permalink_notification_keeps_markup_literal(tmp_path: Path) -> None:
    repo = tmp_path / "odd"
    commit = make_repo(repo, "git@gitlab.com:acme/odd.git")
    (repo / "docs").mkdir()
    (repo / "docs" / "[red]x[-].md").write_text("one\ntwo\n")
    git(repo, "add", "docs")
    git(repo, "commit", "-q", "-m", "odd name")
    commit = git(repo, "rev-parse", "HEAD")
    with Revision.open(repo) as revision:
        app = make_browse_app(revision, path="docs/[red]x[-].md", line=2)
        notices = watch_notices(app)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            await pilot.press("y")
            await pilot.pause()
            expected = f"https://gitlab.com/acme/odd/-/blob/{commit}/docs/%5Bred%5Dx%5B-%5D.md#L2"
            assert app.clipboard == expected
            (note,) = [n for n in notices if n.title == "Permalink copied"]
            assert note.message == expected and note.markup is False
