"""The review app end to end on the sample, driven by keys under Pilot, against a real database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from screenkit import on_top, reviewing
from textual.pilot import Pilot
from textual.widgets import TextArea

from db import Verdict, VerdictStore
from keymaps import Keymap
from screens.note import NoteScreen
from screens.review.screen import ReviewScreen
from tui.factory import make_demo_app

SIZE = (120, 40)


async def settle(pilot: Pilot[Any], screen: ReviewScreen) -> None:
    await screen.settle()
    await pilot.pause()


async def press(pilot: Pilot[Any], screen: ReviewScreen, *keys: str) -> None:
    """Press keys; after the last one, wait until every verdict given is stored and shown."""
    await pilot.press(*keys)
    await settle(pilot, screen)


async def test_review_sample_end_to_end(tmp_path: Path, sample: Path, keymap: Keymap) -> None:
    app = make_demo_app(tmp_path, reviewer="tester", keymap=keymap)
    async with app.run_test(size=SIZE) as pilot:
        screen = reviewing(app)
        await settle(pilot, screen)
        assert screen.session.anchored
        assert screen.record is not None and screen.record.id == "runtime:evidence-and-claimed-work"

        # move: n three times reaches the first component; p and n again
        await press(pilot, screen, "n", "n", "n", "p", "n")
        assert screen.record.id == "KS-CMP-api-server"
        # j moves the records cursor, k moves it back
        await press(pilot, screen, "j")
        assert screen.record.id == "KS-CMP-sync-worker"
        await press(pilot, screen, "k")
        assert screen.record.id == "KS-CMP-api-server"

        # a verdict on the focused record
        await press(pilot, screen, "c")
        assert screen.session.badge(screen.record) == "✓"
        assert "records 1/22 reviewed" in str(screen.query_one("#review-header").render())

        # a verdict on a quote: `]` selects the quote shown (the first), again the second
        await press(pilot, screen, "tab", "right_square_bracket", "right_square_bracket")
        assert screen.quote is not None and screen.quote.index == 1
        await press(pilot, screen, "r")
        # a note on that quote, saved with ctrl+s
        await press(pilot, screen, "e")
        assert isinstance(app.screen, NoteScreen)
        await pilot.press(*"checked twice")
        await press(pilot, screen, "ctrl+s")
        assert on_top(app) is screen

        # follow a reference into the other report, and come back
        await press(pilot, screen, "slash")
        await pilot.press(*"request and escalation")
        await press(pilot, screen, "enter")
        assert screen.record.id == "workflow:request-and-escalation"
        while screen.focused is None or screen.focused.id != "record":
            await press(pilot, screen, "tab")  # tab cycles the panes
        await press(pilot, screen, "end")  # the record's last lines: its references
        for _ in range(30):
            pane = screen.query_one("#record")
            option = pane.row(pane.highlighted)  # type: ignore[attr-defined]
            if (option.id or "").startswith("ref-"):
                break
            await press(pilot, screen, "j")
        await press(pilot, screen, "enter")
        assert screen.record.id == "KS-RTE-token-check"
        assert screen.record.report.endswith("kestrel-runtime-report.txt")
        await press(pilot, screen, "backspace")
        assert screen.record.id == "workflow:request-and-escalation"
        await press(pilot, screen, "alt+right")
        assert screen.record.id == "KS-RTE-token-check"
        await press(pilot, screen, "alt+left")
        assert screen.record.id == "workflow:request-and-escalation"
        # back returns to the quote the cursor passed on its way to the reference: escape turns
        # the verdict keys to the record
        assert screen.moves.target_quote() is not None
        await press(pilot, screen, "escape")
        assert screen.moves.target_quote() is None
        await press(pilot, screen, "shift+tab", "s")  # in the records pane: skip the record

        # filter to unreviewed records; space goes to the next one
        await press(pilot, screen, "f")
        assert screen.filter == "unreviewed"
        shown = {screen.session.records[n].id for n in screen.rows if n >= 0}
        assert "KS-CMP-api-server" not in shown and "workflow:request-and-escalation" not in shown
        await press(pilot, screen, "space")
        unreviewed = screen.record.id
        assert screen.session.badge(screen.record) == "·"
        # a verdict, undone
        await press(pilot, screen, "u")
        assert screen.session.badge(screen.record) == "?"
        await press(pilot, screen, "z")
        assert screen.session.badge(screen.record) == "·"
        await press(pilot, screen, "q")
    app.close()
    assert app.return_code == 0

    # reopen: the review lands on the same record
    again = make_demo_app(tmp_path, reviewer="tester", keymap=keymap)
    async with again.run_test(size=SIZE) as pilot:
        screen = reviewing(again)
        await settle(pilot, screen)
        assert screen.record is not None and screen.record.id == unreviewed
    again.close()

    store = VerdictStore.open(tmp_path / "demo.db", readonly=True)
    try:
        current = store.current("tester")
    finally:
        store.close()
    got = {(e.record, e.quote is not None, e.verdict, e.note) for e in current.values()}
    assert got == {
        ("KS-CMP-api-server", False, Verdict.CONFIRMED, None),
        ("KS-CMP-api-server", True, Verdict.REFUTED, "checked twice"),
        ("workflow:request-and-escalation", False, Verdict.SKIP, None),
    }


def stored_position(path: Path) -> str | None:
    import sqlite3

    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        rows = conn.execute("SELECT record FROM positions").fetchall()  # the one review
    conn.close()
    assert len(rows) <= 1, rows
    return str(rows[0][0]) if rows else None


async def test_the_position_is_written_once_the_reviewer_rests_and_on_quit(
    tmp_path: Path, sample: Path, keymap: Keymap
) -> None:
    # a write per key competed with the frames: moves in a row write where the reviewer rests,
    # once, and quitting right after a move still keeps it
    app = make_demo_app(tmp_path, reviewer="tester", keymap=keymap)
    database = tmp_path / "demo.db"
    async with app.run_test(size=SIZE) as pilot:
        screen = reviewing(app)
        await settle(pilot, screen)
        writes: list[object] = []
        writer = screen.verdicts.writer
        submit = writer.submit

        def counted(work: Any, *args: Any, **options: Any) -> None:
            writes.append(work)
            submit(work, *args, **options)

        writer.submit = counted  # type: ignore[method-assign]
        for _ in range(5):
            await pilot.press("n")
        await pilot.pause()
        assert writes == []  # not yet: the reviewer is still moving
        await pilot.pause(0.8)
        await writer.flush()
        assert len(writes) == 1
        rested = screen.record
        assert rested is not None and stored_position(database) == rested.id
        await pilot.press("n")
        moved = screen.record
        assert moved is not None and moved.id != rested.id
        await pilot.press("q")
    app.close()
    assert stored_position(database) == moved.id


async def test_quitting_while_a_note_is_written_keeps_the_note_and_says_so(
    tmp_path: Path, sample: Path, keymap: Keymap
) -> None:
    # ctrl+q (Textual's quit, a priority key: the editor never sees it), also under the
    # "discard?" question, and the palette's quit left the app with the note typed and lost
    for how in ("ctrl+q", "escape ctrl+q", "palette"):
        data = tmp_path / how.replace(" ", "-")
        app = make_demo_app(data, reviewer="tester", keymap=keymap)
        async with app.run_test(size=SIZE) as pilot:
            screen = reviewing(app)
            await settle(pilot, screen)
            record = screen.record
            assert record is not None
            await press(pilot, screen, "e")
            assert isinstance(app.screen, NoteScreen)
            await pilot.press(*"half written")
            if how == "palette":
                await pilot.press("ctrl+p", *"quit", "enter")
            else:
                await pilot.press(*how.split())
            await pilot.pause()
        told = app.close()
        assert len(told) == 1 and told[0].startswith("assay: the note you were writing"), (
            how,
            told,
        )
        assert f"(Note on record {record.id} · open) was saved as typed on quitting" in told[0]
        store = VerdictStore.open(data / "demo.db", readonly=True)
        try:
            notes = {e.record: e.note for e in store.current("tester").values()}
        finally:
            store.close()
        assert notes == {record.id: "half written"}, how

    # an editor left unchanged, or closed, keeps nothing and says nothing
    app = make_demo_app(tmp_path / "unchanged", reviewer="tester", keymap=keymap)
    async with app.run_test(size=SIZE) as pilot:
        screen = reviewing(app)
        await settle(pilot, screen)
        await press(pilot, screen, "e")
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert app.close() == []


async def test_a_note_pasted_with_terminal_escapes_is_saved_as_their_pictures(
    tmp_path: Path, sample: Path, keymap: Keymap
) -> None:
    # another reviewer's sync refuses terminal controls: the note keeps what they stood for
    app = make_demo_app(tmp_path, reviewer="tester", keymap=keymap)
    async with app.run_test(size=SIZE) as pilot:
        screen = reviewing(app)
        await settle(pilot, screen)
        await press(pilot, screen, "n", "n", "n", "e")
        editor = app.screen
        assert isinstance(editor, NoteScreen)
        editor.query_one(TextArea).insert("exit \x1b[31m1\x1b[0m\tthen a bell \x07")
        await press(pilot, screen, "ctrl+s")
        assert screen.record is not None
        item = screen.session.record_item(screen.record)
        assert screen.session.note(item) == "exit ␛[31m1␛[0m\tthen a bell ␇"
    app.close()
