"""Wanted words, found in texts as whole words: the revision index's inner loop.

The index streams every file of a revision and asks which of the words some quotes need each
file holds. In Python every word of every file becomes an object, is hashed and looked up
(about 24 M words for 200 MB); the compiled `_wordscan` does the same scan without making an
object per word, several times faster (benchmarks/README.md). It is built with assay when a C
compiler is there (hatch_build.py); without one, `PyWordSet` does the same work, and tests hold
the two equal.
"""

from __future__ import annotations

import os
from collections import defaultdict, deque
from collections.abc import Iterable
from itertools import compress, repeat
from typing import Protocol

#: bytes.translate table keeping identifier characters (and non-ASCII bytes), blanking the rest
_IDENTIFIER_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_WORDS_ONLY = bytes(b if b in _IDENTIFIER_BYTES or b >= 128 else 32 for b in range(256))

#: typographic quotes (UTF-8) part words as ASCII quotes do: `“early”` is indexed as `early`,
#: the word a quote normalized to ASCII quotes is looked up by
_TYPOGRAPHIC = tuple(
    mark.encode("utf-8") for mark in "\u201c\u201d\u201e\u201f\u2033\u2018\u2019\u201a\u201b"
)


def blanked(data: bytes) -> bytes:
    """``data`` with every byte that is not part of a word turned into a blank."""
    if not data.isascii() and b"\xe2\x80" in data:  # most files hold no typographic quote
        for mark in _TYPOGRAPHIC:
            data = data.replace(mark, b" ")
    return data.translate(_WORDS_ONLY)


class WordFinder(Protocol):
    def hits(self, data: bytes, /) -> list[bytes]:
        """The looked-for words that are words of `data`, each once."""

    def discard(self, word: bytes, /) -> None:
        """Look for `word` no more."""

    def record(self, data: bytes, number: int, /) -> None:
        """Add `number` to the texts of each looked-for word of `data` (numbers given in
        increasing order); a word in `cap` texts is looked for no more."""

    def postings(self) -> dict[bytes, list[int]]:
        """The numbers of the recorded texts holding each word, for the words in any."""


class PyWordSet:
    """The reference: the same answers as the compiled WordSet (hits in another order)."""

    def __init__(self, words: Iterable[bytes], cap: int = 2**32 - 1) -> None:
        self.words = set(words)
        self.cap = max(1, cap)
        self.found: defaultdict[bytes, list[int]] = defaultdict(list)

    def hits(self, data: bytes, /) -> list[bytes]:
        return list(self.words.intersection(blanked(data).split()))

    def discard(self, word: bytes, /) -> None:
        self.words.discard(word)

    def record(self, data: bytes, number: int, /) -> None:
        hits = self.hits(data)
        # the same work as a loop over the hits, at C speed: a word's list grows by this
        # text's number, and the words whose lists reach `cap` are looked for no more
        numbers = list(map(self.found.__getitem__, hits))
        deque(map(list.append, numbers, repeat(number)), 0)
        for word in compress(hits, map(self.cap.__le__, map(len, numbers))):
            self.words.discard(word)

    def postings(self) -> dict[bytes, list[int]]:
        return dict(self.found)


#: the version of `_wordscan.c` this module calls (its VERSION)
SCAN_VERSION = 1

try:
    from evidence.anchoring import _wordscan
except ImportError:  # built without a C compiler
    _wordscan = None  # type: ignore[assignment]
else:
    if getattr(_wordscan, "VERSION", None) != SCAN_VERSION:  # built from an older source
        _wordscan = None  # type: ignore[assignment]

#: the compiled scan is there (False: every index is built by PyWordSet)
COMPILED = _wordscan is not None


def word_set(words: Iterable[bytes], cap: int = 2**32 - 1) -> WordFinder:
    """A finder of `words` (looking for a word no more once `cap` texts recorded hold it): the
    compiled one when it was built, its hash keyed afresh."""
    if _wordscan is None:
        return PyWordSet(words, cap)
    key = os.urandom(16)
    k0, k1 = int.from_bytes(key[:8], "little"), int.from_bytes(key[8:], "little")
    return _wordscan.WordSet(list(words), k0, k1, min(cap, 2**32 - 1))
