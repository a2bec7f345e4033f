"""`assay export --format sarif` of a SARIF review: the scanner's runs, verdicts as suppressions,
valid against the official SARIF 2.1.0 schema (copied here from ../shared/schemas)."""

from __future__ import annotations

import copy
import gzip
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

from db.export import render
from db.keys import ItemRef
from db.store import VerdictStore
from evidence.model import Record, Report
from evidence.reports.loading import load_reports
from evidence.sample import SAMPLE_REPORTS
from evidence.sarif.rebase import for_system
from tui.cli import cli

#: the SARIF files written for the sample repository (tests/evidence/sarifkit.py names them)
SARIF_FILES = Path(__file__).resolve().parents[1] / "evidence" / "sarif"
CODEQL = SARIF_FILES / "codeql-kestrel.sarif"
OTHER = SARIF_FILES / "other-checkout.sarif"

SCHEMA = json.loads((Path(__file__).with_name("sarif-schema-2.1.0.json")).read_text())
REV = "802776dd27b8c567fc18b46afc7b0cf64426b1f9"


def validate(document: dict[str, Any]) -> None:
    """Raises when ``document`` is not valid SARIF 2.1.0."""
    jsonschema.Draft4Validator(SCHEMA).validate(document)


def record(report: Report, label: str) -> Record:
    return next(r for r in report.records if r.label.startswith(label))


def review(store: VerdictStore, sarif: Path) -> list[Report]:
    """Verdicts on the CodeQL run, as a reviewer gives them."""
    reportset = load_reports([sarif])
    store.register(reportset, revision=REV)
    python = reportset.reports[0]
    hashing = record(python, "Sensitive data")
    exposure = record(python, "Exception text")
    lookup = record(python, "This enum lookup")
    store.give(
        ItemRef.for_record(python, hashing),
        "refuted",
        note="the header is a token digest, not a password",
        reviewer="ann",
        revision=REV,
    )
    store.give(ItemRef.for_record(python, exposure), "unclear", reviewer="ann", revision=REV)
    store.give(ItemRef.for_record(python, exposure), "refuted", reviewer="bob", revision=REV)
    store.give(ItemRef.for_record(python, lookup), "confirmed", reviewer="ann", revision=REV)
    step = lookup.quotes[2]
    store.give(
        ItemRef.for_quote(python, lookup, step), "confirmed", note="parsed here", reviewer="ann"
    )
    return list(reportset.reports)


