"""`assay export`, `assay import` and `assay stats` on real database files."""

from __future__ import annotations

import codecs
import csv
import gzip
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from rich.cells import cell_len
from storekit import make_record, make_report, reportset

from db.aside import aside_files
from db.keys import ItemRef
from db.store import VerdictStore
from tui.cli import cli

REPORT = "KESTREL/agentic-system-runtime-report"


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def give(path: Path, reviewer: str, verdicts: dict[str, str], note: str | None = None) -> None:
    with VerdictStore.open(path) as store:
        for record, verdict in verdicts.items():
            store.give(ItemRef(REPORT, record), verdict, note=note, reviewer=reviewer)


@pytest.fixture
def ann_db(tmp_path: Path) -> Path:
    path = tmp_path / "ann.sqlite3"
    give(path, "ann", {"R1": "confirmed", "R2": "refuted", "R3": "unclear"}, note="ann's note")
    return path


@pytest.fixture
def bob_db(tmp_path: Path) -> Path:
    path = tmp_path / "bob.sqlite3"
    give(path, "bob", {"R1": "confirmed", "R2": "confirmed", "R4": "skip"})
    return path


def test_export_import_export_through_the_cli(ann_db: Path, tmp_path: Path) -> None:
    first = tmp_path / "ann.jsonl"
    assert run("export", "--db", ann_db, "--out", first).exit_code == 0
    fresh = tmp_path / "fresh.sqlite3"
    imported = run("import", first, "--db", fresh)
    assert imported.exit_code == 0
    assert imported.output == f"{first}: 3 new, 0 already present\n"
    again = run("import", first, "--db", fresh)
    assert again.output == f"{first}: 0 new, 3 already present\n"
    second = tmp_path / "again.jsonl"
    assert run("export", "--db", fresh, "--out", second).exit_code == 0
    assert second.read_bytes() == first.read_bytes()
    assert run("export", "--db", fresh).output == first.read_text(encoding="utf-8")


def test_import_lists_disagreements(ann_db: Path, bob_db: Path, tmp_path: Path) -> None:
    exported = tmp_path / "bob.jsonl"
    run("export", "--db", bob_db, "--out", exported)
    result = run("import", exported, "--db", ann_db)
    assert result.exit_code == 0
    assert result.output.splitlines()[1:] == [
        "1 disagreement(s) between reviewers:",
        f"  {REPORT}#R2: ann refuted, bob confirmed",
    ]


def test_stats_text_and_json(ann_db: Path, bob_db: Path, tmp_path: Path) -> None:
    exported = tmp_path / "bob.jsonl"
    run("export", "--db", bob_db, "--out", exported)
    run("import", exported, "--db", ann_db)
    text = run("stats", "--db", ann_db)
    assert text.exit_code == 0
    assert "6 events by 2 reviewer(s): ann, bob" in text.output
    assert "Disagreements: 1" in text.output
    assert "ann & bob: 2 items, 50.0% agreement, Cohen's kappa 0.00" in text.output
    data = json.loads(run("stats", "--db", ann_db, "--format", "json").output)
    assert data["agreement"][0]["percent"] == 50.0
    assert data["verdicts"]["ann"] == {"confirmed": 1, "refuted": 1, "unclear": 1, "skip": 0}


def test_stats_keeps_its_columns_after_names_in_wide_characters(tmp_path: Path) -> None:
    # 山田 takes four columns: padded by its two characters, its counts were out of line
    path = tmp_path / "v.sqlite3"
    give(path, "ann", {"R1": "confirmed"})
    give(path, "山田", {"R1": "refuted", "R2": "refuted"})
    lines = run("stats", "--db", path).output.splitlines()
    at = lines.index("Current verdicts")
    header, *rows = lines[at + 1 : at + 4]
    assert [row.split()[0] for row in rows] == ["ann", "山田"], lines
    # the counts end in the same column as their header's names
    assert {cell_len(row) for row in rows} == {cell_len(header)}, [header, *rows]
    at = next(n for n, line in enumerate(lines) if line.startswith("Progress per reviewer"))
    rows = lines[at + 1 : at + 3]  # the report's name after each reviewer in one column
    assert len({cell_len(row.split("KESTREL")[0]) for row in rows}) == 1, rows


