"""The cache of parsed reports (evidence/reports/cache.py) and load_reports(..., cache=...).

Real files in tmp_path, real subprocesses; nothing is mocked. Reports are compared by ``repr`` as
well as ``==``: NamedTuples compare equal to plain tuples, so ``==`` alone would not notice a
Quote that came back as a tuple.
"""

from __future__ import annotations

import ast
import json
import marshal
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import sarifkit
from evidencekit import RUNTIME, WORKFLOW
from sarifkit import CODEQL

from evidence import cache_files
from evidence.model import Report
from evidence.reports import cache as report_cache
from evidence.reports.bundle import dump_bundle
from evidence.reports.loading import ReportError, load_reports
from evidence.reports.parser import parse_report
from evidence.sample import SAMPLE_REPORTS
from evidence.sarif.document import expanded_limit

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_FILES = sorted(SAMPLE_REPORTS.glob("*.txt"))
RUNTIME_FILE = "kestrel-runtime-report.txt"


def through_cache(report: Report) -> Report:
    """encode, marshal (as an entry stores it), unmarshal, decode."""
    return report_cache.decode(marshal.loads(marshal.dumps(report_cache.encode(report))))


def assert_same(got: object, want: object) -> None:
    assert repr(got) == repr(want)
    assert got == want


def entries(directory: Path) -> list[Path]:
    return sorted(directory.glob("*" + report_cache.SUFFIX))


def copy_samples(tmp_path: Path) -> Path:
    reports = tmp_path / "reports"
    reports.mkdir()
    for path in SAMPLE_FILES:
        shutil.copyfile(path, reports / path.name)
    return reports


# --- encode / decode -----------------------------------------------------------------------------


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda path: path.name)
def test_round_trip_of_the_sample_reports(path: Path) -> None:
    report = parse_report(path.read_bytes(), str(path))
    assert report.records
    assert_same(report_cache.decode(report_cache.encode(report)), report)
    assert_same(through_cache(report), report)


@pytest.mark.reference
def test_round_trip_of_the_reference_reports(shared_reports: Path) -> None:
    paths = sorted(shared_reports.glob("*.txt"))
    assert paths
    for path in paths:
        report = parse_report(path.read_bytes(), str(path))
        assert_same(report_cache.decode(report_cache.encode(report)), report)
        assert_same(through_cache(report), report)


def test_round_trip_covers_every_part_of_the_model() -> None:
    """The test reports hold every model class and optional value the encoder must keep."""
    reports = [parse_report(RUNTIME, "heron-runtime.txt"), parse_report(WORKFLOW, "heron.txt")]
    reports += [parse_report(path.read_bytes(), path.name) for path in SAMPLE_FILES]
    reports.append(parse_report(b"no type line\r\n\xff\n", "odd.txt"))
    records = [record for report in reports for record in report.records]
    quotes = [quote for record in records for quote in record.quotes]
    assert any(report.revisions for report in reports)
    assert any(report.diagnostics for report in reports)
    assert any(record.citations for record in records)
    assert any(record.searches for record in records)
    assert any(record.fields for record in records)
    assert any(record.statuses for record in records)
    assert any(record.references for record in records)
    assert any(record.annotates is not None for record in records)
    assert {quote.claimed is None for quote in quotes} == {True, False}
    assert {quote.inline for quote in quotes} == {True, False}
    assert len({record.kind for record in records}) >= 5
    for report in reports:
        assert_same(through_cache(report), report)


def test_decode_refuses_a_wrong_shape() -> None:
    payload = report_cache.encode(parse_report(RUNTIME, "heron-runtime.txt"))
    for wrong in [(), (1, 2), payload[:-1], 42, payload[:5] + ((("x",) * 3,),) + payload[6:]]:
        with pytest.raises((TypeError, ValueError, KeyError)):
            report_cache.decode(wrong)


def _evidence_imports(tree: ast.Module, *, lazy: bool) -> list[str]:
    """The evidence modules a module imports at its top (``lazy``: in its functions too, not
    the ones only a type checker reads)."""
    found: list[str] = []

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                visit(node.orelse)
                continue
            for inner in ast.walk(node) if lazy else [node]:
                if isinstance(inner, ast.ImportFrom) and (inner.module or "").startswith(
                    "evidence."
                ):
                    found.append(inner.module.split(".", 1)[1])  # type: ignore[union-attr]

    visit(tree.body)
    return found


def _loaded(starts: list[str], *, lazy: bool) -> set[str]:
    """The files under evidence/ that loading ``starts`` reads (``lazy``: when their functions
    run too)."""
    evidence = ROOT / "evidence"
    wanted, seen = list(starts), set()
    while wanted:
        name = wanted.pop()
        if name in seen:
            continue
        seen.add(name)
        tree = ast.parse((evidence / name).read_text(encoding="utf-8"))
        for module in _evidence_imports(tree, lazy=lazy):
            path = module.replace(".", "/")
            package = evidence / path / "__init__.py"
            wanted.append(f"{path}/__init__.py" if package.is_file() else f"{path}.py")
    return seen


