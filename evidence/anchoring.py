"""Where a quote really is at a revision: tier, lines, every occurrence, and where else it occurs.

Tiers, best first: ``exact`` (verbatim), ``whitespace`` (equal once whitespace runs collapse),
``normalized`` (also undoing Markdown damage: lost backticks and asterisks, added or changed list
markers at line starts, typographic quotes), ``fuzzy`` (best approximate passage scoring at least
the floor, with a diff) and ``missing``.

Speed comes from never walking a file character by character in Python, and from computing
only what a tier needs: the exact tier is one `str.find` (most quotes stop there); the whitespace
tier finds the quote's longest token with `str.find` and checks the tokens around it in place; the
normalized tier does the same over a `str.translate`d copy of the file (newlines kept, so line
numbers carry over), skipping list markers at line starts as it goes; the fuzzy tier only aligns
small windows where several of the quote's longest words agree. Searching the whole revision
uses an inverted index of words to files, built once per revision.
"""

from __future__ import annotations

import itertools
import os
import re
import threading
from bisect import bisect_right
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import accumulate, repeat
from typing import TYPE_CHECKING, Any

from rapidfuzz import fuzz
from rapidfuzz.distance import Indel, Levenshtein

from evidence.model import (
    Anchor,
    Candidate,
    DiffPart,
    Elsewhere,
    FileState,
    LineRange,
    Quote,
    ReportSet,
    Tier,
)
from evidence.revision import Revision, SourceFile, normalize_path

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

_Anchored = tuple[int, "Anchor", str, bool]  # quote number, anchor, cited path, needs elsewhere

#: fuzzy matches scoring below this are reported as missing
DEFAULT_FLOOR = 80.0
#: fuzzy candidates within this many points of the best are listed beside it
DEFAULT_CLOSE = 2.0
#: at most this many places are listed under `elsewhere`
MAX_ELSEWHERE = 20
#: fuzzy matching aligns the quote with at most this many windows of a file
MAX_WINDOWS = 8
#: fuzzy matching looks at this many places of a word at most (more: a common word)
_PLACES = 30
#: the share of the quote's word characters a window must hold, verbatim, to be aligned
_PRESENT = 0.4
#: from this many quotes on, `anchor_all` reads the whole revision up front
PREPARE_FROM = 200
#: from this many bytes of text on, `anchor_many` indexes the revision in worker processes
PARALLEL_FROM = 32 * 1024 * 1024  # measured: slower below 20 MB, faster from 50 MB

# A list marker at a line start (bullets, dashes, asterisks, "1." and "1)"), after the newline
# that starts the line: a literal first character lets the regex engine skip ahead between
# newlines instead of trying `^` at every position (3x faster).
_MARKER_AFTER_NEWLINE = re.compile(r"\n[^\S\n]*(?:[-*+•‣◦]|\d{1,3}[.)])[^\S\n]+")
# Reports also put bullets mid-line once newlines are collapsed; only "•" is unambiguous there.
_BULLET = re.compile(r"(?<!\S)[•‣◦](?!\S)")
_NORMALIZE = str.maketrans(
    {
        "`": None,
        "*": None,
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u2033": '"',
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",
        "\u2026": "...",
        "\u00a0": " ",
    }
)
_WORD = re.compile(r"\w{3,}")
# A token of the source that normalizing leaves something of (not one made of backticks and
# asterisks only, like the "*" of a comment block): one per token of the normalized window.
_SOURCE_TOKEN = re.compile(r"[`*]*[^\s`*]\S*")
_ELLIPSIS = frozenset({"...", "..", "…"})


def normalize_source(text: str) -> str:
    """Undo Markdown formatting damage; keeps every newline so line numbers are unchanged."""
    # a constant replacement keeps `sub` on its fast path; the indentation is whitespace anyway
    # (a newline put in front makes the first line start like every other one)
    return _MARKER_AFTER_NEWLINE.sub("\n ", "\n" + text)[1:].translate(_NORMALIZE)


def normalize_quote(text: str) -> str:
    """The quote with formatting damage undone and whitespace collapsed to single spaces."""
    return " ".join(normalize_source(_BULLET.sub(" ", text)).split())


_SPACE = re.compile(r"\s+")


def _spaced_find(
    tokens: list[str], text: str, limit: int = 1000, *, markers: bool = False
) -> list[tuple[int, int]]:
    """Every non-overlapping place where `tokens` occur separated by runs of whitespace.

    The same answer as the regex of the escaped tokens joined by ``\\s+``, without paying to
    compile a regex per quote: find the longest token with `str.find`, then check the tokens
    before and after it in place. With `markers`, the list markers that `normalize_source`
    removes from line starts are skipped as whitespace, so searching a text that only had
    `str.translate(_NORMALIZE)` applied gives the places a search of its normalized form would.
    """
    anchor = max(range(len(tokens)), key=lambda i: len(tokens[i]))
    key = tokens[anchor]
    found: list[tuple[int, int]] = []
    at = text.find(key)
    while at >= 0 and len(found) < limit:
        if not markers or not _in_marker(text, at):
            end = _extend_forward(tokens, anchor, text, at + len(key), markers)
            start = _extend_backward(tokens, anchor, text, at, markers) if end >= 0 else -1
            if start >= 0 and (not found or start >= found[-1][1]):
                found.append((start, end))
        at = text.find(key, at + 1)
    return found


