"""`assay parse`: the outline, the JSON bundle and its round trip, and plain errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from evidencekit import RUNTIME, WORKFLOW

from evidence.reports.loading import load_reports
from tui.cli import cli


@pytest.fixture
def reports(tmp_path: Path) -> Path:
    directory = tmp_path / "heron"
    directory.mkdir()
    (directory / "heron-runtime.txt").write_text(RUNTIME, encoding="utf-8")
    (directory / "heron-workflow.txt").write_text(WORKFLOW, encoding="utf-8")
    return directory


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["parse", *args])
    return result.exit_code, result.stdout, result.stderr


def test_text_outline(reports: Path) -> None:
    code, out, err = run(str(reports / "heron-runtime.txt"))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"{reports / 'heron-runtime.txt'}: Heron runtime report"
    assert "  Routes" in lines
    assert (
        "    route      RT-RTE-job-loop  Job loop  (lines 35-52; 2 quotes; "
        "implementation: wired, operation: uninspected)"
    ) in lines
    assert (
        "    narrative  runtime:failure-handling  Failure handling  "
        "(lines 11-15; 1 quote; 1 citation)" in lines
    )
    assert lines[-1] == (
        "  6 records (2 narrative, 1 component, 1 route, 1 claim, 1 absence), "
        "5 quotes, 3 citations, 0 diagnostics"
    )


def test_text_outline_shows_cross_report_findings(reports: Path) -> None:
    code, out, _ = run(str(reports))
    assert code == 0
    assert "across reports: 1 diagnostic" in out
    assert "On RT-RTE-job-loop (2) mentions RT-CLM-missing" in out


def test_control_characters_are_shown_not_sent(tmp_path: Path) -> None:
    path = tmp_path / "evil.txt"
    path.write_text("Evil \x1b[31mred\x1b[0m report\n\nType: t\n", encoding="utf-8")
    code, out, _ = run(str(path))
    assert code == 0
    assert "\x1b" not in out
    assert "Evil \\u001b[31mred\\u001b[0m report" in out


def test_json_contract_and_round_trip(reports: Path, tmp_path: Path) -> None:
    code, out, _ = run("--format", "json", str(reports))
    assert code == 0
    data = json.loads(out)
    assert [Path(r["file"]).name for r in data["reports"]] == [
        "heron-runtime.txt",
        "heron-workflow.txt",
    ]
    record = data["reports"][0]["records"][3]
    assert (record["id"], record["kind"], record["label"]) == (
        "RT-RTE-job-loop",
        "route",
        "Job loop",
    )
    assert record["quotes"][0]["claimed"] == [20, 21]
    bundle = tmp_path / "heron.json"
    bundle.write_text(out, encoding="utf-8")
    assert load_reports([bundle]) == load_reports([reports])
    code, again, _ = run("--format", "json", str(bundle))
    assert (code, again) == (0, out)


def test_json_of_reference_reports_round_trips(shared_reports: Path, tmp_path: Path) -> None:
    code, out, _ = run("-f", "json", str(shared_reports))
    assert code == 0
    bundle = tmp_path / "reference.json"
    bundle.write_text(out, encoding="utf-8")
    assert load_reports([bundle]) == load_reports([shared_reports])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.txt"], "assay parse: missing.txt: no such file or directory\n"),
        (["--format", "yaml", "x"], "Invalid value for '--format'"),
        ([], "no REPORT given and no assay.toml"),
    ],
)
def test_usage_and_input_errors_exit_2(args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert code == 2
    assert message in err
    assert "Traceback" not in err + out


def test_bad_bundle_is_one_line_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"reports": [{"file": 1}]}', encoding="utf-8")
    code, _, err = run(str(path))
    assert code == 2
    assert (
        err == f"assay parse: {path}: bundle.reports[0].file: expected a string, found a number\n"
    )


def test_installed_command(reports: Path) -> None:
    """The real console entry point, as a user runs it."""
    assay = Path(sys.executable).parent / "assay"
    result = subprocess.run(
        [str(assay), "parse", "--format", "json", str(reports / "heron-workflow.txt")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["reports"][0]["title"] == "Heron workflow report"
