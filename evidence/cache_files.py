"""The entry files of assay's on-disk caches (parsed reports, anchors): one layout, one pruning.

An entry is ``marshal.dumps((version, key, *payload))`` behind a magic line and a BLAKE2b
checksum of the marshalled bytes. Not pickle: reading an entry never runs code, and the checksum
keeps damaged bytes from ever reaching `marshal.loads`, which is not meant for erroneous data. A
missing, damaged or foreign entry is a miss; writes are atomic and never fail the caller; the
least recently used entries (by modification time, which a hit refreshes) are pruned first.

Standard library only (platformdirs when `user_cache` is asked where the caches are): the report
cache imports it on the way to a hit, without the parser.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

__all__ = ["ANCHORS", "REPORTS", "SUFFIX", "prune", "read", "user_cache", "write"]

T = TypeVar("T")

SUFFIX = ".marshal"
#: the caches' directories in the user cache directory (`user_cache`)
REPORTS, ANCHORS = "reports", "anchors"
_CHECK_SIZE = 16  # bytes of the BLAKE2b checksum after the magic
_STALE_SCRATCH = 3600.0  # seconds after which a left-over temporary file is removed


def user_cache(name: str) -> Path:
    """The cache ``name`` of assay in the user cache directory (``~/.cache/assay/<name>``)."""
    import platformdirs  # here: only the app's commands ask

    return Path(platformdirs.user_cache_dir("assay")) / name


def read(path: Path, magic: bytes, version: int, key: str, decode: Callable[..., T]) -> T | None:
    """``decode(*payload)`` of the entry at ``path``, or None (a miss): no such file, another magic
    or version or key, a bad checksum, or a payload ``decode`` rejects (by returning None or
    raising TypeError, ValueError, KeyError or EOFError)."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head = len(magic) + _CHECK_SIZE
    if len(data) <= head or not data.startswith(magic):
        return None
    body = memoryview(data)[head:]
    if hashlib.blake2b(body, digest_size=_CHECK_SIZE).digest() != data[len(magic) : head]:
        return None
    try:
        stored_version, stored_key, *payload = marshal.loads(body)
        if stored_version != version or stored_key != key:
            return None
        value = decode(*payload)
    except (EOFError, ValueError, TypeError, KeyError):
        return None
    if value is not None:
        with contextlib.suppress(OSError):
            os.utime(path)  # recently used: kept by `prune`
    return value


def write(path: Path, magic: bytes, version: int, key: str, *payload: Any) -> bool:
    """Store the entry at ``path`` atomically; False (nothing written) where marshal cannot store
    the payload or the directory cannot be written (read-only home, full disk)."""
    try:
        body = marshal.dumps((version, key, *payload))
    except ValueError:  # something marshal cannot store: not cached
        return False
    check = hashlib.blake2b(body, digest_size=_CHECK_SIZE).digest()
    scratch: Path | None = None
    try:
        import tempfile  # here: only a miss writes

        path.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(prefix=f".{key[:16]}.", suffix=".tmp", dir=path.parent)
        scratch = Path(name)
        with os.fdopen(handle, "wb") as out:
            out.write(magic + check)
            out.write(body)
        os.replace(scratch, path)
        scratch = None
    except OSError:
        return False
    finally:
        if scratch is not None:
            with contextlib.suppress(OSError):
                scratch.unlink()
    return True


def prune(directory: Path, keep: int, max_bytes: int) -> None:
    """Keep the ``keep`` most recently used entries (within ``max_bytes``, the newest always);
    remove the others and temporary files left over by interrupted writes."""
    entries: list[tuple[int, int, str]] = []  # (mtime, size, path)
    doomed: list[str] = []
    now = time.time()
    try:
        with os.scandir(directory) as scan:
            for entry in scan:
                try:
                    if entry.name.endswith(SUFFIX):
                        status = entry.stat()
                        entries.append((status.st_mtime_ns, status.st_size, entry.path))
                    elif (
                        entry.name.startswith(".")
                        and entry.name.endswith(".tmp")
                        and now - entry.stat().st_mtime > _STALE_SCRATCH
                    ):
                        doomed.append(entry.path)
                except OSError:
                    continue
    except OSError:
        return
    entries.sort(reverse=True)
    total = 0
    for position, (_mtime, size, path) in enumerate(entries):
        total += size
        if position >= keep or (position > 0 and total > max_bytes):
            doomed.append(path)
    for path in doomed:
        with contextlib.suppress(OSError):
            os.unlink(path)
