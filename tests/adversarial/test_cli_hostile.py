"""A hostile or careless command line: each case used to crash (exit 3, "internal error"), hang
or lose data; each now works or is refused in one line with exit 2, the user's files unchanged."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from clikit import ROOT, assay, one_line_refusal
from storekit import filled

from evidence.sample import SAMPLE_REPORTS

RUNTIME = "kestrel-runtime-report.txt"


@pytest.mark.parametrize("audit", [[], ["--audit"]])
def test_demo_with_a_cache_directory_that_cannot_be_made(tmp_path: Path, audit: list[str]) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n", encoding="utf-8")
    # root writes through chmod: a cache under a regular file is one no one can create
    env = {"XDG_CACHE_HOME": str(blocker / "cache"), "XDG_DATA_HOME": str(tmp_path / "data")}
    line = one_line_refusal(assay("demo", *audit, env=env))
    assert line.startswith("assay demo: cannot build the sample repository in "), line


def test_a_theme_file_that_is_a_fifo_does_not_block_the_launch(tmp_path: Path) -> None:
    theme = tmp_path / "assay" / "theme"
    theme.parent.mkdir()
    os.mkfifo(theme)
    # reading a FIFO waits for a writer that never comes: the app would never draw
    code = "from screens.themes import saved_theme, theme_file; print(saved_theme(theme_file()))"
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PYTHONPATH": str(ROOT), "XDG_CONFIG_HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 0 and result.stdout == "None\n", result.stderr


def _fifo(tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    os.mkfifo(path)
    return path


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["check", "--audit", "{fifo}"], "no [[system]] table"),
        (["stats", "--db", "{fifo}"], "is not a regular file, not a verdict database"),
        (["import", "{jsonl}", "--db", "{fifo}"], "is not a regular file"),
        (["export", "--db", "{db}", "--format", "sarif", "--sarif", "{fifo}"], "not valid JSON"),
    ],
)
def test_a_fifo_with_no_writer_is_refused_not_waited_for(
    tmp_path: Path, args: list[str], expected: str
) -> None:
    fifo = _fifo(tmp_path, "input")
    db = filled(tmp_path / "v.db")
    before = db.read_bytes()
    jsonl = tmp_path / "events.jsonl"
    jsonl.write_text(assay("export", "--db", str(db)).stdout, encoding="utf-8")
    names = {"fifo": str(fifo), "db": str(db), "jsonl": str(jsonl)}
    # opening a FIFO for reading waits for a writer; none comes: it used to wait forever
    line = one_line_refusal(assay(*(arg.format(**names) for arg in args), timeout=30))
    assert expected in line, line
    assert db.read_bytes() == before


def test_a_fifo_report_or_verdict_file_reads_as_empty(tmp_path: Path) -> None:
    fifo = _fifo(tmp_path, "report.txt")
    result = assay("parse", str(fifo), timeout=30)
    assert result.returncode == 0 and "the report is empty" in result.stdout, result.stderr
    result = assay("import", str(fifo), "--db", str(filled(tmp_path / "v.db")), timeout=30)
    assert result.returncode == 0 and "0 new" in result.stdout, result.stderr


def test_a_pipe_with_a_writer_is_read_to_its_end(tmp_path: Path) -> None:
    # `assay import <(...)`: a pipe is still read whole, though opened without waiting
    events = assay("export", "--db", str(filled(tmp_path / "v.db", 3))).stdout
    result = subprocess.run(
        [sys.executable, "-m", "tui.cli", "import", "/dev/stdin", "--db", str(tmp_path / "n.db")],
        input=events,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0 and "3 new" in result.stdout, result.stderr


@pytest.mark.parametrize("command", [["check", "--audit"], ["import"]])
def test_an_endless_audit_or_verdict_file_is_refused_at_the_limit(command: list[str]) -> None:
    # /dev/zero was read until memory ran out (an internal error under a ulimit)
    result = assay(*command, "/dev/zero", env={"ASSAY_SARIF_MAX_BYTES": "100000"})
    line = one_line_refusal(result)
    assert "/dev/zero: larger than 100,000 bytes" in line, line


def test_undecodable_file_names_are_escaped_on_a_strict_utf8_stdout(tmp_path: Path) -> None:
    # a UTF-8 locale (en_US.UTF-8) gives Python a strict stdout: a name's undecodable bytes
    # were an internal error there, and written raw (0x9b: CSI) on a lax one
    name = os.fsdecode(b"f\xff\x9b-report.txt")
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / name).write_bytes(b"hello\n")
    git = ["git", "-C", str(repo), "-c", "user.name=a", "-c", "user.email=a@example.com"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "one"], check=True)
    reports = tmp_path / "reports"
    reports.mkdir()
    (reports / name).write_text((SAMPLE_REPORTS / RUNTIME).read_text("utf-8"), "utf-8")
    strict = {"PYTHONIOENCODING": "utf-8"}
    for args in (["grep", "hello", "--repo", str(repo)], ["parse", str(reports)]):
        result = assay(*args, env=strict)
        assert result.returncode == 0, result.stderr
        assert "f<U+DCFF><U+DC9B>-report.txt" in result.stdout or (
            "f\\udcff\\udc9b-report.txt" in result.stdout
        ), result.stdout


def test_a_symbolic_link_loop_is_named_as_one(tmp_path: Path) -> None:
    (tmp_path / "a").symlink_to("b")
    (tmp_path / "b").symlink_to("a")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "up").symlink_to("..")  # a loop inside a folder of reports: skipped
    (tmp_path / RUNTIME).write_text((SAMPLE_REPORTS / RUNTIME).read_text("utf-8"), "utf-8")
    line = one_line_refusal(assay("parse", str(tmp_path / "a")))
    assert line.endswith("cannot read (Too many levels of symbolic links)"), line
    result = assay("parse", str(tmp_path))
    assert result.returncode == 0 and "Kestrel runtime report" in result.stdout, result.stderr


def test_show_of_a_damaged_object_is_refused_in_one_line(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "a.txt").write_text("".join(f"line {n}\n" for n in range(5000)), encoding="utf-8")
    git = ["git", "-C", str(repo), "-c", "user.name=a", "-c", "user.email=a@example.com"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "one"], ["repack", "-qad"]):
        subprocess.run([*git, *args], check=True)
    blob = subprocess.run(
        [*git, "rev-parse", "HEAD:a.txt"], check=True, capture_output=True, text=True
    ).stdout.strip()
    (pack,) = (repo / ".git" / "objects" / "pack").glob("*.pack")
    listing = subprocess.run(
        ["git", "verify-pack", "-v", str(pack.with_suffix(".idx"))],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    # "<oid> blob <size> <size in pack> <offset>": damage the middle of the blob's deflated data
    fields = next(line.split() for line in listing.splitlines() if line.startswith(blob))
    packed, offset = int(fields[3]), int(fields[4])
    data = bytearray(pack.read_bytes())
    for index in range(offset + packed // 3, offset + 2 * packed // 3):
        data[index] ^= 0x5A
    pack.chmod(0o644)
    pack.write_bytes(bytes(data))
    line = one_line_refusal(assay("show", "HEAD:a.txt", "--repo", str(repo)))
    assert line.startswith(f"assay show: reading {blob} from "), line


def _entry(*args: str, stdout: Any, preexec: Any = None) -> subprocess.CompletedProcess[str]:
    code = "import sys; from tui.cli import main; main(sys.argv[1:])"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=stdout,
        stderr=subprocess.PIPE,
        preexec_fn=preexec,
        text=True,
        timeout=60,
    )


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
@pytest.mark.parametrize("command", [["export"], ["stats"], ["--help"]])
def test_output_on_a_full_disk_is_one_line_not_a_crash(tmp_path: Path, command: list[str]) -> None:
    db = filled(tmp_path / "v.db", 20)
    before = db.read_bytes()
    args = [*command, "--db", str(db)] if command != ["--help"] else command
    with open("/dev/full", "w") as full:
        result = _entry(*args, stdout=full)
    name = " ".join(["assay", *command[:1]]) if command != ["--help"] else "assay"
    # it was an internal error (OSError, exit 3)
    assert result.returncode == 2, result.stderr
    assert result.stderr == f"{name}: cannot write: No space left on device\n"
    assert db.read_bytes() == before


def test_a_closed_standard_output_is_said_not_a_crash(tmp_path: Path) -> None:
    # `assay grep ... >&-`: sys.stdout is None; grep asked it isatty() (AttributeError, exit 3)
    result = _entry("grep", "x", "--repo", str(tmp_path), stdout=None, preexec=lambda: os.close(1))
    assert result.returncode == 2 and result.stderr == "assay: standard output is closed\n"


@pytest.mark.parametrize("option", ["--rev", "--against"])
def test_an_empty_revision_is_refused_not_taken_for_none(sample: Path, option: str) -> None:
    # `--rev "$REV"` with REV unset checked the stated revision instead, and said nothing
    result = assay("check", str(SAMPLE_REPORTS), "--repo", str(sample), option, "")
    assert one_line_refusal(result) == "assay check: invalid revision ''"


def test_import_of_json_nested_too_deeply_is_refused_in_one_line(tmp_path: Path) -> None:
    db = filled(tmp_path / "v.db")
    before = db.read_bytes()
    deep = tmp_path / "deep.jsonl"
    deep.write_text("[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    # json.loads raised RecursionError: an internal error (sync already skipped such a line)
    line = one_line_refusal(assay("import", str(deep), "--db", str(db)))
    assert line.endswith("deep.jsonl:1: not JSON (nested too deeply) (nothing was imported)")
    assert db.read_bytes() == before


def test_a_link_to_nothing_is_not_said_to_be_missing(tmp_path: Path) -> None:
    # "no such file or directory" sent the user looking for a file that is there, as a link
    link = tmp_path / "report.txt"
    link.symlink_to("nowhere.txt")
    line = one_line_refusal(assay("parse", str(link)))
    assert line == f"assay parse: {link}: a symbolic link to nothing (its target is missing)"


@pytest.mark.parametrize("command", ["grep", "show"])
def test_a_reader_that_stops_early_ends_the_command_quietly(tmp_path: Path, command: str) -> None:
    # `assay grep x | head`: click exited 1, which is grep's "nothing matched"
    from evidencekit import make_repo

    make_repo(tmp_path, {"big.txt": "needle\n" * 50_000})
    args = {"grep": ["grep", "needle"], "show": ["show", "HEAD:big.txt"]}[command]
    code = "import sys; from tui.cli import main; main(sys.argv[1:])"
    process = subprocess.Popen(
        [sys.executable, "-c", code, *args, "--repo", str(tmp_path)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline()
    process.stdout.close()  # more than a pipe holds is still to come: the next write fails
    # grep writes line by line and meets the closed pipe; show's one write of the whole file is
    # cut short by it, which Python does not report (and nothing of what was wanted was lost)
    assert process.wait(timeout=60) == (141 if command == "grep" else 0)
    assert process.stderr.read() == b""
