"""Worker processes for a large revision: each owns a slice of it for a whole `anchor_many`.

A worker reads its slice once, anchors the quotes citing files in it, indexes the slice for the
words of the quotes that need `elsewhere`, and searches some of those quotes in the files it has
read. Workers are forked: they inherit the anchorer, the quotes and the corpus plan instead of
receiving them pickled; only requests and results (plain tuples, `Anchor`, `Elsewhere`,
exceptions) cross the pipes.
"""

from __future__ import annotations

import itertools
import os
import threading
from array import array
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from evidence.anchoring.forms import QuoteForms, quote_forms
from evidence.anchoring.fuzzy import best_fuzzy
from evidence.anchoring.index import (
    PlanEntry,
    RevisionIndex,
    corpus_bytes,
    corpus_plan,
    postings,
    stop_limit,
)
from evidence.anchoring.tiers import MAX_ELSEWHERE
from evidence.model import Anchor, Elsewhere, Quote
from evidence.revision import Revision, normalize_path

if TYPE_CHECKING:
    import multiprocessing.process
    from multiprocessing.connection import Connection

#: quote number, the anchor's fields but its quote (the parent has the quote: sent back, it was
#: pickled and unpickled only to be dropped), cited path, and the words to index when it needs
#: `elsewhere` (else none): the worker made the quote's forms, which the parent would otherwise
#: make again, alone
_Anchored = tuple[int, tuple[Any, ...], str, frozenset[bytes]]

#: a quote needing `elsewhere`: its number, cited path, whether it is in no passage of its cited
#: file (then fuzzy places are looked for too) and its index words
Pending = tuple[int, str, bool, frozenset[bytes]]

#: the array type code of file numbers: an unsigned int, of at least four bytes
NUMBERS = "I" if array("I").itemsize >= 4 else "L"


class WorkerAnchorer(Protocol):
    """What a worker asks of the anchorer it inherited (`Anchorer` is one)."""

    @property
    def revision(self) -> Revision:
        """The revision the quotes are anchored in."""
        ...

    def after_fork(self) -> None:
        """Make the anchorer usable in a forked child (fresh locks, own git processes)."""
        ...

    def anchor_here(self, quote: Quote) -> tuple[Anchor, QuoteForms, str]:
        """The quote's anchor in its cited file, its forms and the cited path."""
        ...

    def verified_places(
        self, forms: QuoteForms, cited: str, paths: Iterable[str]
    ) -> list[Elsewhere]:
        """The quote's verified places in `paths`, the cited file left out."""
        ...

    def fuzzy_places(
        self, forms: QuoteForms, cited: str, paths: Iterable[str]
    ) -> list[tuple[float, Elsewhere]]:
        """The quote's scored fuzzy places in `paths`, the cited file left out."""
        ...


# What the forked workers read: the anchorer (with its revision and the texts read so far), the
# quotes, the corpus plan and each worker's share of it. Set just before the workers fork, so
# they inherit it without pickling hundreds of megabytes.
_JOB: _Job | None = None
_FORK_LOCK = threading.Lock()


@dataclass(frozen=True)
class _Job:
    anchorer: WorkerAnchorer
    quotes: Sequence[Quote]
    plan: list[PlanEntry]
    slices: list[tuple[int, int]]  # per worker: the plan entries [start, end) it reads
    owned: list[list[int]]  # per worker: the numbers of the quotes it anchors


def _worker_main(conn: Connection, me: int) -> None:
    """A worker's life: read its slice of the revision once, anchoring the quotes that cite
    it; then, asked by the parent, index that slice for some words and search for quotes
    elsewhere. Replies ("progress", n), ("result", value) or ("error", exception)."""
    job = _JOB
    assert job is not None
    job.anchorer.after_fork()
    try:
        while True:
            request = conn.recv()
            if request[0] == "anchors":
                conn.send(("result", _worker_anchors(job, me, conn)))
            elif request[0] == "index":
                conn.send(("result", _worker_index(job, me, request[1], request[2])))
            elif request[0] == "places":
                conn.send(("result", _worker_places(job, request[1], request[2])))
            else:
                return
    except (EOFError, KeyboardInterrupt):
        return
    except BaseException as error:  # reported to the parent, which re-raises it
        try:
            conn.send(("error", error))
        except Exception:  # not picklable: its text will do
            conn.send(("error", RuntimeError(f"{type(error).__name__}: {error}")))


def _worker_anchors(job: _Job, me: int, conn: Connection) -> list[_Anchored]:
    """Read the worker's slice (caching the texts) and anchor its quotes as their files come."""
    anchorer, quotes = job.anchorer, job.quotes
    start, end = job.slices[me]
    waiting: dict[str, list[int]] = {}
    for number in job.owned[me]:
        waiting.setdefault(normalize_path(quotes[number].path), []).append(number)
    found: list[_Anchored] = []
    told = 0

    def anchor(numbers: list[int]) -> None:
        nonlocal told
        for number in numbers:
            result, forms, cited = anchorer.anchor_here(quotes[number])
            needs = not result.verified and bool(forms.exact) and bool(forms.index_words)
            words = forms.index_words if needs else frozenset()
            found.append((number, tuple(result)[1:], cited, words))
        if len(found) - told >= 64:
            conn.send(("progress", len(found) - told))
            told = len(found)

    part = job.plan[start:end]
    for (path, _text, _oid), _data in zip(part, corpus_bytes(anchorer.revision, part), strict=True):
        numbers = waiting.pop(path, None)
        if numbers:
            anchor(numbers)
    for numbers in waiting.values():  # symlinks, submodules, missing files
        anchor(numbers)
    if len(found) > told:
        conn.send(("progress", len(found) - told))
    return found


