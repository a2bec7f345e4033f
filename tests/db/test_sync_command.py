"""`assay sync` from the command line: messages, exit statuses, no traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from synckit import bare_remote, git, give, remote_files

from db.store import VerdictStore
from tui.cli import cli


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def _db(path: Path, reviewer: str, verdicts: dict[str, str]) -> Path:
    with VerdictStore.open(path) as store:
        give(store, reviewer, verdicts)
    return path


def test_two_reviewers_sync_and_stats_show_their_agreement(tmp_path: Path) -> None:
    remote = bare_remote(tmp_path / "verdicts.git")
    ada = _db(tmp_path / "ada.sqlite3", "ada", {"R-1": "confirmed", "R-2": "refuted"})
    ben = _db(tmp_path / "ben.sqlite3", "ben", {"R-1": "confirmed", "R-2": "confirmed"})
    first = run("sync", "--remote", remote, "--db", ada, "--reviewer", "ada")
    assert first.exit_code == 0, first.output
    assert "0 event(s) received, 2 sent" in first.output
    assert run("sync", "--remote", remote, "--db", ben, "--reviewer", "ben").exit_code == 0
    back = run("sync", "--db", ada)  # remote and reviewer remembered
    assert (
        back.exit_code == 0 and f"synced with {remote.resolve()} as ada: 2 event(s)" in back.output
    )
    again = run("sync", "--db", ada)
    assert again.exit_code == 0 and "up to date" in again.output
    stats = run("stats", "--db", ada)
    assert "ada & ben: 2 items, 50.0% agreement, Cohen's kappa 0.00" in stats.output
    assert (
        "  ada  KESTREL/runtime-report: 2 reviewed"
        in stats.output.split("Progress per reviewer", 1)[1]
    )


def test_offline_exits_4_and_keeps_everything(tmp_path: Path) -> None:
    ada = _db(tmp_path / "ada.sqlite3", "ada", {"R-1": "confirmed"})
    # nothing listens on the discard port of this machine: refused at once
    closed = "https://127.0.0.1:9/verdicts.git"
    result = run("sync", "--remote", closed, "--db", ada, "--reviewer", "ada")
    assert result.exit_code == 4
    assert "offline: cannot reach" in result.output and "1 event(s) will be sent" in result.output
    assert all(line.startswith("assay sync: ") for line in result.stderr.splitlines())


def test_a_mistyped_path_is_no_such_repository_exit_6(tmp_path: Path) -> None:
    ada = _db(tmp_path / "ada.sqlite3", "ada", {"R-1": "confirmed"})
    result = run("sync", "--remote", tmp_path / "missing.git", "--db", ada, "--reviewer", "ada")
    assert result.exit_code == 6
    assert "no such repository: " in result.output and "offline" not in result.output
    assert "1 event(s) will be sent" in result.output


def test_a_file_given_as_the_remote_is_no_such_repository_exit_6(tmp_path: Path) -> None:
    ada = _db(tmp_path / "ada.sqlite3", "ada", {"R-1": "confirmed"})
    notes = tmp_path / "notes.txt"
    notes.write_text("hello\n", encoding="utf-8")
    # git reads a file as a gitfile: "invalid gitfile format" was taken for offline (exit 4)
    result = run("sync", "--remote", notes, "--db", ada, "--reviewer", "ada")
    assert result.exit_code == 6, result.output
    assert "no such repository: " in result.output and "offline" not in result.output


def test_an_empty_remote_is_refused_not_read_as_the_remembered_one(tmp_path: Path) -> None:
    ada = _db(tmp_path / "ada.sqlite3", "ada", {"R-1": "confirmed"})
    remote = bare_remote(tmp_path / "verdicts.git")
    assert run("sync", "--remote", remote, "--db", ada, "--reviewer", "ada").exit_code == 0
    result = run("sync", "--remote", "", "--db", ada)
    assert result.exit_code == 2 and result.stderr == "assay sync: the remote is empty\n"


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    ada = _db(tmp_path / "ada.sqlite3", "ada", {"R-1": "confirmed"})
    no_remote = run("sync", "--db", ada)
    assert no_remote.exit_code == 2 and "give one with --remote" in no_remote.output
    ext = run("sync", "--remote", "ext::sh -c id", "--db", ada)
    assert ext.exit_code == 2 and "remote helpers are not allowed" in ext.output
    not_db = tmp_path / "notes.txt"
    not_db.write_text("hello\n", encoding="utf-8")
    bad = run("sync", "--remote", tmp_path, "--db", not_db)
    assert bad.exit_code == 2 and "Traceback" not in bad.output


def test_a_data_directory_that_cannot_be_made_is_one_clear_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ada = _db(tmp_path / "ada.sqlite3", "ada", {"R-1": "confirmed"})
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocker / "data"))  # root writes through chmod
    result = run("sync", "--remote", bare_remote(tmp_path / "v.git"), "--db", ada)
    assert result.exit_code == 2
    # it said "[Errno 20] Not a directory: '...'"
    assert result.stderr == (
        f"assay sync: cannot make the private clone in {blocker}/data/assay/sync: Not a directory\n"
    )


def test_help_documents_the_command() -> None:
    shown = subprocess.run(
        [sys.executable, "-m", "tui.cli", "sync", "--help"], capture_output=True, text=True
    )
    assert shown.returncode == 0
    for words in ("--remote URL|PATH", "--db", "--reviewer", "verdicts/<report>/<reviewer>.jsonl"):
        assert words in shown.stdout


@pytest.mark.parametrize(
    "url",
    [
        "https://x-access-token:SECRET@127.0.0.1:9/team/verdicts.git",
        "https://127.0.0.1:9/team/verdicts.git?x-access-token=SECRET",
    ],
)
def test_a_token_in_the_remote_url_is_never_printed_nor_stored(tmp_path: Path, url: str) -> None:
    ada = _db(tmp_path / "ada.sqlite3", "ada", {"R-1": "confirmed"})
    result = run("sync", "--remote", url, "--db", ada, "--reviewer", "ada")
    assert result.exit_code == 4, result.output  # nothing listens on port 9
    assert "cannot reach https://127.0.0.1:9/team/verdicts.git" in result.output
    assert "SECRET" not in result.output and "x-access-token" not in result.output
    with VerdictStore.open(ada) as store:
        state = store.sync_state()
    assert state["remote"] == "https://127.0.0.1:9/team/verdicts.git"
    assert not [key for key, value in state.items() if "SECRET" in key + value]


def test_sync_pushes_to_the_default_branch_of_an_empty_remote(tmp_path: Path) -> None:
    remote = tmp_path / "verdicts.git"
    git("init", "--quiet", "--bare", "--initial-branch=trunk", str(remote))
    ada = _db(tmp_path / "ada.sqlite3", "ada", {"R-1": "confirmed"})
    result = run("sync", "--remote", remote, "--db", ada, "--reviewer", "ada")
    assert result.exit_code == 0, result.output
    assert remote_files(remote, "trunk")  # where a clone of the remote looks
    assert git("-C", str(remote), "branch", "--list").split() == ["*", "trunk"]


def _commit_files(remote: Path, work: Path, files: dict[str, str]) -> str:
    """Push a commit adding ``files`` to the remote's main branch; its id."""
    if not work.exists():
        git("clone", "--quiet", str(remote), str(work))
    for path, text in files.items():
        (work / path).parent.mkdir(parents=True, exist_ok=True)
        (work / path).write_text(text, encoding="utf-8")
        git("add", path, cwd=work)
    git("commit", "--quiet", "-m", "files", cwd=work)
    git("push", "--quiet", "origin", "HEAD:main", cwd=work)
    return git("rev-parse", "HEAD", cwd=work).strip()


