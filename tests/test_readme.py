"""README.md stays true: every command is documented and the quick start is the two commands."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui.cli import COMMANDS, cli

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_exists_and_is_documented(name: str) -> None:
    assert cli.get_command(None, name) is not None, f"assay {name} is listed but not importable"  # type: ignore[arg-type]
    assert f"assay {name}" in README, f"README.md does not document `assay {name}`"


def test_quick_start_is_make_demo_and_make_test() -> None:
    quick_start = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    commands = [line.split("#")[0].strip() for line in quick_start.splitlines() if "make " in line]
    assert commands[:2] == ["make demo", "make test"]
    assert "make test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
