"""The evidence model: what a report says and where its quotes sit in the source.

Immutable NamedTuples only; no I/O and no UI imports. Line numbers are 1-based everywhere, and a
line range is an inclusive ``(first, last)`` tuple.

NamedTuples rather than frozen dataclasses: every launch imports this module, and Python compiles
each dataclass's generated methods from source as the class is made, which NamedTuples do not
need. They hash and print the same way and are as immutable; they also compare equal to a tuple
of the same values (whatever its class) and can be unpacked. A changed copy is
``value._replace(field=...)``.

No ``from __future__ import annotations`` here: typing.NamedTuple would compile each field
annotation given as a string; the annotations below are real types, all defined above use.
"""

from collections.abc import Iterable
from enum import StrEnum
from typing import NamedTuple

LineRange = tuple[int, int]


class Kind(StrEnum):
    """The kind of a record, spelled as in the JSON bundle."""

    COMPONENT = "component"
    OBJECT = "object"
    ROUTE = "route"
    CLAIM = "claim"
    ABSENCE = "absence"
    AUTHORITY = "authority"
    ANNOTATION = "annotation"
    NARRATIVE = "narrative"
    RESULT = "result"  # a result of a static-analysis run read from SARIF


#: Kinds declared under "Shared records", in the order reports list them.
DECLARED_KINDS: tuple[Kind, ...] = (
    Kind.COMPONENT,
    Kind.OBJECT,
    Kind.ROUTE,
    Kind.CLAIM,
    Kind.ABSENCE,
    Kind.AUTHORITY,
)


#: how the parser's diagnostic of a quote no record holds begins (the check counts them)
UNCHECKED_QUOTE = "a quote ('--- path') outside any "
#: how the parser's diagnostic of a '--- ' marker it could not read ends: the quote the author
#: wrote there is not checked either (a dash in prose, ": not read as a quote", is a guess)
UNREAD_MARKER = "; not read as a quote"


class Diagnostic(NamedTuple):
    """Something odd about a report's text, at a report line (a SARIF log's: the result's number,
    which its message names; 0: no one place)."""

    line: int
    message: str

    @property
    def unchecked_quote(self) -> bool:
        """A quote outside any record, or behind a '--- ' marker that could not be read: not
        read, so not checked (the check fails for it)."""
        return self.message.startswith(UNCHECKED_QUOTE) or self.message.endswith(UNREAD_MARKER)

    @classmethod
    def unread_marker(cls, line: int, said: str) -> "Diagnostic":
        """A '--- ' marker the parser could not read, ``said`` why: its quote is unchecked."""
        return cls(line, said + UNREAD_MARKER)

    def shown(self, file: str = "", *, results: bool = False) -> str:
        """``file:12: message`` (``line 12: message`` without a file). A SARIF log's number
        (``results``) counts results, not lines: an editor sent to ``scan.sarif:715`` lands in
        the middle of another result, so the file alone, as for a diagnostic of no line."""
        if results or self.line <= 0:
            return f"{file}: {self.message}" if file else self.message
        where = f"{file}:{self.line}" if file else f"line {self.line}"
        return f"{where}: {self.message}"


class RevisionMention(NamedTuple):
    """A commit id written in a report (40-hex, or abbreviated after "revision", "commit"...),
    with the sentence it came from."""

    sha: str
    sentence: str
    line: int


class Citation(NamedTuple):
    """A source citation such as ``(SRC-1, a.py, b.py)`` or ``[SRC-1: a.py]``."""

    source: str
    paths: tuple[str, ...]
    line: int


class SearchReplay(NamedTuple):
    """A search command written in a report that can be re-run at the revision."""

    command: str  # the command exactly as written
    tool: str  # "rg", "grep" or "git grep"
    pattern: str
    flags: tuple[str, ...]
    paths: tuple[str, ...]
    sentence: str  # the claim sentence around the command
    line: int
    record: str


