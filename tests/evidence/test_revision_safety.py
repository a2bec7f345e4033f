"""A hostile repository whose config and hooks run programs must not run them through assay."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from evidencekit import GIT_ENV, arm, make_repo

from evidence.model import FileState
from evidence.revision import Revision


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
        hits = list(revision.grep("hand.er"))
        assert [(hit.path, hit.line) for hit in hits] == [("src/app.py", 1)]
        assert list(revision.grep("check", fixed=True, ignore_case=True, paths=["src"]))
        list(revision.grep("blob", fixed=True))  # would touch the lost blob
        assert revision.remote_url() == f"ext::sh -c touch% {marks}/lazy-fetch"
        revision.resolve_link("src/app.py")
        revision.has_pcre()
    assert sorted(path.name for path in marks.iterdir()) == []
    assert os.environ["GIT_DIR"] == str(marks)  # the caller's environment is left alone
