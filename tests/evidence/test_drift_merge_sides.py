"""Drift's commits for a passage deleted on a history whose merges changed its file against
every parent: the commit named is the one that deleted the passage's lines (the branch's, as
``git log CITED..NEW -- PATH`` lists it), not a merge whose diff against the other side shows
the deletion; a merge is named when it wrote the lines itself (a conflict resolved there)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from evidencekit import drift_of, git, make_repo

from evidence.drift import Drift, DriftStatus

BODY = "".join(f"def step_{n}(value):\n    return value * {n} + {n * 3}\n" for n in range(8))
STEP_3 = (7, 8)  # the passage: step_3's two lines


def _drift(root: Path, cited: str) -> Drift:
    return drift_of(root, cited, "calc.py", STEP_3)


def _commit(root: Path, text: str, message: str) -> str:
    (root / "calc.py").write_text(text)
    git(root, "commit", "-qam", message)
    return git(root, "rev-parse", "HEAD")


def _without_step_3(text: str = BODY) -> str:
    return text.replace("def step_3(value):\n    return value * 3 + 9\n", "")


def _edited(step: int, text: str = BODY) -> str:
    return text.replace(f"return value * {step} + {step * 3}\n", f"return value * {step} + 1\n")


def _listed(root: Path, cited: str) -> list[str]:
    log = git(root, "log", "--topo-order", "--format=%H", f"{cited}..HEAD", "--", "calc.py")
    return log.split()


def _deleted_by(drift: Drift) -> list[str]:
    assert (drift.status, drift.path) == (DriftStatus.DELETED, "calc.py")
    return [commit.id for commit in drift.commits]


def test_a_deletion_on_a_branch_whose_file_main_edited_too_is_the_branchs(tmp_path: Path) -> None:
    """main edited other lines of the file, the branch deleted the passage: neither side of the
    merge left the file alone, and the deletion was credited to the merge, whose diff against
    main shows it. The merge's diff against the branch leaves the passage's lines alone: the
    branch's commit deleted them."""
    root = tmp_path / "r"
    cited = make_repo(root, {"calc.py": BODY})
    git(root, "checkout", "-qb", "side")
    deleted = _commit(root, _without_step_3(), "step_3 removed")
    git(root, "checkout", "-q", "main")
    _commit(root, _edited(6), "step_6 edited")
    git(root, "merge", "-q", "--no-ff", "-m", "merge side", "side")
    assert _deleted_by(_drift(root, cited)) == [deleted]
    assert deleted in _listed(root, cited)


def test_a_deletion_brought_by_an_octopus_merge_is_the_branchs(tmp_path: Path) -> None:
    """Three sides of an octopus merge each changed the file, one deleted the passage."""
    root = tmp_path / "r"
    cited = make_repo(root, {"calc.py": BODY})
    git(root, "checkout", "-qb", "side")
    deleted = _commit(root, _without_step_3(), "step_3 removed")
    git(root, "checkout", "-qb", "other", "main")
    _commit(root, _edited(0), "step_0 edited")
    git(root, "checkout", "-q", "main")
    _commit(root, _edited(6), "step_6 edited")
    git(root, "merge", "-q", "--no-ff", "-m", "octopus", "other", "side")
    assert _deleted_by(_drift(root, cited)) == [deleted]


def test_a_deletion_on_criss_cross_merges_is_the_branchs(tmp_path: Path) -> None:
    """The branch merged into main (both had changed the file), main merged into the branch,
    both went on and were merged again: the passage's deletion is still the branch's commit."""
    root = tmp_path / "r"
    cited = make_repo(root, {"calc.py": BODY, "notes.txt": "x\n"})
    git(root, "checkout", "-qb", "side")
    deleted = _commit(root, _without_step_3(), "step_3 removed")
    git(root, "checkout", "-q", "main")
    edit = _commit(root, _edited(6), "step_6 edited")
    git(root, "merge", "-q", "--no-ff", "-m", "merge side into main", "side")
    git(root, "checkout", "-q", "side")
    git(root, "merge", "-q", "--no-ff", "-m", "merge main into side", edit)
    (root / "other.txt").write_text("z\n")
    git(root, "add", "other.txt")
    git(root, "commit", "-qm", "other")
    git(root, "checkout", "-q", "main")
    (root / "notes.txt").write_text("y\n")
    git(root, "commit", "-qam", "notes")
    git(root, "merge", "-q", "--no-ff", "-m", "merge side again", "side")
    assert _deleted_by(_drift(root, cited)) == [deleted]


def test_a_passage_a_conflicted_merge_deleted_is_the_merges_and_both_sides_edits(
    tmp_path: Path,
) -> None:
    """Both sides edited the passage and the merge resolved the conflict by dropping it: the
    merge deleted the lines (its diff against every parent does), and the edits on both sides
    touched them on the way, as a deletion on one line of history lists the edits before it."""
    root = tmp_path / "r"
    cited = make_repo(root, {"calc.py": BODY})
    git(root, "checkout", "-qb", "side")
    theirs = _commit(root, BODY.replace("* 3 + 9", "* 3 + 10"), "step_3 +10")
    git(root, "checkout", "-q", "main")
    ours = _commit(root, BODY.replace("* 3 + 9", "* 3 + 11"), "step_3 +11")
    with pytest.raises(subprocess.CalledProcessError):  # the conflict, resolved below
        git(root, "merge", "-q", "--no-ff", "-m", "merge side", "side")
    merge = _commit(root, _without_step_3(), "merge side: step_3 dropped")
    assert len(git(root, "log", "-1", "--format=%P", merge).split()) == 2
    assert _deleted_by(_drift(root, cited)) == _listed(root, cited)
    assert set(_listed(root, cited)) == {merge, ours, theirs}


