"""Quotes of a Jupyter notebook's cells.

A notebook is JSON: Jupyter writes each line of a cell's source as one string of an array, one
to a line (``    "df = df[df[\\"status\\"] == \\"ok\\"]\\n",``), so code quoted as the notebook
shows it is in no line of the file as written, and a fuzzy match diffs the escapes. The notebook
is read as its strings' text instead, line for line (every other line blank), so that the lines
found are the file's own: a quote found there is `normalized` (verified, but the file holds it
escaped) and says so; a close one is fuzzy, its diff of the code rather than of the escapes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from evidence.anchoring.diff import written_diff
from evidence.anchoring.forms import FileView, quote_forms
from evidence.anchoring.fuzzy import find_fuzzy
from evidence.anchoring.tiers import Found, choose, find_verified, not_verbatim
from evidence.model import Anchor, FileState, Quote, Tier

__all__ = ["NOTEBOOK_NOTE", "notebook_anchor", "notebook_text"]

#: how the note of a quote found in a notebook's cells starts
NOTEBOOK_NOTE = "notebook:"
_SAID = f"{NOTEBOOK_NOTE} its cells read as their text (the file holds each line as a JSON string)"
#: a line holding one JSON string alone, an array's element: a line of a cell (or an output)
_STRING_LINE = re.compile(r'^\s*("(?:[^"\\]|\\.)*")\s*,?\s*$')


def notebook_text(text: str) -> str | None:
    """The strings of a notebook written one to a line, as text at their lines (a string's
    final newline dropped), every other line blank; None when no line holds a string alone."""
    read: list[str] = []
    strings = 0
    for line in text.split("\n"):
        found = _STRING_LINE.match(line)
        value = ""
        if found is not None:
            try:
                value = json.loads(found.group(1))
            except ValueError:
                value = ""
            value = value.removesuffix("\n")
            if "\n" in value or "\r" in value:  # a string of several lines: not its lines
                value = ""
        strings += bool(value)
        read.append(value)
    return "\n".join(read) if strings else None


def notebook_anchor(
    quote: Quote, path: str, text: str, found: Found, notes: Sequence[str], floor: float
) -> Anchor | None:
    """The anchor of a quote of a notebook (``path`` ending in .ipynb, holding ``text``) found
    in its cells' text: `normalized` when it is there as written (or but for whitespace or
    formatting), fuzzy when it is close and closer than the quote is to the file as written
    (``found``); None when it is neither, or the file is no notebook."""
    if not path.lower().endswith(".ipynb"):
        return None
    cells = notebook_text(text)
    if cells is None:
        return None
    view = FileView(cells)
    forms = quote_forms(quote.text)
    hit = find_verified(forms, view, quote.claimed)
    if hit.tier.verified and hit.spans:
        lines, range_ok = choose(hit.spans, quote.claimed)
        return not_verbatim(quote, lines, tuple(sorted(hit.spans)), range_ok, _SAID, notes)
    passages = find_fuzzy(forms, view, floor, thorough=True)
    if not passages or (found.tier is Tier.FUZZY and found.score > passages[0].score):
        return None
    best = passages[0]
    lines, range_ok = choose((best.lines,), quote.claimed)
    return Anchor(
        quote=quote,
        file=FileState.OK,
        match=Tier.FUZZY,
        score=best.score,
        lines=best.lines,
        occurrences=(best.lines,),
        range_ok=range_ok,
        diff=written_diff(quote.text, forms.tokens, view.text_of(*best.lines), best.source_tokens),
        notes=(*notes, _SAID),
    )
