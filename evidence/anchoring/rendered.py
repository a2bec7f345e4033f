"""What a report's writing or rendering adds to a quote that the normalized tier does not undo:
a Markdown fence around it (```` ```js ```` ... ```` ``` ````), blockquote marks (``> ``) before
its lines, Markdown's backslash escapes (``\\[``), HTML entities from a report
exported through HTML (``&lt;``), zero-width characters pasted from a web page, a PDF's
ligatures (``ﬁ``) and typeset minus signs, an editor's arrows (``→`` for ``->``). `rescue` tries,
for a quote not in its file as written, the quote without them, then as an elided
(anchoring/elided.py) or numbered (anchoring/numbered.py) quote.

Not part of `normalize_quote`: that one also keys verdicts (db/keys.py), and a key must not
change under a verdict already given.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from evidence.anchoring.elided import ELIDED_NOTE, elided_anchor
from evidence.anchoring.forms import FileView, quote_forms
from evidence.anchoring.lead_in import LEAD_IN_NOTE
from evidence.anchoring.numbered import NUMBERED_NOTE, numbered_anchor
from evidence.anchoring.read_as import READ_AS_NOTES
from evidence.anchoring.tiers import choose, find_verified, not_verbatim
from evidence.git.spelling import ENDING_NOTE
from evidence.model import Anchor, Quote

__all__ = [
    "DECOMPOSED_NOTE",
    "RENDERED_NOTE",
    "RESCUE_NOTES",
    "rendered_away",
    "rescue",
    "rescue_notes",
]

#: how the note of a quote found without what rendering added starts
RENDERED_NOTE = "rendered:"
#: the note of a quote found once its accents were composed (QuoteForms.normalized): letters
#: written as a letter and its accent, the same to a reader, other code points to a comparison
DECOMPOSED_NOTE = f"{RENDERED_NOTE} accents written as separate marks (Unicode NFD), composed"
#: how the note of any quote `rescue` (or `lead_in_anchor`) found starts: what was taken off
#: to find it (its path's beginning, a checkout's: `ENDING_NOTE`)
RESCUE_NOTES = (
    ELIDED_NOTE,
    NUMBERED_NOTE,
    RENDERED_NOTE,
    LEAD_IN_NOTE,
    *READ_AS_NOTES,
    ENDING_NOTE,
)
_FENCE_OPEN = re.compile(r"^\s*(?:```+|~~~+)[\w+#.-]*\s*$")
_FENCE_CLOSE = re.compile(r"^\s*(?:```+|~~~+)\s*$")
_ENTITY = re.compile(r"&(?:[A-Za-z][A-Za-z0-9]{1,31}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});")
#: a Markdown blockquote's mark at a line's start ("> code"), with the space after it
_QUOTE_MARK = re.compile(r"^[ \t]*> ?")
#: a Markdown backslash escape of ASCII punctuation (``\[``, ``\_``), as pandoc and word
#: processors' Markdown exports write brackets and underscores of code
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))
#: a typeset text's ligatures (PDF copies: "ﬁ" for "fi") and its minus signs and hyphens
_LIGATURES = str.maketrans({"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬆ": "st"})
_HYPHENS = str.maketrans(dict.fromkeys("\u2010\u2011\u2012\u2212", "-"))
#: what editors that format as you type (Notion, Typora, word processors' autocorrect) make of
#: code's arrows and comparisons: "p->next" becomes "p→next"
_SIGNS = str.maketrans({"→": "->", "⇒": "=>", "←": "<-", "≥": ">=", "≤": "<=", "≠": "!="})


def rendered_away(text: str) -> tuple[str, tuple[str, ...]] | None:
    """The quote without a fence, HTML entities and zero-width characters, and what of these
    it had; None when it had none."""
    said = []
    lines = text.split("\n")
    if len(lines) >= 2 and _FENCE_OPEN.match(lines[0]):
        lines = lines[1:-1] if _FENCE_CLOSE.match(lines[-1]) else lines[1:]
        said.append("a Markdown fence")
    elif lines and _FENCE_CLOSE.match(lines[-1]) and len(lines) >= 2:
        lines = lines[:-1]
        said.append("a Markdown fence")
    if any(line.strip() for line in lines) and all(
        _QUOTE_MARK.match(line) for line in lines if line.strip()
    ):
        lines = [_QUOTE_MARK.sub("", line, count=1) for line in lines]
        said.append("Markdown quote marks")
    text = "\n".join(lines)
    if _ENTITY.search(text):
        unescaped = html.unescape(text)
        if unescaped != text:
            text = unescaped
            said.append("HTML entities")
    if "\\" in text:
        unescaped = _ESCAPE.sub(r"\1", text)
        if unescaped != text:
            text = unescaped
            said.append("Markdown escapes")
    kept = text.translate(_ZERO_WIDTH)
    if kept != text:
        text = kept
        said.append("zero-width characters")
    for table, what in (
        (_LIGATURES, "ligatures"),
        (_HYPHENS, "typeset hyphens or minus signs"),
        (_SIGNS, "typographic arrows or signs (→ for ->)"),
    ):
        kept = text.translate(table)
        if kept != text:
            text = kept
            said.append(what)
    if not said or not text.strip():
        return None
    return text, tuple(said)


#: what typography made of hyphens, each way a writer's tool does it: pandoc and SmartyPants'
#: old school (-- en, --- em), SmartyPants and Word (-- em), Word's " - " (en); first found wins
_DASHES = (
    ("--", "---"),
    ("-", "--"),
    ("--", "--"),
    ("-", "-"),
)


def undashed(text: str) -> list[tuple[str, str]]:
    """The text with its en and em dashes read back as the hyphens typography made them of, one
    reading for each way of making them (`_DASHES`), each with what it read them as."""
    if "\u2013" not in text and "\u2014" not in text:
        return []
    readings: dict[str, str] = {}
    for en, em in _DASHES:
        fixed = text.replace("\u2013", en).replace("\u2014", em)
        said = [f"{dash} as {hyphens}" for dash, hyphens in (("–", en), ("—", em)) if dash in text]
        readings.setdefault(fixed, ", ".join(said))
    return list(readings.items())


#: a unified diff's hunk header, as copied with a hunk
_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@")


def diff_sides(text: str) -> list[tuple[str, str]]:
    """A quote copied from a unified diff (a pull request's, `git diff`'s: each line marked
    ``+``, ``-`` or `` ``): its lines after the change, then before it, marks taken off, each
    with what it is; none when its lines are not all so marked, or none is ``+`` or ``-``."""
    lines = [line for line in text.split("\n") if not _HUNK.match(line)]
    marks = {line[0] for line in lines if line.strip()}
    if not marks <= {"+", "-", " "} or not marks & {"+", "-"}:
        return []
    sides = []
    for mark, side in (("+", "after"), ("-", "before")):
        kept = [line[1:] for line in lines if line[:1] in (mark, " ", "")]
        if any(line.strip() for line in kept):
            sides.append(("\n".join(kept), f"quoted from a diff: its lines {side} the change"))
    return sides


def rescue(quote: Quote, view: FileView, notes: Sequence[str]) -> Anchor | None:
    """The anchor of a quote that is not in its cited file (read, as ``view``) as written, found
    once what rendering added is taken off (typographic dashes read back as hyphens among it,
    a diff's marks), or as an elided or numbered quote; None else."""
    cleaned = rendered_away(quote.text)
    attempt = quote
    text, what = cleaned if cleaned is not None else (quote.text, ())
    taken = f"{' and '.join(what)} taken off" if what else ""
    readings = [(text, taken)] if what else []
    for reading, dashes in undashed(text):
        read = f"typographic dashes read back as hyphens ({dashes})"
        readings.append((reading, f"{taken}; {read}" if taken else read))
    for reading, side in diff_sides(text):
        readings.append((reading, f"{taken}; {side}" if taken else side))
    for reading, how in readings:
        found = find_verified(quote_forms(reading), view, quote.claimed)
        if found.tier.verified and found.spans:
            lines, range_ok = choose(found.spans, quote.claimed)
            said = f"{RENDERED_NOTE} {how}"
            return not_verbatim(quote, lines, tuple(sorted(found.spans)), range_ok, said, notes)
    said = f"{RENDERED_NOTE} {taken}"
    if cleaned is not None:
        attempt = quote._replace(text=text)
    anchor = elided_anchor(attempt, view, notes) or numbered_anchor(attempt, view, notes)
    if anchor is None or cleaned is None:
        return anchor
    return anchor._replace(quote=quote, notes=(*anchor.notes, said))


def rescue_notes(anchor: Anchor) -> list[str]:
    """The notes saying what was taken off a quote to find it (none for a quote found as
    written): what `assay check`'s text and the diff view show under it."""
    return [note for note in anchor.notes if note.startswith(RESCUE_NOTES)]
