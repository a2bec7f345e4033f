"""Fuzzy matching of typed words against texts that begin with a name (UI-free).

As in fzf, every word typed must occur in a text with its characters in order, and a text that
misses one is no match, however alike it looks; unlike fzf, a word's characters must sit within
one word of the text (``revpy`` finds ``evidence/revision.py``): the texts hold prose (messages,
quoted passages), where letters strewn across words match nearly anything. A word found whole
scores by where it is: at the start of the name (the text's first word, or of its last path
segment), at a word start in the name, inside the name, at a word start further on, inside
further on; a word found only scattered scores below all of these, by how close its characters
sit. A text scores the sum over the words typed.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Sequence
from functools import lru_cache

from rapidfuzz import process
from rapidfuzz.distance import LCSseq

__all__ = ["FoldedText", "best_matches", "matching", "narrows", "word_score"]

#: a word found whole: at the name's start, a word start in it, inside it, a word start after
#: it, inside after it; scattered scores stay below ``INSIDE``
NAME_START, NAME_WORD, IN_NAME, WORD_START, INSIDE = 5.0, 4.0, 3.0, 2.0, 1.0
#: the name's start, and the word runs to the text's end: all the text is what was typed
WHOLE = 0.5


class FoldedText:
    """A text lower-cased once, with where its name ends and its last path segment starts."""

    __slots__ = ("base_start", "name_end", "text")

    def __init__(self, text: str) -> None:
        self.text = text.lower()
        end = self.text.find(" ")
        self.name_end = len(self.text) if end < 0 else end
        self.base_start = self.text.rfind("/", 0, self.name_end) + 1


def word_score(word: str, folded: FoldedText) -> float:
    """How ``word`` (lower case) matches the text: 1 and up whole, under 1 scattered, 0 not."""
    text, name_end = folded.text, folded.name_end
    at = text.find(word)
    if at < 0:
        # scattered within one word: in the name first, then by how close the characters sit
        found = _scattered(word).search(text)
        if found is None:
            return 0.0
        first = text.find(word[0], found.start())
        return 0.5 * (first < name_end) + 0.49 * len(word) / (found.end() - first)
    best = 0.0
    while at >= 0:
        end = at + len(word)
        starts_word = at == 0 or not text[at - 1].isalnum()
        if end <= name_end:
            if at in (0, folded.base_start):
                # a file typed by its whole name beats the quotes of it (their text goes on)
                here = NAME_START + WHOLE * (end == len(text))
            else:
                here = NAME_WORD if starts_word else IN_NAME
        elif best >= WORD_START:
            break  # past the name nothing scores more than a word start
        else:
            here = WORD_START if starts_word else INSIDE
        best = max(best, here)
        at = text.find(word, at + 1)
    return best


def best_matches(
    query: str, texts: Sequence[FoldedText], limit: int, among: Sequence[int] | None = None
) -> list[int]:
    """Indices of the ``limit`` texts best matching ``query``, best first (ties in text order);
    a text must hold every word of the query, its characters in order within one word
    (``among``: only those texts, in order: the ones `matching` found for a query this one
    `narrows`)."""
    words = query.lower().split()
    if not words:
        return list(range(min(limit, len(texts))))
    candidates = matching(query, texts, among)

    def score(i: int) -> float:
        return sum(word_score(word, texts[i]) for word in words)

    if len(words) == 1 and len(candidates) > limit:
        candidates = _contenders(words[0], texts, candidates, limit)
    return heapq.nlargest(limit, candidates, key=score)  # (stable: as sorted(...)[:limit])


def _contenders(
    word: str, texts: Sequence[FoldedText], candidates: list[int], limit: int
) -> list[int]:
    """The candidates (in order) that can be among the ``limit`` best for one word, found
    without scoring them all (the first letter typed over an audit's 50,000 texts scored every
    one: 50 ms). A name starting with the word scores ``NAME_START``, with ``WHOLE`` when the
    word is all the rest; any other text at most ``NAME_WORD``, so of those only the ones up to
    the ``limit``-th scoring that much can be (ties go to the earlier text)."""
    whole, start, rest = [], [], []
    best_of_rest = 0
    size = len(word)
    for i in candidates:
        folded = texts[i]
        text, end, base = folded.text, folded.name_end, folded.base_start
        at_start = text.startswith(word, 0, end)
        at_base = text.startswith(word, base, end)
        if (at_start and size == len(text)) or (at_base and base + size == len(text)):
            whole.append(i)
        elif at_start or at_base:
            start.append(i)
        elif best_of_rest < limit:
            rest.append(i)
            best_of_rest += word_score(word, folded) == NAME_WORD
    if len(whole) + len(start) >= limit:
        kept = whole[:limit]
        return sorted(kept + start[: limit - len(kept)])
    return sorted(whole + start + rest)


def matching(
    query: str, texts: Sequence[FoldedText], among: Sequence[int] | None = None
) -> list[int]:
    """Indices of every text (of ``among``, in order) holding each word of ``query``."""
    candidates = list(range(len(texts))) if among is None else list(among)
    for word in sorted(query.lower().split(), key=len, reverse=True):  # longest rules out most
        candidates = _holding(word, texts, candidates)
        if not candidates:
            return []
    return candidates


def narrows(query: str, before: str) -> bool:
    """Whether every text matching ``query`` matches ``before`` too (each word typed before is
    the start of the word at its place now, and words may follow): its matches are found among
    the ones before's, as a reviewer types on."""
    old, new = before.lower().split(), query.lower().split()
    return (
        bool(old)
        and len(new) >= len(old)
        and all(n.startswith(o) for o, n in zip(old, new[: len(old)], strict=True))
    )


def _holding(word: str, texts: Sequence[FoldedText], among: list[int]) -> list[int]:
    """The indices of ``among`` whose text holds ``word`` within one of its words, in order."""
    if len(word) == 1:
        return [i for i in among if word in texts[i].text]
    # rapidfuzz's bit-parallel LCS in C rules out most texts first: a text holds the word as a
    # subsequence exactly when their longest common subsequence is the whole word
    found = process.extract(
        word,
        [texts[i].text for i in among],
        scorer=LCSseq.similarity,
        processor=None,
        score_cutoff=len(word),
        limit=None,
    )
    search = _scattered(word).search
    # a word's letters side by side are in one word of the text (no space among them): the
    # regular expression only for the rest
    return sorted(among[n] for text, _score, n in found if word in text or search(text))


@lru_cache(maxsize=64)
def _scattered(word: str) -> re.Pattern[str]:
    """From a word's start, each character of ``word`` in turn, never past a space."""
    # possessive "anything but a space or c, then c" steps: linear, never backtracks
    steps = "".join(f"[^\\s{re.escape(ch)}]*+{re.escape(ch)}" for ch in word)
    return re.compile("(?<!\\S)" + steps)
