"""The verified tiers: where a quote is verbatim (exact), up to whitespace, or once normalized.

The exact tier is one `str.find` (most quotes stop there); the whitespace tier finds the quote's
longest token with `str.find` and checks the tokens around it in place; the normalized tier does
the same over a `str.translate`d copy of the file (newlines kept, so line numbers carry over),
skipping list markers at line starts as it goes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from evidence.anchoring.forms import FileView, QuoteForms
from evidence.anchoring.normalize import MARKER_LINE, MARKER_ONLY
from evidence.model import Anchor, DiffPart, FileState, LineRange, Quote, Tier

#: at most this many places are listed under `elsewhere`
MAX_ELSEWHERE = 20

_SPACE = re.compile(r"\s+")


def spaced_find(
    tokens: list[str], text: str, limit: int = 1000, *, markers: bool = False, kept: bool = False
) -> list[tuple[int, int]]:
    """Every place where `tokens` occur separated by runs of whitespace, overlapping places too
    (the claimed one of three equal lines quoted two at a time may be the second pair).

    The same answer as the regex of the escaped tokens joined by ``\\s+``, without paying to
    compile a regex per quote: find the longest token with `str.find`, then check the tokens
    before and after it in place. With `markers`, the list markers that `normalize_source`
    removes from line starts are skipped as whitespace, so searching a text that only had
    `str.translate(TRANSLATION)` applied gives the places a search of its normalized form would.
    With `kept` too, a quote token equal to such a marker may also be that marker: a report
    that collapsed the lines kept it mid-quote, where normalizing the quote does not remove it.
    """
    anchor = max(range(len(tokens)), key=lambda i: len(tokens[i]))
    key = tokens[anchor]
    found: list[tuple[int, int]] = []
    at = text.find(key)
    while at >= 0 and len(found) < limit:
        if not markers or not _in_marker(text, at):
            end = _extend_forward(tokens, anchor, text, at + len(key), markers, kept)
            start = _extend_backward(tokens, anchor, text, at, markers, kept) if end >= 0 else -1
            if start >= 0 and (not found or start > found[-1][0]):
                found.append((start, end))
        at = text.find(key, at + 1)
    return found


def _in_marker(text: str, at: int) -> bool:
    """Is `at` inside the list marker (and its blanks) at the start of its line?"""
    start = text.rfind("\n", 0, at) + 1
    marker = MARKER_LINE.match(text, start)
    return marker is not None and at < marker.end()


def _extend_forward(
    tokens: list[str], anchor: int, text: str, pos: int, markers: bool, kept: bool
) -> int:
    for index in range(anchor + 1, len(tokens)):
        token = tokens[index]
        space = _SPACE.match(text, pos)
        if space is None:
            return -1
        pos = space.end()
        while markers and "\n" in space.group():  # a line starts here: its marker is blank
            marker = MARKER_LINE.match(text, pos)
            if marker is None:
                break
            if kept and marker.group().strip() == token:  # the quote kept it, or not
                end = _extend_forward(tokens, index, text, pos + len(token), markers, kept)
                if end >= 0:
                    return end
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
    tokens: list[str], anchor: int, text: str, pos: int, markers: bool, kept: bool
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
            if kept and text.endswith(tokens[index], 0, gap):  # the quote kept it, or not
                start = _extend_backward(
                    tokens, index, text, gap - len(tokens[index]), markers, kept
                )
                if start >= 0:
                    return start
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
    if MARKER_ONLY.fullmatch(text, start, end) is None:
        return -1
    line = text.rfind("\n", 0, start) + 1
    if text[line:start].strip():
        return -1
    gap = line - 1 if line else 0
    while gap > 0 and text[gap - 1].isspace():
        gap -= 1
    return gap


@dataclass(frozen=True)
class Found:
    """Where a quote sits in one file at its best tier."""

    tier: Tier
    spans: tuple[LineRange, ...]
    score: float = 100.0
    diff: tuple[DiffPart, ...] = ()
    scores: tuple[float, ...] = ()  # per span, for fuzzy
    sources: tuple[tuple[str, ...], ...] = ()  # per span, the source tokens (fuzzy)
    tiers: tuple[Tier, ...] = ()  # per span, when they differ (lower tiers added for a claim)

    def tier_at(self, span: LineRange | None) -> Tier:
        """The tier of the occurrence at `span`."""
        if self.tiers and span in self.spans:
            return self.tiers[self.spans.index(span)]
        return self.tier


NOT_FOUND = Found(Tier.MISSING, ())


def find_verified(forms: QuoteForms, view: FileView, claimed: LineRange | None = None) -> Found:
    """The best of the exact, whitespace and normalized tiers, with every occurrence.

    With a claimed range that no occurrence of the best tier lies in, the occurrences of the
    lower verified tiers are added (each with its tier): the quote may be there up to whitespace.
    """
    found = _find_verified(forms, view)
    if claimed is None or found.tier is Tier.MISSING or found.tier is Tier.NORMALIZED:
        return found
    if any(claimed[0] <= span[0] and span[1] <= claimed[1] for span in found.spans):
        return found
    tiers: dict[LineRange, Tier] = dict.fromkeys(found.spans, found.tier)
    if found.tier is Tier.EXACT and " " in forms.collapsed:
        for place in spaced_find(forms.collapsed.split(" "), view.text):
            tiers.setdefault(view.lines.span(*place), Tier.WHITESPACE)
    if forms.normalized:
        lines = view.translated_lines
        tokens = forms.normalized.split(" ")
        for place in spaced_find(tokens, view.translated, markers=True, kept=True):
            tiers.setdefault(lines.span(*place), Tier.NORMALIZED)
    spans = tuple(sorted(tiers))
    return Found(found.tier, spans, tiers=tuple(tiers[span] for span in spans))


def _find_verified(forms: QuoteForms, view: FileView) -> Found:
    if not forms.exact:
        return NOT_FOUND
    text = view.text
    exact = forms.exact
    start = text.find(exact)
    if start < 0 and "\n" in exact and view.crlf:
        exact = exact.replace("\n", "\r\n")  # its lines as the file ends them: the same text
        start = text.find(exact)
    if start >= 0:  # most quotes: one scan of the file, nothing else computed
        spans: dict[LineRange, None] = {}
        size = len(exact)
        while start >= 0 and len(spans) < 1000:  # overlapping places too, each line range once
            spans[view.lines.span(start, start + size)] = None
            start = text.find(exact, start + 1)
        return Found(Tier.EXACT, tuple(spans))
    if " " in forms.collapsed:  # the longest token is found first: one scan when absent
        places = spaced_find(forms.collapsed.split(" "), text)
        if places:
            spans = dict.fromkeys(view.lines.span(*p) for p in places)
            return Found(Tier.WHITESPACE, tuple(spans))
    # before normalizing the file, which costs far more; a word the quote lost an asterisk
    # or backtick from ("budget*2" quoted "budget2") is whole only in the translated text, and
    # so may be a second one ("{size*1000:.01f}ms / {elapsed*1000:.01f}ms")
    absent: list[str] = []
    for word in forms.telltale:  # each absent word is a scan of the file: two are enough
        if word not in text:
            absent.append(word)
            if len(absent) > 1:
                break
    if absent and "*" not in text and "`" not in text:
        return NOT_FOUND
    if any(word not in view.translated for word in absent):
        return NOT_FOUND
    if forms.normalized:
        tokens = forms.normalized.split(" ")
        places = spaced_find(tokens, view.translated, markers=True)
        if not places and any(MARKER_ONLY.fullmatch(token) for token in tokens):
            # only then: a kept marker matched as a token could hide an overlapping place
            places = spaced_find(tokens, view.translated, markers=True, kept=True)
        if places:
            lines = view.translated_lines
            return Found(Tier.NORMALIZED, tuple(dict.fromkeys(lines.span(*p) for p in places)))
    return NOT_FOUND


def choose(
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


def not_verbatim(
    quote: Quote,
    lines: LineRange | None,
    occurrences: tuple[LineRange, ...],
    range_ok: bool | None,
    note: str,
    notes: Sequence[str] = (),
    left_out: tuple[LineRange, ...] = (),
) -> Anchor:
    """The anchor of a quote found once something the report added is taken off (elided,
    numbered, rendered): verified but not verbatim, so `normalized`, and ``note`` says what."""
    return Anchor(
        quote=quote,
        file=FileState.OK,
        match=Tier.NORMALIZED,
        score=100.0,
        lines=lines,
        occurrences=occurrences,
        range_ok=range_ok,
        notes=(*notes, note),
        left_out=left_out,
    )