def _worker_index(
    job: _Job, me: int, wanted: frozenset[bytes], cap: int
) -> dict[bytes, array[int]]:
    """The files (by plan number) of the worker's slice holding each wanted word, at most
    `cap` numbers per word (a word in more files is a stop word anyway); as arrays, which the
    parent unpickles (alone, the workers waiting) in a third of the time of lists of ints."""
    revision = job.anchorer.revision
    start, end = job.slices[me]
    part = [  # the texts read by `_worker_anchors` are cached: nothing is read twice
        (path, text if text is not None else revision.cached_text(oid), oid)
        for path, text, oid in job.plan[start:end]
    ]
    found = postings(revision, part, start, wanted, cap, remember=False)
    return {word: array(NUMBERS, numbers) for word, numbers in found.items()}


def _worker_places(
    job: _Job, kind: str, items: list[tuple[int, str, list[str]]]
) -> list[tuple[int, list[Any]]]:
    """For some quotes (number, cited path, paths this worker has read), their verified places
    (`kind` "verified") or scored fuzzy places ("fuzzy") in those paths."""
    anchorer, quotes = job.anchorer, job.quotes
    found: list[tuple[int, list[Any]]] = []
    for number, cited, paths in items:
        forms = quote_forms(quotes[number].text)
        if kind == "verified":
            places: list[Any] = anchorer.verified_places(forms, cited, paths)
        else:
            places = anchorer.fuzzy_places(forms, cited, paths)
        if places:
            found.append((number, places))
    return found


def use_processes() -> bool:
    """Whether worker processes can be had here: fork is available and there are two cores."""
    import multiprocessing  # not at import time: `assay check` on a small report never forks

    return "fork" in multiprocessing.get_all_start_methods() and (os.cpu_count() or 1) > 1


