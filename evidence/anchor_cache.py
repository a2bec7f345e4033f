"""Anchoring results kept on disk: reopening an audit (or a review) anchors nothing unchanged.

One entry per (the quotes as the reports give them, the revision's commit, the anchoring
version): a BLAKE2b key over this cache's format, the Python version, the source files of
evidence/anchoring/ and evidence/model.py, the commit and every field of every quote. An entry
holds the anchors (without their quotes, which the caller has) and, once known, the state of the
reports' cited paths, as plain tuples in an entry file of evidence/cache_files.py (as the report
cache's): reading one never runs code; a missing, damaged or foreign entry is a miss; writes are
atomic and never fail the caller.
"""

from __future__ import annotations

import functools
import hashlib
import sys
import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from evidence import cache_files
from evidence.anchoring.anchorer import Anchorer
from evidence.citations import MISSING_STATES, CitedPath, CitedState
from evidence.model import Anchor, Candidate, DiffPart, Elsewhere, FileState, Quote, Tier

__all__ = [
    "CachingAnchorer",
    "Cached",
    "counts",
    "default_directory",
    "get",
    "key_for",
    "put",
    "unreadable",
]

FORMAT = 2  # 2: an anchor's left_out
MAX_ENTRIES = 512
MAX_BYTES = 512 * 1024 * 1024
_MAGIC = b"assay-anchor-cache\n"
_ROOT = Path(__file__).resolve().parent
#: what anchors depend on besides the quotes and the revision: the anchorer, how a blob is read
#: and decoded (Git LFS, encodings), how a cited path is told (the citations kept beside them)
SOURCES = (
    *sorted((_ROOT / "anchoring").glob("*.py")),
    _ROOT / "model.py",
    _ROOT / "revision.py",
    _ROOT / "source_file.py",
    _ROOT / "git" / "spelling.py",  # paths through symlinked directories, NFC/NFD, submodules
    _ROOT / "git" / "submodules.py",
    _ROOT / "git" / "blobs.py",
    _ROOT / "git" / "lfs.py",
    _ROOT / "citations.py",
    _ROOT / "reports" / "vocabulary.py",
    _ROOT / "reports" / "citing.py",  # the cited paths read from a report
    _ROOT / "reports" / "ranges.py",
)


@functools.cache
def anchoring_digest() -> bytes | None:
    """A hash of the anchoring code (None when a source cannot be read: no caching)."""
    digest = hashlib.blake2b(digest_size=32)
    try:
        for path in SOURCES:
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    except OSError:
        return None
    return digest.digest()


