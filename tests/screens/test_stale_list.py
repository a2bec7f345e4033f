"""The stale verdicts' list (`w`): what each was on, going to its record, clearing one, and `z`
bringing it back; the store and the header follow."""

from __future__ import annotations

from pathlib import Path

import pytest
from screenkit import index_of, review_screen, settle, wait_until, watch_notices

from db import ItemRef, Verdict, VerdictStore
from evidence.model import ReportSet
from keymaps import Keymap
from screens.review.history import Location
from screens.stale import StaleScreen
from screens.themes import DARK, LIGHT
from tui.factory import make_app

SIZE = (120, 40)
EDITED = "KS-CMP-api-server"  # its first quote edited in the new report


def edited_reports(reports: ReportSet, gone: str) -> ReportSet:
    """The reports regenerated: EDITED's first quote edited, the record ``gone`` removed."""
    report = reports.reports[0]
    records = []
    for record in report.records:
        if record.id == gone:
            continue
        if record.id == EDITED:
            first = record.quotes[0]._replace(text=record.quotes[0].text + "  # edited")
            record = record._replace(quotes=(first, *record.quotes[1:]))
        records.append(record)
    return reports._replace(reports=(report._replace(records=tuple(records)), *reports.reports[1:]))


async def test_stale_verdicts_listed_gone_to_cleared_and_brought_back(
    tmp_path: Path, sample: Path, keymap: Keymap, sample_reports: ReportSet, cited: str
) -> None:
    report = sample_reports.reports[0]
    edited = report.record(EDITED)
    gone = next(r for r in report.records if r.id != EDITED and r.quotes and r.label)
    assert edited is not None
    quote_item = ItemRef.for_quote(report, edited, edited.quotes[0])
    record_item = ItemRef.for_record(report, gone)
    store = VerdictStore.open(tmp_path / "s.db")
    try:
        store.register(sample_reports, revision=cited)  # what the items were, registered
        store.give(quote_item, Verdict.REFUTED, note="wrong line", reviewer="s", revision=cited)
        store.give(record_item, Verdict.CONFIRMED, note="held", reviewer="s", revision=cited)
        app = make_app(edited_reports(sample_reports, gone.id), sample, cited, store, "s", keymap)
        async with app.run_test(size=SIZE) as pilot:
            screen = review_screen(app)
            await settle(pilot, screen)
            notices = watch_notices(app)
            assert sorted(s.reason for s in screen.stale) == ["quote changed", "record missing"]
            await pilot.press("w")
            await wait_until(pilot, lambda: isinstance(app.screen, StaleScreen), "the list")
            dialog = app.screen
            assert isinstance(dialog, StaleScreen)
            rows = {s.event.record: s for s in dialog.stale}
            first = edited.quotes[0]
            # what each was on, in words: the quote's place, the record's label and first quote
            assert rows[EDITED].what.startswith(f"quote 1 ({first.path}")
            assert rows[gone.id].what.startswith(f"the record ({gone.label}, {gone.quotes[0].path}")
            assert rows[gone.id].here is None and rows[EDITED].here == index_of(screen, EDITED)

            # the record gone: enter says so and stays; the one still here is gone to
            order = [s.event.record for s in dialog.stale]
            await pilot.press(*["down"] * order.index(gone.id), "enter")
            await pilot.pause()
            assert app.screen is dialog
            assert any("no longer in its report" in n.message for n in notices)
            await pilot.press("x")  # cleared: the item unreviewed, its history keeps the verdict
            await wait_until(pilot, lambda: len(screen.stale) == 1, "the verdict cleared")
            assert [s.event.record for s in dialog.stale] == [EDITED]
            assert record_item.key not in store.current("s")
            assert [e.verdict for e in store.history(record_item.key)] == [Verdict.CONFIRMED, None]
            assert "1 stale" in str(screen.query_one("#review-header").render())
            await pilot.press("enter")
            await wait_until(pilot, lambda: app.screen is screen, "the dialog closed")
            # the edited quote selected, as after `]`: `r` would refute it
            assert screen.location == Location(index_of(screen, EDITED), 0)
            assert screen.state.on_quote

            await pilot.press("z")  # the clear undone: the verdict and note are back, stale
            await wait_until(pilot, lambda: len(screen.stale) == 2, "the clear undone")
            assert store.current("s")[record_item.key].note == "held"
            assert "2 stale" in str(screen.query_one("#review-header").render())
        app.close()
    finally:
        store.close()