class Quote(NamedTuple):
    """A passage of source quoted by a record, with the path (and lines) it cites."""

    text: str  # exactly as in the report (without the ``--- path`` marker)
    path: str
    claimed: LineRange | None
    report_line: int  # report line of the ``--- path`` marker
    text_line: int  # report line where the quoted text starts
    record: str  # id of the record it belongs to
    index: int  # type: ignore[assignment]  # 0-based position in the record (shadows tuple.index)
    inline: bool = False  # ``code --- path`` on one line
    # -- what a SARIF location adds (defaults for report quotes) --
    located: bool = False  # no snippet: the region is only checked to exist, never "verified"
    role: str = ""  # SARIF: "location", "step" (of a code flow) or "related"; "" for reports
    note: str = ""  # SARIF: the location's own message
    context: str = ""  # SARIF: the contextRegion's snippet
    # SARIF: startColumn, endColumn (1-based) as claimed; endColumn 0 when none is written (the
    # end of the last line)
    columns: LineRange | None = None
    offsets: LineRange | None = None  # SARIF: charOffset, charLength as claimed


class Record(NamedTuple):
    """One record of a report: a declared record, an annotation, or a narrative section."""

    id: str
    kind: Kind
    label: str
    body: str
    report: str  # file name of the report that holds it
    section: str  # heading of the section it sits in ("Routes", "Request and delegation", ...)
    lines: LineRange  # report line span
    fields: tuple[tuple[str, str], ...] = ()
    statuses: tuple[tuple[str, str], ...] = ()  # ("implementation", "wired"), ...
    quotes: tuple[Quote, ...] = ()
    citations: tuple[Citation, ...] = ()
    references: tuple[str, ...] = ()  # ids of other records mentioned in the text
    searches: tuple[SearchReplay, ...] = ()
    annotates: str | None = None  # for annotations: id of the record they attach to


