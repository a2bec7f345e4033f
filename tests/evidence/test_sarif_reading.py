"""SARIF 2.1.0 in: runs become reports, results records, locations quotes (no revision needed)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from sarifkit import CODEQL, OTHER, SEMGREP, located, log, run, write

from evidence.model import Kind, Record, Report
from evidence.reports.loading import ReportError, load_reports
from evidence.sample import CITED_REVISION
from evidence.sarif.messages import fill, message_text
from evidence.sarif.reader import load_sarif, result_ids
from evidence.sarif.uris import UriResolver, uri_path


def records(report: Report) -> dict[str, Record]:
    return {record.label: record for record in report.records}


def fields(record: Record, key: str) -> list[str]:
    return [value for name, value in record.fields if name == key]


# --- runs and results -----------------------------------------------------------------------


def test_each_run_is_a_report_with_tool_and_revision() -> None:
    reportset = load_reports([CODEQL])
    python, javascript = reportset.reports
    assert python.file == f"{CODEQL}#1" and javascript.file == f"{CODEQL}#2"
    assert python.title == "CodeQL 2.19.3" and python.system == "CodeQL"
    assert python.identity != javascript.identity  # the category tells the runs apart
    assert reportset.revision_ids() == (CITED_REVISION,)
    assert "git.kestrel.example" in python.revisions[0].sentence
    assert all(record.kind is Kind.RESULT for record in reportset.records())
    assert all(reportset.report_of(record) is python for record in python.records)


def test_a_single_run_report_is_named_after_the_file() -> None:
    (report,) = load_reports([SEMGREP]).reports
    assert report.file == str(SEMGREP)
    assert report.revisions == ()


def test_record_ids_are_rule_plus_fingerprint_and_stable() -> None:
    first = load_reports([CODEQL]).reports[0]
    again = load_reports([CODEQL]).reports[0]
    assert [r.id for r in first.records] == [r.id for r in again.records]
    hashing = first.records[0]
    assert hashing.id.startswith("py/weak-sensitive-data-hashing:")
    assert len(hashing.id.rsplit(":", 1)[1]) == 12
    # the same partialFingerprints give the same id whatever the region says
    document = json.loads(CODEQL.read_text())
    document["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = (
        41
    )
    moved = load_sarif(json.dumps(document).encode(), str(CODEQL))[0]
    assert moved.records[0].id == hashing.id


def test_without_fingerprints_the_id_hashes_rule_path_and_region(tmp_path: Path) -> None:
    result = {"ruleId": "R1", "message": {"text": "m"}, "locations": [located("a.py", 3)]}
    other = {**result, "locations": [located("a.py", 4)]}
    (report,) = load_sarif(json.dumps(log(run(result, other))).encode(), "x.sarif")
    first, second = report.records
    assert first.id != second.id and first.id.startswith("R1:")
    (again,) = load_sarif(json.dumps(log(run(result))).encode(), "y.sarif")
    assert again.records[0].id == first.id


def test_cwe_ids_of_a_rules_relationships_and_a_results_taxa() -> None:
    # Flawfinder relates each rule to the CWE taxonomy instead of tagging it: no CWE was shown
    cwe = {"name": "CWE", "guid": "FFC64C90-42B6-44CE-8BEB-F6B7DAE649E5"}
    rules = [
        {
            "id": "FF1013",
            "relationships": [
                {"target": {"id": "CWE-119", "toolComponent": cwe}, "kinds": ["incomparable"]},
                {"target": {"id": "120", "toolComponent": cwe}, "kinds": ["relevant"]},
                {"target": {"id": "A03", "toolComponent": {"name": "OWASP"}}},  # not a CWE
                {"target": {"index": 4, "toolComponent": cwe}},  # by index alone: not looked up
            ],
            "properties": {"tags": ["external/cwe/cwe-119"]},  # the same one as a tag: once
        }
    ]
    results = [
        {"ruleId": "FF1013", "message": {"text": "m"}, "locations": [located("src/a.c", 3)]},
        {
            "ruleId": "FF1013",
            "message": {"text": "m"},
            "locations": [located("src/a.c", 9)],
            "taxa": [{"id": "CWE-787", "toolComponent": cwe}, {"id": "CWE-120"}],
        },
    ]
    document = log({"tool": {"driver": {"name": "Flawfinder", "rules": rules}}, "results": results})
    (report,) = load_sarif(json.dumps(document).encode(), "f.sarif")
    first, second = report.records
    assert fields(first, "CWE") == ["CWE-119", "CWE-120"]
    assert fields(second, "CWE") == ["CWE-119", "CWE-120", "CWE-787"]  # and its own taxa
    assert fields(first, "CWE") == ["CWE-119", "CWE-120"]  # the rule's fields are not changed


def test_a_rule_named_as_its_id_is_not_named_twice() -> None:
    # Semgrep names each rule by its id: the record pane read "rule: X" and "rule name: X"
    rules = [{"id": "py.audit.assert-used", "name": "py.audit.assert-used"}, {"id": "B101"}]
    rules.append({"id": "B608", "name": "hardcoded_sql_expressions"})
    results = [
        {"ruleId": rule["id"], "message": {"text": "m"}, "locations": [located("a.py", n + 1)]}
        for n, rule in enumerate(rules)
    ]
    document = log({"tool": {"driver": {"name": "Semgrep", "rules": rules}}, "results": results})
    (report,) = load_sarif(json.dumps(document).encode(), "s.sarif")
    named = [fields(record, "rule name") for record in report.records]
    assert named == [[], [], ["hardcoded_sql_expressions"]]
    assert [fields(record, "rule") for record in report.records] == [[r["id"]] for r in rules]


def test_labels_bodies_and_fields() -> None:
    python = load_reports([CODEQL]).reports[0]
    hashing = python.records[0]
    # the embedded link [text](1) keeps its text
    assert hashing.label.startswith("Sensitive data (password) is used in a hashing algorithm")
    assert "Use of a broken or weak cryptographic hashing" in hashing.body
    assert "# Weak hashing" in hashing.body  # help as text, markdown not rendered
    assert fields(hashing, "CWE") == ["CWE-327", "CWE-328", "CWE-916"]
    assert fields(hashing, "security-severity") == ["7.5"]
    assert fields(hashing, "precision") == ["high"]
    assert fields(hashing, "level") == ["warning"]
    assert fields(hashing, "kind") == ["fail"]
    assert fields(hashing, "baselineState") == ["unchanged"]
    assert hashing.section == "py/weak-sensitive-data-hashing"
    # the level falls back to the rule's default configuration
    assert fields(python.records[1], "level") == ["error"]


@pytest.mark.parametrize(
    ("text", "label", "body"),
    [
        ("Token compared in a loop", "Token compared in a loop", ""),
        ("Token compared\nin a loop, twice", "Token compared", "in a loop, twice"),
        ("\nonly a second line", "R", "only a second line"),
    ],
)
def test_the_message_s_first_line_is_the_label_not_said_again(
    text: str, label: str, body: str
) -> None:
    result = {"ruleId": "R", "message": {"text": text}}
    (report,) = load_sarif(json.dumps(log(run(result))).encode(), "s.sarif")
    (record,) = report.records
    assert (record.label, record.body) == (label, body)


def test_message_strings_with_arguments_and_markdown() -> None:
    contoso = load_reports([OTHER]).reports[1]
    batch, scope = contoso.records
    assert batch.label == "'BATCH_SIZE' is fixed at 50; {configurable} values are preferred."
    assert scope.label == "Handler 'list_tickets' requires scope tickets:read."
    assert fields(batch, "kind") == ["review"] and fields(batch, "level") == ["none"]
    assert fields(batch, "confidence") == ["high"] and fields(batch, "severity") == ["low"]


def test_fill_and_message_text() -> None:
    assert fill("{0} and {1}, {{literal}} {2}", ["a", 1]) == "a and 1, {literal} {2}"
    strings = {"g": {"text": "global {0}"}}
    assert message_text({"id": "g", "arguments": ["x"]}, None, strings) == "global x"
    assert message_text({"text": r"see [the \[sink\]](2) and [docs](https://x.example)"}) == (
        "see the [sink] and docs"
    )
    assert message_text(None) == "" and message_text({"id": "nowhere"}) == ""


def test_suppressions_and_baseline_state_are_fields_and_statuses() -> None:
    python = load_reports([CODEQL]).reports[0]
    unused = records(python)["Import of 'make_server' is not used."]
    assert fields(unused, "suppression") == ["inSource, accepted: used by the __main__ block"]
    assert ("suppressed", "accepted") in unused.statuses
    assert ("baseline", "unchanged") in unused.statuses
    scope = load_reports([OTHER]).reports[1].records[1]
    assert ("suppressed", "underReview") in scope.statuses
    states = [fields(record, "baselineState") for record in python.records]
    assert ["new"] in states and ["absent"] in states and ["updated"] in states


# --- locations -------------------------------------------------------------------------------


def test_locations_snippets_context_and_roles() -> None:
    python = load_reports([CODEQL]).reports[0]
    hashing = python.records[0]
    primary, related = hashing.quotes
    assert primary.role == "location" and related.role == "related"
    assert primary.path == "api/kestrel/auth.py"  # %SRCROOT% is mapped to the repository
    assert primary.claimed == (40, 40) and primary.columns == (14, 82)
    assert primary.text.startswith("hashlib.sha256(") and not primary.located
    assert "digest = hashlib.sha256" in primary.context
    assert related.path == "api/kestrel/auth.py"  # given by the artifacts index alone
    assert related.note == "Sensitive data (password)"
    assert [quote.index for quote in hashing.quotes] == [0, 1]


def test_code_flows_are_ordered_steps() -> None:
    python = load_reports([CODEQL]).reports[0]
    lookup = records(python)["This enum lookup depends on a user-provided value."]
    roles = [quote.role for quote in lookup.quotes]
    assert roles == ["location", "step", "step", "step", "step", "related"]
    steps = [quote for quote in lookup.quotes if quote.role == "step"]
    assert [quote.note for quote in steps] == [
        "the request body",
        "parsed as JSON",
        "the severity name",
        "used as an enum key",
    ]
    assert [quote.claimed for quote in steps] == [(46, 46), (46, 46), (47, 47), (47, 47)]
    assert lookup.quotes[-1].located  # a related location without a snippet


def test_locations_without_snippet_are_located() -> None:
    python = load_reports([CODEQL]).reports[0]
    unused = records(python)["Import of 'make_server' is not used."]
    (quote,) = unused.quotes
    assert quote.located and quote.text == "" and quote.claimed == (8, 8)


def test_uri_bases_absolute_uris_and_percent_encoding() -> None:
    reportset = load_reports([OTHER, CODEQL])
    ruff, contoso, _python, javascript = reportset.reports
    # another machine's checkout: kept absolute until the revision is known (rebase.py)
    assert ruff.records[0].quotes[0].path == "/Users/alice/code/kestrel/api/server.py"
    # WORKER is "worker/" relative to REPO, which is undefined: the repository's root
    batch = contoso.records[0].quotes[0]
    assert batch.path == "worker/src/sync.js" and batch.offsets == (249, 22)
    assert batch.claimed is None
    assert contoso.records[1].quotes[0].path == "api/server.py"  # api%2Fserver.py
    # an absolute file:// URI under the mapped %SRCROOT% becomes a repository path
    assert javascript.records[0].quotes[0].path == "web/src/components/NoteEditor.tsx"


@pytest.mark.parametrize(
    ("uri", "expected"),
    [
        ("file:///home/ci/k/a%20b.py", (True, "/home/ci/k/a b.py")),
        ("file:///C:/work/k/a.py", (True, "C:/work/k/a.py")),
        ("file://server/share/a.py", (True, "//server/share/a.py")),
        ("C:\\work\\k\\a.py", (True, "C:/work/k/a.py")),
        ("file:///D:/a/k/worker%5Csrc%5Csync.js", (True, "D:/a/k/worker/src/sync.js")),
        ("src/a%5Cb.py", (False, "src/a\\b.py")),  # a POSIX name may hold a backslash
        ("src/a.py", (False, "src/a.py")),
        ("https://example.com/org/repo/blob/main/src/a.py", (True, "/org/repo/blob/main/src/a.py")),
    ],
)
def test_uri_path(uri: str, expected: tuple[bool, str]) -> None:
    assert uri_path(uri) == expected


def test_resolver_chains_bases_and_strips_the_mapped_root() -> None:
    the_run = {
        "originalUriBaseIds": {
            "ROOT": {"uri": "file:///build/src/kestrel/"},
            "API": {"uri": "api/", "uriBaseId": "ROOT"},
            "LOOP": {"uri": "x/", "uriBaseId": "LOOP"},
        }
    }
    resolver = UriResolver(the_run, mapped={"ROOT"})
    assert resolver.resolve({"uri": "server.py", "uriBaseId": "API"})[0] == "api/server.py"
    assert resolver.resolve({"uri": "file:///build/src/kestrel/a/b.py"})[0] == "a/b.py"
    assert resolver.resolve({"uri": "./a/../b.py", "uriBaseId": "ROOT"})[0] == "b.py"
    assert resolver.resolve({"uri": "c.py", "uriBaseId": "LOOP"})[0].endswith("c.py")
    unmapped = UriResolver(the_run)
    assert unmapped.resolve({"uri": "server.py", "uriBaseId": "API"})[0] == (
        "/build/src/kestrel/api/server.py"
    )
    assert unmapped.resolve({"uri": "a.py", "uriBaseId": "%SRCROOT%"})[0] == "a.py"
    assert unmapped.resolve({})[0] == ""


# --- quirks are data -------------------------------------------------------------------------


def test_quirks_are_diagnostics_not_crashes() -> None:
    python = load_reports([CODEQL]).reports[0]
    messages = [diagnostic.message for diagnostic in python.diagnostics]
    assert any("ruleIndex 9 names no rule" in message for message in messages)
    assert any("repeats py/stack-trace-exposure" in message for message in messages)
    ids = [record.id for record in python.records]
    assert len(ids) == len(set(ids))  # the duplicate result is numbered
    assert ids[-1].endswith(" (2)")
    nowhere = records(python)["Summary: no location for this result."]
    assert nowhere.quotes == ()
    scope = load_reports([OTHER]).reports[1].records[1]
    assert scope.quotes[0].claimed == (37, 39)  # endLine off its one-line snippet: as given


@pytest.mark.parametrize(
    "result",
    [
        "not an object",
        {"ruleId": 7, "message": "not an object", "locations": "nope"},
        {"locations": [{"physicalLocation": {"artifactLocation": {"uri": 3}}}]},
        {"locations": [{"logicalLocations": [{"name": "f"}]}]},
        {"locations": [located("a.py", startLine=-4, endLine="x", snippet={"text": 5})]},
        {"codeFlows": [{"threadFlows": [{"locations": [{"location": None}, 4]}]}]},
        {"ruleId": "R", "rule": {"toolComponent": {"index": 99}, "index": 0}},
        {"suppressions": [None, {"kind": 1}], "baselineState": 4, "properties": []},
    ],
)
def test_malformed_results_never_raise(result: object) -> None:
    (report,) = load_sarif(json.dumps(log(run(result))).encode(), "odd.sarif")  # type: ignore[arg-type]
    assert len(report.records) <= 1


def test_a_field_of_the_wrong_shape_is_said_not_silently_dropped() -> None:
    result = {"ruleId": 7, "locations": "nope", "codeFlows": {}, "relatedLocations": 3}
    (report,) = load_sarif(json.dumps(log(run(result))).encode(), "odd.sarif")
    said = " ".join(diagnostic.message for diagnostic in report.diagnostics)
    for field in ("ruleId is not a string", "locations is not a list", "codeFlows is not a list"):
        assert field in said, said
    assert "relatedLocations is not a list" in said


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{not json", "not valid JSON"),
        (b'{"version": "2.0.0", "runs": []}', 'not SARIF 2.1.0 (version "2.0.0")'),
        (b'{"version": "2.1.0", "runs": {}}', "'runs' is not a list"),
        (b"[1, 2]", "the JSON is not an object"),
        (b"\x1f\x8b\x08garbage", "not readable gzip data"),
        (b"\x80\x81{}", "must be UTF-8"),
        (b"\xff\xfe{\x00\x00\xd8}\x00", "must be UTF-8 (or UTF-16 or UTF-32)"),  # a lone surrogate
        (b"", "the file is empty"),  # what a scanner that failed leaves (bandit over rich)
        (b" \n", "the file is empty"),
    ],
)
def test_unreadable_sarif_is_one_clear_error(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "bad.sarif"
    path.write_bytes(content)
    with pytest.raises(ReportError) as raised:
        load_reports([path])
    assert str(path) in str(raised.value) and message in str(raised.value)


# --- files and directories ---------------------------------------------------------------------


def test_gzip_and_sniffed_json_and_directories(tmp_path: Path) -> None:
    document = json.loads(SEMGREP.read_text())
    packed = write(tmp_path / "scan.sarif.gz", document, compress=True)
    sniffed = write(tmp_path / "results.json", document)
    plain = load_reports([SEMGREP]).reports[0]
    for path in (packed, sniffed):
        (report,) = load_reports([path]).reports
        assert [r.id for r in report.records] == [r.id for r in plain.records]
        assert report.records[0].quotes == tuple(
            quote._replace() for quote in plain.records[0].quotes
        )
    directory = tmp_path / "scans"
    directory.mkdir()
    (directory / "a.sarif").write_bytes(SEMGREP.read_bytes())
    (directory / "b.sarif.gz").write_bytes(gzip.compress(OTHER.read_bytes()))
    (directory / "notes.txt").write_text("shopping list\n")
    assert len(load_reports([directory]).reports) == 3


def test_mixed_with_reports(tmp_path: Path) -> None:
    from evidence.sample import SAMPLE_REPORTS

    reportset = load_reports([SAMPLE_REPORTS, SEMGREP])
    assert len(reportset.reports) == 3
    assert reportset.revision_ids() == (CITED_REVISION,)


def test_result_ids_follow_the_records() -> None:
    document = json.loads(CODEQL.read_text())
    ids = result_ids(document, str(CODEQL))
    reportset = load_reports([CODEQL])
    assert [entry.record for entry in ids] == [r.id for r in reportset.records()]
    assert ids[0].run == 0 and ids[-1].run == 1 and ids[-1].result == 0
    assert ids[0].identity == reportset.reports[0].identity


def test_quotes_have_every_field_of_the_model() -> None:
    from evidence.model import Quote

    for record in load_reports([CODEQL, OTHER, SEMGREP]).records():
        for quote in record.quotes:
            assert type(quote) is Quote and len(quote) == len(Quote._fields)
            assert quote.record == record.id


@pytest.mark.parametrize(
    ("suppressions", "state"),
    [
        ([{"kind": "inSource"}], "accepted"),
        ([{"kind": "external", "status": "accepted"}, {"kind": "inSource"}], "accepted"),
        ([{"kind": "external", "status": "underReview"}, {"kind": "inSource"}], "underReview"),
        ([{"kind": "external", "status": "rejected"}, {"kind": "inSource"}], "rejected"),
        ([], None),
    ],
)
def test_suppression_and_baseline_facts(
    suppressions: list[dict[str, str]], state: str | None
) -> None:
    from evidence.sarif.facts import baseline_state, suppression_state

    result = {"ruleId": "R", "suppressions": suppressions, "baselineState": "new"}
    (report,) = load_sarif(json.dumps(log(run(result))).encode(), "s.sarif")
    (record,) = report.records
    assert suppression_state(record) == state
    assert baseline_state(record) == "new"
    from evidence.sample import SAMPLE_REPORTS

    for other in load_reports([SAMPLE_REPORTS]).records():
        assert baseline_state(other) is None and suppression_state(other) is None


def test_the_record_says_what_its_id_hashes() -> None:
    python = load_reports([CODEQL]).reports[0]
    assert fields(python.records[0], "id from") == [
        "partialFingerprints: primaryLocationLineHash, primaryLocationStartColumnFingerprint"
    ]
    semgrep = load_reports([SEMGREP]).reports[0]
    assert fields(semgrep.records[0], "id from") == ["fingerprints: matchBasedId/v1"]
    assert fields(load_reports([OTHER]).reports[0].records[0], "id from") == ["rule and location"]


# --- fingerprints that are no identity -------------------------------------------------------


def _placeholder_result(rule: str, path: str, line: int, text: str) -> dict[str, object]:
    """A result as Semgrep writes it without a login: the same fingerprint on every result."""
    return {
        "ruleId": rule,
        "message": {"text": f"{rule} here"},
        "fingerprints": {"matchBasedId/v1": "requires login"},
        "locations": [located(path, line, endLine=line, snippet={"text": text})],
    }


def test_a_fingerprint_every_result_shares_is_no_identity() -> None:
    results = [
        _placeholder_result("assert-used", "api/a.py", 3, "assert x"),
        _placeholder_result("assert-used", "api/a.py", 9, "assert y"),
        _placeholder_result("assert-used", "api/b.py", 3, "assert z"),
        _placeholder_result("broad-except", "api/b.py", 7, "except Exception:"),
    ]
    (report,) = load_sarif(json.dumps(log(run(*results))).encode(), "s.sarif")
    ids = [record.id for record in report.records]
    # told apart by their places, not numbered "(2)", "(3)" by their order in the file
    assert len(set(ids)) == 4 and not any(" (" in record_id for record_id in ids)
    messages = [diagnostic.message for diagnostic in report.diagnostics]
    assert not any("repeats" in message for message in messages)
    assert messages == [
        "4 results share their fingerprints with results elsewhere:"
        " each is told apart by its rule and location instead"
    ]
    assert fields(report.records[0], "id from") == [
        "rule and location (fingerprints shared with results elsewhere)"
    ]
    # a new scan listing the same findings in another order gives each its own id again, so a
    # verdict stays on its finding
    (again,) = load_sarif(json.dumps(log(run(*reversed(results)))).encode(), "s.sarif")
    place = {r.id: (r.quotes[0].path, r.quotes[0].claimed) for r in report.records}
    assert {r.id: (r.quotes[0].path, r.quotes[0].claimed) for r in again.records} == place


def test_a_shared_table_gives_way_to_the_next_and_real_duplicates_stay_numbered() -> None:
    def result(line: int, partial: str, full: str) -> dict[str, object]:
        return {
            "ruleId": "py/rule",
            "message": {"text": "m"},
            "partialFingerprints": {"primaryLocationLineHash": partial},
            "fingerprints": {"id/v1": full},
            "locations": [located("api/a.py", line)],
        }

    # the same line hash at two places (identical lines): the full fingerprints tell them apart
    shared = [result(3, "abc:1", "one"), result(8, "abc:1", "two")]
    (report,) = load_sarif(json.dumps(log(run(*shared))).encode(), "s.sarif")
    assert [fields(r, "id from") for r in report.records] == [["fingerprints: id/v1"]] * 2
    assert len({r.id for r in report.records}) == 2
    # one finding listed twice at its one place is a duplicate, numbered as before
    twice = [result(3, "abc:1", "one"), result(3, "abc:1", "one")]
    (report,) = load_sarif(json.dumps(log(run(*twice))).encode(), "s.sarif")
    assert report.records[1].id == report.records[0].id + " (2)"
    assert fields(report.records[0], "id from") == ["partialFingerprints: primaryLocationLineHash"]
    # fingerprints of their own are kept whatever the places (the region may move)
    own = [result(3, "abc:1", "one"), result(8, "def:1", "two")]
    (report,) = load_sarif(json.dumps(log(run(*own))).encode(), "s.sarif")
    assert [fields(r, "id from") for r in report.records] == [
        ["partialFingerprints: primaryLocationLineHash"]
    ] * 2
    assert not report.diagnostics


def test_a_line_hash_held_by_other_rules_on_its_line_is_still_each_ones_identity() -> None:
    # Flawfinder writes a hash of the line (contextHash/v1), GitHub primaryLocationLineHash:
    # two rules' findings at two columns of one line (`system(getenv("CMD"))`) hold the same
    # one. Both were given ids of their places instead, with a note for the whole scan.
    def result(rule: str, line: int, column: int, hashed: str) -> dict[str, object]:
        where = located("src/main.c", line, startColumn=column, endColumn=column + 6)
        return {
            "ruleId": rule,
            "message": {"text": f"{rule} here"},
            "fingerprints": {"contextHash/v1": hashed},
            "locations": [where],
        }

    line = [result("FF1044", 17, 2, "c0ffee"), result("FF1053", 17, 9, "c0ffee")]
    (report,) = load_sarif(json.dumps(log(run(*line))).encode(), "f.sarif")
    assert [fields(r, "id from") for r in report.records] == [["fingerprints: contextHash/v1"]] * 2
    assert len({r.id for r in report.records}) == 2 and not report.diagnostics
    # the ids do not depend on the columns: a finding that moves along its line keeps its id
    moved = [result("FF1044", 17, 4, "c0ffee"), result("FF1053", 17, 11, "c0ffee")]
    (again,) = load_sarif(json.dumps(log(run(*moved))).encode(), "f.sarif")
    assert [r.id for r in again.records] == [r.id for r in report.records]
    # one rule's findings at two columns of the line: the hash tells them apart no more
    same_rule = [result("FF1044", 17, 2, "c0ffee"), result("FF1044", 17, 9, "c0ffee")]
    (report,) = load_sarif(json.dumps(log(run(*same_rule))).encode(), "f.sarif")
    assert len({r.id for r in report.records}) == 2
    assert all(fields(r, "id from")[0].startswith("rule and location") for r in report.records)
    # held at another line too, by any rule: no identity for any of them
    elsewhere = [*line, result("FF1001", 6, 2, "c0ffee")]
    (report,) = load_sarif(json.dumps(log(run(*elsewhere))).encode(), "f.sarif")
    assert all(fields(r, "id from")[0].startswith("rule and location") for r in report.records)
    assert len(report.diagnostics) == 1


# --- a run that says it is incomplete --------------------------------------------------------


def test_a_run_that_failed_or_could_not_read_files_says_so() -> None:
    from evidence.sarif.invocations import INCOMPLETE, incomplete_runs

    def failing(number: int) -> dict[str, object]:
        where = {"physicalLocation": {"artifactLocation": {"uri": f"src/m{number}.py"}}}
        return {"message": {"text": f"Could not parse  file {number}"}, "locations": [where]}

    invocation = {
        "executionSuccessful": False,
        "exitCode": 2,
        "exitCodeDescription": "out of memory",
        "toolExecutionNotifications": [
            *(failing(n) | {"level": "error"} for n in range(4)),
            failing(9),  # SARIF's default level for a notification: warning
            {"level": "note", "message": {"text": "analysed 120 files"}},
        ],
        "toolConfigurationNotifications": [
            {"level": "error", "message": {"text": "rule py/x could not be loaded"}}
        ],
    }
    result = {"ruleId": "X", "message": {"text": "m"}, "locations": [located("src/a.py", 1)]}
    document = log(run(result, invocations=[invocation]))
    (report,) = load_sarif(json.dumps(document).encode(), "s.sarif")
    said = [d.message for d in report.diagnostics if d.line == 0]
    assert said == [
        f"{INCOMPLETE}the tool says its run failed (exit code 2: out of memory)",
        f"{INCOMPLETE}the tool reported 4 errors and 1 warning while it ran:"
        " 'Could not parse file 0' (src/m0.py), 'Could not parse file 1' (src/m1.py),"
        " 'Could not parse file 2' (src/m2.py) and 2 more",
        f"{INCOMPLETE}the tool reported 1 error in its configuration:"
        " 'rule py/x could not be loaded'",
    ]
    assert incomplete_runs([report]) == [f"scanner: {message}" for message in said]
    # a run that succeeded with notes only says nothing
    quiet = {
        "executionSuccessful": True,
        "toolExecutionNotifications": [{"level": "note", "message": {"text": "analysed"}}],
    }
    (report,) = load_sarif(json.dumps(log(run(result, invocations=[quiet]))).encode(), "s.sarif")
    assert report.diagnostics == () and incomplete_runs([report]) == []


def test_results_that_record_a_rule_s_outcome_are_no_finding() -> None:
    # BinSkim and openscap write a result for every check, passed or not (SARIF's `kind`)
    def outcome(kind: str | None, line: int) -> dict[str, object]:
        result: dict[str, object] = {"ruleId": "BA2001", "message": {"text": f"{kind}"}}
        result["locations"] = [located("bin/app.dll", line)]
        if kind is not None:
            result["kind"] = kind
        return result

    kinds = [None, "fail", "review", "open", "pass", "pass", "notApplicable", "informational"]
    document = log(run(*(outcome(kind, n) for n, kind in enumerate(kinds, start=1))))
    (report,) = load_sarif(json.dumps(document).encode(), "s.sarif")
    assert [record.label for record in report.records] == ["None", "fail", "review", "open"]
    assert [d.message for d in report.diagnostics] == [
        "4 results are no finding (kind informational 1, notApplicable 1, pass 2): not listed"
    ]
    # the export leaves them as they are: no record, no verdict to write back
    assert [found.result for found in result_ids(document, "s.sarif")] == [0, 1, 2, 3]


@pytest.mark.parametrize("odd", [{"k": 1}, ["pass"], 3, None, True])
def test_a_kind_or_level_of_any_json_value_is_read_as_data(odd: object) -> None:
    # found by the larger fuzz run: a kind that is an object raised inside the reader
    result = {"ruleId": "X", "kind": odd, "message": {"text": "m"}}
    notification = {"level": odd, "message": {"text": "n"}}
    invocation = {"executionSuccessful": odd, "toolExecutionNotifications": [notification]}
    document = log(run(result, invocations=[invocation]))
    (report,) = load_sarif(json.dumps(document).encode(), "s.sarif")
    assert [record.id.split(":")[0] for record in report.records] == ["X"]


@pytest.mark.parametrize("marker", ["REDACTED", "[redacted]", "  <REDACTED>\n", "********"])
def test_a_redacted_snippet_is_located_not_misquoted(marker: str) -> None:
    # gitleaks --redact writes the secret it found as "REDACTED": not a misquote of the source
    secret = located("config/app.env", 3, snippet={"text": marker})
    shown = located("config/app.env", 4, snippet={"text": "TOKEN_REDACTED = 1"})
    result = {"ruleId": "generic-api-key", "message": {"text": "secret"}, "locations": [secret]}
    result["relatedLocations"] = [shown]
    (report,) = load_sarif(json.dumps(log(run(result))).encode(), "s.sarif")
    redacted, kept = report.records[0].quotes
    assert redacted.located and redacted.text == ""
    assert redacted.note == "the tool redacted its snippet"
    assert not kept.located and kept.text == "TOKEN_REDACTED = 1"  # a word of code, not a marker


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_a_sarif_file_in_utf_16_is_read(tmp_path: Path, encoding: str) -> None:
    """PowerShell 5 writes what `>` redirects in UTF-16 (with a byte order mark): a scan saved
    that way on Windows is read, its non-ASCII text intact."""
    result = {
        "ruleId": "R1",
        "message": {"text": "naïve use of 🔑"},
        "locations": [located("a.py", 2)],
    }
    path = tmp_path / "scan.sarif"
    path.write_bytes(json.dumps(log(run(result)), ensure_ascii=False).encode(encoding))
    (report,) = load_reports([path]).reports
    (record,) = report.records
    assert "naïve use of 🔑" in record.label + record.body and record.quotes[0].path == "a.py"


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-16-be"])
def test_a_scan_named_json_is_read_as_sarif_when_its_start_shows_a_tool(
    tmp_path: Path, encoding: str
) -> None:
    """bandit writes "runs" first and its schema and version last, after every rule of its
    tool: a scan saved as results.json, found in a directory of reports or named, is SARIF."""
    rules = [
        {"id": f"B{n}", "name": "x" * 60, "shortDescription": {"text": "y" * 80}} for n in range(60)
    ]
    the_log = {
        "runs": [
            {
                "tool": {"driver": {"name": "Bandit", "rules": rules}},
                "results": [
                    {"ruleId": "B1", "message": {"text": "m"}, "locations": [located("a.py", 2)]}
                ],
            }
        ],
        "version": "2.1.0",
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
    }
    data = json.dumps(the_log, indent=2).encode(encoding)
    assert b"sarif" not in data[:4096].lower().replace(b"\x00", b"")
    (tmp_path / "reports").mkdir()
    path = tmp_path / "reports" / "results.json"
    path.write_bytes(data)
    for given in (path, tmp_path / "reports"):
        (report,) = load_reports([given]).reports
        assert [record.quotes[0].path for record in report.records] == ["a.py"]