def key_for(quotes: Sequence[Quote], commit: str, root: str = "") -> str | None:
    """The entry key of these quotes anchored at ``commit``, their paths read from ``root``
    (`Revision.root`: a directory of a monorepo) (None: no caching)."""
    code = anchoring_digest()
    if code is None:
        return None
    digest = hashlib.blake2b(digest_size=32)
    where = (commit, root) if root else commit  # the keys of reviews at the top unchanged
    digest.update(repr((FORMAT, sys.version_info[:2], where)).encode())
    digest.update(code)
    for quote in quotes:
        digest.update(repr(tuple(quote)).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def default_directory() -> Path:
    """``user_cache_dir("assay")/anchors``."""
    return cache_files.user_cache(cache_files.ANCHORS)


def _encode(anchor: Anchor) -> tuple[Any, ...]:
    return (
        anchor.file.value,
        anchor.match.value,
        anchor.score,
        anchor.lines,
        anchor.occurrences,
        anchor.range_ok,
        tuple((e.path, e.lines, e.match.value) for e in anchor.elsewhere),
        tuple(tuple(part) for part in anchor.diff),
        tuple(tuple(candidate) for candidate in anchor.candidates),
        anchor.notes,
        anchor.left_out,
    )


#: the enums by value: looking one up by calling it was a third of decoding a scan's anchors
_FILES = {state.value: state for state in FileState}
_TIERS = {tier.value: tier for tier in Tier}


def _decode(quote: Quote, row: Any) -> Anchor:
    # marshal gives back the tuples `_encode` wrote; the parts most anchors leave empty (a
    # scan's 135,000: all of them) are not walked: 0.36 -> 0.12 s
    file, match, score, lines, occurrences, range_ok, elsewhere, diff, candidates, notes, left = row
    return Anchor(
        quote,
        _FILES[file],
        _TIERS[match],
        score,
        lines,
        occurrences,
        range_ok,
        tuple(Elsewhere(path, span, _TIERS[tier]) for path, span, tier in elsewhere)
        if elsewhere
        else (),
        tuple(DiffPart(*part) for part in diff) if diff else (),
        tuple(Candidate(span, score) for span, score in candidates) if candidates else (),
        notes,
        left,
    )


class Cached:
    """What an entry holds: the anchors of the quotes, and the cited paths when known."""

    def __init__(self, anchors: list[Anchor], citations: tuple[CitedPath, ...] | None) -> None:
        self.anchors = anchors
        self.citations = citations

    @property
    def failing(self) -> int:
        """Quotes `assay check` counts as failing."""
        return sum(1 for anchor in self.anchors if anchor.failing)

    @property
    def citations_missing(self) -> int | None:
        """Cited paths absent (or a near miss); None when not known."""
        if self.citations is None:
            return None
        return sum(1 for cited in self.citations if cited.state.missing)


def _path(directory: Path, key: str) -> Path:
    return directory / f"{key}{cache_files.SUFFIX}"


def _same_places(cited: Any, places: Sequence[tuple[Any, ...]] | None) -> bool:
    """The cited paths kept were read from the citations the reports have now (``places``:
    `evidence.citations.cited_places`; None: not asked)."""
    return places is None or tuple(tuple(entry[:5]) for entry in cited) == tuple(places)


def get(
    directory: Path,
    key: str,
    quotes: Sequence[Quote],
    places: Sequence[tuple[Any, ...]] | None = None,
) -> Cached | None:
    """The entry for ``key`` with its anchors rebuilt on ``quotes``, or None; its cited paths
    None when they were not read from ``places`` (the reports' citations changed since)."""

    def decode(rows: Any, cited: Any) -> Cached | None:
        if len(rows) != len(quotes):
            return None
        if cited is not None and not _same_places(cited, places):
            cited = None
        if cited is None and places is not None and not places:
            cited = ()  # the reports cite no path (a scan's results): none is missing
        anchors = [_decode(quote, row) for quote, row in zip(quotes, rows, strict=True)]
        citations = (
            None
            if cited is None
            else tuple(
                CitedPath(report, record, source, path, line, CitedState(state), *rest)
                for report, record, source, path, line, state, *rest in cited
            )
        )
        return Cached(anchors, citations)

    return cache_files.read(_path(directory, key), _MAGIC, FORMAT, key, decode)


def counts(
    directory: Path,
    key: str,
    quotes: int,
    places: Sequence[tuple[Any, ...]] | None = None,
) -> tuple[int, int | None] | None:
    """The failing quotes and missing cited paths (None: not known, or not read from
    ``places``, as `get`) of the entry for ``key`` holding ``quotes`` anchors, without
    rebuilding them (an audit's 50,000 took 0.3 s), or None."""
    verified = {tier.value for tier in Tier if tier.verified}
    missing = MISSING_STATES

    def decode(rows: Any, cited: Any) -> tuple[int, int | None] | None:
        if len(rows) != quotes:
            return None
        # as `Anchor.failing`: not verified, or at other lines than claimed; never a located one
        failing = sum(
            1
            for row in rows
            if row[1] != Tier.LOCATED.value and (row[1] not in verified or row[5] is False)
        )
        if places is not None and not places:
            return failing, 0  # the reports cite no path (a scan's results): none is missing
        if cited is None or not _same_places(cited, places):
            return failing, None
        return failing, sum(1 for c in cited if c[5] in missing)

    return cache_files.read(_path(directory, key), _MAGIC, FORMAT, key, decode)


def put(
    directory: Path,
    key: str,
    anchors: Sequence[Anchor],
    citations: Iterable[CitedPath] | None = None,
) -> None:
    """Store anchors (and cited paths) under ``key``, atomically; never raises for I/O."""
    cited = (
        None
        if citations is None
        else tuple(
            (
                *cited[:5],
                cited.state.value,
                cited.suggestion,
                cited.matches,
                cited.lines,
                cited.length,
            )
            for cited in citations
        )
    )
    rows = tuple(_encode(a) for a in anchors)
    if cache_files.write(_path(directory, key), _MAGIC, FORMAT, key, rows, cited):
        cache_files.prune(directory, MAX_ENTRIES, MAX_BYTES)


def unreadable(anchors: Iterable[Anchor], revision: Any) -> tuple[str, ...]:
    """The quoted paths read as missing that the revision's tree does hold: their objects are
    not in the repository (a partial or damaged clone), or a submodule not cloned holds them.
    Anchors with any are never kept, or a repaired clone would still show those files missing."""
    missing = {anchor.quote.path for anchor in anchors if anchor.file is FileState.MISSING}
    if not missing:
        return ()
    return tuple(path for path in sorted(missing) if revision.read(path).unreadable)


def keep(
    directory: Path, revision: Any, anchors: Sequence[Anchor], citations: Sequence[CitedPath]
) -> None:
    """A review's anchors with its cited paths beside them (an audit counts a system as checked
    from both: anchors kept alone left a system reviewed on its own `·`)."""
    key = key_for([anchor.quote for anchor in anchors], revision.commit, revision.root)
    if key is not None and not unreadable(anchors, revision):  # a repaired clone is read again
        put(directory, key, anchors, citations)


class CachingAnchorer(Anchorer):
    """An Anchorer whose `anchor_many` answers from the cache, and stores what it computed."""

    def __init__(
        self, revision: Any, *, directory: Path, store: bool = True, **options: Any
    ) -> None:
        super().__init__(revision, **options)
        self.directory = directory
        # False: the caller stores them, with their cited paths (`evidence.check.keep_checked`)
        self.store = store
        self.hit = False  # the last `anchor_many` came from the cache
        #: the cited paths kept with the anchors of that hit (None: none were)
        self.cited: tuple[CitedPath, ...] | None = None

    def anchor_many(self, quotes: Sequence[Quote], **options: Any) -> list[Anchor]:
        """`Anchorer.anchor_many` (its ``cancel`` and ``progress``), answered from the cache."""
        key = key_for(quotes, self.revision.commit, self.revision.root)
        cached = None if key is None else get(self.directory, key, quotes)
        self.hit = cached is not None
        self.cited = None if cached is None else cached.citations
        if cached is not None:
            progress: Callable[[int, int], None] | None = options.get("progress")
            if progress is not None:
                progress(len(quotes), len(quotes))
            return cached.anchors
        anchors = super().anchor_many(quotes, **options)
        cancel: threading.Event | None = options.get("cancel")
        cancelled = cancel is not None and cancel.is_set()
        complete = len(anchors) == len(quotes) and not unreadable(anchors, self.revision)
        if key is not None and not cancelled and complete and self.store:
            put(self.directory, key, anchors)
        return anchors
