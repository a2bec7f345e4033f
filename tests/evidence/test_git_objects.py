"""Whether a repository holds a commit, told from its object files without starting git (the
audit screen asks it of every system once its counts are drawn): loose or packed, from a work
tree, a directory inside one, a bare clone or a linked worktree; anything else is not known
(False), and git is asked."""

from __future__ import annotations

from pathlib import Path

from evidencekit import git, make_repo

from evidence.revision import holds_object

OTHER = "0123456789abcdef0123456789abcdef01234567"


def test_loose_and_packed_in_every_layout(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    commit = make_repo(repo, {"services/api/app.py": "x = 1\n"})
    assert holds_object(repo, commit) and not holds_object(repo, OTHER)
    assert holds_object(repo / "services" / "api", commit)  # a system of a monorepo
    git(repo, "gc", "-q")  # packed, no loose object left
    assert not list((repo / ".git" / "objects").glob("??/*"))
    assert holds_object(repo, commit) and not holds_object(repo, OTHER)
    bare = tmp_path / "bare.git"
    git(tmp_path, "clone", "-q", "--bare", str(repo), str(bare))
    assert holds_object(bare, commit)
    git(repo, "worktree", "add", "-q", str(tmp_path / "linked"))
    assert holds_object(tmp_path / "linked", commit)


def test_what_cannot_be_told_is_not_held(tmp_path: Path) -> None:
    assert not holds_object(tmp_path / "absent", OTHER)
    assert not holds_object(tmp_path, OTHER)  # no repository
    repo = tmp_path / "repo"
    commit = make_repo(repo, {"a.py": "x = 1\n"})
    assert not holds_object(repo, commit[:12])  # only a full id is looked up
    git(repo, "gc", "-q")
    for index in (repo / ".git" / "objects" / "pack").glob("*.idx"):
        index.chmod(0o644)
        index.write_bytes(b"not an index")  # damaged: git is asked, and says so
    assert not holds_object(repo, commit)
