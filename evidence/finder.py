"""Fuzzy ranking of the paths of a revision for the file finder (UI-free).

Every query character must occur in the path in order (a subsequence, as in fzf); among those
paths, a query inside the file name beats one inside a directory name, which beats a scattered
match, and shorter file names and paths win ties. Scattered matches are shortlisted with rapidfuzz
and scored on runs, word starts and file-name hits. Paths are kept in rank order, so that each
bucket stops as soon as it has ``limit`` paths, and a query that extends an earlier one searches
only that query's candidates: each keystroke stays fast on 100,000 paths.
"""

from __future__ import annotations

import heapq
import re
import threading
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice

from rapidfuzz import fuzz, process
from rapidfuzz.distance import LCSseq

#: scattered (subsequence-only) candidates given the finer score
_PRESCREEN = 400
#: at most this many scattered candidates are pre-ranked with rapidfuzz (bounds a keystroke)
_FUZZ_POOL = 20_000
#: subsequence candidate lists kept for the queries typed last
_POOL_CACHE = 16


@dataclass(frozen=True)
class FinderMatch:
    """One ranked path: its score (0-100) and the character positions the query matched."""

    path: str
    score: float
    positions: tuple[int, ...]


class PathFinder:
    """Ranks the paths of a revision against a typed query; reuse one instance per tree."""

    def __init__(self, paths: Sequence[str]) -> None:
        self.paths: list[str] = list(paths)
        # internal order: shortest file name, then shortest path, so that every bucket below is
        # already ranked within itself and its first ``limit`` members are its best
        lowered = sorted(
            ((_lowered(path), path) for path in self.paths),
            key=lambda item: (len(item[0]) - item[0].rfind("/") - 1, len(item[0]), item[0]),
        )
        self._lower = [lower for lower, _ in lowered]
        self._original = [path for _, path in lowered]
        self._base_start = [lower.rfind("/") + 1 for lower in self._lower]
        self._names = [
            lower[start:] for lower, start in zip(self._lower, self._base_start, strict=True)
        ]
        self._by_name: dict[str, list[int]] = {}
        for i, name in enumerate(self._names):
            self._by_name.setdefault(name, []).append(i)
            stem = name.split(".", 1)[0]
            if stem and stem != name:
                self._by_name.setdefault(stem, []).append(i)
        by_name = sorted(range(len(self._names)), key=self._names.__getitem__)
        self._sorted_names = [self._names[i] for i in by_name]
        self._sorted_name_index = by_name
        self._pools: dict[str, list[int]] = {}
        self._lock = threading.Lock()  # searches from finder workers share the candidate cache
        # one string per column, so that substring scans run in C and cost what they find
        self._joined_names, self._name_offsets = _joined(self._names)
        self._joined_lower, self._lower_offsets = _joined(self._lower)

    def __len__(self) -> int:
        return len(self.paths)

    def search(self, query: str, limit: int = 50) -> list[FinderMatch]:
        """The best ``limit`` paths for ``query``, best first (all paths in order for no query)."""
        with self._lock:
            return self._search(query, limit)

    def prepare(self, query: str) -> None:
        """Compute the candidates of ``query`` ahead of time, so that its next keystroke narrows."""
        needle = _lowered("".join(query.split()))
        if needle:
            with self._lock:
                self._pool(needle)

    def _search(self, query: str, limit: int) -> list[FinderMatch]:
        needle = _lowered("".join(query.split()))
        if not needle:
            return [FinderMatch(path, 0.0, ()) for path in self.paths[:limit]]
        if limit <= 0:
            return []
        names, lower, base_start = self._names, self._lower, self._base_start
        ranked: list[FinderMatch] = []
        taken: set[int] = set()

        def emit(indices: Iterable[int], score: float, start_of: Callable[[int], int]) -> bool:
            for i in indices:
                if len(ranked) >= limit:
                    return True
                if i in taken:
                    continue
                taken.add(i)
                start = start_of(i)
                ranked.append(
                    FinderMatch(
                        self._original[i],
                        round(score - min(len(lower[i]) / 50.0, 3.5), 2),
                        tuple(range(start, start + len(needle))),
                    )
                )
            return len(ranked) >= limit

        def in_name_at(i: int) -> int:
            return base_start[i] + names[i].find(needle)

        # 1. the file name (or its stem) is the query; 2. the file name starts with it
        if emit(sorted(self._by_name.get(needle, ())), 100.0, lambda i: base_start[i]):
            return ranked
        if emit(self._name_prefixed(needle, limit + len(taken)), 96.0, lambda i: base_start[i]):
            return ranked

        word_start = re.compile(r"(?<![a-z0-9])" + re.escape(needle)).search

        def word_at(text: str) -> int:
            hit = word_start(text)
            return hit.start() if hit is not None else text.rfind(needle)

        # 3. the query starts a word of the file name; 4. it is elsewhere in the file name
        # (lazy scans in rank order: each stops once the result is full)
        joined_names, name_offsets = self._joined_names, self._name_offsets
        if emit(
            _lines_containing(needle, joined_names, name_offsets, at_word=True),
            92.0,
            lambda i: base_start[i] + word_at(names[i]),
        ):
            return ranked
        if emit(_lines_containing(needle, joined_names, name_offsets), 88.0, in_name_at):
            return ranked

        # 5. the query starts a word of a directory name; 6. it is elsewhere in the path
        joined_lower, lower_offsets = self._joined_lower, self._lower_offsets
        if emit(
            _lines_containing(needle, joined_lower, lower_offsets, at_word=True),
            76.0,
            lambda i: word_at(lower[i]),
        ):
            return ranked
        if emit(
            _lines_containing(needle, joined_lower, lower_offsets),
            72.0,
            lambda i: lower[i].rfind(needle),
        ):
            return ranked

        # 7. scattered: the characters occur in order but not together
        ranked += self._rank_scattered(needle, self._pool(needle), taken, limit - len(ranked))
        return ranked

    def _name_prefixed(self, needle: str, limit: int) -> list[int]:
        """The ``limit`` best indices whose file name starts with ``needle``."""
        low = bisect_left(self._sorted_names, needle)
        high = bisect_left(self._sorted_names, needle + "\U0010ffff", low)
        return heapq.nsmallest(limit, self._sorted_name_index[low:high])

    def _pool(self, needle: str) -> list[int]:
        """Indices of paths holding ``needle`` as a subsequence, narrowed from an earlier query."""
        cached = self._pools.get(needle)
        if cached is not None:
            return cached
        pool: Sequence[int] = range(len(self.paths))
        for size in range(len(needle) - 1, 0, -1):
            narrower = self._pools.get(needle[:size])
            if narrower is not None:
                pool = narrower
                break
        lower = self._lower
        if len(needle) == 1:
            found = [i for i in pool if needle in lower[i]]
        elif isinstance(pool, range) and len(needle) >= 3:
            # from scratch, rapidfuzz's bit-parallel LCS filters in C: a path holds the query as
            # a subsequence exactly when their longest common subsequence is the whole query
            found = sorted(
                i
                for _, _, i in process.extract(
                    needle,
                    lower,
                    scorer=LCSseq.similarity,
                    processor=None,
                    score_cutoff=len(needle),
                    limit=None,
                )
            )
        else:
            matcher = _subsequence(needle).match
            found = [i for i in pool if matcher(lower[i])]
        if len(self._pools) >= _POOL_CACHE:
            self._pools.pop(next(iter(self._pools)))
        self._pools[needle] = found
        return found

    def _rank_scattered(
        self, needle: str, pool: list[int], taken: set[int], limit: int
    ) -> list[FinderMatch]:
        """Shortlist (file-name matches first, then rapidfuzz), then score runs and word starts."""
        if limit <= 0:
            return []
        lower, names, base_start = self._lower, self._names, self._base_start
        in_name = _subsequence(needle).match
        shortlist = list(
            islice((i for i in pool if i not in taken and in_name(names[i])), _PRESCREEN)
        )
        if len(shortlist) < _PRESCREEN:
            chosen = taken.union(shortlist)
            rest = list(islice((i for i in pool if i not in chosen), _FUZZ_POOL))
            choices = {i: lower[i] for i in rest}
            shortlist += [
                i
                for _, _, i in process.extract(
                    needle,
                    choices,
                    scorer=fuzz.partial_ratio,
                    processor=None,
                    limit=_PRESCREEN - len(shortlist),
                )
            ]
        scored = []
        for i in shortlist:
            positions = _positions(needle, lower[i], base_start[i])
            scored.append((_scattered_score(lower[i], positions, base_start[i]), i, positions))
        scored.sort(key=lambda item: (-item[0], item[1]))
        return [
            FinderMatch(self._original[i], round(score, 2), positions)
            for score, i, positions in scored[:limit]
        ]


