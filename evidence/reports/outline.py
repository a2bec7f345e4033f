"""The outline of a report: which lines belong to which record.

One pass over the lines cuts the report into blocks: narrative sections of the account, records
declared under "Shared records", and "On RT-..." annotations. What each block holds is read
afterwards (evidence/reports/contents.py).
"""

from __future__ import annotations

import re
from enum import Enum

from evidence.model import UNCHECKED_QUOTE, Diagnostic, Kind
from evidence.reports.blocks import fenced_lines
from evidence.reports.markers import marker, may_hold_marker
from evidence.reports.vocabulary import (
    ACCOUNT_RE,
    BULLET_RE,
    HEADER_RE,
    ID_PREFIX_KINDS,
    KIND_HEADINGS,
    LOWER_ID_RE,
    MAX_HEADING,
    NONE_MARKERS,
    ON_RE,
    ON_WORDS_RE,
    TITLED_RE,
    TYPE_RE,
    slugify,
    undecorated,
)


class _State(Enum):
    """The part of the report the outliner is in."""

    PREAMBLE = "preamble"
    ACCOUNT = "account"
    SHARED = "shared"
    ANNOTATIONS = "annotations"


class Block:
    """A record's place in the report while the outline is being built."""

    __slots__ = ("annotates", "end", "header", "id", "kind", "label", "section", "start")

    def __init__(
        self,
        kind: Kind,
        id: str,  # the record's id
        label: str,
        section: str,
        header: int | None,  # 0-based index of the header line (None: text without a heading)
        start: int,  # first line of the block, header included
    ) -> None:
        self.kind, self.id, self.label, self.section = kind, id, label, section
        self.header, self.start = header, start
        self.end = -1  # one past the last line
        self.annotates: str | None = None


class Outline:
    """A report cut into blocks, with its title, type line and what was odd about its structure."""

    __slots__ = ("blocks", "diagnostics", "title", "type_line")

    def __init__(self) -> None:
        self.title = ""
        self.type_line = ""
        self.blocks: list[Block] = []
        self.diagnostics: list[Diagnostic] = []


def _blank(lines: list[str], index: int) -> bool:
    """True for a blank line, and for a line outside the report."""
    return index < 0 or index >= len(lines) or not lines[index].strip()


def _structural_text(line: str) -> str:
    """A line stripped, and without its Markdown when that makes it the report's structure (a
    heading ``## Routes``, a record id ``**RT-RTE-chat**``): prose keeps its emphasis."""
    text = line.strip()
    plain = undecorated(text)
    return plain if plain != text and _Outliner._structural(plain) else text


def _past_front_matter(lines: list[str], first: int) -> int:
    """The first non-blank line after a YAML front matter block (``---`` ... ``---``) that a
    report starts with, as static-site generators write them; `first` without one."""
    if lines[first].strip() != "---":
        return first
    for index in range(first + 1, min(len(lines), first + 200)):
        if lines[index].strip() in ("---", "..."):
            after = next((i for i in range(index + 1, len(lines)) if lines[i].strip()), None)
            return first if after is None else after
    return first


def _next_nonblank(lines: list[str], index: int) -> str:
    """The first non-blank line of the three after ``index``, as `_structural_text` reads it
    ("" if none)."""
    for position in range(index + 1, min(len(lines), index + 4)):
        if lines[position].strip():
            return _structural_text(lines[position])
    return ""


#: a kind heading's count of its records, "Routes (3)"
_COUNTED = re.compile(r"\s*\(\d{1,6}\)$")


def _uncounted(low: str) -> str:
    """A heading in lower case without the count of records after it: "routes (3)" is a
    kind's heading."""
    return _COUNTED.sub("", low) if low.endswith(")") else low


