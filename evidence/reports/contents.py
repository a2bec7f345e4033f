"""The contents of one record: label, body, fields, statuses, quotes, citations, references,
search commands (searches.py) and revision mentions, read from the lines of its block.
"""

from __future__ import annotations

import re

from evidence.model import Citation, Diagnostic, Kind, Quote, RevisionMention, SearchReplay
from evidence.reports.blocks import code_above, fence_above, fenced_lines, paragraph_break
from evidence.reports.citing import citations_in
from evidence.reports.fenced import named_fences, named_indented
from evidence.reports.inline_refs import inline_references
from evidence.reports.markers import marker, may_hold_marker, typographic, wrapped_marker
from evidence.reports.mentions import mentions_in
from evidence.reports.outline import Block
from evidence.reports.revisions import sentence_around
from evidence.reports.searches import searches_in
from evidence.reports.vocabulary import (
    BULLET_RE,
    FIELD_RE,
    ID_HINTS,
    ID_RE,
    LABEL_RE,
    SHA_RE,
    STATUS_RE,
    is_path_like,
    marker_token,
    split_claimed,
    undecorated,
)

#: the end of a path with spaces left unquoted: a file extension, maybe a claimed range
_SPACED_PATH = re.compile(r"\S\.[A-Za-z][\w-]{0,9}(?::L?\d+(?:[-–]L?\d+)?)?$")


#: what a diagnostic of a code-like paragraph no ``--- path`` attributes says (the app shows it)
UNATTRIBUTED = "unattributed passage: not checked (code with no '--- path' after it)"
#: what a diagnostic of a fenced block of code that names no file and has no marker says
UNNAMED_FENCE = (
    "fenced code naming no file, with no '--- path' after it: not checked (name its file in "
    "its fence or on the line above it, or end it with '--- src/a.py')"
)
#: marks of code, each counted once per paragraph: a call, braces, a semicolon, an operator
#: prose does not use, an assignment, a statement's end
_CODE_MARKS = tuple(
    re.compile(pattern)
    for pattern in (r"\w\(", r"[{}]", r";", r"=>|===|!==|==|!=|&&|\|\|", r"\w\s=\s", r"\)\s*;")
)
_CODE_START = re.compile(
    r"(?:const|let|var|def|return|import|function|class|async|await|export|if \(|for \(|"
    r"while \(|SELECT|INSERT|UPDATE|CREATE TABLE|"
    # Python's, Go's and Rust's, lower case as code has them (a sentence starts in upper case)
    r"if|elif|for|while|with|raise|assert|func|fn|pub fn|impl|match)\s|(?:try|else|finally):"
)


def _code_like(text: str) -> bool:
    """A paragraph that reads as code, not prose: it ends without a sentence's punctuation and
    starts like a statement or carries at least two kinds of code marks."""
    if text.rstrip(")\"'`]").endswith((".", "?", "!", ":")) or BULLET_RE.match(text):
        return False
    if _CODE_START.match(text):
        return True
    return sum(1 for mark in _CODE_MARKS if mark.search(text)) >= 2


#: what a quote's line that goes on with the sentence of the line above says
_CONTINUED = (
    "the quote of {path} goes on with the sentence of the line above: only its own line is "
    "checked (join the two, or part them with a blank line)"
)


def _continues(lines: list[str], first: int, index: int, taken: set[int]) -> bool:
    """The line holding an inline quote starts in lower case after a line of prose that ends
    mid-sentence: a quote wrapped at the report's width, whose first part is read as prose."""
    above = index - 1
    if above < first or above in taken or not lines[index][:1].islower():
        return False
    prior = lines[above].rstrip()
    if not prior or marker(prior) is not None or LABEL_RE.match(prior):
        return False
    if STATUS_RE.match(prior) or FIELD_RE.match(prior) or BULLET_RE.match(prior.lstrip()):
        return False
    return prior[-1:].isalpha() or prior.endswith(",")


#: what a diagnostic of a code paragraph read with the path of the quote right after it says
INFERRED = "passage with no '--- path' of its own, just above a quote of {path}: checked there"


