"""Read evidence reports: text in, a Report with records, quotes, citations and diagnostics out.

The format (see ../shared/reports and docs/bundle-format.md) is plain text: a title line, a
``Type:`` line, an account with titled narrative subsections, then "Shared records" with one
section per record kind, then "Annotations" (``On RT-...`` paragraphs). Quotes end in
``--- path[:a-b]``. The parser works line by line in one pass per stage (the outline, then the
contents of each record), so its cost is linear in the size of the report, and it never raises
on text: whatever it cannot make sense of becomes a Diagnostic with a report line number.
"""

from __future__ import annotations

import os

from evidence.git.blobs import eight_bit
from evidence.model import Diagnostic, Kind, Record, Report, RevisionMention
from evidence.reports.contents import read_contents
from evidence.reports.files import split_lines
from evidence.reports.outline import read_outline
from evidence.reports.revisions import abbreviated_revisions, tagged_revisions
from evidence.reports.vocabulary import system_from_title

__all__ = ["decode", "parse_report"]


def _utf16_order(data: bytes) -> str | None:
    """The byte order of UTF-16 text written without a byte-order mark (mostly ASCII, so every
    other byte is zero), as some Windows tools save; None for anything else."""
    head = data[:4096]
    if len(head) < 8 or b"\x00" not in head:
        return None
    even, odd = head[0::2].count(0), head[1::2].count(0)
    half = len(head) // 2
    if odd > 0.4 * half and even < 0.05 * half:
        return "utf-16-le"
    if even > 0.4 * half and odd < 0.05 * half:
        return "utf-16-be"
    return None


def decode(data: str | bytes) -> tuple[str, list[Diagnostic]]:
    """Text of the report and what was odd about its encoding."""
    diagnostics: list[Diagnostic] = []
    if isinstance(data, str):
        text = data
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = data.decode("utf-16", errors="replace")
        diagnostics.append(Diagnostic(1, "report is UTF-16; decoded it"))
    elif (order := _utf16_order(data)) is not None:
        text = data.decode(order, errors="replace")
        diagnostics.append(Diagnostic(1, "report is UTF-16 without a byte-order mark; decoded it"))
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            before = data[: error.start]
            # count line ends the way split_lines does: CRLF, LF, lone CR and CR CR LF
            ends = before.count(b"\n") + before.count(b"\r") - before.count(b"\r\n")
            line = ends - before.count(b"\r\r\n") + 1
            text = data.decode("utf-8", errors="replace")
            older = eight_bit(data, text)  # as a source file is read (evidence/git/blobs.py)
            if older is not None:
                text = older[0]
                diagnostics.append(Diagnostic(1, f"report is not UTF-8; read as {older[1]}"))
            else:
                # every line that holds one: a report in another encoding loses its quotes and
                # paths on each, not only on the first
                bad = sum("\ufffd" in each for each in split_lines(text))
                more = f" (and on {bad - 1} more lines)" if bad > 1 else ""
                diagnostics.append(
                    Diagnostic(
                        line,
                        "invalid UTF-8 bytes decoded with replacement characters (U+FFFD)" + more,
                    )
                )
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, diagnostics


def _without_margin(lines: list[str]) -> list[str]:
    """The lines less the indentation every non-blank one shares: a report pasted or exported
    with a left margin is read as written flush (its structure at column 0, quotes past it)."""
    margins = [line[: len(line) - len(line.lstrip())] for line in lines if line.strip()]
    margin = os.path.commonprefix(margins) if margins else ""
    if not margin:
        return lines
    # every non-blank line starts with the margin; a blank one holding no more than it is empty
    # (left as spaces, it read as a quoted block's own blank line, kept indented)
    return [line[len(margin) :] if line.startswith(margin) else "" for line in lines]


def parse_report(text: str | bytes, file: str) -> Report:
    """Parse one report's text (or bytes); never raises, oddities become diagnostics."""
    decoded, diagnostics = decode(text)
    if decoded[:1024].lstrip("\ufeff \t\r\n")[:1] == "<":  # a wiki's export? its reader then
        from evidence.reports.html_text import html_text, looks_like_html

        if looks_like_html(decoded):  # the text its page shows
            decoded = html_text(decoded)
            said = "an HTML document: read as the text its page shows (lines are its text's)"
            diagnostics.append(Diagnostic(1, said))
    lines = _without_margin(split_lines(decoded))
    outline = read_outline(lines)
    diagnostics.extend(outline.diagnostics)

    records: list[Record] = []
    revisions: list[RevisionMention] = []
    ids: set[str] = set()
    folded: dict[str, str] = {}  # each declared id in lower case: the first written so
    annotation_counts: dict[str, int] = {}
    for block in outline.blocks:
        if block.kind is Kind.ANNOTATION and block.annotates is not None:
            count = annotation_counts.get(block.annotates, 0) + 1
            annotation_counts[block.annotates] = count
            block.id = f"On {block.annotates}" + ("" if count == 1 else f" ({count})")
        elif block.kind is not Kind.NARRATIVE:
            line = (block.header or 0) + 1
            first = folded.setdefault(block.id.lower(), block.id)
            if block.id in ids:
                diagnostics.append(Diagnostic(line, f"{block.id} is declared twice"))
            elif first != block.id:  # references name ids as written: neither would match
                said = f"{block.id} differs from {first} only in case: two records, or one?"
                diagnostics.append(Diagnostic(line, said))
        ids.add(block.id)
        found = read_contents(lines, block, diagnostics)
        revisions.extend(found.revisions)
        records.append(
            Record(
                id=block.id,
                kind=block.kind,
                label=found.label or block.label,
                body=found.body,
                report=file,
                section=block.section,
                lines=found.lines,
                fields=tuple(found.fields),
                statuses=tuple(found.statuses),
                quotes=tuple(found.quotes),
                citations=tuple(found.citations),
                references=tuple(found.references),
                searches=tuple(found.searches),
                annotates=block.annotates,
            )
        )
    if not revisions:  # none named in full: the abbreviated ones (ReportSet.revision_ids)
        revisions.extend(abbreviated_revisions(lines))
    if not revisions:  # no commit id at all: a tag the report names
        revisions.extend(tagged_revisions(lines))
    diagnostics.sort(key=lambda diagnostic: diagnostic.line)
    return Report(
        file=file,
        title=outline.title,
        type_line=outline.type_line,
        system=system_from_title(outline.title),
        revisions=tuple(revisions),
        records=tuple(records),
        diagnostics=tuple(diagnostics),
    )
