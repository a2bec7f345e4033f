"""A pseudo-terminal for tests that run assay as a user does: a child process on a real pty."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import termios
import time
from collections.abc import Sequence
from pathlib import Path


class Terminal:
    """A child process whose stdin, stdout and stderr are one pty of ``rows`` x ``columns``."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        env: dict[str, str],
        cwd: Path | None = None,
        rows: int = 30,
        columns: int = 100,
    ) -> None:
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.output = b""
        try:
            self.process = subprocess.Popen(
                list(argv),
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env={"TERM": "xterm-256color", **env},
                cwd=cwd,
                start_new_session=True,
            )
        finally:
            os.close(slave)

    def read_until(self, wanted: bytes, seconds: float) -> bool:
        """Read what the child writes until ``wanted`` has appeared, it exits or time is up."""
        end = time.monotonic() + seconds
        while wanted not in self.output and time.monotonic() < end:
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if not ready:
                continue
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            self.output += chunk
        return wanted in self.output

    def send(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def wait(self, seconds: float) -> int:
        """Read everything until the child exits; its exit status."""
        end = time.monotonic() + seconds
        while self.process.poll() is None and time.monotonic() < end:
            self.read_until(b"\0never\0", 0.2)
        code = self.process.wait(timeout=max(0.1, end - time.monotonic()))
        self.read_until(b"\0never\0", 0.2)  # what is left in the pty
        return code

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self.master)
