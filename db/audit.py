"""An audit's verdicts, from its one database: progress per system, and the exports that carry
the system (the md write-up with a summary table of the systems, csv and jsonl with a ``system``
column). A system is known by the identities of its reports (`Report.identity`)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TextIO

from db.events import Event
from db.export import event_line
from db.keys import Verdict
from db.stats import percent_done
from db.store import VerdictStore
from db.writeup import csv_cell, current_csv, failing, markdown, md_text
from evidence.citations import MISSING_STATES
from evidence.text import json_escaped

__all__ = [
    "AuditSystemRef",
    "SystemCounts",
    "audit_csv",
    "audit_jsonl",
    "audit_markdown",
    "system_counts",
]


@dataclass(frozen=True)
class AuditSystemRef:
    """One system of an audit as the store sees it: its name and its reports' identities."""

    name: str
    reports: frozenset[str]
    repository: str | None = None
    #: whether the repository is on this machine (a path named may be gone)
    here: bool = True
    #: records and quotes its reports hold, when they were read: a system never opened has
    #: none registered in the database, and "0/0 reviewed, 0 failing" said nothing was there
    records: int | None = None
    quotes: int | None = None

    def totals(self, count: SystemCounts) -> tuple[int, int, bool]:
        """(records, quotes, registered): the reports' counts when known, and whether the
        database holds the system's items (else its failing quotes and paths are unknown)."""
        registered = count.records + count.quotes > 0 or not (self.records or self.quotes)
        records = count.records if self.records is None else max(self.records, count.records)
        quotes = count.quotes if self.quotes is None else max(self.quotes, count.quotes)
        return records, quotes, registered


@dataclass(frozen=True)
class SystemCounts:
    """What the database knows of one system: registered items, verdicts, reviewers."""

    name: str
    records: int = 0  # registered (present) records
    quotes: int = 0
    records_reviewed: int = 0  # with a verdict other than skip, by anyone
    quotes_reviewed: int = 0
    failing: int = 0  # registered quotes whose stored anchor fails
    citations_missing: int = 0
    reviewers: tuple[str, ...] = ()
    last_activity: str | None = None  # the latest event's time
    disagreements: int = 0
    reviewed_items: frozenset[str] = field(default_factory=frozenset)  # item keys reviewed
    #: verdicts and notes (anyone's) on items its reports registered last no longer hold
    stale: int = 0

    def as_json(self) -> dict[str, Any]:
        """The counts as `assay stats --format json` gives them."""
        return {
            "system": self.name,
            "records": self.records,
            "records_reviewed": self.records_reviewed,
            "quotes": self.quotes,
            "quotes_reviewed": self.quotes_reviewed,
            "failing_quotes": self.failing,
            "citations_missing": self.citations_missing,
            "reviewers": list(self.reviewers),
            "last_activity": self.last_activity,
            "disagreements": self.disagreements,
            "stale": self.stale,
        }


def _judged(event: Event) -> bool:
    return event.verdict is not None and event.verdict is not Verdict.SKIP


def system_counts(
    store: VerdictStore,
    systems: Sequence[AuditSystemRef],
    *,
    items: list[dict[str, Any]] | None = None,
    events: list[Event] | None = None,
) -> list[SystemCounts]:
    """Counts per system from one read of the items, current verdicts and citations."""
    if items is None:  # the columns the counts use: a scan's whole rows took 460 MB
        items = store.items(("item", "report", "present", "quote", "tier", "range_ok"))
    events = store.current_all() if events is None else events
    citations = store.citations()
    disagreements = store.disagreements()
    every_event = store.events()
    gone = {item["item"] for item in items if not item["present"]}
    found = []
    for system in systems:
        mine = [item for item in items if item["report"] in system.reports and item["present"]]
        current = [event for event in events if event.report in system.reports]
        judged = {event.item for event in current if _judged(event)}
        quotes = [item for item in mine if item["quote"] is not None]
        records = [item for item in mine if item["quote"] is None]
        latest = max((e.at for e in every_event if e.report in system.reports), default=None)
        found.append(
            SystemCounts(
                system.name,
                records=len(records),
                quotes=len(quotes),
                records_reviewed=sum(1 for item in records if item["item"] in judged),
                quotes_reviewed=sum(1 for item in quotes if item["item"] in judged),
                failing=sum(1 for item in quotes if failing(item)),
                citations_missing=sum(
                    1
                    for cited in citations
                    if cited["report"] in system.reports
                    and cited["present"]
                    and cited["state"] in MISSING_STATES
                ),
                reviewers=tuple(sorted({event.reviewer for event in current})),
                last_activity=latest,
                disagreements=sum(
                    1 for found in disagreements if found.item.split("#", 1)[0] in system.reports
                ),
                reviewed_items=frozenset(judged),
                stale=sum(1 for event in current if event.item in gone),
            )
        )
    return found


