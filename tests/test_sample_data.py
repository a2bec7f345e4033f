"""The Kestrel sample: deterministic rebuild, required content, and an answer key that is true."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from evidence import sample

KEY_COLUMNS = [
    "report",
    "marker line",
    "record",
    "cited path",
    "claimed",
    "file",
    "match",
    "lines",
    "range_ok",
    "elsewhere",
    "case",
]
REPORTS = ("kestrel-runtime-report.txt", "kestrel-workflow-report.txt")


def git(repo: Path, *args: str) -> bytes:
    return subprocess.run(
        ["git", "-c", "core.hooksPath=/dev/null", "-C", str(repo), *args],
        env=sample.git_environment(),
        capture_output=True,
        check=True,
    ).stdout


def show(repo: Path, rev: str, path: str) -> bytes | None:
    result = subprocess.run(
        ["git", "-C", str(repo), "show", f"{rev}:{path}"],
        env=sample.git_environment(),
        capture_output=True,
        check=False,
    )
    return result.stdout if result.returncode == 0 else None


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return sample.sample_repo(tmp_path_factory.mktemp("cache"))


@pytest.fixture(scope="module")
def key() -> list[dict[str, str]]:
    text = sample.ANSWER_KEY.read_text(encoding="utf-8")
    table = text.split("<!-- answer-key:start -->")[1].split("<!-- answer-key:end -->")[0]
    lines = [line for line in table.strip().splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    assert header == KEY_COLUMNS
    return [
        dict(zip(header, (cell.strip() for cell in line.strip("|").split("|")), strict=True))
        for line in lines[2:]
    ]


def span(text: str, start: int, end: int) -> str:
    return f"{text.count(chr(10), 0, start) + 1}-{text.count(chr(10), 0, end) + 1}"


def quote_at(report: str, marker: int) -> tuple[str, str]:
    """(quote text, marker target) for the marker on report line ``marker`` (a plain scan)."""
    lines = (sample.SAMPLE_REPORTS / report).read_text(encoding="utf-8").splitlines()
    line = lines[marker - 1]
    if line.startswith("--- "):  # block: indented lines, a blank line, the marker
        assert lines[marker - 2] == ""
        block: list[str] = []
        index = marker - 3
        while lines[index].strip():
            assert lines[index].startswith(" ")  # indented, and otherwise the source verbatim
            block.insert(0, lines[index])
            index -= 1
        return "\n".join(block), line[4:]
    head, _, target = line.rpartition(" --- ")
    paragraph = [head]
    index = marker - 2
    while index >= 0 and lines[index].strip():
        paragraph.insert(0, lines[index])
        index -= 1
    return "\n".join(paragraph), target


def occurrences(text: str, source: str, *, collapse: bool) -> list[str]:
    if collapse:
        pattern = r"\s+".join(re.escape(token) for token in text.split())
    else:
        pattern = re.escape(text)
    return [span(source, *match.span()) for match in re.finditer(pattern, source)]


# --- the stream and the rebuild ---------------------------------------------------------------


def load_make_stream() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "make_stream", sample.SAMPLE_DATA / "make_stream.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it executes
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


def test_committed_stream_is_what_the_generator_writes() -> None:
    assert load_make_stream().build_stream() == sample.STREAM.read_bytes()


def test_rebuild_is_byte_identical(tmp_path: Path) -> None:
    listings = []
    for name in ("one", "two"):
        built = sample.build_repo(tmp_path / name)
        assert git(built, "rev-parse", "main").decode().strip() == sample.TIP_REVISION
        assert git(built, "rev-parse", "main~4").decode().strip() == sample.CITED_REVISION
        assert git(built, "rev-parse", "main~5").decode().strip() == sample.FIRST_REVISION
        tag = git(built, "rev-parse", f"{sample.CITED_TAG}^{{commit}}").decode().strip()
        assert tag == sample.CITED_REVISION
        listings.append(git(built, "cat-file", "--batch-all-objects", "--batch-check"))
    assert listings[0] == listings[1]
    assert len(listings[0].splitlines()) > 50


def test_sample_repo_is_built_once_and_reused(tmp_path: Path) -> None:
    first = sample.sample_repo(tmp_path)
    marker = first / ".git" / "assay-test-marker"
    marker.write_text("kept", encoding="utf-8")
    assert sample.sample_repo(tmp_path) == first
    assert marker.exists()  # reused, not rebuilt
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [first.name, "stream.stamp"]  # no scratch directory left
    assert first.name == f"kestrel-{sample.stream_digest()}"


def test_stream_digest_is_remembered_until_the_stream_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stream = tmp_path / "stream.fi"
    stream.write_bytes(b"blob one\n")
    monkeypatch.setattr(sample, "STREAM", stream)
    cache = tmp_path / "cache"
    first = sample._cached_digest(cache)
    assert first == sample.stream_digest()
    assert (cache / "stream.stamp").read_text().endswith(first)
    calls: list[int] = []
    real = sample.stream_digest

    def counted() -> str:
        calls.append(1)
        return real()

    monkeypatch.setattr(sample, "stream_digest", counted)
    assert sample._cached_digest(cache) == first
    assert calls == []  # read from the stamp, not hashed
    stream.write_bytes(b"blob two, longer\n")  # edited: another size (and time)
    second = sample._cached_digest(cache)
    assert second == real() != first
    assert calls == [1]
    (cache / "stream.stamp").write_text("garbage")
    assert sample._cached_digest(cache) == second
    assert calls == [1, 1]


def test_user_config_cannot_change_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # reference-transaction runs on every ref update, fast-import's included
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    hook = hooks / "reference-transaction"
    hook.write_text(f"#!/bin/sh\ncat >/dev/null\ntouch {tmp_path}/hook-ran\n")
    hook.chmod(0o755)
    config = f"[core]\n\thooksPath = {hooks}\n\tautocrlf = true\n"
    (tmp_path / ".gitconfig").write_text(config)
    (tmp_path / "global").write_text(config)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "global"))
    built = sample.build_repo(tmp_path / "repo")
    assert not (tmp_path / "hook-ran").exists()
    assert git(built, "rev-parse", "HEAD").decode().strip() == sample.TIP_REVISION
    assert b"\r\n" not in (built / "api" / "server.py").read_bytes()


# --- required content -----------------------------------------------------------------------


def test_cited_revision_has_the_required_content(repo: Path) -> None:
    entries = [
        line.split(b"\t", 1)
        for line in git(repo, "ls-tree", "-r", sample.CITED_REVISION).splitlines()
    ]
    modes = {path.decode(): meta.split()[0].decode() for meta, path in entries}
    assert len(modes) >= 30
    suffixes = {Path(path).suffix for path in modes}
    assert {".py", ".ts", ".tsx", ".js", ".sql", ".yml", ".md"} <= suffixes
    assert modes["config/current.yml"] == "120000"
    icon = show(repo, sample.CITED_REVISION, "web/public/favicon.ico")
    assert icon is not None and b"\0" in icon[:8000]
    legacy = show(repo, sample.CITED_REVISION, "data/legacy/stations_1998.csv")
    assert legacy is not None
    with pytest.raises(UnicodeDecodeError):
        legacy.decode("utf-8")
    stations = show(repo, sample.CITED_REVISION, "api/kestrel/stations.py")
    assert stations is not None and stations.count(b"\n") >= 20_000
    assert len(git(repo, "rev-list", "--all").splitlines()) >= 3


def test_tip_is_checked_out_and_differs_from_the_cited_revision(
    repo: Path, key: list[dict[str, str]]
) -> None:
    assert sample.CITED_REVISION != sample.TIP_REVISION
    assert git(repo, "rev-parse", "HEAD").decode().strip() == sample.TIP_REVISION
    assert git(repo, "status", "--porcelain") == b""
    tip_tickets = (repo / "api" / "kestrel" / "tickets.py").read_text(encoding="utf-8")
    assert "ESCALATE_AFTER_MINUTES = 20" in tip_tickets
    changed = 0
    for row in key:
        if row["lines"] == "-":
            continue
        first, last = (int(n) for n in row["lines"].split("-"))
        cited = show(repo, sample.CITED_REVISION, row["cited path"])
        tip = show(repo, sample.TIP_REVISION, row["cited path"])
        assert cited is not None
        if (
            tip is None
            or cited.splitlines()[first - 1 : last] != tip.splitlines()[first - 1 : last]
        ):
            changed += 1
    assert changed >= 5


# --- the reports ------------------------------------------------------------------------------


def test_reports_state_the_revision_citations_and_a_true_search(repo: Path) -> None:
    runtime = (sample.SAMPLE_REPORTS / REPORTS[0]).read_text(encoding="utf-8")
    workflow = (sample.SAMPLE_REPORTS / REPORTS[1]).read_text(encoding="utf-8")
    both = runtime + workflow
    assert sample.CITED_REVISION in runtime and sample.CITED_REVISION in workflow
    assert sample.TIP_REVISION not in both
    assert re.search(r"\(SRC-1, [\w/.-]+, [\w/.-]+", both)
    assert re.search(r"\[SRC-1: [\w/.-]+, [\w/.-]+", both)
    assert "rg -n 'require_token' api/server.py returns exactly five lines" in runtime
    hits = git(
        repo, "grep", "-n", "-F", "require_token", sample.CITED_REVISION, "--", "api/server.py"
    )
    assert len(hits.splitlines()) == 5
    tip_hits = git(repo, "grep", "-n", "-F", "require_token", "HEAD", "--", "api/server.py")
    assert len(tip_hits.splitlines()) == 6
    for prefix in ("KS-CMP-", "KS-OBJ-", "KS-RTE-", "KS-CLM-", "KS-ABS-", "KS-BAP-"):
        assert re.search(rf"^{prefix}[a-z-]+$", runtime, re.MULTILINE), prefix
    assert workflow.count("none declared in this member") == 6
    assert re.search(r"^On KS-RTE-[a-z-]+$", workflow, re.MULTILINE)


def test_key_has_one_row_per_quote_marker(key: list[dict[str, str]]) -> None:
    markers = set()
    for report in REPORTS:
        lines = (sample.SAMPLE_REPORTS / report).read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, start=1):
            if re.match(r"--- \S+$", line) or re.search(r"\S --- [\w./-]+(:\d+-\d+)?$", line):
                markers.add((report, number))
    rows = [(row["report"], int(row["marker line"])) for row in key]
    assert len(rows) == len(set(rows))
    assert set(rows) == markers
    assert len(rows) >= 25


def test_key_values_are_well_formed(key: list[dict[str, str]]) -> None:
    for row in key:
        assert row["file"] in {"ok", "missing", "binary", "too_large"}, row
        assert row["match"] in {"exact", "whitespace", "normalized", "fuzzy", "missing"}, row
        assert row["range_ok"] in {"yes", "no", "-"}, row
        assert (row["claimed"] == "-") == (row["range_ok"] == "-"), row
        assert re.fullmatch(r"-|\d+-\d+", row["lines"]), row
        assert (row["lines"] == "-") == (row["match"] == "missing"), row
        if row["elsewhere"] != "-":
            assert all(re.fullmatch(r"[\w./-]+:\d+-\d+", e) for e in row["elsewhere"].split(";"))
    tiers = {row["match"] for row in key}
    assert tiers == {"exact", "whitespace", "normalized", "fuzzy", "missing"}


def test_key_rows_agree_with_the_cited_revision(repo: Path, key: list[dict[str, str]]) -> None:
    for row in key:
        text, target = quote_at(row["report"], int(row["marker line"]))
        path, _, claimed = target.partition(":")
        assert path == row["cited path"], row
        assert (claimed or "-") == row["claimed"], row
        blob = show(repo, sample.CITED_REVISION, path)
        if row["file"] == "missing":
            assert blob is None, row
            continue
        assert blob is not None, row
        if row["file"] == "binary":
            assert b"\0" in blob[:8000], row
            continue
        source = blob.decode("utf-8", "replace")
        exact = occurrences(text, source, collapse=False)
        collapsed = occurrences(text, source, collapse=True)
        if row["match"] == "exact":
            assert row["lines"] in exact, row
        elif row["match"] == "whitespace":
            assert not exact and row["lines"] in collapsed, row
        else:  # normalized, fuzzy, missing: not there even with whitespace collapsed
            assert not collapsed, row
        if row["range_ok"] != "-":
            assert (row["claimed"] == row["lines"]) == (row["range_ok"] == "yes"), row
            assert row["range_ok"] == "yes" or row["claimed"] not in exact + collapsed, row
    for row in key:
        if row["elsewhere"] == "-":
            continue
        text, _ = quote_at(row["report"], int(row["marker line"]))
        for place in row["elsewhere"].split(";"):
            other, _, lines = place.partition(":")
            blob = show(repo, sample.CITED_REVISION, other)
            assert blob is not None, place
            assert lines in occurrences(text, blob.decode("utf-8"), collapse=True), place
