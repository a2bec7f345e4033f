"""Writing an output file (an export, the write-up) as nothing else can redirect it.

The text goes to a temporary file of a random name in the destination's directory, created
exclusively and never through a symbolic link (``O_CREAT | O_EXCL | O_NOFOLLOW``), then renamed
over the destination: a reader sees the old file or the new one, never half of one; a symbolic
link planted at the destination is replaced, its target never written; a file that was there
keeps its permission bits. Asked to, it writes the text gzip-compressed.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from gzip import GzipFile

__all__ = ["database_files", "write_atomically"]

_FLAGS = (
    os.O_WRONLY
    | os.O_CREAT
    | os.O_EXCL
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


def _new_file_mode() -> int:
    """The mode a plain new file gets here (0o666 less the umask, read without changing it)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return 0o666 & ~int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    return 0o644


def _mode_for(path: Path) -> int:
    try:
        found = os.lstat(path)
    except OSError:
        return _new_file_mode()
    if stat.S_ISREG(found.st_mode):
        return stat.S_IMODE(found.st_mode)
    return _new_file_mode()  # a link is replaced, not followed: its target's mode is not asked


def _refuse_special(path: Path) -> None:
    """OSError when ``path`` is, or links to, a device, a FIFO or a socket: renaming over it
    would replace /dev/null or /dev/stdout (as root) with a regular file."""
    try:
        found = os.stat(path)  # through a link: a planted link to a regular file is replaced
    except OSError:
        return  # nothing there, or a dangling link
    if stat.S_ISDIR(os.lstat(path).st_mode):  # `--out ""` is ".": renaming over it is "busy"
        raise OSError(errno.EISDIR, "it is a directory")
    if not (stat.S_ISREG(found.st_mode) or stat.S_ISDIR(found.st_mode)):
        raise OSError(
            errno.EINVAL, "not a regular file (a device, a FIFO or a socket), left as it is"
        )


def write_atomically(
    path: Path, produce: Callable[[TextIO], object], *, gzipped: bool = False
) -> None:
    """Write ``path`` with what ``produce(handle)`` writes (UTF-8; ``gzipped``: compressed),
    atomically; OSError if not (also when ``path`` is a device, a FIFO or a socket, which is
    never replaced)."""
    _refuse_special(path)
    directory = path.parent if str(path.parent) else Path(".")
    import secrets  # here: the review app imports this module before its first frame

    mode = _mode_for(path)
    while True:
        temporary = directory / f".{path.name[:100]}.{secrets.token_hex(8)}.tmp"
        try:
            descriptor = os.open(temporary, _FLAGS, 0o600)
            break
        except FileExistsError:
            continue  # a name taken (or planted): another random one
        except PermissionError:
            # "Permission denied" alone misleads when the file itself may be written
            raise PermissionError(
                errno.EACCES,
                f"Permission denied: its folder {directory} cannot be written, and the file is "
                "replaced whole by a new one written there",
            ) from None
    try:
        with os.fdopen(descriptor, "wb") as raw:
            if gzipped:
                import gzip

                # no name nor time in the header: the same export, the same bytes (for git)
                with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as packed:
                    _write_text(packed, produce)
            else:
                _write_text(raw, produce)
            raw.flush()
            with contextlib.suppress(OSError):  # a file system without modes (FAT) keeps none
                os.fchmod(raw.fileno(), mode)
            os.fsync(raw.fileno())
        os.replace(temporary, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)


def _write_text(binary: IO[bytes] | GzipFile, produce: Callable[[TextIO], object]) -> None:
    handle = io.TextIOWrapper(binary, encoding="utf-8", newline="")
    try:
        produce(handle)
    finally:
        handle.detach()  # flushed; the binary stream stays open: the caller closes it


def database_files(db_path: Path) -> list[Path]:
    """The files an SQLite database at ``db_path`` lives in (itself, -wal, -shm, -journal)."""
    return [db_path] + [
        db_path.with_name(db_path.name + end) for end in ("-wal", "-shm", "-journal")
    ]
