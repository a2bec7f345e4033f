"""Aligning a quote's tokens with the source tokens of a window: the passage they match.

The alignment is token by token (rapidfuzz's Indel), taken around the run of matching tokens
that holds the most of them, and refined at the passage's edges by characters.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz
from rapidfuzz.distance import Indel, Levenshtein

from evidence.anchoring.forms import FileView, QuoteForms
from evidence.anchoring.normalize import TRANSLATION
from evidence.model import LineRange

#: a window whose alignment was split is aligned again around at most this many of its blocks
_MAX_BLOCKS = 8
#: a passage cut to as many tokens as the quote is listed too within this many points
_ALSO = 2.0
#: at most this many extra source tokens are dropped at the edges of an aligned passage
_EXTRA = 8
#: an unmatched edge of more tokens than this takes as many source tokens (comparing every
#: count would cost the cube of its length: a quote padded with junk)
_EDGE_MAX = 32
#: a passage of a quote longer than this is not refitted at its edges (each fitting scores the
#: whole quote again)
_FIT_CHARS = 4096
#: a window where no token matches is scored at places x quote characters up to this at most
_SAME_COST = 4_000_000
# A token of the source that normalizing leaves something of (not one made of backticks and
# asterisks only, like the "*" of a comment block): one per token of the normalized window.
_SOURCE_TOKEN = re.compile(r"[`*]*[^\s`*]\S*")


@dataclass(frozen=True)
class Passage:
    """An approximate passage: its lines, its score and its source tokens (normalized)."""

    lines: LineRange
    score: float
    source_tokens: tuple[str, ...]
    # nearly as good with as many tokens as the quote: a changed edge token reads about as well
    # as an added one ("False," for "True," before a "False," line), so both are listed
    also: tuple[Passage, ...] = ()


def token_edits(forms: QuoteForms, passage: Passage) -> int:
    """How many tokens must change, come or go to turn the quote into the passage."""
    return Levenshtein.distance(forms.tokens, passage.source_tokens)


def align_window(forms: QuoteForms, view: FileView, start: int, end: int) -> Passage | None:
    """Align the quote's tokens with the source tokens of a window; None when nothing matches."""
    tokens, quote = forms.tokens, forms.joined
    text = view.text
    start = max(0, start)
    start = text.rfind("\n", 0, start) + 1 if start > 0 else 0
    end = text.find("\n", min(len(text), max(end, start)))
    if end < 0:
        end = len(text)
    offsets = [match.span() for match in _SOURCE_TOKEN.finditer(text, start, end)]
    source = text[start:end].translate(TRANSLATION).split()
    if len(source) != len(offsets):  # some tokens were only backticks or asterisks
        pairs = [(span, text[span[0] : span[1]].translate(TRANSLATION)) for span in offsets]
        offsets = [span for span, token in pairs if token]
        source = [token for _, token in pairs if token]
    if not source:
        return None
    blocks = [
        (op.src_start, op.src_end, op.dest_start, op.dest_end)
        for op in Indel.opcodes(tokens, source)
        if op.tag == "equal"
    ]
    if not blocks:  # no token in common (a one-token quote, misquoted): as many tokens
        return _same_count(tokens, quote, view, source, offsets)
    first, last = _densest(blocks)
    passage = _passage(forms, view, source, offsets, blocks, first, last)
    if first == 0 and last == len(blocks) - 1 or passage.score == 100:
        return passage
    # blocks were left out: equal tokens may have been matched with a copy a line early or late
    # (">>> offset" twice, "# Linux console." on the next line too): aligned again in a window
    # of the quote's size around each block, where there is one copy to match
    best = passage
    size = len(tokens)
    for quote_at, _, source_at, _ in blocks[:_MAX_BLOCKS]:
        low = max(0, source_at - quote_at - 2)
        high = min(len(source), source_at + size - quote_at + 2)
        near = [
            (op.src_start, op.src_end, op.dest_start + low, op.dest_end + low)
            for op in Indel.opcodes(tokens, source[low:high])
            if op.tag == "equal"
        ]
        if near:
            other = _passage(forms, view, source, offsets, near, *_densest(near))
            if other.score > best.score:
                best = other
    return best


