"""An interrupt exits 130, in the app (SIGINT in a real terminal) and in a headless command, with
one line that names the command."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from terminal import Terminal

import tui.commands.check
from evidence.sample import SAMPLE_REPORTS
from tui.cli import cli


@pytest.mark.skipif(sys.platform != "linux", reason="ptys as on Linux")
def test_sigint_ends_the_app_with_130(tmp_path: Path, sample: Path) -> None:
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"))
    argv = [sys.executable, "-m", "tui.cli", "demo", "--reviewer", "sig"]
    terminal = Terminal(argv, env=env, cwd=Path(__file__).resolve().parents[2])
    try:
        assert terminal.read_until(b"Next record", 60.0), terminal.output[-2000:]
        terminal.process.send_signal(signal.SIGINT)
        code = terminal.wait(20.0)
    finally:
        terminal.close()
    assert code == 130
    assert b"Traceback" not in terminal.output


def test_an_interrupted_command_exits_130_naming_itself(
    sample: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(tui.commands.check, "run_check", interrupted)
    result = CliRunner().invoke(cli, ["check", str(SAMPLE_REPORTS), "--repo", str(sample)])
    assert result.exit_code == 130
    assert result.stderr.strip() == "assay check: interrupted"
