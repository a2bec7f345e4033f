"""How SARIF results are sorted for triage: grouped by rule, by file or by severity.

Read from the records evidence/sarif/results.py makes (a result's rule is its section, its level
a status, a ``security-severity`` score a field, its first location its first quote), so a list of
results can be grouped again at every key press without the SARIF file.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from evidence.model import Kind, Quote, Record

__all__ = [
    "GROUPINGS",
    "SEVERITIES",
    "Group",
    "ResultFacts",
    "by_places",
    "group_results",
    "only_location",
    "result_facts",
    "severity",
]

#: the ways a list of results can be grouped, in the order a key cycles them
GROUPINGS: tuple[str, ...] = ("rule", "file", "severity")

#: worst first: a ``security-severity`` score's names (CodeQL, GitHub), then SARIF's levels
SEVERITIES: tuple[str, ...] = ("critical", "high", "medium", "low", "error", "warning", "note")
_NAMES = (*SEVERITIES, "none")
_RANK = {name: rank for rank, name in enumerate(_NAMES)}
_LEVELS = frozenset(("error", "warning", "note", "none"))


def severity(record: Record) -> str:
    """critical/high/medium/low from a ``security-severity`` score (GitHub's bands), else the
    result's SARIF level (error, warning, note, none)."""
    for name, value in record.fields:
        if name == "security-severity":
            band = _band(value)
            if band is not None:
                return band
            break
    for name, value in record.statuses:  # a loop, not next(): this runs for every result
        if name == "level":
            return value if value in _LEVELS else "warning"
    return "warning"


def _band(score_text: str) -> str | None:
    """GitHub's band of a ``security-severity`` score; None for no score or one of 0."""
    try:
        score = float(score_text)
    except ValueError:
        return None
    if score >= 9.0:
        return "critical"
    if score >= 7.0:
        return "high"
    if score >= 4.0:
        return "medium"
    if score > 0.0:
        return "low"
    return None


def only_location(record: Record) -> Quote | None:
    """The quote of a result that has one location and nothing else (no code flow, no related
    location): a verdict on it is the result's verdict. None for any other record."""
    if record.kind is not Kind.RESULT or len(record.quotes) != 1:
        return None
    return record.quotes[0]


class ResultFacts(NamedTuple):
    """What a result is grouped and sorted by."""

    rule: str
    tool: str  # the name of the tool whose run holds it
    path: str  # of its first location ("" when it has none)
    line: int  # its first line (0 when not given)
    severity: str


def result_facts(record: Record, tool: str) -> ResultFacts:
    """The facts of one result record of ``tool``'s run."""
    first = record.quotes[0] if record.quotes else None
    path = first.path if first is not None else ""
    line = first.claimed[0] if first is not None and first.claimed else 0
    return ResultFacts(record.section, tool, path, line, severity(record))


_KEYS: dict[str, Callable[[tuple[int, ResultFacts]], tuple[str, str]]] = {
    "rule": lambda pair: (pair[1].tool, pair[1].rule),
    "file": lambda pair: ("", pair[1].path),
    "severity": lambda pair: ("", pair[1].severity),
}


def by_places(facts: Sequence[tuple[int, ResultFacts]]) -> list[tuple[int, ResultFacts]]:
    """The results in file and line order (as given, for equal places)."""
    return sorted(facts, key=lambda pair: (pair[1].path, pair[1].line, pair[0]))


class Group(NamedTuple):
    """One group of the list: its label, the worst severity of its results, their positions."""

    label: str  # the rule id, the file's path or the severity
    tool: str  # rule groups: the tool the rule belongs to ("" otherwise)
    severity: str  # the worst of its results'
    members: tuple[int, ...]  # positions given to `group_results`, in the order listed


def group_results(
    facts: Sequence[tuple[int, ResultFacts]], grouping: str, *, by_place: bool = False
) -> list[Group]:
    """The results (``(position, facts)`` pairs) in groups, in the order a list shows them.

    ``rule``: one group per rule of a tool, worst severity first, then the most results;
    ``file``: one per path, by path (results without a location last); ``severity``: worst
    first. Within a group, results are in file and line order (as read, for equal places)."""
    if grouping not in GROUPINGS:
        raise ValueError(f"unknown grouping {grouping!r}")
    # one sort by place, then each group keeps that order
    ordered = facts if by_place else by_places(facts)
    key_of = _KEYS[grouping]  # C-level getters: this runs at a key press, on every result
    places: dict[tuple[str, str], list[int]] = {}  # group -> indexes into `ordered`
    for index, key in enumerate(map(key_of, ordered)):
        found = places.get(key)
        if found is None:
            places[key] = [index]
        else:
            found.append(index)
    positions = [position for position, _ in ordered]
    ranks = [_RANK[fact.severity] for _, fact in ordered]
    members: dict[tuple[str, str], list[int]] = {}
    worst: dict[tuple[str, str], int] = {}
    for key, indexes in places.items():
        members[key] = list(map(positions.__getitem__, indexes))
        worst[key] = min(map(ranks.__getitem__, indexes))
    groups: list[tuple[tuple[object, ...], Group]] = []
    for key, positions in members.items():
        tool, label = key
        order: tuple[object, ...]
        if grouping == "rule":
            order = (worst[key], -len(positions), label, tool)
        elif grouping == "file":
            order = (not label, label)  # results without a location last
        else:
            order = (worst[key],)
        groups.append((order, Group(label, tool, _NAMES[worst[key]], tuple(positions))))
    groups.sort(key=lambda pair: pair[0])
    return [group for _, group in groups]
