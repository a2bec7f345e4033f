"""Read evidence reports: text in, a Report with records, quotes, citations and diagnostics out.

The format (see ../shared/reports and docs/bundle-format.md) is plain text: a title line, a
``Type:`` line, an account with titled narrative subsections, then "Shared records" with one
section per record kind, then "Annotations" (``On RT-...`` paragraphs). Quotes end in
``--- path[:a-b]``. The parser works line by line in one pass per stage, so its cost is linear in
the size of the report, and it never raises on text: whatever it cannot make sense of becomes a
Diagnostic with a report line number.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from enum import Enum

from evidence.loading import (
    REPORT_SUFFIXES,
    ReportError,
    cross_check,
    is_report_text,
    load_reports,
)
from evidence.loading import split_lines as _split_lines
from evidence.model import (
    Citation,
    Diagnostic,
    Kind,
    Quote,
    Record,
    Report,
    RevisionMention,
    SearchReplay,
)

# Loading (finding and reading report files, the cache, cross-checking) lives in
# evidence/loading.py, which imports this module only to parse; its names stay importable here.
__all__ = [
    "REPORT_SUFFIXES",
    "ReportError",
    "cross_check",
    "is_report_text",
    "load_reports",
    "parse_report",
    "slugify",
]


# --- vocabulary of the format -----------------------------------------------------------------

# Record ids are <system prefix>-<kind code>-<name>: RT-RTE-chat-tools, KS-CLM-append-only.
# A line holding only such an id declares a record, whatever the kind code; in running text only
# ids with a known kind code (or the RT- prefix) count as references, so that header names such
# as X-API-Key are not taken for ids.
_NAME = r"[A-Za-z0-9]+(?:[-_.][A-Za-z0-9]+)*"
_ID = rf"[A-Z][A-Z0-9]*-[A-Z]{{2,}}-{_NAME}|RT-[A-Za-z]+-{_NAME}"
_ID_RE = re.compile(
    rf"(?<![\w-])(?:[A-Z][A-Z0-9]*-(?:CMP|OBJ|RTE|CLM|ABS|BAP)-{_NAME}|RT-[A-Za-z]+-{_NAME})"
)
#: substrings one of which every id that _ID_RE finds contains (a cheap test before the regex)
_ID_HINTS = ("RT-", "-CMP-", "-OBJ-", "-RTE-", "-CLM-", "-ABS-", "-BAP-")
_ID_FULL_RE = re.compile(rf"^(?:{_ID})$")
_HEADER_RE = re.compile(rf"^({_ID}):?$")
_ON_RE = re.compile(rf"^On ({_ID})[.:]?$")
_TYPE_RE = re.compile(r"^Type:\s*(.*?)\s*$")
_LABEL_RE = re.compile(r"^Label:\s*(.*?)\s*$")
_STATUS_RE = re.compile(
    r"^\s*(?:[•*-]\s+)?(?P<key>[A-Za-z][A-Za-z -]*?)\s+conclusion status:\s*(?P<value>.*?)\s*$",
    re.IGNORECASE,
)
_FIELD_RE = re.compile(r"^\s*[•*-]\s+(?P<key>[^:\s][^:]{0,59}?):\s+(?P<value>.*?)\s*$")
_BULLET_RE = re.compile(r"^(?:\d+[.)]|[•*-])\s")
_ACCOUNT_RE = re.compile(r"^\S.{0,60}\baccount$", re.IGNORECASE)
_SHA_RE = re.compile(r"(?<![0-9A-Za-z])[0-9a-fA-F]{40}(?![0-9A-Za-z])")
_CITE_RE = re.compile(r"(?<![\w-])(SRC-\d+)\s*[,:]\s*")
_ITEM_RE = re.compile(r"[^\s,;()\[\]]+")
_SEP_RE = re.compile(r"\s*,\s+and\s+|\s*,\s*|\s+and\s+")
_PATH_CHARS_RE = re.compile(r"^[\w@+~.-][\w@+~./-]*$")
_EXTENSION_RE = re.compile(r"[\w-]\.[A-Za-z0-9_-]*[A-Za-z][A-Za-z0-9_-]*$")
_RANGE_RE = re.compile(r"(?::(\d+)(?:\s*[-–]\s*(\d+))?|#L(\d+)(?:-L?(\d+))?)$")
_SEARCH_RE = re.compile(r"(?<![\w/.-])(git grep|rg|grep)(?=[ \t])")

#: headings under "Shared records" and the kind of record each one declares
KIND_HEADINGS: dict[str, Kind] = {
    "components": Kind.COMPONENT,
    "operative objects": Kind.OBJECT,
    "routes": Kind.ROUTE,
    "claims": Kind.CLAIM,
    "evidenced absences": Kind.ABSENCE,
    "behavioral-authority paths": Kind.AUTHORITY,
    "behavioral authority paths": Kind.AUTHORITY,
    "behavioural-authority paths": Kind.AUTHORITY,
}
#: the kind an id's middle part implies (RT-RTE-... is a route)
ID_PREFIX_KINDS: dict[str, Kind] = {
    "CMP": Kind.COMPONENT,
    "OBJ": Kind.OBJECT,
    "RTE": Kind.ROUTE,
    "CLM": Kind.CLAIM,
    "ABS": Kind.ABSENCE,
    "BAP": Kind.AUTHORITY,
}
_NONE_MARKERS = frozenset({"none declared in this member", "none declared in this member.", "none"})
#: evidence-layer words that share citation lists with paths but are not paths
_LAYER_WORDS = frozenset(
    {
        "implementation",
        "doctrine",
        "design",
        "doctrine/design",
        "documentation",
        "configuration",
        "execution",
        "observation",
        "test",
        "tests",
    }
)
#: well-known file names without an extension or a directory
_BARE_FILES = frozenset(
    {"Dockerfile", "Makefile", "Procfile", "Gemfile", "Rakefile", "Jenkinsfile", "Vagrantfile"}
    | {"LICENSE", "README", "CHANGELOG", "NOTICE", "AUTHORS", "CODEOWNERS", "Containerfile"}
)
#: rg/grep options that take a value as the next argument
_VALUE_FLAGS = frozenset(
    {"-g", "--glob", "-t", "--type", "-T", "--type-not", "-m", "--max-count", "-A", "-B", "-C"}
    | {"-f", "--file", "--include", "--exclude", "-M", "--max-columns", "-j", "--threads"}
)
_PATTERN_FLAGS = frozenset({"-e", "--regexp"})
_MAX_HEADING = 100


def slugify(text: str) -> str:
    """A lowercase ASCII slug of a heading (``Request and delegation`` -> ``request-and-...``)."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    return slug or "section"


