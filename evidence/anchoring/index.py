"""The corpus: every text file of a revision, streamed once, and the index of its words.

Searching the whole revision for a quote (its `elsewhere` places) uses `RevisionIndex`, an
inverted index of words to files, built once per revision in one streaming pass (or by the
worker processes, from the same postings).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import repeat

from evidence.anchoring.wordset import blanked, word_set
from evidence.revision import BINARY_PROBE, Revision

#: one file of the corpus: (path, its text if already read, blob id)
PlanEntry = tuple[str, str | None, str]


#: a quote made of common words only ("super().__init__(line)") and in no passage of its cited
#: file is looked for in every file of a revision of at most this many files
SEARCH_ALL_UP_TO = 4096


def index_words(data: bytes) -> set[bytes]:
    """The distinct words of a text as the revision index records them."""
    return set(blanked(data).split())


def corpus_plan(revision: Revision) -> list[PlanEntry]:
    """(path, cached text or None, oid) of every file under the size limit, in index order:
    texts already read first, then the others in the order one cat-file stream yields them."""
    cached: list[PlanEntry] = []
    unread: dict[str, list[str]] = {}
    for entry in revision.entries().values():
        if entry.kind != "blob" or not 0 <= entry.size <= revision.max_size:
            continue
        text = revision.cached_text(entry.oid)
        if text is None:
            unread.setdefault(entry.oid, []).append(entry.path)
        else:
            cached.append((entry.path, text, entry.oid))
    return cached + [(path, None, oid) for oid, paths in unread.items() for path in paths]


def corpus_bytes(
    revision: Revision, plan: Sequence[PlanEntry], *, remember: bool = True
) -> Iterator[bytes]:
    """The bytes of each planned file, in plan order: cached texts re-encoded (cheap), the
    others streamed through one cat-file process (and cached when `remember`)."""
    oids = list(dict.fromkeys(oid for _, text, oid in plan if text is None))
    blobs = revision.iter_blobs(oids) if oids else iter(())
    current: tuple[str, bytes] | None = None
    for _path, text, oid in plan:
        if text is not None:
            yield text.encode("utf-8", "replace")
            continue
        if current is None or current[0] != oid:
            current = next(blobs)
            if remember:
                revision.remember_blob(*current)
        yield revision.contents(current[1])  # a Git LFS file's content, UTF-16 text as UTF-8


def postings(
    revision: Revision,
    part: Sequence[PlanEntry],
    start: int,
    wanted: frozenset[bytes],
    cap: int,
    *,
    remember: bool,
) -> dict[bytes, list[int]]:
    """The files (by plan number, `part` numbered from `start`) holding each wanted word, at
    most `cap` numbers per word: a word in that many files is a stop word, no longer looked
    for (nor is a set of every word of a file ever made)."""
    looking = word_set(wanted, cap)
    for number, data in enumerate(corpus_bytes(revision, part, remember=remember), start):
        if data.find(b"\0", 0, BINARY_PROBE) < 0:
            looking.record(data, number)
    return looking.postings()


def stop_limit(revision: Revision, common: int | None) -> int:
    """The number of files past which a word is a stop word (`common` when given)."""
    files = sum(1 for e in revision.entries().values() if e.kind == "blob")
    return common if common is not None else max(64, files // 16)


class RevisionIndex:
    """Which files of the revision hold which words, for finding a quote anywhere.

    Built in one streaming pass over every file. Words in more than `common` files stop being
    recorded (they narrow nothing down); a word seen once costs no Python-level work at all.
    """

    def __init__(
        self,
        revision: Revision,
        *,
        only: Iterable[bytes] | None = None,
        common: int | None = None,
    ) -> None:
        """Index every word, or with `only` just those words (the ones some quotes need)."""
        limit = stop_limit(revision, common)
        plan = corpus_plan(revision)
        self.paths: list[str] = [path for path, _, _ in plan]
        if only is not None:  # just those words: the same postings the workers collect
            wanted = frozenset(only)
            files = postings(revision, plan, 0, wanted, max(3, limit + 1), remember=True)
            self._set_files(files, wanted, limit)
            return
        first: dict[bytes, int] = {}
        multi: dict[bytes, list[int]] = {}
        stop: set[bytes] = set()
        for number, data in enumerate(corpus_bytes(revision, plan)):
            if data.find(b"\0", 0, BINARY_PROBE) >= 0:
                continue
            words = index_words(data)
            words -= stop
            again = first.keys() & words  # iterates the smaller side, unlike set & dict
            words -= again
            first.update(zip(words, repeat(number)))
            for word in again:
                numbers = multi.get(word)
                if numbers is None:
                    multi[word] = [first[word], number]
                elif len(numbers) >= limit:
                    stop.add(word)
                    del multi[word]
                else:
                    numbers.append(number)
        self._first = first
        self._multi: Mapping[bytes, Sequence[int]] = multi
        self._stop = stop
        self.words = len(first)
        self.only: frozenset[bytes] | None = None

    @classmethod
    def from_files(
        cls,
        paths: list[str],
        files: Mapping[bytes, Sequence[int]],
        only: frozenset[bytes] | None,
        limit: int,
    ) -> RevisionIndex:
        """The index a streaming pass would build, from each word's sorted file numbers."""
        index = cls.__new__(cls)
        index.paths = paths
        index._set_files(files, only, limit)
        return index

    def _set_files(
        self, files: Mapping[bytes, Sequence[int]], only: frozenset[bytes] | None, limit: int
    ) -> None:
        self._first = {word: numbers[0] for word, numbers in files.items()}
        multi: dict[bytes, Sequence[int]] = {}
        self._stop = set()
        for word, numbers in files.items():
            # the streaming pass stops recording a word at its (limit + 1)th file (never 2nd)
            if len(numbers) >= max(3, limit + 1):
                self._stop.add(word)
            elif len(numbers) >= 2:
                multi[word] = numbers
        self._multi = multi
        self.words = len(self._first)
        self.only = only

    def covers(self, words: Iterable[bytes]) -> bool:
        """True when the index recorded (or deliberately skipped) all of `words`."""
        return self.only is None or all(word in self.only for word in words)

    def frequency(self, word: bytes) -> float:
        """How many files hold `word` (infinite for words too common to record)."""
        if word in self._stop:
            return float("inf")
        numbers = self._multi.get(word)
        if numbers is not None:
            return len(numbers)
        return 1 if word in self._first else 0

    def _rarity(self, word: bytes) -> tuple[float, bytes]:
        """What the rarest words are chosen by: frequency, then the word itself (a set's order
        changes with each process's hash seed, and so would the files of equally rare words)."""
        return self.frequency(word), word

    def _files(self, word: bytes) -> Sequence[int]:
        numbers = self._multi.get(word)
        if numbers is not None:
            return numbers
        number = self._first.get(word)
        return [] if number is None else [number]

    def files_with_all(
        self, words: Iterable[bytes], *, rarest: int = 4, everywhere: bool = False
    ) -> list[str] | None:
        """Paths of the files holding each of the least frequent words held anywhere; None
        when every word is too common to narrow the search, unless `everywhere`: then every
        path of a revision of at most `SEARCH_ALL_UP_TO` files (a quote of common words only
        is still found)."""
        # a word no file holds may be two joined where a backtick or an asterisk was lost
        # ("say`Removed" quoted as "sayRemoved"): the other words say where the normalized
        # tier may still find the quote
        counts = {word: self.frequency(word) for word in words}  # each word's looked up once
        held = [word for word, count in counts.items() if count > 0]
        chosen = sorted(held, key=lambda word: (counts[word], word))[:rarest]  # as `_rarity`
        chosen = [word for word in chosen if counts[word] != float("inf")]
        if not chosen:
            if len(held) < len(counts):
                return []  # a word held nowhere, and nothing else narrows the search
            if everywhere and len(self.paths) <= SEARCH_ALL_UP_TO:
                return sorted(self.paths)
            return None
        files = set(self._files(chosen[0]))
        for word in chosen[1:]:
            if not files:
                break
            files.intersection_update(self._files(word))
        return sorted(self.paths[number] for number in files)

    def files_with_most(
        self, words: Iterable[bytes], *, rarest: int = 4, limit: int = 8
    ) -> list[str]:
        """Paths holding most of the least frequent words present, best first."""
        present = [w for w in words if 0 < self.frequency(w) < float("inf")]
        chosen = sorted(present, key=self._rarity)[:rarest]
        if not chosen:
            return []
        need = max(1, len(chosen) - 1)
        hits: defaultdict[int, int] = defaultdict(int)
        for word in chosen:
            for number in self._files(word):
                hits[number] += 1
        ranked = sorted((n for n, c in hits.items() if c >= need), key=lambda n: (-hits[n], n))
        return [self.paths[number] for number in ranked[:limit]]
