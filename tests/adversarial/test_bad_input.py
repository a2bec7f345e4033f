"""Input that used to crash assay (exit 3, "internal error"): each now works or is refused in one
line with exit 2."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest
from clikit import assay, one_line_refusal
from sarifkit import located, log, run

from evidence.limits import MAX_EXPANDED_BYTES
from evidence.sample import CITED_REVISION, SAMPLE_REPORTS

CITED = "api/kestrel/auth.py"


def _sarif(tmp_path: Path, location: dict[str, object], message: str = "found") -> Path:
    result = {"ruleId": "r1", "message": {"text": message}, "locations": [location]}
    path = tmp_path / "scan.sarif"
    path.write_text(json.dumps(log(run(result))), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "artifact",
    [
        {"uri": ["api/kestrel/auth.py"]},
        {"uri": {"x": 1}},
        {"uri": CITED, "uriBaseId": ["%SRCROOT%"]},
        {"uri": CITED, "uriBaseId": {"a": "b"}},
        {"index": [0]},
        {"index": {"i": 0}},
    ],
)
def test_an_artifact_location_of_another_type_names_no_file(
    tmp_path: Path, artifact: dict[str, object]
) -> None:
    location: dict[str, object] = {
        "physicalLocation": {"artifactLocation": artifact, "region": {"startLine": 1}}
    }
    result = assay("parse", str(_sarif(tmp_path, location)))
    assert result.returncode == 0, result.stderr
    assert "name no file" in result.stdout or "1 quote" in result.stdout


def test_a_lone_surrogate_in_a_message(tmp_path: Path, sample: Path) -> None:
    path = _sarif(tmp_path, located(CITED, 1), message="bad \ud800 text")
    assert "\\ud800" in path.read_text(encoding="utf-8")
    for args in (
        ["parse", str(path)],
        ["parse", "--format", "json", str(path)],
        ["check", "--format", "json", "--rev", CITED_REVISION, "--repo", str(sample), str(path)],
    ):
        result = assay(*args)
        assert result.returncode in (0, 1), (args, result.stderr)
        assert "internal error" not in result.stderr
        if args[0] == "parse":
            assert "\ufffd" in result.stdout or "\\ufffd" in result.stdout


async def test_a_lone_surrogate_reaches_the_database_of_the_app(
    tmp_path: Path, sample: Path
) -> None:
    from screenkit import watch_notices

    from evidence.reports.loading import load_reports
    from screens.review.screen import ReviewScreen
    from tui.factory import make_app

    path = _sarif(tmp_path, located(CITED, 1), message="bad \ud800 text")
    reports = load_reports([path])
    app = make_app(reports, sample, CITED_REVISION, tmp_path / "v.db", "ada")
    async with app.run_test(size=(100, 30)) as pilot:
        notices = watch_notices(app)
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await screen.settle()
        await pilot.pause()
        assert not [n for n in notices if n.severity == "error"], notices
    from db.store import VerdictStore

    with VerdictStore.open(tmp_path / "v.db") as store:
        assert any("\ufffd" in str(item["label"]) for item in store.items())


@pytest.mark.parametrize("command", ["export", "stats", "sync", "import", "review"])
def test_a_database_name_over_255_bytes(tmp_path: Path, sample: Path, command: str) -> None:
    long = str(tmp_path / ("d" * 300 + ".sqlite3"))
    empty = tmp_path / "none.jsonl"
    empty.write_text("", encoding="utf-8")
    args = {
        "import": ["import", str(empty), "--db", long],
        "review": ["review", str(SAMPLE_REPORTS), "--repo", str(sample), "--db", long],
    }.get(command, [command, "--db", long])
    line = one_line_refusal(assay(*args))
    assert "more than file names may hold" in line


INCLUDES = ["gitdir:/", "gitdir/i:/", "onbranch:main", "onbranch:**", "hasconfig:remote.*.url:**"]


@pytest.fixture
def hostile_includes(tmp_path: Path, sample: Path) -> tuple[Path, Path]:
    """The sample repository whose config holds every kind of includeIf; the file they include
    names a program to run (it must not)."""
    repo = tmp_path / "repo"
    shutil.copytree(sample, repo, symlinks=True)
    marker = tmp_path / "ran"
    script = tmp_path / "program"
    script.write_text(f"#!/bin/sh\necho ran >> '{marker}'\n", encoding="utf-8")
    script.chmod(0o755)
    included = tmp_path / "included.cfg"
    included.write_text(
        f"[core]\n\tfsmonitor = {script}\n\tpager = {script}\n[diff]\n\texternal = {script}\n",
        encoding="utf-8",
    )
    config = repo / ".git" / "config"
    with config.open("a", encoding="utf-8") as handle:
        handle.write('[remote "origin"]\n\turl = https://forge.example/k.git\n')
        for kind in INCLUDES:
            handle.write(f'[includeIf "{kind}"]\n\tpath = {included}\n')
    return repo, marker


def test_check_works_with_every_kind_of_include_if(hostile_includes: tuple[Path, Path]) -> None:
    repo, marker = hostile_includes
    result = assay("check", "--repo", str(repo), str(SAMPLE_REPORTS / "kestrel-runtime-report.txt"))
    assert result.returncode in (0, 1), result.stderr
    assert "quotes:" in result.stdout and "internal error" not in result.stderr
    assert not marker.exists()


async def test_review_works_with_every_kind_of_include_if(
    hostile_includes: tuple[Path, Path], tmp_path: Path
) -> None:
    from screenkit import watch_notices

    from evidence.reports.loading import load_reports
    from screens.review.screen import ReviewScreen
    from tui.factory import make_app

    repo, marker = hostile_includes
    reports = load_reports([SAMPLE_REPORTS])
    app = make_app(reports, repo, CITED_REVISION, tmp_path / "v.db", "ada")
    async with app.run_test(size=(100, 30)) as pilot:
        notices = watch_notices(app)
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await screen.settle()
        await pilot.pause()
        assert screen.session.records and not [n for n in notices if n.severity == "error"]
    assert not marker.exists()


def test_a_gzip_bomb_is_refused_past_the_limit(tmp_path: Path) -> None:
    """A 10 MiB-expanding member repeated: the limit set low, the refusal comes early."""
    member = gzip.compress(b" " * (10 * 1024 * 1024), compresslevel=9)
    bomb = tmp_path / "bomb.sarif.gz"
    bomb.write_bytes(member * 8)
    result = assay("parse", str(bomb), env={"ASSAY_SARIF_MAX_BYTES": str(16 * 1024 * 1024)})
    line = one_line_refusal(result)
    assert "expands to more than 16,777,216 bytes" in line and "ASSAY_SARIF_MAX_BYTES" in line


def test_a_file_past_the_limit_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    """A report, a SARIF file or an endless device: refused past the limit, before memory runs
    out (/dev/zero was read until the process died)."""
    big = tmp_path / "big-report.txt"
    big.write_bytes(b"Title report\n" + b"x" * (3 * 1024 * 1024))
    small = {"ASSAY_SARIF_MAX_BYTES": str(2 * 1024 * 1024)}
    for path in (big, Path("/dev/zero")):
        if not path.exists():
            continue
        line = one_line_refusal(assay("parse", str(path), env=small))
        assert f"{path}: larger than 2,097,152 bytes" in line and "ASSAY_SARIF_MAX_BYTES" in line
    assert "larger than" not in assay("parse", str(big)).stderr  # under the default limit


def test_the_default_limit_is_about_twenty_times_the_largest_benchmark_log() -> None:
    from evidence.sarif.document import MAX_EXPANDED_BYTES, expanded_limit

    assert expanded_limit() == MAX_EXPANDED_BYTES
    assert 15 * 50_000_000 <= MAX_EXPANDED_BYTES <= 25 * 50_000_000


@pytest.mark.parametrize(
    ("given", "limit"),
    [("2000000", 2_000_000), ("2G", 2 << 30), ("2 GiB", 2 << 30), ("1.5m", 1536 << 10)],
)
def test_the_limit_may_be_set_in_bytes_or_with_a_unit(
    monkeypatch: pytest.MonkeyPatch, given: str, limit: int
) -> None:
    from evidence.limits import expanded_limit, limit_note

    monkeypatch.setenv("ASSAY_SARIF_MAX_BYTES", given)
    assert expanded_limit() == limit
    assert limit_note() == "ASSAY_SARIF_MAX_BYTES sets another limit"


@pytest.mark.parametrize("given", ["2 gigs", "0", "-5", "K", "9.9e999"])
def test_a_limit_that_is_no_size_is_said_when_the_default_refuses(
    tmp_path: Path, given: str
) -> None:
    # it was ignored without a word, and the refusal then said to set the variable one had set
    big = tmp_path / "big-report.txt"
    with big.open("wb") as file:
        file.truncate(MAX_EXPANDED_BYTES + 1)  # sparse: nothing of it is written or read
    line = one_line_refusal(assay("parse", str(big), env={"ASSAY_SARIF_MAX_BYTES": given}))
    assert line.endswith(
        f"(ASSAY_SARIF_MAX_BYTES={given!r} is not a size such as 2000000000 or 2G, so the "
        "default was used)"
    ), line


#: a name longer than any file system takes, and a path of short names longer than PATH_MAX
TOO_LONG = {"name": "d" * 300, "path": "/".join(["d" * 200] * 25)}


@pytest.mark.parametrize("length", sorted(TOO_LONG))
@pytest.mark.parametrize(
    "command", ["check", "grep", "show", "review", "browse", "audit init", "stats", "import"]
)
def test_a_path_the_system_cannot_take(
    tmp_path: Path, sample: Path, command: str, length: str
) -> None:
    # Path.exists and Path.is_dir raise on ENAMETOOLONG (Python 3.11): exit 3 before
    long = str(tmp_path / TOO_LONG[length])
    empty = tmp_path / "none.jsonl"
    empty.write_text("", encoding="utf-8")
    args = {
        "check": ["check", "--repo", long, str(SAMPLE_REPORTS)],
        "grep": ["grep", "--repo", long, "x"],
        "show": ["show", "--repo", long, "HEAD:a.py"],
        "review": ["review", "--repo", long, str(SAMPLE_REPORTS)],
        "browse": ["browse", "--repo", long],
        "audit init": ["audit", "init", long],
        "stats": ["stats", "--db", long],
        "import": ["import", "--db", long, str(empty)],
    }[command]
    line = one_line_refusal(assay(*args))
    assert line.startswith(f"assay {command}: ") and "d" * 30 in line, line
