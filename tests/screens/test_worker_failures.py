"""A worker that fails takes one route on every screen (screens/workers.py): one error notice
naming the work and the error, and the pane or dialog that waited on it says so; never a
traceback, and the app keeps running."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from screenkit import wait_until, watch_notices

from evidence.model import ReportSet
from evidence.revision import Revision
from evidence.sample import sample_repo
from keymaps import load_keymap
from screens.audit.screen import AuditScreen
from screens.browse import BrowseScreen
from screens.grep import GrepScreen
from screens.widgets.source_view import SourceView
from tui.audit_app import make_demo_audit_app
from tui.factory import make_app, make_browse_app


def bug(*args: object, **kwargs: object) -> Any:
    """Stands for a bug in assay's own code under a worker (git's errors are RevisionError)."""
    raise RuntimeError("a bug \x1b[31mhere")


async def error_said(pilot: Any, notices: list[Any]) -> None:
    """Wait until an error notice is shown, then a little more (it is said once)."""
    await wait_until(pilot, lambda: any(n.severity == "error" for n in notices), "an error said")
    await pilot.pause()


async def test_a_failed_read_in_browse_is_said_once_and_shown_in_the_pane(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    revision = Revision.open(sample_repo())
    monkeypatch.setattr(revision, "read", bug)
    app = make_browse_app(revision, path="README.md", keymap=load_keymap(user=False))
    notices = watch_notices(app)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await error_said(pilot, notices)
            assert isinstance(app.screen, BrowseScreen)
            said = "browse-read failed: RuntimeError: a bug ␛[31mhere"
            assert [(n.message, n.severity) for n in notices] == [(said, "error")]
            assert app.screen.query_one(SourceView).message == said
            assert app.return_code is None  # still running
    finally:
        app.close()


async def test_a_failed_search_is_said_once_and_in_the_dialog(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    revision = Revision.open(sample_repo())
    monkeypatch.setattr(revision, "grep", bug)
    app = make_browse_app(revision, keymap=load_keymap(user=False))
    notices = watch_notices(app)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            browse = app.screen
            assert isinstance(browse, BrowseScreen)
            await wait_until(pilot, lambda: browse.finder is not None, "the tree loaded")
            await pilot.press("G", *"kestrel", "enter")
            await error_said(pilot, notices)
            dialog = app.screen
            assert isinstance(dialog, GrepScreen)
            said = "grep failed: RuntimeError: a bug ␛[31mhere"
            assert [(n.message, n.severity) for n in notices] == [(said, "error")]
            assert dialog.error == said and not dialog.running
            await pilot.press("escape")  # closes: no search runs any more
            await pilot.pause()
            assert isinstance(app.screen, BrowseScreen)
    finally:
        app.close()


async def test_counts_that_cannot_be_read_are_said_on_the_audit_screen(tmp_path: Path) -> None:
    app = make_demo_audit_app(
        tmp_path, reviewer="w", keymap=load_keymap(user=False), anchor_cache=tmp_path / "a"
    )
    (tmp_path / "demo.db").write_bytes(b"not a database at all, but it is long enough" * 50)
    notices = watch_notices(app)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await error_said(pilot, notices)
            assert isinstance(app.screen, AuditScreen)
            errors = [n.message for n in notices if n.severity == "error"]
            assert len(errors) == 1, errors
            assert errors[0].startswith("audit-counts failed: StoreError: ")
            assert app.screen.counted  # read again after a system's review
    finally:
        app.close()


async def test_a_failed_anchoring_in_the_review_is_said_once_and_shown_in_the_pane(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, sample_reports: ReportSet, cited: str
) -> None:
    revision = Revision.open(sample_repo(), cited)
    monkeypatch.setattr(revision, "read", bug)
    keymap = load_keymap(user=False)
    app = make_app(
        sample_reports, sample_repo(), cited, tmp_path / "v.db", "w", keymap, revision=revision
    )
    notices = watch_notices(app)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await error_said(pilot, notices)
            said = "anchor failed: RuntimeError: a bug ␛[31mhere"
            assert [(n.message, n.severity) for n in notices] == [(said, "error")]
            assert app.screen.query_one(SourceView).message == said
            assert app.return_code is None  # still running
    finally:
        app.close()


async def test_a_lexer_that_fails_on_a_file_is_said_once_and_the_file_shown_plain(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from screens.widgets import source_highlight

    monkeypatch.setattr(source_highlight, "highlight_block", bug)
    app = make_browse_app(
        Revision.open(sample_repo()), path="README.md", keymap=load_keymap(user=False)
    )
    notices = watch_notices(app)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_until(pilot, lambda: bool(notices), "the failure said")
            view = app.screen.query_one(SourceView)
            # scrolled to the end and back: more lines to lex, none asked for, nothing said again
            view.focus()
            await pilot.press("end", "home")
            for _ in range(3):
                await pilot.pause(0.3)  # the 200-line blocks are asked for once the view rests
            said = (
                "README.md: syntax highlighting failed (RuntimeError: a bug ␛[31mhere); shown plain"
            )
            assert [(n.message, n.severity) for n in notices] == [(said, "warning")]
            assert view.message is None and view.line_count > 0  # the file, plain
            assert not view.highlighting and not view.is_highlighted(1)
            assert app.return_code is None
    finally:
        app.close()