@pytest.mark.parametrize("fmt", ["json", "csv", "md", "sarif"])
def test_every_format_exports(ann_db: Path, fmt: str, tmp_path: Path) -> None:
    out = tmp_path / f"out.{fmt}"
    result = run("export", "--db", ann_db, "--format", fmt, "--out", out)
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    if fmt == "sarif":  # no quote has a verdict, and no report was registered
        assert json.loads(text)["runs"][0]["results"] == []
    else:
        assert "ann's note" in text
        if fmt == "json":
            assert len(json.loads(text)["events"]) == 3
    assert not list(tmp_path.glob(".out.*"))  # no temporary file left behind


def test_terminal_output_shows_control_characters(tmp_path: Path) -> None:
    path = tmp_path / "v.sqlite3"
    give(path, "eve\x1b[2J", {"R1": "confirmed"})
    for args in (["stats"], *(["export", "--format", f] for f in ("jsonl", "md", "csv"))):
        output = run(*args, "--db", path).output
        assert "\x1b" not in output and "\\u001b" in output


def test_errors_are_one_line_with_exit_code_2(ann_db: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"item": 1}\n', encoding="utf-8")
    fresh = tmp_path / "fresh.sqlite3"
    cases: list[tuple[list[str | Path], str]] = [
        (["import", bad, "--db", fresh], "bad.jsonl:1: missing field(s)"),
        (["import", tmp_path / "none.jsonl", "--db", fresh], "cannot read"),
        (["export", "--db", tmp_path / "none.sqlite3"], "no verdict database at"),
        (["stats", "--db", tmp_path / "none.sqlite3"], "no verdict database at"),
        (["export", "--db", ann_db, "--out", tmp_path / "no" / "dir.jsonl"], "cannot write"),
        (["export", "--db", bad], "not an SQLite database"),
    ]
    for args, message in cases:
        result = run(*args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output
        assert len(result.output.strip().splitlines()) == 1, result.output
        assert "Traceback" not in result.output
    assert not fresh.exists()  # a bad import file creates nothing


def test_a_path_with_a_newline_is_shown_escaped_in_one_line(ann_db: Path, tmp_path: Path) -> None:
    folder = tmp_path / "two\nlines"  # a name a script or an archive may well give a folder
    folder.mkdir()
    bad = folder / "bad.jsonl"
    bad.write_text('{"item": 1}\n', encoding="utf-8")
    cases: list[tuple[list[str | Path], str]] = [
        (["stats", "--db", folder / "none.sqlite3"], "no verdict database at"),
        (["export", "--db", bad], "not an SQLite database"),
        (["export", "--db", folder], "is a directory"),
        (["import", folder / "none.jsonl", "--db", tmp_path / "fresh.sqlite3"], "cannot read"),
        (["export", "--db", ann_db, "--out", folder / "no" / "dir.jsonl"], "cannot write"),
        (["review", bad, "--repo", folder / "none"], "no such directory"),
        (["browse", "--repo", folder / "none"], "does not exist"),
    ]
    for args, message in cases:
        result = run(*args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output
        assert len(result.output.strip().splitlines()) == 1, result.output
        assert "two\\u000alines" in result.output, result.output


def test_help_documents_the_db_option() -> None:
    for command in ("export", "import", "stats"):
        result = run(command, "--help")
        assert result.exit_code == 0
        assert "--db" in result.output


def test_installed_entry_point(ann_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "ann.md"
    done = subprocess.run(
        [sys.executable, "-m", "tui.cli", "export", "--db", str(ann_db), "--format", "md"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("# assay review write-up")
    missing = subprocess.run(
        [sys.executable, "-m", "tui.cli", "stats", "--db", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert missing.returncode == 2
    assert missing.stderr.strip().startswith("assay stats: there is no verdict database at")
    assert "assay demo" not in missing.stderr  # none beside it


def test_no_database_yet_names_the_demos_beside_it(tmp_path: Path) -> None:
    # a first `assay export` after trying the demo: its verdicts are in demo.db, beside the
    # default database that does not exist yet
    with VerdictStore.open(tmp_path / "demo.db"):
        pass
    for command in ("export", "stats"):
        result = run(command, "--db", tmp_path / "verdicts.sqlite3")
        assert result.exit_code == 2, result.output
        line = result.output.strip()
        assert line.startswith(f"assay {command}: there is no verdict database at "), line
        assert line.endswith(f"(choose one with --db; `assay demo`'s are in {tmp_path}/demo.db)")


def kept_aside(path: Path, reviewer: str, record: str) -> None:
    """A verdict a review kept aside: it quit while another process held the database locked."""
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    aside = VerdictStore.aside(path)
    aside.give(ItemRef(REPORT, record), "refuted", note="kept aside", reviewer=reviewer)
    aside.close()
    holder.close()


@pytest.mark.parametrize(
    "args", [["export", "--format", "md"], ["export", "--format", "csv"], ["stats"]]
)
def test_export_and_stats_hold_the_changes_kept_aside(
    ann_db: Path, args: list[str], tmp_path: Path
) -> None:
    kept_aside(ann_db, "ann", "R4")
    result = run(*args, "--db", ann_db)
    assert result.exit_code == 0 and result.stderr == ""
    assert "kept aside" in result.stdout or "4 events" in result.stdout
    assert aside_files(ann_db) == []
    with VerdictStore.open(ann_db, readonly=True) as store:
        assert store.current("ann")[ItemRef(REPORT, "R4").key].note == "kept aside"


def test_changes_kept_aside_that_cannot_be_saved_are_named(ann_db: Path) -> None:
    copy = ann_db.with_name(ann_db.name + ".aside-0123456789ab")
    copy.write_bytes(b"cut short by a full disk" * 90)  # unreadable: it stays for a later open
    result = run("export", "--format", "md", "--db", ann_db)
    assert result.exit_code == 0 and "ann's note" in result.stdout
    assert result.stderr == (
        "assay export: changes kept aside when the database was locked "
        f"({copy.name}) could not be saved into it and are not counted here\n"
    )
    assert aside_files(ann_db) == [copy]


@pytest.mark.parametrize("fmt", ["md", "csv", "jsonl"])
def test_export_of_a_reviewer_with_no_verdicts_is_refused(
    ann_db: Path, bob_db: Path, fmt: str, tmp_path: Path
) -> None:
    exported = tmp_path / "bob.jsonl"
    run("export", "--db", bob_db, "--out", exported)
    run("import", exported, "--db", ann_db)
    out = tmp_path / f"ann.{fmt}"
    result = run("export", "--db", ann_db, "--reviewer", "Ann", "--format", fmt, "--out", out)
    assert result.exit_code == 2 and not out.exists()
    assert result.stderr == (
        f"assay export: --reviewer Ann: no verdict or note of that reviewer in {ann_db} "
        "(its reviewers: ann, bob)\n"
    )
    assert (
        "ann's note" in run("export", "--db", ann_db, "--reviewer", "ann", "--format", fmt).stdout
    )


@pytest.mark.parametrize(
    ("encoding", "mark"),
    [("utf-8", "\ufeff"), ("utf-16", ""), ("utf-16-le", "\ufeff"), ("utf-16-be", "\ufeff")],
)
def test_import_reads_a_file_with_a_byte_order_mark(
    ann_db: Path, encoding: str, mark: str, tmp_path: Path
) -> None:
    # Notepad's UTF-8 with a BOM; PowerShell 5's `assay export > ann.jsonl` writes UTF-16
    exported = run("export", "--db", ann_db).stdout
    saved = tmp_path / "ann.jsonl"
    saved.write_bytes((mark + exported.replace("\n", "\r\n")).encode(encoding))
    fresh = tmp_path / "fresh.sqlite3"
    result = run("import", saved, "--db", fresh)
    assert result.exit_code == 0, result.output
    assert result.stdout == f"{saved}: 3 new, 0 already present\n"
    assert run("export", "--db", fresh).stdout == exported


def test_import_of_a_line_cut_short_says_where(ann_db: Path, tmp_path: Path) -> None:
    cut = tmp_path / "cut.jsonl"
    whole = run("export", "--db", ann_db).stdout.splitlines()[0]
    cut.write_text(whole + "\n" + '{"item": "KESTREL/agentic-sys', encoding="utf-8")
    result = run("import", cut, "--db", tmp_path / "fresh.sqlite3")
    assert result.exit_code == 2
    assert result.stderr == (
        f"assay import: {cut}:2: not JSON (Unterminated string starting at column 10) "
        "(nothing was imported)\n"
    )


def test_the_writeup_of_imported_verdicts_says_what_its_summary_leaves_out(
    ann_db: Path, tmp_path: Path
) -> None:
    # a lead merges the team's files and writes the write-up before opening the reports: its
    # summary read "0" everywhere and "Revision: not recorded" above the verdicts listed last
    exported = tmp_path / "ann.jsonl"
    with VerdictStore.open(ann_db) as store:
        store.give(ItemRef(REPORT, "R5"), "skip", reviewer="ann", revision="0123abc" * 5 + "01234")
    run("export", "--db", ann_db, "--out", exported)
    fresh = tmp_path / "lead.sqlite3"
    run("import", exported, "--db", fresh)
    text = run("export", "--db", fresh, "--format", "md").stdout
    assert "- Revision: " + "0123abc" * 5 + "01234\n" in text
    assert (
        "- Not counted above: 4 item(s) with verdicts that no report registered here (listed "
        "last; `assay review` of their reports counts them)\n"
    ) in text


def test_a_writeup_of_several_repositories_says_so(tmp_path: Path) -> None:
    # the default database holds every review: `assay export --format md` of it handed over
    # another client's findings with this one's, without a word
    path = tmp_path / "verdicts.sqlite3"
    with VerdictStore.open(path) as store:
        for system in ("KESTREL", "HERON"):
            report = make_report([make_record(f"RT-CLM-{system.lower()}")], system=system)
            store.register(reportset(report), repository=f"/src/{system.lower()}")
            store.give(ItemRef.for_record(report, report.records[0]), "refuted", reviewer="ann")
    for fmt in ("md", "csv"):
        result = run("export", "--db", path, "--format", fmt)
        assert result.exit_code == 0 and "RT-CLM-heron" in result.stdout
        assert result.stderr.startswith(
            "assay export: this export holds the reviews of 2 repositories, all the database "
            "holds (/src/heron, /src/kestrel): one review's own write-up is its `x`"
        )
    assert run("export", "--db", path).stderr == ""  # the event log: for a teammate, whole


def test_import_reads_the_standard_input_as_dash(ann_db: Path, tmp_path: Path) -> None:
    # `assay export --format jsonl | ssh host assay import -`: `-` was a file not found
    events = run("export", "--db", ann_db).output
    fresh = tmp_path / "fresh.sqlite3"
    done = subprocess.run(
        [sys.executable, "-m", "tui.cli", "import", "-", "--db", str(fresh)],
        input=events,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "-: 3 new, 0 already present\n"
    assert run("export", "--db", fresh).output == events


def test_import_takes_a_time_with_any_offset_as_its_instant_in_utc(
    ann_db: Path, tmp_path: Path
) -> None:
    # another tool's file, or one edited by hand, stamps events in local time with its offset
    exported = run("export", "--db", ann_db).stdout.splitlines()
    lines = [json.loads(each) for each in exported]
    utc = lines[0]["at"]
    lines[0]["at"] = "2026-12-01T10:00:00+02:00"
    edited = tmp_path / "edited.jsonl"
    edited.write_text("".join(json.dumps(each) + "\n" for each in lines), encoding="utf-8")
    fresh = tmp_path / "fresh.sqlite3"
    assert run("import", edited, "--db", fresh).stdout == f"{edited}: 3 new, 0 already present\n"
    assert run("import", edited, "--db", fresh).stdout == f"{edited}: 0 new, 3 already present\n"
    stored = [json.loads(each) for each in run("export", "--db", fresh).stdout.splitlines()]
    assert "2026-12-01T08:00:00.000000Z" in [each["at"] for each in stored]
    assert utc not in [each["at"] for each in stored]
    lines[0]["at"] = "1 December, 10 o'clock"
    edited.write_text("".join(json.dumps(each) + "\n" for each in lines), encoding="utf-8")
    refused = run("import", edited, "--db", fresh)
    assert refused.exit_code == 2
    assert refused.stderr == (
        f'assay import: {edited}:1: at "1 December, 10 o\'clock" is not an ISO 8601 time '
        "(nothing was imported)\n"
    )


@pytest.mark.parametrize("fmt", ["jsonl", "json", "csv", "md", "sarif"])
def test_an_out_file_named_gz_is_written_gzip(ann_db: Path, tmp_path: Path, fmt: str) -> None:
    # `--out triaged.sarif.gz` was plain JSON under a gzip name: gunzip and code scanning choke
    out = tmp_path / f"verdicts.{fmt}.gz"
    assert run("export", "--db", ann_db, "--format", fmt, "--out", out).exit_code == 0
    plain = run("export", "--db", ann_db, "--format", fmt).stdout
    if fmt == "md":  # the write-up's date line aside, the same text
        plain = plain.split("\n", 3)[3]
    assert gzip.decompress(out.read_bytes()).decode("utf-8").endswith(plain)
    if fmt in ("jsonl", "csv"):  # no time in the gzip header: the same bytes each time
        again = tmp_path / f"again.{fmt}.gz"
        run("export", "--db", ann_db, "--format", fmt, "--out", again)
        assert again.read_bytes() == out.read_bytes()


def test_import_reads_a_gzip_file_as_export_writes_it(ann_db: Path, tmp_path: Path) -> None:
    packed = tmp_path / "ann.jsonl.gz"
    run("export", "--db", ann_db, "--out", packed)
    fresh = tmp_path / "fresh.sqlite3"
    result = run("import", packed, "--db", fresh)
    assert result.stdout == f"{packed}: 3 new, 0 already present\n", result.output
    assert run("export", "--db", fresh).stdout == run("export", "--db", ann_db).stdout


def test_import_of_bad_or_huge_gzip_says_so_and_imports_nothing(
    ann_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fresh = tmp_path / "fresh.sqlite3"
    broken = tmp_path / "broken.jsonl.gz"
    broken.write_bytes(gzip.compress(run("export", "--db", ann_db).stdout.encode())[:-12])
    result = run("import", broken, "--db", fresh)
    assert result.exit_code == 2
    assert result.stderr == (
        f"assay import: {broken}: not readable gzip data (the data ends too soon)\n"
    )
    bomb = tmp_path / "bomb.jsonl.gz"
    bomb.write_bytes(gzip.compress(b"\n" * 2_000_000))
    monkeypatch.setenv("ASSAY_SARIF_MAX_BYTES", "1M")
    result = run("import", bomb, "--db", fresh)
    assert result.exit_code == 2
    assert result.stderr.startswith(
        f"assay import: {bomb}: expands to more than 1,048,576 bytes (the most assay reads of "
        "one file; ASSAY_SARIF_MAX_BYTES sets another limit)"
    )
    assert not fresh.exists()


def test_csv_for_excel_starts_with_a_byte_order_mark(tmp_path: Path) -> None:
    # Excel reads UTF-8 without a BOM as the legacy code page: "Ã©" for "é" in notes and names
    path = tmp_path / "verdicts.sqlite3"
    give(path, "Zoë", {"R1": "refuted"}, note="déjà vu: the café's naïve check")
    plain = run("export", "--db", path, "--format", "csv").stdout
    assert not plain.startswith("\ufeff")  # scripts reading the standard output: unchanged
    out = tmp_path / "verdicts.csv"
    assert run("export", "--db", path, "--format", "csv", "--excel", "--out", out).exit_code == 0
    data = out.read_bytes()
    assert data.startswith(codecs.BOM_UTF8) and data[3:].decode("utf-8") == plain
    with out.open(encoding="utf-8-sig", newline="") as handle:  # as Python reads such a file
        (row,) = [row for row in csv.DictReader(handle) if row["verdict"]]
    assert (row["reviewer"], row["note"]) == ("Zoë", "déjà vu: the café's naïve check")
    history = run("export", "--db", path, "--format", "csv", "--history", "--excel").stdout
    assert history.startswith("\ufeffitem,")
    refused = run("export", "--db", path, "--format", "md", "--excel")
    assert refused.exit_code == 2
    assert refused.stderr == "assay export: --excel goes with --format csv\n"


def test_import_errors_name_a_hostile_file_in_one_escaped_line(
    ann_db: Path, tmp_path: Path
) -> None:
    # a newline in the name began a line of its own ("assay import: all imported"), an escape
    # drove the terminal: the name is escaped in every message, as the success line escapes it
    name = "v\nassay import: all imported \x1b[2J\u202e.jsonl"
    shown = "v\\u000aassay import: all imported \\u001b[2J\\u202e.jsonl"
    whole = run("export", "--db", ann_db).stdout.splitlines()[0]
    future = json.dumps(dict(json.loads(whole), at="2999-01-01T00:00:00.000000Z", event="f" * 32))
    contents: dict[str, bytes | None] = {
        "cannot read": None,
        "is not UTF-8": b"\x80\x81\n",
        "not readable gzip data": b"\x1f\x8bnot gzip",
        ":1: not JSON": b"not an event\n",
        ":1: unknown verdict '\\x1b[2J'": whole.replace('"confirmed"', '"\\u001b[2J"').encode(),
        ": 1 event(s) stamped in the future": future.encode(),
    }
    db = tmp_path / "fresh.sqlite3"
    for said, data in contents.items():
        file = tmp_path / name
        file.unlink(missing_ok=True)
        if data is not None:
            file.write_bytes(data)
        result = run("import", file, "--db", db)
        assert result.exit_code == 2, (said, result.output)
        assert len(result.stderr.splitlines()) == 1, (said, result.stderr)
        assert "\x1b" not in result.stderr and "\u202e" not in result.stderr, said
        assert f"{tmp_path}/{shown}" in result.stderr, (said, result.stderr)
        assert said in result.stderr, (said, result.stderr)
    assert not db.exists()
