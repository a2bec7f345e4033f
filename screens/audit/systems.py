"""The audit screen's state, without Textual: each system's loaded reports and counts, the
filters and the order that puts what needs attention first, and `/` across every system."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from db.audit import AuditSystemRef, SystemCounts
from db.keys import make_key, record_keys
from db.stats import percent_done
from evidence.audit.file import Audit, AuditSystem
from evidence.audit.loading import claims
from evidence.model import Kind, ReportSet
from screens.quote_status import claimed_place, found_label
from screens.widgets.result_line import ResultLine

__all__ = ["FILTERS", "AuditEntry", "AuditState", "SystemTarget"]

#: the audit screen's filters, in the order `f` cycles through them
FILTERS: dict[str, str] = {
    "all": "all systems",
    "failing": "systems with failing quotes or missing cited paths",
    "unreviewed": "systems with records or quotes without a verdict",
    "drifted": (
        "systems with quotes changed or deleted, or cited files gone or their lines changed, at"
        " the revision they are compared to"
    ),
    "disagreements": "systems where reviewers disagree",
}


@dataclass(frozen=True)
class SystemTarget:
    """Something `/` finds in some system: a record, a quote, or a file one of them quotes."""

    system: int
    kind: str  # record, quote, file
    label: str
    text: str
    report: str  # the record's report file
    record: str  # its id
    quote: int | None = None
    result: ResultLine | None = None  # a scanner's result: its rule, file:line and message


@dataclass
class AuditEntry:
    """One system: its reports (None when unreadable), what the database and the anchoring
    cache say of it."""

    system: AuditSystem
    reportset: ReportSet | None
    error: str | None = None
    counts: SystemCounts | None = None
    failing: int | None = None  # from the anchoring cache, else the database; None: unknown
    citations_missing: int | None = None
    #: quotes changed or deleted, cited files gone or their lines changed, at `against`; None:
    #: not asked
    drift: int | None = None
    # its records and quotes among the database's reviewed items (`count_reviewed`)
    reviewed_count: int = 0
    paths_found: bool = False  # its SARIF paths found in its revision (`reportset` has them)

    def __post_init__(self) -> None:
        # asked once: rows are drawn and sorted by these on every fill
        self._available = self.system.available
        reports = self.reportset.reports if self.reportset else ()
        records = [record for report in reports for record in report.records]
        self._records, self._quotes = len(records), sum(len(r.quotes) for r in records)

    def count_reviewed(self, judged: frozenset[str]) -> int:
        """How many of its records and quotes have their item key among ``judged``: hashing
        only the quotes of the records a judged key names (50,000 quotes hashed took 0.3 s of
        an audit's first frame); off the event loop."""
        if not judged or self.reportset is None:
            return 0
        # every key's parts before each "#": a record's key names it whatever its ids hold
        named = {key[:at] for key in judged for at, ch in enumerate(key) if ch == "#"}
        found: set[str] = set()  # (a record id given twice is one item)
        for report in self.reportset.reports:
            for record in report.records:
                key = make_key(report.identity, record.id)
                if key in judged:
                    found.add(key)
                if key in named:
                    keys = record_keys(report.identity, record)[1:]
                    found.update(quote for quote in keys if quote in judged)
        return len(found)

    @property
    def name(self) -> str:
        return self.system.name

    @property
    def available(self) -> bool:
        """Whether the system's repository is on this machine (as it was when the audit was
        opened)."""
        return self._available

    @property
    def unchecked(self) -> bool:
        """Readable, and its quotes not anchored yet: how many fail is not known."""
        return self.available and self.reportset is not None and self.failing is None

    @property
    def reports(self) -> int:
        return len(self.reportset.reports) if self.reportset else 0

    @property
    def records(self) -> int:
        return self._records

    @property
    def quotes(self) -> int:
        return self._quotes

    @property
    def items(self) -> int:
        """Records and quotes."""
        return self.records + self.quotes

    @property
    def reviewed(self) -> int:
        """Records and quotes with a verdict other than skip, by anyone."""
        return self.reviewed_count if self.counts is not None else 0

    @property
    def unreviewed(self) -> int:
        return self.items - self.reviewed

    @property
    def percent(self) -> str:
        """Reviewed records and quotes, in percent ("100%" for a system with none)."""
        return percent_done(self.reviewed, self.items)

    @property
    def reviewers(self) -> tuple[str, ...]:
        return self.counts.reviewers if self.counts else ()

    @property
    def last_activity(self) -> str | None:
        return self.counts.last_activity if self.counts else None

    @property
    def disagreements(self) -> int:
        return self.counts.disagreements if self.counts else 0

    def problems(self) -> int:
        """Failing quotes and missing cited paths (0 when not known yet)."""
        return (self.failing or 0) + (self.citations_missing or 0)

    def attention(self) -> tuple[int, int, int, int, str]:
        """The sort key: unreadable first, then failing quotes and missing paths (most first),
        disagreements, the most unreviewed; systems without a repository here last."""
        return (
            0 if self.error else 1,
            (0 if self.available else 1),
            -self.problems() - self.disagreements,
            -self.unreviewed,
            self.name.lower(),
        )

    def shown_by(self, name: str) -> bool:
        """Whether the filter ``name`` keeps this system."""
        if name == "failing":
            return self.problems() > 0
        if name == "unreviewed":
            return self.unreviewed > 0
        if name == "drifted":
            return bool(self.drift)
        if name == "disagreements":
            return self.disagreements > 0
        return True


class AuditState:
    """Every system of an audit, with counts updated as the database and cache are read."""

    def __init__(self, audit: Audit, entries: Sequence[AuditEntry]) -> None:
        self.audit = audit
        self.entries = list(entries)
        self.filter = "all"

    @property
    def refs(self) -> list[AuditSystemRef]:
        """The systems as the store knows them (their reports' identities; none for a system
        holding reports another one listed before it holds: `evidence.audit.loading.claims`)."""
        held = claims([(entry.name, entry.reportset) for entry in self.entries])
        return [
            AuditSystemRef(
                entry.name,
                claim.identities,
                None if entry.system.repository is None else str(entry.system.repository),
                here=entry.system.available,
            )
            for entry, claim in zip(self.entries, held, strict=True)
        ]

    def set_counts(self, counts: Sequence[SystemCounts], reviewed: Sequence[int]) -> None:
        """The database's counts and each system's reviewed items (`count_reviewed`; in the
        order of `entries`); failing quotes and missing paths from the database where the
        anchoring cache said nothing."""
        for entry, count, done in zip(self.entries, counts, reviewed, strict=True):
            entry.counts, entry.reviewed_count = count, done
            if entry.error:  # `!`: what the database kept of it is not known to hold now
                continue
            if entry.failing is None and count.quotes:
                entry.failing = count.failing
            if entry.citations_missing is None and count.quotes:
                entry.citations_missing = count.citations_missing

    def set_anchoring(self, index: int, failing: int, citations_missing: int) -> None:
        """What anchoring (cached or just done) found for a system."""
        entry = self.entries[index]
        entry.failing, entry.citations_missing = failing, citations_missing

    def shown(self) -> list[int]:
        """Indexes of the systems the filter keeps, what needs attention first."""
        kept = [n for n, entry in enumerate(self.entries) if entry.shown_by(self.filter)]
        return sorted(kept, key=lambda n: self.entries[n].attention())

    def next_filter(self) -> str:
        """Cycle to the next filter; returns its name."""
        names = list(FILTERS)
        self.filter = names[(names.index(self.filter) + 1) % len(names)]
        return self.filter

    def totals(self) -> dict[str, int]:
        """Sums over the audit, for the header."""
        return {
            "systems": len(self.entries),
            "unavailable": sum(1 for e in self.entries if not e.available),
            "items": sum(e.items for e in self.entries),
            "reviewed": sum(e.reviewed for e in self.entries),
            "failing": sum(e.failing or 0 for e in self.entries),
            "missing": sum(e.citations_missing or 0 for e in self.entries),
            # readable systems whose failing quotes are not known yet (not anchored)
            "unchecked": sum(1 for e in self.entries if e.unchecked),
        }

    def targets(self) -> list[SystemTarget]:
        """Everything `/` finds across the systems: records, quotes, and quoted files (the
        first record quoting each)."""
        found: list[SystemTarget] = []
        for n, entry in enumerate(self.entries):
            if entry.reportset is None:
                continue
            files: dict[str, tuple[str, str, int]] = {}
            for record in entry.reportset.records():
                if record.kind is Kind.RESULT:  # one row, as the review's `/` lists it
                    place = claimed_place(record.quotes[0]) if record.quotes else ""
                    message = record.label if record.label != record.section else ""
                    result = ResultLine(f"{entry.name}  {record.section}", place, message)
                    text = f"{record.section} {place} {record.label}"  # the digest left out
                    label = " ".join(part for part in (*result[:2], message) if part)
                    found.append(
                        SystemTarget(
                            n, "record", label, text, record.report, record.id, None, result
                        )
                    )
                    for quote in record.quotes:  # its file still found by its path
                        files.setdefault(quote.path, (record.report, record.id, quote.index))
                    continue
                label = f"{entry.name}  {record.id}  {record.label}"
                text = f"{record.id} {record.label}"
                found.append(SystemTarget(n, "record", label, text, record.report, record.id))
                for quote in record.quotes:
                    found.append(
                        SystemTarget(
                            n,
                            "quote",
                            f"{entry.name}  {found_label(record.id, quote, 60)}",
                            f"{quote.path} {quote.text[:300]}",
                            record.report,
                            record.id,
                            quote.index,
                        )
                    )
                    files.setdefault(quote.path, (record.report, record.id, quote.index))
            for path, (report, record_id, quote_index) in files.items():
                label = f"{entry.name}  {path}"
                found.append(SystemTarget(n, "file", label, path, report, record_id, quote_index))
        return found
