"""Hostile or broken verdicts repositories: each named for what it is, with an exit status of
its own, never "offline" forever; a path remote's proc-receive setting does not break pushes."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from clikit import assay
from synckit import bare_remote, git, give, marker_script, ran, run_sync

from db.store import VerdictStore
from evidence.sample import CITED_REVISION, SAMPLE_REPORTS


@pytest.fixture
def ada(tmp_path: Path) -> Iterator[VerdictStore]:
    store = VerdictStore.open(tmp_path / "ada.sqlite3")
    give(store, "ada", {"R-1": "confirmed"})
    yield store
    store.close()


def _push_a_tree_entry_dotdot(remote: Path, work: Path) -> str:
    """A commit whose tree names a file "..", pushed with the checks off; the tree's id."""
    git("init", "--quiet", str(work))
    blob = (
        subprocess.run(
            ["git", "hash-object", "-w", "--stdin"],
            cwd=work,
            input=b"{}\n",
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .strip()
    )
    tree = (
        subprocess.run(
            ["git", "hash-object", "-t", "tree", "-w", "--literally", "--stdin"],
            cwd=work,
            input=b"100644 ..\0" + bytes.fromhex(blob),
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .strip()
    )
    commit = git("commit-tree", tree, "-m", "bad", cwd=work).strip()
    unchecked = ["-c", "transfer.fsckObjects=false"]
    git(*unchecked, "push", "--quiet", str(remote), f"{commit}:refs/heads/main", cwd=work)
    return tree


def test_a_bad_object_on_the_remote_is_named_exit_7(ada: VerdictStore, tmp_path: Path) -> None:
    remote = bare_remote(tmp_path / "verdicts.git")
    tree = _push_a_tree_entry_dotdot(remote, tmp_path / "mallory")
    result = run_sync(ada, remote, "ada", tmp_path / "a")
    assert result.problem == "damaged" and result.pending == 1
    assert result.offline is not None and tree in result.offline and "hasDotdot" in result.offline
    db = str(ada.path)
    ada.close()
    shown = assay("sync", "--db", db, env={"XDG_DATA_HOME": str(tmp_path / "data")})
    assert shown.returncode == 7, shown.stderr
    assert f"bad object in {remote}" in shown.stderr and "offline" not in shown.stderr
    assert "Traceback" not in shown.stderr and len(shown.stderr.strip().splitlines()) == 1


def test_a_mistyped_path_is_no_such_repository(ada: VerdictStore, tmp_path: Path) -> None:
    result = run_sync(ada, tmp_path / "verdicts.gti", "ada", tmp_path / "a")
    assert result.problem == "missing" and result.pending == 1
    db = str(ada.path)
    ada.close()
    shown = assay("sync", "--db", db, env={"XDG_DATA_HOME": str(tmp_path / "data")})
    assert shown.returncode == 6 and "no such repository: " in shown.stderr


def test_a_path_remote_with_proc_receive_refs_takes_the_push(
    ada: VerdictStore, tmp_path: Path
) -> None:
    remote = bare_remote(tmp_path / "verdicts.git")
    git("config", "--add", "receive.procReceiveRefs", "refs/heads", cwd=remote)
    git("config", "--add", "receive.procReceiveRefs", "!:refs/tags", cwd=remote)
    markers = tmp_path / "markers"
    marker_script(remote / "hooks" / "proc-receive", markers / "proc-receive", exit_code=1)
    first = run_sync(ada, remote, "ada", tmp_path / "a")
    assert first.ok and first.sent == 1, first.error
    give(ada, "ada", {"R-2": "refuted"})
    second = run_sync(ada, remote, "ada", tmp_path / "a")
    assert second.ok and second.sent == 1, second.error
    assert git("rev-parse", "main", cwd=remote).strip() == second.commit
    assert ran(markers) == []


def test_a_blob_none_partial_clone_says_what_is_missing(sample: Path, tmp_path: Path) -> None:
    clone = tmp_path / "partial"
    git(
        "clone",
        "--quiet",
        "--no-checkout",
        "--filter=blob:none",
        "--upload-pack=git -c uploadpack.allowFilter=true upload-pack",
        f"file://{sample}",
        str(clone),
    )
    report = str(SAMPLE_REPORTS / "kestrel-runtime-report.txt")
    shown = assay("check", "--repo", str(clone), "--rev", CITED_REVISION, report)
    assert shown.returncode == 2, shown.stderr
    assert "is a partial clone" in shown.stderr and "lazy fetching" not in shown.stderr
    assert f"git -C {clone} fetch --refetch --no-filter origin" in shown.stderr
    # the way it gives works
    git("-C", str(clone), "fetch", "--quiet", "--refetch", "--no-filter", "origin")
    assert assay("check", "--repo", str(clone), "--rev", CITED_REVISION, report).returncode == 1