def _percent(done: int, total: int) -> str:
    return percent_done(done, total) if total else "-"


def audit_markdown(
    store: VerdictStore,
    systems: Sequence[AuditSystemRef],
    *,
    audit: str,
    reviewer: str | None = None,
    of: int | None = None,
) -> str:
    """One write-up for the audit: a summary table of the systems, then each system's
    write-up as `assay export --format md` gives it for that system alone (``of``: how many
    systems the audit has, when only some are written)."""
    counts = system_counts(store, systems)
    lines = ["# assay audit write-up", "", f"- Audit: {md_text(audit)}"]
    if of is not None and of != len(systems):
        names = ", ".join(md_text(system.name) for system in systems)
        lines.append(f"- Systems: {names} ({len(systems)} of the audit's {of})")
    lines.append(f"- Date: {datetime.now(UTC).strftime('%Y-%m-%d')}")
    lines += ["", "## Summary", ""]
    lines.append(
        "| system | repository | records reviewed | quotes reviewed | failing quotes "
        "| missing citations | stale verdicts | reviewers |"
    )
    lines.append("|---" * 8 + "|")
    for system, count in zip(systems, counts, strict=True):
        where = md_text(system.repository) if system.repository else "not on this machine"
        if system.repository and not system.here:  # as `assay check --audit` says it
            where = f"not on this machine ({where})"
        records, quotes, registered = system.totals(count)
        # never opened nor registered: how many fail is not known
        failing, missing = (count.failing, count.citations_missing) if registered else ("–", "–")
        lines.append(
            f"| {md_text(system.name)} | {where} "
            f"| {count.records_reviewed}/{records} "
            f"({_percent(count.records_reviewed, records)}) "
            f"| {count.quotes_reviewed}/{quotes} "
            f"({_percent(count.quotes_reviewed, quotes)}) "
            f"| {failing} | {missing} | {count.stale} "
            f"| {', '.join(md_text(r) for r in count.reviewers) or '-'} |"
        )
    for system in systems:
        body = markdown(store, reviewer=reviewer, reports=system.reports).splitlines()
        lines += ["", f"## System: {md_text(system.name)}"]
        # the system's own write-up, one heading level down
        lines += [f"#{line}" if line.startswith("#") else line for line in body[1:]]
    return "\n".join(lines) + "\n"


def _system_names(systems: Sequence[AuditSystemRef]) -> dict[str, str]:
    return {report: system.name for system in systems for report in system.reports}


def audit_csv(
    store: VerdictStore,
    out: TextIO,
    systems: Sequence[AuditSystemRef],
    *,
    reviewer: str | None = None,
) -> None:
    """`current_csv` of the audit's reports, with the system in a first column."""
    names = _system_names(systems)
    text = io.StringIO()
    current_csv(store, text, reviewer=reviewer)
    rows = csv.reader(io.StringIO(text.getvalue()))
    writer = csv.writer(out, lineterminator="\n")
    header = next(rows)
    writer.writerow(["system", *header])
    report = header.index("report")
    for row in rows:
        name = names.get(row[report])
        if name is not None:
            writer.writerow([csv_cell(name), *row])


def audit_jsonl(
    store: VerdictStore,
    out: TextIO,
    systems: Sequence[AuditSystemRef],
    *,
    reviewer: str | None = None,
) -> int:
    """The event log of the audit's reports, each line with a last key ``system`` (which
    `assay import` ignores); returns the number of events."""
    names = _system_names(systems)
    count = 0
    for event in store.events(reviewer):
        name = names.get(event.report)
        if name is None:
            continue
        line = event_line(event)
        out.write(f'{line[:-1]},"system":{json_escaped(json.dumps(name, ensure_ascii=False))}}}\n')
        count += 1
    return count


def identities(reports: Collection[Any]) -> frozenset[str]:
    """The identities of loaded reports (`Report.identity`)."""
    return frozenset(report.identity for report in reports)