def _passage(
    forms: QuoteForms,
    view: FileView,
    source: list[str],
    offsets: list[tuple[int, int]],
    blocks: list[tuple[int, int, int, int]],
    first: int,
    last: int,
) -> Passage:
    """The passage around matching blocks `first` to `last`, its edges fitted to the quote."""
    tokens, quote, text = forms.tokens, forms.joined, view.text
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
    # line before, or a short line that repeats the quote's first tokens): drop source tokens
    # at either end when the passage reads better, never leaving fewer tokens than the quote
    # has (an edge token then is a changed one, not an extra one)
    score, cut_head, cut_tail = fuzz.ratio(quote, " ".join(source[begin:finish])), 0, 0
    extra = _EXTRA if len(quote) <= _FIT_CHARS else 0
    room = min(extra, finish - begin - max(1, len(tokens)))
    same: tuple[float, int, int] | None = None  # the best cut to as many tokens as the quote
    for drop_head in range(room + 1):
        for drop_tail in range(room - drop_head + 1):
            if drop_head or drop_tail:
                tighter = fuzz.ratio(
                    quote, " ".join(source[begin + drop_head : finish - drop_tail])
                )
                if tighter > score:
                    score, cut_head, cut_tail = tighter, drop_head, drop_tail
                if drop_head + drop_tail == room and (same is None or tighter > same[0]):
                    same = (tighter, drop_head, drop_tail)
    also: tuple[Passage, ...] = ()
    if same is not None and cut_head + cut_tail < room and same[0] >= score - _ALSO:
        at, to = begin + same[1], finish - same[2]
        lines = view.lines.span(offsets[at][0], offsets[to - 1][1])
        also = (Passage(lines, round(same[0], 1), tuple(source[at:to])),)
    begin, finish = begin + cut_head, finish - cut_tail
    # fewer source tokens than the quote has: its last (or first) token may have matched an
    # equal one a line early ("flush()" twice, the first misquoted "fluh()"); take as many
    # more next to the passage as read better
    missing = min(extra, len(tokens) - (finish - begin))
    grow_head = grow_tail = 0
    for more_head in range(min(missing, begin) + 1):
        for more_tail in range(min(missing - more_head, len(source) - finish) + 1):
            if more_head or more_tail:
                wider = fuzz.ratio(quote, " ".join(source[begin - more_head : finish + more_tail]))
                if wider > score:
                    score, grow_head, grow_tail = wider, more_head, more_tail
    begin, finish = begin - grow_head, finish + grow_tail
    matched = tuple(source[begin:finish])
    # an ellipsis the quote began or ended with that is the source's own token next to the
    # passage is part of it (it was left out of the alignment as an elision would be)
    lead, trail = forms.edge_ellipses
    at, to = offsets[begin][0], offsets[finish - 1][1]
    for ellipsis in lead:
        moved = _ellipsis_next(text, at, ellipsis, before=True)
        if moved == at:
            break
        at = moved
    for ellipsis in trail:
        moved = _ellipsis_next(text, to, ellipsis, before=False)
        if moved == to:
            break
        to = moved
    return Passage(view.lines.span(at, to), round(score, 1), matched, also)


def _ellipsis_next(text: str, at: int, ellipsis: str, *, before: bool) -> int:
    """Where the source's own `ellipsis` token right before (or after) offset `at` starts (or
    ends), else `at`."""
    if before:
        piece = text[max(0, at - 80) : at]
        stripped = piece.rstrip()
        word = stripped.rsplit(None, 1)[-1] if stripped.strip() else ""
        found = at - len(piece) + len(stripped) - len(word)
    else:
        piece = text[at : at + 80]
        stripped = piece.lstrip()
        word = stripped.split(None, 1)[0] if stripped.strip() else ""
        found = at + len(piece) - len(stripped) + len(word)
    return found if word and word.translate(TRANSLATION) == ellipsis else at


def _densest(blocks: list[tuple[int, int, int, int]]) -> tuple[int, int]:
    """The first and last of the run of matching blocks (quote start, end, source start, end)
    holding the most matched tokens, blocks in a run no further apart in the source than
    their quote gap allows (ties: the run with the longest block).

    Not simply around the longest block: the alignment may have matched the quote's first
    tokens with an earlier copy (">>> offset" a line before the ">>> offset" of the passage).
    """
    runs: list[tuple[int, int]] = []
    start = 0
    for at in range(1, len(blocks) + 1):
        if (
            at == len(blocks)
            or blocks[at][2] - blocks[at - 1][3] > 2 * (blocks[at][0] - blocks[at - 1][1]) + 3
        ):
            runs.append((start, at - 1))
            start = at

    def weight(run: tuple[int, int]) -> tuple[int, int]:
        sizes = [blocks[i][1] - blocks[i][0] for i in range(run[0], run[1] + 1)]
        return sum(sizes), max(sizes)

    return max(runs, key=weight)


def _same_count(
    tokens: tuple[str, ...],
    quote: str,
    view: FileView,
    source: list[str],
    offsets: list[tuple[int, int]],
) -> Passage | None:
    """The run of as many source tokens as the quote has that reads most like it."""
    size = len(tokens)
    if len(source) < size or (len(source) - size + 1) * len(quote) > _SAME_COST:
        return None
    score, at = max(
        (fuzz.ratio(quote, " ".join(source[at : at + size])), -at)
        for at in range(len(source) - size + 1)
    )
    lines = view.lines.span(offsets[-at][0], offsets[-at + size - 1][1])
    return Passage(lines, round(score, 1), tuple(source[-at : -at + size]))


def _edge(quote: Sequence[str], nearby: Sequence[str], *, reverse: bool = False) -> int:
    """How many of the `nearby` source tokens correspond to the unmatched quote tokens."""
    if not quote or not nearby:
        return 0
    if len(quote) > _EDGE_MAX:
        return min(len(quote), len(nearby))
    wanted = " ".join(quote)
    best, best_key = 0, (-1.0, 0)
    for count in range(len(nearby) + 1):
        taken = nearby[:count]
        text = " ".join(reversed(taken) if reverse else taken)
        key = (fuzz.ratio(wanted, text), -abs(count - len(quote)))
        if key > best_key:
            best, best_key = count, key
    return best