def is_path_like(token: str) -> bool:
    """True for a token that reads as a repository path (``src/a.js``, ``au-mcp.md``, ...)."""
    if not token or not _PATH_CHARS_RE.match(token) or token in _LAYER_WORDS:
        return False
    if token.startswith("SRC-") or _ID_FULL_RE.match(token) or token.strip("./") == "":
        return False
    if "/" in token:
        return "//" not in token and any(ch.isalnum() for ch in token)
    return bool(_EXTENSION_RE.search(token)) or token in _BARE_FILES


def split_claimed(token: str) -> tuple[str, tuple[int, int] | None]:
    """Split ``path:325-329`` / ``path:42`` / ``path#L3-L9`` into the path and the claimed range."""
    match = _RANGE_RE.search(token)
    if not match or match.start() == 0:
        return token, None
    first = match.group(1) or match.group(3)
    last = match.group(2) or match.group(4) or first
    return token[: match.start()], (int(first), int(last))


# --- decoding ------------------------------------------------------------------------------------


def _decode(data: str | bytes) -> tuple[str, list[Diagnostic]]:
    """Text of the report and what was odd about its encoding."""
    diagnostics: list[Diagnostic] = []
    if isinstance(data, str):
        text = data
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = data.decode("utf-16", errors="replace")
        diagnostics.append(Diagnostic(1, "report is UTF-16; decoded it"))
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            before = data[: error.start]
            # count line ends the way _split_lines does: CRLF, LF and lone CR
            line = before.count(b"\n") + before.count(b"\r") - before.count(b"\r\n") + 1
            text = data.decode("utf-8", errors="replace")
            diagnostics.append(
                Diagnostic(line, "invalid UTF-8 bytes decoded with replacement characters (U+FFFD)")
            )
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, diagnostics