def test_a_code_repository_given_as_the_remote_is_not_pushed_to(tmp_path: Path) -> None:
    # `--remote` given the audited project's URL by mistake committed verdicts/ onto its main
    remote = bare_remote(tmp_path / "project.git")
    work = tmp_path / "work"
    code = _commit_files(remote, work, {"README.md": "Kestrel\n", "src/app.py": "x = 1\n"})
    ada = _db(tmp_path / "ada.sqlite3", "ada", {"R-1": "confirmed"})
    result = run("sync", "--remote", remote, "--db", ada, "--reviewer", "ada")
    assert result.exit_code == 5, result.output
    assert result.stderr.startswith(
        "assay sync: not sent: its branch main holds 'src/app.py' among 2 files and no verdicts/ "
        "folder: it looks like a code repository, not one for verdicts, and nothing was pushed"
    )
    assert "1 event(s) of ada are kept" in result.stderr
    assert git("rev-parse", "main", cwd=remote).strip() == code
    # the user says it is one: a verdicts/ folder on the branch, and the sync goes ahead
    _commit_files(remote, work, {"verdicts/README.md": "Our verdicts\n"})
    again = run("sync", "--db", ada)
    assert again.exit_code == 0, again.output
    assert "verdicts/KESTREL/runtime-report/ada.jsonl" in remote_files(remote)


def test_a_new_verdicts_repository_with_a_readme_only_is_pushed_to(tmp_path: Path) -> None:
    remote = bare_remote(tmp_path / "verdicts.git")
    _commit_files(remote, tmp_path / "work", {"README.md": "x\n", "LICENSE": "y\n"})
    ada = _db(tmp_path / "ada.sqlite3", "ada", {"R-1": "confirmed"})
    result = run("sync", "--remote", remote, "--db", ada, "--reviewer", "ada")
    assert result.exit_code == 0, result.output


def test_a_reviewer_name_is_one_line_of_the_commit_message(tmp_path: Path) -> None:
    remote = bare_remote(tmp_path / "verdicts.git")
    name = "ada\nSigned-off-by: eve"
    # the name is taken as every door takes it (db/names.py `plain_name`): one line
    ada = _db(tmp_path / "ada.sqlite3", "ada Signed-off-by: eve", {"R-1": "confirmed"})
    result = run("sync", "--remote", remote, "--db", ada, "--reviewer", name)
    assert result.exit_code == 0, result.output
    message = git("-C", str(remote), "log", "-1", "--format=%B", "main")
    assert message.strip() == "assay sync: ada Signed-off-by: eve: 1 new event(s)"