# A list marker as `normalize_source` removes it at a line start, with the blanks around it
# ("*" is gone already once the text is translated); and the marker alone.
_MARKER_LINE = re.compile(r"[^\S\n]*(?:[-+•‣◦]|\d{1,3}[.)])[^\S\n]+")
_MARKER_ONLY = re.compile(r"[-+•‣◦]|\d{1,3}[.)]")


def _in_marker(text: str, at: int) -> bool:
    """Is `at` inside the list marker (and its blanks) at the start of its line?"""
    start = text.rfind("\n", 0, at) + 1
    marker = _MARKER_LINE.match(text, start)
    return marker is not None and at < marker.end()


def _extend_forward(
    tokens: list[str], anchor: int, text: str, pos: int, markers: bool = False
) -> int:
    for token in tokens[anchor + 1 :]:
        space = _SPACE.match(text, pos)
        if space is None:
            return -1
        pos = space.end()
        while markers and "\n" in space.group():  # a line starts here: its marker is blank
            marker = _MARKER_LINE.match(text, pos)
            if marker is None:
                break
            space = _SPACE.match(text, marker.end())
            if space is None:
                pos = marker.end()
                break
            pos = space.end()
        if not text.startswith(token, pos):
            return -1
        pos += len(token)
    return pos


def _extend_backward(
    tokens: list[str], anchor: int, text: str, pos: int, markers: bool = False
) -> int:
    for index in range(anchor - 1, -1, -1):
        gap = pos
        while gap > 0 and text[gap - 1].isspace():
            gap -= 1
        if gap == pos:
            return -1
        while markers:  # a marker starting its line before the whitespace is blank too
            before = _before_marker(text, gap)
            if before < 0:
                break
            gap = before
        if not text.endswith(tokens[index], 0, gap):
            return -1
        pos = gap - len(tokens[index])
    return pos


def _before_marker(text: str, end: int) -> int:
    """When the text before `end` is a list marker starting its line (and a blank follows it),
    where the whitespace before that line ends; -1 otherwise."""
    if end >= len(text) or text[end] == "\n" or not text[end].isspace():
        return -1
    start = end
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    if _MARKER_ONLY.fullmatch(text, start, end) is None:
        return -1
    line = text.rfind("\n", 0, start) + 1
    if text[line:start].strip():
        return -1
    gap = line - 1 if line else 0
    while gap > 0 and text[gap - 1].isspace():
        gap -= 1
    return gap


class _LineIndex:
    """Line numbers of offsets: newlines counted from the last offset asked about (answers for
    one quote's occurrences come in order), line starts built only for files asked about many
    times."""

    __slots__ = ("text", "starts", "asked", "_offset", "_line")

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts: list[int] | None = None
        self.asked = 0
        self._offset = 0
        self._line = 1

    def line(self, offset: int) -> int:
        self.asked += 1
        if self.starts is None:
            if self.asked < 16:
                text, known = self.text, self._offset
                if offset >= known:
                    line = self._line + text.count("\n", known, offset)
                elif offset > known // 2:
                    line = self._line - text.count("\n", offset, known)
                else:
                    line = text.count("\n", 0, offset) + 1
                self._offset, self._line = offset, line
                return line
            # each line starts one past the end of the previous one (the last start, past
            # the end of the text, is dropped)
            lengths = map((1).__add__, map(len, self.text.split("\n")))
            self.starts = list(accumulate(lengths, initial=0))[:-1]
        return bisect_right(self.starts, offset)

    def span(self, start: int, end: int) -> LineRange:
        """Full lines from the first to the last character of [start, end)."""
        return (self.line(start), self.line(max(start, end - 1)))


@dataclass(frozen=True)
class _Found:
    """Where a quote sits in one file at its best tier."""

    tier: Tier
    spans: tuple[LineRange, ...]
    score: float = 100.0
    diff: tuple[DiffPart, ...] = ()
    scores: tuple[float, ...] = ()  # per span, for fuzzy
    sources: tuple[tuple[str, ...], ...] = ()  # per span, the source tokens (fuzzy)


_NOT_FOUND = _Found(Tier.MISSING, ())


class _FileView:
    """One source text with the lazily built helpers the tiers need."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = _LineIndex(text)

    @cached_property
    def translated(self) -> str:
        """The text with backticks and asterisks dropped and typographic quotes made plain:
        `normalize_source` but for the list markers, which the normalized tier skips in place
        (removing them with a regex costs several times more on a file of many lines)."""
        return self.text.translate(_NORMALIZE)

    @cached_property
    def translated_lines(self) -> _LineIndex:
        return _LineIndex(self.translated)


class _QuoteForms:
    """The forms of a quote each tier compares, each computed the first time a tier asks.

    Most quotes are verbatim: their anchoring needs only `exact`, so the normalized forms, the
    words and the index words are not computed for them at all.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.exact = text.strip()

    @cached_property
    def collapsed(self) -> str:
        """Whitespace runs collapsed to single spaces."""
        return " ".join(self.text.split())

    @cached_property
    def normalized(self) -> str:
        """Formatting damage undone, whitespace collapsed."""
        return normalize_quote(self.text)

    @cached_property
    def tokens(self) -> tuple[str, ...]:
        """Normalized tokens for fuzzy alignment (ellipses at the edges dropped)."""
        tokens = self.normalized.split(" ") if self.normalized else []
        while tokens and tokens[0] in _ELLIPSIS:
            tokens.pop(0)
        while tokens and tokens[-1] in _ELLIPSIS:
            tokens.pop()
        return tuple(tokens)

    @cached_property
    def words(self) -> tuple[str, ...]:
        """Distinct words (3+ characters) of the normalized quote."""
        return tuple(dict.fromkeys(_WORD.findall(self.normalized)))

    @cached_property
    def index_words(self) -> frozenset[bytes]:
        """The words of the normalized quote as the revision index records them."""
        return frozenset(index_words(self.normalized.encode("utf-8", "surrogateescape")))

    @cached_property
    def telltale(self) -> tuple[str, ...]:
        """The longest few words, all needed verbatim too."""
        return tuple(sorted(self.words, key=len, reverse=True)[:4])