class Workers:
    """Forked processes, each owning a slice of the revision (about the same number of bytes)
    for the whole run: a worker reads its slice once, anchors the quotes citing files in it,
    indexes it from memory for the words of the quotes that need `elsewhere`, and searches for
    some of those quotes elsewhere."""

    def __init__(self, anchorer: WorkerAnchorer, quotes: Sequence[Quote], *, workers: int) -> None:
        global _JOB
        import multiprocessing

        revision = anchorer.revision
        self.quotes = quotes
        self.workers = max(1, workers)
        self.plan = corpus_plan(revision)
        self.limit = stop_limit(revision, None)
        slices = _balanced(revision, self.plan, self.workers)
        owner: dict[str, int] = {}
        for me, (start, end) in enumerate(slices):
            for path, _, _ in self.plan[start:end]:
                owner[path] = me
        self._owner = owner
        owned: list[list[int]] = [[] for _ in slices]
        for number, quote in enumerate(quotes):
            reader = owner.get(normalize_path(quote.path))
            owned[number % len(slices) if reader is None else reader].append(number)
        context = multiprocessing.get_context("fork")
        self._conns: list[Connection] = []
        self._processes: list[multiprocessing.process.BaseProcess] = []
        with _FORK_LOCK:  # two anchorers starting workers at once must not mix their jobs
            _JOB = _Job(anchorer, quotes, self.plan, slices, owned)
            try:
                for me in range(len(slices)):
                    parent, child = context.Pipe()
                    process = context.Process(target=_worker_main, args=(child, me), daemon=True)
                    process.start()
                    child.close()
                    self._conns.append(parent)
                    self._processes.append(process)
            except BaseException:
                self.close()
                raise
            finally:
                _JOB = None

    def _ask(
        self,
        requests: Sequence[tuple[object, ...]],
        cancel: threading.Event | None,
        progress: Callable[[int], None] | None = None,
    ) -> list[Any] | None:
        """Send one request to each worker; their results in worker order (None: cancelled)."""
        from multiprocessing.connection import wait

        for conn, request in zip(self._conns, requests, strict=True):
            try:
                conn.send(request)
            except OSError:
                raise RuntimeError("an anchoring worker process died") from None
        results: list[Any] = [None] * len(self._conns)
        waiting = set(range(len(self._conns)))
        while waiting:
            if cancel is not None and cancel.is_set():
                return None
            for ready in wait([self._conns[me] for me in waiting], timeout=0.1):
                me = next(at for at, conn in enumerate(self._conns) if conn is ready)
                try:
                    kind, value = self._conns[me].recv()
                except EOFError:
                    raise RuntimeError("an anchoring worker process died") from None
                if kind == "progress":
                    if progress is not None:
                        progress(value)
                elif kind == "error":
                    raise value
                else:
                    results[me] = value
                    waiting.discard(me)
        return results

    def anchors(
        self,
        cancel: threading.Event | None,
        progress: Callable[[int, int], None] | None,
    ) -> list[tuple[Anchor, str, frozenset[bytes]] | None]:
        """Every quote's anchor in its cited file, cited path and, when it needs `elsewhere`,
        its words to index (else none), in quote order (None for the quotes not done when
        `cancel` was set)."""
        total = len(self.quotes)
        found: list[tuple[Anchor, str, frozenset[bytes]] | None] = [None] * total
        done = 0

        def told(count: int) -> None:
            nonlocal done
            done += count
            if progress is not None and done < total:
                progress(done, total)

        parts = self._ask([("anchors",)] * len(self._conns), cancel, told)
        if parts is None:
            return found
        for part in parts:
            for number, fields, cited, words in part:
                found[number] = (Anchor(self.quotes[number], *fields), cited, words)
        return found

    def index(
        self, words: frozenset[bytes], cancel: threading.Event | None
    ) -> RevisionIndex | None:
        """The index of `words` over every file, built by the workers (None when cancelled)."""
        cap = max(3, self.limit + 1)
        parts = self._ask([("index", words, cap)] * len(self._conns), cancel)
        if parts is None:
            return None
        merged: dict[bytes, array[int]] = {}
        for part in parts:  # slices in plan order, so the numbers stay sorted
            for word, numbers in part.items():
                known = merged.get(word)
                if known is None:
                    merged[word] = numbers
                else:
                    known.extend(numbers)
        paths = [path for path, _, _ in self.plan]
        return RevisionIndex.from_files(paths, merged, words, self.limit)

    def elsewhere(
        self,
        index: RevisionIndex,
        pending: list[Pending],
        cancel: threading.Event | None,
    ) -> list[tuple[int, tuple[Elsewhere, ...]]] | None:
        """The `elsewhere` places of the pending quotes (None when cancelled): what
        `Anchorer._elsewhere` finds, with each candidate file searched by the worker that has
        read it."""
        verified: dict[int, list[str]] = {}
        for number, _cited, nowhere, words in pending:
            if words:
                candidates = index.files_with_all(words, everywhere=nowhere)
                if candidates is not None:
                    verified[number] = candidates
        found = self._places("verified", pending, verified, cancel)
        if found is None:
            return None
        places: dict[int, tuple[Elsewhere, ...]] = {}
        for number, parts in found.items():
            order = {path: at for at, path in enumerate(verified[number])}
            merged = sorted(
                (place for part in parts for place in part), key=lambda p: order[p.path]
            )
            places[number] = tuple(merged[:MAX_ELSEWHERE])
        fuzzy = {
            number: index.files_with_most(words)
            for number, _cited, wanted, words in pending
            if wanted and number in verified and number not in places
        }
        scored = self._places("fuzzy", pending, fuzzy, cancel)
        if scored is None:
            return None
        for number, parts in scored.items():
            best = best_fuzzy([item for part in parts for item in part])
            if best:
                places[number] = best
        return sorted(places.items())

    def _places(
        self,
        kind: str,
        pending: list[Pending],
        paths: dict[int, list[str]],
        cancel: threading.Event | None,
    ) -> dict[int, list[list[Any]]] | None:
        """Ask each worker for the `kind` places of the quotes in the paths it has read."""
        count = len(self._conns)
        shares: list[list[tuple[int, str, list[str]]]] = [[] for _ in range(count)]
        for number, cited, _fuzzy, _words in pending:
            wanted = paths.get(number)
            if not wanted:
                continue
            local: list[list[str]] = [[] for _ in range(count)]
            for path in wanted:
                local[self._owner.get(path, number % count)].append(path)
            for me, share in enumerate(local):
                if share:
                    shares[me].append((number, cited, share))
        results = self._ask([("places", kind, share) for share in shares], cancel)
        if results is None:
            return None
        merged: dict[int, list[list[Any]]] = {}
        for part in results:
            for number, places in part:
                merged.setdefault(number, []).append(places)
        return merged

    def close(self) -> None:
        """Stop the workers, done or not."""
        for process in self._processes:
            if process.is_alive():
                process.kill()
        for process in self._processes:
            process.join()
        for conn in self._conns:
            conn.close()


def _balanced(revision: Revision, plan: Sequence[PlanEntry], count: int) -> list[tuple[int, int]]:
    """`count` consecutive slices of the plan holding about the same number of bytes."""
    entries = revision.entries()
    sizes = [max(1, entries[path].size) for path, _, _ in plan]
    total = sum(sizes)
    bounds = [0]
    done = 0
    for number, size in enumerate(sizes):
        done += size
        if len(bounds) < count and done >= total * len(bounds) / count:
            bounds.append(number + 1)
    while len(bounds) <= count:
        bounds.append(len(plan))
    return list(itertools.pairwise(bounds))
