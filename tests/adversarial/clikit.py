"""Running the real `assay` command in a process of its own, as a user would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def assay(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """`assay ARGS` (the entry point's `main`, which turns a crash into exit 3)."""
    return subprocess.run(
        [sys.executable, "-c", "import sys; from tui.cli import main; main(sys.argv[1:])", *args],
        cwd=cwd or ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def one_line_refusal(result: subprocess.CompletedProcess[str]) -> str:
    """The refusal's single line (exit 2, no traceback); fails otherwise."""
    assert result.returncode == 2, (result.returncode, result.stderr)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0]
