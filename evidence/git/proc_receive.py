"""The proc-receive hook that assay gives a verdicts repository's receive-pack (a path remote).

A repository that sets ``receive.procReceiveRefs`` hands the updates of matching refs to its
``proc-receive`` hook instead of making them, and that setting cannot be unset on the command
line (it is a list). assay never runs the repository's hooks, so receive-pack's hook directory
is one holding only this: it makes each update as receive-pack itself would (``git update-ref``
with the old value checked, no hooks) and reports it in the proc-receive protocol. Standard
library only: it runs as ``python -I -S`` from transport.py's hook directory.
"""

from __future__ import annotations

import subprocess
import sys
from typing import BinaryIO

ZERO = b"0" * 40


def _read(stream: BinaryIO) -> bytes | None:
    """One pkt-line's payload; b"" for a flush (or delimiter); None at the end of input."""
    size = stream.read(4)
    if len(size) < 4:
        return None
    length = int(size, 16)
    return b"" if length < 4 else stream.read(length - 4)


def _write(stream: BinaryIO, data: bytes) -> None:
    stream.write(b"%04x" % (len(data) + 4) + data)


def _update(old: bytes, new: bytes, ref: bytes) -> bytes:
    args = ["git", "-c", "core.hooksPath=/dev/null", "update-ref"]
    if new.strip(b"0") == b"":
        args += ["-d", ref.decode(), old.decode()]
    else:
        args += [ref.decode(), new.decode(), old.decode() if old.strip(b"0") else ""]
    done = subprocess.run(args, capture_output=True, check=False)
    if done.returncode == 0:
        return b"ok " + ref + b"\n"
    reason = done.stderr.decode("utf-8", "replace").strip().splitlines()[:1] or ["failed"]
    return b"ng " + ref + b" " + reason[0].encode("utf-8", "replace")[:200] + b"\n"


def main() -> int:
    """Speak the proc-receive protocol (version 1) on stdin/stdout."""
    incoming, outgoing = sys.stdin.buffer, sys.stdout.buffer
    line = _read(incoming)
    while line:  # "version=1\0capabilities", then a flush
        line = _read(incoming)
    _write(outgoing, b"version=1\n")
    outgoing.write(b"0000")
    outgoing.flush()
    commands = []
    line = _read(incoming)
    while line:
        old, new, ref = line.rstrip(b"\n").split(b" ", 2)
        commands.append((old, new, ref))
        line = _read(incoming)
    for old, new, ref in commands:
        _write(outgoing, _update(old, new, ref))
    outgoing.write(b"0000")
    outgoing.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
