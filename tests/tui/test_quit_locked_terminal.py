"""`assay demo` in a real terminal, its database locked by another process: q quits at once, the
verdict given is kept beside the database, stderr says where once the app is gone, and the next
open saves it."""

from __future__ import annotations

import os
import sqlite3
import sys
from pathlib import Path

import pytest
from terminal import Terminal

from db import Verdict, VerdictStore


@pytest.mark.skipif(sys.platform != "linux", reason="ptys as on Linux")
def test_quitting_the_demo_on_a_locked_database(tmp_path: Path, sample: Path) -> None:
    data = tmp_path / "data"
    path = data / "assay" / "demo.db"
    path.parent.mkdir(parents=True)
    VerdictStore.open(path).close()
    env = dict(os.environ, XDG_DATA_HOME=str(data))
    argv = [sys.executable, "-m", "tui.cli", "demo", "--reviewer", "pty"]
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    terminal = Terminal(argv, env=env, cwd=Path(__file__).resolve().parents[2])
    try:
        # the revision open, the quotes anchored and the verdicts read: the header counts them
        assert terminal.read_until(b"records 0/22", 120.0), terminal.output[-2000:]
        terminal.send(b"c")
        terminal.send(b"q")
        code = terminal.wait(60.0)  # a bound against hanging: the lock is still held
    finally:
        terminal.close()
        holder.close()
    assert code == 0
    output = terminal.output.decode(errors="replace")
    assert "was locked by another process: 1 change(s)" in output, output[-2000:]
    assert "Traceback" not in output
    with VerdictStore.open(path) as store:
        assert [event.verdict for event in store.current("pty").values()] == [Verdict.CONFIRMED]
