"""Only the git layer (evidence/git/) starts processes or imports GitPython."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("evidence", "db", "screens", "tui", "keymaps")
LAYER = ROOT / "evidence" / "git"
STARTS = re.compile(
    r"^\s*(import subprocess|from subprocess import|import git\b|from git\b)"
    r"|os\.(system|popen|exec\w*|spawn\w*|posix_spawn\w*)\(",
    re.MULTILINE,
)


def test_no_process_and_no_gitpython_outside_the_git_layer() -> None:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if LAYER in path.parents:
                continue
            for match in STARTS.finditer(path.read_text(encoding="utf-8")):
                found.append(f"{path.relative_to(ROOT)}: {match.group(0).strip()}")
    assert found == []
