"""A system inside a monorepo: `--repo` naming a directory of a work tree reads the reports'
paths from there first (as git reads ./paths there), then from the top of the tree, saying so."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from evidencekit import git, make_repo

from evidence.anchor_cache import key_for
from evidence.citations import CitedState, PathIndex
from evidence.git.spelling import TreeSpelling
from evidence.git.submodules import tree_directory
from evidence.git.tree import TreeEntry
from evidence.model import Quote
from evidence.revision import Revision
from tui.cli import cli

SYSTEM = "services/kestrel"


def test_spelling_looks_under_the_root_first_then_at_the_top() -> None:
    files = [f"{SYSTEM}/api/server.py", f"{SYSTEM}/README.md", "README.md", "shared/lib.py"]
    entries = {path: TreeEntry(path, "100644", "blob", "0" * 40, 1) for path in files}
    spelling = TreeSpelling(entries, lambda entry: "", root=SYSTEM)
    assert spelling.find("api/server.py") == (f"{SYSTEM}/api/server.py", True, "", None)
    assert spelling.find("README.md").path == f"{SYSTEM}/README.md"  # the system's, not the top's
    assert spelling.find("shared/lib.py") == (
        "shared/lib.py",
        True,
        f"shared/lib.py is not under {SYSTEM}: read from the top of the tree",
        None,
    )
    assert spelling.find(f"{SYSTEM}/api/server.py").path == f"{SYSTEM}/api/server.py"
    assert not spelling.find("nothing.py").found
    assert spelling.find("nothing.py").path == "nothing.py"  # as cited


def test_cited_paths_are_looked_for_under_the_root() -> None:
    paths = [f"{SYSTEM}/api/server.py", "README.md"]
    index = PathIndex(paths, root=SYSTEM)
    assert index.state("api/server.py") == (CitedState.PRESENT, None)
    assert index.state("api/") == (CitedState.DIRECTORY, None)
    assert index.state("README.md") == (CitedState.PRESENT, None)
    assert PathIndex(paths).state("api/server.py")[0] is CitedState.NEAR_MISS


def test_the_anchor_cache_keys_a_root_apart() -> None:
    quotes = [Quote("x = 1", "a.py", (1, 1), 3, 3, "R", 0)]
    commit = "a" * 40
    assert key_for(quotes, commit) == key_for(quotes, commit, "")
    assert key_for(quotes, commit, SYSTEM) != key_for(quotes, commit)


@pytest.fixture
def monorepo(tmp_path: Path) -> tuple[Path, str]:
    root = tmp_path / "mono"
    commit = make_repo(
        root,
        {
            f"{SYSTEM}/api/server.py": "def serve(request):\n    return route(request)\n",
            f"{SYSTEM}/README.md": "# Kestrel\n\nThe field-station service.\n",
            "README.md": "# The monorepo\n",
            "shared/lib.py": "def route(request):\n    return None\n",
        },
    )
    return root, commit


def test_a_revision_opened_in_a_directory_reads_from_there(monorepo: tuple[Path, str]) -> None:
    top, commit = monorepo
    with Revision.open(top / SYSTEM, commit) as revision:
        assert revision.root == SYSTEM and revision.repo_path == top.resolve()
        assert revision.read("api/server.py").lines[1] == "    return route(request)"
        assert revision.read("README.md").lines[0] == "# Kestrel"
        shared = revision.read("shared/lib.py")
        assert shared.lines[0] == "def route(request):" and "read from the top" in shared.via
        assert dict(revision.scan(["api/server.py"])).keys() == {"api/server.py"}
    with Revision.open(top, commit) as revision:
        assert revision.root == "" and revision.read("README.md").lines[0] == "# The monorepo"
    assert tree_directory(top / SYSTEM) == SYSTEM and tree_directory(top) == ""
    assert tree_directory(top / ".git") == ""


REPORT = """Kestrel runtime report

Type: agentic-system-analyses/types/agentic-system-runtime-report.md

Evidence is SRC-1 at revision {commit}.

Shared records

Components

KS-CMP-api

Label: the API

The handler routes every request (SRC-1, api/server.py, api/, shared/lib.py):

    def serve(request):
        return route(request)

--- api/server.py:1-2

What the system says it is:

    The field-station service.

--- README.md:3

A bounded search: rg -n 'route' api/server.py finds the one call.

The router it shares:

    def route(request):

--- shared/lib.py:1
"""


def _check(repo: Path, commit: str, tmp_path: Path, *more: str) -> tuple[int, dict[str, Any]]:
    report = tmp_path / "kestrel.txt"
    report.write_text(REPORT.format(commit=commit), encoding="utf-8")
    result = CliRunner().invoke(
        cli, ["check", "--repo", str(repo), "--format", "json", str(report), *more]
    )
    return result.exit_code, json.loads(result.stdout)


def test_check_of_a_system_in_a_monorepo(monorepo: tuple[Path, str], tmp_path: Path) -> None:
    top, commit = monorepo
    code, out = _check(top / SYSTEM, commit, tmp_path)
    assert code == 0, out
    quotes = out["quotes"]
    assert isinstance(quotes, list)
    assert [q["match"] for q in quotes] == ["whitespace", "exact", "exact"]
    assert quotes[2]["notes"] == [
        f"shared/lib.py is not under {SYSTEM}: read from the top of the tree"
    ]
    assert [c["state"] for c in out["citations"]] == ["present", "directory", "present"]
    (search,) = out["searches"]
    assert search["count"] == 1 and search["hits"][0]["path"] == f"{SYSTEM}/api/server.py"
    code, out = _check(top, commit, tmp_path)  # from the top: the report's paths are not there
    assert code == 1
    quotes = out["quotes"]
    assert isinstance(quotes, list) and [q["match"] for q in quotes] == [
        "missing",
        "missing",
        "exact",
    ]


def test_drift_of_a_system_in_a_monorepo(monorepo: tuple[Path, str], tmp_path: Path) -> None:
    top, commit = monorepo
    server = top / SYSTEM / "api" / "server.py"
    server.write_text("import shared\n\n" + server.read_text())
    git(top, "commit", "-qam", "an import")
    code, out = _check(top / SYSTEM, commit, tmp_path, "--against", "HEAD")
    assert code == 0, out  # moved, same text: the check holds (it said "not a git repository")
    drifts = [q["drift"] for q in out["quotes"]]
    assert drifts[0]["status"] == "moved" and drifts[0]["lines"] == [3, 4]
    assert drifts[0]["path"] == f"{SYSTEM}/api/server.py"
    assert [d["status"] for d in drifts[1:]] == ["unchanged", "unchanged"]


def test_a_search_covers_the_directory_unless_told_otherwise(monorepo: tuple[Path, str]) -> None:
    top, commit = monorepo
    with Revision.open(top / SYSTEM, commit) as revision:
        assert [h.path for h in revision.grep("route")] == [f"{SYSTEM}/api/server.py"]
        assert [h.path for h in revision.grep("route", paths=["api/"])] == [
            f"{SYSTEM}/api/server.py"
        ]
        # not under the directory: the top's
        assert [h.path for h in revision.grep("route", paths=["shared"])] == ["shared/lib.py"]
    with Revision.open(top, commit) as revision:
        assert [h.path for h in revision.grep("route")] == [
            f"{SYSTEM}/api/server.py",
            "shared/lib.py",
        ]
