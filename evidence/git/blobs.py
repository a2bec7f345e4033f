"""Blobs of a repository decoded for display, and the cache of their texts (evidence/git/reader.py
reads them)."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from cachetools import LRUCache

if TYPE_CHECKING:
    from evidence.git.lfs import LfsPointer

__all__ = [
    "BINARY_PROBE",
    "DEFAULT_CACHE_CHARS",
    "Decoded",
    "TextCache",
    "decode_blob",
    "eight_bit",
    "has_wide_mark",
]

#: git's own rule: a NUL byte in the first 8000 bytes makes a file binary
BINARY_PROBE = 8000
#: decoded texts kept in memory, by total characters
DEFAULT_CACHE_CHARS = 256 * 1024 * 1024


class Decoded:
    """A blob decoded for display: its text, or that it is binary. A Git LFS pointer's is its
    content's (``lfs``: the pointer), or none when this clone lacks it (``absent``)."""

    __slots__ = ("text", "invalid_utf8", "binary", "lfs", "absent", "encoding")

    def __init__(
        self,
        text: str,
        invalid_utf8: bool,
        binary: bool,
        lfs: LfsPointer | None = None,
        absent: bool = False,
        encoding: str = "utf-8",
    ) -> None:
        self.text = text
        self.invalid_utf8 = invalid_utf8
        self.binary = binary
        self.lfs = lfs
        self.absent = absent
        self.encoding = encoding  # what the text was decoded from


#: byte order marks of the UTF-16 and UTF-32 texts Windows tools write (checked longest first:
#: UTF-32-LE's begins with UTF-16-LE's); git counts them binary for their NUL bytes
_WIDE_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32"),
    (b"\x00\x00\xfe\xff", "utf-32"),
    (b"\xff\xfe", "utf-16"),
    (b"\xfe\xff", "utf-16"),
)
_WIDE_STARTS = frozenset(bom[:2] for bom, _ in _WIDE_BOMS)


def has_wide_mark(data: bytes) -> bool:
    """True when ``data`` may be UTF-16 or UTF-32 text (it starts as their marks do)."""
    return data[:2] in _WIDE_STARTS


def decode_blob(data: bytes) -> Decoded:
    """Decode file bytes for display: binary detection, BOM, invalid UTF-8 flagged. A text in
    UTF-16 or UTF-32 with its byte order mark is decoded, unless that gives NULs (binary)."""
    if has_wide_mark(data):
        for bom, encoding in _WIDE_BOMS:
            if data.startswith(bom):
                try:
                    text = data.decode(encoding)  # the codec takes the mark off
                except UnicodeDecodeError:
                    continue
                if "\0" not in text[:BINARY_PROBE]:
                    return Decoded(text, False, False, encoding=encoding.upper())
    if b"\0" in data[:BINARY_PROBE]:
        return Decoded("", False, True)
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return Decoded(data.decode("utf-8"), False, False)
    except UnicodeDecodeError:
        text = data.decode("utf-8", "replace")
    older = eight_bit(data, text)
    if older is None:
        return Decoded(text, True, False)  # UTF-8 with some bytes astray: the rest is kept
    return Decoded(older[0], False, False, encoding=older[1])


def eight_bit(data: bytes, as_utf8: str) -> tuple[str, str] | None:
    """Bytes that are not UTF-8 (``as_utf8``: decoded with replacement characters) read as the
    8-bit text of older tools, and the encoding: when not one UTF-8 sequence is among its bytes
    above 127, Windows-1252 (ISO-8859-1 with one of the five bytes that leaves undefined);
    None when some are (UTF-8 with bytes astray)."""
    if not as_utf8.replace("\ufffd", "").isascii():  # a character UTF-8 made of 2-4 bytes
        return None
    try:
        return data.decode("cp1252"), "Windows-1252"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "ISO-8859-1"


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
