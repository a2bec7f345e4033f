"""The anchorer: where each quote of a report sits at one revision, and where else it occurs.

Tiers, best first: ``exact`` (verbatim), ``whitespace`` (equal once whitespace runs collapse),
``normalized`` (also undoing Markdown damage, see normalize.py), ``fuzzy`` (best approximate
passage scoring at least the floor, with a diff) and ``missing``. Each quote is first anchored in
its cited file; a quote not verified there is then looked for in the other files of the revision
through the word index. `anchor_many` does this for many quotes at once, in worker processes
when the revision is large.
"""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Callable, Iterable, Sequence

from cachetools import LRUCache

from evidence.anchoring.align import token_edits
from evidence.anchoring.cited import anchored_as_read, anchored_in_turn, read_ahead
from evidence.anchoring.diff import char_diff, written_diff
from evidence.anchoring.forms import FileView, QuoteForms, quote_forms
from evidence.anchoring.fuzzy import MAX_FUZZY_CHARS, align_at, best_fuzzy, find_fuzzy
from evidence.anchoring.index import RevisionIndex
from evidence.anchoring.lead_in import lead_in_anchor
from evidence.anchoring.located import locate
from evidence.anchoring.other_files import OtherFiles
from evidence.anchoring.read_as import read_as_anchor
from evidence.anchoring.rendered import DECOMPOSED_NOTE, rescue
from evidence.anchoring.tiers import NOT_FOUND, Found, choose, find_verified
from evidence.anchoring.workers import Pending, Workers, use_processes
from evidence.model import (
    Anchor,
    Candidate,
    Elsewhere,
    FileState,
    LineRange,
    Quote,
    ReportSet,
    Tier,
)
from evidence.revision import Revision, SourceFile, normalize_path

#: fuzzy matches scoring below this are reported as missing
DEFAULT_FLOOR = 80.0
#: fuzzy candidates within this many points of the best are listed beside it
DEFAULT_CLOSE = 2.0
#: a fuzzy passage at the claimed lines wins when it scores within this many points of the best
#: (or is as few token edits from the quote)
CLAIM_MARGIN = 5.0
#: from this many quotes on, `anchor_many` reads the cited files up front
PREPARE_FROM = 200
#: from this many bytes of text on, `anchor_many` works in worker processes
PARALLEL_FROM = 32 * 1024 * 1024


