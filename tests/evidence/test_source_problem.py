"""`SourceFile.problem`: one wording, shared by the review app, browse and `assay show`."""

from __future__ import annotations

from evidence.model import FileState
from evidence.revision import SourceFile


def test_problem_names_each_case() -> None:
    assert SourceFile("a.py", FileState.OK, "x = 1\n").problem is None
    assert SourceFile("a.py", FileState.OK, "").problem is None  # empty is shown, not a problem
    missing = SourceFile("gone.py", FileState.MISSING, "")
    assert missing.problem == "gone.py does not exist at this revision"
    binary = SourceFile("i.ico", FileState.BINARY, "", size=1150)
    assert binary.problem == "i.ico is a binary file (1,150 bytes)"
    big = SourceFile("big.bin", FileState.TOO_LARGE, "", size=6_000_000)
    assert big.problem == "big.bin is too large to show (6,000,000 bytes)"
    link = SourceFile("cur.yml", FileState.OK, "", symlink_target="v1.yml")
    assert link.problem == "cur.yml is a symbolic link to v1.yml"
    module = SourceFile("vendor/x", FileState.OK, "", submodule="ab" * 20)
    assert module.problem == f"vendor/x is a submodule at commit {'ab' * 20}"