def _inferred(
    lines: list[str],
    first: int,
    quotes: list[Quote],
    taken: set[int],
    diagnostics: list[Diagnostic],
) -> list[Quote]:
    """The quotes with, before each, the code paragraphs just above it (one empty line between)
    that no marker took, each read as a quote of its path (a quoted block with an empty line
    in it, written as two paragraphs and one ``--- path``), numbered in the record's order."""
    found: list[Quote] = []
    for quote in quotes:
        above: list[Quote] = []
        start = quote.text_line - 1  # 0-based first line of the quote's text
        while True:
            gap = start - 1
            if gap <= first or lines[gap].strip() or not paragraph_break(lines[gap]):
                break  # not exactly one empty line above
            end = gap  # the paragraph above ends on the line before the gap
            top = end - 1
            while top >= first and lines[top].strip() and top not in taken:
                if marker(lines[top]) is not None or STATUS_RE.match(lines[top]):
                    break
                top -= 1
            paragraph = lines[top + 1 : end]
            text = " ".join(line.strip() for line in paragraph)
            if not paragraph or top + 1 in taken or " --- " in text or not _code_like(text):
                break
            if top >= first and lines[top].strip():
                break  # it goes on above into something else: not a paragraph of its own
            taken.update(range(top + 1, end))
            diagnostics.append(Diagnostic(top + 2, INFERRED.format(path=quote.path)))
            above.insert(
                0,
                quote._replace(  # its report line its own last: it has no marker
                    text="\n".join(paragraph),
                    claimed=None,
                    report_line=end,
                    text_line=top + 2,
                    inline=False,
                ),
            )
            start = top + 1
        found += [*above, quote]
    if len(found) == len(quotes):
        return quotes  # none inferred (nearly always): numbered as they are
    return [quote._replace(index=n) for n, quote in enumerate(found)]


def _unattributed(
    lines: list[str], first: int, end: int, skipped: set[int], diagnostics: list[Diagnostic]
) -> None:
    """A diagnostic for each code-like paragraph that no quote marker took."""
    start: int | None = None
    for index in range(first, end + 1):
        inside = index < end and index not in skipped and bool(lines[index].strip())
        if inside and start is None:
            start = index
        elif not inside and start is not None:
            text = " ".join(line.strip() for line in lines[start:index])
            # a broken `--- ...` marker has its own diagnostic
            if " --- " not in text and not STATUS_RE.match(lines[start]) and _code_like(text):
                diagnostics.append(Diagnostic(start + 1, UNATTRIBUTED))
            start = None


#: the lines after a citation's that its list may be wrapped onto
_WRAPPED_LINES = 3


def _following(lines: list[str], index: int, end: int, taken: set[int]) -> str:
    """The lines of the paragraph after ``index`` (quoted ones left out), joined: where a
    citation list cut by a report's line wrapping goes on ("" after a line that ends a list)."""
    if lines[index].rstrip()[-1:] in ".)]":
        return ""
    after: list[str] = []
    for position in range(index + 1, min(end, index + 1 + _WRAPPED_LINES)):
        if position in taken or not lines[position].strip():
            break
        after.append(lines[position].strip())
    return " ".join(after)


class Contents:
    """What a record's lines hold, gathered as they are read."""

    __slots__ = (
        "body",
        "citations",
        "fields",
        "label",
        "lines",
        "quotes",
        "references",
        "revisions",
        "searches",
        "statuses",
    )

    def __init__(self) -> None:
        self.label = ""
        self.body = ""
        self.lines: tuple[int, int] = (0, 0)
        self.fields: list[tuple[str, str]] = []
        self.statuses: list[tuple[str, str]] = []
        self.quotes: list[Quote] = []
        self.citations: list[Citation] = []
        self.references: list[str] = []
        self.searches: list[SearchReplay] = []
        self.revisions: list[RevisionMention] = []


