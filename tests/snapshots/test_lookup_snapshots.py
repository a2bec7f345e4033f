"""Snapshots of the lookup dialogs: the file finder while typing, grep results."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from snapshotkit import steady
from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input

from evidence.revision import Revision
from screens.finder import FileFinder
from screens.grep import GrepScreen

PATHS = [
    "README.md",
    "docs/authentication.md",
    "src/server/auth.js",
    "src/server/routes/auth_routes.js",
    "src/server/routes/billing.js",
    "src/client/authority.ts",
    "src/client/app.ts",
    "lib/oauth/token_store.py",
    "tests/server/test_auth.js",
    "config/[weird] name\x1b.txt",
]


class DialogApp(App[None]):
    def __init__(self, dialog: Screen[Any]) -> None:
        super().__init__()
        self.dialog = dialog

    def on_mount(self) -> None:
        self.push_screen(self.dialog)


async def settled(pilot: Pilot[Any]) -> None:
    for _ in range(2):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False
    await steady(pilot)


def git(repo: Path, *args: str) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_DATE": "2024-01-01T00:00:00Z",
        "GIT_COMMITTER_DATE": "2024-01-01T00:00:00Z",
    }
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


@pytest.fixture
def revision(tmp_path: Path) -> Any:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.email", "t@example.org")
    git(root, "config", "user.name", "T")
    (root / "src").mkdir()
    (root / "src" / "server.js").write_text(
        "const checkAuth = require('./auth');\n"
        "app.get('/admin', checkAuth, admin);\n"
        "app.post('/login', login); // no checkAuth here: [bold]not markup[/bold]\n"
    )
    (root / "src" / "auth.js").write_text(
        "module.exports = function checkAuth(req, res, next) {\n  next();\n};\n"
    )
    (root / "README.md").write_text("Routes call checkAuth before the handler.\n")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "one")
    with Revision.open(root) as opened:
        yield opened


class TestFinderSnapshots:
    def test_finder_while_typing(self, snap_compare: Any) -> None:
        app = DialogApp(FileFinder(PATHS))
        assert snap_compare(app, press=["a", "u", "t", "h"], run_before=settled)

    def test_finder_no_match(self, snap_compare: Any) -> None:
        app = DialogApp(FileFinder(PATHS))
        assert snap_compare(app, press=["z", "z", "q"], run_before=settled)


class TestGrepSnapshots:
    def test_grep_results(self, snap_compare: Any, revision: Revision) -> None:
        app = DialogApp(GrepScreen(revision, pattern="checkAuth"))
        assert snap_compare(app, terminal_size=(100, 24), run_before=settled)

    def test_grep_ignore_case_fixed(self, snap_compare: Any, revision: Revision) -> None:
        app = DialogApp(GrepScreen(revision, pattern="CHECKAUTH(", fixed=True, ignore_case=True))
        assert snap_compare(app, terminal_size=(100, 24), run_before=settled)
