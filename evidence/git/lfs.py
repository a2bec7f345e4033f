"""Files kept in Git LFS: the blob in the tree is a small pointer naming the content by its
SHA-256; the content, when this clone has fetched it, is a file under the LFS objects directory.

Reading it there is not running git-lfs (no filter, no program): the file is read as data and
shown only when its size and SHA-256 are the ones the pointer names, so what a repository's
LFS directory holds can never pass for the revision's content. The format:
https://github.com/git-lfs/git-lfs/blob/main/docs/spec.md
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

__all__ = ["POINTER_LIMIT", "LfsObjects", "LfsPointer", "objects_directories", "parse_pointer"]

#: the spec: a pointer file is smaller than this
POINTER_LIMIT = 1024
_VERSIONS = (b"https://git-lfs.github.com/spec/v1", b"https://hawser.github.com/spec/v1")
_LINE = re.compile(rb"([a-z0-9.-]+) ([^\r\n]*)")
_SHA256 = re.compile(r"[0-9a-f]{64}")
_READ_SIZE = 1 << 20


@dataclass(frozen=True)
class LfsPointer:
    """What a pointer names: the content's SHA-256 and size, and whether the object is stored
    transformed by LFS extensions (then it is not the file's content)."""

    oid: str
    size: int
    extended: bool = False

    @property
    def short(self) -> str:
        return f"sha256:{self.oid[:12]}"


def parse_pointer(data: bytes) -> LfsPointer | None:
    """The pointer ``data`` is, or None when it is an ordinary file's bytes."""
    if len(data) >= POINTER_LIMIT or not data.startswith(b"version "):
        return None
    fields: dict[bytes, bytes] = {}
    for line in data.split(b"\n"):
        if not line:
            continue
        found = _LINE.fullmatch(line)
        if found is None or found[1] in fields:
            return None
        fields[found[1]] = found[2]
    if fields.get(b"version") not in _VERSIONS:
        return None
    oid, size = fields.get(b"oid", b""), fields.get(b"size", b"")
    if not oid.startswith(b"sha256:") or not size.isdigit():
        return None
    digest = oid[7:].decode("ascii", "replace")
    if not _SHA256.fullmatch(digest):
        return None
    extended = any(key.startswith(b"ext-") for key in fields)
    return LfsPointer(digest, int(size), extended)


class LfsObjects:
    """The LFS objects of one repository, read as data. ``directories`` gives the places to
    look (asked once, when the first pointer is read: a repository without LFS pays nothing)."""

    def __init__(self, directories: Callable[[], Iterable[Path]]) -> None:
        self._directories = directories
        self._found: tuple[Path, ...] | None = None

    def present(self) -> bool:
        """True when this clone holds any LFS object (else nothing is worth looking for)."""
        if self._found is None:
            self._found = tuple(self._directories())
        return any(_non_empty(directory) for directory in self._found)

    def read(self, pointer: LfsPointer, limit: int, *, probe: int = 0) -> bytes | None:
        """The content a pointer names, or None: not in this clone, larger than ``limit``, stored
        transformed, or a file there whose size or SHA-256 is not the pointer's. ``probe``: None
        too for content with a NUL in its first ``probe`` bytes, binary by git's rule (the word
        index reads every file: a repository's images in LFS are not read whole for it)."""
        if pointer.extended or pointer.size > limit:
            return None
        if pointer.size == 0:
            return b""
        if self._found is None:
            self._found = tuple(self._directories())
        for directory in self._found:
            path = directory / pointer.oid[:2] / pointer.oid[2:4] / pointer.oid
            data = _read_regular(path, pointer.size, probe)
            if data is not None and hashlib.sha256(data).hexdigest() == pointer.oid:
                return data
        return None


def _read_regular(path: Path, size: int, probe: int = 0) -> bytes | None:
    """The bytes of a regular file of exactly ``size`` bytes, else None (a FIFO or device there
    is never opened for reading: it could block or never end), or when a NUL is in its first
    ``probe`` bytes."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_BINARY", 0))
    except OSError:
        return None
    try:
        found = os.fstat(descriptor)
        if not stat.S_ISREG(found.st_mode) or found.st_size != size:
            return None
        parts = []
        if probe:
            first = os.read(descriptor, min(size, probe))
            if b"\0" in first:
                return None
            parts.append(first)
        left = size - sum(len(part) for part in parts)
        while left > 0:
            part = os.read(descriptor, min(left, _READ_SIZE))
            if not part:
                return None
            parts.append(part)
            left -= len(part)
        return b"".join(parts)
    except OSError:
        return None
    finally:
        os.close(descriptor)


def objects_directories(common_dir: Path, storage: str | None) -> list[Path]:
    """Where a repository keeps its LFS objects: ``lfs.storage`` when configured (relative to
    the git directory), else ``lfs`` in it; a worktree shares its main repository's."""
    base = common_dir / "lfs"
    if storage:
        configured = Path(storage).expanduser()
        base = configured if configured.is_absolute() else common_dir / configured
    return [base / "objects"]


def _non_empty(directory: Path) -> bool:
    try:
        with os.scandir(directory) as entries:
            return any(True for _ in entries)
    except OSError:
        return False
