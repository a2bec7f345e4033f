"""The review app on quotes of files the tree holds another way: a symlink (the pane shows the
file it points at, not "is a symbolic link"), a symlinked directory, and a submodule the clone
has not (the pane says so; the cited path is `?`, not absent)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from test_review_drift import opened

from evidence.citations import CitedState
from evidence.reports.loading import load_reports
from keymaps import load_keymap
from screens.review.history import Location
from tui.app import AssayApp
from tui.factory import make_app

REPORT = """\
Paths runtime report

Type: agentic-system-analyses/types/agentic-system-runtime-report.md

Runtime account

Evidence

Evidence is SRC-1 at revision {rev}.

Shared records

Components

PT-CMP-paths

Label: Paths

The handler, through its alias (SRC-1, vendor/zlib/inflate.c):

    return allow(token);

--- src/alias.js:3

Through the linked directory:

    return allow(token);

--- site/server.js:3

The vendored inflater:

    int inflate(void);

--- vendor/zlib/inflate.c:1
"""


def git(repo: Path, *args: str) -> str:
    config = ("-c", "user.name=t", "-c", "user.email=t@t", "-c", "protocol.file.allow=always")
    done = subprocess.run(["git", *config, *args], cwd=repo, check=True, capture_output=True)
    return done.stdout.decode().strip()


def make_repo(repo: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text, encoding="utf-8")
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "first")


def _review(tmp_path: Path, repo: Path, rev: str, report_text: str) -> AssayApp:
    """The review app on a report of ``report_text`` against ``repo`` at ``rev``."""
    report = tmp_path / "paths-runtime-report.txt"
    report.write_text(report_text.format(rev=rev), encoding="utf-8")
    reports = load_reports([report])
    return make_app(reports, repo, rev, tmp_path / "v.db", "r", load_keymap(user=False))


async def test_links_are_followed_and_a_missing_submodule_is_said(tmp_path: Path) -> None:
    sub = tmp_path / "zlib"
    make_repo(sub, {"inflate.c": "int inflate(void);\n"})
    repo = tmp_path / "repo"
    make_repo(
        repo,
        {"src/server.js": "function serve(token) {\n  check(token);\n  return allow(token);\n}\n"},
    )
    git(repo, "submodule", "add", "-q", str(sub), "vendor/zlib")
    (repo / "src" / "alias.js").symlink_to("server.js")
    (repo / "site").symlink_to("src")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "links")
    rev = git(repo, "rev-parse", "HEAD")
    shutil.rmtree(repo / ".git" / "modules")  # cloned without --recurse-submodules
    app = _review(tmp_path, repo, rev, REPORT)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, app, "PT-CMP-paths")
        record = next(n for n, r in enumerate(screen.session.records) if r.id == "PT-CMP-paths")
        view = screen.source_view
        for quote, note in (
            (0, "src/alias.js is a symlink to server.js"),
            (1, "site is a symlink to src"),
        ):
            screen.go(Location(record, quote), on_quote=True)
            await screen.settle()
            await pilot.pause()
            assert view.message is None and view.lines[2] == "  return allow(token);"
            assert "src/server.js" in str(view.border_title)
            assert note in str(screen.quote_info.render())
        screen.go(Location(record, 2), on_quote=True)
        await screen.settle()
        await pilot.pause()
        assert view.message is not None and "inside the submodule vendor/zlib" in view.message
        (cited,) = screen.session.cited(screen.session.records[record]) or ()
        assert cited.path == "vendor/zlib/inflate.c" and cited.state is CitedState.UNCHECKED


CHECKOUT = (
    REPORT.split("The handler")[0]
    + """The handler, as the writer's checkout had it:

    return allow(token);

--- /home/alice/work/repo/src/server.js:3

And on a Windows machine:

    check(token);

--- C:\\\\Users\\\\bob\\\\repo\\\\src\\\\server.js:2
"""
)


async def test_a_quote_of_a_checkout_path_shows_the_trees_file(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    make_repo(
        repo,
        {"src/server.js": "function serve(token) {\n  check(token);\n  return allow(token);\n}\n"},
    )
    rev = git(repo, "rev-parse", "HEAD")
    app = _review(tmp_path, repo, rev, CHECKOUT)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, app, "PT-CMP-paths")
        record = next(n for n, r in enumerate(screen.session.records) if r.id == "PT-CMP-paths")
        view = screen.source_view
        for quote, line in ((0, 3), (1, 2)):
            screen.go(Location(record, quote), on_quote=True)
            await screen.settle()
            await pilot.pause()
            assert view.message is None and "src/server.js" in str(view.border_title)
            assert view.cursor_line == line
            said = " ".join(str(screen.quote_info.render()).split())
            assert "path read as src/server.js" in said and "✓" in said
