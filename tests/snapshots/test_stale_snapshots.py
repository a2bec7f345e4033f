"""Snapshots of the stale verdicts' list (`w`): a verdict on a quote since edited and one on a
record since dropped, each with what it was on, at 120x40 and 80x24."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from snapshotkit import steady
from test_review_snapshots import settled
from textual.pilot import Pilot

from db import ItemRef, Verdict, VerdictStore
from db.writes import new_event
from evidence.reports.loading import load_reports
from evidence.sample import CITED_REVISION, SAMPLE_REPORTS
from keymaps import load_keymap
from tui.app import AssayApp
from tui.factory import make_app

EDITED = "KS-CMP-api-server"  # its first quote edited in the regenerated report


@pytest.fixture
def stale(tmp_path: Path, sample: Path) -> Iterator[AssayApp]:
    reports = load_reports([SAMPLE_REPORTS])
    report = reports.reports[0]
    edited = report.record(EDITED)
    dropped = next(r for r in report.records if r.id != EDITED and r.quotes and r.label)
    assert edited is not None
    with VerdictStore.open(tmp_path / "s.db") as store:
        store.register(reports, revision=CITED_REVISION)
        at = "2026-11-30T10:00:0{}.000000Z"  # fixed times: the list shows the day
        store.import_events(
            [
                new_event(
                    ItemRef.for_quote(report, edited, edited.quotes[0]),
                    "reviewer",
                    Verdict.REFUTED,
                    "the check [b]ignores[/b] the scope\nsecond line",
                    at.format(1),
                    CITED_REVISION,
                ),
                new_event(
                    ItemRef.for_record(report, dropped),
                    "reviewer",
                    Verdict.CONFIRMED,
                    None,
                    at.format(2),
                    CITED_REVISION,
                ),
            ]
        )
    records = []
    for record in report.records:
        if record is dropped:
            continue
        if record is edited:
            first = record.quotes[0]._replace(text=record.quotes[0].text + "  # edited")
            record = record._replace(quotes=(first, *record.quotes[1:]))
        records.append(record)
    reports = reports._replace(
        reports=(report._replace(records=tuple(records)), *reports.reports[1:])
    )
    keymap = load_keymap(user=False)
    app = make_app(reports, sample, CITED_REVISION, tmp_path / "s.db", "reviewer", keymap)
    yield app
    app.close()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_stale_list(snap_compare: Any, stale: AssayApp, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await settled(pilot)
        await pilot.press("w")
        await steady(pilot)

    assert snap_compare(stale, terminal_size=size, run_before=run_before)
