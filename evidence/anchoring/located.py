"""Located regions: a SARIF location without a snippet claims lines, not text.

There is nothing to compare, so such a location is never verified nor misquoted: it is
``located`` when its file and lines exist at the revision, ``missing`` when they do not.
"""

from __future__ import annotations

from evidence.anchoring.forms import FileView
from evidence.model import Anchor, FileState, LineRange, Quote, Tier
from evidence.revision import SourceFile

__all__ = ["locate"]


def _lines_of_offsets(text: str, offsets: LineRange) -> LineRange | None:
    offset, length = offsets
    if offset > len(text):
        return None
    last = max(offset, offset + length - 1) if length else offset
    first_line = text.count("\n", 0, offset) + 1
    last_line = text.count("\n", 0, min(last, len(text))) + 1
    return first_line, max(first_line, last_line)


def locate(quote: Quote, source: SourceFile, view: FileView, notes: list[str]) -> Anchor:
    """The anchor of a located quote in its (already read) cited file, whose lines ``view``
    counts (kept by the anchorer per file: a scan names one file in thousands of results, and
    splitting it into lines for each one was most of the time `assay check` took on them)."""
    state = source.state
    missing = Anchor(quote, state, Tier.MISSING, 0.0, None, notes=tuple(notes))
    if state is FileState.MISSING:
        judged = quote.claimed and not source.unreadable  # its content here to judge the claim
        return missing._replace(range_ok=False if judged else None)
    if state is not FileState.OK:
        notes.append(f"a {state.value.replace('_', ' ')} file: its lines are not checked")
        return Anchor(quote, state, Tier.LOCATED, 0.0, quote.claimed, notes=tuple(notes))
    claimed = quote.claimed
    total = view.line_count
    if claimed is None and quote.offsets is not None:
        claimed = _lines_of_offsets(source.text, quote.offsets)
        if claimed is None:
            notes.append(
                f"character offset {quote.offsets[0]} is past the end of the file "
                f"({len(source.text)} characters)"
            )
            return missing._replace(notes=tuple(notes))
    if claimed is None:
        return Anchor(quote, state, Tier.LOCATED, 0.0, None, notes=tuple(notes))
    first, last = claimed
    if last == total + 1 and quote.columns is not None and quote.columns[1] <= 1:
        # a region ending at the start of the line after the last, or at its end (0: no
        # endColumn written; that line is empty)
        last = max(first, total)
    if first > total or last > total:
        where = f"line {first} is" if first == last else f"lines {first}-{last} are"
        notes.append(f"{where} past the end of the file ({total} lines)")
        return missing._replace(range_ok=False, notes=tuple(notes))
    if quote.columns is not None and first == last:
        width = view.line_width(first)
        if quote.columns[0] > width + 1:
            notes.append(f"column {quote.columns[0]} is past the end of line {first} ({width})")
    lines = (first, last)
    return Anchor(
        quote,
        state,
        Tier.LOCATED,
        0.0,
        lines,
        occurrences=(lines,),
        range_ok=True if quote.claimed else None,
        notes=tuple(notes),
    )