# --- the outline: which lines belong to which record -------------------------------------------


class _State(Enum):
    PREAMBLE = "preamble"
    ACCOUNT = "account"
    SHARED = "shared"
    ANNOTATIONS = "annotations"


class _Block:
    """A record's place in the report while the outline is being built."""

    __slots__ = ("annotates", "end", "header", "id", "kind", "label", "section", "start")

    def __init__(
        self,
        kind: Kind,
        id: str,  # noqa: A002 - the record's id
        label: str,
        section: str,
        header: int | None,  # 0-based index of the header line (None: text without a heading)
        start: int,  # first line of the block, header included
    ) -> None:
        self.kind, self.id, self.label, self.section = kind, id, label, section
        self.header, self.start = header, start
        self.end = -1  # one past the last line
        self.annotates: str | None = None


class _Outline:
    __slots__ = ("blocks", "diagnostics", "title", "type_line")

    def __init__(self) -> None:
        self.title = ""
        self.type_line = ""
        self.blocks: list[_Block] = []
        self.diagnostics: list[Diagnostic] = []


def _blank(lines: list[str], index: int) -> bool:
    return index < 0 or index >= len(lines) or not lines[index].strip()


def _next_nonblank(lines: list[str], index: int) -> str:
    for position in range(index + 1, min(len(lines), index + 4)):
        if lines[position].strip():
            return lines[position].strip()
    return ""


def _is_heading(lines: list[str], index: int) -> bool:
    """A narrative subsection heading: a short line without final period between blank lines."""
    line = lines[index]
    if not line or line[0].isspace() or not _blank(lines, index - 1):
        return False
    if not _blank(lines, index + 1):
        return False
    text = line.rstrip()
    if len(text) > _MAX_HEADING or text[-1] in ".:;,!?" or not text[0].isalpha():
        return False
    if text[0].islower() or "---" in text or "`" in text or "SRC-" in text:
        return False
    return not _BULLET_RE.match(text) and not text.startswith("Type:")


def _member(type_line: str, title: str) -> str:
    """The report type's short name: ``workflow`` from ``...-workflow-report.md``."""
    name = type_line.rsplit("/", 1)[-1].strip()
    name = name.removesuffix(".md").removesuffix("-report")
    if name:
        return slugify(name.rsplit("-", 1)[-1])
    words = title.split()
    if len(words) >= 2 and words[-1].lower() == "report":
        return slugify(words[-2])
    return "report"


def system_from_title(title: str) -> str:
    """The system a report is about: the title without its ``<member> report`` tail."""
    words = title.split()
    if len(words) >= 3 and words[-1].lower() == "report":
        return " ".join(words[:-2])
    return words[0] if words else ""


