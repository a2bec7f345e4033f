"""Issue 14, point 3: undo shows the change it reverts, names it, and never reaches an earlier
session's; redo makes it again; both are events of the history."""

from __future__ import annotations

import threading
from pathlib import Path

from screenkit import press, watch_notices
from textual.widgets import TextArea

from db import VerdictStore
from keymaps import load_keymap
from screens.note import NoteScreen
from screens.review.history import Location
from screens.review.screen import ReviewScreen
from screens.widgets.target_line import TargetLine
from tui.factory import make_demo_app

RECORD = "KS-RTE-ticket-escalation"


async def test_undo_names_the_change_shows_it_and_redo_makes_it_again(
    tmp_path: Path, sample: Path
) -> None:
    app = make_demo_app(tmp_path, reviewer="u", keymap=load_keymap(user=False))
    notices = watch_notices(app)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await screen.settle()
        index = next(n for n, r in enumerate(screen.session.records) if r.id == RECORD)
        screen.go(Location(index, 0))
        await press(pilot, screen, "r", "right_square_bracket", "right_square_bracket", "e")
        await pilot.press(*"only line 2")
        await press(pilot, screen, "ctrl+s")
        record = screen.record
        assert record is not None
        quote = screen.session.quote_item(record, record.quotes[1])
        assert screen.session.note(quote) == "only line 2"
        await press(pilot, screen, "n", "n")  # elsewhere now
        assert screen.record is not record
        await press(pilot, screen, "z")
        assert screen.record is record  # the view went to the change first
        pane = screen.record_pane
        first, last = pane.row_lines(pane.row_index("quote-1") or 0)
        top = pane.scroll_y
        assert last >= top and first < top + pane.scrollable_content_region.height
        assert "quote [2] " in str(screen.query_one(TargetLine).render())
        assert notices[-1].message == f"undone: note on quote [2] of {RECORD} removed"
        assert screen.session.note(quote) == ""
        await press(pilot, screen, "Z")
        assert notices[-1].message == f"redone: note on quote [2] of {RECORD} written again"
        assert screen.session.note(quote) == "only line 2"
        await press(pilot, screen, "z", "z")  # the note again, then the verdict before it
        assert notices[-2].message == f"undone: note on quote [2] of {RECORD} removed"
        assert notices[-1].message == f"undone: refuted on record {RECORD}; back to no verdict"
        assert "record " + RECORD in str(screen.query_one(TargetLine).render())
        await press(pilot, screen, "ctrl+r")
        assert notices[-1].message == f"redone: record {RECORD} refuted"
        await press(pilot, screen, "q")
    app.close()
    with VerdictStore.open(tmp_path / "demo.db", readonly=True) as store:
        events = store.history(quote.key)
        assert [(e.note, e.undoes is not None) for e in events] == [
            ("only line 2", False),
            (None, True),
            ("only line 2", False),
            (None, True),
        ]
        assert events[1].undoes == events[0].event and events[3].undoes == events[2].event

    # a new session: z does not reach the changes of the one before
    again = make_demo_app(tmp_path, reviewer="u", keymap=load_keymap(user=False))
    notices = watch_notices(again)
    async with again.run_test(size=(120, 40)) as pilot:
        screen = again.screen
        assert isinstance(screen, ReviewScreen)
        await screen.settle()
        await press(pilot, screen, "z")
        assert notices[-1].message.startswith("nothing to undo in this session")
        assert screen.session.verdict(screen.session.record_item(record)) is not None
    again.close()
    with VerdictStore.open(tmp_path / "demo.db", readonly=True) as store:
        assert len(store.history(quote.key)) == 4


async def test_z_right_after_a_verdict_undoes_that_verdict(tmp_path: Path, sample: Path) -> None:
    # the verdict is on the writer thread when z comes: z waited for nothing and undid the
    # change before it (here the confirm on another record), leaving the refute in place
    app = make_demo_app(tmp_path, reviewer="u", keymap=load_keymap(user=False))
    notices = watch_notices(app)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await screen.settle()
        await press(pilot, screen, "c", "n")
        confirmed, refuted = screen.session.records[0], screen.session.records[1]
        assert screen.record is refuted
        gate = threading.Event()
        # the writer busy with other work (as with a slow disk) while r and z come
        screen.verdicts.writer.submit(lambda store: gate.wait(10))
        await pilot.press("r", "z")
        assert screen.session.verdict(screen.session.record_item(refuted)) is None  # not yet
        gate.set()
        await screen.settle()
        await pilot.pause()
        await screen.settle()
        session = screen.session
        assert session.verdict(session.record_item(refuted)) is None  # the refute undone
        assert session.verdict(session.record_item(confirmed)) is not None  # the confirm kept
        assert any("undone: refuted on record" in str(n.message) for n in notices)
        with VerdictStore.open(tmp_path / "demo.db", readonly=True) as store:
            now = store.current("u")
        assert [e.verdict.value for e in now.values() if e.verdict] == ["confirmed"]
        # u, z and Z at once: the redo waits for the undo, which waits for the verdict
        gate = threading.Event()
        screen.verdicts.writer.submit(lambda store: gate.wait(10))
        await pilot.press("u", "z", "Z")
        gate.set()
        for _ in range(3):
            await screen.settle()
            await pilot.pause()
        again = session.verdict(session.record_item(refuted))
        assert again is not None and again.value == "unclear"
    app.close()


async def test_e_right_after_a_note_is_saved_opens_it_as_saved(
    tmp_path: Path, sample: Path
) -> None:
    # the note on its way to the store: the editor opened with the text before it, and saving
    # again would have written over it
    app = make_demo_app(tmp_path, reviewer="u", keymap=load_keymap(user=False))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await screen.settle()
        gate = threading.Event()
        screen.verdicts.writer.submit(lambda store: gate.wait(10))
        await pilot.press("e", *"first", "ctrl+s", "e")
        assert not isinstance(app.screen, NoteScreen)  # waits for the note to be stored
        gate.set()
        for _ in range(3):
            await screen.settle()
            await pilot.pause()
        editor = app.screen
        assert isinstance(editor, NoteScreen) and editor.text == "first"
        await pilot.press(*" and second", "ctrl+s")
        await screen.settle()
        item = screen.session.record_item(screen.session.records[0])
        assert screen.session.note(item) == "first and second"
    app.close()


async def test_a_note_too_long_for_the_others_is_not_saved_and_stays_in_the_editor(
    tmp_path: Path, sample: Path
) -> None:
    # a log pasted whole: saved here, it was refused by every other reviewer's sync
    from db.event_text import MAX_NOTE

    app = make_demo_app(tmp_path, reviewer="u", keymap=load_keymap(user=False))
    notices = watch_notices(app)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await screen.settle()
        await pilot.press("e")
        editor = app.screen
        assert isinstance(editor, NoteScreen)
        editor.query_one("#note-text", TextArea).text = "x" * (MAX_NOTE + 1)
        await pilot.press("ctrl+s")
        await screen.settle()
        assert app.screen is editor  # still open, the text in it
        assert any("not saved: a note holds at most 200,000" in n.message for n in notices)
        item = screen.session.record_item(screen.session.records[0])
        assert screen.session.note(item) == ""
        editor.query_one("#note-text", TextArea).text = "x" * MAX_NOTE
        await pilot.press("ctrl+s")
        await screen.settle()
        assert not isinstance(app.screen, NoteScreen)  # saved and closed
        assert len(screen.session.note(item)) == MAX_NOTE
    app.close()
