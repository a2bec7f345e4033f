"""A Markdown document read as it renders, line for line (see read_as.py).

What a reader copies from a rendered page has a link's text but not its target (a reference
link's too, ``[text]`` where the document defines ``[text]: target``), a footnote's text where it
is written, no HTML tags, no table bars, no list, heading or blockquote marks and no backslash
escapes: such a quote is in no line of the file as written. Code (fenced blocks, `code spans`)
is left as written; a line of the file stays one line, so that the lines found are the file's
own.
"""

from __future__ import annotations

import html
import re

__all__ = ["MARKDOWN_NOTE", "markdown_text"]

#: how the note of a quote found in a Markdown document read as it renders starts
MARKDOWN_NOTE = "markdown:"
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# [text](target "title") and ![alt](src): the text; a target may hold one level of brackets
_LINK = re.compile(
    r"!?\[([^\[\]\n]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+(?:\"[^\"\n]*\"|'[^'\n]*'))?\s*\)"
)
_REFERENCE = re.compile(r"!?\[([^\[\]\n]+)\]\[[^\[\]\n]*\]")  # [text][label]
_AUTOLINK = re.compile(r"<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^<>\s]*|[^<>\s@]+@[^<>\s]+)>")
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>|<!--.*?-->")
_DEFINITION = re.compile(r"^ {0,3}\[([^\]\n]+)\]:\s*\S")  # [label]: target, not rendered
_FOOTNOTE = re.compile(r"^ {0,3}\[\^[^\]\n]+\]:\s*")  # [^1]: its text, at the page's end
# [label] alone, a link when the document defines the label (not [a](, [a][ or [a]:)
_SHORTCUT = re.compile(r"(?<![\]\\])(!?)\[([^\[\]\n]+)\](?![\[(:])")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)+\|?\s*$")
_BLOCK_MARKS = re.compile(r"^\s*(?:>\s?)*\s*(?:(?:#{1,6}|[-*+]|\d{1,9}[.)])(?=\s|$))?\s*")
_CLOSING_HASHES = re.compile(r"\s+#+\s*$")
# (what they enclose holds no underscore, nor tildes "~~": a search from each one stops at the
# next, so that a long line of them is read in one pass, not one per mark)
_UNDERSCORES = re.compile(r"(?<![\w\\])(_{1,2})(?=[^\s_])([^_\n]+?)(?<=\S)\1(?!\w)")
_STRUCK = re.compile(r"~~(?=[^\s~])((?:[^~\n]|~(?!~))+?)(?<=\S)~~")
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)")
_BAR = re.compile(r"(?<!\\)\|")


def markdown_text(text: str) -> str | None:
    """The document as it renders, each line where the file has it (a fence's own lines, link
    definitions and table rules blank); None when reading it so changes nothing."""
    read: list[str] = []
    labels = _labels(text) if "]:" in text else frozenset()
    fence = ""
    for line in text.split("\n"):
        opened = _FENCE.match(line)
        if fence:
            if (
                opened is not None
                and opened.group(1)[0] == fence[0]
                and len(opened.group(1)) >= len(fence)
            ):
                fence = ""
                line = ""
            read.append(line)
            continue
        if opened is not None:
            fence = opened.group(1)
            read.append("")
            continue
        read.append(_rendered(line, labels))
    rendered = "\n".join(read)
    return None if rendered == text else rendered


def _labels(text: str) -> frozenset[str]:
    """The link labels the document defines (``[label]: target``), as CommonMark matches them:
    case and runs of spaces aside."""
    found = (_DEFINITION.match(line) for line in text.split("\n"))
    labels = (_label(label.group(1)) for label in found if label is not None)
    return frozenset(label for label in labels if not label.startswith("^"))  # [^1]: a footnote


def _label(text: str) -> str:
    return " ".join(text.split()).casefold()


def _rendered(line: str, labels: frozenset[str] = frozenset()) -> str:
    """One line outside code blocks as it renders (``labels``: the link labels defined)."""
    footnote = _FOOTNOTE.match(line)
    if footnote is not None:
        line = line[footnote.end() :]
    elif _DEFINITION.match(line) or _TABLE_RULE.match(line):
        return ""
    marks = _BLOCK_MARKS.match(line)
    heading = marks is not None and "#" in marks.group(0)
    if marks is not None and marks.end():
        line = line[marks.end() :]
    if heading:
        line = _CLOSING_HASHES.sub("", line)
    table = line.lstrip().startswith("|")
    for _ in range(3):  # a link around an image: the inner one first; `code` as a link's text
        linked = _REFERENCE.sub(r"\1", _LINK.sub(r"\1", line))
        if labels and "[" in linked:
            linked = _SHORTCUT.sub(
                lambda ref: ref.group(2) if _label(ref.group(2)) in labels else ref.group(0),
                linked,
            )
        if linked == line:
            break
        line = linked
    # code spans are shown as written: only the text between them is read as Markdown
    parts: list[str] = []
    at = 0
    for span in _CODE_SPAN.finditer(line):
        parts.append(_inline(line[at : span.start()], table))
        parts.append(span.group(0))
        at = span.end()
    parts.append(_inline(line[at:], table))
    return "".join(parts)


def _inline(text: str, table: bool) -> str:
    text = _TAG.sub("", _AUTOLINK.sub(r"\1", text))
    text = _STRUCK.sub(r"\1", _UNDERSCORES.sub(r"\2", text))
    if table:
        text = _BAR.sub(" ", text)
    text = _ESCAPE.sub(r"\1", text)
    if "&" in text:
        text = " ".join(html.unescape(text).splitlines()) if text else text
    return text