class _Outliner:
    """One pass over the lines that cuts the report into blocks, one per record."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.out = _Outline()
        self.state = _State.PREAMBLE
        self.kind: Kind | None = None
        self.kind_heading = ""
        self.account = ""
        self.member = "report"
        self.current: _Block | None = None
        self.slugs: dict[str, int] = {}
        self.seen_shared = False

    def diagnose(self, index: int, message: str) -> None:
        self.out.diagnostics.append(Diagnostic(index + 1, message))

    def close(self, index: int) -> None:
        if self.current is not None:
            self.current.end = index
            self.current = None

    def open(self, block: _Block) -> None:
        self.close(block.start)
        self.out.blocks.append(block)
        self.current = block

    def narrative(self, index: int, heading: str | None) -> None:
        label = heading if heading is not None else (self.account or self.out.title or "Account")
        slug = slugify(label)
        count = self.slugs.get(slug, 0) + 1
        self.slugs[slug] = count
        record_id = f"{self.member}:{slug}" if count == 1 else f"{self.member}:{slug}-{count}"
        self.open(
            _Block(Kind.NARRATIVE, record_id, label, label, index if heading else None, index)
        )

    def run(self) -> _Outline:
        lines = self.lines
        first = next((i for i, line in enumerate(lines) if line.strip()), None)
        if first is None:
            self.diagnose(0, "the report is empty")
            return self.out
        title_index = -1
        if not self._structural(lines[first].strip()):
            self.out.title = lines[first].strip()
            title_index = first
        else:
            self.diagnose(first, "the report has no title line")
        type_index = -1
        for index in range(title_index + 1, min(len(lines), title_index + 12)):
            match = _TYPE_RE.match(lines[index].strip())
            if match:
                self.out.type_line = match.group(1)
                type_index = index
                break
        if type_index < 0:
            self.diagnose(max(title_index, 0), "no 'Type:' line after the title")
        self.member = _member(self.out.type_line, self.out.title)

        for index in range(title_index + 1, len(lines)):
            if index != type_index and lines[index].strip():
                self.line(index)
        self.close(len(lines))
        if not self.seen_shared:
            self.diagnose(len(lines) - 1, "no 'Shared records' section")
        return self.out

    def line(self, index: int) -> None:
        lines = self.lines
        text = lines[index].strip()
        low = text.lower().rstrip(":")
        state = self.state
        listed = state in (_State.SHARED, _State.ANNOTATIONS)

        if low == "shared records":
            self.close(index)
            self.state, self.kind, self.seen_shared = _State.SHARED, None, True
            return
        if low in KIND_HEADINGS and (listed or self._opens_records(index)):
            if not listed:
                self.diagnose(index, f"'{text}' heading outside 'Shared records'")
                self.seen_shared = True
            self.close(index)
            self.state, self.kind, self.kind_heading = _State.SHARED, KIND_HEADINGS[low], text
            return
        if low == "annotations" and (listed or _ON_RE.match(_next_nonblank(lines, index))):
            self.close(index)
            self.state = _State.ANNOTATIONS
            return

        if state is _State.SHARED:
            header = _HEADER_RE.match(text)
            if header:
                self.declared(index, header.group(1))
            elif self.current is None and low not in _NONE_MARKERS:
                self.diagnose(index, "text outside any record")
            return
        if state is _State.ANNOTATIONS:
            on = _ON_RE.match(text)
            if on:
                target = on.group(1)
                self.open(_Block(Kind.ANNOTATION, "", f"On {target}", "Annotations", index, index))
                assert self.current is not None
                self.current.annotates = target
            elif self.current is None and low not in _NONE_MARKERS:
                self.diagnose(index, "text outside any annotation")
            return

        # preamble or account: narrative sections
        if state is _State.PREAMBLE and _ACCOUNT_RE.match(text) and _is_heading(lines, index):
            self.close(index)
            self.account = text
            self.state = _State.ACCOUNT
            return
        if _is_heading(lines, index):
            self.state = _State.ACCOUNT
            self.narrative(index, text)
        elif self.current is None:
            self.state = _State.ACCOUNT
            self.narrative(index, None)

    @staticmethod
    def _structural(text: str) -> bool:
        """A line that belongs to the report's structure, so cannot be its title."""
        low = text.lower().rstrip(":")
        return bool(
            _TYPE_RE.match(text)
            or low in ("shared records", "annotations")
            or low in KIND_HEADINGS
            or _HEADER_RE.match(text)
            or _ON_RE.match(text)
        )

    def _opens_records(self, index: int) -> bool:
        following = _next_nonblank(self.lines, index)
        return bool(_HEADER_RE.match(following)) or following.lower() in _NONE_MARKERS

    def declared(self, index: int, record_id: str) -> None:
        prefix = record_id.split("-")[1].upper()
        implied = ID_PREFIX_KINDS.get(prefix)
        kind = self.kind
        if kind is None:
            kind = implied or Kind.CLAIM
            self.diagnose(index, f"{record_id} is not under a record-kind heading")
        elif implied is not None and implied is not kind:
            self.diagnose(index, f"{record_id} is listed under '{self.kind_heading}'")
        section = self.kind_heading or "Shared records"
        self.open(_Block(kind, record_id, "", section, index, index))


