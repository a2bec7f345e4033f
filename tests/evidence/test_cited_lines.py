"""A cited file's lines past its end (`(SRC-1, src/save.py:40-42)` of a 7-line file, or
`src/save.py:40` named in prose) are no evidence: `assay check` fails on them and says how
long the file is; lines within it, or a file whose lines cannot be counted here, pass."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from evidencekit import make_repo
from test_reports_markdown import HEAD, SAVE

from tui.cli import cli


def _check(tmp_path: Path, body: str, *args: str) -> tuple[int, str]:
    repo = tmp_path / "repo"
    if not repo.exists():
        files = {"src/save.py": SAVE, "src/guard.py": "GUARD = 1\n", "img/logo.png": "\0PNG" * 9}
        (tmp_path / "rev").write_text(make_repo(repo, files))
    report = tmp_path / "r.md"
    report.write_text(HEAD.format(rev=(tmp_path / "rev").read_text(), body=body), encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", "--repo", str(repo), *args, str(report)])
    return result.exit_code, result.stdout


def test_lines_past_a_cited_files_end_fail_the_check(tmp_path: Path) -> None:
    body = "It is guarded (SRC-1, src/save.py:40-42) at `src/guard.py:1`."
    code, out = _check(tmp_path, body)
    assert code == 1, out
    assert "1 cited path(s) missing:" in out
    assert "✗ src/save.py  PR-RTE-save" in out
    assert "    lines 40-42 named: the file has 7 lines" in out
    assert "1 of 2 cited path(s) missing" in out
    code, out = _check(tmp_path, body, "--format", "json")
    cited = json.loads(out)["citations"]
    assert [(c["path"], c["state"], c["lines"], c["length"]) for c in cited] == [
        ("src/save.py", "past_end", [40, 42], 7),
        ("src/guard.py", "present", [1, 1], None),
    ]


def test_lines_within_a_file_or_not_countable_pass(tmp_path: Path) -> None:
    body = "It is guarded (SRC-1, src/save.py:7, img/logo.png:400) at `src/guard.py:1`."
    code, out = _check(tmp_path, body)
    assert code == 0, out
    assert "0 of 3 cited path(s) missing" in out