@pytest.mark.parametrize(
    ("sources", "starts", "lazy"),
    [
        # the parser's module-level imports (loading.py imports it only on a miss)
        (report_cache.PARSER_SOURCES, ["reports/parser.py"], False),
        # the SARIF reader's, lazy ones too
        (report_cache.SARIF_SOURCES, ["sarif/reader.py", "sarif/document.py"], True),
    ],
    ids=["parser", "sarif"],
)
def test_the_sources_a_key_hashes_list_every_evidence_module_loaded(
    sources: tuple[str, ...], starts: list[str], lazy: bool
) -> None:
    assert _loaded(starts, lazy=lazy) <= set(sources)
    assert {"reports/cache.py", "reports/loading.py"} <= set(sources)
    for name in sources:
        assert (ROOT / "evidence" / name).is_file(), name


def test_the_key_depends_on_name_and_bytes() -> None:
    key = report_cache.key_for("a.txt", b"text")
    assert key is not None and len(key) == 64
    assert report_cache.key_for("a.txt", b"text") == key
    assert report_cache.key_for("b.txt", b"text") != key
    assert report_cache.key_for("a.txt", b"text ") != key
    assert report_cache.key_for("a.tx", b"ttext") != key
    assert report_cache.key_for("caf\udce9.txt", b"text") is not None  # undecodable file name


# --- load_reports with a cache ---------------------------------------------------------------


def test_loading_twice_gives_the_same_reports(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = load_reports([SAMPLE_REPORTS], cache=cache)
    assert len(entries(cache)) == len(SAMPLE_FILES)
    second = load_reports([SAMPLE_REPORTS], cache=cache)
    assert_same(second, first)
    assert_same(second, load_reports([SAMPLE_REPORTS]))
    assert len(entries(cache)) == len(SAMPLE_FILES)


def test_the_cache_is_read_and_a_changed_report_is_parsed_again(tmp_path: Path) -> None:
    reports = copy_samples(tmp_path)
    cache = tmp_path / "cache"
    path = reports / RUNTIME_FILE
    original = load_reports([path], cache=cache).reports[0]
    key = report_cache.key_for(str(path), path.read_bytes())
    assert key is not None
    assert report_cache.entry_path(cache, key).is_file()

    report_cache.put(cache, key, original._replace(title="Doctored runtime report"))
    assert load_reports([path], cache=cache).reports[0].title == "Doctored runtime report"
    assert load_reports([path]).reports[0].title == original.title  # no cache: parsed

    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(original.title, "Kestrel edited runtime report", 1), "utf-8")
    again = load_reports([path], cache=cache).reports[0]
    assert again.title == "Kestrel edited runtime report"
    assert_same(again, parse_report(path.read_bytes(), str(path)))


def test_the_name_a_report_is_loaded_under_is_part_of_the_key(tmp_path: Path) -> None:
    reports = copy_samples(tmp_path)
    cache = tmp_path / "cache"
    load_reports([reports / RUNTIME_FILE], cache=cache)
    shutil.copyfile(reports / RUNTIME_FILE, tmp_path / "other.txt")
    other = load_reports([tmp_path / "other.txt"], cache=cache).reports[0]
    assert other.file == str(tmp_path / "other.txt")
    assert {record.report for record in other.records} == {other.file}
    assert len(entries(cache)) == 2


def test_bundles_are_not_cached(tmp_path: Path) -> None:
    reports = copy_samples(tmp_path)
    bundle = dump_bundle(load_reports([reports / RUNTIME_FILE]))
    (reports / RUNTIME_FILE).rename(tmp_path / RUNTIME_FILE)
    (reports / "bundle.json").write_text(json.dumps(bundle), encoding="utf-8")
    cache = tmp_path / "cache"
    first = load_reports([reports], cache=cache)
    assert len(first.reports) == len(SAMPLE_FILES)
    assert len(entries(cache)) == len(SAMPLE_FILES) - 1
    assert_same(load_reports([reports], cache=cache), first)


