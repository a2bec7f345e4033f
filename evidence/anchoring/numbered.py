"""Quotes copied with their line numbers: ``cat -n`` (number, tab), an editor's or a viewer's
gutter (``25 | code``, ``25│code``), ``grep -n`` (``path:25:code``, context lines
``path-26-code``; of one file ``25:code``, a listing's ``25: code``) or, over two lines or
more, a number and spaces. When such a quote is not in the file as written, the numbers are
taken off (each line's, counting up by one) and the rest is looked for: verified, it is
`normalized` (not verbatim), its numbers stand for the claimed lines when the marker claims
none, and its note says what was taken off. A quote whose lines are code that starts with
numbers (a CSV row, a table) is found as written first.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from evidence.anchoring.forms import FileView, quote_forms
from evidence.anchoring.tiers import choose, find_verified, not_verbatim
from evidence.model import Anchor, LineRange, Quote

__all__ = ["NUMBERED_NOTE", "Numbered", "numbered", "numbered_anchor"]

#: how a numbered quote's note starts (the diff view shows it rather than what normalizing undid)
NUMBERED_NOTE = "numbered:"

#: each form: a line of it, and what it is called in the note (the first that fits every line)
_FORMS: tuple[tuple[re.Pattern[str], str, int], ...] = (
    (re.compile(r"^ *(\d+)\t(.*)$"), "cat -n", 1),
    (re.compile(r"^ *(\d+) *[|│┃] ?(.*)$"), "a gutter", 1),
    (re.compile(r"^ *[^\s:]+[:-](\d+)[:-](.*)$"), "grep -n", 1),
    # grep -n of one file (no path), a listing's "12: code"; not a time of day ("12:30")
    (re.compile(r"^ *(\d+):(?!\d)(.*)$"), "a number and a colon", 1),
    (re.compile(r"^ *(\d+) +(.*)$"), "line numbers", 2),  # a number and spaces: 2 lines at least
)


@dataclass(frozen=True)
class Numbered:
    """A quote's text without its line numbers, the lines they name, and their form."""

    text: str
    lines: LineRange
    form: str


def numbered(text: str) -> Numbered | None:
    """The quote without the line numbers every line of it starts with, each one more than the
    last (or more by the blank lines between, left unnumbered), or None."""
    lines = text.split("\n")
    for pattern, form, fewest in _FORMS:
        kept: list[str] = []
        numbers: list[int] = []
        blanks = 0
        for line in lines:
            found = pattern.match(line)
            if found is None:
                if line.strip():
                    break
                kept.append("")
                blanks += 1
                continue
            number = int(found[1])
            if numbers and number not in (numbers[-1] + 1, numbers[-1] + 1 + blanks):
                break
            numbers.append(number)
            kept.append(found[2])
            blanks = 0
        else:
            if len(numbers) >= fewest and numbers[0] >= 1 and any(part.strip() for part in kept):
                return Numbered("\n".join(kept).strip("\n"), (numbers[0], numbers[-1]), form)
    return None


def numbered_anchor(quote: Quote, view: FileView, notes: Sequence[str]) -> Anchor | None:
    """The anchor of a quote copied with its line numbers, in its cited file (read, as
    ``view``), or None when it has none or what is left is not there as written."""
    found_numbers = numbered(quote.text)
    if found_numbers is None:
        return None
    found = find_verified(quote_forms(found_numbers.text), view)
    if not found.tier.verified or not found.spans:
        return None
    # the numbers choose among the places when the marker claims no lines (they are the
    # report's word too, said in the note when they are not where the text is)
    lines, range_ok = choose(found.spans, quote.claimed or found_numbers.lines)
    if quote.claimed is None:
        range_ok = None
    said = f"{_lines(found_numbers.lines, 'line number')} ({found_numbers.form}) taken off"
    if lines is not None and lines != found_numbers.lines:
        said += f"; the text is at {_lines(lines, 'line')}"
    occurrences = tuple(sorted(found.spans))
    return not_verbatim(quote, lines, occurrences, range_ok, f"{NUMBERED_NOTE} {said}", notes)


def _lines(span: LineRange, word: str) -> str:
    return f"{word} {span[0]}" if span[0] == span[1] else f"{word}s {span[0]}-{span[1]}"