class Anchorer(OtherFiles):
    """Anchors quotes in one revision, keeping file views and the word index between quotes."""

    def __init__(
        self,
        revision: Revision,
        *,
        floor: float = DEFAULT_FLOOR,
        close: float = DEFAULT_CLOSE,
        view_cache_chars: int = 128 * 1024 * 1024,
        workers: int = 2,
        parallel_from: int = PARALLEL_FROM,
    ) -> None:
        self.revision = revision
        #: processes building the word index for `anchor_many` (1: none, built in this one)
        self.workers = workers
        #: revisions with fewer bytes of text than this are indexed in this process
        self.parallel_from = parallel_from
        #: how many worker processes the last `anchor_many` used (0: it worked alone)
        self.used_workers = 0
        self.floor = floor
        self.close = close
        # file views by blob id, least recently used dropped past `view_cache_chars` characters
        self._views: LRUCache[str, FileView] = LRUCache(view_cache_chars, getsizeof=_view_size)
        self._index: RevisionIndex | None = None
        self._lock = threading.RLock()

    def after_fork(self) -> None:
        """Make this anchorer usable in a forked worker process (fresh lock, own git readers)."""
        self._lock = threading.RLock()
        self.revision.after_fork()

    # -- building blocks --

    @property
    def index(self) -> RevisionIndex:
        """The word index of every word of the revision, built on first use."""
        with self._lock:
            if self._index is None or self._index.only is not None:
                self._index = RevisionIndex(self.revision)
            return self._index

    def _index_for(self, words: Iterable[bytes]) -> RevisionIndex:
        """An index that knows `words`: the current one if it does, else a full one."""
        with self._lock:
            if self._index is not None and self._index.covers(words):
                return self._index
        return self.index

    def _view(self, source: SourceFile) -> FileView:
        """The view of a source file, kept while the cache has room for it."""
        key = source.oid or source.path
        with self._lock:
            view = self._views.get(key)
            if view is None:
                view = FileView(source.text)
                if _view_size(view) <= self._views.maxsize:
                    self._views[key] = view
            return view

    def _source(self, quote: Quote, path: str) -> tuple[SourceFile, list[str]]:
        """The cited file, following symlinks inside the tree; a report's quote's path by its
        ending too (a SARIF path is the repository's)."""
        notes: list[str] = []
        source = self.revision.read(path, ending=not quote.role)
        if source.via:  # found through a symlink, in another Unicode form, in a submodule
            notes.append(source.via)
        if source.symlink_target is not None:  # one `read` does not follow: it leaves the tree
            notes.append(f"{source.path} is a symlink to {source.symlink_target} (not followed)")
        if source.submodule is not None:
            notes.append(f"{source.path} is a submodule at commit {source.submodule}")
        elif source.inside is not None and source.problem:
            notes.append(source.problem)
        if source.invalid_utf8:
            notes.append(f"{source.path} is not valid UTF-8; decoded with replacement characters")
        elif source.encoding != "utf-8":
            notes.append(f"{source.path} is not UTF-8: read as {source.encoding}")
        if source.state is FileState.TOO_LARGE:
            notes.append(f"{source.path} is larger than {self.revision.max_size} bytes; not read")
        elif source.lfs is not None:  # not the report's mistake when its content is not here
            notes.append(source.problem or f"{source.path} is stored in Git LFS: its content read")
        return source, notes

    def find_in(
        self, text_or_source: SourceFile, quote_text: str, claimed: LineRange | None = None
    ) -> Found:
        """The best tier at which `quote_text` is in one file (fuzzy included)."""
        forms = quote_forms(quote_text)
        view = self._view(text_or_source)
        found = find_verified(forms, view, claimed)
        if found.tier is not Tier.MISSING:
            return found
        passages = find_fuzzy(forms, view, self.floor, thorough=True)
        at_claim = align_at(forms, view, claimed) if claimed is not None else None
        if at_claim is not None:
            same = [p for p in passages if p.lines == at_claim.lines]
            at_claim = max([at_claim, *same], key=lambda p: p.score)
            best = passages[0] if passages else at_claim
            # nearly as good as the best, or as few tokens from the quote ("true" for "false"
            # at the claimed line, not the line above with "singleQuote" for "jsxSingleQuote"),
            # and where the report says: listed, and chosen
            if at_claim.score >= self.floor and (
                at_claim.score >= best.score - CLAIM_MARGIN
                or token_edits(forms, at_claim) <= token_edits(forms, best)
            ):
                others = [p for p in passages if p.lines != at_claim.lines]
                passages = sorted([*others, at_claim], key=lambda p: (-p.score, p.lines))
            else:
                at_claim = None
        if not passages:
            return NOT_FOUND
        best = passages[0]
        close = [p for p in passages if best.score - p.score <= self.close or p is at_claim]
        return Found(
            Tier.FUZZY,
            tuple(p.lines for p in close),
            best.score,
            char_diff(forms.tokens, best.source_tokens),
            tuple(p.score for p in close),
            tuple(p.source_tokens for p in close),
        )

    def anchor_many(
        self,
        quotes: Sequence[Quote],
        *,
        cancel: threading.Event | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> list[Anchor]:
        """Anchor many quotes at once (what `anchor_all` and `assay check` use).

        Faster than one `anchor` per quote: the cited files are read in one stream, and the
        whole-revision search for the quotes that need it indexes only their words, in one pass.
        On a large revision with cores to spare, worker processes share the work: each reads
        its part of the revision once, anchors the quotes citing it, then indexes it. Stops
        early (returning the anchors done so far, in order, without `elsewhere`) when
        cancelled.

        The cycle collector is paused meanwhile (as `load_sarif` does): anchoring makes many
        short-lived containers and hardly any cycles, and each collection they set off walks
        every object alive (in the app, the whole review).
        """
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._anchor_all_of(quotes, cancel, progress)
        finally:
            if collecting:
                gc.enable()

    def _anchor_all_of(
        self,
        quotes: Sequence[Quote],
        cancel: threading.Event | None,
        progress: Callable[[int, int], None] | None,
    ) -> list[Anchor]:
        total = len(quotes)
        workers: Workers | None = None
        self.used_workers = 0
        streamed = False
        if total >= PREPARE_FROM:
            workers = self._start_workers(quotes)  # each reads its share of the files, once
            paths = sorted({normalize_path(q.path) for q in quotes})
            streams = max(1, min(self.workers, os.cpu_count() or 1, len(paths) // 64))
            # one stream: each quote is anchored as its file comes, while git inflates the next
            streamed = workers is None and streams == 1
            reading = workers is None and not streamed
            if reading and not read_ahead(self.revision, paths, streams, cancel):
                return []
        try:
            return self._anchor_many(quotes, workers, streamed, cancel, progress)
        finally:
            if workers is not None:
                workers.close()

    def _start_workers(self, quotes: Sequence[Quote]) -> Workers | None:
        """Worker processes for a large revision, when there are cores to spare."""
        if self.workers < 2 or not use_processes():
            return None
        revision = self.revision
        entries = revision.entries().values()
        size = sum(e.size for e in entries if e.kind == "blob" and e.size <= revision.max_size)
        if size < self.parallel_from:
            return None
        try:
            workers = Workers(self, quotes, workers=self.workers)
            self.used_workers = self.workers
            return workers
        except OSError:  # no processes to be had: everything is done in this one
            return None

    def _anchor_many(
        self,
        quotes: Sequence[Quote],
        workers: Workers | None,
        streamed: bool,
        cancel: threading.Event | None,
        progress: Callable[[int, int], None] | None,
    ) -> list[Anchor]:
        if workers is not None:
            return self._anchor_in_workers(quotes, workers, cancel, progress)
        total = len(quotes)
        if streamed:
            here = anchored_as_read(self.anchor_here, self.revision, quotes, cancel, progress)
        else:
            here = anchored_in_turn(self.anchor_here, quotes, cancel, progress)
        anchors = [anchor for anchor, _, _ in here]
        if len(here) < total:  # cancelled
            return anchors
        pending = [
            (number, forms, cited, not anchor.occurrences)
            for number, (anchor, forms, cited) in enumerate(here)
            if not anchor.verified and forms.exact and forms.index_words
        ]
        if pending:
            words = frozenset().union(*(forms.index_words for _, forms, _, _ in pending))
            with self._lock:
                if self._index is None or not self._index.covers(words):
                    self._index = RevisionIndex(self.revision, only=words)
            for number, forms, cited, fuzzy in pending:
                if cancel is not None and cancel.is_set():
                    return anchors
                places = self._elsewhere(forms, cited, fuzzy=fuzzy)
                if places:
                    anchors[number] = anchors[number]._replace(elsewhere=places)
        if progress is not None and total:
            progress(total, total)
        return anchors

    def _anchor_in_workers(
        self,
        quotes: Sequence[Quote],
        workers: Workers,
        cancel: threading.Event | None,
        progress: Callable[[int, int], None] | None,
    ) -> list[Anchor]:
        """`anchor_many` with the work done by worker processes (the same results)."""
        anchors: list[Anchor] = []
        pending: list[Pending] = []
        words: set[bytes] = set()
        for number, found in enumerate(workers.anchors(cancel, progress)):
            if found is None:
                return anchors
            anchor, cited, needed = found
            anchors.append(anchor)
            if needed:
                pending.append((number, cited, not anchor.occurrences, needed))
                words.update(needed)
        if pending:
            wanted = frozenset(words)
            with self._lock:
                index = self._index
            if index is None or not index.covers(wanted):
                index = workers.index(wanted, cancel)
                if index is None:
                    return anchors
                with self._lock:
                    self._index = index
            places = workers.elsewhere(index, pending, cancel)
            if places is None:
                return anchors
            for number, found_places in places:
                anchors[number] = anchors[number]._replace(elsewhere=found_places)
        if progress is not None and quotes:
            progress(len(quotes), len(quotes))
        return anchors

    # -- the public operation --

    def anchor(self, quote: Quote) -> Anchor:
        """Where `quote` is at the revision: tier, lines, occurrences, range check, elsewhere."""
        anchor, forms, cited = self.anchor_here(quote)
        if anchor.verified or not forms.exact:
            return anchor
        places = self._elsewhere(forms, cited, fuzzy=not anchor.occurrences)
        return anchor._replace(elsewhere=places) if places else anchor

    def anchor_here(self, quote: Quote) -> tuple[Anchor, QuoteForms, str]:
        """The anchor in the cited file only (no `elsewhere`), the quote's forms, the path."""
        forms = quote_forms(quote.text)
        path = normalize_path(quote.path)
        source, notes = self._source(quote, path)
        if quote.located:
            return locate(quote, source, self._view(source), notes), forms, source.path
        state = source.state
        if state is FileState.OK and source.text:
            found = self.find_in(source, quote.text, quote.claimed)
            if not found.tier.verified:  # a fence or entities, "..." for lines, line numbers,
                view = self._view(source)  # the report's lead-in on the quote's line, a notebook or
                # Markdown read as rendered
                other = (
                    rescue(quote, view, notes)
                    or lead_in_anchor(quote, view, found, notes, self.floor)
                    or read_as_anchor(quote, source.path, source.text, found, notes, self.floor)
                )
                if other is not None:
                    return other, forms, source.path
        else:
            found = NOT_FOUND
        if found.tier is Tier.NORMALIZED and forms.decomposed:
            notes.append(DECOMPOSED_NOTE)
        if not forms.exact:
            notes.append("the quote is empty")
        elif found.tier is Tier.MISSING and len(forms.joined) > MAX_FUZZY_CHARS:
            notes.append(
                f"the quote is too long to look for approximately ({len(forms.joined):,} "
                f"characters; at most {MAX_FUZZY_CHARS:,})"
            )
        lines, range_ok = choose(found.spans, quote.claimed)
        if source.unreadable:
            range_ok = None  # its content not here: the claim cannot be judged
        candidates: tuple[Candidate, ...] = ()
        diff = found.diff
        score = found.score if found.tier is not Tier.MISSING else 0.0
        if found.tier is Tier.FUZZY:
            if len(found.spans) > 1:
                candidates = tuple(
                    Candidate(span, score)
                    for span, score in zip(found.spans, found.scores, strict=True)
                )
                notes.append("several passages match almost equally well")
            chosen = found.spans.index(lines) if lines in found.spans else 0
            score = found.scores[chosen]
            first, last = found.spans[chosen]
            # the chosen passage's own differences, each side as written
            diff = written_diff(
                quote.text,
                forms.tokens,
                self._view(source).text_of(first, last),
                found.sources[chosen],
            )
        anchor = Anchor(
            quote=quote,
            file=state,
            match=found.tier_at(lines),
            score=score,
            lines=lines,
            occurrences=tuple(sorted(found.spans)),
            range_ok=range_ok,
            diff=diff,
            candidates=candidates,
            notes=tuple(notes),
        )
        return anchor, forms, source.path

    def _elsewhere(self, forms: QuoteForms, cited: str, *, fuzzy: bool) -> tuple[Elsewhere, ...]:
        """Other files of the revision where the quote occurs (verified tiers first)."""
        if not forms.index_words:
            return ()
        index = self._index_for(forms.index_words)
        candidates = index.files_with_all(forms.index_words, everywhere=fuzzy)
        if candidates is None:  # only words found nearly everywhere: nothing narrows it down
            return ()
        found = self.verified_places(forms, cited, candidates)
        if found or not fuzzy:
            return tuple(found)
        scored = self.fuzzy_places(forms, cited, index.files_with_most(forms.index_words))
        return best_fuzzy(scored)


def _view_size(view: FileView) -> int:
    return len(view.text)


def anchor_all(
    reportset: ReportSet,
    revision: Revision,
    *,
    cancel: threading.Event | None = None,
    progress: Callable[[int, int], None] | None = None,
    anchorer: Anchorer | None = None,
) -> dict[Quote, Anchor]:
    """Anchor every quote of every record of the loaded reports, in report order."""
    quotes = [quote for record in reportset.records() for quote in record.quotes]
    anchorer = anchorer or Anchorer(revision)
    anchors = anchorer.anchor_many(quotes, cancel=cancel, progress=progress)
    if cancel is not None and cancel.is_set():
        return {}
    return dict(zip(quotes, anchors, strict=True))
