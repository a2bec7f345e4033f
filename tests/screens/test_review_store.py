"""The verdict store of the review app: opened after the first frame, on the writer thread.

A verdict key pressed before the store is open is queued and saved; a store that cannot be used
is refused with a one-line error by the commands (before the app starts) and, when the problem
only shows once the app runs, reported inside the app without a traceback.
"""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from screenkit import review_screen, wait_until, watch_notices

from db import ItemRef, Verdict, VerdictStore
from evidence.model import ReportSet
from evidence.sample import SAMPLE_REPORTS
from keymaps import Keymap
from screens.review.loading import Loading
from screens.review.screen import ReviewScreen
from tui.cli import cli
from tui.factory import make_app

SIZE = (120, 40)


def filled(path: Path) -> Path:
    with VerdictStore.open(path) as store:
        store.give(ItemRef("S/runtime", "R1"), "confirmed", reviewer="ann")
    return path


def newer(path: Path) -> Path:
    filled(path)
    raw = sqlite3.connect(path)
    raw.execute("INSERT INTO schema_migrations VALUES (99, 'from the future', 'then')")
    raw.commit()
    raw.close()
    return path


def foreign(path: Path) -> Path:
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance INTEGER)")
    raw.commit()
    raw.close()
    return path


def corrupt(path: Path) -> Path:
    with VerdictStore.open(path) as store:
        for n in range(300):
            store.give(ItemRef("S/runtime", f"R{n}"), "confirmed", note="x" * 40, reviewer="a")
    data = bytearray(path.read_bytes())
    data[3 * 4096 : 6 * 4096] = b"\x5a" * (3 * 4096)
    path.write_bytes(bytes(data))
    return path


def not_sqlite(path: Path) -> Path:
    path.write_text("ann,confirmed\n", encoding="utf-8")
    return path


BAD = {
    "newer": (newer, "written by a newer assay"),
    "foreign": (foreign, "some other program"),
    "corrupt": (corrupt, "is damaged"),
    "not sqlite": (not_sqlite, "not an SQLite database"),
}


def test_review_with_a_bad_database_is_a_one_line_error(tmp_path: Path, sample: Path) -> None:
    for name, (make, message) in BAD.items():
        path = make(tmp_path / f"{name.replace(' ', '-')}.db")
        before = hashlib.sha256(path.read_bytes()).hexdigest()
        args = ["review", str(SAMPLE_REPORTS), "--repo", str(sample), "--db", str(path)]
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 2, (name, result.output)
        assert message in result.output and "Traceback" not in result.output, name
        assert result.output.count("\n") == 1, (name, result.output)
        assert hashlib.sha256(path.read_bytes()).hexdigest() == before, name


def test_demo_with_a_bad_database_is_a_one_line_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    (tmp_path / "assay").mkdir()
    newer(tmp_path / "assay" / "demo.db")
    result = CliRunner().invoke(cli, ["demo"])
    assert result.exit_code == 2
    assert "written by a newer assay" in result.output and "Traceback" not in result.output


async def test_verdict_given_before_the_store_opens_is_saved(
    tmp_path: Path, sample: Path, keymap: Keymap, sample_reports: ReportSet, cited: str
) -> None:
    path = tmp_path / "locked.db"
    # another process holds the database locked: the app opens it only once the lock is gone
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    app = make_app(sample_reports, sample, cited, path, "early", keymap)
    try:
        async with app.run_test(size=SIZE) as pilot:
            screen = review_screen(app)
            # the header says "reading verdicts" once the quotes are anchored, not before
            await wait_until(pilot, lambda: screen.session.anchored, "quotes anchored")
            assert screen.store.store is None  # still waiting for the lock
            record = screen.record
            assert record is not None
            assert "reading verdicts" in str(screen.query_one("#review-header").render())
            await pilot.press("c")  # queued behind the opening
            await pilot.pause()
            holder.execute("ROLLBACK")
            await screen.settle()
            await pilot.pause()
            assert screen.store.store is not None and screen.store_error is None
            assert screen.session.badge(record) == "✓"
    finally:
        holder.close()
        app.close()
    with VerdictStore.open(path, readonly=True) as store:
        key = screen.session.record_item(record).key
        assert store.current("early")[key].verdict is Verdict.CONFIRMED


async def test_store_that_fails_in_the_app_is_reported_there(
    tmp_path: Path, sample: Path, keymap: Keymap, sample_reports: ReportSet, cited: str
) -> None:
    # make_app does not check the path (the commands do): the problem shows once the app runs
    path = corrupt(tmp_path / "bad.db")
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    app = make_app(sample_reports, sample, cited, path, "late", keymap)
    notices = watch_notices(app)
    async with app.run_test(size=SIZE) as pilot:
        screen = review_screen(app)
        await screen.settle()
        await pilot.pause()
        assert screen.store_error is not None and "is damaged" in screen.store_error
        header = str(screen.query_one("#review-header").render())
        assert "verdicts cannot be saved" in header
        messages = [n.message for n in notices]
        assert any("verdicts cannot be saved" in m and "is damaged" in m for m in messages)
        count = len(notices)
        await pilot.press("c")  # refused with a notice, no traceback, nothing written
        await pilot.press("n")  # moving on still works
        await screen.settle()
        await pilot.pause()
        assert len(notices) > count
        assert any("not saved" in n.message for n in notices)
        assert screen.session.badge(screen.session.records[0]) == "·"
        assert screen.location.record == 1
    app.close()
    assert app.return_code in (None, 0)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before


