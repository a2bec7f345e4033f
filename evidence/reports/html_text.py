"""A report delivered as HTML (a wiki's or an editor's export, a rendered Markdown page saved)
read as the text its page shows: each block (paragraph, heading, list item, table row) a
paragraph of its own, a preformatted block's lines as written (indented as a code block is in
a plain report when blank lines part them: one quote still); tags left out, entities read as
their characters, the head, scripts and styles never shown. A paragraph that introduces the
code it quotes ("The gate reads: <code>...</code> --- a.py") is two: the code is marked. A
preformatted block no ``--- path`` follows is fenced, as the Markdown rendered to it was (its
caption may name its file). Inline code in a paragraph no marker ends is in backticks, and a
table's rows are a Markdown table's, as the Markdown rendered to them had them: the code a
sentence or a row says the file of is a quote of it (inline_refs.py). The parser then reads
that text as any report's."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from evidence.reports.markers import marker

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
#: blocks a table's cell may hold (a wiki's export puts a <p> in each): words of the row
_IN_CELL = frozenset({"p", "div", "br", "h1", "h2", "h3", "h4", "h5", "h6"})
#: elements whose content is never shown
_HIDDEN = frozenset({"head", "script", "style", "template", "noscript"})
_MARKER = re.compile(r"\s*(?:•|\d+\.)\s*")
#: links no Markdown link is written for: within the page, mail, scripts
_NOT_LINKED = ("#", "mailto:", "javascript:", "data:")
_UNLINKABLE = re.compile(r"[\s()<>\[\]]")
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
        #: each inline code's start and end in the paragraph (backticked when no marker ends it)
        self.spans: list[tuple[int, int]] = []
        #: each link's start, end and where it goes (a Markdown link when no marker ends it)
        self.links: list[tuple[int, int, str]] = []
        self.link: tuple[int, str] | None = None  # the link open: where it starts, its href
        #: in a table's row: where each cell starts in it, and whether one is a heading's (<th>)
        self.cells: list[int] | None = None
        self.heading = False
        self.rows = 0  # the rows of the table read so far (0: the next one is its first)

    def end_paragraph(self) -> None:
        raw = "".join(self.words)
        if _MARKER.fullmatch(raw):  # a list item's mark, its text in a paragraph to come
            return
        self.words = []
        code, spans, links = self.code, self.spans, self.links
        self.code, self.spans, self.links, self.link = None, [], [], None
        if (
            code is not None
            and raw[: code[0]].strip()
            and raw[code[1] :].lstrip().startswith("---")
        ):
            # the words before the code are the report's own: a paragraph of their own
            self.lines += [" ".join(raw[: code[0]].split()), ""]
            raw = raw[code[0] :]
        elif (spans or links) and marker(" ".join(raw.split())) is None:
            raw = _marked(raw, spans, links)
        text = " ".join(raw.split())
        if text:
            self.lines += [text, ""]

    def end_row(self) -> None:
        """A table's row as a Markdown table's (its first with the delimiter after it, under an
        empty heading when it is no heading); one whose cell ends in a marker as a paragraph."""
        raw, starts, spans, links = "".join(self.words), self.cells or [0], self.spans, self.links
        self.words, self.spans, self.links, self.code, self.cells = [], [], [], None, None
        self.link = None
        ends = [*starts[1:], len(raw)]
        cells = [" ".join(raw[a:b].split()) for a, b in zip(starts, ends, strict=True)]
        if any(marker(cell) is not None for cell in cells):
            text = " ".join(" ".join(cells).split())
            self.lines += [text, ""] if text else []
            self.rows = 0  # the rows after it: a table of their own
            return
        for at, (a, b) in enumerate(zip(starts, ends, strict=True)):
            inside = [(x - a, y - a) for x, y in spans if a <= x and y <= b]
            linked = [(x - a, y - a, href) for x, y, href in links if a <= x and y <= b]
            text = _marked(raw[a:b], inside, linked) if inside or linked else raw[a:b]
            cells[at] = " ".join(text.replace("|", "\\|").split())
        if not any(cells):
            return
        row = "| " + " | ".join(cells) + " |"
        if self.lines and self.lines[-1] == "" and self.rows:
            self.lines.pop()  # rows follow each other, no blank line between
        delimiter = "|" + "---|" * len(cells)
        if self.rows:
            self.lines += [row, ""]
        elif self.heading:
            self.lines += [row, delimiter, ""]
        else:
            self.lines += ["|" + " |" * len(cells), delimiter, row, ""]
        self.rows += 1

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN:
            self.hidden += 1
        elif tag == "pre":
            self.end_paragraph()
            self.pre += 1
            self.words = []
        elif tag == "br" or (self.cells is not None and tag in _IN_CELL):
            if self.pre:
                self.words.append("\n")
            elif self.cells is not None:  # a cell's paragraphs and lines: one row still
                self.words.append(" ")
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
        elif tag == "tr":
            self.end_paragraph()
            self.cells, self.heading = [], False
        elif tag in ("td", "th") and self.cells is not None:
            self.words.append(" ")
            self.cells.append(len("".join(self.words)))
            self.heading = self.heading or tag == "th"
        elif tag in ("td", "th"):
            self.words.append(" ")
        elif tag == "code" and self.pre:
            classes = (dict(attrs).get("class") or "").split()
            named = [c.removeprefix("language-") for c in classes if c.startswith("language-")]
            self.language = named[0] if named and named[0].isidentifier() else self.language
        elif tag == "code" and not self.pre:
            at = len("".join(self.words))
            self.code = (self.code[0] if self.code else at, at)
        elif tag == "a" and not self.pre:
            href = (dict(attrs).get("href") or "").strip()
            linked = href and not href.startswith(_NOT_LINKED) and not _UNLINKABLE.search(href)
            self.link = (len("".join(self.words)), href) if linked else None
        elif tag == "table":
            self.end_paragraph()
            self.rows = 0
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
            end = len("".join(self.words))
            self.spans.append((self.code[1], end))
            self.code = (self.code[0], end)
        elif tag == "a" and self.link is not None:
            start, href = self.link
            end = len("".join(self.words))
            if "".join(self.words)[start:end].strip() not in ("", href):  # an autolink: its URL
                self.links.append((start, end, href))
            self.link = None
        elif tag == "tr" and self.cells is not None:
            self.end_row()
        elif tag in ("ul", "ol"):
            self.end_paragraph()
            if self.lists:
                self.lists.pop()
        elif tag in _BLOCKS and tag not in ("td", "th", "tr"):
            if self.cells is not None and tag in _IN_CELL:
                self.words.append(" ")
            else:
                self.end_paragraph()

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.words.append(data)


def _marked(raw: str, spans: list[tuple[int, int]], links: list[tuple[int, int, str]]) -> str:
    """The paragraph as the Markdown rendered to it: each inline code span in backticks (more
    of them than it holds), each link ``[text](href)``."""
    inserted: list[tuple[int, int, str]] = []  # where, in which order at one place, what
    for start, end in spans:
        code = raw[start:end]
        if not code.strip():
            continue
        ticks = "`" * (max((len(run) for run in re.findall(r"`+", code)), default=0) + 1)
        pad = " " if len(ticks) > 1 else ""
        inserted += [(start, 1, ticks + pad), (end, 2, pad + ticks)]
    for start, end, href in links:
        inserted += [(start, 0, "["), (end, 3, f"]({href})")]
    out: list[str] = []
    at = 0
    for where, _, text in sorted(inserted):
        out += [raw[at:where], text]
        at = where
    return "".join([*out, raw[at:]])
