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


def test_ci_runs_the_suite_on_the_oldest_textual_admitted() -> None:
    import re
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    textual = next(d for d in project["dependencies"] if d.startswith("textual"))
    lower = re.search(r">=\s*([\d.]+)", textual)
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    oldest = re.search(r"^TEXTUAL_OLDEST := ([\d.]+)$", makefile, re.M)
    assert lower and oldest, "textual needs a lower bound and the Makefile its oldest version"
    # the registry's oldest release of the range: 8.2 is published as 8.2.0
    assert oldest.group(1).split(".")[:2] == lower.group(1).split(".")[:2]
    assert "make test-oldest" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