async def test_reads_start_once_the_first_frame_is_whole(
    tmp_path: Path,
    sample: Path,
    keymap: Keymap,
    sample_reports: ReportSet,
    cited: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the reads' threads start once the screen is laid out (their imports would take the GIL
    # from its first frame), and without any input
    started: list[bool] = []
    start = Loading.start

    def observed(loading: Loading) -> None:
        before = loading.started
        start(loading)
        if loading.started and not before:
            screen = loading.screen
            assert isinstance(screen, ReviewScreen)
            panes = (screen.records_pane, screen.record_pane, screen.source_view)
            started.append(all(pane.size.area for pane in panes))

    monkeypatch.setattr(Loading, "start", observed)
    app = make_app(sample_reports, sample, cited, tmp_path / "v.db", "ann", keymap)
    try:
        async with app.run_test(size=SIZE) as pilot:
            screen = review_screen(app)
            await screen.settle()
            await pilot.pause()
            assert started == [True]
            assert screen.revision is not None and screen.store.store is not None
    finally:
        app.close()


async def test_cycle_collector_paused_until_the_first_frame(
    tmp_path: Path, sample: Path, keymap: Keymap, sample_reports: ReportSet, cited: str
) -> None:
    import gc

    assert gc.isenabled()
    app = make_app(sample_reports, sample, cited, tmp_path / "v.db", "ann", keymap)
    try:
        assert not gc.isenabled()  # building and painting the first frame sets off no collection
        async with app.run_test(size=SIZE) as pilot:
            screen = review_screen(app)
            await screen.settle()
            await pilot.pause()
            assert gc.isenabled()  # resumed once the first frame was whole
    finally:
        app.close()
    assert gc.isenabled()
    # an app made but never run does not leave the collector paused once closed
    unused = make_app(sample_reports, sample, cited, tmp_path / "w.db", "ann", keymap)
    assert not gc.isenabled()
    unused.close()
    assert gc.isenabled()


async def test_the_loaded_review_is_frozen_until_the_app_closes(
    tmp_path: Path, sample: Path, keymap: Keymap, sample_reports: ReportSet, cited: str
) -> None:
    import gc

    from tui import startup

    thresholds = gc.get_threshold()
    app = make_app(sample_reports, sample, cited, tmp_path / "v.db", "ann", keymap)
    try:
        async with app.run_test(size=SIZE) as pilot:
            screen = review_screen(app)
            await screen.settle()
            for _ in range(20):
                await pilot.pause()
                if gc.get_freeze_count():
                    break
            # anchored: the review, its anchors and widgets are not walked by later collections
            assert gc.get_freeze_count() > 1000
            assert gc.get_threshold()[0] == startup.YOUNG_THRESHOLD
    finally:
        app.close()
    assert gc.get_freeze_count() == 0  # collected again as any garbage once the app is done
    assert gc.get_threshold() == thresholds


async def test_header_shows_progress_once_the_verdicts_are_read(
    tmp_path: Path, sample: Path, keymap: Keymap, sample_reports: ReportSet, cited: str
) -> None:
    from screens.widgets.review_header import ReviewHeader

    app = make_app(sample_reports, sample, cited, filled(tmp_path / "v.db"), "ann", keymap)
    try:
        async with app.run_test(size=SIZE) as pilot:
            screen = review_screen(app)
            await screen.settle()
            await pilot.pause()
            # whatever finished last (anchoring or reading the verdicts), the header has the
            # progress, not "reading verdicts…"; the verdicts read last here:
            from screens.review.loading import read_verdicts

            screen.verdicts.ready.clear()  # as when they arrive for the first time
            assert screen.store.store is not None
            screen.arrivals.verdicts_read(read_verdicts(screen.store.store, screen.session))
            await pilot.pause()
            text = str(screen.query_one(ReviewHeader).render())
            assert "reading verdicts" not in text
            assert "records 0/" in text or "reviewed" in text
    finally:
        app.close()


async def test_demo_pauses_the_collector_from_the_start_of_the_command(
    tmp_path: Path, sample: Path
) -> None:
    import gc

    from tui.commands.errors import InputError
    from tui.commands.review import demo_app

    assert gc.isenabled()
    app = demo_app("ann", None, tmp_path)  # what `assay demo` runs, before app.run()
    try:
        assert not gc.isenabled()
        async with app.run_test(size=SIZE) as pilot:
            screen = review_screen(app)
            await screen.settle()
            await pilot.pause()
            assert gc.isenabled()  # resumed once the first frame was whole
    finally:
        app.close()
    (tmp_path / "demo.db").write_bytes(b"not a database, " * 512)
    with pytest.raises(InputError) as refused:
        demo_app("ann", None, tmp_path)  # refused before any app is made
    assert refused.value.exit_code == 2
    assert gc.isenabled()  # the failed command resumed the collector it had paused


def test_apps_made_and_closed_in_one_process_are_freed(
    tmp_path: Path, sample: Path, keymap: Keymap, sample_reports: ReportSet, cited: str
) -> None:
    import asyncio
    import gc
    import weakref

    frozen = gc.get_freeze_count()
    gone: list[weakref.ref[object]] = []

    async def review(n: int) -> None:
        app = make_app(sample_reports, sample, cited, tmp_path / f"{n}.db", "ann", keymap)
        try:
            async with app.run_test(size=SIZE) as pilot:
                screen = review_screen(app)
                await screen.settle()
                await pilot.pause()
                gone.append(weakref.ref(screen))
        finally:
            app.close()
        gone.append(weakref.ref(app))

    # one event loop per app, as in a process running them one after another: a loop's executor
    # threads keep the stderr of the app they started under until the loop closes
    for n in range(3):
        asyncio.run(review(n))
    gc.collect()
    assert gc.get_freeze_count() == frozen  # nothing of these apps was frozen
    assert [ref() for ref in gone] == [None] * len(gone)