# --- the contents of one record -----------------------------------------------------------------


def _marker(line: str) -> tuple[int, str] | None:
    """Where a ``--- path`` marker at the end of the line starts, and its path token."""
    position = line.rfind("---")
    if position < 0:
        return None
    if position > 0 and not line[position - 1].isspace():
        return None
    rest = line[position + 3 :]
    if not rest[:1].isspace():
        return None
    token = rest.strip()
    if not token or len(token.split()) != 1:
        return None
    path, _claimed = split_claimed(token)
    if not is_path_like(path):
        return None
    return position, token


def _sentence(line: str, start: int, end: int) -> str:
    """The sentence of ``line`` around ``line[start:end]``."""
    left = 0
    for stop in (". ", "? ", "! ", "; "):
        found = line.rfind(stop, 0, start)
        if found >= 0:
            left = max(left, found + 2)
    right = len(line)
    for stop in (". ", "? ", "! "):
        found = line.find(stop, end)
        if 0 <= found < right:
            right = found + 1
    return line[left:right].strip()


def _citations(line: str, number: int) -> Iterator[Citation]:
    for match in _CITE_RE.finditer(line):
        position, paths = match.end(), []
        while True:
            item = _ITEM_RE.match(line, position)
            if item is None:
                break
            token = item.group()
            path = token.rstrip(".`'\"")
            if path.lower() not in _LAYER_WORDS:
                if not is_path_like(path):
                    break
                paths.append(path)
            if path != token.rstrip("`'\""):  # a period: the sentence ends here
                break
            separator = _SEP_RE.match(line, item.end())
            if separator is None:
                break
            position = separator.end()
        if paths:
            yield Citation(match.group(1), tuple(paths), number)


def _tokens(line: str, position: int) -> Iterator[tuple[str, bool, int]]:
    """Shell-like words from ``position``: (word, was quoted, end offset)."""
    length = len(line)
    while True:
        while position < length and line[position] in " \t":
            position += 1
        if position >= length:
            return
        quote = line[position]
        if quote in "'\"":
            close = line.find(quote, position + 1)
            if close < 0:
                return
            yield line[position + 1 : close], True, close + 1
            position = close + 1
        else:
            end = position
            while end < length and line[end] not in " \t":
                end += 1
            yield line[position:end], False, end
            position = end


