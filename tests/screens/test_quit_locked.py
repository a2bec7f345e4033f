"""Quitting while another process holds the verdict database locked: the app exits anyway, the
verdicts not yet written are kept beside the database (db/aside.py), the user is told once the
app is gone, and the next open of the database saves them."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from screenkit import review_screen, wait_until, watch_notices
from textual.pilot import Pilot

from db import Verdict, VerdictStore
from db.aside import aside_files
from evidence.model import ReportSet
from keymaps import Keymap
from tui.app import AssayApp
from tui.factory import make_app

SIZE = (120, 40)


def existing(path: Path) -> Path:
    """A database in use (WAL, migrated)."""
    VerdictStore.open(path).close()
    return path


def new(path: Path) -> Path:
    """No database yet: the lock is taken on the file the app is to create."""
    return path


def registered(conn: sqlite3.Connection) -> bool:
    """Whether the review's registration of its reports is written (it takes the lock too)."""
    return bool(conn.execute("SELECT count(*) FROM items").fetchone()[0])


async def shown_record(pilot: Pilot[None], app: AssayApp) -> str:
    """The key of the record shown once the quotes are anchored (verdict keys act on it)."""
    screen = review_screen(app)
    await wait_until(pilot, lambda: screen.session.anchored, "quotes anchored")
    record = screen.record
    assert record is not None
    return screen.session.record_item(record).key


@pytest.mark.parametrize("database", [existing, new], ids=["existing", "new"])
async def test_quitting_on_a_locked_database_keeps_the_verdict_for_the_next_open(
    tmp_path: Path,
    sample: Path,
    keymap: Keymap,
    sample_reports: ReportSet,
    cited: str,
    database: Callable[[Path], Path],
) -> None:
    path = database(tmp_path / "verdicts.db")
    holder = sqlite3.connect(path, isolation_level=None)  # another process, for SQLite
    app = make_app(sample_reports, sample, cited, path, "bea", keymap)
    try:
        holder.execute("BEGIN IMMEDIATE")
        async with app.run_test(size=SIZE) as pilot:
            key = await shown_record(pilot, app)
            await pilot.press("c")  # waits for the lock
            await pilot.pause()
            await pilot.press("q")
            await pilot.pause()
        said = app.close()
        assert app.return_code == 0
    finally:
        holder.close()  # the lock is gone only now: the app did not wait for it
    assert len(said) == 1 and "locked by another process" in said[0], said
    [kept] = aside_files(path)
    assert str(kept) in said[0] and "1 change(s)" in said[0]
    with VerdictStore.open(path) as store:  # the next open saves what was kept aside
        assert store.current("bea")[key].verdict is Verdict.CONFIRMED
    assert aside_files(path) == []


async def test_quitting_on_a_free_database_writes_everything_and_says_nothing(
    tmp_path: Path, sample: Path, keymap: Keymap, sample_reports: ReportSet, cited: str
) -> None:
    path = existing(tmp_path / "verdicts.db")
    app = make_app(sample_reports, sample, cited, path, "bea", keymap)
    async with app.run_test(size=SIZE) as pilot:
        key = await shown_record(pilot, app)
        await pilot.press("c", "q")
    assert app.close() == []
    assert aside_files(path) == []
    with VerdictStore.open(path, readonly=True) as store:
        assert store.current("bea")[key].verdict is Verdict.CONFIRMED


