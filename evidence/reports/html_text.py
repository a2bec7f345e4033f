"""A report delivered as HTML (a wiki's or an editor's export, a rendered Markdown page saved)
read as the text its page shows: each block (paragraph, heading, list item, table row) a
paragraph of its own, a preformatted block's lines as written (indented as a code block is in
a plain report when blank lines part them: one quote still); tags left out, entities read as
their characters, the head, scripts and styles never shown. A paragraph that introduces the
code it quotes ("The gate reads: <code>...</code> --- a.py") is two: the code is marked. A
preformatted block no ``--- path`` follows is fenced, as the Markdown rendered to it was (its
caption may name its file). The parser then reads that text as any report's."""

from __future__ import annotations

import re
from html.parser import HTMLParser

__all__ = ["html_text", "looks_like_html"]

#: elements whose start or end ends a paragraph
_BLOCKS = frozenset(
    {
        "address",
        "article",
        "aside",
        "blockquote",
        "body",
        "dd",
        "details",
        "div",
        "dl",
        "dt",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hr",
        "li",
        "main",
        "nav",
        "ol",
        "p",
        "section",
        "summary",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "tr",
        "ul",
    }
)
#: elements whose content is never shown
_HIDDEN = frozenset({"head", "script", "style", "template", "noscript"})
_MARKER = re.compile(r"\s*(?:•|\d+\.)\s*")
_UNCLOSED = re.compile(r"<(?=[^<>]*(?:<|$))")
_OPENING = re.compile(
    r"<(?:!doctype\s+html|html|body|p|div|h[1-6]|pre|ul|ol|table|article|section)\b", re.I
)


def looks_like_html(text: str) -> bool:
    """The text is an HTML document or fragment: it starts with a tag of one."""
    head = text.lstrip("\ufeff \t\r\n")[:1024]
    return head.startswith("<") and _OPENING.match(head) is not None


def html_text(text: str) -> str:
    """The text an HTML document's page shows, a paragraph per block (see the module)."""
    reader = _Reader()
    # a '<' no '>' closes before the next '<' is text (a page shows it so); left to the parser,
    # each one is a tag it looks for the end of to the end of the document, again and again
    reader.feed(_UNCLOSED.sub("&lt;", text))
    reader.close()
    reader.end_paragraph()
    return "\n".join(_fenced(reader.lines, reader.blocks)).strip("\n") + "\n"


def _fenced(lines: list[str], blocks: list[tuple[int, int, list[str], str]]) -> list[str]:
    """The lines with each preformatted block that no ``--- path`` line follows fenced, as the
    Markdown it was rendered from had it (```` ```python ````): a caption above it or a comment
    on its first line may name its file (evidence/reports/fenced.py), or a note says it is
    not checked. One a marker follows stays as it is: the marker's quote."""
    out: list[str] = []
    at = 0
    for start, end, code, language in blocks:
        after = next((lines[n].strip() for n in range(end, len(lines)) if lines[n].strip()), "")
        if after.startswith(("---", "—", "–")):
            continue
        out += lines[at:start]
        out += [f"```{language}", *code, "```"]
        at = end
    return out + lines[at:]


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.words: list[str] = []  # the paragraph being read
        self.hidden = 0
        self.pre = 0
        self.lists: list[int] = []  # per open list: the next number (0: a bulleted list)
        #: where in the paragraph its inline code starts and ends (the first and last <code>)
        self.code: tuple[int, int] | None = None
        #: each preformatted block: its first line, the line after it, its lines, its language
        self.blocks: list[tuple[int, int, list[str], str]] = []
        self.language = ""  # the language a <pre>'s <code class="language-x"> names

    def end_paragraph(self) -> None:
        raw = "".join(self.words)
        if _MARKER.fullmatch(raw):  # a list item's mark, its text in a paragraph to come
            return
        self.words = []
        code = self.code
        self.code = None
        if (
            code is not None
            and raw[: code[0]].strip()
            and raw[code[1] :].lstrip().startswith("---")
        ):
            # the words before the code are the report's own: a paragraph of their own
            self.lines += [" ".join(raw[: code[0]].split()), ""]
            raw = raw[code[0] :]
        text = " ".join(raw.split())
        if text:
            self.lines += [text, ""]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN:
            self.hidden += 1
        elif tag == "pre":
            self.end_paragraph()
            self.pre += 1
            self.words = []
        elif tag == "br":
            if self.pre:
                self.words.append("\n")
            else:  # a line of its own: a quote's '--- path' after code, a wrapped line
                self.end_paragraph()
        elif tag in ("ul", "ol"):
            self.end_paragraph()
            self.lists.append(1 if tag == "ol" else 0)
        elif tag == "li":
            self.end_paragraph()
            if self.lists and self.lists[-1]:
                self.words.append(f"  {self.lists[-1]}. ")
                self.lists[-1] += 1
            else:
                self.words.append("  • ")
        elif tag in ("td", "th"):
            self.words.append(" ")
        elif tag == "code" and self.pre:
            classes = (dict(attrs).get("class") or "").split()
            named = [c.removeprefix("language-") for c in classes if c.startswith("language-")]
            self.language = named[0] if named and named[0].isidentifier() else self.language
        elif tag == "code" and not self.pre:
            at = len("".join(self.words))
            self.code = (self.code[0] if self.code else at, at)
        elif tag in _BLOCKS:
            self.end_paragraph()

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN:
            self.hidden = max(0, self.hidden - 1)
        elif tag == "pre" and self.pre:
            self.pre -= 1
            code = "".join(self.words).strip("\n").split("\n")
            self.words = []
            written = code
            if any(not line.strip() for line in code):  # one block all the same: indented
                code = [f"    {line}" if line.strip() else "" for line in code]
            at = len(self.lines)
            self.blocks.append((at, at + len(code), written, self.language))
            self.language = ""
            self.lines += [*code, ""]
        elif tag == "code" and not self.pre and self.code is not None:
            self.code = (self.code[0], len("".join(self.words)))
        elif tag in ("ul", "ol"):
            self.end_paragraph()
            if self.lists:
                self.lists.pop()
        elif tag in _BLOCKS and tag not in ("td", "th"):
            self.end_paragraph()

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.words.append(data)