#: what a line opening with a record's id and its label, outside a record, is told
_TITLED_HINT = (
    "a record's id and label on one line are read as a heading ('### RT-X: Label') or with "
    "the id alone on its line and 'Label: ...' under it"
)
_ON_WORDS = (
    "is not read as an annotation's heading (a sentence may start so too): words after"
    " the id go in parentheses, 'On ID (words):'"
)
_LOWER_ID = "is a record id in lower case: not read as one (its capitals are the report's to say)"


def _alone(lines: list[str], index: int) -> bool:
    """A line with blank lines (or the report's ends) either side, as a heading stands."""
    return _blank(lines, index - 1) and _blank(lines, index + 1)


def _titled(lines: list[str], index: int) -> tuple[str, str] | None:
    """The id and label of a record whose heading names both (`TITLED_RE`): a Markdown
    heading, or a line opening with the id in bold or code alone between blank lines (a
    sentence opening with an id is prose)."""
    raw = lines[index].strip()
    if not raw.startswith(("#", "**", "`")) or (raw[0] != "#" and not _alone(lines, index)):
        return None
    found = TITLED_RE.match(raw)
    if found is None:
        return None
    label = undecorated((found.group("label") or found.group("paren")).strip())
    if raw[0] != "#" and (label.endswith(".") or len(raw) > MAX_HEADING):
        return None  # "**RT-X** — the check everyone calls.": a sentence, not a heading
    return found.group("id"), label


def _is_heading(lines: list[str], index: int) -> bool:
    """A narrative subsection heading: a short line without final period between blank lines."""
    line = lines[index]
    if not line or line[0].isspace() or not _blank(lines, index - 1):
        return False
    if not _blank(lines, index + 1):
        return False
    text = line.rstrip()
    if len(text) > MAX_HEADING or text[-1] in ".:;,!?" or not text[0].isalpha():
        return False
    if text[0].islower() or "---" in text or "`" in text or "SRC-" in text:
        return False
    return not BULLET_RE.match(text) and not text.startswith("Type:")


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


