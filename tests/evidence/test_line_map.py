"""evidence/line_map.py on a real repository: lines carried through the direct diff of two
commits, touched lines and renamed files left out."""

from __future__ import annotations

from pathlib import Path

import pytest
from evidencekit import git, make_repo

from evidence.line_map import lines_after
from evidence.revision import RevisionError


def test_untouched_lines_shift_and_touched_ones_have_no_place(tmp_path: Path) -> None:
    root = tmp_path / "r"
    body = [f"line {n}" for n in range(1, 11)]
    old = make_repo(root, {"a.py": "\n".join(body) + "\n", "same.py": "x\ny\n", "moved.py": "m\n"})
    # two lines above line 3, line 6 edited, line 9 deleted; moved.py renamed
    new_body = ["new 1", "new 2", *body[:5], "line 6 edited", *body[6:8], body[9]]
    (root / "a.py").write_text("\n".join(new_body) + "\n")
    git(root, "mv", "moved.py", "gone.py")
    git(root, "commit", "-qam", "edit")
    new = git(root, "rev-parse", "HEAD")
    wanted = {"a.py": [1, 3, 6, 9, 10], "same.py": [2], "moved.py": [1]}
    assert lines_after(root, old, new, wanted) == {
        ("a.py", 1): 3,
        ("a.py", 3): 5,
        ("a.py", 10): 11,
        ("same.py", 2): 2,
    }


def test_lines_of_a_file_made_binary_or_a_link_have_no_place(tmp_path: Path) -> None:
    """git prints no lines for either (a binary diff, a type change): no hunk says they were
    untouched, so a finding there is not carried to the same line."""
    root = tmp_path / "r"
    text = "one = 1\ntwo = 2\n"
    old = make_repo(root, {"data.txt": text, "conf.txt": text, "kept.txt": text})
    (root / "data.txt").write_bytes(text.encode() + b"\x00")
    (root / "conf.txt").unlink()
    (root / "conf.txt").symlink_to("kept.txt")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "binary and a link")
    new = git(root, "rev-parse", "HEAD")
    wanted = {"data.txt": [1, 2], "conf.txt": [1], "kept.txt": [2]}
    assert lines_after(root, old, new, wanted) == {("kept.txt", 2): 2}


def test_a_commit_not_in_the_repository_is_an_error(tmp_path: Path) -> None:
    root = tmp_path / "r"
    old = make_repo(root, {"a.py": "x\n"})
    with pytest.raises(RevisionError):
        lines_after(root, "0" * 40, old, {"a.py": [1]})


@pytest.mark.parametrize("odd", ["--output={written}", "HEAD", "abc"])
def test_only_a_full_commit_id_reaches_git(tmp_path: Path, odd: str) -> None:
    # the earlier revision comes from the verdict database: never an option or a name to git
    root, written = tmp_path / "r", tmp_path / "written"
    new = make_repo(root, {"a.py": "x\n"})
    with pytest.raises(RevisionError, match="not a commit id"):
        lines_after(root, odd.format(written=written), new, {"a.py": [1]})
    assert not written.exists()
