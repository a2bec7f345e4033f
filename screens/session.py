"""What the review screen shows, computed without any UI: rows, badges, progress, filters.

`ReviewSession` holds the loaded reports, the anchors once they arrive and the reviewer's current
verdicts (a cache of `VerdictStore.current`). The screen asks it; the store is written by the
screen's writer thread, which hands the resulting events back through `apply()`.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from db.keys import ItemRef, Verdict, make_key, quote_items, record_keys, review_key
from evidence.model import Anchor, Kind, Quote, Record, Report, ReportSet
from evidence.sarif.facts import baseline_state, suppression_state
from evidence.sarif.triage import only_location
from screens.quote_status import BADGES, quote_numbers, quote_status
from screens.result_groups import ResultGroups
from screens.session_rows import Progress, Row

if TYPE_CHECKING:
    from db import Event
    from evidence.citations import CitedPath
    from evidence.drift import Drift
    from evidence.drift_files import FileDrift
    from evidence.revision import GrepHit

FILTERS: tuple[str, ...] = ("all", "unreviewed", "refuted", "failing quotes")
#: filters added when SARIF results are loaded: only results new since the baseline, and every
#: record but the results a suppression (accepted) hides
SARIF_FILTERS: tuple[str, ...] = ("new results", "unsuppressed")

#: the filter added once drift against a newer revision is known (screens/review/drift.py)
DRIFT_FILTER = "drifted"
#: the filters read from a record's counts (`_count`: reviewed, refuted, skipped, then its quotes')
BY_COUNTS = {"unreviewed": lambda c: not (c[0] or c[2]), "refuted": lambda c: bool(c[1] or c[4])}
NOTHING = (0,) * 6  # the counts of a record nothing is on

#: section order within a report (the rest keep their order of appearance)
KIND_ORDER: dict[Kind, int] = {kind: n for n, kind in enumerate((
    Kind.NARRATIVE, Kind.COMPONENT, Kind.OBJECT, Kind.ROUTE, Kind.CLAIM, Kind.ABSENCE,
    Kind.AUTHORITY, Kind.ANNOTATION))}  # fmt: skip


class ReviewSession:
    """The state of one review: reports, anchors, the reviewer's verdicts and a cursor."""

    def __init__(self, reportset: ReportSet, reviewer: str) -> None:
        self.reportset = reportset
        self.reviewer = reviewer
        #: the key the store keeps this review's position under (made once: every move asks)
        self.review_key = review_key(reviewer, (report.identity for report in reportset.reports))
        self.anchors: dict[Quote, Anchor] = {}
        self.replays: dict[tuple[str, int], list[GrepHit]] = {}
        #: (report file, record id) -> the record's cited paths and their state, once checked
        self.citations: dict[tuple[str, str], tuple[CitedPath, ...]] = {}
        self._current: dict[str, Event] = {}  # item key -> the reviewer's latest event
        #: each record's share of `progress` (six counts), and their sums: a verdict recounts
        #: the records it is on, not the whole review
        self._shares: dict[int, tuple[int, ...]] | None = None
        self._totals = [0] * 6
        self._by_key: dict[str, list[int]] | None = None  # record key -> record indexes
        # record key -> other reviewers' current events on the record and its quotes
        self.others: dict[str, list[Event]] = {}
        self.synced: dict[str, object] | None = None  # what the last `assay sync` did
        self.anchored = False
        #: why the quotes cannot be checked (the revision cannot be opened), or None
        self.unchecked: str | None = None
        self.drifts: dict[Quote, Drift] = {}  # each quote's passage at the newer revision
        #: each cited file (path as cited, lines named) at the newer revision
        self.cited_drifts: dict[tuple[str, tuple[int, int] | None], FileDrift] = {}
        self.records: list[Record] = self._ordered_records()
        self._index = {id(record): n for n, record in enumerate(self.records)}
        self._quote_items: dict[Quote, ItemRef] = {}
        self._annotations: dict[str, tuple[Record, ...]] | None = None
        self._ids: dict[str, int | None] | None = None  # record id -> its index (`find`)
        self._quote_count = sum(len(record.quotes) for record in self.records)
        self._has_results = any(record.kind is Kind.RESULT for record in self.records)
        self._record_items: dict[int, ItemRef] = {}  # id(record) -> its store item
        self._record_keys: dict[int, str] = {}  # id(record) -> its store item's key
        self._item_keys: dict[int, tuple[str, ...]] = {}  # id(record) -> `item_keys`
        self._identities: dict[str, str] = {}  # a report's file -> its identity
        self._failing: tuple[dict[Quote, Anchor], dict[int, bool]] = ({}, {})  # see `failing`
        self._failing_total: tuple[dict[Quote, Anchor], int] = ({}, 0)  # counted per anchors
        # the first report of each file name, as `ReportSet.report_of` finds it, without its scan
        self._reports = {report.file: report for report in reversed(reportset.reports)}
        #: report file -> its records, in list order (the list is grouped by report)
        self._of_report: dict[str, list[int]] = {}
        for n, record in enumerate(self.records):
            self._of_report.setdefault(record.report, []).append(n)
        #: the SARIF results, listed in groups (by rule, file or severity) after the reports
        self.results = ResultGroups(reportset, self.records)
        self._result_rows: list[Row] = []  # position -> its row, made once (for the results)
        #: filter -> (what its rows were made from, the rows): `rows` again is a lookup
        self._filtered: dict[str, tuple[tuple[object, ...], tuple[object, ...], list[Row]]] = {}
        self._verdicts_seen = 0  # counts the changes of `current` (the filters depend on it)
        #: record positions in the order the records pane lists them
        self.order: list[int] = self.results.list_order(len(self.records))
        self._rank = {n: rank for rank, n in enumerate(self.order)}

    def cycle_grouping(self) -> str:
        """Group the SARIF results by the next way (rule, file, severity); returns it."""
        grouping = self.results.next_grouping()
        self.order = self.results.list_order(len(self.records))
        self._rank = {n: rank for rank, n in enumerate(self.order)}
        return grouping

    def _ordered_records(self) -> list[Record]:
        ordered: list[Record] = []
        for report in self.reportset.reports:
            ordered.extend(
                sorted(report.records, key=lambda record: KIND_ORDER.get(record.kind, 9))
            )
        return ordered

    # --- identities --------------------------------------------------------------------------

    def report_of(self, record: Record) -> Report:
        """The report holding a record."""
        report = self._reports.get(record.report)
        assert report is not None, record.report
        return report

    def index_of(self, record: Record) -> int:
        """Position of a record in `records`."""
        return self._index[id(record)]

    def find(self, record_id: str) -> int | None:
        """Index of the declared record (else any record) with this id."""
        if self._ids is None:  # made once: a reference followed scanned every record
            declared: dict[str, int | None] = {}
            for report in self.reportset.reports:  # as `ReportSet.record` finds them
                for record in report.records:
                    if record.kind is not Kind.ANNOTATION and record.id not in declared:
                        declared[record.id] = self._index.get(id(record))
            for n, record in enumerate(self.records):  # else any record with the id
                declared.setdefault(record.id, n)
            self._ids = declared
        return self._ids.get(record_id)

    def identity(self, record: Record) -> str:
        """The identity of the report holding a record (`Report.identity`, made once a report)."""
        identity = self._identities.get(record.report)
        if identity is None:
            identity = self._identities[record.report] = self.report_of(record).identity
        return identity

    def record_item(self, record: Record) -> ItemRef:
        """The store item of a record."""
        item = self._record_items.get(id(record))
        if item is None:  # (`ItemRef.for_record`, the report's identity made once)
            item = self._record_items[id(record)] = ItemRef(self.identity(record), record.id)
        return item

    def quote_item(self, record: Record, quote: Quote) -> ItemRef:
        """The store item of one quote of a record (kept: its key hashes the quote's text)."""
        item = self._quote_items.get(quote)
        if item is None:  # the record's quotes are hashed together: every one kept at once
            report = self.report_of(record)
            for each, made in zip(record.quotes, quote_items(report, record), strict=True):
                self._quote_items.setdefault(each, made)
            item = self._quote_items.get(quote)
            if item is None:  # not one of the record's quotes
                item = self._quote_items[quote] = ItemRef.for_quote(report, record, quote)
        return item

    # --- verdicts ----------------------------------------------------------------------------

    def event(self, item: ItemRef) -> Event | None:
        """The reviewer's current event on an item."""
        return self.current.get(item.key)

    def set_others(self, events: list[Event]) -> None:
        """Take the other reviewers' current events (e.g. brought by `assay sync`)."""
        self.others = {}
        for event in sorted(events, key=lambda e: (e.reviewer, e.quote or "")):
            self.others.setdefault(event.ref.record_key, []).append(event)

    def others_on(self, record: Record) -> list[tuple[Event, int | None]]:
        """Other reviewers' current events on a record and its quotes, each with the quote's
        index (None for the record itself; -1 for a quote the record no longer holds)."""
        found = self.others.get(self.record_item(record).key, [])
        if not found:
            return []
        report = self.report_of(record)
        positions = {
            ItemRef.for_quote(report, record, quote).quote: n
            for n, quote in enumerate(record.quotes)
        }
        return [
            (event, None if event.quote is None else positions.get(event.quote, -1))
            for event in found
        ]

    def disagrees(self, record: Record) -> bool:
        """Whether reviewers' verdicts (this one's among them) differ on the record or one of
        its quotes (skips left out, as `assay stats` counts disagreements)."""
        others = self.others.get(self.record_item(record).key)
        if not others:
            return False
        from db.events import find_disagreements

        current = self.current
        mine = [event for key in self.item_keys(record) if (event := current.get(key)) is not None]
        return bool(find_disagreements([*others, *mine]))

    def verdict(self, item: ItemRef) -> Verdict | None:
        """The reviewer's current verdict on an item."""
        event = self.current.get(item.key)
        return event.verdict if event is not None else None

    def note(self, item: ItemRef) -> str:
        """The reviewer's current note on an item ("" for none)."""
        event = self.current.get(item.key)
        return (event.note or "") if event is not None else ""

    @property
    def current(self) -> dict[str, Event]:
        """The reviewer's latest event per item key (a cache of `VerdictStore.current`)."""
        return self._current

    @current.setter
    def current(self, events: dict[str, Event]) -> None:
        self._current = events
        self._shares = None  # every record counted again
        self._verdicts_seen += 1

    def apply(self, *events: Event) -> None:
        """Take stored events into the cache of current verdicts (a group verdict's at once)."""
        current = self._current
        for event in events:
            if event.verdict is None and not event.note:
                current.pop(event.item, None)
            else:
                current[event.item] = event
        self._verdicts_seen += 1
        if self._shares is not None:  # each record recounted once
            keys = {make_key(event.report, event.record) for event in events}
            for n in {n for key in keys for n in self.records_with_key(key)}:
                self._count(n)

    def records_with_key(self, record_key: str) -> list[int]:
        """The records whose store item (or whose quotes' items) have this record key (the
        index made whole before it is kept: the anchoring worker makes it too)."""
        if self._by_key is None:
            by_key: dict[str, list[int]] = {}
            for n, record in enumerate(self.records):
                by_key.setdefault(make_key(self.identity(record), record.id), []).append(n)
            self._by_key = by_key
        return self._by_key.get(record_key, [])

    def badge(self, record: Record) -> str:
        """The verdict badge of a record."""
        return BADGES[self.record_verdict(record)]

    def record_verdict(self, record: Record) -> Verdict | None:
        """The reviewer's verdict on a record; for a SARIF result with one location and no
        verdict of its own, the verdict on that location (the result's, in effect)."""
        key = self._record_keys.get(id(record))
        if key is None:
            key = self._record_keys[id(record)] = self.record_item(record).key
        event = self._current.get(key)
        verdict = event.verdict if event is not None else None
        only = only_location(record) if verdict is None else None
        return verdict if only is None else self.verdict(self.quote_item(record, only))

    def quote_marks(self, record: Record) -> list[tuple[str, bool]]:
        """Each quote's verdict badge, in order, and whether the reviewer wrote a note on it."""
        marks = []
        for quote in record.quotes:
            item = self.quote_item(record, quote)
            marks.append((BADGES[self.verdict(item)], bool(self.note(item))))
        return marks

    # --- anchors -----------------------------------------------------------------------------

    def anchor(self, quote: Quote) -> Anchor | None:
        """The anchor of a quote, once anchoring got to it."""
        return self.anchors.get(quote)

    def quote_status(self, record: Record) -> str:
        """Compact status of a record's quotes, cited files and searches, e.g. ``✓3 ≈1 ⊘1 ⌕ 3``."""
        anchors = [self.anchors.get(quote) for quote in record.quotes] if self.anchored else None
        hits = [self.replays.get((search.record, search.line)) for search in record.searches]
        cited = self.cited(record) if record.citations else None
        missing = sum(path.state.missing for path in cited) if cited else 0
        return quote_status(
            len(record.quotes), anchors, hits, unchecked=bool(self.unchecked), files_missing=missing
        )

    def failing(self, record: Record) -> bool:
        """True when one of the record's quotes fails (missing, fuzzy, or claimed range wrong);
        the answers are kept with the anchors they were worked out from."""
        anchors, known = self._failing
        if anchors is not self.anchors:  # anchored (again) since: the anchors are a new dict
            anchors, known = self._failing = (self.anchors, {})
        answer = known.get(id(record))
        if answer is None:
            answer = known[id(record)] = any(
                (anchor := anchors.get(quote)) is not None and anchor.failing
                for quote in record.quotes
            )
        return answer

    def item_keys(self, record: Record) -> tuple[str, ...]:
        """The store keys of the record's item and of its quotes' items, in order (made once)."""
        keys = self._item_keys.get(id(record))
        if keys is None:
            keys = self._item_keys[id(record)] = record_keys(self.identity(record), record)
        return keys

    # --- lists and progress ------------------------------------------------------------------

    def visible(self, record: Record, filter_name: str) -> bool:
        """Whether a record passes a filter of FILTERS."""
        if filter_name in BY_COUNTS:  # each record's counts, kept
            counts = self._counts().get(self._index[id(record)], NOTHING)
            return BY_COUNTS[filter_name](counts)
        if filter_name == "failing quotes":
            return self.failing(record)
        if filter_name == "new results":
            return baseline_state(record) == "new"
        if filter_name == "unsuppressed":
            return suppression_state(record) != "accepted"
        if filter_name == DRIFT_FILTER:
            return any(
                (drift := self.drifts.get(quote)) is not None and drift.status.breaks
                for quote in record.quotes
            ) or any(drift.breaks for drift in self.record_cited_drifts(record))
        return True

    def filter_reason(self, record: Record, filter_name: str) -> str:
        """Why a listed record passes a filter when its badge does not say: ``refuted [2]`` for
        a record listed under "refuted" for its quote [2] (a failing quote shows in its status)."""
        if filter_name == "refuted":
            if self.record_verdict(record) is Verdict.REFUTED:
                return ""
            which = [
                quote
                for quote in record.quotes
                if self.verdict(self.quote_item(record, quote)) is Verdict.REFUTED
            ]
            return f"refuted {quote_numbers(which)}" if which else ""
        return ""

    def filters(self) -> tuple[str, ...]:
        """The filters the reviewer cycles through (SARIF's when results are loaded)."""
        drift = (DRIFT_FILTER,) if self.drifts or self.cited_drifts else ()  # either known
        if self._has_results:
            return FILTERS + SARIF_FILTERS + drift
        return FILTERS + drift

    def rows(self, filter_name: str = "all") -> list[Row]:
        """The records pane: reports, sections and the records passing the filter; then the
        SARIF results in groups (`results`), under their runs' titles."""
        # the same rows until the grouping changes, or what the filter reads: the verdicts, the
        # anchors or the drifts (each a new dict when it changes: compared by `is`)
        key: tuple[object, ...] = (self.results.grouping,)
        if filter_name in BY_COUNTS:
            key += (self._verdicts_seen,)
        dicts = {
            "failing quotes": (self.anchors,),
            DRIFT_FILTER: (self.drifts, self.cited_drifts),
        }.get(filter_name, ())
        cached = self._filtered.get(filter_name)
        if cached is not None and cached[0] == key and all(map(operator.is_, cached[1], dicts)):
            return cached[2]
        rows: list[Row] = []
        records, passes, record_rows = self.records, self.passes(filter_name), self._record_rows()
        for report in self.reportset.reports:
            if report.file in self.results.files:
                continue
            rows.append(Row("report", report.title or report.file))
            section = None
            for n in self._of_report.get(report.file, ()):
                record = records[n]
                if not passes(n):
                    continue
                heading = "Narrative" if record.kind is Kind.NARRATIVE else record.section
                if heading != section:
                    section = heading
                    rows.append(Row("section", section))
                rows.append(record_rows[n])
        if self.results.files:
            rows.append(Row("report", self.results.title))
        for group in self.results.groups() if self.results else ():
            shown = group.members
            if filter_name != "all":
                shown = tuple(filter(passes, shown))
            if shown:
                label, detail = self.results.heading(group, len(shown))
                rows.append(Row("group", label, detail=detail))
                rows.extend(map(self._record_rows().__getitem__, shown))
        self._filtered[filter_name] = (key, dicts, rows)
        return rows

    def passes(self, filter_name: str) -> Callable[[int], bool]:
        """`visible` of the record at a position, for every record of a list at once: the
        verdict filters read a set of the records counted (a lookup each, 120,000 in ms)."""
        test = BY_COUNTS.get(filter_name)
        if test is None:
            return lambda n: self.visible(self.records[n], filter_name)
        shares = self._counts()
        if test(NOTHING):  # the records nothing is on pass: those counted that do not are fewer
            failing = {n for n, counts in shares.items() if not test(counts)}
            return lambda n: n not in failing
        return {n for n, counts in shares.items() if test(counts)}.__contains__

    def _record_rows(self) -> list[Row]:
        """Every record's row, made once: a regrouping lists every one of them again."""
        if not self._result_rows:  # tuple.__new__ directly: Row's own __new__ is slower
            new, rows = tuple.__new__, enumerate(self.records)
            self._result_rows = [new(Row, ("record", r.id, r, n, "")) for n, r in rows]
        return self._result_rows

    def progress(self) -> Progress:
        """Records and quotes reviewed (a verdict other than skip), refuted and skipped; a
        result's verdict on its only location is the result's."""
        self._counts()
        if self._failing_total[0] is not self.anchors:  # a new dict each time it changes
            self._failing_total = (self.anchors, sum(a.failing for a in self.anchors.values()))
        return Progress(len(self.records), self._quote_count, self._failing_total[1], *self._totals)

    def _counts(self) -> dict[int, tuple[int, ...]]:
        """Each record's share of `progress`, kept: counted again only after `current` is set,
        and only the records a verdict or note is on (the others count nothing)."""
        if self._shares is None:
            self._shares, self._totals = {}, [0] * 6
            keys = {make_key(event.report, event.record) for event in self._current.values()}
            for n in sorted({n for key in keys for n in self.records_with_key(key)}):
                self._count(n)
        return self._shares

    def _count(self, n: int) -> None:
        """Count a record's verdicts and its quotes' into the totals again."""
        assert self._shares is not None
        record, counts = self.records[n], [0] * 6
        verdicts = [(0, self.record_verdict(record))]
        events = map(self._current.get, self.item_keys(record)[1:])  # the quotes', made once
        verdicts += [(3, event.verdict if event is not None else None) for event in events]
        for base, verdict in verdicts:
            if verdict is Verdict.SKIP:
                counts[base + 2] += 1
            elif verdict is not None:
                counts[base] += 1
                counts[base + 1] += verdict is Verdict.REFUTED
        before, self._shares[n] = self._shares.get(n, NOTHING), tuple(counts)
        for k in range(6):
            self._totals[k] += counts[k] - before[k]

    def next_index(self, start: int, step: int, filter_name: str = "all") -> int | None:
        """The next record in the list's order (by step, wrapping) passing a filter, or None."""
        count, rank = len(self.records), self._rank[start]
        for offset in range(1, count + 1):
            n = self.order[(rank + step * offset) % count]
            if self.visible(self.records[n], filter_name):
                return n
        return None

    def annotations(self, record: Record) -> tuple[Record, ...]:
        """Annotations from any loaded report on this record (none for annotations)."""
        if record.kind is Kind.ANNOTATION:
            return ()
        if self._annotations is None:  # every record's, in one pass (not one per record shown)
            found: dict[str, list[Record]] = {}
            for other in self.reportset.records():
                if other.kind is Kind.ANNOTATION and other.annotates is not None:
                    found.setdefault(other.annotates, []).append(other)
            self._annotations = {key: tuple(value) for key, value in found.items()}
        return self._annotations.get(record.id, ())

    def record_cited_drifts(self, record: Record) -> list[FileDrift]:
        """The drifts of the files the record cites that were followed (none without REV)."""
        if not self.cited_drifts or not record.citations:
            return []
        found = (self.cited_drifts.get((c.path, c.lines)) for c in self.cited(record) or ())
        return [drift for drift in found if drift is not None]

    def cited(self, record: Record) -> tuple[CitedPath, ...] | None:
        """The record's cited paths with their state at the revision (None: not checked yet)."""
        if not self.anchored:
            return None
        return self.citations.get((record.report, record.id), ())

    def set_replays(self, replays: Mapping[tuple[str, int], list[GrepHit]]) -> None:
        """Store replayed search hits keyed by (record id, report line)."""
        self.replays = dict(replays)
