"""The five reference reports in ../shared/reports, with counts verified by reading them by hand.

Quote texts are compared with the report's own lines (read here), so no report text is copied
into the project.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from evidence.model import Kind, Report, ReportSet
from evidence.reports.contents import INFERRED, UNATTRIBUTED
from evidence.reports.loading import load_reports
from evidence.reports.parser import parse_report

pytestmark = pytest.mark.reference

FILES = {
    "000": "000_7edf7c9dd51634d1.txt",
    "001": "001_0eba3ac05eae07b6.txt",
    "002": "002_9a9e275ce4aa8975.txt",
    "003": "003_a431aaec74b6a1e4.txt",
    "004": "004_15e26c21bde2c0cc.txt",
}

#: per report: system, member, records per kind, quotes, citations, annotation targets
EXPECTED: dict[str, tuple[str, str, dict[Kind, int], int, int, list[str]]] = {
    "000": (
        "ATLAS",
        "workflow",
        {Kind.NARRATIVE: 5, Kind.ANNOTATION: 1},
        5,
        13,
        ["RT-RTE-chat-tools"],
    ),
    "001": (
        "Echel",
        "workflow",
        {Kind.NARRATIVE: 5, Kind.ANNOTATION: 3},
        3,
        12,
        ["RT-RTE-file-workflow", "RT-RTE-compile-run", "RT-RTE-verify-work"],
    ),
    "002": (
        "ATLAS",
        "runtime",
        {
            Kind.NARRATIVE: 4,
            Kind.COMPONENT: 1,
            Kind.OBJECT: 2,
            Kind.ROUTE: 9,
            Kind.CLAIM: 2,
            Kind.ABSENCE: 1,
            Kind.AUTHORITY: 2,
        },
        28,  # 27 marked, and the paragraph just above one of them (below)
        21,
        [],
    ),
    "003": (
        "Talorys",
        "workflow",
        {Kind.NARRATIVE: 4, Kind.ANNOTATION: 2},
        6,
        12,
        ["RT-RTE-action-approval", "RT-RTE-owner-chat"],
    ),
    "004": (
        "Arsumbris",
        "workflow",
        {Kind.NARRATIVE: 4, Kind.ANNOTATION: 1},
        1,
        5,
        ["RT-RTE-mediated-action"],
    ),
}

#: narrative records: (report, id, first line, last line)
NARRATIVES = [
    ("000", "workflow:selection-and-evidence-boundary", 7, 11),
    ("000", "workflow:request-and-delegation", 13, 23),
    ("000", "workflow:what-counts-as-delivered", 53, 61),
    ("001", "workflow:inspected-scope", 47, 49),
    ("002", "runtime:forcing-cases-and-enforcement-scope", 31, 42),
    ("003", "workflow:rejection-and-recovery", 29, 33),
    ("004", "workflow:request-context-and-handoffs", 13, 28),
]

#: declared records of 002 in report order
RUNTIME_RECORDS = [
    "RT-CMP-llm-client",
    "RT-OBJ-knowledge",
    "RT-OBJ-atlas-db",
    "RT-RTE-chat-tools",
    "RT-RTE-file-extraction",
    "RT-RTE-knowledge-enrichment",
    "RT-RTE-extraction-summary",
    "RT-RTE-record-import",
    "RT-RTE-mcp-query",
    "RT-RTE-knowledge-edit",
    "RT-RTE-config-reload",
    "RT-RTE-module-lifecycle",
    "RT-CLM-data-layer",
    "RT-CLM-additive-knowledge",
    "RT-ABS-rest-auth",
    "RT-BAP-chat-guidance",
    "RT-BAP-native-module",
]


def parse(shared_reports: Path, key: str) -> tuple[Report, list[str]]:
    path = shared_reports / FILES[key]
    data = path.read_bytes()
    return parse_report(data, FILES[key]), data.decode("utf-8").split("\n")


def before_marker(line: str) -> str:
    return line[: line.rindex(" --- ")]


@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_counts(shared_reports: Path, key: str) -> None:
    system, member, kinds, quotes, citations, targets = EXPECTED[key]
    report, _lines = parse(shared_reports, key)
    assert report.system == system
    assert report.type_line.endswith(f"agentic-system-{member}-report.md")
    assert Counter(record.kind for record in report.records) == Counter(kinds)
    assert sum(len(record.quotes) for record in report.records) == quotes
    assert sum(len(record.citations) for record in report.records) == citations
    assert [r.annotates for r in report.records if r.kind is Kind.ANNOTATION] == targets
    assert [r.id for r in report.records if r.kind is Kind.ANNOTATION] == [
        f"On {target}" for target in targets
    ]
    assert all(r.id.startswith(f"{member}:") for r in report.records if r.kind is Kind.NARRATIVE)
    # 002 leaves one code paragraph without a `--- path` (in RT-RTE-module-lifecycle), just
    # above a quote of src/module-loader.js: checked there, and said
    inferred = INFERRED.format(path="src/module-loader.js")
    noted = [(272, inferred)] if key == "002" else []
    assert [(d.line, d.message) for d in report.diagnostics] == noted
    assert not any(d.message == UNATTRIBUTED for d in report.diagnostics)


def test_a_paragraph_just_above_a_quote_is_read_with_its_path(shared_reports: Path) -> None:
    report, lines = parse(shared_reports, "002")
    record = report.record("RT-RTE-module-lifecycle")
    assert record is not None
    first, inferred, marked = record.quotes[:3]
    assert [q.index for q in record.quotes] == list(range(len(record.quotes)))
    assert (inferred.path, inferred.claimed) == ("src/module-loader.js", None)
    assert (inferred.text_line, inferred.report_line) == (272, 272)
    assert inferred.text == lines[271] and inferred.text.startswith("const ctx = ")
    assert not inferred.inline and marked.inline and marked.text_line == 274
    assert first.text_line == 270


@pytest.mark.parametrize(("key", "record_id", "first", "last"), NARRATIVES)
def test_narrative_sections(
    shared_reports: Path, key: str, record_id: str, first: int, last: int
) -> None:
    report, lines = parse(shared_reports, key)
    record = report.record(record_id)
    assert record is not None
    assert record.lines == (first, last)
    assert record.label == lines[first - 1]


def test_runtime_records(shared_reports: Path) -> None:
    report, lines = parse(shared_reports, "002")
    declared = [r for r in report.records if r.kind is not Kind.NARRATIVE]
    assert [r.id for r in declared] == RUNTIME_RECORDS
    for record in declared:
        assert lines[record.lines[0] - 1] == record.id
        assert lines[record.lines[0] + 1] == f"Label: {record.label}"
    routes = [r for r in declared if r.kind is Kind.ROUTE]
    assert all(
        r.statuses == (("implementation", "wired"), ("operation", "uninspected")) for r in routes
    )
    assert all(len(r.fields) == 7 for r in routes)
    assert routes[0].fields[0][0] == "Immediate return"
    absence = report.record("RT-ABS-rest-auth")
    assert absence is not None
    assert absence.statuses == (("implementation", "absent"),)
    assert absence.quotes == ()
    assert absence.references == ("RT-RTE-knowledge-edit", "RT-RTE-mcp-query")
    assert [len(r.quotes) for r in declared] == [2, 3, 2, 2, 3, 2, 1, 1, 2, 1, 1, 3, 1, 2, 0, 1, 1]


def test_revision_and_search(shared_reports: Path) -> None:
    report, _lines = parse(shared_reports, "002")
    (mention,) = report.revisions
    assert mention.sha == "65b91b4fd5d703e8a82ad8fa2a9b8d2f38754988"
    assert mention.line == 311
    (search,) = [s for r in report.records for s in r.searches]
    assert search.command == "rg -n 'checkAuth' src/ui-server.js"
    assert (search.tool, search.pattern, search.flags, search.paths) == (
        "rg",
        "checkAuth",
        ("-n",),
        ("src/ui-server.js",),
    )
    assert (search.line, search.record) == (311, "RT-ABS-rest-auth")
    assert mention.sha in search.sentence and search.command in search.sentence
    assert not any(
        r.searches
        for key in ("000", "001", "003", "004")
        for r in parse(shared_reports, key)[0].records
    )


def test_inline_quotes_with_ranges(shared_reports: Path) -> None:
    report, lines = parse(shared_reports, "000")
    quotes = [q for r in report.records for q in r.quotes]
    ranged = quotes[2]
    assert (ranged.path, ranged.claimed, ranged.report_line, ranged.text_line) == (
        "src/ai/chat.js",
        (325, 329),
        41,
        41,
    )
    assert ranged.text == before_marker(lines[40])
    assert ranged.text.startswith("try {") and ranged.inline
    assert [(q.path, q.report_line) for q in quotes] == [
        ("src/ui/pages/chat.js", 17),
        ("src/ai/chat.js", 37),
        ("src/ai/chat.js", 41),
        ("src/ui/lib/api.js", 47),
        ("src/ui-server.js", 57),
    ]
    runtime, runtime_lines = parse(shared_reports, "002")
    claimed = [
        (q.path, q.claimed, q.report_line) for r in runtime.records for q in r.quotes if q.claimed
    ]
    assert claimed == [("src/ui-server.js", (231, 236), 214), ("src/ui-server.js", (652, 656), 252)]
    inferred = {d.line for d in runtime.diagnostics if d.message.startswith("passage with no")}
    for record in runtime.records:
        for quote in record.quotes:
            assert quote.record == record.id
            last = runtime_lines[quote.report_line - 1]
            if quote.text_line in inferred:  # no marker of its own: its own last line
                assert quote.text.split("\n")[-1] == last
                continue
            assert quote.text.split("\n")[-1] == before_marker(last)


def test_bulleted_quotes_keep_bullets(shared_reports: Path) -> None:
    report, lines = parse(shared_reports, "002")
    claim = report.record("RT-CLM-data-layer")
    assert claim is not None
    (quote,) = claim.quotes
    assert (quote.path, quote.text_line, quote.report_line, quote.inline) == (
        "src/atlas.js",
        284,
        285,
        False,
    )
    assert quote.text == lines[283] + "\n" + before_marker(lines[284])
    assert quote.text.startswith("  • ")
    additive = report.record("RT-CLM-additive-knowledge")
    assert additive is not None
    assert additive.quotes[0].text.startswith("  1. ")
    assert additive.quotes[0].inline
    guidance = report.record("RT-BAP-chat-guidance")
    assert guidance is not None
    assert (guidance.quotes[0].text_line, guidance.quotes[0].report_line) == (321, 322)


def test_block_then_blank_then_marker(shared_reports: Path) -> None:
    report, lines = parse(shared_reports, "004")
    (quote,) = [q for r in report.records for q in r.quotes]
    assert (quote.path, quote.claimed, quote.text_line, quote.report_line) == (
        "au-mcp.md",
        None,
        23,
        26,
    )
    assert quote.text == lines[22] + "\n" + lines[23]
    assert quote.text.startswith("  //")
    assert quote.record == "workflow:request-context-and-handoffs"


def test_markdown_damaged_quote_is_kept_as_written(shared_reports: Path) -> None:
    report, lines = parse(shared_reports, "003")
    annotation = report.record("On RT-RTE-action-approval")
    assert annotation is not None
    assert [q.report_line for q in annotation.quotes] == [67, 71, 75, 79, 83]
    damaged = annotation.quotes[2]
    assert damaged.path == "apps/web/src/components/ApprovalCard.tsx"
    assert damaged.text == before_marker(lines[74])
    assert damaged.text.startswith("{/ ") and damaged.text.endswith(" /}")


def test_citation_styles(shared_reports: Path) -> None:
    echel, _ = parse(shared_reports, "001")
    starting = echel.record("workflow:selected-workflow-and-starting-condition")
    assert starting is not None
    (bare,) = starting.citations  # "SRC-1, a, b and c" in running prose
    assert bare.paths == (
        "src/echel/cli/main.py",
        "src/echel/storage/files.py",
        "src/echel/workflow.py",
    )
    handoff = echel.record("workflow:work-definition-and-context-handoff")
    assert handoff is not None
    assert handoff.citations[-1].paths == ("examples/first-product.md",)  # layer word dropped
    talorys, _ = parse(shared_reports, "003")
    first = talorys.records[0]
    assert [(c.source, c.paths, c.line) for c in first.citations] == [
        ("SRC-1", ("apps/agent/src/tools/notes.ts", "apps/agent/src/tools/registry.ts"), 9)
    ]  # line 11 names paths in prose only
    runtime, _ = parse(shared_reports, "002")
    forcing = runtime.record("runtime:forcing-cases-and-enforcement-scope")
    assert forcing is not None
    assert forcing.citations[0].paths[-2:] == ("Dockerfile", "docker-compose.yml")


def test_annotations_resolve_across_atlas_reports(shared_reports: Path) -> None:
    together: ReportSet = load_reports(
        [shared_reports / FILES["000"], shared_reports / FILES["002"]]
    )
    assert together.diagnostics == ()
    (annotation,) = together.annotations_for("RT-RTE-chat-tools")
    assert annotation.report == str(shared_reports / FILES["000"])
    alone = load_reports([shared_reports / FILES["000"]])
    unresolved = {d.message.split(";")[0].split()[-1] for _, d in alone.diagnostics}
    assert unresolved == {
        "RT-RTE-chat-tools",
        "RT-OBJ-knowledge",
        "RT-CMP-llm-client",
        "RT-ABS-rest-auth",
        "RT-BAP-chat-guidance",
        "RT-RTE-knowledge-enrichment",
    }


def test_directory_loads_every_report_but_not_the_readme(shared_reports: Path) -> None:
    reportset = load_reports([shared_reports])
    assert [Path(r.file).name for r in reportset.reports] == [FILES[key] for key in sorted(FILES)]
    assert all(file.endswith(".txt") for file, _ in reportset.diagnostics)
