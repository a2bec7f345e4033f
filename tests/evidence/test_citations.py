"""Issue 14, point 5: every cited path is checked at the revision (present, a directory, absent, a
near miss with the closest existing path suggested), and `assay check` lists, counts and fails on
missing cited paths."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from evidencekit import make_repo

from evidence.citations import CitedState, PathIndex, cited_path
from tui.cli import cli

PATHS = ["src/app.py", "src/ai/chat.js", "docs/README.md", "Makefile"]

REPORT = """\
Tiny runtime report

Type: agentic-system-analyses/types/agentic-system-runtime-report.md

Runtime account

Evidence

Evidence is SRC-1 at revision {rev}.

Shared records

Claims

TY-CLM-answer

Label: The answer

The handler returns a fixed number (SRC-1, src/app.py).

return compute(42) --- src/app.py:2

TY-CLM-cited

Label: Only cited

The chat runs tools (SRC-1, {cited}).
"""


def test_states_of_cited_paths() -> None:
    index = PathIndex(PATHS)
    assert index.state("src/app.py") == (CitedState.PRESENT, None)
    assert index.state("./src/app.py:12-14") == (CitedState.PRESENT, None)
    assert index.state("src/ai/") == (CitedState.DIRECTORY, None)
    assert index.state("src/ai/chat.jsx") == (CitedState.NEAR_MISS, "src/ai/chat.js")
    assert index.state("README.md") == (CitedState.NEAR_MISS, "docs/README.md")
    assert index.state("src/ai/does-not-exist.js") == (CitedState.ABSENT, None)
    assert CitedState.NEAR_MISS.missing and CitedState.ABSENT.missing
    assert not CitedState.DIRECTORY.missing
    assert cited_path("`src/a.py#L3-L9`") == "src/a.py"
    assert cited_path("src/a.py:L3-L9") == cited_path("src/a.py:3:7") == "src/a.py"


def check(tmp_path: Path, cited: str, *more: str) -> tuple[int, str, str]:
    repo = tmp_path / "repo"
    if not repo.exists():
        make_repo(
            repo,
            {"src/app.py": "def handler():\n    return compute(42)\n", "src/ai/chat.js": "x\n"},
        )
    report = tmp_path / "tiny-runtime-report.txt"
    report.write_text(REPORT.format(rev="(not stated)", cited=cited), encoding="utf-8")
    result = CliRunner().invoke(
        cli, ["check", str(report), "--repo", str(repo), "--rev", "HEAD", *more]
    )
    return result.exit_code, result.stdout, result.stderr


def test_check_fails_on_a_missing_cited_file_and_lists_it(tmp_path: Path) -> None:
    code, out, err = check(tmp_path, "src/ai/does-not-exist.js")
    assert code == 1, err
    assert "1 cited path(s) missing:" in out
    assert "✗ src/ai/does-not-exist.js  TY-CLM-cited" in out
    assert out.splitlines()[-1].endswith("1 of 2 cited path(s) missing; FAIL")


def test_check_suggests_the_closest_path_and_passes_on_a_directory(tmp_path: Path) -> None:
    code, out, _ = check(tmp_path, "src/ai/chat.jsx")
    assert code == 1
    assert "closest existing path: src/ai/chat.js" in out
    code, out, _ = check(tmp_path, "src/ai/")
    assert code == 0, out
    assert out.splitlines()[-1].endswith("0 of 2 cited path(s) missing; OK")


def test_check_json_lists_every_citation(tmp_path: Path) -> None:
    code, out, _ = check(tmp_path, "src/ai/chat.jsx", "--format", "json")
    assert code == 1
    data = json.loads(out)
    assert [
        {key: entry[key] for key in ("record", "source", "path", "state", "suggestion")}
        for entry in data["citations"]
    ] == [
        {
            "record": "TY-CLM-answer",
            "source": "SRC-1",
            "path": "src/app.py",
            "state": "present",
            "suggestion": None,
        },
        {
            "record": "TY-CLM-cited",
            "source": "SRC-1",
            "path": "src/ai/chat.jsx",
            "state": "near_miss",
            "suggestion": "src/ai/chat.js",
        },
    ]
    assert data["citations"][1]["report"].endswith("tiny-runtime-report.txt")
    assert data["citations"][1]["report_line"] == 27
    assert data["summary"]["citations"] == 2 and data["summary"]["citations_missing"] == 1


def test_wildcards_cite_the_files_they_match() -> None:
    paths = [*PATHS, "src/ai/tools.js", "src/ai/deep/x.js", "app/[id]/page.tsx", "docs/what?.md"]
    index = PathIndex(paths)
    assert index.cited("src/ai/*.js") == (CitedState.PATTERN, "src/ai/chat.js", 2)
    assert index.cited("src/**/*.js") == (CitedState.PATTERN, "src/ai/chat.js", 3)
    assert index.cited("src/ai/?hat.js:3") == (CitedState.PATTERN, "src/ai/chat.js", 1)
    assert index.cited("src/*.ts") == (CitedState.ABSENT, None, 0)
    assert not CitedState.PATTERN.missing
    # a path that exists as written is that path: brackets are a route's folder, not a set
    assert index.cited("app/[id]/page.tsx") == (CitedState.PRESENT, None, 0)
    assert index.cited("docs/what?.md") == (CitedState.PRESENT, None, 0)
    # a system's directory first, as any cited path
    system = PathIndex(["api/a.py", "api/b.py", "tools/c.py"], root="api")
    assert system.cited("*.py") == (CitedState.PATTERN, "api/a.py", 2)
    assert system.cited("tools/*.py") == (CitedState.PATTERN, "tools/c.py", 1)


def test_check_reads_a_list_on_past_a_wildcard(tmp_path: Path) -> None:
    # it ended the list: the paths after it were never checked, nor counted
    code, out, _ = check(tmp_path, "src/*.py, src/ai/*.ts, src/gone.js", "--format", "json")
    assert code == 1
    cited = [(c["path"], c["state"], c["matches"]) for c in json.loads(out)["citations"]]
    assert cited[1:] == [
        ("src/*.py", "pattern", 1),
        ("src/ai/*.ts", "absent", 0),
        ("src/gone.js", "absent", 0),
    ]