def _lowered(text: str) -> str:
    """``text`` in lower case, a character for a character ("İ" lowers to "i" and a dot above:
    its "i" alone), so that a position in it is the same position in ``text``."""
    lowered = text.lower()
    if len(lowered) == len(text):  # lower case never shortens a character
        return lowered
    return "".join(char.lower()[0] for char in text)


def _joined(texts: list[str]) -> tuple[str, list[int]]:
    """The texts joined by newlines, and the offset where each starts."""
    offsets = []
    at = 0
    for text in texts:
        offsets.append(at)
        at += len(text) + 1
    return "\n".join(texts) + "\n", offsets


def _lines_containing(
    needle: str, joined: str, offsets: list[int], *, at_word: bool = False
) -> Iterator[int]:
    """Indices of the joined lines holding ``needle`` (at a word start), in order, each once."""
    find = joined.find
    at = find(needle)
    while at >= 0:
        i = bisect_right(offsets, at) - 1
        if at_word and at > 0 and joined[at - 1].isalnum():
            at = find(needle, at + 1)
            continue
        yield i
        at = find(needle, offsets[i + 1]) if i + 1 < len(offsets) else -1


def _subsequence(needle: str) -> re.Pattern[str]:
    # possessive "anything but c, then c" steps: linear time, never backtracks
    return re.compile("".join(f"[^{re.escape(ch)}]*+{re.escape(ch)}" for ch in needle), re.DOTALL)


