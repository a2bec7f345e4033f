"""A hostile or careless command line: each case used to crash (exit 3, "internal error") or
lose data; each is now refused in one line with exit 2, the user's files unchanged."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from clikit import ROOT, assay, one_line_refusal


@pytest.mark.parametrize("audit", [[], ["--audit"]])
def test_demo_with_a_cache_directory_that_cannot_be_made(tmp_path: Path, audit: list[str]) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n", encoding="utf-8")
    # root writes through chmod: a cache under a regular file is one no one can create
    env = {"XDG_CACHE_HOME": str(blocker / "cache"), "XDG_DATA_HOME": str(tmp_path / "data")}
    line = one_line_refusal(assay("demo", *audit, env=env))
    assert line.startswith("assay demo: cannot build the sample repository in "), line


def test_a_theme_file_that_is_a_fifo_does_not_block_the_launch(tmp_path: Path) -> None:
    theme = tmp_path / "assay" / "theme"
    theme.parent.mkdir()
    os.mkfifo(theme)
    # reading a FIFO waits for a writer that never comes: the app would never draw
    code = "from screens.themes import saved_theme, theme_file; print(saved_theme(theme_file()))"
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PYTHONPATH": str(ROOT), "XDG_CONFIG_HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 0 and result.stdout == "None\n", result.stderr
