"""Batch commands keep the cycle collector paused for their work (tui/startup.py `Paused`):
what they build lives until they are done, and collections walked it for no garbage
(`assay export --format sarif` of a 135,129-result scan: 2.6 s of its 9.7)."""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from db.store import VerdictStore
from evidence.reports.loading import load_reports
from tui import startup
from tui.cli import cli


def test_the_collector_is_paused_for_the_work_and_resumed_after() -> None:
    assert gc.isenabled()
    with startup.Paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()  # paused by someone else: left as it was
    try:
        with startup.Paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


@pytest.fixture
def collections() -> Iterator[list[int]]:
    """The generations collected while the test runs."""
    seen: list[int] = []

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    gc.collect()
    gc.callbacks.append(callback)
    try:
        yield seen
    finally:
        gc.callbacks.remove(callback)


@pytest.fixture
def scan(tmp_path: Path) -> Path:
    """A scan of 3,000 results: reading it makes objects enough for many collections."""
    results = [
        {
            "ruleId": f"R{n % 7}",
            "message": {"text": f"finding {n}"},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": f"src/m{n % 40}.py"},
                        "region": {"startLine": n % 300 + 1, "snippet": {"text": f"x{n}"}},
                    }
                }
            ],
        }
        for n in range(3_000)
    ]
    document = {
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "lint"}}, "results": results}],
    }
    path = tmp_path / "scan.sarif"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_parse_of_a_scan_sets_off_no_collection(scan: Path, collections: list[int]) -> None:
    result = CliRunner().invoke(cli, ["parse", str(scan), "-f", "json"])
    assert result.exit_code == 0, result.output
    assert len(collections) < 5  # click's own start only (71 when the reading was collected)
    assert gc.isenabled()


def test_sarif_export_of_a_scan_sets_off_no_collection(
    scan: Path, tmp_path: Path, collections: list[int]
) -> None:
    db_path = tmp_path / "v.db"
    with VerdictStore.open(db_path) as store:
        store.register(load_reports([scan]), revision="0" * 40)
    del collections[:]  # the registering's own
    out = tmp_path / "triaged.sarif"
    result = CliRunner().invoke(
        cli, ["export", "--db", str(db_path), "--format", "sarif", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    # click's own start only (96 when the export was collected)
    assert out.stat().st_size > 100_000 and len(collections) < 5
    assert gc.isenabled()


def test_import_of_many_events_sets_off_no_collection(
    scan: Path, tmp_path: Path, collections: list[int]
) -> None:
    from db.keys import ItemRef

    source = tmp_path / "theirs.db"
    with VerdictStore.open(source) as store:
        reportset = load_reports([scan])
        store.register(reportset, revision="0" * 40)
        (report,) = reportset.reports
        for record in report.records:
            store.give(ItemRef.for_record(report, record), "refuted", reviewer="bob")
    events = tmp_path / "bob.jsonl"
    runner = CliRunner()
    exported = runner.invoke(cli, ["export", "--db", str(source), "--out", str(events)])
    assert exported.exit_code == 0, exported.output
    del collections[:]
    result = runner.invoke(cli, ["import", str(events), "--db", str(tmp_path / "mine.db")])
    assert result.exit_code == 0 and "3000 new" in result.output, result.output
    assert len(collections) < 5  # click's own start only (13 when the import was collected)
    assert gc.isenabled()