def _search(line: str, start: int, tool: str) -> tuple[SearchReplay, int] | None:
    """The search command starting at ``line[start:]``, if the words after the tool make one."""
    flags: list[str] = []
    paths: list[str] = []
    pattern: str | None = None
    quoted_pattern = False
    options_done = False
    end = start + len(tool)
    words = _tokens(line, end)
    for word, quoted, word_end in words:
        bare = word.strip("`")
        if not quoted and not options_done and bare == "--":
            options_done, end = True, word_end
            continue
        if not quoted and not options_done and bare.startswith("-") and len(bare) > 1:
            flags.append(bare)
            end = word_end
            if bare in _VALUE_FLAGS or bare in _PATTERN_FLAGS:
                value = next(words, None)
                if value is None:
                    break
                if bare in _PATTERN_FLAGS and pattern is None:
                    pattern, quoted_pattern = value[0], value[1]
                    flags.pop()
                else:
                    flags.append(value[0])
                end = value[2]
            continue
        if pattern is None:
            if not bare and not quoted:
                break
            pattern, quoted_pattern, end = (word if quoted else bare), quoted, word_end
            continue
        candidate = bare.rstrip(".,;:)")
        if quoted or not (is_path_like(candidate) or candidate in (".", "./")):
            break
        paths.append(candidate)
        leading = len(word) - len(word.lstrip("`"))
        end = word_end - len(word) + leading + len(candidate)
        if candidate != bare:
            break
    if pattern is None or not (quoted_pattern or flags or paths):
        return None
    command = line[start:end].rstrip("`")
    sentence = _sentence(line, start, end)
    replay = SearchReplay(command, tool, pattern, tuple(flags), tuple(paths), sentence, 0, "")
    return replay, end


class _Contents:
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


def _is_code_line(line: str) -> bool:
    """An indented line that is not a list item: part of an indented code block."""
    stripped = line.lstrip()
    return stripped != line and bool(stripped) and not _BULLET_RE.match(stripped)


def _code_above(lines: list[str], first: int, above: int, last: int, taken: set[int]) -> int:
    """Extend an indented block upward over single blank lines between indented code paragraphs.

    ``above`` is the line just above the block, ``last`` its last line; the result is the new
    ``above``. Code blocks keep their blank lines when a report is rendered, so a quoted function
    can span several paragraphs.
    """
    if not all(_is_code_line(lines[i]) for i in range(above + 1, last + 1)):
        return above
    while (
        above - 1 >= first
        and not lines[above].strip()
        and above not in taken
        and _is_code_line(lines[above - 1])
        and above - 1 not in taken
        and _marker(lines[above - 1]) is None
    ):
        top = above - 1
        while (
            top >= first
            and top not in taken
            and _is_code_line(lines[top])
            and _marker(lines[top]) is None
        ):
            top -= 1
        if top >= first and lines[top].strip():
            break  # the paragraph above is not all code: leave it out
        above = top
    return above


def _quotes(
    lines: list[str], first: int, end: int, record_id: str, diagnostics: list[Diagnostic]
) -> tuple[list[Quote], set[int]]:
    """The record's quotes, and the lines that hold quoted text or a marker."""
    quotes: list[Quote] = []
    taken: set[int] = set()
    for index in range(first, end):
        line = lines[index]
        if "---" not in line:
            continue
        found = _marker(line)
        if found is None:
            tail = line.rstrip()
            position = tail.rfind(" --- ")
            if position >= 0 and tail[position + 5 :] and " " not in tail[position + 5 :]:
                diagnostics.append(
                    Diagnostic(
                        index + 1,
                        f"line ends in '--- {tail[position + 5 :][:60]}', which does not look "
                        "like a path; not read as a quote",
                    )
                )
            continue
        position, token = found
        text_part = line[:position].rstrip(" \t")
        if not text_part.strip():
            # a `--- path` line alone: the quote is the block above it, maybe past a blank line
            above = index - 1
            while above >= first and not lines[above].strip() and index - above <= 2:
                above -= 1
            block_end = above
            while above >= first and lines[above].strip() and above not in taken:
                if _marker(lines[above]) is not None:
                    break
                above -= 1
            if block_end < first or above == block_end:
                diagnostics.append(Diagnostic(index + 1, "'--- path' marker with no quoted text"))
                taken.add(index)
                continue
            above = _code_above(lines, first, above, block_end, taken)
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
                    and _marker(lines[start - 1]) is None
                    and not _STATUS_RE.match(lines[start - 1])
                    and not _FIELD_RE.match(lines[start - 1])
                ):
                    start -= 1
            text_lines = [*lines[start:index], text_part]
            inline = start == index
        path, claimed = split_claimed(token)
        if claimed is not None and (claimed[0] < 1 or claimed[1] < claimed[0]):
            diagnostics.append(
                Diagnostic(index + 1, f"odd line range {claimed[0]}-{claimed[1]} for {path}")
            )
        taken.update(range(start, index + 1))
        quotes.append(
            Quote(
                text="\n".join(text_lines),
                path=path,
                claimed=claimed,
                report_line=index + 1,
                text_line=start + 1,
                record=record_id,
                index=len(quotes),
                inline=inline,
            )
        )
    return quotes, taken


