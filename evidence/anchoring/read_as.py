"""Quotes of files whose text is not what a reader sees: a Jupyter notebook (its cells, held as
JSON strings) and a Markdown or reStructuredText document (as it renders: links by their text,
no tags, table bars or section underlines). A quote copied from what the reader saw is in no
line of such a file as written; it is looked for in the file read as the reader saw it, line for
line, so that the lines found are the file's own: `normalized` when it is there (verified, not
verbatim), and says how the file was read; fuzzy when close, its diff of the text rather than of
the file's markup.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from evidence.anchoring.diff import written_diff
from evidence.anchoring.forms import FileView, quote_forms
from evidence.anchoring.fuzzy import find_fuzzy
from evidence.anchoring.markdown_text import MARKDOWN_NOTE, markdown_text
from evidence.anchoring.notebook import NOTEBOOK_NOTE, notebook_text
from evidence.anchoring.rst_text import RST_NOTE, rst_text
from evidence.anchoring.tiers import Found, choose, find_verified, not_verbatim
from evidence.model import Anchor, FileState, Quote, Tier

__all__ = ["READ_AS_NOTES", "read_as_anchor", "read_as_view"]

#: by the file name's ending: how to read the file as its reader sees it, and what to say
_READERS: dict[str, tuple[Callable[[str], str | None], str]] = {
    ".ipynb": (
        notebook_text,
        f"{NOTEBOOK_NOTE} its cells read as their text (the file holds each line as a JSON string)",
    ),
    ".rst": (
        rst_text,
        f"{RST_NOTE} read as it renders (links and roles as their text; no underlines, marks)",
    ),
    ".md": (
        markdown_text,
        f"{MARKDOWN_NOTE} read as it renders (links as their text; no tags, table bars, marks)",
    ),
}
_READERS[".markdown"] = _READERS[".mdx"] = _READERS[".md"]
#: how the notes of quotes found so start
READ_AS_NOTES = (NOTEBOOK_NOTE, MARKDOWN_NOTE, RST_NOTE)


@functools.lru_cache(maxsize=8)
def _view(read: Callable[[str], str | None], text: str) -> FileView | None:
    """The file read as its reader sees it (kept for the next quote of the same file: a
    string's hash is computed once)."""
    seen = read(text)
    return None if seen is None or seen == text else FileView(seen)


def read_as_view(path: str, text: str) -> FileView | None:
    """The file read as its reader sees it, when ``path`` names a notebook or a document."""
    reader = _READERS.get(path[path.rfind(".") :].lower()) if "." in path else None
    return None if reader is None else _view(reader[0], text)


def read_as_anchor(
    quote: Quote, path: str, text: str, found: Found, notes: Sequence[str], floor: float
) -> Anchor | None:
    """The anchor of a quote of a notebook, a Markdown or a reStructuredText file (by ``path``'s
    ending; holding ``text``) found in the file read as its reader sees it: `normalized` when
    there as written (or but for whitespace or formatting), fuzzy when close and closer than the
    quote is to the file as written (``found``); None when neither, or the file is of no such
    kind."""
    reader = _READERS.get(path[path.rfind(".") :].lower()) if "." in path else None
    if reader is None:
        return None
    read, said = reader
    view = _view(read, text)
    if view is None:
        return None
    forms = quote_forms(quote.text)
    hit = find_verified(forms, view, quote.claimed)
    if hit.tier.verified and hit.spans:
        lines, range_ok = choose(hit.spans, quote.claimed)
        return not_verbatim(quote, lines, tuple(sorted(hit.spans)), range_ok, said, notes)
    passages = find_fuzzy(forms, view, floor, thorough=True)
    if not passages or (found.tier is Tier.FUZZY and found.score >= passages[0].score):
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
        notes=(*notes, said),
    )