def results(document: dict[str, Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = document["runs"][0]["results"]
    return found


def test_the_fixtures_are_valid_sarif() -> None:
    for path in (CODEQL, OTHER, CODEQL.with_name("semgrep-kestrel.sarif")):
        validate(json.loads(path.read_text()))


def test_verdicts_become_suppressions_and_properties(store: VerdictStore) -> None:
    review(store, CODEQL)
    document = json.loads(render(store, "sarif"))
    validate(document)
    hashing, exposure, lookup, scope, unused = results(document)[:5]
    (refuted,) = hashing["suppressions"]
    assert refuted == {
        "kind": "external",
        "status": "accepted",
        "justification": "the header is a token digest, not a password",
        "properties": {"reviewer": "ann", "verdict": "refuted", "at": refuted["properties"]["at"]},
    }
    assert [s["status"] for s in exposure["suppressions"]] == ["underReview", "accepted"]
    assert [s["properties"]["reviewer"] for s in exposure["suppressions"]] == ["ann", "bob"]
    assert "suppressions" not in lookup  # confirmed: no suppression
    assert [v["verdict"] for v in lookup["properties"]["assay"]["verdicts"]] == ["confirmed"]
    (step,) = lookup["properties"]["assay"]["locations"]
    assert step == {
        "index": 2,
        "role": "step",
        "reviewer": "ann",
        "verdict": "confirmed",
        "note": "parsed here",
        "at": step["at"],
    }
    assert "properties" not in scope  # no verdict: untouched
    # a suppression the scanner wrote stays
    assert unused["suppressions"][0]["kind"] == "inSource"


def test_the_runs_are_otherwise_unchanged(store: VerdictStore) -> None:
    review(store, CODEQL)
    document = json.loads(render(store, "sarif"))
    original = json.loads(CODEQL.read_text())
    stripped = copy.deepcopy(document)
    for run in stripped["runs"]:
        for result in run["results"]:
            properties = result.get("properties", {})
            properties.pop("assay", None)
            if "properties" in result and not properties:
                del result["properties"]
            kept = [s for s in result.get("suppressions", []) if s["kind"] != "external"]
            if "suppressions" in result and not kept:
                del result["suppressions"]
    assert stripped == original
    assert len(document["runs"]) == 2  # the reports' own run is not added: none were reviewed


def test_only_one_reviewer(store: VerdictStore) -> None:
    review(store, CODEQL)
    document = json.loads(render(store, "sarif", reviewer="bob"))
    validate(document)
    exposure = results(document)[1]
    assert [s["properties"]["reviewer"] for s in exposure["suppressions"]] == ["bob"]
    assert "suppressions" not in results(document)[0]


def test_cli_export_of_a_gzip_review_and_a_moved_file(tmp_path: Path, db_path: Path) -> None:
    packed = tmp_path / "scan.sarif.gz"
    packed.write_bytes(gzip.compress(CODEQL.read_bytes()))
    with VerdictStore.open(db_path) as store:
        review(store, packed)
    out = tmp_path / "triaged.sarif"
    runner = CliRunner()
    result = runner.invoke(
        cli, ["export", "--db", str(db_path), "--format", "sarif", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    document = json.loads(out.read_text())
    validate(document)
    assert results(document)[0]["suppressions"][0]["status"] == "accepted"
    # the file the review read is gone: a clear message, then --sarif names it
    moved = tmp_path / "elsewhere.sarif"
    shutil.move(packed, moved)
    result = runner.invoke(cli, ["export", "--db", str(db_path), "--format", "sarif"])
    assert result.exit_code == 2
    assert "not here" in result.output and "--sarif" in result.output
    assert "Traceback" not in result.output
    result = runner.invoke(
        cli, ["export", "--db", str(db_path), "--format", "sarif", "--sarif", str(moved)]
    )
    assert result.exit_code == 0
    validate(json.loads(result.stdout))
    result = runner.invoke(cli, ["export", "--db", str(db_path), "--sarif", str(moved)])
    assert result.exit_code == 2 and "--sarif goes with --format sarif" in result.output


def test_a_bad_sarif_file_is_one_line(tmp_path: Path, db_path: Path) -> None:
    bad = tmp_path / "bad.sarif"
    bad.write_text('{"version": "2.0.0", "runs": []}')
    with VerdictStore.open(db_path):
        pass
    result = CliRunner().invoke(
        cli, ["export", "--db", str(db_path), "--format", "sarif", "--sarif", str(bad)]
    )
    assert result.exit_code == 2 and "not SARIF 2.1.0" in result.output


def test_reports_reviewed_beside_sarif_keep_their_own_run(store: VerdictStore) -> None:
    review(store, CODEQL)
    reports = load_reports([SAMPLE_REPORTS])
    store.register(reports, revision=REV)
    runtime = reports.reports[0]
    claim = next(r for r in runtime.records if r.quotes)
    store.give(ItemRef.for_quote(runtime, claim, claim.quotes[0]), "refuted", reviewer="ann")
    document = json.loads(render(store, "sarif"))
    validate(document)
    assert [run["tool"]["driver"]["name"] for run in document["runs"]] == [
        "CodeQL",
        "CodeQL",
        "assay",
    ]
    own = document["runs"][2]["results"]
    assert own and {r["properties"]["report"] for r in own} <= {
        report.identity for report in reports.reports
    }


def test_the_export_reads_of_the_items_only_what_it_uses(store: VerdictStore) -> None:
    # every item's row, read whole, took 460 MB on a scan while its SARIF file was parsed
    review(store, CODEQL)
    store.register(load_reports([SAMPLE_REPORTS]), revision=REV)
    every = store.items()
    columns = ("kind", "report", "report_file", "registered_at", "ord", "present")
    results = [
        {name: item[name] for name in columns}
        for item in every
        if item["kind"] == "result" and item["report_file"]
    ]
    assert results and store.result_files() == results
    quotes = [item for item in every if item["quote"] is not None and item["kind"] != "result"]
    assert quotes and store.quote_items() == quotes
    assert len(results) + len(quotes) < len(every)


def test_reports_only_keep_todays_export(store: VerdictStore) -> None:
    reports = load_reports([SAMPLE_REPORTS])
    store.register(reports, revision=REV)
    document = json.loads(render(store, "sarif"))
    validate(document)
    assert [run["tool"]["driver"]["name"] for run in document["runs"]] == ["assay"]


RUFF = SARIF_FILES / "ruff-kestrel.sarif"
BANDIT = SARIF_FILES / "bandit-kestrel.sarif"


def test_the_runs_keep_the_order_the_files_were_given(store: VerdictStore) -> None:
    # by report identity "Bandit/..." sorts before "ruff/...": the order given wins
    for files in ([RUFF, BANDIT], [BANDIT, RUFF]):
        store.register(load_reports(files), revision=REV)
        document = json.loads(render(store, "sarif"))
        validate(document)
        names = [run["tool"]["driver"]["name"] for run in document["runs"]]
        assert names == [
            json.loads(path.read_text())["runs"][0]["tool"]["driver"]["name"] for path in files
        ]


def test_a_verdict_on_the_only_location_is_the_results_suppression(store: VerdictStore) -> None:
    reportset = load_reports([RUFF, CODEQL])
    store.register(reportset, revision=REV)
    ruff, python = reportset.reports[0], reportset.reports[1]
    unused = next(r for r in ruff.records if r.section == "F401")
    location = ItemRef.for_quote(ruff, unused, unused.quotes[0])
    store.give(location, "refuted", note="re-export", reviewer="ann")
    store.give(location, "unclear", reviewer="bob")
    store.give(ItemRef.for_record(ruff, unused), "confirmed", reviewer="bob")  # bob's own wins
    # a result with several locations: a verdict on one of them is not the result's
    lookup = record(python, "This enum lookup")
    store.give(ItemRef.for_quote(python, lookup, lookup.quotes[0]), "refuted", reviewer="ann")
    document = json.loads(render(store, "sarif"))
    validate(document)
    result = document["runs"][0]["results"][0]
    assert result["ruleId"] == "F401" and result["message"]["text"].startswith("`pathlib.Path`")
    assert [(s["status"], s["properties"]["reviewer"]) for s in result["suppressions"]] == [
        ("accepted", "ann")
    ]
    assert result["suppressions"][0]["justification"] == "re-export"
    lookups = [r for r in document["runs"][1]["results"] if r["message"]["text"].startswith("This")]
    assert lookups and all("suppressions" not in r for r in lookups)


def test_a_report_review_names_its_revision_in_version_control_provenance(
    store: VerdictStore, tmp_path: Path
) -> None:
    reports = load_reports([SAMPLE_REPORTS])
    store.register(reports, revision=REV, repository=str(tmp_path), remote=None)
    document = json.loads(render(store, "sarif"))
    validate(document)
    (run,) = document["runs"]
    assert run["versionControlProvenance"] == [
        {"repositoryUri": tmp_path.as_uri(), "revisionId": REV}
    ]
    # a remote is the repository's URI; scp-like remotes are spelled as ssh:// URIs
    remote = "git@host.example:team/kestrel.git"
    store.register(reports, revision=REV, repository=str(tmp_path), remote=remote)
    (run,) = json.loads(render(store, "sarif"))["runs"]
    assert run["versionControlProvenance"] == [
        {"repositoryUri": "ssh://git@host.example/team/kestrel.git", "revisionId": REV}
    ]
    validate({"version": "2.1.0", "runs": [run]})


def test_items_read_in_part_hold_those_columns_only(store: VerdictStore) -> None:
    review(store, CODEQL)
    every = store.items()
    chosen = ("item", "report", "quote", "present")
    assert store.items(chosen) == [{name: item[name] for name in chosen} for item in every]
    with pytest.raises(ValueError, match="no such item column: nope"):
        store.items(("item", "nope"))


def test_verdicts_on_results_a_new_scan_lacks_are_named(tmp_path: Path, db_path: Path) -> None:
    scan = tmp_path / "codeql.sarif"
    shutil.copy(CODEQL, scan)
    with VerdictStore.open(db_path) as store:
        review(store, scan)
    # the scanner run again, over the reviewed file: the stack trace exposure was fixed
    rerun = json.loads(scan.read_text())
    python = rerun["runs"][0]["results"]
    python[:] = [found for found in python if "Exception text" not in found["message"]["text"]]
    scan.write_text(json.dumps(rerun))
    result = CliRunner().invoke(cli, ["export", "--db", str(db_path), "--format", "sarif"])
    assert result.exit_code == 0
    assert len(results(json.loads(result.stdout))) == len(rerun["runs"][0]["results"])
    [notice] = result.stderr.splitlines()
    assert notice.startswith(
        "assay export: 2 verdict(s) or note(s) are on results the SARIF files no longer hold, "
        "and are not in this export"
    )
    exposure = "py/stack-trace-exposure:54dbb09e86e0"
    assert notice.endswith(f": {exposure} (ann unclear), {exposure} (bob refuted)")
    shutil.copy(CODEQL, scan)  # the scan reviewed: every verdict written, nothing said
    result = CliRunner().invoke(cli, ["export", "--db", str(db_path), "--format", "sarif"])
    assert result.exit_code == 0 and result.stderr == ""


def test_a_file_named_twice_is_written_once(tmp_path: Path, db_path: Path) -> None:
    scan = tmp_path / "codeql.sarif"
    other = tmp_path / "semgrep.sarif"
    shutil.copy(CODEQL, scan)
    shutil.copy(CODEQL.with_name("semgrep-kestrel.sarif"), other)
    with VerdictStore.open(db_path) as store:
        review(store, scan)
    (tmp_path / "scans").mkdir()
    names = [scan, other, tmp_path / "scans" / ".." / "codeql.sarif"]  # a glob and a name
    args = [arg for name in names for arg in ("--sarif", str(name))]
    result = CliRunner().invoke(cli, ["export", "--db", str(db_path), "--format", "sarif", *args])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    validate(document)
    drivers = [run["tool"]["driver"]["name"] for run in document["runs"]]
    assert drivers == ["CodeQL", "CodeQL", "Semgrep OSS"]  # codeql's two runs once, in order


def test_one_scan_of_two_systems_carries_both_systems_verdicts(
    tmp_path: Path, store: VerdictStore
) -> None:
    # an audit's scan of a monorepo, registered under each system that names it: the export
    # wrote one system's verdicts (the first by name) and dropped the other's without a word
    scan = tmp_path / "codeql.sarif"
    shutil.copy(CODEQL, scan)
    for system, verdict in (("kestrel", "refuted"), ("heron", "unclear")):
        reportset = for_system(load_reports([scan]), system)
        store.register(reportset, revision=REV)
        python = reportset.reports[0]
        hashing = record(python, "Sensitive data")
        store.give(
            ItemRef.for_record(python, hashing), verdict, note=f"{system}: seen", reviewer="ann"
        )
    document = json.loads(render(store, "sarif"))
    validate(document)
    assert len(document["runs"]) == 2  # the file's two runs, once each
    hashing_result = results(document)[0]
    assert sorted(
        (found["status"], found["justification"]) for found in hashing_result["suppressions"]
    ) == [("accepted", "kestrel: seen"), ("underReview", "heron: seen")]


def test_an_audits_scan_moved_since_keeps_its_verdicts(tmp_path: Path, db_path: Path) -> None:
    # `--sarif FILE` names a moved file: in an audit, where a run is registered under its
    # system, the export found none of its verdicts and wrote the run without them
    scans = {system: tmp_path / system / f"{system}.sarif" for system in ("kestrel", "heron")}
    with VerdictStore.open(db_path) as store:
        for system, scan in scans.items():
            scan.parent.mkdir()
            shutil.copy(CODEQL, scan)
            reportset = for_system(load_reports([scan]), system)
            store.register(reportset, revision=REV)
            python = reportset.reports[0]
            hashing = ItemRef.for_record(python, record(python, "Sensitive data"))
            store.give(hashing, "refuted", note=f"{system}: seen", reviewer="ann")
    moved = tmp_path / "handed-over" / "kestrel.sarif"
    moved.parent.mkdir()
    shutil.move(scans["kestrel"], moved)
    args = ["export", "--db", str(db_path), "--format", "sarif", "--sarif", str(moved)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0 and result.stderr == ""
    [suppression] = results(json.loads(result.stdout))[0]["suppressions"]
    assert suppression["justification"] == "kestrel: seen"  # its own system's, not heron's
    renamed = moved.rename(moved.with_name("codeql.sarif"))  # which system's? not guessed
    args[-1] = str(renamed)
    assert "suppressions" not in results(json.loads(CliRunner().invoke(cli, args).stdout))[0]


def test_a_rescan_elsewhere_exports_the_scan_registered_last(tmp_path: Path, db_path: Path) -> None:
    # the scan before wrote to another file, since deleted: its results the rescan no longer
    # holds (a finding fixed) are not a run of the export, nor a file it needs
    before, after = tmp_path / "monday" / "ruff.sarif", tmp_path / "tuesday" / "ruff.sarif"
    before.parent.mkdir()
    after.parent.mkdir()
    shutil.copy(RUFF, before)
    rescan = json.loads(RUFF.read_text())
    fixed = rescan["runs"][0]["results"].pop(0)
    after.write_text(json.dumps(rescan))
    with VerdictStore.open(db_path) as store:
        store.register(load_reports([before]), revision=REV)
        reportset = load_reports([after])
        store.register(reportset, revision=REV)
        kept = reportset.reports[0].records[0]
        store.give(ItemRef.for_record(reportset.reports[0], kept), "refuted", reviewer="ann")
        document = json.loads(render(store, "sarif"))
    validate(document)
    assert len(document["runs"]) == 1
    (run,) = document["runs"]
    assert fixed not in run["results"] and len(run["results"]) == len(rescan["runs"][0]["results"])
    assert run["results"][0]["suppressions"][0]["properties"]["reviewer"] == "ann"
    before.unlink()
    result = CliRunner().invoke(cli, ["export", "--db", str(db_path), "--format", "sarif"])
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.stdout)["runs"]) == 1


def test_a_triaged_log_reviewed_again_exports_the_verdicts_of_now(
    store: VerdictStore, tmp_path: Path
) -> None:
    # the export, reviewed again (a file for "code scanning and assay alike"): the suppressions
    # its earlier verdicts became are replaced by the verdicts of now, never written twice
    review(store, CODEQL)
    triaged = tmp_path / "triaged.sarif"
    triaged.write_text(render(store, "sarif"))
    reportset = load_reports([triaged])
    store.register(reportset, revision=REV)
    python = reportset.reports[0]
    hashing = record(python, "Sensitive data")
    store.give(ItemRef.for_record(python, hashing), "confirmed", reviewer="ann", revision=REV)
    document = json.loads(render(store, "sarif"))
    validate(document)  # suppressions are unique items
    hashing_now, exposure, lookup = results(document)[:3]
    assert "suppressions" not in hashing_now  # ann confirms it now: no longer suppressed
    assert [v["verdict"] for v in hashing_now["properties"]["assay"]["verdicts"]] == ["confirmed"]
    assert [(s["status"], s["properties"]["reviewer"]) for s in exposure["suppressions"]] == [
        ("underReview", "ann"),
        ("accepted", "bob"),
    ]
    assert len(lookup["properties"]["assay"]["locations"]) == 1
    # the scanner's own suppression stays, once
    unused = results(document)[4]
    assert [s["kind"] for s in unused["suppressions"]] == ["inSource"]


def test_a_gz_out_file_is_gzip_that_a_review_reads_back(tmp_path: Path, db_path: Path) -> None:
    with VerdictStore.open(db_path) as store:
        review(store, CODEQL)
    out = tmp_path / "triaged.sarif.gz"
    args = ["export", "--db", str(db_path), "--format", "sarif", "--out", str(out)]
    assert CliRunner().invoke(cli, args).exit_code == 0
    document = json.loads(gzip.decompress(out.read_bytes()))
    validate(document)
    assert results(document)[0]["suppressions"][0]["status"] == "accepted"
    assert [len(report.records) for report in load_reports([out]).reports] == [
        len(run["results"]) for run in document["runs"]
    ]


def clean(scan: Path, path: Path) -> Path:
    """``scan`` run again with nothing found: its runs, with no result."""
    document = json.loads(scan.read_text())
    for run in document["runs"]:
        run["results"] = []
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document))
    return path


def drivers(document: dict[str, Any]) -> list[tuple[str, int]]:
    return [(run["tool"]["driver"]["name"], len(run["results"])) for run in document["runs"]]


def test_a_scan_that_found_nothing_keeps_its_run(tmp_path: Path, store: VerdictStore) -> None:
    # a clean Bandit scan vanished from the export: "ran and found nothing" read as "did not run"
    bandit = clean(BANDIT, tmp_path / "bandit.sarif")
    store.register(load_reports([RUFF, bandit]), revision=REV)
    document = json.loads(render(store, "sarif"))
    validate(document)
    assert drivers(document) == [
        ("ruff", len(json.loads(RUFF.read_text())["runs"][0]["results"])),
        ("Bandit", 0),
    ]


def test_a_rescan_elsewhere_that_found_nothing_is_the_run_exported(
    tmp_path: Path, db_path: Path
) -> None:
    before = tmp_path / "monday" / "bandit.sarif"
    before.parent.mkdir()
    shutil.copy(BANDIT, before)
    after = clean(BANDIT, tmp_path / "tuesday" / "bandit.sarif")
    with VerdictStore.open(db_path) as store:
        reportset = load_reports([RUFF, before])
        store.register(reportset, revision=REV)
        scan = reportset.reports[1]
        store.give(ItemRef.for_record(scan, scan.records[0]), "confirmed", reviewer="ann")
        store.register(load_reports([RUFF, after]), revision=REV)
    result = CliRunner().invoke(cli, ["export", "--db", str(db_path), "--format", "sarif"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    validate(document)
    assert [name for name, _ in drivers(document)] == ["ruff", "Bandit"]
    assert drivers(document)[1] == ("Bandit", 0)
    # the verdict on what the clean scan no longer finds is named, as for any result gone
    assert "1 verdict(s) or note(s) are on results the SARIF files no longer hold" in (
        result.stderr
    )


def test_a_scan_registered_by_an_older_assay_is_found_by_its_results(
    store: VerdictStore, db_path: Path
) -> None:
    # its sources name no run files: the results registered say where it came from, as before
    store.register(load_reports([RUFF, BANDIT]), revision=REV)
    with sqlite3.connect(db_path) as raw:
        raw.execute("UPDATE report_sources SET run_files = NULL, ord = NULL")
    raw.close()
    assert [name for name, _ in drivers(json.loads(render(store, "sarif")))] == ["ruff", "Bandit"]
