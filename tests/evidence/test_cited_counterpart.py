"""A file opened at REV traced back to the cited revision's file it is (`cited_counterpart`),
on histories with merges, renames both ways and a release branch."""

from __future__ import annotations

from pathlib import Path

from evidencekit import git, make_repo

from evidence.drift_files import cited_counterpart
from evidence.revision import Revision


def _body(name: str) -> str:
    return "".join(f"{name} line {n} holds its own words\n" for n in range(1, 16))


def _commit(root: Path, message: str) -> str:
    git(root, "add", "-A")
    git(root, "commit", "-qm", message)
    return git(root, "rev-parse", "HEAD")


def _counterparts(root: Path, cited: str, tip: str, paths: list[str]) -> dict[str, object]:
    with Revision.open(root, cited) as old, Revision.open(root, tip) as now:
        found = {path: cited_counterpart(path, old, now) for path in paths}
    return {
        path: None if drift is None else (drift.path, drift.status) for path, drift in found.items()
    }


def test_each_file_at_rev_is_traced_through_renames_and_a_merge(tmp_path: Path) -> None:
    root = tmp_path / "r"
    names = ("keep.py", "old.py", "x.py", "edit.py")
    cited = make_repo(root, {name: _body(name) for name in names})
    git(root, "checkout", "-qb", "topic")
    (root / "src").mkdir()
    git(root, "mv", "old.py", "src/new.py")
    _commit(root, "move old.py on a branch")
    git(root, "checkout", "-q", "main")
    git(root, "mv", "x.py", "y.py")
    _commit(root, "x.py is y.py now")
    (root / "x.py").write_text("a different file at the old name\n")
    (root / "added.py").write_text("written after the cited revision\n")
    (root / "edit.py").write_text(_body("edit.py") + "one more line\n")
    _commit(root, "a new x.py, added.py, edit.py edited")
    git(root, "merge", "-q", "--no-edit", "topic")
    tip = git(root, "rev-parse", "HEAD")
    paths = ["keep.py", "src/new.py", "y.py", "x.py", "added.py", "edit.py", "nowhere.py"]
    assert _counterparts(root, cited, tip, paths) == {
        "keep.py": ("keep.py", "unchanged"),
        "src/new.py": ("old.py", "renamed"),  # renamed on the branch merged
        "y.py": ("x.py", "renamed"),
        "x.py": None,  # the cited x.py is y.py now: this one was written on the way
        "added.py": None,
        "edit.py": ("edit.py", "edited"),
        "nowhere.py": None,
    }


def test_a_file_deleted_and_written_again_is_its_cited_self(tmp_path: Path) -> None:
    # as `follow_cited` follows it: the cited file, written again at its path
    root = tmp_path / "r"
    cited = make_repo(root, {"a.py": _body("a.py"), "b.py": _body("b.py")})
    git(root, "rm", "-q", "a.py")
    _commit(root, "drop a.py")
    (root / "a.py").write_text("back again\n")
    tip = _commit(root, "a.py again")
    assert _counterparts(root, cited, tip, ["a.py"]) == {"a.py": ("a.py", "edited")}


def test_a_release_branch_that_does_not_descend_is_traced_too(tmp_path: Path) -> None:
    root = tmp_path / "r"
    base = make_repo(root, {"a.py": _body("a.py"), "b.py": _body("b.py")})
    (root / "b.py").write_text(_body("b.py") + "edited on main\n")
    cited = _commit(root, "the cited revision, on main")
    git(root, "checkout", "-qb", "release", base)
    (root / "lib").mkdir()
    git(root, "mv", "a.py", "lib/a.py")
    (root / "c.py").write_text("only on the release branch\n")
    release = _commit(root, "move a.py, add c.py on the release branch")
    assert _counterparts(root, cited, release, ["lib/a.py", "b.py", "c.py"]) == {
        "lib/a.py": ("a.py", "renamed"),
        "b.py": ("b.py", "edited"),
        "c.py": None,
    }
