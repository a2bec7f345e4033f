"""Property tests: no text makes the parser raise, and what it returns is always consistent."""

from __future__ import annotations

from pathlib import Path

from evidencekit import RUNTIME, WORKFLOW
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evidence.model import Report, ReportSet
from evidence.reports.bundle import dump_bundle, load_bundle
from evidence.reports.files import split_lines
from evidence.reports.parser import decode, parse_report

ROOT = Path(__file__).resolve().parents[2]
REAL = [
    path.read_text(encoding="utf-8")
    for directory in (ROOT.parent / "shared" / "reports", ROOT / "sample_data" / "reports")
    if directory.is_dir()
    for path in sorted(directory.glob("*.txt"))
]
SEEDS = [RUNTIME, WORKFLOW, *REAL]

#: fragments of the format, so that mutations hit the parser's decisions and not just prose
FRAGMENTS = [
    " --- ",
    "--- a.py",
    " --- src/x.js:3-9",
    ":0-",
    "RT-RTE-",
    "RT-CLM-x",
    "On RT-RTE-a",
    "SRC-1, ",
    "[SRC-2: ",
    "(SRC-1, a.md and ",
    "Shared records",
    "Annotations",
    "Routes",
    "Claims",
    "none declared in this member",
    "Label: ",
    "  • ",
    "  1. ",
    "Type: x/y-z-report.md",
    "implementation conclusion status: ",
    "rg -n '",
    "git grep -e ",
    "grep -rn x ",
    "0123456789abcdef0123456789abcdef01234567",
    "\t",
    "\r",
    "\ufeff",
    "\x00",
    "\u2028",
    "'",
    '"',
    "`",
]
garbage = st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=6), max_size=6).map("".join)


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """A real report with lines deleted, duplicated, swapped, cut or replaced with garbage."""
    lines = draw(st.sampled_from(SEEDS)).split("\n")
    for _ in range(draw(st.integers(1, 10))):
        if not lines:
            lines.append(draw(garbage))
            continue
        index = draw(st.integers(0, len(lines) - 1))
        operation = draw(st.sampled_from(["delete", "duplicate", "swap", "insert", "cut", "blank"]))
        if operation == "delete":
            del lines[index]
        elif operation == "duplicate":
            lines.insert(draw(st.integers(0, len(lines))), lines[index])
        elif operation == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            lines[index], lines[other] = lines[other], lines[index]
        elif operation == "insert":
            lines.insert(index, draw(garbage))
        elif operation == "cut":
            line = lines[index]
            at = draw(st.integers(0, len(line)))
            lines[index] = line[:at] + draw(garbage) + line[at:]
        else:
            lines[index] = ""
    return draw(st.sampled_from(["\n", "\r\n"])).join(lines)


def check(report: Report, text: str | bytes) -> None:
    """Invariants every parse result keeps, whatever the input."""
    assert isinstance(report, Report)
    count = max(len(split_lines(decode(text)[0])), 1)
    for diagnostic in report.diagnostics:
        assert 1 <= diagnostic.line <= count
    ids = [record.id for record in report.records]
    for record in report.records:
        assert 1 <= record.lines[0] <= record.lines[1] <= count
        for index, quote in enumerate(record.quotes):
            assert (quote.record, quote.index) == (record.id, index)
            assert record.lines[0] <= quote.text_line <= quote.report_line <= record.lines[1]
            assert quote.path and "\n" not in quote.path
        for search in record.searches:
            assert search.record == record.id and search.command in search.sentence
        for citation in record.citations:
            assert citation.paths
    annotations = [r.id for r in report.records if r.annotates is not None]
    assert len(set(annotations)) == len(annotations)
    assert len(ids) == len(report.records)
    reportset = ReportSet(reports=(report,))
    assert load_bundle(dump_bundle(reportset), "b.json") == reportset


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_arbitrary_text(text: str) -> None:
    check(parse_report(text, "any.txt"), text)


@settings(max_examples=200, deadline=None)
@given(st.binary())
def test_arbitrary_bytes(data: bytes) -> None:
    check(parse_report(data, "any.txt"), data)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_real_reports(text: str) -> None:
    check(parse_report(text, "mutated.txt"), text)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(), st.binary(min_size=1, max_size=4))
def test_mutated_real_reports_with_bad_bytes(text: str, noise: bytes) -> None:
    data = text.encode("utf-8")
    middle = len(data) // 2
    data = data[:middle] + noise + data[middle:]
    check(parse_report(data, "mutated.txt"), data)
