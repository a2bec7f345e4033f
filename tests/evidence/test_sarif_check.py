"""SARIF locations anchored at the sample's revision; `assay check`, `parse`, `review` on SARIF."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sarifkit import CODEQL, OTHER, SEMGREP, located, log, run, write

from evidence.anchoring import Anchorer
from evidence.check import run_check
from evidence.model import Tier
from evidence.reports.bundle import dump_bundle, load_bundle
from evidence.reports.loading import load_reports
from evidence.revision import Revision
from evidence.sample import CITED_REVISION, SAMPLE_REPORTS, sample_repo
from evidence.sarif.reader import load_sarif
from evidence.sarif.rebase import rebase_paths, repository_path
from tui.cli import cli


@pytest.fixture(scope="module")
def kestrel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return sample_repo(tmp_path_factory.mktemp("kestrel"))


def check(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["check", *args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def check_json(*args: str) -> tuple[int, dict[str, Any]]:
    code, out, _err = check(*args, "--format", "json")
    return code, json.loads(out)


def by_record(document: dict[str, Any], prefix: str) -> list[dict[str, Any]]:
    return [quote for quote in document["quotes"] if quote["record"].startswith(prefix)]


def test_codeql_locations_anchor_with_the_quote_tiers(kestrel: Path) -> None:
    code, document = check_json(str(CODEQL), "--repo", str(kestrel))
    assert code == 1  # a misquoted snippet and lines that do not exist
    assert document["revision"] == CITED_REVISION
    assert len(document["quotes"]) == 17  # every location, step and related location
    hashing = by_record(document, "py/weak-sensitive-data-hashing")
    assert [(q["role"], q["match"], q["lines"]) for q in hashing] == [
        ("location", "exact", [40, 40]),
        ("related", "exact", [37, 37]),
    ]
    assert hashing[0]["path"] == "api/kestrel/auth.py" and hashing[0]["claimed"] == [40, 40]
    steps = [q for q in by_record(document, "py/user-controlled-enum-key") if q["role"] == "step"]
    assert [q["lines"] for q in steps] == [[46, 46], [46, 46], [47, 47], [47, 47]]
    assert all(q["match"] == "exact" and q["range_ok"] for q in steps)
    related = by_record(document, "py/user-controlled-enum-key")[-1]
    assert related["match"] == "located" and related["lines"] == [46, 46]
    assert not related["failing"]


def test_a_misquoted_snippet_is_not_verified(kestrel: Path) -> None:
    _code, document = check_json(str(CODEQL), "--repo", str(kestrel))
    (scope,) = by_record(document, "py/token-scope-bypass")
    assert scope["match"] == "fuzzy" and scope["failing"]
    assert {"op": "replace", "quote": "or", "source": "and"} in scope["diff"]


def test_located_and_missing_regions(kestrel: Path) -> None:
    _code, document = check_json(str(CODEQL), "--repo", str(kestrel))
    unused = by_record(document, "py/unused-import")
    assert [(q["path"], q["match"], q["claimed"]) for q in unused] == [
        ("api/server.py", "located", [8, 8]),
        ("api/kestrel/notes.py", "missing", [500, 500]),
    ]
    assert unused[0]["failing"] is False and unused[1]["failing"] is True
    assert unused[0]["score"] == 0 and unused[0]["diff"] is None
    assert unused[1]["notes"][0] == "line 500 is past the end of the file (69 lines)"
    assert document["summary"]["located"] == 3 and document["summary"]["missing"] == 1


def test_other_checkout_offsets_and_columns(kestrel: Path) -> None:
    code, document = check_json(str(OTHER), str(SEMGREP), "--repo", str(kestrel), "--rev", "v0.3.0")
    assert code == 0
    where = {q["record"].split(":")[0]: q for q in document["quotes"]}
    assert where["F401"]["path"] == "api/server.py"  # /Users/alice/code/kestrel/api/server.py
    assert where["F401"]["match"] == "located" and where["F401"]["lines"] == [8, 8]
    assert where["S324"]["path"] == "api/kestrel/auth.py"
    assert any("column 200 is past the end of line 40" in n for n in where["S324"]["notes"])
    assert where["CA2001"]["lines"] == [9, 9] and where["CA2001"]["claimed"] is None
    scope = where["CA3002"]
    assert scope["match"] == "exact" and scope["lines"] == [37, 37] and scope["range_ok"]
    notes = where["python.lang.security.audit.note-size-error-leak"]
    assert notes["match"] == "exact" and notes["lines"] == [48, 49]


def test_no_revision_stated_needs_rev(kestrel: Path) -> None:
    code, _out, err = check(str(SEMGREP), "--repo", str(kestrel))
    assert code == 2 and "versionControlProvenance" in err and "--rev" in err
    assert "Traceback" not in err
    code, _out, _err = check(str(SEMGREP), "--repo", str(kestrel), "--rev", "HEAD")
    assert code in (0, 1)


def test_sarif_mixed_with_reports(kestrel: Path) -> None:
    code, document = check_json(str(SAMPLE_REPORTS), str(CODEQL), "--repo", str(kestrel))
    assert document["revision"] == CITED_REVISION
    reports = {quote["report"] for quote in document["quotes"]}
    assert any(name.endswith(".txt") for name in reports)
    assert any("codeql-kestrel.sarif" in name for name in reports)
    report_quotes = [q for q in document["quotes"] if q["role"] is None]
    assert report_quotes and all(q["match"] != "located" for q in report_quotes)
    assert code == 1


def test_text_output_names_located_regions(kestrel: Path) -> None:
    code, out, _err = check(str(CODEQL), "--repo", str(kestrel))
    assert code == 1
    assert "3 located (no snippet to compare; the lines exist):" in out
    assert "◦ api/server.py:8" in out
    assert "codeql-kestrel.sarif#1: result 4, location" in out


def test_a_sarif_logs_notes_name_the_result_not_a_line(kestrel: Path) -> None:
    # a result's number is no line of the log: `scan.sarif:9:` sent an editor to line 9 of a
    # pretty-printed log, the middle of another result
    _code, out, _err = check(str(CODEQL), "--repo", str(kestrel))
    notes = [line for line in out.splitlines() if line.startswith("note:")]
    assert [note.split("codeql-kestrel.sarif#1")[1] for note in notes] == [
        ": result 7: ruleIndex 9 names no rule of the tool",
        ": result 9 repeats py/stack-trace-exposure:54dbb09e86e0 (shown as (2))",
    ]
    parsed = CliRunner().invoke(cli, ["parse", str(CODEQL)], catch_exceptions=False).stdout
    assert "  ! result 9 repeats py/stack-trace-exposure:54dbb09e86e0 (shown as (2))" in parsed
    assert "line 9" not in parsed and "line 7" not in parsed


def _misquote(text: str) -> str:
    """The snippet with one letter changed (a different word, not formatting damage)."""
    match = re.search(r"[a-z]", text)
    assert match is not None
    swapped = "q" if match.group() != "q" else "z"
    return text[: match.start()] + swapped + text[match.end() :]


def test_no_misquoted_snippet_is_ever_verified(kestrel: Path, tmp_path: Path) -> None:
    document = json.loads(CODEQL.read_text())
    for the_run in document["runs"]:
        for result in the_run["results"]:
            places = [*result.get("locations", []), *result.get("relatedLocations", [])]
            for flow in result.get("codeFlows", []):
                for thread in flow["threadFlows"]:
                    places += [step["location"] for step in thread["locations"]]
            for place in places:
                snippet = place["physicalLocation"].get("region", {}).get("snippet")
                if snippet:
                    snippet["text"] = _misquote(snippet["text"])
    reportset = load_reports([write(tmp_path / "misquoted.sarif", document)])
    with Revision.open(kestrel, CITED_REVISION) as revision:
        result = run_check(reportset, revision)
    snippets = [r.anchor for r in result.quotes if not r.quote.located]
    assert len(snippets) == 13
    assert not any(anchor.verified for anchor in snippets)
    assert all(anchor.failing for anchor in snippets)


def test_located_quotes_in_the_anchorer(kestrel: Path, tmp_path: Path) -> None:
    the_log = log(
        run(
            {"ruleId": "a", "locations": [located("api/server.py")]},
            {"ruleId": "b", "locations": [located("no/such/file.py", 3)]},
            {"ruleId": "c", "locations": [located("web/public/favicon.ico", 2)]},
            {"ruleId": "d", "locations": [located("api/server.py", charOffset=10**7)]},
            {"ruleId": "e", "locations": [located("api/server.py", 100, endLine=101)]},
        )
    )
    (report,) = load_sarif(json.dumps(the_log).encode(), "q.sarif")
    quotes = [record.quotes[0] for record in report.records]
    with Revision.open(kestrel, CITED_REVISION) as revision:
        anchors = Anchorer(revision).anchor_many(quotes)
    whole, nowhere, binary, offset, range_ = anchors
    assert whole.match is Tier.LOCATED and whole.lines is None and whole.range_ok is None
    assert nowhere.match is Tier.MISSING and nowhere.file.value == "missing"
    assert binary.match is Tier.LOCATED and binary.file.value == "binary"
    assert offset.match is Tier.MISSING and "past the end" in offset.notes[0]
    assert range_.match is Tier.LOCATED and range_.lines == (100, 101) and range_.range_ok
    assert not any(anchor.verified for anchor in anchors)


def test_a_region_without_start_column_ends_as_one_with_start_column_1(kestrel: Path) -> None:
    # notes.py has 69 lines: column 1 of line 70 is the end of line 69 (startColumn defaults to 1)
    the_log = log(
        run(
            {
                "ruleId": "a",
                "locations": [located("api/kestrel/notes.py", 68, endLine=70, endColumn=1)],
            },
            {
                "ruleId": "b",
                "locations": [
                    located("api/kestrel/notes.py", 68, startColumn=1, endLine=70, endColumn=1)
                ],
            },
            {
                "ruleId": "c",
                "locations": [located("api/kestrel/notes.py", 68, endLine=70, endColumn=2)],
            },
        )
    )
    (report,) = load_sarif(json.dumps(the_log).encode(), "q.sarif")
    quotes = [record.quotes[0] for record in report.records]
    assert [quote.columns for quote in quotes] == [(1, 1), (1, 1), (1, 2)]
    with Revision.open(kestrel, CITED_REVISION) as revision:
        omitted, written, past = Anchorer(revision).anchor_many(quotes)
    assert omitted.match is Tier.LOCATED and omitted.lines == (68, 69) and omitted.range_ok
    assert written.match is Tier.LOCATED and written.lines == (68, 69)
    assert past.match is Tier.MISSING and "lines 68-70 are past the end" in past.notes[0]


def test_a_region_without_end_column_ends_at_the_end_of_its_last_line(kestrel: Path) -> None:
    # SARIF 3.30.8: endColumn defaults to one past the last character of endLine; on the line
    # after the last (notes.py has 69), that is column 1: the end of the file, as written above
    the_log = log(
        run(
            {
                "ruleId": "a",
                "locations": [located("api/kestrel/notes.py", 68, startColumn=5, endLine=70)],
            },
            {"ruleId": "b", "locations": [located("api/kestrel/notes.py", 3, startColumn=5)]},
            {
                "ruleId": "c",
                "locations": [located("api/kestrel/notes.py", 68, startColumn=5, endLine=71)],
            },
        )
    )
    (report,) = load_sarif(json.dumps(the_log).encode(), "q.sarif")
    quotes = [record.quotes[0] for record in report.records]
    assert [quote.columns for quote in quotes] == [(5, 0), (5, 0), (5, 0)]
    with Revision.open(kestrel, CITED_REVISION) as revision:
        to_the_end, one_line, past = Anchorer(revision).anchor_many(quotes)
    assert to_the_end.match is Tier.LOCATED and to_the_end.lines == (68, 69)
    assert to_the_end.range_ok
    assert one_line.match is Tier.LOCATED and one_line.lines == (3, 3) and one_line.range_ok
    assert past.match is Tier.MISSING and "lines 68-71 are past the end" in past.notes[0]


def test_rebase_by_longest_existing_suffix() -> None:
    paths = {"api/server.py", "server.py", "api/kestrel/auth.py"}
    assert repository_path("/home/ci/kestrel/api/server.py", paths) == "api/server.py"
    assert repository_path("C:/k/server.py", paths) == "server.py"
    assert repository_path("/home/ci/elsewhere.py", paths) is None
    reportset = load_reports([OTHER, SAMPLE_REPORTS])
    rebased = rebase_paths(reportset, paths)
    assert rebased.reports[0].records[0].quotes[0].path == "api/server.py"
    assert rebased.reports[2:] == reportset.reports[2:]  # report quotes untouched


def test_parse_shows_sarif_and_its_bundle_round_trips() -> None:
    result = CliRunner().invoke(cli, ["parse", str(CODEQL)], catch_exceptions=False)
    assert result.exit_code == 0
    assert "revision 802776dd27b8c567fc18b46afc7b0cf64426b1f9 (versionControlProvenance)" in (
        result.stdout
    )
    assert "9 records (9 result)" in result.stdout
    result = CliRunner().invoke(cli, ["parse", "--format", "json", str(CODEQL)])
    bundle = json.loads(result.stdout)
    reportset = load_reports([CODEQL])
    assert load_bundle(bundle, "b.json").reports == reportset.reports
    assert dump_bundle(reportset) == bundle


def test_review_needs_rev_for_sarif_without_provenance(kestrel: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["review", str(SEMGREP), "--repo", str(kestrel), "--db", str(tmp_path / "v.db")]
    )
    assert result.exit_code == 2
    assert "states no revision (versionControlProvenance); pass --rev" in result.stderr
    assert "Traceback" not in result.stderr


def test_untrusted_text_is_shown_not_sent(kestrel: Path, tmp_path: Path) -> None:
    hostile = "\x1b]52;c;aGk=\x07 [red]boom[/red] \u202e"
    the_log = log(
        run(
            {
                "ruleId": "x\x1b[2J",
                "message": {"text": hostile},
                "locations": [located("api/\x1b[31mserver.py", 3, snippet={"text": hostile})],
            }
        )
    )
    path = write(tmp_path / "hostile.sarif", the_log)
    for command in (
        ["parse", str(path)],
        ["check", str(path), "--repo", str(kestrel), "--rev", "HEAD"],
    ):
        result = CliRunner().invoke(cli, command)
        assert "\x1b" not in result.stdout and "\x07" not in result.stdout
        assert "\u202e" not in result.stdout
        assert "Traceback" not in result.stdout + result.stderr


def test_review_finds_other_checkout_paths_before_the_app_starts(kestrel: Path) -> None:
    from tui.commands.review import _resolve

    reportset = load_reports([OTHER, SAMPLE_REPORTS])
    ready, _commit, origin = _resolve(reportset, str(kestrel), "HEAD")
    assert origin == "--rev HEAD"
    assert ready.reports[0].records[0].quotes[0].path == "api/server.py"
    assert ready.reports[0].records[1].quotes[0].path == "api/kestrel/auth.py"
    assert ready.reports[2:] == reportset.reports[2:]


def test_a_result_in_a_file_not_there_is_no_wrong_range(kestrel: Path, tmp_path: Path) -> None:
    # the file is missing: its range cannot be judged, so it is not counted as wrong
    result = {"ruleId": "R", "message": {"text": "m"}, "locations": [located("api/gone.py", 3)]}
    sarif = write(tmp_path / "gone.sarif", log(run(result)))
    code, document = check_json(str(sarif), "--repo", str(kestrel), "--rev", CITED_REVISION)
    assert code == 1
    assert document["summary"]["files_missing"] == 1
    assert document["summary"]["range_wrong"] == 0


def test_two_runs_of_one_tool_keep_their_results_apart(tmp_path: Path) -> None:
    # one log of two sub-projects scanned apart: the same rule at the same place in each run
    result = {"ruleId": "no-eval", "message": {"text": "eval"}, "locations": [located("a.js", 1)]}
    sarif = write(
        tmp_path / "two.sarif", log(run(result, name="ESLint"), run(result, name="ESLint"))
    )
    first, second = load_sarif(sarif.read_bytes(), str(sarif))
    (one,), (two,) = first.records, second.records
    assert two.id == f"{one.id} (2)"
    assert [d.message for d in second.diagnostics] == [f"result 1 repeats {one.id} (shown as (2))"]