def _contents(lines: list[str], block: _Block, diagnostics: list[Diagnostic]) -> _Contents:
    """Everything a record says, from its lines."""
    found = _Contents()
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
            match = _LABEL_RE.match(lines[index])
            if match:
                found.label, label_index = match.group(1), index
                break
        if label_index < 0:
            diagnostics.append(Diagnostic(header_line, f"{block.id} has no 'Label:' line"))
    body = [lines[index] for index in range(first, end) if index != label_index]
    while body and not body[0].strip():
        body.pop(0)
    found.body = "\n".join(body)

    found.quotes, taken = _quotes(lines, first, end, block.id, diagnostics)
    seen: set[str] = {block.id}
    for index in range(first, end):
        if index in taken or index == label_index:
            continue
        line = lines[index]
        if not line.strip():
            continue
        number = index + 1
        status = _STATUS_RE.match(line) if "tatus" in line or "TATUS" in line else None
        if status:
            value = status.group("value").rstrip(".")
            found.statuses.append((status.group("key").strip().lower(), value))
        elif line[:1] in " \t•*-":
            field_match = _FIELD_RE.match(line)
            if field_match:
                found.fields.append((field_match.group("key"), field_match.group("value")))
        if "SRC-" in line:
            found.citations.extend(_citations(line, number))
        if any(hint in line for hint in _ID_HINTS):
            for reference in _ID_RE.findall(line):
                if reference not in seen:
                    seen.add(reference)
                    found.references.append(reference)
        if "grep" in line or "rg" in line:
            position = 0
            while True:
                match = _SEARCH_RE.search(line, position)
                if match is None:
                    break
                result = _search(line, match.start(), match.group(1))
                if result is None:
                    position = match.end()
                    continue
                replay, position = result
                found.searches.append(replay._replace(line=number, record=block.id))
        for sha in _SHA_RE.finditer(line):
            sentence = _sentence(line, sha.start(), sha.end())
            found.revisions.append(RevisionMention(sha.group().lower(), sentence, number))
    return found


# --- parse one report ---------------------------------------------------------------------


def parse_report(text: str | bytes, file: str) -> Report:
    """Parse one report's text (or bytes); never raises, oddities become diagnostics."""
    decoded, diagnostics = _decode(text)
    lines = _split_lines(decoded)
    outline = _Outliner(lines).run()
    diagnostics.extend(outline.diagnostics)

    records: list[Record] = []
    revisions: list[RevisionMention] = []
    ids: set[str] = set()
    annotation_counts: dict[str, int] = {}
    for block in outline.blocks:
        if block.kind is Kind.ANNOTATION and block.annotates is not None:
            count = annotation_counts.get(block.annotates, 0) + 1
            annotation_counts[block.annotates] = count
            block.id = f"On {block.annotates}" + ("" if count == 1 else f" ({count})")
        elif block.kind is not Kind.NARRATIVE and block.id in ids:
            line = (block.header or 0) + 1
            diagnostics.append(Diagnostic(line, f"{block.id} is declared twice"))
        ids.add(block.id)
        found = _contents(lines, block, diagnostics)
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
