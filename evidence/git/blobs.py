"""Blobs of a repository decoded for display, and the cache of their texts (evidence/git/reader.py
reads them)."""

from __future__ import annotations

import codecs
import re
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
    "east_asian",
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
    text of older tools, and the encoding: Japanese, Korean or Chinese in their legacy
    encodings when the text reads as such (`east_asian`); else, when not one UTF-8
    sequence is among its bytes above 127, Windows-1252 (ISO-8859-1 with one of the five bytes
    that leaves undefined); None when some are (UTF-8 with bytes astray)."""
    east = east_asian(data)
    if east is not None:
        return east
    if not as_utf8.replace("\ufffd", "").isascii():  # a character UTF-8 made of 2-4 bytes
        return None
    try:
        return data.decode("cp1252"), "Windows-1252"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "ISO-8859-1"


#: legacy encodings of East Asian text, in the order they are tried, with their names
_EAST_ASIAN = (
    ("cp932", "Shift-JIS"),
    ("euc_jp", "EUC-JP"),
    ("cp949", "EUC-KR"),
    ("gb18030", "GBK"),
    ("big5", "Big5"),
)
#: the fewest characters past ASCII a text needs for its encoding to be told
_EAST_ASIAN_LEAST = 4
#: the bytes an encoding is told from
_EAST_ASIAN_PROBE = 64 * 1024
_HIGH_BYTE = re.compile(rb"[\x80-\xff]")


def east_asian(data: bytes) -> tuple[str, str] | None:
    """``data`` read in the legacy encoding of Japanese, Korean or Chinese it is written in, and
    that encoding's name; None when it reads as none of them.

    Most byte strings decode in several of these codecs without error (their double bytes
    overlap, and Windows-1252 letters pair into them), so a decoding counts only when it reads
    as the language does: Japanese holds kana (particles, endings) and few half-width ones;
    Korean's syllables are nearly all among the 2,350 of KS X 1001, simplified Chinese
    characters among the 6,763 of GB 2312 (and it holds no kana), traditional ones among the
    5,401 Big5 has for common use. The double bytes of one encoding read in another land
    elsewhere."""
    first = _HIGH_BYTE.search(data)
    if first is None:
        return None
    # from its first byte past ASCII (a character's first: ASCII before it): a long licence
    # header does not hide what follows
    head = data[first.start() : first.start() + _EAST_ASIAN_PROBE]
    for codec, name in _EAST_ASIAN:
        try:  # the start first (a large file in another encoding is told there), then all
            text = codecs.getincrementaldecoder(codec)().decode(head, final=False)
            wide = [char for char in text if not char.isascii()]
            if len(wide) < _EAST_ASIAN_LEAST or not _reads_as(codec, text, wide):
                continue
            return data.decode(codec), name
        except UnicodeDecodeError:
            continue
    return None


#: a word of Korean: its syllables between spaces or punctuation
_HANGUL_WORD = re.compile("[\uac00-\ud7a3]+")


def _reads_as(codec: str, text: str, chars: list[str]) -> bool:
    if codec == "big5":  # the 5,401 characters of common use, and the symbols before them
        used = sum(_big5_lead(char) <= 0xC6 for char in chars)
        return used * 10 >= len(chars) * 9
    kana = sum("\u3041" <= char <= "\u30ff" for char in chars)
    if codec in ("cp932", "euc_jp"):
        half = sum("\uff61" <= char <= "\uff9f" for char in chars)
        return kana * 10 >= len(chars) and half * 10 <= len(chars)
    if codec == "gb18030" and kana * 50 > len(chars):
        return False  # kana: Big5 read as GBK (GB 2312 places kana where Big5 has common ones)
    if codec == "cp949" and not _spaced_syllables(text, len(chars)):
        return False
    common = "euc_kr" if codec == "cp949" else "gb2312"
    allowed = len(chars) // 20  # 95% among the common set
    for char in chars:
        try:
            # two bytes: among the common set (euc_kr spells the other syllables in eight)
            if len(char.encode(common)) == 2:
                continue
        except UnicodeEncodeError:
            pass
        allowed -= 1
        if allowed < 0:  # (a large file that is not one of these is told early)
            return False
    return True


def _spaced_syllables(text: str, wide: int) -> bool:
    """Korean: 85% of the characters past ASCII are syllables, in words between spaces or
    punctuation (8 syllables at most on average). Chinese characters read as Korean give
    syllables too, but run together or against the Chinese characters among them."""
    syllables = words = apart = 0
    for word in _HANGUL_WORD.finditer(text):
        start, end = word.span()
        syllables += end - start
        words += 1
        apart += (start == 0 or text[start - 1].isascii()) and (
            end == len(text) or text[end].isascii()
        )
    return syllables * 20 >= wide * 17 and syllables <= 8 * words and apart * 10 >= words * 9


def _big5_lead(char: str) -> int:
    """The first byte of ``char`` in Big5 (0x100 when it has none)."""
    try:
        return char.encode("big5")[0]
    except UnicodeEncodeError:
        return 0x100


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
