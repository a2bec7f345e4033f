"""Blobs of a repository: read through ``git cat-file --batch``, decoded, their texts cached.

One long-lived cat-file process answers single reads for every thread (under a lock); a stream
of many blobs gets a process of its own, fed by a thread so that neither pipe fills up.
"""

from __future__ import annotations

import subprocess
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO

from cachetools import LRUCache

from evidence.git.process import (
    OBJECT_ID,
    MissingObjectError,
    RevisionError,
    git_command,
    safe_environment,
    stop,
)

__all__ = [
    "BINARY_PROBE",
    "DEFAULT_CACHE_CHARS",
    "BlobReader",
    "Decoded",
    "TextCache",
    "decode_blob",
]

#: git's own rule: a NUL byte in the first 8000 bytes makes a file binary
BINARY_PROBE = 8000
#: decoded texts kept in memory, by total characters
DEFAULT_CACHE_CHARS = 256 * 1024 * 1024


class Decoded:
    """A blob decoded for display: its text, or that it is binary."""

    __slots__ = ("text", "invalid_utf8", "binary")

    def __init__(self, text: str, invalid_utf8: bool, binary: bool) -> None:
        self.text = text
        self.invalid_utf8 = invalid_utf8
        self.binary = binary


def decode_blob(data: bytes) -> Decoded:
    """Decode file bytes for display: binary detection, BOM, invalid UTF-8 flagged."""
    if b"\0" in data[:BINARY_PROBE]:
        return Decoded("", False, True)
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return Decoded(data.decode("utf-8"), False, False)
    except UnicodeDecodeError:
        return Decoded(data.decode("utf-8", "replace"), True, False)


def _characters(decoded: Decoded) -> int:
    return len(decoded.text)


class TextCache:
    """Decoded blobs by object id; the least recently used go once their texts pass a total
    number of characters. Thread-safe."""

    def __init__(self, max_chars: int = DEFAULT_CACHE_CHARS) -> None:
        self._texts: LRUCache[str, Decoded] = LRUCache(maxsize=max_chars, getsizeof=_characters)
        self._lock = threading.Lock()

    def get(self, oid: str) -> Decoded | None:
        """The decoded blob if it is cached (it becomes the most recently used)."""
        with self._lock:
            return self._texts.get(oid)

    def put(self, oid: str, decoded: Decoded) -> None:
        """Cache a decoded blob; one larger than the whole cache is not kept."""
        with self._lock:
            if oid in self._texts:
                self._texts.get(oid)  # already cached: now the most recently used
            elif _characters(decoded) <= self._texts.maxsize:
                self._texts[oid] = decoded

    def clear(self) -> None:
        """Drop every text."""
        with self._lock:
            self._texts.clear()

    def after_fork(self) -> None:
        """In a forked child: a lock of its own (the parent's may have been held at the fork)."""
        self._lock = threading.Lock()


def _read_reply(stdout: IO[bytes], oid: str) -> bytes:
    """The content cat-file prints for ``oid``; ValueError when its output is not a reply."""
    header = stdout.readline()
    if not header:
        raise ValueError("git cat-file stopped")
    fields = header.split()
    if len(fields) == 2 and fields[1] == b"missing":
        raise MissingObjectError(f"object {oid} is missing from the repository")
    if len(fields) != 3:
        raise ValueError(f"unexpected reply {header[:80]!r}")
    size = int(fields[2])
    data = stdout.read(size)
    stdout.read(1)  # the newline after the content
    if len(data) != size:
        raise ValueError("short read from git cat-file")
    return data


def _check_ids(oids: Sequence[str]) -> None:
    for oid in oids:
        if not OBJECT_ID.fullmatch(oid):
            raise RevisionError(f"not an object id: {oid!r}")


class BlobReader:
    """The blobs of one repository, by object id, through git cat-file processes."""

    def __init__(self, git_dir: Path, repo_path: Path, label: str) -> None:
        self.git_dir = git_dir
        self.repo_path = repo_path
        self.label = label  # what a closed reader names in its error
        self._process: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self._closed = False

    def _start(self) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            git_command(self.git_dir, "cat-file", "--batch"),
            cwd=self.git_dir,
            env=safe_environment(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )

    def _shared(self) -> subprocess.Popen[bytes]:
        if self._closed:
            raise RevisionError(f"{self.label} is closed")
        if self._process is None or self._process.poll() is not None:
            self._process = self._start()
        return self._process

    def read(self, oid: str) -> bytes:
        """The raw bytes of one blob, through the shared process."""
        _check_ids((oid,))
        with self._lock:
            process = self._shared()
            assert process.stdin is not None and process.stdout is not None
            try:
                process.stdin.write(oid.encode("ascii") + b"\n")
                process.stdin.flush()
                return _read_reply(process.stdout, oid)
            except (OSError, ValueError) as error:
                self._process = None
                stop(process)
                message = f"reading {oid} from {self.repo_path} failed: {error}"
                raise RevisionError(message) from None

    def stream(self, oids: Sequence[str]) -> Iterator[tuple[str, bytes]]:
        """(oid, bytes) of many blobs, in order, through a process of their own."""
        _check_ids(oids)
        process = self._start()
        assert process.stdin is not None and process.stdout is not None
        stdin = process.stdin

        def feed() -> None:
            try:
                for oid in oids:
                    stdin.write(oid.encode("ascii") + b"\n")
                stdin.close()
            except (OSError, ValueError):
                pass

        writer = threading.Thread(target=feed, daemon=True)
        writer.start()
        try:
            for oid in oids:
                yield oid, _read_reply(process.stdout, oid)
        finally:
            process.kill()
            writer.join(timeout=2)
            stop(process)

    def close(self) -> None:
        """Stop the shared process; later reads raise RevisionError."""
        with self._lock:
            self._closed = True
            process, self._process = self._process, None
            if process is not None:
                stop(process)

    def after_fork(self) -> None:
        """In a forked child: forget the parent's lock and process (it starts its own)."""
        self._lock = threading.Lock()
        self._process = None

    def __del__(self) -> None:
        process = getattr(self, "_process", None)
        if process is not None and process.poll() is None:
            try:
                process.kill()
                process.wait(timeout=1)
            except Exception:  # noqa: BLE001 - best effort at interpreter shutdown
                pass
