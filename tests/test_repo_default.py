"""``--repo`` defaults to the repository containing the current directory, in every command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from evidence.sample import CITED_REVISION, SAMPLE_REPORTS
from tui.cli import cli

COMMANDS_WITH_REPO = ("review", "check", "browse", "show", "grep")


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_check_from_a_subdirectory_reads_the_enclosing_repository(
    sample: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    given = invoke("check", str(SAMPLE_REPORTS), "--repo", str(sample), "--format", "json")
    below = next(path for path in sample.iterdir() if path.is_dir() and path.name != ".git")
    monkeypatch.chdir(below)
    found = invoke("check", str(SAMPLE_REPORTS), "--format", "json")
    assert found[0] == given[0]
    assert json.loads(found[1]) == json.loads(given[1])
    assert json.loads(found[1])["revision"] == CITED_REVISION


def test_show_and_grep_from_a_subdirectory(sample: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = next(path for path in sample.rglob("*.py") if ".git" not in path.parts)
    relative = path.relative_to(sample).as_posix()
    monkeypatch.chdir(path.parent)
    code, out, _ = invoke("show", f"{CITED_REVISION}:{relative}:1", "--plain")
    assert code == 0 and out.startswith("1 |")
    code, out, _ = invoke("grep", "-F", "import", "--rev", CITED_REVISION, "--no-color")
    assert code == 0 and ":" in out


@pytest.mark.parametrize("command", COMMANDS_WITH_REPO)
def test_outside_every_repository_the_message_says_to_pass_repo(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    args = {
        "review": ("review", str(SAMPLE_REPORTS)),
        "check": ("check", str(SAMPLE_REPORTS)),
        "browse": ("browse",),
        "show": ("show", "HEAD:a.py"),
        "grep": ("grep", "x"),
    }[command]
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 2
    assert "not inside a git repository" in result.output and "--repo" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("command", COMMANDS_WITH_REPO)
def test_help_says_what_repo_defaults_to(command: str) -> None:
    code, out, _ = invoke(command, "--help")
    assert code == 0
    assert "default: the repository containing the" in " ".join(out.split())
