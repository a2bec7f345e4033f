"""What `assay sync` brought, in the review app: the header's last sync and the other reviewers'
verdicts on the record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from db import ItemRef, VerdictStore
from evidence.model import ReportSet
from keymaps import Keymap
from screens.review.history import Location
from screens.review.screen import ReviewScreen
from screens.session import ReviewSession
from screens.widgets.record_pane import RecordPane
from tui.factory import make_app

SIZE = (160, 40)


async def test_header_shows_the_last_sync_and_the_record_other_reviewers(
    tmp_path: Path, sample: Path, keymap: Keymap, sample_reports: ReportSet, cited: str
) -> None:
    path = tmp_path / "team.db"
    session = ReviewSession(sample_reports, "ann")
    with VerdictStore.open(path) as store:
        for record in session.records:
            store.give(session.record_item(record), "refuted", reviewer="ben", note="[b]no[/b]")
        first = session.records[0]
        if first.quotes:
            quote = session.quote_item(first, first.quotes[0])
            store.give(quote, "unclear", reviewer="cy")
        store.give(ItemRef("OTHER/report", "X1"), "confirmed", reviewer="cy")
        last = {"at": "2026-11-30T09:15:00.000000Z", "received": 7, "sent": 0, "pending": 0}
        store.set_sync_state({"last": json.dumps(last)})
    app = make_app(sample_reports, sample, cited, path, "ann", keymap)
    try:
        async with app.run_test(size=SIZE) as pilot:
            screen = next(s for s in app.screen_stack if isinstance(s, ReviewScreen))
            await screen.settle()
            await pilot.pause()
            header = str(screen.query_one("#review-header").render())
            assert "synced " in header and "· 7 in" in header
            pane = screen.query_one(RecordPane)
            texts = [str(pane.row(n).prompt) for n in range(pane.row_count)]
            assert "─ other reviewers ─" in texts
            assert any(
                t.startswith("ben  ✗ refuted  on the record") and "[b]no[/b]" in t for t in texts
            )
            if screen.record is first and first.quotes:
                assert any(t.startswith("cy  ? unclear  on quote 1") for t in texts)
    finally:
        app.close()


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_the_last_sync_at_120_columns_and_disagreements_marked_in_the_list(
    tmp_path: Path,
    sample: Path,
    keymap: Keymap,
    sample_reports: ReportSet,
    cited: str,
    size: tuple[int, int],
) -> None:
    path = tmp_path / "team.db"
    session = ReviewSession(sample_reports, "ann")
    with_quotes = [record for record in session.records if record.quotes]
    split, agreed, alone, on_quote, skipped = with_quotes[:5]
    with VerdictStore.open(path) as store:
        store.give(session.record_item(split), "confirmed", reviewer="ann")
        store.give(session.record_item(split), "refuted", reviewer="ben")
        store.give(session.record_item(agreed), "refuted", reviewer="ann")
        store.give(session.record_item(agreed), "refuted", reviewer="ben")
        store.give(session.record_item(alone), "unclear", reviewer="ben")
        quote = session.quote_item(on_quote, on_quote.quotes[0])
        store.give(quote, "confirmed", reviewer="ann")
        store.give(quote, "refuted", reviewer="cy")
        store.give(session.record_item(skipped), "skip", reviewer="ann")
        store.give(session.record_item(skipped), "confirmed", reviewer="ben")
        last = {"at": "2026-11-30T09:15:00.000000Z", "received": 7, "sent": 0, "pending": 0}
        store.set_sync_state({"last": json.dumps(last)})
    app = make_app(sample_reports, sample, cited, path, "ann", keymap)
    try:
        async with app.run_test(size=size) as pilot:
            screen = next(s for s in app.screen_stack if isinstance(s, ReviewScreen))
            await screen.settle()
            await pilot.pause()
            header = str(screen.query_one("#review-header").render())
            assert "@802776d" in header and "records 2/22" in header
            if size[0] >= 120:
                assert "synced " in header and "· 7 in" in header
            pane = screen.records_pane
            marked = {
                record.id
                for n, record in enumerate(screen.session.records)
                if "≠" in str(pane.prompt(n))
            }
            assert marked == {split.id, on_quote.id}  # a skip is no verdict to disagree with
            # the reviewer changes their mind: the mark goes
            screen.go(Location(screen.session.index_of(split), None))
            await pilot.press("r")
            await screen.settle()
            await pilot.pause()
            assert "≠" not in str(pane.prompt(screen.session.index_of(split)))
    finally:
        app.close()
