"""What a reviewer asks of a match: what normalizing undid, and how a quote compares with a
passage it was not anchored to (a place found in another file)."""

from __future__ import annotations

import re

from evidence.anchoring.diff import written_diff
from evidence.anchoring.normalize import TRANSLATION, normalize_quote
from evidence.model import DiffPart

#: a list marker at a line start, as `normalize_source` removes it
_LIST_MARKER = re.compile(r"^[^\S\n]*(?:[-*+•‣◦]|\d{1,3}[.)])[^\S\n]+", re.MULTILINE)
#: a bullet standing alone mid-line (reports put them there once newlines are collapsed)
_BULLET = re.compile(r"(?<!\S)[•‣◦](?!\S)")

#: what normalizing drops or makes plain, by name, as the characters that show it
_CHARACTERS: tuple[tuple[str, str], ...] = (
    ("backticks", "`"),
    ("asterisks", "*"),
    ("typographic quotes", "\u201c\u201d\u201e\u201f\u2033\u2018\u2019\u201a\u201b\u2032"),
    ("ellipsis characters", "\u2026"),
    ("no-break spaces", "\u00a0"),
)


def _markers(text: str) -> tuple[list[str], str]:
    """The list markers and lone bullets of a text, and the text without them."""
    markers = [found.strip() for found in _LIST_MARKER.findall(text)]
    rest = _LIST_MARKER.sub("", text)
    markers += _BULLET.findall(rest)
    return markers, _BULLET.sub("", rest)


def _listed(markers: list[str]) -> str:
    kinds = sorted(set(markers))
    return " ".join(f"“{kind}”" for kind in kinds) if kinds else "none"


def normalized_away(quote: str, passage: str) -> tuple[str, ...]:
    """What differs between a quote and the passage it matched once both were normalized:
    one phrase per kind of formatting, e.g. ``backticks: 4 in the source, none in the quote``."""
    found: list[str] = []
    quote_markers, quote_rest = _markers(quote)
    source_markers, source_rest = _markers(passage)
    if sorted(quote_markers) != sorted(source_markers):
        found.append(
            f"list markers or bullets: {_listed(source_markers)} in the source, "
            f"{_listed(quote_markers)} in the quote"
        )
    for name, chars in _CHARACTERS:
        in_quote = sum(quote_rest.count(c) for c in chars)
        in_source = sum(source_rest.count(c) for c in chars)
        if in_quote != in_source:
            source, quoted = in_source or "none", in_quote or "none"
            found.append(f"{name}: {source} in the source, {quoted} in the quote")
    return tuple(found)


def compare(quote: str, passage: str) -> tuple[DiffPart, ...]:
    """The quote against a passage, compared as the anchorer compares fuzzy matches (both
    normalized) and shown as `written_diff` shows them: the passage as the file has it."""
    compared = passage.translate(TRANSLATION).split()  # as the fuzzy tier reads a file
    return written_diff(quote, normalize_quote(quote).split(), passage, compared)
