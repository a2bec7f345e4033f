"""A hostile or careless command line: each case used to crash (exit 3, "internal error") or
lose data; each is now refused in one line with exit 2, the user's files unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest
from clikit import assay, one_line_refusal


@pytest.mark.parametrize("audit", [[], ["--audit"]])
def test_demo_with_a_cache_directory_that_cannot_be_made(tmp_path: Path, audit: list[str]) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n", encoding="utf-8")
    # root writes through chmod: a cache under a regular file is one no one can create
    env = {"XDG_CACHE_HOME": str(blocker / "cache"), "XDG_DATA_HOME": str(tmp_path / "data")}
    line = one_line_refusal(assay("demo", *audit, env=env))
    assert line.startswith("assay demo: cannot build the sample repository in "), line
