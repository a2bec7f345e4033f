"""Review progress, verdict counts and agreement between reviewers."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass
from itertools import combinations
from typing import Any

from db.events import Event, find_disagreements
from db.keys import Verdict
from db.store import VerdictStore

#: verdicts that judge an item; skip says the reviewer did not, so agreement leaves it out
JUDGEMENTS = (Verdict.CONFIRMED, Verdict.REFUTED, Verdict.UNCLEAR)


def percent_done(done: int, total: int) -> str:
    """How much of ``total`` is done, as a reviewer reads it: rounded down, so "100%" only when
    all is (1,096 of 1,097 is "99%"), and "<1%" once anything is (1 of 1,097 is not "0%")."""
    if total <= 0:
        return "100%"
    if done > 0 and 100 * done < total:
        return "<1%"
    return f"{100 * done // total}%"


@dataclass(frozen=True)
class Agreement:
    """How two reviewers agree on the items both judged."""

    first: str
    second: str
    items: int  # items both gave a verdict other than skip
    agreed: int
    percent: float | None  # None when they share no item
    kappa: float | None  # Cohen's kappa; None when undefined (no items, or chance agreement 1)


@dataclass(frozen=True)
class Progress:
    """Reviewed items of one kind in one report (quotes have kind "quote")."""

    report: str
    kind: str
    total: int | None  # None when the report's items were never registered
    reviewed: int  # items with a verdict by at least one reviewer


@dataclass(frozen=True)
class ReviewerProgress:
    """One reviewer's verdicts on one report: items judged out of those registered."""

    reviewer: str
    report: str
    total: int | None  # registered items of the report; None when never registered
    reviewed: int  # items this reviewer gave a verdict (skip included)


def cohen_kappa(pairs: list[tuple[str, str]]) -> float | None:
    """Cohen's kappa for paired labels; None when it is undefined."""
    if not pairs:
        return None
    n = len(pairs)
    observed = sum(a == b for a, b in pairs) / n
    first = Counter(a for a, _ in pairs)
    second = Counter(b for _, b in pairs)
    expected = sum(first[label] * second[label] for label in first) / (n * n)
    if expected == 1:
        return None
    return (observed - expected) / (1 - expected)


def agreement(events: list[Event]) -> list[Agreement]:
    """Percent agreement and Cohen's kappa for every pair of reviewers (current verdicts)."""
    by_reviewer: dict[str, dict[str, str]] = {}
    for event in events:
        if event.verdict in JUDGEMENTS:
            by_reviewer.setdefault(event.reviewer, {})[event.item] = str(event.verdict)
    found = []
    for first, second in combinations(sorted(by_reviewer), 2):
        a, b = by_reviewer[first], by_reviewer[second]
        pairs = [(a[item], b[item]) for item in sorted(a.keys() & b.keys())]
        agreed = sum(x == y for x, y in pairs)
        found.append(
            Agreement(
                first,
                second,
                len(pairs),
                agreed,
                100.0 * agreed / len(pairs) if pairs else None,
                cohen_kappa(pairs),
            )
        )
    return found


def progress(items: list[dict[str, Any]], events: list[Event]) -> list[Progress]:
    """Per report and kind: items registered and items reviewed by anyone."""
    reviewed = {e.item: e for e in events if e.verdict is not None}
    counts: dict[tuple[str, str], list[int]] = {}
    registered_reports = set()
    for item in items:
        if not item["present"]:
            continue
        registered_reports.add(item["report"])
        kind = "quote" if item["quote"] is not None else item["kind"]
        total_done = counts.setdefault((item["report"], kind), [0, 0])
        total_done[0] += 1
        total_done[1] += item["item"] in reviewed
    found = [Progress(r, k, total, done) for (r, k), (total, done) in counts.items()]
    loose: Counter[tuple[str, str]] = Counter()
    for event in reviewed.values():
        if event.report not in registered_reports:
            loose[(event.report, "quote" if event.quote else "record")] += 1
    found += [Progress(r, k, None, done) for (r, k), done in loose.items()]
    return sorted(found, key=lambda p: (p.report, p.kind))


def reviewer_progress(items: list[dict[str, Any]], events: list[Event]) -> list[ReviewerProgress]:
    """Per reviewer and report: the items they gave a verdict, of the registered ones."""
    totals = Counter(item["report"] for item in items if item["present"])
    present = {item["item"] for item in items if item["present"]}
    done: Counter[tuple[str, str]] = Counter()
    for event in events:
        if event.verdict is None:
            continue
        if event.report not in totals or event.item in present:
            done[(event.reviewer, event.report)] += 1
    return [
        ReviewerProgress(reviewer, report, totals.get(report), count)
        for (reviewer, report), count in sorted(done.items())
    ]


def stale_counts(items: list[dict[str, Any]], events: list[Event]) -> dict[str, int]:
    """Per reviewer: their verdicts and notes on items the reports registered last no longer
    hold (a quote edited, a record or a scanner's result gone): stale, listed by `w` in the
    review and in the write-up."""
    gone = {item["item"] for item in items if not item["present"]}
    return dict(sorted(Counter(e.reviewer for e in events if e.item in gone).items()))


def disagreements(events: list[Event]) -> list[dict[str, Any]]:
    """Each item reviewers disagree on: its key, report, record, quote hash, every reviewer's
    verdict and note (None without one)."""
    notes = {(event.item, event.reviewer): event.note for event in events}
    return [
        {
            "item": found.item,
            "report": found.report,
            "record": found.record,
            "quote": found.quote,
            "verdicts": dict(found.verdicts),
            "notes": {
                reviewer: notes.get((found.item, reviewer)) for reviewer, _ in found.verdicts
            },
        }
        for found in find_disagreements(events)
    ]


def summary(store: VerdictStore) -> dict[str, Any]:
    """Everything `assay stats` shows, as plain data."""
    events = store.current_all()
    items = store.items(("item", "report", "kind", "quote", "present"))  # what the counts use
    counts: dict[str, dict[str, int]] = {}
    for event in events:
        if event.verdict is not None:
            per = counts.setdefault(event.reviewer, {v.value: 0 for v in Verdict})
            per[event.verdict.value] += 1
    return {
        "events": store.count(),
        "reviewers": store.reviewers(),
        "progress": [asdict(p) for p in progress(items, events)],
        "reviewer_progress": [asdict(p) for p in reviewer_progress(items, events)],
        "verdicts": counts,
        "stale": stale_counts(items, events),
        "disagreements": disagreements(events),
        "agreement": [asdict(a) for a in agreement(events)],
    }