def _quotes(
    lines: list[str], first: int, end: int, record_id: str, diagnostics: list[Diagnostic]
) -> tuple[list[Quote], set[int]]:
    """The record's quotes, and the lines that hold quoted text or a marker."""
    quotes: list[Quote] = []
    taken: set[int] = set()
    for index in range(first, end):
        line = lines[index]
        if not may_hold_marker(line):
            continue
        found = marker(line)
        wrapped = False
        if found is None and index + 1 < end and index + 1 not in taken:
            found = wrapped_marker(line, lines[index + 1])
            wrapped = found is not None
        if found is None and "---" not in line:
            prose = typographic(line)
            if prose is not None:
                diagnostics.append(
                    Diagnostic(
                        index + 1,
                        f"prose ending in '{line[prose[0]]} {prose[1][:60]}' (a '--- path' "
                        "marker a renderer made a dash?): not read as a quote",
                    )
                )
            continue
        if found is None:
            tail = line.rstrip()
            position = tail.rfind(" --- ")
            said = tail[position + 5 :] if position >= 0 else ""
            why = ""  # why the marker the line ends in is not read
            if said.startswith("|") and tail.lstrip().startswith("|"):
                why = ""  # a table's row: `| --- | --- |` under its header, no marker
            elif said and " " not in said:
                why = ", which does not look like a path"
            elif "/" in said and _SPACED_PATH.search(said):  # not lost without a word
                why = ': a path with spaces is read in quotes ("dir/a file.md":3)'
            elif said and is_path_like(split_claimed(marker_token(said.split()[0]))[0]):
                why = ", not a path and its lines as a marker gives them ('--- src/a.js:12-14')"
            if why:
                ends = f"line ends in '--- {said[:60]}'{why}"
                diagnostics.append(Diagnostic.unread_marker(index + 1, ends))
            continue
        position, token = found
        text_part = line[:position].rstrip(" \t")
        if not text_part.strip(" \t>"):  # also "> --- path" closing a block quote
            # a `--- path` line alone: the quote is the block above it, maybe past a blank line
            # and past the block's own trailing blank lines, kept indented as the block is
            above, gap = index - 1, 0
            while above >= first and not lines[above].strip():
                if paragraph_break(lines[above]):
                    gap += 1
                    if gap > 1:
                        break
                above -= 1
            block_end = above
            while above >= first and lines[above].strip() and above not in taken:
                if marker(lines[above]) is not None:
                    break
                above -= 1
            if block_end < first or above == block_end:
                diagnostics.append(Diagnostic(index + 1, "'--- path' marker with no quoted text"))
                taken.add(index)
                continue
            opening = fence_above(lines, block_end, first)
            if opening is not None and not taken.intersection(range(opening, block_end)):
                above = opening - 1  # the fenced block, blank lines and all, and no prose above
            else:
                above = code_above(lines, first, above, block_end, taken)
            text_lines = lines[above + 1 : block_end + 1]
            start = above + 1
            inline = False
        else:
            start = index
            if line[:1].isspace():
                while (
                    start - 1 >= first
                    and start - 1 not in taken
                    and lines[start - 1].strip()
                    and lines[start - 1][:1].isspace()
                    and marker(lines[start - 1]) is None
                    and not STATUS_RE.match(lines[start - 1])
                    and not FIELD_RE.match(lines[start - 1])
                ):
                    start -= 1
            else:  # a line of code wrapped at the report's width: its lines above too
                while (
                    start - 1 >= first
                    and start - 1 not in taken
                    and lines[start - 1].strip()
                    and marker(lines[start - 1]) is None
                    and not LABEL_RE.match(lines[start - 1])
                    and _code_like(lines[start - 1].strip())
                ):
                    start -= 1
            text_lines = [*lines[start:index], text_part]
            inline = start == index
            if inline and _continues(lines, first, index, taken):
                diagnostics.append(Diagnostic(index + 1, _CONTINUED.format(path=token)))
        path, claimed = split_claimed(token)
        if claimed is not None and (claimed[0] < 1 or claimed[1] < claimed[0]):
            diagnostics.append(
                Diagnostic(index + 1, f"odd line range {claimed[0]}-{claimed[1]} for {path}")
            )
        last = index + 1 if wrapped else index  # a wrapped marker's path is on the next line
        taken.update(range(start, last + 1))
        quotes.append(
            Quote(
                text="\n".join(text_lines),
                path=path,
                claimed=claimed,
                report_line=last + 1,
                text_line=start + 1,
                record=record_id,
                index=len(quotes),
                inline=inline,
            )
        )
    return quotes, taken