@lru_cache(maxsize=16384)
def _forms(text: str) -> _QuoteForms:
    return _QuoteForms(text)


# --- the verified tiers -------------------------------------------------------------------------


def _verified(forms: _QuoteForms, view: _FileView) -> _Found:
    """The best of the exact, whitespace and normalized tiers, with every occurrence."""
    if not forms.exact:
        return _NOT_FOUND
    text = view.text
    exact = forms.exact
    start = text.find(exact)
    if start >= 0:  # most quotes: one scan of the file, nothing else computed
        spans = []
        size = len(exact)
        while start >= 0:
            spans.append(view.lines.span(start, start + size))
            start = text.find(exact, start + size)
        return _Found(Tier.EXACT, tuple(spans))
    if " " in forms.collapsed:  # the longest token is found first: one scan when absent
        places = _spaced_find(forms.collapsed.split(" "), text)
        if places:
            return _Found(Tier.WHITESPACE, tuple(view.lines.span(*p) for p in places))
    for word in forms.telltale:  # before normalizing the file, which costs far more
        if word not in text:
            return _NOT_FOUND
    if forms.normalized:
        places = _spaced_find(forms.normalized.split(" "), view.translated, markers=True)
        if places:
            lines = view.translated_lines
            return _Found(Tier.NORMALIZED, tuple(lines.span(*p) for p in places))
    return _NOT_FOUND


# --- the fuzzy tier ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Passage:
    lines: LineRange
    score: float
    source_tokens: tuple[str, ...]


