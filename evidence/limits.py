"""How much assay reads of one input file (standard library only: imported at every launch)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = ["MAX_EXPANDED_BYTES", "TooLarge", "expanded_limit", "read_input"]

#: the most a compressed SARIF file may expand to, and the most read of any one input file:
#: about 20 times the largest log the benchmarks read (50 MB); ASSAY_SARIF_MAX_BYTES sets another
MAX_EXPANDED_BYTES = 1024 * 1024 * 1024


class TooLarge(ValueError):
    """An input file past `expanded_limit()`; the message says so, without the file's name."""


def expanded_limit() -> int:
    """The limit: ASSAY_SARIF_MAX_BYTES, else `MAX_EXPANDED_BYTES`."""
    given = os.environ.get("ASSAY_SARIF_MAX_BYTES", "").strip()
    try:
        return int(given) if given and int(given) > 0 else MAX_EXPANDED_BYTES
    except ValueError:
        return MAX_EXPANDED_BYTES


def read_input(path: Path) -> bytes:
    """The bytes of an input file (a report, an audit, a SARIF or jsonl file), up to the limit:
    past it (a huge file, /dev/zero, a pipe that never ends) TooLarge, before memory runs out.

    A FIFO with no writer reads as empty instead of waiting for one forever; a pipe with a
    writer (`<(command)`) is read to its end. OSError when the file cannot be read.
    """
    limit = expanded_limit()
    # a blocking open of a FIFO waits for a writer: open without waiting, then read blocking
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(descriptor, "rb") as file:
        mode = os.fstat(descriptor).st_mode
        if stat.S_ISREG(mode):  # its size known: read at once
            size = os.fstat(descriptor).st_size
            data = file.read() if size <= limit else b""
        else:  # a device or a pipe: a chunk at a time
            os.set_blocking(descriptor, True)
            size, chunks = 0, []
            while size <= limit and (chunk := file.read(1024 * 1024)):
                chunks.append(chunk)
                size += len(chunk)
            data = b"".join(chunks)
    if size > limit:
        raise TooLarge(
            f"larger than {limit:,} bytes, the most assay reads of one file "
            "(ASSAY_SARIF_MAX_BYTES sets another limit)"
        )
    return data
