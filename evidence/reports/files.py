"""What every reader of report files shares: the error for an unreadable one, the suffixes a
directory's reports have, how their text is cut into lines, and what reads like a report.

Standard library only, so that loading (evidence/reports/loading.py), the
parser and the bundle reader can all import it without importing each other.
"""

from __future__ import annotations

__all__ = [
    "REPORT_SUFFIXES",
    "SARIF_SUFFIXES",
    "ReportError",
    "is_report_text",
    "is_sarif_name",
    "looks_like_sarif",
    "split_lines",
]


class ReportError(Exception):
    """A report path that cannot be read (the message names the path and the reason);
    ``empty``: the directories given that hold no reports (their folders may: a command can
    say which)."""

    def __init__(self, message: str, *, empty: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.empty = empty


#: file name endings that a directory's reports may have (each file's start says whether it is
#: one): plain text, Markdown's and reStructuredText's, AsciiDoc's, a bundle's, HTML's
REPORT_SUFFIXES = (
    *(".txt", ".text", ".md", ".markdown", ".mdown", ".mkd", ".mdx", ".rst", ".adoc", ".asciidoc"),
    *(".report", ".json", ".html", ".htm", ".xhtml"),
)
#: file name endings read as SARIF (evidence/sarif/) whatever their content
SARIF_SUFFIXES = (".sarif", ".sarif.gz", ".sarif.json")


def is_sarif_name(name: str) -> bool:
    """True for a file name that says it is SARIF (``.sarif``, ``.sarif.gz``, ``.sarif.json``)."""
    return name.lower().endswith(SARIF_SUFFIXES)


def looks_like_sarif(head: bytes) -> bool:
    """True when the start of a file is gzip data, or a JSON object with SARIF's ``runs`` (and
    its schema, version or a run's ``tool.driver``: bandit writes its version last), in UTF-8
    or in UTF-16 (PowerShell 5's ``>``)."""
    if head.startswith(b"\x1f\x8b"):
        return True
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in head[:4]:
        import json

        encoding = json.detect_encoding(head)  # as json_input reads it
        head = head.decode(encoding, "ignore").encode("utf-8", "ignore")
    stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if stripped[:1] != b"{":
        return False
    lowered = stripped[:4096].lower()
    if b"assay-bundle" in lowered:
        return False
    said = (b"sarif", b'"2.1.0"', b'"driver"')
    return b'"runs"' in lowered and any(word in lowered for word in said)


def split_lines(text: str) -> list[str]:
    """Lines without their ends; CRLF and lone CR count as line ends, nothing else does, and
    CR CR LF is one (CRLF converted again, by an editor and then git's autocrlf)."""
    if "\r" in text:
        text = text.replace("\r\r\n", "\n").replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def is_report_text(head: str) -> bool:
    """True when the start of a file reads like a report (title ending in 'report', or Type:)."""
    if head[:1024].lstrip("\ufeff \t\r\n")[:1] == "<":  # HTML, maybe: its reader only then
        from evidence.reports.html_text import html_text, looks_like_html

        if looks_like_html(head):
            head = html_text(head)
    lines = [line.strip() for line in split_lines(head.lstrip("\ufeff"))[:20]]
    nonblank = [line for line in lines if line]
    if not nonblank:
        return False
    return nonblank[0].lower().endswith(" report") or any(_type_line(line) for line in nonblank)


def _type_line(line: str) -> bool:
    """``Type: …``, or ``**Type:** …`` as Markdown writes it."""
    bare = line.lstrip("*_")
    return bare.startswith("Type") and bare[4:].lstrip("*_").startswith(":")
