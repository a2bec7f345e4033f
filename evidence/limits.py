"""How much assay reads of one input file (standard library only: imported at every launch)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = [
    "GZIP_MAGIC",
    "MAX_EXPANDED_BYTES",
    "NotGzip",
    "TooLarge",
    "expanded_limit",
    "gunzip",
    "limit_note",
    "read_input",
]

#: the most a compressed SARIF file may expand to, and the most read of any one input file:
#: about 20 times the largest log the benchmarks read (50 MB); ASSAY_SARIF_MAX_BYTES sets another
MAX_EXPANDED_BYTES = 1024 * 1024 * 1024


class TooLarge(ValueError):
    """An input file past `expanded_limit()`; the message says so, without the file's name."""


class NotGzip(ValueError):
    """Data that starts as gzip but cannot be expanded; the message says why, without the
    file's name."""


#: how gzip data starts
GZIP_MAGIC = b"\x1f\x8b"
_CHUNK = 1024 * 1024


def expanded_limit() -> int:
    """The limit: ASSAY_SARIF_MAX_BYTES (bytes, or with K, M, G or T: powers of 1024), else
    `MAX_EXPANDED_BYTES`."""
    limit = _given_limit()
    return MAX_EXPANDED_BYTES if limit is None else limit


#: 1024 to the power of the unit's place
_UNITS = "kmgt"


def _given_limit() -> int | None:
    """ASSAY_SARIF_MAX_BYTES as a number of bytes; None when unset or not one (said by
    `TooLarge`'s message, as the limit it sets is then not the one used)."""
    given = os.environ.get("ASSAY_SARIF_MAX_BYTES", "").strip().lower().replace("_", "")
    given = given.removesuffix("b").removesuffix("i")
    scale = 1
    if given and given[-1] in _UNITS:
        scale = 1024 ** (_UNITS.index(given[-1]) + 1)
        given = given[:-1].strip()
    try:
        limit = int((float(given) if "." in given else int(given)) * scale)
    except (ValueError, OverflowError):  # not a number; "9.9e999" is infinite
        return None
    return limit if limit > 0 else None


def limit_note() -> str:
    """How the message says to set another limit, and what was wrong with the one set."""
    given = os.environ.get("ASSAY_SARIF_MAX_BYTES", "").strip()
    if given and _given_limit() is None:
        return (
            f"ASSAY_SARIF_MAX_BYTES={given[:40]!r} is not a size such as 2000000000 or 2G, "
            "so the default was used"
        )
    return "ASSAY_SARIF_MAX_BYTES sets another limit"


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
            f"larger than {limit:,} bytes, the most assay reads of one file ({limit_note()})"
        )
    return data


def gunzip(data: bytes, what: str) -> bytes:
    """The expanded bytes of gzip ``data`` (every member), a chunk at a time: TooLarge as soon
    as they pass `expanded_limit()` (``what`` names that limit in the message: "the limit for a
    compressed SARIF file"), before they are all held in memory; NotGzip when they cannot be
    expanded."""
    import zlib  # here: most launches read no gzip

    limit = expanded_limit()
    out = bytearray()
    rest = data
    try:
        while rest:
            inflater = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
            chunk = inflater.decompress(rest, _CHUNK)
            while True:
                out += chunk
                if len(out) > limit:
                    raise TooLarge(f"expands to more than {limit:,} bytes ({what}; {limit_note()})")
                if inflater.eof or not inflater.unconsumed_tail:
                    break
                chunk = inflater.decompress(inflater.unconsumed_tail, _CHUNK)
            if not inflater.eof:
                raise NotGzip("not readable gzip data (the data ends too soon)")
            rest = inflater.unused_data.lstrip(b"\0")  # members follow; padding may end it
    except zlib.error as error:
        raise NotGzip(f"not readable gzip data ({error})") from None
    return bytes(out)
