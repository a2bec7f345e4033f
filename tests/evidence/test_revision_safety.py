"""A hostile repository whose config and hooks run programs must not run them through assay."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from evidencekit import GIT_ENV, arm, make_repo

from evidence.model import FileState
from evidence.revision import GrepHit, MissingObjectError, Revision, RevisionError

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def hostile(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "hostile"
    make_repo(
        root,
        {
            "src/app.py": "def handler(request):\n    return check(request)\n",
            "lost.txt": "this blob will be deleted\n",
            ".gitattributes": "* diff=evil filter=evil\n",
        },
    )
    marks = tmp_path / "marks"
    marks.mkdir()
    arm(root, marks)
    return root, marks


def test_the_traps_are_armed(hostile: tuple[Path, Path]) -> None:
    """Control: plain git on this repository does run the configured programs."""
    root, marks = hostile
    env = {**GIT_ENV}
    subprocess.run(["git", "status"], cwd=root, env=env, capture_output=True, check=False)
    textconv = ["git", "grep", "--textconv", "def", "HEAD", "--", "src/app.py"]
    subprocess.run(textconv, cwd=root, env=env, capture_output=True, check=False)
    lost = subprocess.run(
        ["git", "rev-parse", "HEAD:lost.txt"], cwd=root, env=env, capture_output=True, text=True
    ).stdout.strip()
    subprocess.run(["git", "cat-file", "-p", lost], cwd=root, env=env, capture_output=True)
    made = {path.name for path in marks.iterdir()}
    assert {"fsmonitor", "filter-process", "lazy-fetch"} <= made


def test_every_revision_method_runs_nothing(
    hostile: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, marks = hostile
    # a hostile environment too: none of these may reach git
    monkeypatch.setenv("GIT_EXTERNAL_DIFF", f"touch {marks}/env-external-diff")
    monkeypatch.setenv("GIT_PAGER", f"touch {marks}/env-pager")
    monkeypatch.setenv("GIT_SSH_COMMAND", f"touch {marks}/env-ssh")
    monkeypatch.setenv("GIT_DIR", str(marks))
    monkeypatch.setenv("GIT_INDEX_FILE", str(marks / "index"))
    monkeypatch.setenv("PAGER", f"touch {marks}/env-pager2")
    with Revision.open(root, "HEAD") as revision:
        assert revision.paths() == [".gitattributes", "lost.txt", "src/app.py"]
        source = revision.read("src/app.py")
        assert source.state is FileState.OK
        assert source.lines[0] == "def handler(request):"
        assert revision.read("lost.txt").state is FileState.MISSING
        assert revision.read("nope").state is FileState.MISSING
        # grep.patternType=fixed and grep.lineNumber=false in the config do not change results
        # the lost blob cannot be read (nor fetched): the hits, then the search says so
        hits: list[GrepHit] = []
        with pytest.raises(RevisionError, match="incomplete: git could not read 1 file"):
            hits.extend(revision.grep("hand.er"))
        assert [(hit.path, hit.line) for hit in hits] == [("src/app.py", 1)]
        assert list(revision.grep("check", fixed=True, ignore_case=True, paths=["src"]))
        with pytest.raises(RevisionError, match="incomplete"):
            list(revision.grep("blob", fixed=True))  # would touch the lost blob
        assert revision.remote_url() == f"ext::sh -c touch% {marks}/lazy-fetch"
        revision.resolve_link("src/app.py")
        revision.has_pcre()
    assert sorted(path.name for path in marks.iterdir()) == []
    assert os.environ["GIT_DIR"] == str(marks)  # the caller's environment is left alone


def test_gitpython_reads_run_nothing_and_fetch_nothing(
    hostile: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tree, blobs (single and streamed), the header's commit and the remotes, read through
    GitPython, with a diff driver, textconv, external diff, pager, fsmonitor and hooks armed."""
    root, marks = hostile
    monkeypatch.setenv("GIT_EXTERNAL_DIFF", f"touch {marks}/env-external-diff")
    monkeypatch.setenv("GIT_PAGER", f"touch {marks}/env-pager")
    monkeypatch.setenv("GIT_DIR", str(marks))
    lost = subprocess.run(
        ["git", "rev-parse", "HEAD:lost.txt"], cwd=root, env=GIT_ENV, capture_output=True, text=True
    ).stdout.strip()
    with Revision.open(root, "HEAD") as revision:
        entries = revision.entries()
        app = entries["src/app.py"]
        assert entries["lost.txt"].size == -1  # ls-tree names it without fetching it
        assert revision.read_blob(app.oid).startswith(b"def handler(request):")
        with pytest.raises(MissingObjectError, match=f"^object {lost} is missing from the"):
            revision.read_blob(lost)
        assert revision.read_blob(app.oid).startswith(b"def handler")  # cat-file still in step
        with pytest.raises(MissingObjectError, match=f"^object {lost} is missing from the"):
            list(revision.iter_blobs([app.oid, lost]))
        assert [path for path, _ in revision.scan()] == [".gitattributes", "src/app.py"]
        summary = revision.commit_summary()
        assert (summary.subject, summary.author) == ("first", "Test")
        assert summary.date.isoformat() == "2024-01-01T00:00:00+00:00"
        assert revision.remote_url() == f"ext::sh -c touch% {marks}/lazy-fetch"
        assert revision.remote_url("nope") is None
        assert revision.remote_url("../origin") is None
    assert sorted(path.name for path in marks.iterdir()) == []


def test_a_closed_revision_says_so(hostile: tuple[Path, Path]) -> None:
    root, _ = hostile
    revision = Revision.open(root, "HEAD")
    oid = revision.entries()["src/app.py"].oid
    revision.close()
    with pytest.raises(RevisionError, match="is closed"):
        revision.read_blob(oid)


def test_opening_a_revision_does_not_import_gitpython(hostile: tuple[Path, Path]) -> None:
    """`assay review` opens the revision before the first frame: GitPython comes later."""
    root, _ = hostile
    probe = (
        "import sys\n"
        "from evidence.revision import Revision\n"
        f"revision = Revision.open({str(root)!r}, 'HEAD')\n"
        "before = 'git' in sys.modules\n"
        "revision.entries()\n"
        "print(before, 'git' in sys.modules)\n"
        "revision.close()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["False", "True"]
