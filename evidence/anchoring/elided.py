"""Quotes that leave lines out: a line of ``...`` or ``…`` (alone, or after a comment marker:
``// ...``, ``# …``) stands for source lines the report did not copy, one at a line's end or
start for the rest of a line cut short, ``(...)`` (or ``[…]``, ``{ ... }``) for what brackets
hold, and in a one-line quote `` ... `` between two parts does. Such a quote is anchored when
the plain match fails and each part is in the file as written (exact, whitespace or
normalized), in order, close together or inside the claimed lines; its anchor is `normalized`
(verified, not verbatim) and says which lines it left out. Code that is itself ``...``
(Python's Ellipsis, a spread ``...rest``) is found by the plain match first and never reaches
this.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from evidence.anchoring.forms import FileView, quote_forms
from evidence.anchoring.tiers import find_verified, not_verbatim
from evidence.model import Anchor, LineRange, Quote, Tier

__all__ = ["ELIDED_NOTE", "ElidedMatch", "elided_anchor", "elided_parts", "find_elided"]

#: a line that only elides: "...", "…", "// ...", "# …", "/* ... */", "-- ...", "; ..."
_ELISION_LINE = re.compile(r"^\s*(?:(?://|#|--|;|/\*|\*|<!--)\s*)?(?:\.{3,}|…)\s*(?:\*/|-->)?\s*$")
#: a line cut short: "...", "…" at its end, after what was copied of it
_ELISION_END = re.compile(r"(?<=\S)\s*(?:\.{3,}|…)\s*$")
#: a line whose beginning was left out: "…" or "..." first, then what was copied of it
_ELISION_START = re.compile(r"^(\s*)(?:\.{3,}|…)(?=\S)")
#: an elision inside a one-line quote: " ... " or " … " with space both sides
_ELISION_INLINE = re.compile(r"\s(?:\.{3,}|…)\s")
#: what brackets held, left out in any quote: "exists(...)", "items[…]", "{ ... }"
_ELISION_BRACKETED = re.compile(r"(?<=[(\[{])\s*(?:\.{3,}|…)\s*(?=[)\]}])")
#: how an elided quote's note starts (the diff view shows it rather than what normalizing undid)
ELIDED_NOTE = "elided: “...” leaves out"
#: the parts' non-space characters together at least this many (a stitch of "}" and "{" says
#: nothing), and the first and last line of the match at most this far apart without a claim
MIN_CHARACTERS = 12
MAX_LINES = 400


@dataclass(frozen=True)
class ElidedMatch:
    """Where an elided quote's parts are: the lines from the first to the last, and the lines
    left out between them."""

    lines: LineRange
    left_out: tuple[LineRange, ...]


def elided_parts(text: str) -> list[str] | None:
    """The parts of a quote around its elisions, or None when it has none (or only elisions)."""
    lines = text.split("\n")
    current: list[str] = []
    parts = []
    for line in lines:
        if _ELISION_LINE.match(line):
            parts.append("\n".join(current))
            current = []
            continue
        pieces = _ELISION_INLINE.split(line) if len(lines) == 1 else [line]
        pieces = [cut for piece in pieces for cut in _ELISION_BRACKETED.split(piece)]
        for number, piece in enumerate(pieces):
            if number:
                parts.append("\n".join(current))
                current = []
            start = _ELISION_START.match(piece)
            if start is not None:  # a line whose beginning was left out: a part starts here
                parts.append("\n".join(current))
                current = []
                piece = start[1] + piece[start.end() :]
            cut = _ELISION_END.sub("", piece)
            current.append(cut)
            if cut != piece and cut.strip():  # a line cut short: the rest of it left out
                parts.append("\n".join(current))
                current = []
    parts.append("\n".join(current))
    if len(parts) == 1:
        return None
    kept = [part for part in parts if part.strip()]
    if not kept or sum(len("".join(part.split())) for part in kept) < MIN_CHARACTERS:
        return None
    return kept


def find_elided(
    parts: Sequence[str],
    find: Callable[[str], tuple[Tier, tuple[LineRange, ...]]],
    claimed: LineRange | None,
) -> ElidedMatch | None:
    """The closest run of the parts in order (``find``: a part's verified tier and every place
    of it), inside the claimed lines when one is, else the shortest; None when a part is not
    in the file as written or the parts are too far apart."""
    places: list[list[LineRange]] = []
    for part in parts:
        tier, spans = find(part)
        if not tier.verified or not spans:
            return None
        places.append(sorted(spans))
    starts = [[span[0] for span in each] for each in places]
    best: tuple[bool, int, list[LineRange]] | None = None
    for first in places[0]:
        run = [first]
        for each, begins in zip(places[1:], starts[1:], strict=True):
            at = bisect_left(begins, run[-1][1])  # on the line the part before ends, or after
            if at == len(each):
                break
            run.append(each[at])
        else:
            lines = (run[0][0], run[-1][1])
            outside = claimed is not None and not (
                claimed[0] <= lines[0] and lines[1] <= claimed[1]
            )
            if lines[1] - lines[0] >= MAX_LINES and (claimed is None or outside):
                continue  # far apart, and no claim they lie in
            rank = (outside, lines[1] - lines[0], run)
            if best is None or rank[:2] < best[:2]:
                best = rank
    if best is None:
        return None
    run = best[2]
    left_out = tuple(
        (before[1] + 1, after[0] - 1) for before, after in pairwise(run) if after[0] > before[1] + 1
    )
    return ElidedMatch((run[0][0], run[-1][1]), left_out)


def elided_anchor(quote: Quote, view: FileView, notes: Sequence[str]) -> Anchor | None:
    """The anchor of a quote that leaves lines out, in its cited file (read, as ``view``), or
    None when it elides nothing or its parts are not there as written."""
    parts = elided_parts(quote.text)
    if parts is None:
        return None

    def find(part: str) -> tuple[Tier, tuple[LineRange, ...]]:
        found = find_verified(quote_forms(part), view)
        return found.tier, found.spans

    match = find_elided(parts, find, quote.claimed)
    if match is None:
        return None
    claimed = quote.claimed
    gaps = ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in match.left_out)
    lines = quote.text.split("\n")
    cut = any(_ELISION_END.search(line) or _ELISION_START.match(line) for line in lines)
    if gaps:
        said = f"lines {gaps}"
    elif cut:  # "…" at a line's end or start: the rest of that line
        said = "the rest of a line it cut short"
    elif any(_ELISION_BRACKETED.search(line) for line in lines):
        said = "what brackets hold"
    else:
        said = "what comes before or after" if len(parts) == 1 else "nothing between its parts"
    rest = (
        f"each of its {len(parts)} parts is in the file as written, in order"
        if len(parts) > 1
        else "the rest is in the file as written"
    )
    first, last = match.lines
    inside = None if claimed is None else claimed[0] <= first and last <= claimed[1]
    note = f"{ELIDED_NOTE} {said}; {rest}"
    return not_verbatim(quote, match.lines, (match.lines,), inside, note, notes, match.left_out)
