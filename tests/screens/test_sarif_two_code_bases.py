"""One scanner's runs over two code bases reviewed into one database, outside an audit: a run is
known by its tool and category, so the second review's registration marks the first's results
gone and their counts mix. The review says so once it has registered (an audit keeps systems
apart: tests/audit/test_audit_sarif.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from screenkit import git, review_once

from keymaps import Keymap


def code_base(root: Path, source: str, remote: str | None = None) -> tuple[Path, str]:
    """A repository of one file, src/app.py, with one commit; and its scan (tool "scanner", no
    category, the finding on line 1)."""
    root.mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text(source, encoding="utf-8")
    git(root, "add", "-A")
    git(root, "-c", "user.name=A", "-c", "user.email=a@example.org", "commit", "-qm", "one")
    if remote is not None:
        git(root, "remote", "add", "origin", remote)
    location = {
        "physicalLocation": {
            "artifactLocation": {"uri": "src/app.py"},
            "region": {"startLine": 1, "snippet": {"text": source.splitlines()[0]}},
        }
    }
    result = {"ruleId": "X1", "message": {"text": "finding"}, "locations": [location]}
    run = {"tool": {"driver": {"name": "scanner"}}, "results": [result]}
    scan = root.parent / f"{root.name}.sarif"
    scan.write_text(json.dumps({"version": "2.1.0", "runs": [run]}), encoding="utf-8")
    return scan, git(root, "rev-parse", "HEAD").strip()


async def reviewed(repo: Path, scan: Path, commit: str, db: Path, keymap: Keymap) -> list[Any]:
    """The warnings a review of ``scan`` at ``repo`` shows once it has registered in ``db``."""
    seen = await review_once(repo, scan, commit, db, keymap)
    return [notice.message for notice in seen.notices if notice.severity == "warning"]


async def test_a_second_code_base_under_the_same_run_is_said(
    tmp_path: Path, keymap: Keymap
) -> None:
    db = tmp_path / "verdicts.db"
    alpha, alpha_commit = code_base(tmp_path / "alpha", "LIMIT = 12\n")
    beta, beta_commit = code_base(tmp_path / "beta", "TOKEN = read()\n")
    assert await reviewed(tmp_path / "alpha", alpha, alpha_commit, db, keymap) == []
    (warning,) = await reviewed(tmp_path / "beta", beta, beta_commit, db, keymap)
    assert warning.startswith("scanner: this database also holds results of the same run name")
    assert str((tmp_path / "alpha").resolve()) in warning and "--db" in warning
    # the same code base again: nothing to say
    assert await reviewed(tmp_path / "beta", beta, beta_commit, db, keymap) == []


async def test_another_clone_of_the_same_code_is_not(tmp_path: Path, keymap: Keymap) -> None:
    db = tmp_path / "verdicts.db"
    remote = "https://forge.example/team/alpha.git"
    first, commit = code_base(tmp_path / "one" / "alpha", "LIMIT = 12\n", remote)
    second, _ = code_base(tmp_path / "two" / "alpha", "LIMIT = 12\n", remote)
    assert await reviewed(tmp_path / "one" / "alpha", first, commit, db, keymap) == []
    clone_commit = git(tmp_path / "two" / "alpha", "rev-parse", "HEAD").strip()
    assert await reviewed(tmp_path / "two" / "alpha", second, clone_commit, db, keymap) == []