def test_a_deletion_on_a_branch_that_renamed_the_file_is_the_branchs(tmp_path: Path) -> None:
    """The branch renamed the file and then deleted the passage, main edited other lines of it:
    the deletion is the branch's commit, in the file's new name."""
    root = tmp_path / "r"
    cited = make_repo(root, {"calc.py": BODY})
    git(root, "checkout", "-qb", "side")
    git(root, "mv", "calc.py", "steps.py")
    git(root, "commit", "-qm", "renamed")
    (root / "steps.py").write_text(_without_step_3())
    git(root, "commit", "-qam", "step_3 removed")
    deleted = git(root, "rev-parse", "HEAD")
    git(root, "checkout", "-q", "main")
    _commit(root, _edited(6), "step_6 edited")
    git(root, "merge", "-q", "--no-ff", "-m", "merge side", "side")
    drift = _drift(root, cited)
    assert (drift.status, drift.path) == (DriftStatus.DELETED, "steps.py")
    assert [commit.id for commit in drift.commits] == [deleted]


def test_the_same_deletion_picked_onto_both_sides_is_the_first_parents(tmp_path: Path) -> None:
    """The deletion cherry-picked from the branch onto main, both sides changing other lines
    too, then merged: the merge leaves the passage's lines as both sides had them, and the
    first parent's commit is named, as ``git log -L``'s walk follows the first parent that
    left the lines alone."""
    root = tmp_path / "r"
    cited = make_repo(root, {"calc.py": BODY})
    git(root, "checkout", "-qb", "side")
    picked = _commit(root, _without_step_3(), "step_3 removed")
    _commit(root, _edited(0, _without_step_3()), "step_0 edited")
    git(root, "checkout", "-q", "main")
    git(root, "cherry-pick", picked)
    on_main = git(root, "rev-parse", "HEAD")
    _commit(root, _edited(6, _without_step_3()), "step_6 edited")
    git(root, "merge", "-q", "--no-ff", "-m", "merge side", "side")
    assert _deleted_by(_drift(root, cited)) == [on_main]


def test_a_passage_deleted_on_a_branch_and_written_again_lists_the_deletion(
    tmp_path: Path,
) -> None:
    """Deleted on a branch merged into a main that edited other lines of the file, then the
    deletion reverted: unchanged, and, as on one line of history, its commits are the revert
    (``git log -L``'s) and the deletion it undid, not the merge's (no merge is listed for a
    deletion ``git log -L`` cannot see)."""
    root = tmp_path / "r"
    cited = make_repo(root, {"calc.py": BODY})
    git(root, "checkout", "-qb", "side")
    deleted = _commit(root, _without_step_3(), "step_3 removed")
    git(root, "checkout", "-q", "main")
    _commit(root, _edited(6), "step_6 edited")
    git(root, "merge", "-q", "--no-ff", "-m", "merge side", "side")
    git(root, "revert", "--no-edit", deleted)
    reverted = git(root, "rev-parse", "HEAD")
    drift = _drift(root, cited)
    assert (drift.status, drift.lines) == (DriftStatus.UNCHANGED, STEP_3)
    assert [commit.id for commit in drift.commits] == [reverted, deleted]


@pytest.mark.parametrize(("side", "place"), [("theirs", (11, 12)), ("ours", (1, 2))])
def test_a_passage_moved_on_main_and_kept_where_it_was_by_a_merge_is_moved(
    tmp_path: Path, side: str, place: tuple[int, int]
) -> None:
    """main moved step_3 and step_4 to the top, a release branch edited step_4 where it stood,
    and the merge took the release's side of that conflict (-X theirs): the file holds the
    passage twice, moved by main and left at its own lines (shifted) by the release. Drift
    carried its lines through main's move, found them deleted there, and called the passage
    deleted, though the release's side kept them to the newer revision untouched. Taking
    main's side (-X ours) leaves only the moved copy."""
    root = tmp_path / "r"
    cited = make_repo(root, {"calc.py": BODY})
    git(root, "checkout", "-qb", "release")
    _commit(root, _edited(4), "step_4 edited where it stands")
    git(root, "checkout", "-q", "main")
    lines = BODY.splitlines(keepends=True)
    _commit(root, "".join(lines[6:10] + lines[:6] + lines[10:]), "step_3 and step_4 moved up")
    git(root, "merge", "-q", "--no-ff", f"-X{side}", "-m", "merge release", "release")
    drift = _drift(root, cited)
    assert (drift.status, drift.path, drift.lines) == (DriftStatus.MOVED, "calc.py", place)
    now = (root / "calc.py").read_text().splitlines(keepends=True)
    assert "".join(now[place[0] - 1 : place[1]]) == "".join(lines[6:8])
    lines_log = f"-L{place[0]},{place[1]}:calc.py"
    log = git(root, "log", lines_log, "--format=@%H", "-s", f"{cited}..HEAD")
    assert [c.id for c in drift.commits] == [line[1:] for line in log.split() if line[:1] == "@"]
