"""evidence/git/repo.py: GitPython on a hostile repository runs none of its programs."""

from __future__ import annotations

from pathlib import Path

import pytest
from evidencekit import arm, git, make_repo

from evidence.git.process import RevisionError
from evidence.git.repo import find_repository, open_repo
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
    (root / "src" / "app.py").write_text("def handler(request):\n    return None\n")
    git(root, "commit", "-qam", "second")
    marks = tmp_path / "marks"
    marks.mkdir()
    arm(root, marks)
    return root, marks


def test_history_and_objects_through_gitpython_run_nothing(
    hostile: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, marks = hostile
    monkeypatch.setenv("GIT_DIR", str(marks))  # the caller's environment points elsewhere
    monkeypatch.setenv("GIT_EXTERNAL_DIFF", f"touch {marks}/env-external-diff")
    monkeypatch.setenv("GIT_PAGER", f"touch {marks}/env-pager")
    repo = open_repo(root)
    try:
        head = repo.commit("HEAD")
        assert head.summary == "second"
        blob = head.tree / "src" / "app.py"
        assert blob.data_stream.read() == b"def handler(request):\n    return None\n"
        # log -L, a diff with a diff driver and textconv configured for every path
        ranges = repo.git.log("-L", "1,2:src/app.py", "--format=%H", "HEAD")
        assert head.hexsha in ranges
        diff = head.parents[0].diff(head, create_patch=True)
        assert diff and b"return None" in (diff[0].diff or b"")
        plain = ("--no-ext-diff", "--no-textconv")
        porcelain = repo.git.diff(*plain, "HEAD~1", "HEAD", "--", "src/app.py")
        assert "return None" in porcelain
    finally:
        repo.close()
    assert sorted(path.name for path in marks.iterdir()) == []


def test_find_repository_searches_parents(tmp_path: Path) -> None:
    root = tmp_path / "r"
    make_repo(root, {"a/b/c.txt": "x\n"})
    assert find_repository(root / "a" / "b") == root
    with pytest.raises(RevisionError, match="not a git repository"):
        find_repository(tmp_path)
    with pytest.raises(RevisionError, match="no such directory"):
        open_repo(tmp_path / "nope")


def test_commit_summary_keeps_the_subject_as_git_stored_it(tmp_path: Path) -> None:
    """The header's commit: the first line of the message, controls and all (shown visibly by
    the screens, tests/screens/test_review_header.py)."""
    root = tmp_path / "r"
    make_repo(root, {"a.txt": "a\n"})
    git(root, "commit", "-q", "--allow-empty", "-m", "fix \x1b[31mred\x1b[0m [b]x[/b]\n\nbody")
    with Revision.open(root, "HEAD") as revision:
        summary = revision.commit_summary()
    assert summary.subject == "fix \x1b[31mred\x1b[0m [b]x[/b]"
    assert summary.author == "Test" and summary.date.year == 2024


def test_a_cat_file_that_died_is_started_again(tmp_path: Path) -> None:
    root = tmp_path / "r"
    make_repo(root, {"a.txt": "alpha\n", "b.txt": "beta\n"})
    with Revision.open(root, "HEAD") as revision:
        entries = revision.entries()
        assert revision.read_blob(entries["a.txt"].oid) == b"alpha\n"
        repo = revision._git.repo()  # the process this test kills
        assert repo.git.cat_file_all is not None
        repo.git.cat_file_all.proc.kill()
        repo.git.cat_file_all.proc.wait()
        assert revision.read_blob(entries["b.txt"].oid) == b"beta\n"