def _at_word_start(text: str, index: int) -> bool:
    return index <= 0 or not text[index - 1].isalnum()


def _positions(needle: str, path: str, base_start: int) -> tuple[int, ...]:
    """Matched positions, taking as much of the query's tail as possible from the file name."""
    # match the longest suffix of the query inside the file name, the rest greedily before it
    for split in range(len(needle) + 1):
        head, tail = needle[:split], needle[split:]
        tail_pos = _greedy(tail, path, base_start)
        if tail_pos is None:
            continue
        limit = tail_pos[0] if tail_pos else len(path)
        head_pos = _greedy(head, path[:limit], 0)
        if head_pos is not None:
            return head_pos + tail_pos
    return _greedy(needle, path, 0) or ()


def _greedy(needle: str, text: str, start: int) -> tuple[int, ...] | None:
    positions = []
    at = start
    for ch in needle:
        at = text.find(ch, at)
        if at < 0:
            return None
        positions.append(at)
        at += 1
    return tuple(positions)


def _scattered_score(path: str, positions: tuple[int, ...], base_start: int) -> float:
    """A score below every substring match: rewards runs, word starts and file-name hits."""
    if not positions:
        return 0.0
    runs = sum(1 for a, b in zip(positions, positions[1:], strict=False) if b == a + 1)
    starts = sum(1 for p in positions if _at_word_start(path, p))
    in_name = sum(1 for p in positions if p >= base_start)
    gaps = positions[-1] - positions[0] + 1 - len(positions)
    n = len(positions)
    quality = (2 * runs + 2 * starts + in_name) / (5 * n)  # 0..1
    score = 30.0 + 35.0 * quality - min(gaps, 40) * 0.25 - min(len(path) / 50.0, 4.0)
    return max(1.0, min(score, 69.0))
