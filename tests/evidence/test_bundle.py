"""The JSON bundle: round trips, bundles written by other tools, and clear errors."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from evidencekit import RUNTIME, WORKFLOW

from evidence.model import Kind, Quote, ReportSet
from evidence.reports.bundle import dump_bundle, load_bundle
from evidence.reports.loading import ReportError, load_reports


def through_json(reportset: ReportSet) -> ReportSet:
    return load_bundle(json.loads(json.dumps(dump_bundle(reportset))), "bundle.json")


@pytest.fixture
def heron(tmp_path: Path) -> ReportSet:
    (tmp_path / "heron-runtime.txt").write_text(RUNTIME, encoding="utf-8")
    (tmp_path / "heron-workflow.txt").write_text(WORKFLOW, encoding="utf-8")
    return load_reports([tmp_path])


def test_round_trip_is_equal(heron: ReportSet) -> None:
    again = through_json(heron)
    assert again == heron
    assert again.diagnostics == heron.diagnostics != ()


def test_contract_keys(heron: ReportSet) -> None:
    data = dump_bundle(heron)
    report = data["reports"][0]
    assert {"file", "title", "revisions", "records", "diagnostics"} <= set(report)
    route = next(r for r in report["records"] if r["id"] == "RT-RTE-job-loop")
    assert {
        "id",
        "kind",
        "label",
        "annotates",
        "fields",
        "statuses",
        "references",
        "quotes",
        "citations",
    } <= set(route)
    assert route["kind"] == "route" and route["annotates"] is None
    assert route["quotes"][0] == {
        "path": "worker/main.py",
        "claimed": [20, 21],
        "report_line": 47,
        "text_line": 46,
        "text": "  for job in queue.take():\n      planner.run(job)",
        "inline": False,
        "index": 0,
    }
    assert route["quotes"][1]["claimed"] is None
    workflow = data["reports"][1]
    assert workflow["records"][1]["annotates"] == "RT-RTE-job-loop"
    assert workflow["records"][1]["kind"] == "annotation"


def test_round_trip_of_reference_reports(shared_reports: Path) -> None:
    reportset = load_reports([shared_reports])
    assert through_json(reportset) == reportset


def test_bundle_file_loads_like_the_reports(heron: ReportSet, tmp_path: Path) -> None:
    path = tmp_path / "out" / "heron.json"
    path.parent.mkdir()
    path.write_text(json.dumps(dump_bundle(heron), ensure_ascii=False), encoding="utf-8")
    assert load_reports([path]) == heron
    # a directory with a bundle in it loads the bundle
    assert load_reports([path.parent]) == heron


def test_minimal_bundle_from_another_tool() -> None:
    data: dict[str, Any] = {
        "reports": [
            {
                "file": "notes.txt",
                "title": "Kite workflow report",
                "records": [
                    {
                        "id": "RT-CLM-limit",
                        "kind": "claim",
                        "fields": {"Scope": "uploads"},
                        "quotes": [
                            {"path": "api/upload.py", "claimed": [40, 42], "text": "MAX = 10"},
                            {"path": "api/upload.py", "claimed": 7, "text": "x", "report_line": 9},
                        ],
                    }
                ],
            }
        ]
    }
    reportset = load_bundle(data, "other.json")
    (report,) = reportset.reports
    assert report.system == "Kite"
    (record,) = report.records
    assert (record.kind, record.report, record.fields) == (
        Kind.CLAIM,
        "notes.txt",
        (("Scope", "uploads"),),
    )
    assert record.quotes == (
        Quote("MAX = 10", "api/upload.py", (40, 42), 0, 0, "RT-CLM-limit", 0),
        Quote("x", "api/upload.py", (7, 7), 9, 9, "RT-CLM-limit", 1),
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "other.json: bundle: expected an object, found a list"),
        ({}, "not an assay bundle"),
        ({"reports": [], "format": "x"}, "format: expected 'assay-bundle'"),
        ({"reports": [], "version": 99}, "unsupported bundle version 99"),
        ({"reports": {}}, "bundle.reports: expected a list, found an object"),
        ({"reports": [{"title": "t"}]}, "bundle.reports[0]: missing 'file'"),
        (
            {"reports": [{"file": "f", "records": [{"id": "x", "kind": "thing"}]}]},
            "bundle.reports[0].records[0].kind: unknown kind 'thing'",
        ),
        (
            {"reports": [{"file": "f", "records": [{"id": 3, "kind": "claim"}]}]},
            "bundle.reports[0].records[0].id: expected a string, found a number",
        ),
        (
            {"reports": [{"file": "f", "records": [{"id": "x", "kind": "claim", "quotes": [{}]}]}]},
            "records[0].quotes[0]: missing 'text'",
        ),
        (
            {
                "reports": [
                    {
                        "file": "f",
                        "records": [
                            {
                                "id": "x",
                                "kind": "claim",
                                "quotes": [{"text": "t", "path": "p", "claimed": [1, "2"]}],
                            }
                        ],
                    }
                ]
            },
            "quotes[0].claimed: expected [first, last] line numbers or null",
        ),
        (
            {"reports": [{"file": "f", "records": [{"id": "x", "kind": "claim", "lines": 1.5}]}]},
            "records[0].lines: expected [first, last]",
        ),
    ],
)
def test_bad_bundles_name_the_problem(data: object, message: str) -> None:
    with pytest.raises(ReportError, match=re.escape(message)):
        load_bundle(data, "other.json")