def read_contents(lines: list[str], block: Block, diagnostics: list[Diagnostic]) -> Contents:
    """Everything a record says, from its lines."""
    found = Contents()
    first = block.start + 1 if block.header is not None else block.start
    end = block.end
    while end > first and not lines[end - 1].strip():
        end -= 1
    while first < end and not lines[first].strip():
        first += 1
    header_line = (block.header if block.header is not None else first) + 1
    found.lines = (header_line, max(end, header_line))

    label_index = -1
    if block.kind not in (Kind.NARRATIVE, Kind.ANNOTATION):
        for index in range(first, end):
            match = LABEL_RE.match(lines[index])
            if match and label_index >= 0:  # two records as one: an id line not read as one
                diagnostics.append(
                    Diagnostic(
                        index + 1,
                        f"a second 'Label:' in {block.id}: is a record id above it not written"
                        " as one (alone on its line, letters, digits and dashes)?",
                    )
                )
                break
            if match:
                found.label, label_index = undecorated(match.group(1)), index
        if label_index < 0 and not block.label:  # a heading may name it: "### RT-X: Label"
            diagnostics.append(Diagnostic(header_line, f"{block.id} has no 'Label:' line"))
    body = [lines[index] for index in range(first, end) if index != label_index]
    while body and not body[0].strip():
        body.pop(0)
    found.body = "\n".join(body)

    found.quotes, taken = _quotes(lines, first, end, block.id, diagnostics)
    found.quotes = _inferred(lines, first, found.quotes, taken, diagnostics)
    unnamed: list[int] = []
    named = named_fences(lines, first, end, taken, block.id, unnamed)
    named += named_indented(lines, first, end, taken, block.id)
    for opening in unnamed:
        diagnostics.append(Diagnostic(opening + 1, UNNAMED_FENCE))
    spans, prose = inline_references(lines, first, end, taken, block.id)
    if named or spans:  # blocks that name their file, code spans, in the record's order
        ordered = sorted([*found.quotes, *named, *spans], key=lambda quote: quote.text_line)
        found.quotes = [quote._replace(index=n) for n, quote in enumerate(ordered)]
    _unattributed(lines, first, end, taken | prose | {label_index}, diagnostics)
    seen: set[str] = {block.id}
    quoted = {quote.path for quote in found.quotes}  # a file the record quotes: checked there
    # code in a fence names no file the record rests on (a fenced `import a/b.js` is code)
    fenced = {first + at for at in fenced_lines(lines[first:end])}
    for index in range(first, end):
        if index in taken or index == label_index:
            continue
        line = lines[index]
        if not line.strip():
            continue
        number = index + 1
        status = STATUS_RE.match(line) if "tatus" in line or "TATUS" in line else None
        if status:
            value = undecorated(status.group("value").rstrip("."))
            found.statuses.append((status.group("key").strip().lower(), value))
        elif line[:1] in " \t•*-":
            field_match = FIELD_RE.match(line)
            if field_match:
                found.fields.append((field_match.group("key"), field_match.group("value")))
        cited: list[Citation] = []
        if "SRC-" in line:
            following = _following(lines, index, end, taken)
            cited = list(citations_in(line, number, following, diagnostics))
            found.citations += cited
        if ("`" in line or "/" in line) and index not in fenced:
            # a file the record quotes is checked there; one a citation names, cited
            known = quoted | {split_claimed(path)[0] for c in cited for path in c.paths}
            files = [path for path in mentions_in(line) if split_claimed(path)[0] not in known]
            if files:
                found.citations.append(Citation("", tuple(files), number))
        if any(hint in line for hint in ID_HINTS):
            for reference in ID_RE.findall(line):
                if reference not in seen:
                    seen.add(reference)
                    found.references.append(reference)
        if "grep" in line or "rg" in line:
            found.searches += [
                replay._replace(line=number, record=block.id) for replay in searches_in(line)
            ]
        for sha in SHA_RE.finditer(line):
            sentence = sentence_around(line, sha.start(), sha.end())
            found.revisions.append(RevisionMention(sha.group().lower(), sentence, number))
    return found