class _Outliner:
    """One pass over the lines that cuts the report into blocks, one per record."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.out = Outline()
        self.state = _State.PREAMBLE
        self.kind: Kind | None = None
        self.kind_heading = ""
        self.account = ""
        self.member = "report"
        self.current: Block | None = None
        self.slugs: dict[str, int] = {}
        self.seen_shared = False
        self.fenced = fenced_lines(lines)

    def diagnose(self, index: int, message: str) -> None:
        self.out.diagnostics.append(Diagnostic(index + 1, message))

    def outside(self, index: int, where: str) -> None:
        """A line no record holds: said, and louder when it is a quote that goes unchecked."""
        line = self.lines[index]
        if may_hold_marker(line) and marker(line) is not None:
            self.diagnose(index, f"{UNCHECKED_QUOTE}{where}: not read, not checked")
        elif where == "record" and TITLED_RE.match(line.strip()):
            self.diagnose(index, f"text outside any record: {_TITLED_HINT}")
        else:
            self.diagnose(index, f"text outside any {where}")

    def close(self, index: int) -> None:
        if self.current is not None:
            self.current.end = index
            self.current = None

    def open(self, block: Block) -> None:
        self.close(block.start)
        self.out.blocks.append(block)
        self.current = block

    def narrative(self, index: int, heading: str | None) -> None:
        label = heading if heading is not None else (self.account or self.out.title or "Account")
        slug = slugify(label)
        count = self.slugs.get(slug, 0) + 1
        self.slugs[slug] = count
        record_id = f"{self.member}:{slug}" if count == 1 else f"{self.member}:{slug}-{count}"
        self.open(Block(Kind.NARRATIVE, record_id, label, label, index if heading else None, index))

    def run(self) -> Outline:
        lines = self.lines
        first = next((i for i, line in enumerate(lines) if line.strip()), None)
        if first is None:
            self.diagnose(0, "the report is empty")
            return self.out
        first = _past_front_matter(lines, first)
        title_index = -1
        if not self._structural(lines[first].strip()):
            self.out.title = undecorated(lines[first].strip())  # "# Probe runtime report"
            title_index = first
        else:
            self.diagnose(first, "the report has no title line")
        type_index = -1
        for index in range(title_index + 1, min(len(lines), title_index + 12)):
            match = TYPE_RE.match(lines[index].strip())
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
        text = _structural_text(lines[index])
        low = _uncounted(text.lower().rstrip(":"))
        state = self.state
        listed = state in (_State.SHARED, _State.ANNOTATIONS)
        # an indented or fenced line is quoted text (code, a document), never the report's
        # structure: a quoted "Shared records" or record id ended the section or opened a record
        if lines[index][:1].isspace() or index in self.fenced:
            if self.current is not None:
                return
            if not listed:
                self.state = _State.ACCOUNT
                self.narrative(index, None)
            elif low not in NONE_MARKERS:
                self.outside(index, "record" if state is _State.SHARED else "annotation")
            return

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
        if low == "annotations" and (listed or ON_RE.match(_next_nonblank(lines, index))):
            self.close(index)
            self.state = _State.ANNOTATIONS
            return

        if state is _State.SHARED:
            header = HEADER_RE.match(text)
            titled = None if header else _titled(lines, index)
            if header:
                self.declared(index, header.group(1))
            elif titled is not None:
                self.declared(index, titled[0])
                assert self.current is not None
                self.current.label = titled[1]
            elif text[:1].islower() and LOWER_ID_RE.match(text) and _alone(lines, index):
                self.diagnose(index, f"'{text}' {_LOWER_ID}")
            elif self.current is None and low not in NONE_MARKERS:
                self.outside(index, "record")
            return
        if state is _State.ANNOTATIONS:
            on = ON_RE.match(text)
            if on:
                target = on.group(1)
                self.open(Block(Kind.ANNOTATION, "", f"On {target}", "Annotations", index, index))
                assert self.current is not None
                self.current.annotates = target
            elif text[:1] in "O#*_" and self._words_after_id(index, text):
                return  # said there when it stands as a heading
            elif self.current is None and low not in NONE_MARKERS:
                self.outside(index, "annotation")
            return

        # preamble or account: narrative sections
        if state is _State.PREAMBLE and ACCOUNT_RE.match(text) and _is_heading(lines, index):
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

    def _words_after_id(self, index: int, text: str) -> bool:
        """Whether the line is ``On RT-X some words`` (in Markdown or not); when it stands as a
        heading does, alone and with no full stop, it is said: not read, a sentence starts so."""
        plain = undecorated(text)
        if not plain.startswith("On ") or not ON_WORDS_RE.match(plain):
            return False
        if not _alone(self.lines, index):
            return False
        if plain[-1] != "." and len(plain) <= MAX_HEADING:
            self.diagnose(index, f"'{text}' {_ON_WORDS}")
        elif self.current is None:
            self.outside(index, "annotation")
        return True

    @staticmethod
    def _structural(text: str) -> bool:
        """A line that belongs to the report's structure, so cannot be its title."""
        low = _uncounted(text.lower().rstrip(":"))
        return bool(
            TYPE_RE.match(text)
            or low in ("shared records", "annotations")
            or low in KIND_HEADINGS
            or HEADER_RE.match(text)
            or ON_RE.match(text)
        )

    def _opens_records(self, index: int) -> bool:
        following = _next_nonblank(self.lines, index)
        if HEADER_RE.match(following) or following.lower() in NONE_MARKERS:
            return True
        after = next((i for i in range(index + 1, index + 4) if not _blank(self.lines, i)), None)
        return after is not None and _titled(self.lines, after) is not None

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
        self.open(Block(kind, record_id, "", section, index, index))


def read_outline(lines: list[str]) -> Outline:
    """The report's title, type line, blocks (one per record) and structural diagnostics."""
    return _Outliner(lines).run()
