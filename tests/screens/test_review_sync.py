"""What `assay sync` brought, in the review app: the header's last sync and the other reviewers'
verdicts on the record."""

from __future__ import annotations

import json
from pathlib import Path

from db import ItemRef, VerdictStore
from evidence.model import ReportSet
from keymaps import Keymap
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