def test_a_sarif_file_is_cached_with_all_its_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a relaunch on a large scan read its JSON and every result again (the 192 MB scan of
    # benchmarks/README.md: 4 s before the first screen, every time)
    path = tmp_path / "codeql.sarif"
    shutil.copyfile(CODEQL, path)
    cache = tmp_path / "cache"
    original = load_reports([path], cache=cache)
    assert len(original.reports) == 2 and len(entries(cache)) == 1
    assert_same(load_reports([path], cache=cache), original)
    assert_same(load_reports([path]), original)

    # the entry is what is read: doctored, it comes back
    key = report_cache.key_for(str(path), path.read_bytes(), sarif_limit=expanded_limit())
    assert key is not None and report_cache.entry_path(cache, key).is_file()
    doctored = [report._replace(title="Doctored") for report in original.reports]
    assert report_cache.put_reports(cache, key, doctored)
    assert [r.title for r in load_reports([path], cache=cache).reports] == ["Doctored"] * 2

    # another limit on a compressed log's size, or the same log compressed: read again
    monkeypatch.setenv("ASSAY_SARIF_MAX_BYTES", "1000000")
    assert_same(load_reports([path], cache=cache), original)
    packed = sarifkit.write(
        tmp_path / "codeql.sarif.gz", json.loads(path.read_bytes()), compress=True
    )
    assert len(load_reports([packed], cache=cache).reports) == 2
    assert len(entries(cache)) == 3
    # a report and a SARIF file of the same bytes and name are different entries
    assert report_cache.key_for(str(path), path.read_bytes()) != key


def test_a_sarif_file_that_cannot_be_read_is_not_cached(tmp_path: Path) -> None:
    path = sarifkit.write(tmp_path / "bad.sarif", {"version": "2.0.0", "runs": []})
    cache = tmp_path / "cache"
    with pytest.raises(ReportError, match="not SARIF 2.1.0"):
        load_reports([path], cache=cache)
    assert entries(cache) == []


def damage(path: Path, how: str) -> None:
    data = path.read_bytes()
    if how == "truncated":
        path.write_bytes(data[:5])
    elif how == "cut":
        path.write_bytes(data[: len(data) // 2])
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "garbage":
        path.write_bytes(os.urandom(len(data)))
    elif how == "flipped":  # one byte of the marshalled data: the checksum no longer matches
        position = len(data) // 2
        path.write_bytes(data[:position] + bytes([data[position] ^ 0x55]) + data[position + 1 :])
    elif how == "directory":
        path.unlink()
        path.mkdir()
    else:
        raise AssertionError(how)


@pytest.mark.parametrize("how", ["truncated", "cut", "empty", "garbage", "flipped", "directory"])
def test_a_damaged_entry_is_a_miss(tmp_path: Path, how: str) -> None:
    cache = tmp_path / "cache"
    want = load_reports([SAMPLE_REPORTS], cache=cache)
    for path in entries(cache):
        damage(path, how)
    assert_same(load_reports([SAMPLE_REPORTS], cache=cache), want)
    if how != "directory":  # a damaged entry is replaced by a good one
        assert_same(load_reports([SAMPLE_REPORTS], cache=cache), want)
        assert len(entries(cache)) == len(SAMPLE_FILES)


def test_an_entry_of_another_format_or_key_is_a_miss(tmp_path: Path) -> None:
    reports = copy_samples(tmp_path)
    cache = tmp_path / "cache"
    runtime, workflow = reports / RUNTIME_FILE, reports / "kestrel-workflow-report.txt"
    want = load_reports([runtime, workflow])
    load_reports([runtime, workflow], cache=cache)
    runtime_key = report_cache.key_for(str(runtime), runtime.read_bytes())
    workflow_key = report_cache.key_for(str(workflow), workflow.read_bytes())
    assert runtime_key is not None and workflow_key is not None
    # the workflow report's entry under the runtime report's key: the stored key differs
    shutil.copyfile(
        report_cache.entry_path(cache, workflow_key), report_cache.entry_path(cache, runtime_key)
    )
    assert report_cache.get(cache, runtime_key) is None
    assert_same(load_reports([runtime, workflow], cache=cache), want)


def test_an_unwritable_cache_does_not_break_loading(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a directory", encoding="utf-8")
    cache = tmp_path / "file" / "cache"
    want = load_reports([SAMPLE_REPORTS])
    assert_same(load_reports([SAMPLE_REPORTS], cache=cache), want)
    assert_same(load_reports([SAMPLE_REPORTS], cache=cache), want)


def test_the_cache_directory_is_made_with_its_parents(tmp_path: Path) -> None:
    cache = tmp_path / "a" / "b" / "reports"
    load_reports([SAMPLE_REPORTS], cache=cache)
    assert len(entries(cache)) == len(SAMPLE_FILES)
    assert not [path for path in cache.iterdir() if path.suffix == ".tmp"]


# --- pruning -----------------------------------------------------------------------------------


def test_at_most_max_entries_are_kept_least_recently_used_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(report_cache, "MAX_ENTRIES", 64)  # the rule, at a size a test can fill
    cache = tmp_path / "cache"
    report = parse_report(RUNTIME, "heron-runtime.txt")
    keys = []
    for number in range(report_cache.MAX_ENTRIES):
        key = report_cache.key_for(f"r{number}.txt", RUNTIME.encode())
        assert key is not None
        report_cache.put(cache, key, report)
        os.utime(report_cache.entry_path(cache, key), (1_000_000 + number, 1_000_000 + number))
        keys.append(key)
    assert len(entries(cache)) == report_cache.MAX_ENTRIES
    assert report_cache.get(cache, keys[0]) is not None  # a hit: now the most recently used
    for number in range(6):
        key = report_cache.key_for(f"new{number}.txt", RUNTIME.encode())
        assert key is not None
        report_cache.put(cache, key, report)
    assert len(entries(cache)) == report_cache.MAX_ENTRIES
    assert report_cache.entry_path(cache, keys[0]).is_file()
    for key in keys[1:7]:
        assert not report_cache.entry_path(cache, key).exists()
    assert report_cache.entry_path(cache, keys[7]).is_file()


def test_a_load_of_many_reports_reads_the_cache_directory_once_and_keeps_its_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # an audit stores a thousand reports in one load: pruning after each one read the whole
    # directory each time (quadratic: 500,000 stat calls at 1,000 reports)
    monkeypatch.setattr(report_cache, "MAX_ENTRIES", 4)
    scans: list[Path] = []
    real_prune = cache_files.prune

    def prune(directory: Path, keep: int, max_bytes: int) -> None:
        scans.append(directory)
        real_prune(directory, keep, max_bytes)

    monkeypatch.setattr(cache_files, "prune", prune)
    folder, cache = tmp_path / "reports", tmp_path / "cache"
    folder.mkdir()
    for number in range(10):
        (folder / f"r{number:02}.txt").write_text(RUNTIME, encoding="utf-8")
    first = load_reports([folder], cache=cache)
    assert len(first.reports) == 10
    assert scans == [cache] and len(entries(cache)) == report_cache.MAX_ENTRIES
    again = load_reports([folder], cache=cache)  # six misses stored again, four hits
    assert scans == [cache, cache] and len(entries(cache)) == report_cache.MAX_ENTRIES
    assert_same(again.reports, first.reports)
    # a report the cache holds (which four are kept is decided by modification times): a hit
    # writes nothing and prunes nothing
    held = [
        path
        for path in sorted(folder.iterdir())
        if report_cache.entry_path(
            cache, report_cache.key_for(str(path), RUNTIME.encode()) or ""
        ).is_file()
    ]
    assert len(held) == report_cache.MAX_ENTRIES
    load_reports([held[0]], cache=cache)
    assert len(scans) == 2


def test_pruning_keeps_the_total_size_bounded_and_clears_old_scratch_files(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    report = parse_report(RUNTIME, "heron-runtime.txt")
    for number in range(3):
        key = report_cache.key_for(f"r{number}.txt", RUNTIME.encode())
        assert key is not None
        report_cache.put(cache, key, report)
        os.utime(report_cache.entry_path(cache, key), (1_000_000 + number, 1_000_000 + number))
    old, fresh = cache / ".old.tmp", cache / ".fresh.tmp"
    old.write_bytes(b"x")
    fresh.write_bytes(b"x")
    os.utime(old, (1_000_000, 1_000_000))
    report_cache.prune(cache, max_bytes=1)
    assert len(entries(cache)) == 1  # the newest, even though it is over the limit
    assert report_cache.get(cache, report_cache.key_for("r2.txt", RUNTIME.encode()) or "") == report
    assert not old.exists()
    assert fresh.exists()


def test_pruning_a_missing_directory_does_nothing(tmp_path: Path) -> None:
    report_cache.prune(tmp_path / "missing")
    assert report_cache.get(tmp_path / "missing", "0" * 64) is None


# --- a hit does not import the parser ------------------------------------------------------------

PROBE = """
import sys
from pathlib import Path
from evidence.reports.loading import ReportError, load_reports
reports = load_reports([sys.argv[1]], cache=Path(sys.argv[2]))
import evidence.citations  # the review's citations check, also before its first frame
parser = ("parser", "vocabulary", "outline", "contents", "citing")
parsed = any(f"evidence.reports.{name}" in sys.modules for name in parser)
# HTML's reader (and Python's html.parser, 7 ms to import) only for an HTML report
html = "evidence.reports.html_text" in sys.modules
print(len(reports.reports), parsed, "evidence.reports.bundle" in sys.modules, html)
"""


def test_a_cache_hit_does_not_import_the_parser(tmp_path: Path) -> None:
    def run() -> str:
        result = subprocess.run(
            [sys.executable, "-c", PROBE, str(SAMPLE_REPORTS), str(tmp_path / "cache")],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        return result.stdout.strip()

    count = len(SAMPLE_FILES)
    assert run() == f"{count} True False False"  # a miss: parsed
    assert run() == f"{count} False False False"  # a hit: the parser is not even imported
