"""The report parser on small reports written for these tests: each format feature on its own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from evidencekit import RUNTIME, WORKFLOW

from evidence.model import Kind, Report
from evidence.reports.loading import ReportError, load_reports
from evidence.reports.parser import parse_report
from evidence.reports.vocabulary import LINE_MAX, is_path_like, slugify, split_claimed


def runtime() -> Report:
    return parse_report(RUNTIME, "heron-runtime.txt")


def test_title_type_system_and_identity() -> None:
    report = runtime()
    assert report.title == "Heron runtime report"
    assert report.type_line.endswith("agentic-system-runtime-report.md")
    assert report.system == "Heron"
    assert report.identity == "Heron/agentic-system-runtime-report"
    assert report.diagnostics == ()


def test_records_in_report_order_with_kinds_and_sections() -> None:
    report = runtime()
    assert [(r.id, r.kind, r.section) for r in report.records] == [
        ("runtime:scope-and-sources", Kind.NARRATIVE, "Scope and sources"),
        ("runtime:failure-handling", Kind.NARRATIVE, "Failure handling"),
        ("RT-CMP-planner", Kind.COMPONENT, "Components"),
        ("RT-RTE-job-loop", Kind.ROUTE, "Routes"),
        ("RT-CLM-exactly-once", Kind.CLAIM, "Claims"),
        ("RT-ABS-no-lock", Kind.ABSENCE, "Evidenced absences"),
    ]
    planner = report.record("RT-CMP-planner")
    assert planner is not None
    assert planner.label == "Planner process"
    assert planner.lines == (21, 27)
    assert planner.report == "heron-runtime.txt"
    assert "Label:" not in planner.body
    assert planner.body.startswith("Identity: the planner")


def test_fields_and_statuses() -> None:
    route = runtime().record("RT-RTE-job-loop")
    assert route is not None
    assert route.fields == (
        ("Immediate return", "job status."),
        ("Later read-back", "status row in jobs table."),
    )
    assert route.statuses == (("implementation", "wired"), ("operation", "uninspected"))
    absence = runtime().record("RT-ABS-no-lock")
    assert absence is not None
    assert absence.statuses == (("implementation", "absent"),)
    assert absence.fields == ()


def test_inline_quote_with_range() -> None:
    narrative = runtime().records[1]
    (quote,) = narrative.quotes
    assert quote.text == "delay = base * 2 ** attempt"
    assert quote.path == "worker/retry.py"
    assert quote.claimed == (14, 14)
    assert (quote.report_line, quote.text_line) == (15, 15)
    assert quote.inline
    assert quote.record == "runtime:failure-handling"


@pytest.mark.parametrize(
    ("marker", "claimed"),
    [
        ("worker/retry.py:14-15", (14, 15)),
        ("worker/retry.py:L14-L15", (14, 15)),  # GitHub's line names after a colon
        ("worker/retry.py:L14", (14, 14)),
        ("worker/retry.py:14:9", (14, 14)),  # line and column, as compilers print them
        ("worker/retry.py#L14C1-L15C30", (14, 15)),  # GitHub's range with columns
        ("`worker/retry.py:14-15`", (14, 15)),  # Markdown's code span kept in the text
        ("`worker/retry.py`:14", (14, 14)),
        ("**worker/retry.py:14**", (14, 14)),
        ("worker/retry.py:14.", (14, 14)),  # the sentence's full stop
        ("worker/retry.py", None),
        ("worker/retry.py, lines 14-15", (14, 15)),  # the range as a sentence writes it
        ("worker/retry.py (line 14)", (14, 14)),
        ("worker/retry.py: 14", (14, 14)),
        ("worker/retry.py lines 14 to 15.", (14, 15)),
        ("worker\\retry.py:14", (14, 14)),  # written on Windows
        # a code host's permalink, bare or behind a Markdown link's text
        (f"https://github.com/org/kestrel/blob/{'a1' * 20}/worker/retry.py#L14-L15", (14, 15)),
        ("https://gitlab.com/org/kestrel/-/blob/a1b2c3d/worker/retry.py#L14-15", (14, 15)),
        ("https://bitbucket.org/org/kestrel/src/a1b2c3d/worker/retry.py#lines-14:15", (14, 15)),
        ("https://codeberg.org/org/kestrel/src/commit/a1b2c3d/worker/retry.py#L14", (14, 14)),
        ("[worker/retry.py](https://github.com/o/k/blob/a1b2c3d/worker/retry.py#L14).", (14, 14)),
        ("[the retry](https://github.com/o/k/blob/a1b2c3d/worker/retry.py#L14-L15)", (14, 15)),
        ("[`worker/retry.py:14`](worker/retry.py)", (14, 14)),  # a relative link: its text's lines
        ("[`retry.py:14`](worker/retry.py)", (14, 14)),
    ],
)
def test_marker_forms_reports_are_written_in(marker: str, claimed: tuple[int, int] | None) -> None:
    line = f"delay = base * 2 ** attempt --- {marker}"
    report = parse_report(f"T report\n\nType: t\n\nA account\n\nPart\n\n{line}\n", "m.txt")
    (quote,) = report.records[0].quotes
    assert (quote.text, quote.path, quote.claimed) == (
        "delay = base * 2 ** attempt",
        "worker/retry.py",
        claimed,
    )
    assert not [d for d in report.diagnostics if "quote" in d.message]


@pytest.mark.parametrize(
    "marker",
    [
        '"docs/User Guide.md":3',
        "'docs/User Guide.md:3'",
        "`docs/User Guide.md`:3",
        '"docs/User Guide.md:3".',
        "“docs/User Guide.md”:3",  # a word processor's quotes
    ],
)
def test_a_path_with_spaces_is_read_in_quotes(marker: str) -> None:
    line = f"Run the tool twice. --- {marker}"
    report = parse_report(f"T report\n\nType: t\n\nA account\n\nPart\n\n{line}\n", "s.txt")
    (quote,) = report.records[0].quotes
    assert (quote.text, quote.path, quote.claimed) == (
        "Run the tool twice.",
        "docs/User Guide.md",
        (3, 3),
    )


def test_a_path_with_spaces_unquoted_is_said_not_dropped() -> None:
    lines = (
        "Run the tool twice. --- docs/User Guide.md:3\n\nA prose dash --- like this one, here.\n"
    )
    report = parse_report(f"T report\n\nType: t\n\nA account\n\nPart\n\n{lines}", "s.txt")
    assert report.records[0].quotes == ()
    said = [d.message for d in report.diagnostics if "path with spaces" in d.message]
    assert said == [
        "line ends in '--- docs/User Guide.md:3': a path with spaces is read in quotes "
        '("dir/a file.md":3); not read as a quote'
    ]


def test_indented_block_and_block_with_marker_alone() -> None:
    route = runtime().record("RT-RTE-job-loop")
    assert route is not None
    first, second = route.quotes
    assert first.text == "  for job in queue.take():\n      planner.run(job)"
    assert (first.path, first.claimed) == ("worker/main.py", (20, 21))
    assert (first.text_line, first.report_line, first.inline) == (46, 47, False)
    assert second.text == "    def take(self):\n        return self._pending.pop(0)"
    assert (second.path, second.claimed) == ("worker/queue.py", None)
    assert (second.text_line, second.report_line) == (49, 52)
    assert [q.index for q in route.quotes] == [0, 1]
    # quoted lines are not fields, statuses or citations
    assert len(route.fields) == 2


def test_bulleted_quote_keeps_its_bullets() -> None:
    claim = runtime().record("RT-CLM-exactly-once")
    assert claim is not None
    (quote,) = claim.quotes
    assert quote.text == "  • Each job runs once.\n  • Never twice."
    assert (quote.path, quote.text_line, quote.report_line) == ("docs/guarantees.md", 60, 61)
    assert claim.fields == ()


def test_citation_forms() -> None:
    report = runtime()
    scope = report.records[0]
    (citation,) = scope.citations
    assert (citation.source, citation.paths, citation.line) == (
        "SRC-1",
        ("worker/main.py", "worker/queue.py"),
        9,
    )
    (bracketed,) = report.records[1].citations
    assert bracketed.paths == ("worker/retry.py",)
    workflow = parse_report(WORKFLOW, "w.txt")
    (bare,) = workflow.records[0].citations
    assert bare.paths == ("worker/main.py", "worker/queue.py")  # worker/extra.py is prose


@pytest.mark.parametrize(
    ("line", "paths"),
    [
        ("(SRC-1, a/b.py, implementation)", ("a/b.py",)),
        ("(SRC-2, docs/x.md, doctrine/design)", ("docs/x.md",)),
        ("(SRC-1, a.js, Dockerfile, compose.yml)", ("a.js", "Dockerfile", "compose.yml")),
        ("(SRC-1, a.py; RT-RTE-x)", ("a.py",)),
        ("see SRC-1, a.md and b.md in full", ("a.md", "b.md")),
        ("within SRC-1, au.md.", ("au.md",)),
        ("SRC-1: x/y.ts, x/z.tsx.", ("x/y.ts", "x/z.tsx")),
        ("(SRC-1, docs/User Guide.md, src/a.py)", ("docs/User Guide.md", "src/a.py")),
        ("(SRC-1, `Program Files/app.exe`, a.js)", ("Program Files/app.exe", "a.js")),
        ("(SRC-1, a.js, assets/My Logo.png).", ("a.js", "assets/My Logo.png")),
        ("(SRC-1, src/lib used by docs.md)", ("src/lib",)),  # a directory, then prose
        # as Markdown, exporters and web frameworks write them
        ("(SRC-1, `src/server.js`, `src/gone.js`)", ("src/server.js", "src/gone.js")),
        ("[SRC-1: src/server.js; src/gone.js]", ("src/server.js", "src/gone.js")),
        ("(SRC-1, /src/gone.js)", ("src/gone.js",)),
        (
            "(SRC-1, app/(auth)/login/page.tsx, pages/[id]/index.tsx, a.js)",
            ("app/(auth)/login/page.tsx", "pages/[id]/index.tsx", "a.js"),
        ),
        ("See (SRC-1, “docs/User Guide.md”, a.js).", ("docs/User Guide.md", "a.js")),
        # a link in the list: the file a code host's or a relative link goes to; one to no
        # file is passed over, the list read on
        (
            f"Evidence: SRC-1 — [x](https://github.com/o/r/blob/{'a' * 40}/api/x.py#L7), b.py.",
            ("api/x.py:7-7", "b.py"),
        ),
        ("(SRC-1, [a.py](src/a.py#L3-L4), [b](../lib/b.js))", ("src/a.py:3-4", "lib/b.js")),
        ("SRC-1: [README](https://example.com/readme), src/a.py", ("src/a.py",)),
    ],
)
def test_citation_variants(line: str, paths: tuple[str, ...]) -> None:
    report = parse_report(f"T report\n\nType: t\n\nA account\n\nPart\n\n{line}\n", "c.txt")
    (citation,) = report.records[0].citations
    assert citation.paths == paths


@pytest.mark.parametrize(
    "line",
    ["Evidence is SRC-1 implementation at the revision.", "in SRC-1, at the frozen commit", "x"],
)
def test_not_citations(line: str) -> None:
    report = parse_report(f"T report\n\nType: t\n\nA account\n\nPart\n\n{line}\n", "c.txt")
    assert report.records[0].citations == ()


def test_revision_and_search_replays() -> None:
    report = runtime()
    (mention,) = report.revisions
    assert mention.sha == "0123456789abcdef0123456789abcdef01234567"
    assert mention.line == 71
    assert mention.sentence.startswith("At revision 0123")
    assert mention.sentence.endswith("finds nothing.")
    absence = report.record("RT-ABS-no-lock")
    assert absence is not None
    rg, grep = absence.searches
    assert rg.command == "rg -n 'acquire_lock' worker/"
    assert (rg.tool, rg.pattern, rg.flags, rg.paths) == (
        "rg",
        "acquire_lock",
        ("-n",),
        ("worker/",),
    )
    assert (rg.line, rg.record) == (71, "RT-ABS-no-lock")
    assert rg.sentence == mention.sentence
    assert grep.command == 'grep -rn "with_lock" planner/core.py'
    assert (grep.pattern, grep.flags, grep.paths) == ("with_lock", ("-rn",), ("planner/core.py",))
    assert grep.sentence.startswith("Also grep")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("run `git grep -n needle -- src/app.py` to see", ("git grep", "needle", ("src/app.py",))),
        ("rg -e 'a b' -g '*.py' lib/ and more", ("rg", "a b", ("lib/",))),
        ("grep needle", None),  # a bare word and nothing else is prose, not a command
        ("we rg nothing here", None),
        ("a grep -r over the tree found nothing", None),  # a flag, then prose
        ("grep -n output:", None),
        ("run `rg -n token` first", ("rg", "token", ())),  # in a code span: a command
        ("rg -n checkAuth found it", ("rg", "checkAuth", ())),  # not a word of a sentence
    ],
)
def test_search_variants(text: str, expected: tuple[str, str, tuple[str, ...]] | None) -> None:
    report = parse_report(f"T report\n\nType: t\n\nA account\n\nPart\n\n{text}\n", "s.txt")
    searches = report.records[0].searches
    if expected is None:
        assert searches == ()
    else:
        (search,) = searches
        assert (search.tool, search.pattern, search.paths) == expected


def test_references_exclude_self_and_keep_order() -> None:
    report = runtime()
    assert report.records[0].references == ("RT-RTE-job-loop",)
    route = report.record("RT-RTE-job-loop")
    assert route is not None
    assert route.references == ()


def test_annotations_numbered_per_target() -> None:
    workflow = parse_report(WORKFLOW, "heron-workflow.txt")
    annotations = [r for r in workflow.records if r.kind is Kind.ANNOTATION]
    assert [(r.id, r.annotates, r.lines) for r in annotations] == [
        ("On RT-RTE-job-loop", "RT-RTE-job-loop", (19, 21)),
        ("On RT-CMP-planner", "RT-CMP-planner", (23, 25)),
        ("On RT-RTE-job-loop (2)", "RT-RTE-job-loop", (27, 29)),
    ]
    assert annotations[2].references == ("RT-CLM-missing",)
    assert workflow.diagnostics == ()


def test_none_sections_make_no_records_and_no_diagnostics() -> None:
    report = runtime()
    assert not any(r.kind in (Kind.OBJECT, Kind.AUTHORITY, Kind.ANNOTATION) for r in report.records)
    assert report.diagnostics == ()


def test_narrative_ids_are_stable_and_unique() -> None:
    text = "S workflow report\n\nType: a/b-workflow-report.md\n\nWorkflow account\n\n"
    text += "Steps\n\none.\n\nSteps\n\ntwo.\n\nÜber die Grenze\n\nthree.\n"
    ids = [r.id for r in parse_report(text, "x.txt").records]
    assert ids == ["workflow:steps", "workflow:steps-2", "workflow:uber-die-grenze"]
    assert ids == [r.id for r in parse_report(text.replace("\n", "\r\n"), "y.txt").records]


def test_headings_in_other_scripts_keep_their_own_ids_in_any_order() -> None:
    """A heading without ASCII letters had the id every such heading shared, numbered in its
    order: a version of the report that added or moved one gave its verdicts to another."""
    head = "S workflow report\n\nType: a/b-workflow-report.md\n\nWorkflow account\n\n"
    parts = [
        "依頼と経路\n\none.\n\n",
        "Проверка связи\n\ntwo.\n\n",
        "परीक्षण और प्रमाण\n\nthree.\n\n",
    ]
    ids = [r.id for r in parse_report(head + "".join(parts), "x.txt").records]
    assert ids == ["workflow:依頼と経路", "workflow:проверка-связи", "workflow:परीक्षण-और-प्रमाण"]
    moved = [r.id for r in parse_report(head + "".join(parts[::-1]), "x.txt").records]
    assert moved == ids[::-1]
    # a heading with an ASCII letter or digit keeps the id it had, as do headings with nothing
    # to keep (the verdicts given on them stay theirs)
    assert slugify("Évaluation 2") == "evaluation-2" and slugify("検証 2") == "2"
    assert slugify("— · —") == "section" and slugify("検\u202e証\x07") == "検-証"


def test_text_before_any_heading_is_kept_in_a_narrative() -> None:
    text = "R workflow report\n\nType: x/y-workflow-report.md\n\nWorkflow account\n\nLoose text.\n"
    report = parse_report(text, "x")
    (record,) = report.records
    assert (record.id, record.kind, record.body) == (
        "workflow:workflow-account",
        Kind.NARRATIVE,
        "Loose text.",
    )


def test_crlf_bom_and_tabs() -> None:
    plain = runtime()
    damaged = parse_report(("\ufeff" + RUNTIME).replace("\n", "\r\n").encode(), "heron-runtime.txt")
    assert damaged == plain
    tabbed = RUNTIME.replace("  for job in queue.take():", "\tfor job in queue.take():")
    route = parse_report(tabbed, "t.txt").record("RT-RTE-job-loop")
    assert route is not None
    assert route.quotes[0].text.startswith("\tfor job")


def test_invalid_utf8_is_replaced_with_a_diagnostic_on_its_line() -> None:
    data = RUNTIME.encode().replace(b"pulls jobs", b"pulls \xff\xfe jobs")
    report = parse_report(data, "bad.txt")
    assert report.diagnostics[0].line == 9
    assert "UTF-8" in report.diagnostics[0].message
    assert "\ufffd" in report.records[0].body
    assert len(report.records) == len(runtime().records)


@pytest.mark.parametrize("text", ["", "\n\n  \n", b"", b"\xef\xbb\xbf"])
def test_empty_report(text: str | bytes) -> None:
    report = parse_report(text, "empty.txt")
    assert report.records == ()
    assert report.title == ""
    assert [d.message for d in report.diagnostics] == ["the report is empty"]


def test_structural_oddities_become_diagnostics_with_lines() -> None:
    text = (
        "Odd runtime report\n\nType: t\n\nShared records\n\nstray words\n\nRoutes\n\n"
        "RT-CLM-misfiled\n\n--- a.py\n\nx --- b.py:9-3\n\nRT-CLM-misfiled\n\nLabel: again\n"
    )
    report = parse_report(text, "odd.txt")
    assert [(d.line, d.message) for d in report.diagnostics] == [
        (7, "text outside any record"),
        (11, "RT-CLM-misfiled is listed under 'Routes'"),
        (11, "RT-CLM-misfiled has no 'Label:' line"),
        (13, "'--- path' marker with no quoted text"),
        (15, "odd line range 9-3 for b.py"),
        (17, "RT-CLM-misfiled is listed under 'Routes'"),
        (17, "RT-CLM-misfiled is declared twice"),
    ]
    (quote,) = report.records[0].quotes
    assert quote.claimed == (9, 3)  # kept as the report wrote it


def test_missing_structure_is_reported_not_raised() -> None:
    report = parse_report("just some words\nand more", "prose.txt")
    messages = [d.message for d in report.diagnostics]
    assert messages == ["no 'Type:' line after the title", "no 'Shared records' section"]
    assert report.title == "just some words"


def test_kind_heading_without_shared_records_heading() -> None:
    text = RUNTIME.replace("Shared records\n\n", "")
    report = parse_report(text, "x.txt")
    assert [r.id for r in report.records] == [r.id for r in runtime().records]
    assert [d.message for d in report.diagnostics] == [
        "'Components' heading outside 'Shared records'"
    ]


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("src/a.js", True),
        ("au-mcp.md", True),
        ("Dockerfile", True),
        ("doctrine/design", False),
        ("implementation", False),
        ("really", False),
        ("RT-RTE-x", False),
        ("/", False),
        ("3.5", False),
    ],
)
def test_path_like(token: str, expected: bool) -> None:
    assert is_path_like(token) is expected


def test_split_claimed() -> None:
    assert split_claimed("a.py:3-9") == ("a.py", (3, 9))
    assert split_claimed("a.py:42") == ("a.py", (42, 42))
    assert split_claimed("a.py#L3-L9") == ("a.py", (3, 9))
    assert split_claimed("a.py") == ("a.py", None)
    assert split_claimed("a.rs:3..9") == ("a.rs", (3, 9))  # a range as Rust writes it


def test_a_marker_range_in_parentheses_or_as_rust_writes_it_is_read() -> None:
    # both were "not read as a quote": a path with its lines as a sentence or a language says them
    from evidence.reports.vocabulary import marker_token

    assert marker_token("src/a.py (3-9)") == "src/a.py:3-9"
    assert marker_token("src/a.py (3)") == "src/a.py:3-3"
    assert marker_token("src/a.py lines 3..9") == "src/a.py:3-9"
    assert marker_token("src/a.py (see 3-9)") == "src/a.py (see 3-9)"


def test_slugify() -> None:
    assert slugify("Request, context and handoffs") == "request-context-and-handoffs"


# --- loading -------------------------------------------------------------------------------------


def write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.write_text(text, encoding="utf-8")
    return path


def test_load_directory_resolves_across_reports(tmp_path: Path) -> None:
    write(tmp_path, "a-runtime.txt", RUNTIME)
    write(tmp_path, "b-workflow.txt", WORKFLOW)
    write(tmp_path, "README.md", "# Notes about these reports\n\nnot a report\n")
    write(tmp_path, "notes.json", '{"other": 1}')
    reportset = load_reports([tmp_path])
    assert [Path(r.file).name for r in reportset.reports] == ["a-runtime.txt", "b-workflow.txt"]
    assert reportset.reports[0].file == str(tmp_path / "a-runtime.txt")
    assert [d.message for _, d in reportset.diagnostics] == [
        "On RT-RTE-job-loop (2) mentions RT-CLM-missing; no loaded report declares it"
    ]
    assert [r.id for r in reportset.annotations_for("RT-RTE-job-loop")] == [
        "On RT-RTE-job-loop",
        "On RT-RTE-job-loop (2)",
    ]


def test_a_directory_reads_reports_under_every_text_suffix(tmp_path: Path) -> None:
    # a folder of .markdown, .rst or .adoc reports was "no reports in this directory"
    for name in ("a.markdown", "b.rst", "c.adoc", "d.mdx"):
        write(tmp_path, name, RUNTIME if name < "c" else WORKFLOW)
    write(tmp_path, "guide.rst", "Operating the archive\n=====================\n")
    write(tmp_path, "notes.yaml", RUNTIME)  # not a text suffix: never opened
    reportset = load_reports([tmp_path])
    names = [Path(r.file).name for r in reportset.reports]
    assert names == ["a.markdown", "b.rst", "c.adoc", "d.mdx"]


def test_load_alone_reports_unresolved_annotations(tmp_path: Path) -> None:
    path = write(tmp_path, "w.txt", WORKFLOW)
    reportset = load_reports([str(path), path])  # the same file twice loads once
    assert len(reportset.reports) == 1
    found = [(file, d.line, d.message) for file, d in reportset.diagnostics]
    assert (
        str(path),
        7,
        "workflow:selection mentions RT-RTE-job-loop; no loaded report declares it",
    ) in found
    assert (
        str(path),
        19,
        "On RT-RTE-job-loop annotates RT-RTE-job-loop; no loaded report declares it",
    ) in found
    assert len(found) == 5


def test_references_resolve_only_within_the_system(tmp_path: Path) -> None:
    write(tmp_path, "a.txt", RUNTIME.replace("Heron runtime", "Osprey runtime"))
    write(tmp_path, "b.txt", WORKFLOW)
    messages = [d.message for _, d in load_reports([tmp_path]).diagnostics]
    assert "On RT-CMP-planner annotates RT-CMP-planner; only reports about osprey declare it" in (
        messages
    )


def test_load_errors(tmp_path: Path) -> None:
    with pytest.raises(ReportError, match="nope.txt: no such file or directory"):
        load_reports([tmp_path / "nope.txt"])
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ReportError, match="no reports in this directory"):
        load_reports([empty])
    bad = write(tmp_path, "bad.json", "{not json")
    with pytest.raises(ReportError, match="bad.json: not valid JSON"):
        load_reports([bad])


def test_ids_with_any_system_prefix() -> None:
    text = RUNTIME.replace("RT-", "KS-").replace(
        "See KS-RTE-job-loop", "X-API-Key and KS-RTE-job-loop"
    )
    report = parse_report(text, "ks.txt")
    assert [r.id for r in report.records][2:4] == ["KS-CMP-planner", "KS-RTE-job-loop"]
    assert report.records[0].references == ("KS-RTE-job-loop",)  # X-API-Key is not an id
    workflow = parse_report(WORKFLOW.replace("RT-", "KS-"), "w.txt")
    assert [r.annotates for r in workflow.records if r.annotates] == [
        "KS-RTE-job-loop",
        "KS-CMP-planner",
        "KS-RTE-job-loop",
    ]


def test_marker_without_a_path_is_diagnosed_not_quoted() -> None:
    text = RUNTIME.replace("class Planner: --- planner/core.py:3-3", "class Planner: --- Planner")
    report = parse_report(text, "x.txt")
    planner = report.record("RT-CMP-planner")
    assert planner is not None and planner.quotes == ()
    assert [(d.line, d.message) for d in report.diagnostics] == [
        (27, "line ends in '--- Planner', which does not look like a path; not read as a quote")
    ]


def test_unreadable_paths_are_report_errors(tmp_path: Path) -> None:
    with pytest.raises(ReportError, match="name.txt: no such file or directory"):
        load_reports(["bad\x00name.txt"])
    listing = tmp_path / "list.json"
    listing.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(ReportError, match="list.json: bundle: expected an object, found a list"):
        load_reports([listing])


def test_bundle_without_json_suffix_is_recognised(tmp_path: Path) -> None:
    from evidence.reports.bundle import dump_bundle

    source = write(tmp_path, "w.txt", WORKFLOW)
    reportset = load_reports([source])
    saved = tmp_path / "saved.out"
    saved.write_text(json.dumps(dump_bundle(reportset)), encoding="utf-8")
    assert load_reports([saved]) == reportset
    curly = write(tmp_path, "curly.txt", "{ not json at all\n")
    (report,) = load_reports([curly]).reports
    assert report.title == "{ not json at all"


def test_indented_block_with_blank_lines_inside() -> None:
    text = RUNTIME.replace(
        "    def take(self):\n",
        "    def __init__(self):\n        self._pending = []\n\n    def take(self):\n",
    )
    route = parse_report(text, "x.txt").record("RT-RTE-job-loop")
    assert route is not None
    block = route.quotes[1]
    assert block.text == (
        "    def __init__(self):\n        self._pending = []\n\n"
        "    def take(self):\n        return self._pending.pop(0)"
    )
    assert (block.text_line, block.report_line) == (49, 55)
    # the indented quote above ends in its own marker, so the block stops there
    assert route.quotes[0].report_line == 47
    # prose above a block is not code: it stays out of the quote
    assert (
        "Its body"
        not in parse_report(
            RUNTIME.replace(
                "  for job in queue.take():\n", "Its body:\n\n  for job in queue.take():\n"
            ),
            "y.txt",
        )
        .records[3]
        .quotes[0]
        .text
    )


def test_quoted_lines_are_never_the_reports_structure() -> None:
    # a quote of a document or of code holding "Shared records", a kind heading, "Annotations"
    # or a record id, indented as quoted text is: the records after it stay where they are
    text = (
        "T runtime report\n\nType: agentic-system-analyses/types/t-runtime-report.md\n\n"
        "Shared records\n\nComponents\n\nTT-CMP-kit\n\nLabel: the kit\n\n"
        "    Shared records\n\n    Claims\n\n    TT-CLM-fake\n\n    Annotations\n\n"
        "    On TT-CMP-kit\n\n--- kit.md:3-11\n\n"
        "TT-CMP-next\n\nLabel: the next one\n\nIt follows.\n"
    )
    report = parse_report(text, "t.txt")
    assert [(r.id, r.kind) for r in report.records] == [
        ("TT-CMP-kit", Kind.COMPONENT),
        ("TT-CMP-next", Kind.COMPONENT),
    ]
    (quote,) = report.records[0].quotes
    assert quote.text.split() == [
        "Shared", "records", "Claims", "TT-CLM-fake", "Annotations", "On", "TT-CMP-kit"
    ]  # fmt: skip
    assert (quote.path, quote.claimed) == ("kit.md", (3, 11))
    assert report.diagnostics == ()


def test_a_blocks_own_trailing_blank_lines_do_not_part_it_from_its_marker() -> None:
    # blank lines of a quoted block kept indented (as an editor copies them) then one empty
    # line: the marker is the block's; two empty lines still part them (a marker with no quote)
    head = "T runtime report\n\nType: t-runtime-report.md\n\nShared records\n\nComponents\n\n"
    block = "TT-CMP-a\n\nLabel: a\n\n    def a():\n        return 1\n    \n    \n"
    report = parse_report(head + block + "\n--- a.py:1-2\n", "t.txt")
    (quote,) = report.records[0].quotes
    assert quote.text.splitlines() == ["    def a():", "        return 1"]
    assert (quote.path, quote.claimed) == ("a.py", (1, 2))
    assert report.diagnostics == ()
    # two paragraphs of one block (Python's two blank lines between functions, kept indented)
    two = "TT-CMP-a\n\nLabel: a\n\n    def a():\n        return 1\n    \n    \n    def b():\n"
    (both,) = parse_report(head + two + "        return 2\n\n--- a.py:1-5\n", "t.txt").records
    assert both.quotes[0].text.split() == [
        "def",
        "a():",
        "return",
        "1",
        "def",
        "b():",
        "return",
        "2",
    ]
    # two empty lines between them: two blocks, the upper one not this marker's (as before)
    apart = two.replace("    \n    \n", "\n\n")
    report = parse_report(head + apart + "        return 2\n\n--- a.py:4-5\n", "t.txt")
    assert report.records[0].quotes[0].text.split() == ["def", "b():", "return", "2"]
    assert any("unattributed" in d.message for d in report.diagnostics)
    parted = parse_report(head + block + "\n\n--- a.py:1-2\n", "t.txt")
    assert parted.records[0].quotes == ()
    assert {d.message for d in parted.diagnostics} >= {"'--- path' marker with no quoted text"}


def test_a_report_indented_as_a_whole_keeps_its_records() -> None:
    # every line indented (a report pasted or exported with a margin): its structure is at the
    # margin, its quoted text past it
    text = (
        "T runtime report\n\nType: agentic-system-analyses/types/t-runtime-report.md\n\n"
        "Shared records\n\nComponents\n\nTT-CMP-kit\n\nLabel: the kit\n\n"
        "    Shared records\n\n--- kit.md:3\n\nTT-CMP-next\n\nLabel: the next one\n"
    )
    flush = parse_report(text, "t.txt")
    margin = parse_report(
        "\n".join("  " + line if line else "" for line in text.split("\n")), "t.txt"
    )
    assert [r.id for r in margin.records] == [r.id for r in flush.records]
    assert [r.id for r in flush.records] == ["TT-CMP-kit", "TT-CMP-next"]
    assert [(r.label, r.quotes) for r in margin.records] == [
        (r.label, r.quotes) for r in flush.records
    ]
    assert [q.text.strip() for q in margin.records[0].quotes] == ["Shared records"]
    assert margin.diagnostics == flush.diagnostics == ()
    # its blank lines carry the margin: two of them still part a paragraph from a marker
    parted = "T runtime report\n\nType: t\n\nShared records\n\nComponents\n\nTT-CMP-a\n\n"
    parted += "Label: a\n\nProse, not a quote\n\n\n--- a.py:1\n"
    indented = "\n".join("  " + line for line in parted.split("\n"))
    assert parse_report(indented, "t.txt").records[0].quotes == ()
    assert parse_report(parted, "t.txt").records[0].quotes == ()


def test_a_report_in_an_8bit_encoding_is_read_as_written() -> None:
    text = "T report\n\nType: t\n\nA account\n\nÜbergabe\n\nDer Dienst prüft es.\n"
    report = parse_report(text.encode("cp1252"), "alt.txt")
    assert report.records[0].label == "Übergabe"
    assert [d.message for d in report.diagnostics if "UTF-8" in d.message] == [
        "report is not UTF-8; read as Windows-1252"
    ]
    astray = parse_report(text.encode() + b"\xff\n", "astray.txt")  # UTF-8, one byte astray
    assert astray.records[0].label == "Übergabe"
    assert [(d.line, d.message) for d in astray.diagnostics if "UTF-8" in d.message] == [
        (10, "invalid UTF-8 bytes decoded with replacement characters (U+FFFD)")
    ]
    # a report in an encoding not read: every line that lost characters is counted
    lost = text.encode() + b"\xff\n\nx \xfe\xfe y\n\n\xfa\n"
    said = [d.message for d in parse_report(lost, "lost.txt").diagnostics if "UTF-8" in d.message]
    assert said == [
        "invalid UTF-8 bytes decoded with replacement characters (U+FFFD) (and on 2 more lines)"
    ]


def test_a_report_in_shift_jis_is_read_as_written() -> None:
    # a report saved by an older Japanese Windows editor ("ANSI" there is Shift-JIS)
    text = "T report\n\nType: t\n\nA account\n\n受信の経路\n\nサービスはメッセージを検証する。\n"
    report = parse_report(text.encode("cp932"), "sjis.txt")
    assert report.records[0].label == "受信の経路"
    assert [d.message for d in report.diagnostics if "UTF-8" in d.message] == [
        "report is not UTF-8; read as Shift-JIS"
    ]


def test_markdown_escapes_and_typographic_dashes_are_read() -> None:
    lines = (
        "delay = base * 2 ** attempt --- worker/my\\_retry.py:14\n\n"  # Markdown's escape
        "delay = base * 2 ** attempt — worker/retry.py:14\n\n"  # SmartyPants' em dash
        "    delay = base * 2 ** attempt\n\n– worker/retry.py:14-14\n"  # an en dash, alone
    )
    report = parse_report(f"T report\n\nType: t\n\nA account\n\nPart\n\n{lines}", "d.txt")
    quotes = report.records[0].quotes
    assert [(q.path, q.claimed) for q in quotes] == [
        ("worker/my_retry.py", (14, 14)),
        ("worker/retry.py", (14, 14)),
        ("worker/retry.py", (14, 14)),
    ]
    assert quotes[2].text.strip() == "delay = base * 2 ** attempt"


def test_a_dash_before_a_path_in_prose_is_said_not_quoted() -> None:
    lines = (
        "The handler is small, and it waits — worker/retry.py:14.\n\n"  # a sentence
        "The handler is small, and it waits — see worker/retry.py.\n\n"  # no lines: nothing
        "delay = base * 2 ** attempt --- worker/retry.py is where\n"
    )
    report = parse_report(f"T report\n\nType: t\n\nA account\n\nPart\n\n{lines}", "p.txt")
    assert report.records[0].quotes == ()
    assert [d.message for d in report.diagnostics if "quote" in d.message] == [
        "prose ending in '— worker/retry.py:14' (a '--- path' marker a renderer made a dash?): "
        "not read as a quote",
        "line ends in '--- worker/retry.py is where', not a path and its lines as a marker gives "
        "them ('--- src/a.js:12-14'); not read as a quote",
    ]


def test_cited_paths_with_markdown_escapes_or_backslashes_are_read() -> None:
    line = "The retry waits between attempts (SRC-1, worker/my\\_retry.py, src\\a.js and b.py).\n"
    report = parse_report(f"T report\n\nType: t\n\nA account\n\nPart\n\n{line}", "c.txt")
    (citation,) = report.records[0].citations
    assert citation.paths == ("worker/my_retry.py", "src/a.js", "b.py")


def test_a_cited_path_with_its_lines_or_as_a_permalink_is_a_citation() -> None:
    link = "https://github.com/o/k/blob/a1b2c3d/worker/retry.py#L14"
    line = f"The retry waits (SRC-1, src/a.js:12-14, src/b.js#L3, {link}, c.py).\n"
    report = parse_report(f"T report\n\nType: t\n\nA account\n\nPart\n\n{line}", "c.txt")
    (citation,) = report.records[0].citations
    # the lines stay as written; what is checked is the file (evidence/citations.py)
    assert citation.paths == ("src/a.js:12-14", "src/b.js#L3", "worker/retry.py:14-14", "c.py")
    from evidence.citations import PathIndex, record_citations

    index = PathIndex(["src/a.js", "src/b.js", "worker/retry.py", "c.py"])
    cited = record_citations(report.records[0], index)
    assert [(c.path, c.state.value) for c in cited] == [
        ("src/a.js", "present"),
        ("src/b.js", "present"),
        ("worker/retry.py", "present"),
        ("c.py", "present"),
    ]


@pytest.mark.parametrize(
    ("marker", "path"),
    [
        ('"docs/Q&A notes.md":3', "docs/Q&A notes.md"),
        ('"docs/User Guide (v2).md":3', "docs/User Guide (v2).md"),
        ("/src/server.js:3", "src/server.js"),  # the repository's root
        ("app/(auth)/login/page.tsx:3", "app/(auth)/login/page.tsx"),
        ("pages/[id]/index.tsx:3", "pages/[id]/index.tsx"),
    ],
)
def test_marker_paths_as_web_frameworks_and_word_processors_name_them(
    marker: str, path: str
) -> None:
    line = f"const app = express(); --- {marker}"
    report = parse_report(f"T report\n\nType: t\n\nA account\n\nPart\n\n{line}\n", "p.txt")
    (quote,) = report.records[0].quotes
    assert (quote.path, quote.claimed) == (path, (3, 3))


@pytest.mark.parametrize("digits", ["99999999999999999999999", "9" * 5000])
def test_a_line_number_past_any_file_is_kept_within_what_can_be_stored(digits: str) -> None:
    # 5,000 digits: Python refuses to convert them; 23: more than SQLite's integers hold
    line = f"const app = express(); --- src/server.js:{digits}"
    report = parse_report(f"T report\n\nType: t\n\nA account\n\nPart\n\n{line}\n", "n.txt")
    (quote,) = report.records[0].quotes
    assert quote.claimed == (LINE_MAX, LINE_MAX) == (2**31 - 1, 2**31 - 1)


def test_a_marker_closing_a_block_quote_takes_the_block() -> None:
    lines = "> if (!token) return res.status(401).end();\n> --- src/server.js:7"
    report = parse_report(f"T report\n\nType: t\n\nA account\n\nPart\n\n{lines}\n", "q.txt")
    (quote,) = report.records[0].quotes
    assert (quote.text, quote.path, quote.claimed) == (
        "> if (!token) return res.status(401).end();",
        "src/server.js",
        (7, 7),
    )


def test_an_id_two_reports_declare_is_said_where_references_go(tmp_path: Path) -> None:
    write(tmp_path, "a-runtime.txt", RUNTIME)
    write(tmp_path, "b-runtime.txt", RUNTIME.replace("RT-CLM-exactly-once", "RT-CLM-only-once"))
    reportset = load_reports([tmp_path])
    twice = [(Path(f).name, d.message) for f, d in reportset.diagnostics if "too;" in d.message]
    first = tmp_path / "a-runtime.txt"
    assert (
        "b-runtime.txt",
        f"RT-RTE-job-loop is declared in {first} too; references go there",
    ) in twice
    assert not [
        message for _, message in twice if "exactly-once" in message or "only-once" in message
    ]
    record = reportset.record("RT-RTE-job-loop")
    assert record is not None and record.report == str(first)


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_byte_order_mark_is_decoded(encoding: str) -> None:
    plain = runtime()
    report = parse_report(RUNTIME.encode(encoding), "heron-runtime.txt")
    assert report.records == plain.records and report.title == plain.title
    said = "report is UTF-16 without a byte-order mark; decoded it"
    assert [d.message for d in report.diagnostics] == [
        said,
        *[d.message for d in plain.diagnostics],
    ]


def test_a_quote_no_record_holds_is_said_to_go_unchecked() -> None:
    # a record id not read as one (or none written) leaves its quote outside any record
    line = "const app = express(1); --- src/server.js:3"
    text = f"T report\n\nType: t\n\nShared records\n\nRoutes\n\n{line}\n\nRT-RTE-x\n\nLabel: x\n"
    report = parse_report(text, "o.txt")
    assert [(d.line, d.message) for d in report.diagnostics] == [
        (9, "a quote ('--- path') outside any record: not read, not checked")
    ]
