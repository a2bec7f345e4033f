"""A crash inside the app, in a real terminal: restored terminal, crash file, one line, exit 1."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest
from terminal import Terminal

from tui.crash import report_text, write_report

ROOT = Path(__file__).resolve().parents[2]
SECRET = "kestrel-secret-in-a-local"

# The real AssayApp on a screen with an action that raises, run the way `assay review` runs it.
CRASHING = f"""
import sys
sys.path.insert(0, {str(ROOT)!r})
from textual.screen import Screen
from textual.widgets import Static
from tui.app import AssayApp, run

class Crashing(Screen[None]):
    BINDINGS = [("x", "crash", "Crash")]

    def compose(self):
        yield Static("press x to crash")

    def action_crash(self) -> None:
        secret = {SECRET!r}
        raise RuntimeError("the crash message, " + str(len(secret)) + " characters")

run(AssayApp(Crashing))
"""


@pytest.mark.skipif(sys.platform != "linux", reason="ptys as on Linux")
def test_a_crash_restores_the_terminal_writes_a_file_and_exits_non_zero(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    env = dict(os.environ, XDG_CACHE_HOME=str(cache), XDG_CONFIG_HOME=str(tmp_path / "config"))
    terminal = Terminal([sys.executable, "-c", CRASHING], env=env)
    try:
        assert terminal.read_until(b"press x to crash", 20.0), terminal.output[-2000:]
        terminal.send(b"x")
        code = terminal.wait(20.0)
    finally:
        terminal.close()
    assert code == 1
    shown = terminal.output.decode("utf-8", "replace")
    # the terminal is given back: the alternate screen is left and the cursor shown again
    restored = shown.rfind("\x1b[?1049l")
    assert restored >= 0 and "\x1b[?25h" in shown[restored:]
    after = re.sub(r"\x1b\[[0-9;?<>=]*[A-Za-z]", "", shown[restored:])
    lines = [line for line in after.splitlines() if line.strip()]
    # one line, naming the crash file; no traceback, no local variables on the terminal
    assert len(lines) == 1, lines
    match = re.fullmatch(
        r"assay: internal error \(RuntimeError\); please report it with (\S+)", lines[0]
    )
    assert match, lines
    assert SECRET not in shown and "Traceback" not in shown
    crash_file = Path(match[1])
    assert crash_file.parent == cache / "assay" and re.fullmatch(
        r"crash-\d{8}T\d{6}Z-\d+\.txt", crash_file.name
    )
    text = crash_file.read_text(encoding="utf-8")
    assert "RuntimeError: the crash message, 25 characters" in text
    assert "in action_crash" in text  # the traceback, frame by frame
    assert SECRET not in text  # without local variables


def test_crash_files_are_kept_to_a_few(tmp_path: Path) -> None:
    try:
        raise ValueError("first")
    except ValueError as error:
        paths = [write_report(error, tmp_path) for _ in range(3)]
        assert "ValueError: first" in report_text(error)
    assert all(path.exists() for path in paths[-1:])
    assert len(list(tmp_path.glob("crash-*.txt"))) <= 3
