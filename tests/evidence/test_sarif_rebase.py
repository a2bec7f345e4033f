"""Paths of another checkout found in the revision; paths that are not there stay missing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sarifkit import located, log, run, write

from evidence.model import Diagnostic, Quote, Report
from evidence.reports.loading import load_reports
from evidence.sample import sample_repo
from evidence.sarif.rebase import checkout_paths, rebase_paths
from tui.cli import cli

TREE = {"index.js", "setup.py", "api/server.py", "api/kestrel/__init__.py", "lib/a.js"}


@pytest.fixture(scope="module")
def kestrel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return sample_repo(tmp_path_factory.mktemp("kestrel"))


def test_a_ci_checkout_s_paths_are_found_by_an_ending_that_keeps_a_directory() -> None:
    written = [
        "/home/runner/work/k/k/api/server.py",
        "C:/a/k/api/kestrel/__init__.py",  # a Windows runner
        "/home/runner/work/k/k/setup.py",  # a file at the root the first path showed
    ]
    assert checkout_paths(written, TREE) == {
        "/home/runner/work/k/k/api/server.py": "api/server.py",
        "C:/a/k/api/kestrel/__init__.py": "api/kestrel/__init__.py",
        "/home/runner/work/k/k/setup.py": "setup.py",
    }


@pytest.mark.parametrize(
    ("written", "found"),
    [
        # a file outside the checkout, found by its name alone
        (["/usr/lib/node_modules/foo/index.js"], {}),
        # no other path shows that /home/ci/k/ is a checkout
        (["/home/ci/k/setup.py"], {}),
        # the checkout's build/index.js is not its index.js
        (
            ["/home/ci/k/build/index.js", "/home/ci/k/api/server.py"],
            {"/home/ci/k/api/server.py": "api/server.py"},
        ),
        # a file under the checkout that the tree does not hold, not its lib/a.js
        (
            ["/w/k/node_modules/x/lib/a.js", "/w/k/api/server.py"],
            {"/w/k/api/server.py": "api/server.py"},
        ),
        (["/tmp/elsewhere.py"], {}),
    ],
)
def test_a_path_found_by_its_file_name_alone_or_below_the_root_is_not(
    written: list[str], found: dict[str, str]
) -> None:
    assert checkout_paths(written, TREE) == found


def _quotes(uris: list[str], tmp_path: Path) -> tuple[list[Quote], tuple[Diagnostic, ...]]:
    the_log = log(run(*({"ruleId": "R", "locations": [located(uri, 1)]} for uri in uris)))
    reportset = load_reports([write(tmp_path / "paths.sarif", the_log)])
    rebased = rebase_paths(reportset, TREE)
    (report,) = rebased.reports
    return [record.quotes[0] for record in report.records], report.diagnostics


def test_a_relative_path_is_the_repository_s_and_never_rebased(tmp_path: Path) -> None:
    quotes, diagnostics = _quotes(["dist/index.js", "vendor/api/server.py"], tmp_path)
    assert [quote.path for quote in quotes] == ["dist/index.js", "vendor/api/server.py"]
    assert not diagnostics


def test_a_rebased_path_names_the_path_the_log_wrote(tmp_path: Path) -> None:
    uris = ["file:///home/runner/work/k/k/api/server.py", "file:///usr/lib/node_modules/index.js"]
    quotes, diagnostics = _quotes(uris, tmp_path)
    assert [quote.path for quote in quotes] == ["api/server.py", "/usr/lib/node_modules/index.js"]
    assert quotes[0].note == "the log wrote /home/runner/work/k/k/api/server.py"
    assert quotes[1].note == ""
    (said,) = [d.message for d in diagnostics]
    assert said.startswith("1 absolute path(s) of another checkout found in the revision")
    assert "/home/runner/work/k/k/api/server.py as api/server.py" in said


def test_check_calls_paths_missing_that_the_revision_does_not_hold(
    kestrel: Path, tmp_path: Path
) -> None:
    uris = [
        "dist/worker/src/index.js",  # relative: the repository's dist/, which is not there
        "file:///usr/lib/node_modules/foo/pyproject.toml",  # outside the checkout
        "file:///home/runner/work/kestrel/kestrel/worker/src/index.js",
    ]
    the_log = log(run(*({"ruleId": "R", "locations": [located(uri, 1)]} for uri in uris)))
    path = write(tmp_path / "paths.sarif", the_log)
    result = CliRunner().invoke(
        cli, ["check", str(path), "--repo", str(kestrel), "--rev", "HEAD", "--format", "json"]
    )
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    found = [(q["path"], q["match"], q["note"]) for q in document["quotes"]]
    assert found == [
        ("dist/worker/src/index.js", "missing", None),
        ("/usr/lib/node_modules/foo/pyproject.toml", "missing", None),
        (
            "worker/src/index.js",
            "located",
            "the log wrote /home/runner/work/kestrel/kestrel/worker/src/index.js",
        ),
    ]
    assert any("1 absolute path(s) of another checkout" in d for d in document["diagnostics"])


@pytest.mark.parametrize(
    "mapped_to",
    [
        {"uri": "file:///home/ci/k/"},
        {"uri": "file:///home/ci/k"},  # no end slash: still the directory
        {"uri": "k/", "uriBaseId": "WORK"},  # relative to a base the run defines
    ],
)
def test_a_root_the_log_maps_its_repository_to_makes_its_paths_relative(
    tmp_path: Path, mapped_to: dict[str, str]
) -> None:
    # versionControlProvenance[].mappedTo is an artifactLocation: an absolute uri says where
    # the repository's root was; a file at that root is the repository's, one result or many
    the_log = log(
        run(
            {"ruleId": "R", "locations": [located("file:///home/ci/k/setup.py", 1)]},
            versionControlProvenance=[{"repositoryUri": "https://x/k", "mappedTo": mapped_to}],
            originalUriBaseIds={"WORK": {"uri": "file:///home/ci/"}},
        )
    )
    reportset = load_reports([write(tmp_path / "mapped.sarif", the_log)])
    (report,) = rebase_paths(reportset, TREE).reports
    assert [record.quotes[0].path for record in report.records] == ["setup.py"]


WINDOWS_TREE = {
    "src/app/Main.cs",
    "src/app/Util.cs",
    "README.md",
    "docs/Readme.md",
    "docs/README.md",
}


def _rebased(uris: list[str], tmp_path: Path, **extra: Any) -> Report:
    the_log = log(run(*({"ruleId": "R", "locations": [located(uri, 1)]} for uri in uris), **extra))
    reportset = load_reports([write(tmp_path / "windows.sarif", the_log)])
    (report,) = rebase_paths(reportset, WINDOWS_TREE).reports
    return report


def test_a_windows_scanners_path_is_found_ignoring_case_and_says_so(tmp_path: Path) -> None:
    # Windows paths ignore case: the scanner writes what the file system answered
    report = _rebased(["file:///C:/Src/App/Main.cs", "Src/App/Util.cs", "readme.md"], tmp_path)
    quotes = [record.quotes[0] for record in report.records]
    assert [quote.path for quote in quotes] == ["src/app/Main.cs", "src/app/Util.cs", "README.md"]
    assert quotes[0].note == "the log wrote C:/Src/App/Main.cs, found ignoring case"
    assert quotes[1].note == "the log wrote Src/App/Util.cs, found ignoring case"
    for record in report.records:
        assert ("path", "found ignoring case") in record.statuses
    said = [d.message for d in report.diagnostics]
    assert any(
        message.startswith("3 path(s) found in the revision only ignoring case")
        and "C:/Src/App/Main.cs as src/app/Main.cs" in message
        for message in said
    )


def test_a_path_two_files_match_ignoring_case_stays_missing(tmp_path: Path) -> None:
    report = _rebased(["DOCS/readme.MD", "file:///C:/Src/App/Main.cs"], tmp_path)
    quotes = [record.quotes[0] for record in report.records]
    assert [quote.path for quote in quotes] == ["DOCS/readme.MD", "src/app/Main.cs"]
    assert quotes[0].note == "" and report.records[0].statuses == (("level", "warning"),)


def test_a_path_found_as_written_is_not_matched_ignoring_case(tmp_path: Path) -> None:
    report = _rebased(["src/app/Main.cs", "README.md"], tmp_path)
    assert [record.quotes[0].note for record in report.records] == ["", ""]
    assert all(("path", "found ignoring case") not in r.statuses for r in report.records)
    assert not report.diagnostics


def test_a_mapped_windows_root_holds_paths_of_another_case(tmp_path: Path) -> None:
    # the drive letter's case is the most common difference (c: from one tool, C: from another)
    mapped = [{"repositoryUri": "https://x/app", "mappedTo": {"uri": "file:///C:/Work/App/"}}]
    report = _rebased(
        ["file:///c:/work/app/src/app/Main.cs"], tmp_path, versionControlProvenance=mapped
    )
    (record,) = report.records
    assert record.quotes[0].path == "src/app/Main.cs" and record.quotes[0].note == ""


def test_check_finds_a_windows_path_of_the_sample_ignoring_case(
    kestrel: Path, tmp_path: Path
) -> None:
    the_log = log(run({"ruleId": "R", "locations": [located("file:///C:/Ci/API/Server.py", 1)]}))
    path = write(tmp_path / "windows.sarif", the_log)
    result = CliRunner().invoke(
        cli, ["check", str(path), "--repo", str(kestrel), "--rev", "HEAD", "--format", "json"]
    )
    document = json.loads(result.stdout)
    found = [(q["path"], q["match"], q["note"]) for q in document["quotes"]]
    assert found == [
        ("api/server.py", "located", "the log wrote C:/Ci/API/Server.py, found ignoring case")
    ]
    assert result.exit_code == 0


def test_a_scan_run_in_the_repository_itself_reads_its_paths_as_the_revision_s(
    kestrel: Path, tmp_path: Path
) -> None:
    """ruff, eslint and others write absolute file:// URIs of the checkout they ran in: that is
    the repository reviewed, not another checkout, and each path is its own (no note)."""
    top = kestrel.resolve()
    uris = [
        f"file://{top}/worker/src/index.js",
        f"file://{top}/api/server.py",
        f"file://{top}/build/out.js",  # under the work tree, not in the revision
    ]
    the_log = log(run(*({"ruleId": "R", "locations": [located(uri, 1)]} for uri in uris)))
    path = write(tmp_path / "here.sarif", the_log)
    for repo in (kestrel, kestrel / "api"):  # the work tree, or a directory inside it
        result = CliRunner().invoke(
            cli, ["check", str(path), "--repo", str(repo), "--rev", "HEAD", "--format", "json"]
        )
        assert result.exit_code == 1, result.output
        document = json.loads(result.stdout)
        found = [(q["path"], q["match"], q["note"]) for q in document["quotes"]]
        assert found == [
            ("worker/src/index.js", "located", None),
            ("api/server.py", "located", None),
            (f"{top}/build/out.js", "missing", None),
        ]
        (said,) = [d for d in document["diagnostics"] if "absolute path(s)" in d]
        assert "2 absolute path(s) in the repository's work tree read as the revision's" in said