async def test_no_stale_verdicts_says_so(
    tmp_path: Path, sample: Path, keymap: Keymap, sample_reports: ReportSet, cited: str
) -> None:
    with VerdictStore.open(tmp_path / "s.db") as store:
        app = make_app(sample_reports, sample, cited, store, "s", keymap)
        async with app.run_test(size=SIZE) as pilot:
            screen = review_screen(app)
            await settle(pilot, screen)
            await pilot.press("w")
            await wait_until(pilot, lambda: isinstance(app.screen, StaleScreen), "the list")
            assert "no stale verdicts" in str(app.screen.query_one("#stale-empty").render())
            bound = app.screen.active_bindings.values()
            offered = {active.binding.id for active in bound if active.enabled}
            assert "close_dialog" in offered and "stale_clear" not in offered  # nothing to clear
            await pilot.press("x", "escape")  # nothing to clear: nothing happens
            await wait_until(pilot, lambda: app.screen is screen, "the dialog closed")
        app.close()


async def test_a_scan_of_stale_verdicts_lists_the_first_ones_and_clears_past_them() -> None:
    """Every judged result of a scan gone: the list holds the first LISTED, says how many in
    all, and clearing the first lets the count (and what `clear` got) follow."""
    from screenkit import DialogApp
    from textual.widgets import OptionList

    from db.writes import new_event
    from screens.stale import LISTED, Stale

    events = [
        new_event(
            ItemRef("Scan/sarif", f"B101:{n:012x}", None),
            "s",
            Verdict.REFUTED,
            None,
            f"2026-11-30T10:00:00.{n:06d}Z",
            None,
        )
        for n in range(LISTED + 500)
    ]
    cleared: list[Stale] = []

    def clear(stale: Stale) -> bool:
        cleared.append(stale)
        return True

    dialog = StaleScreen([Stale(e, "record missing", "", None) for e in events], clear)
    app = DialogApp(dialog)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        options = dialog.query_one("#stale-list", OptionList)
        assert options.option_count == LISTED
        assert f"{LISTED + 500:,} (the first {LISTED:,} listed" in str(
            dialog.query_one("#stale-box").border_title
        )
        await pilot.press("x", "delete")
        await pilot.pause()
        assert [s.event.record for s in cleared] == [events[0].record, events[1].record]
        assert options.option_count == LISTED - 2 and len(dialog.stale) == LISTED + 498
        assert "B101:000000000002" in str(options.get_option_at_index(0).prompt)
        await pilot.press("enter")  # nothing to go to: the dialog stays
        await pilot.pause()
        assert app.screen is dialog and app.results == []
        for _ in range(LISTED - 2):  # every one listed cleared: the next ones are listed
            dialog.action_clear_stale()
        await pilot.pause()
        assert len(dialog.stale) == 500 and options.option_count == LISTED
        assert options.highlighted == 0 and len(cleared) == LISTED


@pytest.mark.parametrize("theme", [DARK, LIGHT])
async def test_the_stale_list_reads_at_aa(
    tmp_path: Path, sample: Path, keymap: Keymap, sample_reports: ReportSet, cited: str, theme: str
) -> None:
    """Each row's verdict word, record, reason, revision and note, the highlighted row's too,
    measured on what the app draws."""
    from rendered import low_contrast, screen_cells
    from test_legible import text_count

    from screens.widgets.dialog_lines import DialogLines

    report = sample_reports.reports[0]
    edited = report.record(EDITED)
    assert edited is not None
    gone = [r for r in report.records if r.id != EDITED and r.quotes][:3]
    with VerdictStore.open(tmp_path / "s.db") as store:
        store.register(sample_reports, revision=cited)
        store.give(
            ItemRef.for_quote(report, edited, edited.quotes[0]),
            Verdict.REFUTED,
            note="a note",
            reviewer="s",
            revision=cited,
        )
        for record, verdict in zip(
            gone, [Verdict.CONFIRMED, Verdict.UNCLEAR, Verdict.SKIP], strict=True
        ):
            store.give(ItemRef.for_record(report, record), verdict, reviewer="s", revision=cited)
    reports = edited_reports(sample_reports, gone[0].id)
    reports = reports._replace(
        reports=(
            reports.reports[0]._replace(
                records=tuple(r for r in reports.reports[0].records if r not in gone)
            ),
            *reports.reports[1:],
        )
    )
    app = make_app(reports, sample, cited, tmp_path / "s.db", "s", keymap, theme=theme)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = review_screen(app)
        await settle(pilot, screen)
        for highlighted in range(2):  # the first row highlighted, then the second
            if highlighted:
                await pilot.press("down")
            else:
                await pilot.press("w")
            await wait_until(pilot, lambda: isinstance(app.screen, StaleScreen), "the list")
            for _ in range(5):
                await pilot.pause()
            cells = screen_cells(app)
            region = app.screen.query_one("#stale-box").region
            assert text_count(cells, region) > 200
            assert low_contrast(cells, region, drawing=1.0) == []
            lines = app.screen.query_one(DialogLines).region
            assert low_contrast(cells, lines, drawing=1.0) == []
    app.close()
