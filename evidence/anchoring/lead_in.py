"""A quote that opens with the report's own words: a lead-in joined to the code it introduces.

"The gate reads: if not header.startswith(...) --- auth.py" is a sentence of the report and its
quote on one line, written so or joined by a renderer that collapsed the lines between them. As
written the quote is not in the file: fuzzy at best, often missing (a long sentence before a
short line). From after the colon it is. The anchor stays fuzzy, the report's quote as written
not being the source, but at the lines of the rest, with a note naming the lead-in: the reviewer
is taken to the code and told why the quote failed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rapidfuzz import fuzz

from evidence.anchoring.diff import written_diff
from evidence.anchoring.forms import FileView, quote_forms
from evidence.anchoring.fuzzy import find_fuzzy
from evidence.anchoring.normalize import TRANSLATION
from evidence.anchoring.tiers import Found, choose, find_verified
from evidence.model import Anchor, Candidate, FileState, LineRange, Quote, Tier

__all__ = ["LEAD_IN_NOTE", "lead_in_anchor", "lead_ins"]

#: how the note of a quote found past its lead-in starts
LEAD_IN_NOTE = "lead-in:"
#: a lead-in is a sentence of this many words
_WORDS = (3, 40)
#: ... and what follows it at least this many characters (not a word or two found anywhere)
_REST = 12
#: the lead-in's words standing before the passage in the file (this close, or closer): the
#: quote is a misquote of the file's own text, not a sentence of the report's
_IN_FILE = 80.0
# words of letters or digits, joined by spaces and a sentence's punctuation: no code's
# brackets, operators, dots inside names or underscores
_SENTENCE = re.compile(r"[^\W_]+(?:[\s,;'’\"“”\-–—]+[^\W_]+|\.\s+[^\W_]+)*\s*")
_COLON = re.compile(r":\s+")
_HOW = {
    Tier.EXACT: "as written",
    Tier.WHITESPACE: "but for whitespace",
    Tier.NORMALIZED: "once formatting is undone",
}


def lead_ins(text: str) -> list[tuple[str, str]]:
    """Each way to read ``text`` as a lead-in and what it introduces: (the lead-in with its
    colon, the rest), shortest lead-in first. A lead-in begins with a capital letter and is a
    sentence of 3 to 40 words before a colon and a space."""
    text = text.strip()
    if not text[:1].isupper():
        return []
    splits: list[tuple[str, str]] = []
    for colon in _COLON.finditer(text):
        head = text[: colon.start()]
        if not _SENTENCE.fullmatch(head) or len(head.split()) > _WORDS[1]:
            break  # code before this colon: none after it follows a sentence alone
        rest = text[colon.end() :]
        if len(head.split()) >= _WORDS[0] and len(rest.strip()) >= _REST:
            splits.append((head + ":", rest))
    return splits


def lead_in_anchor(
    quote: Quote, view: FileView, found: Found, notes: Sequence[str], floor: float
) -> Anchor | None:
    """The anchor of a quote whose rest, past a lead-in, is in the file (read as ``view``):
    fuzzy at the rest's lines, found as written (or but for whitespace or formatting), else
    approximately (scoring ``floor`` or more). None when no reading finds it, when the lead-in's
    words stand before it in the file too, or when the quote as written (``found``) matches
    another passage better."""
    splits = lead_ins(quote.text)
    for head, rest in splits:
        hit = find_verified(quote_forms(rest), view, quote.claimed)
        if hit.tier.verified and hit.spans:
            found_as = {span: _HOW[hit.tier_at(span)] for span in hit.spans}
            return _anchored(quote, view, found, notes, head, found_as)
    for head, rest in splits:  # the rest misquoted too: its best approximate passage
        passages = find_fuzzy(quote_forms(rest), view, floor)
        if passages:
            best = passages[0]
            found_as = {best.lines: f"nearly (fuzzy {best.score:.0f})"}
            return _anchored(quote, view, found, notes, head, found_as)
    return None


def _anchored(
    quote: Quote,
    view: FileView,
    found: Found,
    notes: Sequence[str],
    head: str,
    found_as: dict[LineRange, str],
) -> Anchor | None:
    """The fuzzy anchor at the place of the rest chosen among the keys of ``found_as`` (see
    `lead_in_anchor`), whose values say how the rest is there."""
    lines, range_ok = choose(tuple(found_as), quote.claimed)
    if lines is None:
        return None
    first, last = lines
    before = view.text_of(max(1, first - 3), first)
    if fuzz.partial_ratio(head.casefold(), before.casefold()) >= _IN_FILE:
        return None
    forms = quote_forms(quote.text)
    text = view.text_of(first, last)
    tokens = text.translate(TRANSLATION).split()
    score = round(fuzz.ratio(forms.joined, " ".join(tokens)), 1)
    if found.tier is Tier.FUZZY and lines not in found.spans and found.score > score:
        return None
    spans = tuple(sorted(found_as))
    said = (
        f"{LEAD_IN_NOTE} “{_clip(head)}” is not in the file (the report's own words?); the "
        f"rest of the quote is, {found_as[lines]}, at {_lines(lines)}"
    )
    others = (span for span in spans if span != lines)
    return Anchor(
        quote=quote,
        file=FileState.OK,
        match=Tier.FUZZY,
        score=score,
        lines=lines,
        occurrences=spans,
        range_ok=range_ok,
        diff=written_diff(quote.text, forms.tokens, text, tokens),
        candidates=tuple(Candidate(s, score) for s in (lines, *others)) if len(spans) > 1 else (),
        notes=(*notes, said),
    )


def _clip(text: str, size: int = 60) -> str:
    """A long lead-in by its first and last words."""
    if len(text) <= size:
        return text
    half = size // 2 - 1
    return f"{text[:half].rstrip()} … {text[-half:].lstrip()}"


def _lines(span: tuple[int, int]) -> str:
    return f"line {span[0]}" if span[0] == span[1] else f"lines {span[0]}-{span[1]}"