class Report(NamedTuple):
    """A parsed evidence report."""

    file: str  # the report file as given
    title: str  # first line, e.g. "ATLAS runtime report"
    type_line: str  # e.g. "agentic-system-analyses/types/agentic-system-runtime-report.md"
    system: str  # e.g. "ATLAS"
    revisions: tuple[RevisionMention, ...] = ()
    records: tuple[Record, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def identity(self) -> str:
        """A key for the report that survives renaming or regenerating its file."""
        kind = self.type_line.rsplit("/", 1)[-1].removesuffix(".md") or self.title
        return f"{self.system}/{kind}"

    def record(self, record_id: str) -> Record | None:
        """The record with this id, if the report declares it."""
        for record in self.records:
            if record.id == record_id:
                return record
        return None


# --- anchoring results -----------------------------------------------------------------------


class Tier(StrEnum):
    """How a quote matched its source, best first."""

    EXACT = "exact"
    WHITESPACE = "whitespace"
    NORMALIZED = "normalized"
    FUZZY = "fuzzy"
    MISSING = "missing"
    #: a SARIF location without a snippet: its file and lines exist (nothing to compare)
    LOCATED = "located"

    @property
    def verified(self) -> bool:
        """True for the tiers that count as the quote being there."""
        return self in (Tier.EXACT, Tier.WHITESPACE, Tier.NORMALIZED)


class FileState(StrEnum):
    """What the cited path is at the revision."""

    OK = "ok"
    MISSING = "missing"
    BINARY = "binary"
    TOO_LARGE = "too_large"


class DiffPart(NamedTuple):
    """One piece of a character-level comparison of quote and source."""

    op: str  # "equal", "replace", "delete" (only in the quote), "insert" (only in the source)
    quote: str
    source: str


class Elsewhere(NamedTuple):
    """Where a quote does occur in another file of the revision."""

    path: str
    lines: LineRange
    match: Tier


class Candidate(NamedTuple):
    """A fuzzy candidate close to the best one (listed so a guess is never silent)."""

    lines: LineRange
    score: float


class Anchor(NamedTuple):
    """Where a quote really is at the revision."""

    quote: Quote
    file: FileState
    match: Tier
    score: float  # 0-100; 100 for exact/whitespace/normalized
    lines: LineRange | None  # the chosen occurrence
    occurrences: tuple[LineRange, ...] = ()
    range_ok: bool | None = None  # None when the quote claims no range
    elsewhere: tuple[Elsewhere, ...] = ()
    diff: tuple[DiffPart, ...] = ()
    candidates: tuple[Candidate, ...] = ()
    notes: tuple[str, ...] = ()  # e.g. "invalid UTF-8 decoded with replacement"
    #: an elided quote (anchoring/elided.py): the lines within `lines` it did not copy
    left_out: tuple[LineRange, ...] = ()

    @property
    def verified(self) -> bool:
        """The quote is in its cited file (possibly after undoing formatting damage)."""
        return self.match.verified

    @property
    def ambiguous(self) -> bool:
        """Several occurrences and no claimed range to pick one."""
        return self.quote.claimed is None and len(self.occurrences) > 1

    @property
    def failing(self) -> bool:
        """What `assay check` counts as a failure (a located region is never one)."""
        if self.match is Tier.LOCATED:
            return False
        return not self.verified or self.range_ok is False


def short_revision(rev: str) -> str:
    """A stated revision as a line names it: a commit id's first 12 digits, a tag by its name
    (``tag v0.3.0`` for ``refs/tags/v0.3.0``)."""
    return f"tag {rev.removeprefix('refs/tags/')}" if rev.startswith("refs/tags/") else rev[:12]


def stated_revisions(shas: Iterable[str]) -> tuple[str, ...]:
    """The revisions a run of mentions states (`ReportSet.revision_ids`): the distinct 40-hex
    ids; when there is none, the abbreviated ones, each but those beginning a longer one; when
    there is none of those either, the tags named (``refs/tags/NAME``)."""
    seen = dict.fromkeys(shas)
    full = tuple(sha for sha in seen if len(sha) == 40 and not sha.startswith("refs/"))
    if full:  # a report that names its revision in full: an abbreviation is another commit
        return full
    short = tuple(sha for sha in seen if not sha.startswith("refs/"))
    if not short:
        return tuple(seen)
    return tuple(sha for sha in short if not any(o != sha and o.startswith(sha) for o in short))


def evidence_revisions(mentions: Iterable[RevisionMention]) -> tuple[str, ...]:
    """`stated_revisions` of the mentions; of several, the one the evidence statement names
    when only one of them is in a sentence that names a source ("Evidence is SRC-1 ... at
    revision X"): the others are commits the report talks about (a fix made later)."""
    mentions = list(mentions)
    stated = stated_revisions(mention.sha for mention in mentions)
    if len(stated) < 2:
        return stated
    sourced = stated_revisions(m.sha for m in mentions if "SRC-" in m.sentence)
    return sourced if len(sourced) == 1 and sourced[0] in stated else stated


class ReportSet(NamedTuple):
    """Several reports loaded together: annotations and references resolve across them."""

    reports: tuple[Report, ...] = ()
    #: cross-report findings, e.g. a reference to an id that no loaded report declares
    diagnostics: tuple[tuple[str, Diagnostic], ...] = ()  # (report file, diagnostic)

    def records(self) -> tuple[Record, ...]:
        """Every record of every report, in load order."""
        return tuple(record for report in self.reports for record in report.records)

    def record(self, record_id: str) -> Record | None:
        """The declared (non-annotation) record with this id in any loaded report."""
        for report in self.reports:
            for record in report.records:
                if record.id == record_id and record.kind is not Kind.ANNOTATION:
                    return record
        return None

    def report_of(self, record: Record) -> Report | None:
        """The report that holds this record."""
        for report in self.reports:
            if report.file == record.report:
                return report
        return None

    def annotations_for(self, record_id: str) -> tuple[Record, ...]:
        """Annotation records, from any loaded report, attached to this record id."""
        return tuple(
            record
            for record in self.records()
            if record.kind is Kind.ANNOTATION and record.annotates == record_id
        )

    def revision_ids(self) -> tuple[str, ...]:
        """Distinct revision ids the reports state, in order of appearance: the 40-hex ones;
        when there is none, the abbreviated ones (an id that begins a longer one stated is
        that one), which git resolves; of several, the one a source is said to be at, when
        only one is (`evidence_revisions`)."""
        return evidence_revisions(m for report in self.reports for m in report.revisions)
