"""Output files: `assay export --out` never replaces its own database, and neither the export
nor the app's write-up (`x`) writes through a link planted at the destination or at the old
predictable temporary name; a file that was there keeps its mode; a device or a FIFO (or a link
to one) is never replaced."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from synckit import give

from db.store import VerdictStore
from screens.review.writeup import save_writeup, writeup_name
from tui.commands.verdicts import export


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "verdicts.sqlite3"
    with VerdictStore.open(path) as store:
        give(store, "ada", {"R-1": "confirmed"}, note="kept")
    return path


@pytest.mark.parametrize("end", ["", "-wal", "-shm", "link"])
def test_export_refuses_to_write_over_its_database(db: Path, end: str) -> None:
    out = db.with_name(db.name + end)
    if end == "link":
        out = db.with_name("export.jsonl")
        out.symlink_to(db)
    before = db.read_bytes()
    result = CliRunner().invoke(export, ["--db", str(db), "--out", str(out)])
    assert result.exit_code == 2
    assert "is the verdict database itself" in result.output and "Traceback" not in result.output
    assert db.read_bytes() == before
    with VerdictStore.open(db) as store:
        assert store.count() == 1


def test_export_replaces_a_planted_link_and_keeps_a_files_mode(db: Path, tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n", encoding="utf-8")
    link = tmp_path / "out.jsonl"
    link.symlink_to(victim)
    assert CliRunner().invoke(export, ["--db", str(db), "--out", str(link)]).exit_code == 0
    assert victim.read_text(encoding="utf-8") == "precious\n"
    assert not link.is_symlink() and '"verdict":"confirmed"' in link.read_text(encoding="utf-8")
    kept = tmp_path / "kept.jsonl"
    kept.write_text("old\n", encoding="utf-8")
    kept.chmod(0o640)
    assert CliRunner().invoke(export, ["--db", str(db), "--out", str(kept)]).exit_code == 0
    assert stat.S_IMODE(kept.stat().st_mode) == 0o640
    assert kept.read_text(encoding="utf-8") != "old\n"


def test_the_writeup_writes_through_no_planted_link(db: Path, tmp_path: Path) -> None:
    folder = tmp_path / "shared-dir"
    folder.mkdir()
    name = writeup_name("Kestrel", "802776d" + "0" * 33)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n", encoding="utf-8")
    # the names an earlier assay used for its temporary file, and the destination itself
    (folder / f".{name}.{os.getpid()}.tmp").symlink_to(victim)
    (folder / name).symlink_to(victim)
    with VerdictStore.open(db) as store:
        notice = save_writeup(store, folder / name, name)
    assert notice.startswith("write-up saved"), notice
    assert victim.read_text(encoding="utf-8") == "precious\n"
    written = folder / name
    assert not written.is_symlink() and "R-1" in written.read_text(encoding="utf-8")
    leftovers = {p.name for p in folder.iterdir()} - {name, f".{name}.{os.getpid()}.tmp"}
    assert leftovers == set()


def test_the_writeup_keeps_the_mode_of_the_file_it_replaces(db: Path, tmp_path: Path) -> None:
    path = tmp_path / "assay-writeup-Kestrel-802776d.md"
    path.write_text("old\n", encoding="utf-8")
    path.chmod(0o600)
    with VerdictStore.open(db) as store:
        save_writeup(store, path, path.name)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert "R-1" in path.read_text(encoding="utf-8")


def test_export_never_replaces_a_fifo_or_a_link_to_a_device(db: Path, tmp_path: Path) -> None:
    # `--out /dev/null` (or /dev/stdout, a link) renamed a regular file over the device, as root
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    link = tmp_path / "null"
    link.symlink_to(os.devnull)
    for out in (fifo, link):
        result = CliRunner().invoke(export, ["--db", str(db), "--out", str(out)])
        assert result.exit_code == 2, result.output
        assert "not a regular file" in result.output and "Traceback" not in result.output
    assert stat.S_ISFIFO(fifo.lstat().st_mode) and os.readlink(link) == os.devnull
    assert stat.S_ISCHR(Path(os.devnull).stat().st_mode)
    assert [path.name for path in tmp_path.iterdir() if path.name.endswith(".tmp")] == []


def test_export_to_an_empty_out_says_it_is_a_directory(
    db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # click reads `--out ""` as ".": the rename over it failed with "Device or resource busy"
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(export, ["--db", str(db), "--out", ""])
    assert result.exit_code == 2 and "cannot write .: it is a directory" in result.output


def test_a_folder_that_cannot_be_written_is_named(db: Path, tmp_path: Path) -> None:
    # was "cannot write out.md: Permission denied" of a file the user may write
    folder = tmp_path / "shared"
    folder.mkdir()
    out = folder / "out.md"
    out.write_text("old\n", encoding="utf-8")
    out.chmod(0o666)
    if os.geteuid() == 0:  # root ignores modes: the immutable attribute, where there is one
        if subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode:
            pytest.skip("running as root where chattr +i is not available")
    else:
        folder.chmod(0o555)
    try:
        result = CliRunner().invoke(export, ["--db", str(db), "--out", str(out)])
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
        folder.chmod(0o755)
    assert result.exit_code == 2
    assert result.output == (
        f"assay: cannot write {out}: Permission denied: its folder {folder} cannot be written, "
        "and the file is replaced whole by a new one written there\n"
    )
    assert out.read_text(encoding="utf-8") == "old\n"