def _fuzzy(forms: _QuoteForms, view: _FileView, floor: float) -> list[_Passage]:
    """Approximate passages around the rarest words of the quote, best first, above `floor`."""
    tokens = forms.tokens
    if not tokens:
        return []
    text = view.text
    quote = " ".join(tokens)
    # where the longest words of the quote are (one scan each, at most 30 places kept): a
    # passage scoring above the floor keeps most of them, and they agree on where it starts
    found: list[tuple[int, int, list[int]]] = []
    for number, word in enumerate(forms.telltale):
        places: list[int] = []
        at = text.find(word)
        while at >= 0 and len(places) < _PLACES:
            places.append(at)
            at = text.find(word, at + len(word))
        if places:
            found.append((len(places), number, places))
    if len(found) < (2 if len(forms.telltale) >= 3 else 1):
        return []
    # the words whose every place is known say where; a word too common to list them all
    # would hide the passage behind its first places, so it is used only when all are
    pool = [item for item in found if item[0] < _PLACES] or found
    need = 2 if len(pool) >= 2 else 1
    estimates: list[tuple[int, int]] = []
    for _count, number, places in sorted(pool)[:3]:
        in_quote = quote.find(forms.telltale[number])
        estimates.extend((place - in_quote, number) for place in places)
    estimates.sort()
    spread = max(len(quote) // 2, 20)
    members: list[tuple[set[int], list[int]]] = []
    for estimate, number in estimates:
        if members and estimate - members[-1][1][0] <= spread:
            members[-1][0].add(number)
            members[-1][1].append(estimate)
        else:
            members.append(({number}, [estimate]))
    # (how many different words agree, their estimates)
    groups = [(len(words), group) for words, group in members]
    best = max(support for support, _ in groups)
    if best >= need:  # places where several words agree (and ones nearly as good)
        wanted = max(need, best - 1)
        groups = [item for item in groups if item[0] >= wanted]
    else:  # no two agree (one may be the misquoted word): the places of the rarest word
        _count, rarest, places = min(pool)
        in_quote = quote.find(forms.telltale[rarest])
        groups = [(1, [place - in_quote]) for place in places]
    groups.sort(key=lambda item: (-item[0], -len(item[1])))
    passages: dict[LineRange, _Passage] = {}
    # the window where the words put the start of the passage, with room for what a misquote
    # adds or drops; not much more, so that a copy nearby is aligned from its own window
    slack = max(40, len(quote) // 2)
    wanted_chars = sum(map(len, forms.words)) * _PRESENT
    for _support, group in groups[:MAX_WINDOWS]:
        start, end = group[0] - slack, group[-1] + len(quote) + slack
        window = text[max(0, start) : end]
        # a passage scoring above the floor keeps a good part of the quote's words verbatim
        if sum(len(word) for word in forms.words if word in window) < wanted_chars:
            continue
        passage = _align(tokens, quote, view, start, end)
        if passage is not None and passage.score >= floor:
            known = passages.get(passage.lines)
            if known is None or known.score < passage.score:
                passages[passage.lines] = passage
    return sorted(passages.values(), key=lambda p: (-p.score, p.lines))


def _align(
    tokens: tuple[str, ...], quote: str, view: _FileView, start: int, end: int
) -> _Passage | None:
    """Align the quote's tokens with the source tokens of a window; None when nothing matches."""
    text = view.text
    start = max(0, start)
    start = text.rfind("\n", 0, start) + 1 if start > 0 else 0
    end = text.find("\n", min(len(text), max(end, start)))
    if end < 0:
        end = len(text)
    offsets = [match.span() for match in _SOURCE_TOKEN.finditer(text, start, end)]
    source = text[start:end].translate(_NORMALIZE).split()
    if len(source) != len(offsets):  # some tokens were only backticks or asterisks
        pairs = [(span, text[span[0] : span[1]].translate(_NORMALIZE)) for span in offsets]
        offsets = [span for span, token in pairs if token]
        source = [token for _, token in pairs if token]
    if not source:
        return None
    blocks = [
        (op.src_start, op.src_end, op.dest_start, op.dest_end)
        for op in Indel.opcodes(tokens, source)
        if op.tag == "equal"
    ]
    if not blocks:
        return None
    pivot = max(range(len(blocks)), key=lambda i: blocks[i][1] - blocks[i][0])
    first = last = pivot
    while first > 0:
        q_gap = blocks[first][0] - blocks[first - 1][1]
        s_gap = blocks[first][2] - blocks[first - 1][3]
        if s_gap > 2 * q_gap + 3:
            break
        first -= 1
    while last < len(blocks) - 1:
        q_gap = blocks[last + 1][0] - blocks[last][1]
        s_gap = blocks[last + 1][2] - blocks[last][3]
        if s_gap > 2 * q_gap + 3:
            break
        last += 1
    # quote tokens before the first and after the last matching block: take the source tokens
    # next to the block that resemble them most (ties: as many as the quote has)
    head = tokens[: blocks[first][0]]
    before = source[max(0, blocks[first][2] - len(head) - 2) : blocks[first][2]]
    begin = blocks[first][2] - _edge(head, before[::-1], reverse=True)
    tail = tokens[blocks[last][1] :]
    finish = blocks[last][3] + _edge(
        tail, source[blocks[last][3] : blocks[last][3] + len(tail) + 2]
    )
    # an outer block may have matched a copy of its tokens just outside the passage ("}" on the
    # line before): drop a few source tokens at either end when the passage reads better
    score = fuzz.ratio(quote, " ".join(source[begin:finish]))
    for _ in range(3):
        if finish - begin < 2:
            break
        tighter = max(
            (fuzz.ratio(quote, " ".join(source[begin + 1 : finish])), 1),
            (fuzz.ratio(quote, " ".join(source[begin : finish - 1])), -1),
        )
        if tighter[0] <= score:
            break
        score = tighter[0]
        if tighter[1] == 1:
            begin += 1
        else:
            finish -= 1
    matched = tuple(source[begin:finish])
    lines = view.lines.span(offsets[begin][0], offsets[finish - 1][1])
    return _Passage(lines, round(score, 1), matched)


def _edge(quote: Sequence[str], nearby: Sequence[str], *, reverse: bool = False) -> int:
    """How many of the `nearby` source tokens correspond to the unmatched quote tokens."""
    if not quote or not nearby:
        return 0
    wanted = " ".join(quote)
    best, best_key = 0, (-1.0, 0)
    for count in range(len(nearby) + 1):
        taken = nearby[:count]
        text = " ".join(reversed(taken) if reverse else taken)
        key = (fuzz.ratio(wanted, text), -abs(count - len(quote)))
        if key > best_key:
            best, best_key = count, key
    return best


def char_diff(quote: Iterable[str], source: Iterable[str]) -> tuple[DiffPart, ...]:
    """What differs between two token sequences: token alignment, refined to characters."""
    q_tokens, s_tokens = list(quote), list(source)
    parts: list[DiffPart] = []

    def add(op: str, q: str, s: str) -> None:
        if not q and not s:
            return
        if parts and parts[-1].op == op:
            last = parts.pop()
            q, s = last.quote + q, last.source + s
        parts.append(DiffPart(op, q, s))

    for index, op in enumerate(Levenshtein.opcodes(q_tokens, s_tokens)):
        q = " ".join(q_tokens[op.src_start : op.src_end])
        s = " ".join(s_tokens[op.dest_start : op.dest_end])
        if index:
            # the space before this op belongs to whichever side has tokens in it
            if q and s:
                add("equal", " ", " ")
            elif q:
                add("delete", " ", "")
            else:
                add("insert", "", " ")
        if op.tag == "equal":
            add("equal", q, s)
        elif op.tag == "delete":
            add("delete", q, "")
        elif op.tag == "insert":
            add("insert", "", s)
        else:
            prefix = _common_prefix(q, s)
            suffix = _common_prefix(q[prefix:][::-1], s[prefix:][::-1])
            add("equal", q[:prefix], s[:prefix])
            q_mid, s_mid = q[prefix : len(q) - suffix], s[prefix : len(s) - suffix]
            add("replace" if q_mid and s_mid else "delete" if q_mid else "insert", q_mid, s_mid)
            add("equal", q[len(q) - suffix :], s[len(s) - suffix :])
    return tuple(parts)


def _common_prefix(a: str, b: str) -> int:
    size = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        size += 1
    return size


# --- the whole revision --------------------------------------------------------------------------


_IDENTIFIER_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
#: bytes.translate table keeping identifier characters (and non-ASCII bytes), blanking the rest
_WORDS_ONLY = bytes(b if b in _IDENTIFIER_BYTES or b >= 128 else 32 for b in range(256))


def index_words(data: bytes) -> set[bytes]:
    """The distinct words of a text as the revision index records them."""
    return set(data.translate(_WORDS_ONLY).split())


def _corpus_plan(revision: Revision) -> list[tuple[str, str | None, str]]:
    """(path, cached text or None, oid) of every file under the size limit, in index order:
    texts already read first, then the others in the order one cat-file stream yields them."""
    cached: list[tuple[str, str | None, str]] = []
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


def _corpus_bytes(
    revision: Revision, plan: Sequence[tuple[str, str | None, str]], *, remember: bool = True
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
        yield current[1]


def _postings(
    revision: Revision,
    part: Sequence[tuple[str, str | None, str]],
    start: int,
    wanted: frozenset[bytes],
    cap: int,
    *,
    remember: bool,
) -> dict[bytes, list[int]]:
    """The files (by plan number, `part` numbered from `start`) holding each wanted word, at
    most `cap` numbers per word: a word in that many files is a stop word, no longer looked
    for (nor is a set of every word of a file ever made)."""
    found: dict[bytes, list[int]] = {}
    looking = set(wanted)
    for number, data in enumerate(_corpus_bytes(revision, part, remember=remember), start):
        if b"\0" in data[:8000]:
            continue
        for word in looking.intersection(data.translate(_WORDS_ONLY).split()):
            numbers = found.get(word)
            if numbers is None:
                found[word] = [number]
            else:
                numbers.append(number)
                if len(numbers) >= cap:
                    looking.discard(word)
    return found


def _stop_limit(revision: Revision, common: int | None) -> int:
    files = sum(1 for e in revision.entries().values() if e.kind == "blob")
    return common if common is not None else max(64, files // 16)


# What the forked workers read: the anchorer (with its revision and the texts read so far), the
# quotes, the corpus plan and each worker's share of it. Set just before the workers fork, so
# they inherit it without pickling hundreds of megabytes.
_JOB: _Job | None = None
_FORK_LOCK = threading.Lock()


@dataclass(frozen=True)
class _Job:
    anchorer: Anchorer
    quotes: Sequence[Quote]
    plan: list[tuple[str, str | None, str]]
    slices: list[tuple[int, int]]  # per worker: the plan entries [start, end) it reads
    owned: list[list[int]]  # per worker: the numbers of the quotes it anchors


def _worker_main(conn: Connection, me: int) -> None:
    """A worker's life: read its slice of the revision once, anchoring the quotes that cite
    it; then, asked by the parent, index that slice for some words and search for quotes
    elsewhere. Replies ("progress", n), ("result", value) or ("error", exception)."""
    job = _JOB
    assert job is not None
    anchorer = job.anchorer
    anchorer._lock = threading.RLock()
    anchorer.revision.after_fork()
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
    except BaseException as error:  # noqa: BLE001 - reported to the parent, which re-raises it
        try:
            conn.send(("error", error))
        except Exception:  # noqa: BLE001 - not picklable: its text will do
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
            result, forms, cited = anchorer._anchor_here(quotes[number])
            needs = not result.verified and bool(forms.exact) and bool(forms.index_words)
            found.append((number, result, cited, needs))
        if len(found) - told >= 64:
            conn.send(("progress", len(found) - told))
            told = len(found)

    part = job.plan[start:end]
    for (path, _text, _oid), _data in zip(
        part, _corpus_bytes(anchorer.revision, part), strict=True
    ):
        numbers = waiting.pop(path, None)
        if numbers:
            anchor(numbers)
    for numbers in waiting.values():  # symlinks, submodules, missing files
        anchor(numbers)
    if len(found) > told:
        conn.send(("progress", len(found) - told))
    return found


def _worker_index(job: _Job, me: int, wanted: frozenset[bytes], cap: int) -> dict[bytes, list[int]]:
    """The files (by plan number) of the worker's slice holding each wanted word, at most
    `cap` numbers per word (a word in more files is a stop word anyway)."""
    revision = job.anchorer.revision
    start, end = job.slices[me]
    part = [  # the texts read by `_worker_anchors` are cached: nothing is read twice
        (path, text if text is not None else revision.cached_text(oid), oid)
        for path, text, oid in job.plan[start:end]
    ]
    return _postings(revision, part, start, wanted, cap, remember=False)


def _worker_places(
    job: _Job, kind: str, items: list[tuple[int, str, list[str]]]
) -> list[tuple[int, list[Any]]]:
    """For some quotes (number, cited path, paths this worker has read), their verified places
    (`kind` "verified") or scored fuzzy places ("fuzzy") in those paths."""
    anchorer, quotes = job.anchorer, job.quotes
    found: list[tuple[int, list[Any]]] = []
    for number, cited, paths in items:
        forms = _forms(quotes[number].text)
        if kind == "verified":
            places: list[Any] = anchorer._verified_places(forms, cited, paths)
        else:
            places = anchorer._fuzzy_places(forms, cited, paths)
        if places:
            found.append((number, places))
    return found


def _use_processes() -> bool:
    import multiprocessing  # not at import time: `assay check` on a small report never forks

    return "fork" in multiprocessing.get_all_start_methods() and (os.cpu_count() or 1) > 1


class _Workers:
    """Forked processes, each owning a slice of the revision (about the same number of bytes)
    for the whole run: a worker reads its slice once, anchors the quotes citing files in it,
    indexes it from memory for the words of the quotes that need `elsewhere`, and searches for
    some of those quotes elsewhere."""

    def __init__(self, anchorer: Anchorer, quotes: Sequence[Quote], *, workers: int) -> None:
        global _JOB
        import multiprocessing

        revision = anchorer.revision
        self.quotes = quotes
        self.workers = max(1, workers)
        self.plan = _corpus_plan(revision)
        self.limit = _stop_limit(revision, None)
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
    ) -> list[tuple[Anchor, str, bool] | None]:
        """Every quote's anchor in its cited file, cited path and whether it needs `elsewhere`,
        in quote order (None for the quotes not done when `cancel` was set)."""
        total = len(self.quotes)
        found: list[tuple[Anchor, str, bool] | None] = [None] * total
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
            for number, anchor, cited, needs in part:
                # the parent's own quote object, not the worker's copy of it
                found[number] = (
                    anchor._replace(quote=self.quotes[number]),
                    cited,
                    needs,
                )
        return found

    def index(
        self, words: frozenset[bytes], cancel: threading.Event | None
    ) -> RevisionIndex | None:
        """The index of `words` over every file, built by the workers (None when cancelled)."""
        cap = max(3, self.limit + 1)
        parts = self._ask([("index", words, cap)] * len(self._conns), cancel)
        if parts is None:
            return None
        merged: dict[bytes, list[int]] = {}
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
        pending: list[tuple[int, str, bool]],
        cancel: threading.Event | None,
    ) -> list[tuple[int, tuple[Elsewhere, ...]]] | None:
        """The `elsewhere` places of the pending quotes (None when cancelled): what
        `Anchorer._elsewhere` finds, with each candidate file searched by the worker that has
        read it."""
        verified: dict[int, list[str]] = {}
        for number, _cited, _fuzzy in pending:
            words = _forms(self.quotes[number].text).index_words
            if words:
                candidates = index.files_with_all(words)
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
            number: index.files_with_most(_forms(self.quotes[number].text).index_words)
            for number, _cited, wanted in pending
            if wanted and number in verified and number not in places
        }
        scored = self._places("fuzzy", pending, fuzzy, cancel)
        if scored is None:
            return None
        for number, parts in scored.items():
            best = _best_fuzzy([item for part in parts for item in part])
            if best:
                places[number] = best
        return sorted(places.items())

    def _places(
        self,
        kind: str,
        pending: list[tuple[int, str, bool]],
        paths: dict[int, list[str]],
        cancel: threading.Event | None,
    ) -> dict[int, list[list[Any]]] | None:
        """Ask each worker for the `kind` places of the quotes in the paths it has read."""
        count = len(self._conns)
        shares: list[list[tuple[int, str, list[str]]]] = [[] for _ in range(count)]
        for number, cited, _fuzzy in pending:
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


def _balanced(
    revision: Revision, plan: Sequence[tuple[str, str | None, str]], count: int
) -> list[tuple[int, int]]:
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
        limit = _stop_limit(revision, common)
        plan = _corpus_plan(revision)
        self.paths: list[str] = [path for path, _, _ in plan]
        if only is not None:  # just those words: the same postings the workers collect
            wanted = frozenset(only)
            files = _postings(revision, plan, 0, wanted, max(3, limit + 1), remember=True)
            self._set_files(files, wanted, limit)
            return
        first: dict[bytes, int] = {}
        multi: dict[bytes, list[int]] = {}
        stop: set[bytes] = set()
        for number, data in enumerate(_corpus_bytes(revision, plan)):
            if b"\0" in data[:8000]:
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
        self._multi = multi
        self._stop = stop
        self.words = len(first)
        self.only: frozenset[bytes] | None = None

    @classmethod
    def from_files(
        cls,
        paths: list[str],
        files: dict[bytes, list[int]],
        only: frozenset[bytes] | None,
        limit: int,
    ) -> RevisionIndex:
        """The index a streaming pass would build, from each word's sorted file numbers."""
        index = cls.__new__(cls)
        index.paths = paths
        index._set_files(files, only, limit)
        return index

    def _set_files(
        self, files: dict[bytes, list[int]], only: frozenset[bytes] | None, limit: int
    ) -> None:
        self._first = {word: numbers[0] for word, numbers in files.items()}
        self._multi = {}
        self._stop = set()
        for word, numbers in files.items():
            # the streaming pass stops recording a word at its (limit + 1)th file (never 2nd)
            if len(numbers) >= max(3, limit + 1):
                self._stop.add(word)
            elif len(numbers) >= 2:
                self._multi[word] = numbers
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

    def _files(self, word: bytes) -> list[int]:
        numbers = self._multi.get(word)
        if numbers is not None:
            return numbers
        number = self._first.get(word)
        return [] if number is None else [number]

    def files_with_all(self, words: Iterable[bytes], *, rarest: int = 4) -> list[str] | None:
        """Paths of the files holding each of the least frequent words; None when every word
        is too common to narrow the search."""
        chosen = sorted(words, key=self.frequency)[:rarest]
        chosen = [word for word in chosen if self.frequency(word) != float("inf")]
        if not chosen:
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
        chosen = sorted(present, key=self.frequency)[:rarest]
        if not chosen:
            return []
        need = max(1, len(chosen) - 1)
        hits: defaultdict[int, int] = defaultdict(int)
        for word in chosen:
            for number in self._files(word):
                hits[number] += 1
        ranked = sorted((n for n, c in hits.items() if c >= need), key=lambda n: (-hits[n], n))
        return [self.paths[number] for number in ranked[:limit]]


# --- the anchorer --------------------------------------------------------------------------------


class Anchorer:
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
        self._views: OrderedDict[str, _FileView] = OrderedDict()
        self._view_chars = 0
        self._view_limit = view_cache_chars
        self._index: RevisionIndex | None = None
        self._lock = threading.RLock()

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

    def _view(self, source: SourceFile) -> _FileView:
        key = source.oid or source.path
        with self._lock:
            view = self._views.get(key)
            if view is not None:
                self._views.move_to_end(key)
                return view
            view = _FileView(source.text)
            self._views[key] = view
            self._view_chars += len(source.text)
            while self._view_chars > self._view_limit and len(self._views) > 1:
                _, dropped = self._views.popitem(last=False)
                self._view_chars -= len(dropped.text)
            return view

    def _source(self, path: str) -> tuple[SourceFile, list[str]]:
        """The cited file, following symlinks inside the tree."""
        notes: list[str] = []
        source = self.revision.read(path)
        if source.symlink_target is not None:
            target = self.revision.resolve_link(path)
            if target is not None and target != source.path:
                notes.append(f"{source.path} is a symlink to {source.symlink_target}")
                source = self.revision.read(target)
            else:
                notes.append(
                    f"{source.path} is a symlink to {source.symlink_target} (not followed)"
                )
        if source.submodule is not None:
            notes.append(f"{source.path} is a submodule at commit {source.submodule}")
        if source.invalid_utf8:
            notes.append(f"{source.path} is not valid UTF-8; decoded with replacement characters")
        if source.state is FileState.TOO_LARGE:
            notes.append(f"{source.path} is larger than {self.revision.max_size} bytes; not read")
        return source, notes

    def find_in(self, text_or_source: SourceFile, quote_text: str) -> _Found:
        """The best tier at which `quote_text` is in one file (fuzzy included)."""
        forms = _forms(quote_text)
        view = self._view(text_or_source)
        found = _verified(forms, view)
        if found.tier is not Tier.MISSING:
            return found
        passages = _fuzzy(forms, view, self.floor)
        if not passages:
            return _NOT_FOUND
        best = passages[0]
        close = [p for p in passages if best.score - p.score <= self.close]
        return _Found(
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
        """
        total = len(quotes)
        workers: _Workers | None = None
        self.used_workers = 0
        if total >= PREPARE_FROM:
            workers = self._start_workers(quotes)  # each reads its share of the files, once
            if workers is None and not self._read_ahead(
                sorted({normalize_path(q.path) for q in quotes}), cancel
            ):
                return []
        try:
            return self._anchor_many(quotes, workers, cancel, progress)
        finally:
            if workers is not None:
                workers.close()

    def _read_ahead(self, paths: list[str], cancel: threading.Event | None) -> bool:
        """Read (and cache) the files at `paths`, in as many cat-file streams as there are
        workers (inflating blobs is git's work, in git's processes); False when cancelled."""
        streams = max(1, min(self.workers, os.cpu_count() or 1, len(paths) // 64))

        def read(part: list[str]) -> None:
            for _ in self.revision.scan(part):
                if cancel is not None and cancel.is_set():
                    return

        if streams == 1:
            read(paths)
        else:
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(streams) as pool:
                for done in [pool.submit(read, paths[at::streams]) for at in range(streams)]:
                    done.result()  # a failure in a stream is raised here
        return cancel is None or not cancel.is_set()

    def _start_workers(self, quotes: Sequence[Quote]) -> _Workers | None:
        """Worker processes for a large revision, when there are cores to spare."""
        if self.workers < 2 or not _use_processes():
            return None
        revision = self.revision
        entries = revision.entries().values()
        size = sum(e.size for e in entries if e.kind == "blob" and e.size <= revision.max_size)
        if size < self.parallel_from:
            return None
        try:
            workers = _Workers(self, quotes, workers=self.workers)
            self.used_workers = self.workers
            return workers
        except OSError:  # no processes to be had: everything is done in this one
            return None

    def _anchor_many(
        self,
        quotes: Sequence[Quote],
        workers: _Workers | None,
        cancel: threading.Event | None,
        progress: Callable[[int, int], None] | None,
    ) -> list[Anchor]:
        if workers is not None:
            return self._anchor_in_workers(quotes, workers, cancel, progress)
        total = len(quotes)
        anchors: list[Anchor] = []
        pending: list[tuple[int, _QuoteForms, str, bool]] = []
        for number, quote in enumerate(quotes):
            if cancel is not None and cancel.is_set():
                return anchors
            anchor, forms, cited = self._anchor_here(quote)
            anchors.append(anchor)
            if not anchor.verified and forms.exact and forms.index_words:
                pending.append((number, forms, cited, not anchor.occurrences))
            if progress is not None and number + 1 < total:
                progress(number + 1, total)
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
        workers: _Workers,
        cancel: threading.Event | None,
        progress: Callable[[int, int], None] | None,
    ) -> list[Anchor]:
        """`anchor_many` with the work done by worker processes (the same results)."""
        anchors: list[Anchor] = []
        pending: list[tuple[int, str, bool]] = []
        words: set[bytes] = set()
        for number, found in enumerate(workers.anchors(cancel, progress)):
            if found is None:
                return anchors
            anchor, cited, needs = found
            anchors.append(anchor)
            if needs:
                pending.append((number, cited, not anchor.occurrences))
                words.update(_forms(quotes[number].text).index_words)
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
        anchor, forms, cited = self._anchor_here(quote)
        if anchor.verified or not forms.exact:
            return anchor
        places = self._elsewhere(forms, cited, fuzzy=not anchor.occurrences)
        return anchor._replace(elsewhere=places) if places else anchor

    def _anchor_here(self, quote: Quote) -> tuple[Anchor, _QuoteForms, str]:
        """The anchor in the cited file only (no `elsewhere`), the quote's forms, the path."""
        forms = _forms(quote.text)
        path = normalize_path(quote.path)
        source, notes = self._source(path)
        state = source.state
        if state is FileState.OK and source.text:
            found = self.find_in(source, quote.text)
        else:
            found = _NOT_FOUND
        if not forms.exact:
            notes.append("the quote is empty")
        lines, range_ok = _choose(found.spans, quote.claimed)
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
            if chosen:  # the claimed passage is not the best one: its own differences
                diff = char_diff(forms.tokens, found.sources[chosen])
        anchor = Anchor(
            quote=quote,
            file=state,
            match=found.tier,
            score=score,
            lines=lines,
            occurrences=tuple(sorted(found.spans)),
            range_ok=range_ok,
            diff=diff,
            candidates=candidates,
            notes=tuple(notes),
        )
        return anchor, forms, source.path

    def _elsewhere(self, forms: _QuoteForms, cited: str, *, fuzzy: bool) -> tuple[Elsewhere, ...]:
        """Other files of the revision where the quote occurs (verified tiers first)."""
        if not forms.index_words:
            return ()
        index = self._index_for(forms.index_words)
        candidates = index.files_with_all(forms.index_words)
        if candidates is None:  # only words found nearly everywhere: nothing narrows it down
            return ()
        found = self._verified_places(forms, cited, candidates)
        if found or not fuzzy:
            return tuple(found)
        scored = self._fuzzy_places(forms, cited, index.files_with_most(forms.index_words))
        return _best_fuzzy(scored)

    def _verified_places(
        self, forms: _QuoteForms, cited: str, paths: Iterable[str]
    ) -> list[Elsewhere]:
        """The quote's exact/whitespace/normalized places in `paths` (in their order, at most
        MAX_ELSEWHERE), the cited file left out."""
        found: list[Elsewhere] = []
        for path in paths:
            if path == cited:
                continue
            source = self.revision.read(path)
            if source.state is not FileState.OK or not source.text:
                continue
            if any(word not in source.text for word in forms.telltale):
                continue
            hit = _verified(forms, self._view(source))
            found.extend(Elsewhere(path, span, hit.tier) for span in hit.spans)
            if len(found) >= MAX_ELSEWHERE:
                break
        return found[:MAX_ELSEWHERE]

    def _fuzzy_places(
        self, forms: _QuoteForms, cited: str, paths: Iterable[str]
    ) -> list[tuple[float, Elsewhere]]:
        """The two best fuzzy passages of each of `paths` (the cited file left out), scored."""
        scored: list[tuple[float, Elsewhere]] = []
        for path in paths:
            if path == cited:
                continue
            source = self.revision.read(path)
            if source.state is not FileState.OK or not source.text:
                continue
            for passage in _fuzzy(forms, self._view(source), self.floor)[:2]:
                scored.append((passage.score, Elsewhere(path, passage.lines, Tier.FUZZY)))
        return scored


def _best_fuzzy(scored: list[tuple[float, Elsewhere]]) -> tuple[Elsewhere, ...]:
    """The three best scored fuzzy places (ties: by path and lines)."""
    scored.sort(key=lambda item: (-item[0], item[1].path, item[1].lines))
    return tuple(place for _, place in scored[:3])


def _choose(
    spans: tuple[LineRange, ...], claimed: LineRange | None
) -> tuple[LineRange | None, bool | None]:
    """The occurrence to report and whether the claimed range holds (None: nothing claimed)."""
    if not spans:
        return None, (False if claimed is not None else None)
    if claimed is None:
        return spans[0], None  # the first occurrence, or the best fuzzy passage
    first, last = claimed

    def inside(span: LineRange) -> bool:
        return first <= span[0] and span[1] <= last

    def overlap(span: LineRange) -> int:
        return min(last, span[1]) - max(first, span[0])

    def distance(span: LineRange) -> int:
        return abs(span[0] - first) + abs(span[1] - last)

    ranked = sorted(spans, key=lambda s: (not inside(s), s != claimed, -overlap(s), distance(s)))
    chosen = ranked[0]
    return chosen, inside(chosen)


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