async def test_a_verdict_the_lock_kept_out_is_named_in_its_notice(
    tmp_path: Path,
    sample: Path,
    keymap: Keymap,
    sample_reports: ReportSet,
    cited: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the wait ends seconds after the key, when the reviewer reads another record: the notice
    # said "not saved: ... while saving a verdict", not which
    monkeypatch.setattr("db.database.BUSY_TIMEOUT", 0.2)  # SQLite's lock, waited less
    path = existing(tmp_path / "verdicts.db")
    holder = sqlite3.connect(path, isolation_level=None)
    app = make_app(sample_reports, sample, cited, path, "bea", keymap)
    seen = watch_notices(app)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await shown_record(pilot, app)
            record = review_screen(app).record
            assert record is not None
            await wait_until(pilot, lambda: registered(holder), "the reports registered")
            holder.execute("BEGIN IMMEDIATE")
            await pilot.press("r", "n")
            await wait_until(
                pilot, lambda: any("not saved" in n.message for n in seen), "the failure"
            )
            holder.execute("ROLLBACK")
    finally:
        holder.close()
    [failure] = [n.message for n in seen if "not saved" in n.message]
    assert failure.startswith(f"not saved (refuted on record {record.id}): the verdict database")


async def test_a_registration_the_lock_kept_out_says_when_it_is_done(
    tmp_path: Path,
    sample: Path,
    keymap: Keymap,
    sample_reports: ReportSet,
    cited: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # was "not saved: ... while registering report items; nothing was saved, try again", and
    # there is no key to try again with
    monkeypatch.setattr("db.database.BUSY_TIMEOUT", 0.2)
    path = existing(tmp_path / "verdicts.db")
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    app = make_app(sample_reports, sample, cited, path, "bea", keymap)
    seen = watch_notices(app)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(
                pilot, lambda: any("not saved" in n.message for n in seen), "the failure"
            )
    finally:
        holder.close()
    [failure] = [n.message for n in seen if "not saved" in n.message]
    assert failure.startswith(
        "not saved (the reports' records and quotes, which the next review registers): "
    )


def shown_text(app: AssayApp, selector: str) -> str:
    """What a widget of the review screen shows, as plain text."""
    return str(review_screen(app).query_one(selector).render())


async def test_a_verdict_waiting_for_the_lock_is_shown_waiting_until_it_is_saved(
    tmp_path: Path, sample: Path, keymap: Keymap, sample_reports: ReportSet, cited: str
) -> None:
    # a long `assay import` or a sync holds the database: the key gave no sign for up to 10 s,
    # the counts and the status line as before, as if it had not been pressed
    path = existing(tmp_path / "verdicts.db")
    holder = sqlite3.connect(path, isolation_level=None)
    app = make_app(sample_reports, sample, cited, path, "bea", keymap)
    seen = watch_notices(app)
    try:
        async with app.run_test(size=SIZE) as pilot:
            key = await shown_record(pilot, app)
            session = review_screen(app).session
            record = review_screen(app).record
            assert record is not None
            await wait_until(pilot, lambda: registered(holder), "the reports registered")
            holder.execute("BEGIN IMMEDIATE")
            await pilot.press("c")
            await wait_until(
                pilot, lambda: "1 not saved yet" in shown_text(app, "#review-header"), "waiting"
            )
            assert "open → confirmed: not saved yet" in shown_text(app, "#target")
            assert any(
                n.message.startswith(f"not saved yet (confirmed on record {record.id}): ")
                for n in seen
            )
            assert session.verdict(session.record_item(record)) is None  # not shown as given
            holder.execute("ROLLBACK")
            await wait_until(
                pilot,
                lambda: "not saved yet" not in shown_text(app, "#review-header"),
                "saved",
            )
            assert "not saved yet" not in shown_text(app, "#target")
            assert "confirmed" in shown_text(app, "#target")
    finally:
        holder.close()
    with VerdictStore.open(path, readonly=True) as store:
        assert store.current("bea")[key].verdict is Verdict.CONFIRMED


async def test_a_verdict_shown_waiting_and_then_lost_is_said_lost_and_no_longer_waiting(
    tmp_path: Path,
    sample: Path,
    keymap: Keymap,
    sample_reports: ReportSet,
    cited: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("screens.review.verdicts.WAITING_AFTER", 0.01)
    monkeypatch.setattr("db.database.BUSY_TIMEOUT", 1.0)  # SQLite's lock, waited less
    path = existing(tmp_path / "verdicts.db")
    holder = sqlite3.connect(path, isolation_level=None)
    app = make_app(sample_reports, sample, cited, path, "bea", keymap)
    seen = watch_notices(app)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await shown_record(pilot, app)
            record = review_screen(app).record
            assert record is not None
            await wait_until(pilot, lambda: registered(holder), "the reports registered")
            holder.execute("BEGIN IMMEDIATE")
            await pilot.press("u")
            await wait_until(
                pilot, lambda: "1 not saved yet" in shown_text(app, "#review-header"), "waiting"
            )
            await wait_until(
                pilot, lambda: any(n.message.startswith("not saved (") for n in seen), "lost"
            )
            assert "not saved yet" not in shown_text(app, "#review-header")
            assert "not saved yet" not in shown_text(app, "#target")
            holder.execute("ROLLBACK")
    finally:
        holder.close()
    [lost] = [n.message for n in seen if n.message.startswith("not saved (")]
    assert lost.startswith(f"not saved (unclear on record {record.id}): the verdict database")
