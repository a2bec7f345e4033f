"""Issue 14, point 2: what a verdict lands on is chosen by `]`/`[` (a quote) and `n`/`p` or a
row of the records list (the record), named in the status line before a key is pressed, and the
verdicts on quotes show in the records list, the source pane, the record pane and the header."""

from __future__ import annotations

from pathlib import Path

from screenkit import focused, opened, press, watch_notices

from db import Verdict
from keymaps import load_keymap
from screens.review.history import Location
from screens.review.screen import ReviewScreen
from screens.widgets.target_line import TargetLine
from tui.factory import make_demo_app

RECORD = "KS-RTE-ticket-escalation"


def text(screen: ReviewScreen, selector: str) -> str:
    return str(screen.query_one(selector).render())


async def test_verdict_keys_act_on_the_target_the_status_line_names(
    tmp_path: Path, sample: Path
) -> None:
    app = make_demo_app(tmp_path, reviewer="t", keymap=load_keymap(user=False))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await screen.settle()
        index = next(n for n, r in enumerate(screen.session.records) if r.id == RECORD)
        screen.go(Location(index - 1, None))
        await press(pilot, screen, "n")
        record = screen.record
        assert record is not None and record.id == RECORD
        session = screen.session
        status = screen.query_one(TargetLine)
        assert f"record {RECORD}" in str(status.render())
        # ] selects the quote shown, ] again the next; the records pane keeps the focus
        await press(pilot, screen, "right_square_bracket")
        assert "quote [1] api/kestrel/" in str(status.render())
        await press(pilot, screen, "right_square_bracket")
        line = str(status.render())
        assert "quote [2] " in line and f"of {RECORD}" in line and "open" in line
        assert screen.focused is screen.records_pane
        await press(pilot, screen, "c")
        second = session.quote_item(record, record.quotes[1])
        assert session.verdict(second) is Verdict.CONFIRMED
        assert session.verdict(session.record_item(record)) is None
        assert "confirmed" in str(status.render())
        # tab moves the focus, not the target
        await press(pilot, screen, "tab", "u")
        assert focused(screen) is screen.record_pane
        assert session.verdict(second) is Verdict.UNCLEAR
        # quote verdicts show in the list, the source pane, the record pane and the header
        assert "[·?·]" in str(screen.records_pane.prompt(index))
        assert "unclear" in text(screen, "#quote-info")
        row = screen.record_pane.row(screen.record_pane.row_index("quote-1") or 0)
        assert "[2] unclear" in str(row.prompt)
        assert "quotes 1/34 reviewed" in text(screen, "#review-header")
        # [ selects the previous quote; n the next record, p this one again: the record
        await press(pilot, screen, "left_square_bracket")
        assert "quote [1] " in str(status.render())
        await press(pilot, screen, "n", "p")
        assert f"record {RECORD}" in str(status.render())
        await press(pilot, screen, "r")
        assert session.verdict(session.record_item(record)) is Verdict.REFUTED
        assert session.verdict(second) is Verdict.UNCLEAR
        # a row of the records list selects its record
        await press(pilot, screen, "right_square_bracket", "shift+tab", "j", "k")
        assert screen.record is record and f"record {RECORD}" in str(status.render())
        # skip is not counted as reviewed: shown apart
        await press(pilot, screen, "s")
        header = text(screen, "#review-header")
        assert "records 0/22 reviewed · 1 skipped" in header
        assert "quotes 1/34 reviewed" in header
    app.close()


async def test_the_status_line_names_nothing_when_the_filter_lists_no_record(
    tmp_path: Path, sample: Path
) -> None:
    # the filter "refuted" listed nothing, and `c` said so, while the status line went on naming
    # the quote selected before
    app = make_demo_app(tmp_path, reviewer="t", keymap=load_keymap(user=False))
    notices = watch_notices(app)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, app, "KS-RTE-note-sync")
        status = screen.query_one(TargetLine)
        await press(pilot, screen, "right_square_bracket")
        assert "quote [1] worker/src/sync.js:46 of KS-RTE-note-sync" in str(status.render())
        await press(pilot, screen, "f", "f")
        assert screen.filter == "refuted"
        line = str(status.render())
        assert line == 'verdict keys → nothing: no records match "refuted"', line
        await press(pilot, screen, "c")
        assert notices[-1].message.startswith('no records match "refuted"')
        assert screen.session.current == {}
        # the filter that lists the record again names it again
        await press(pilot, screen, "f", "f")
        assert screen.filter == "all"
        assert "KS-RTE-note-sync · open" in str(status.render())
    app.close()
