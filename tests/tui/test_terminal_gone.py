"""The app in a real terminal (a pty): when the terminal goes away, it exits instead of spinning."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

REVIEW = """
import sys
sys.path.insert(0, {root!r})
from pathlib import Path
from tui.commands.review import demo_app
app = demo_app("pty", None, Path({data!r}))
try:
    app.run()
finally:
    app.close()
print("exited", file=open({marker!r}, "w"))
"""

BROWSE = """
import sys
sys.path.insert(0, {root!r})
from evidence.revision import Revision
from tui.factory import make_browse_app
with Revision.open({repo!r}) as revision:
    make_browse_app(revision).run()
print("exited", file=open({marker!r}, "w"))
"""


def read_until(fd: int, wanted: bytes, seconds: float) -> bytes:
    """What the terminal shows until ``wanted`` appears (or some seconds pass)."""
    data = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end and wanted not in data:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            data += chunk
    return data


@pytest.mark.skipif(sys.platform != "linux", reason="ptys as on Linux")
@pytest.mark.parametrize(("child", "drawn"), [(REVIEW, b"Records"), (BROWSE, b"Open file")])
def test_the_app_exits_when_its_terminal_is_gone(
    tmp_path: Path, sample: Path, child: str, drawn: bytes
) -> None:
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    marker = tmp_path / "exited"
    code = child.format(root=str(ROOT), data=str(tmp_path), marker=str(marker), repo=str(sample))
    env = dict(os.environ, TERM="xterm-256color", XDG_CONFIG_HOME=str(tmp_path / "config"))
    process = subprocess.Popen(
        [sys.executable, "-c", code],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        start_new_session=True,  # no controlling terminal: no SIGHUP when it goes away
    )
    os.close(slave)
    try:
        shown = read_until(master, drawn, 20.0)
        assert drawn in shown  # the screen was drawn in the terminal
        os.close(master)  # the terminal window closes
        master = -1
        process.wait(timeout=30)  # it exits: a spinning app never would (not a speed check)
        assert marker.read_text().strip() == "exited"  # app.run() returned; app.close() ran
    finally:
        if master >= 0:
            os.close(master)
        if process.poll() is None:
            process.kill()
            process.wait()
