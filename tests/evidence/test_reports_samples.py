"""The project's own sample reports (sample_data/reports): counts, and every quote of the key.

These always run. The answer key in sample_data/README.md lists every quote marker with its
report line, record, cited path and claimed range; the parser must find exactly those.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from evidence.model import Kind, Report
from evidence.reports.loading import load_reports
from evidence.reports.parser import parse_report

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_data" / "reports"
KEY = ROOT / "sample_data" / "README.md"
RUNTIME = "kestrel-runtime-report.txt"
WORKFLOW = "kestrel-workflow-report.txt"
CITED = "802776dd27b8c567fc18b46afc7b0cf64426b1f9"

Row = tuple[str, int, str, str, tuple[int, int] | None]


def parse(name: str) -> Report:
    return parse_report((SAMPLES / name).read_bytes(), name)


def answer_key() -> list[Row]:
    """(report, marker line, record, cited path, claimed) for each row of the key."""
    text = KEY.read_text(encoding="utf-8")
    table = text.split("<!-- answer-key:start -->", 1)[1].split("<!-- answer-key:end -->", 1)[0]
    rows: list[Row] = []
    for line in table.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 5 or not cells[1].isdigit():
            continue
        report, marker, record, path, claimed = cells[:5]
        span = None
        if claimed != "-":
            first, _, last = claimed.partition("-")
            span = (int(first), int(last or first))
        rows.append((report, int(marker), record, path, span))
    return rows


def test_runtime_counts() -> None:
    report = parse(RUNTIME)
    assert report.system == "Kestrel"
    assert Counter(r.kind for r in report.records) == {
        Kind.NARRATIVE: 3,
        Kind.COMPONENT: 2,
        Kind.OBJECT: 2,
        Kind.ROUTE: 3,
        Kind.CLAIM: 2,
        Kind.ABSENCE: 2,
        Kind.AUTHORITY: 1,
    }
    assert sum(len(r.quotes) for r in report.records) == 21
    assert sum(len(r.citations) for r in report.records) == 12
    assert [m.line for m in report.revisions] == [11, 177]
    assert {m.sha for m in report.revisions} == {CITED}
    (search,) = [s for r in report.records for s in r.searches]
    assert (search.record, search.pattern, search.paths, search.line) == (
        "KS-ABS-station-list",
        "require_token",
        ("api/server.py",),
        177,
    )
    routes = [r for r in report.records if r.kind is Kind.ROUTE]
    assert all(
        r.statuses == (("implementation", "wired"), ("operation", "uninspected")) for r in routes
    )
    assert [len(r.fields) for r in routes] == [4, 3, 0]
    assert report.diagnostics == ()


def test_workflow_counts() -> None:
    report = parse(WORKFLOW)
    assert Counter(r.kind for r in report.records) == {Kind.NARRATIVE: 4, Kind.ANNOTATION: 3}
    assert [r.annotates for r in report.records if r.kind is Kind.ANNOTATION] == [
        "KS-RTE-ticket-escalation",
        "KS-RTE-note-sync",
        "KS-CLM-append-only-archive",
    ]
    assert sum(len(r.quotes) for r in report.records) == 13
    assert [c.paths for r in report.records for c in r.citations][0] == (
        "web/src/api/client.ts",
        "api/server.py",
        "worker/src/digest.js",
    )
    assert [m.sha for m in report.revisions] == [CITED]
    assert report.diagnostics == ()


def test_every_quote_of_the_answer_key() -> None:
    key = answer_key()
    assert len(key) == 34
    found = [
        (name, q.report_line, q.record, q.path, q.claimed)
        for name in (RUNTIME, WORKFLOW)
        for r in parse(name).records
        for q in r.quotes
    ]
    assert found == key


@pytest.mark.parametrize("name", [RUNTIME, WORKFLOW])
def test_quote_text_is_the_report_text(name: str) -> None:
    lines = (SAMPLES / name).read_text(encoding="utf-8").split("\n")
    for record in parse(name).records:
        for quote in record.quotes:
            marker = lines[quote.report_line - 1]
            if quote.text_line == quote.report_line:
                assert marker.startswith(quote.text + " --- ")
            else:
                block = "\n".join(lines[quote.text_line - 1 : quote.report_line])
                assert block.startswith(quote.text)
                assert re.fullmatch(r"---\s+\S+", block[len(quote.text) :].strip())


def test_block_quotes_are_verbatim_lines() -> None:
    api = parse(RUNTIME).record("KS-CMP-api-server")
    assert api is not None
    block = api.quotes[0]
    assert (block.text_line, block.report_line, block.inline) == (39, 48, False)
    assert len(block.text.split("\n")) == 8
    assert block.text.startswith("    header = ")


def test_both_reports_resolve_each_other() -> None:
    reportset = load_reports([SAMPLES])
    assert [Path(r.file).name for r in reportset.reports] == [RUNTIME, WORKFLOW]
    assert reportset.diagnostics == ()
    assert len(reportset.annotations_for("KS-RTE-ticket-escalation")) == 1
    assert reportset.revision_ids() == (CITED,)
