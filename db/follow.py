"""Verdicts read on the results their findings are now, by the revision they were given at.

A review's rescan pairs each result that went with the one its finding became (``result_moves``,
db/carry.py) and carries its own reviewer's verdicts along, in their name. A teammate's verdict
on an id reaches this database by sync whenever they sync, and is about the finding that stood
there at the revision they judged it at: when a rescan since gave that id to another finding,
the verdict read on the id would be on the wrong one. So reads place each event on the result
its finding became: from its own revision, the first move of its id between that revision and
the next scan, then the first move after that, and on. An event is followed no further once its
reviewer has events at a revision past the move (one they rescanned to: their own review carried
what was theirs) or at one this database never registered (nothing says what came between).
Moves kept before migration 11 name no revisions and are not followed here.
"""

from __future__ import annotations

import bisect
import heapq
from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from db.events import Event
from db.gathered import gathered
from db.keys import make_key

if TYPE_CHECKING:
    import sqlite3

__all__ = ["Moves", "follow", "follows_any", "read_moves"]

#: moves followed at most from an event's id to the result held now
MOST_MOVES = 1000


class Move(NamedTuple):
    at: str  # when the registration that made it ran (one time for all its moves)
    new: str
    from_revision: str
    to_revision: str


class Registrations(NamedTuple):
    """One report's registrations that moved results, in time: what each one knew of."""

    times: list[str]  # sorted
    known: list[frozenset[str]]  # revisions of the scans up to each one's old scan


class Moves(NamedTuple):
    """A database's moves that name their revisions, by report then old id (in time)."""

    by_old: dict[str, dict[str, list[Move]]]
    registrations: dict[str, Registrations]


def read_moves(conn: sqlite3.Connection) -> Moves:
    """Every move that names the revisions it is between (empty before migration 11)."""
    by_old: dict[str, dict[str, list[Move]]] = defaultdict(lambda: defaultdict(list))
    scans: dict[str, dict[str, tuple[set[str], set[str]]]] = defaultdict(dict)
    if not _has_revisions(conn):
        return Moves({}, {})
    for report, old, new, at, before, after in gathered(
        conn,
        "SELECT json_group_array(json_array(report, old, new, at, from_revision, to_revision))"
        " FROM result_moves WHERE from_revision IS NOT NULL AND to_revision IS NOT NULL",
    ):
        by_old[report][old].append(Move(at, new, before, after))
        froms, tos = scans[report].setdefault(at, (set(), set()))
        froms.add(before)
        tos.add(after)
    for olds in by_old.values():
        for steps in olds.values():
            steps.sort()
    registrations = {}
    for report, by_time in scans.items():
        times = sorted(by_time)
        known: list[frozenset[str]] = []
        seen: set[str] = set()
        for at in times:
            froms, tos = by_time[at]
            known.append(frozenset(seen | froms))
            seen |= froms | tos
        registrations[report] = Registrations(times, known)
    return Moves({report: dict(olds) for report, olds in by_old.items()}, registrations)


def follow(conn: sqlite3.Connection, current: Sequence[Event]) -> list[Event]:
    """``current`` (each reviewer's latest event per item, ordered by item then reviewer) with
    every event placed on the result its finding is now; two on one item of a reviewer: the
    later stands, as on any item. Unchanged when no move names its revisions."""
    moves = read_moves(conn)
    if not moves.by_old:
        return list(current)
    revisions = _revisions(conn, list(moves.by_old))
    moved: dict[tuple[str, str], Event] = {}
    stayed: list[Event] = []
    for event in current:
        olds = moves.by_old.get(event.report)
        record = event.record
        if olds is not None and event.revision is not None and record in olds:
            record = _followed(event, olds, moves.registrations[event.report], revisions)
        if record == event.record:
            stayed.append(event)
            continue
        there = Event(
            event.event, make_key(event.report, record, event.quote), event.report, record,
            event.quote, event.reviewer, event.verdict, event.note, event.at, event.revision,
            event.undoes,
        )  # fmt: skip
        earlier = moved.get((there.item, there.reviewer))
        if earlier is None or (earlier.at, earlier.event) < (there.at, there.event):
            moved[(there.item, there.reviewer)] = there
    if not moved:
        return list(current)
    kept = []
    for event in stayed:
        came = moved.get((event.item, event.reviewer))
        if came is None:
            kept.append(event)
        elif (came.at, came.event) < (event.at, event.event):
            kept.append(event)
            del moved[(event.item, event.reviewer)]
    arrived = sorted(moved.values(), key=_order)
    return list(heapq.merge(kept, arrived, key=_order))


def _order(event: Event) -> tuple[str, str]:
    return (event.item, event.reviewer)


def _followed(
    event: Event,
    olds: dict[str, list[Move]],
    scans: Registrations,
    revisions: dict[tuple[str, str], set[str]],
) -> str:
    """The id of the result the event's finding is now (its own when no move applies)."""
    record, since, revision = event.record, "", event.revision
    theirs = revisions.get((event.report, event.reviewer), set())
    for _ in range(MOST_MOVES):
        for step in olds.get(record, ()):  # the first move of the id from there, in time
            if step.at > since and step.from_revision == revision:
                break
        else:
            break
        known = scans.known[bisect.bisect_left(scans.times, step.at)]
        if not theirs <= known:
            break  # they reviewed the scan it came in, or one not registered here
        record, since, revision = step.new, step.at, step.to_revision
    return record


def _revisions(conn: sqlite3.Connection, reports: list[str]) -> dict[tuple[str, str], set[str]]:
    """The revisions each reviewer's events on these reports were given at, by (report,
    reviewer)."""
    found: dict[tuple[str, str], set[str]] = defaultdict(set)
    marks = ", ".join("?" * len(reports))
    for report, reviewer, revision in gathered(
        conn,
        "SELECT json_group_array(json_array(report, reviewer, revision)) FROM (SELECT DISTINCT"
        f" report, reviewer, revision FROM events WHERE report IN ({marks})"
        " AND revision IS NOT NULL)",
        reports,
    ):
        found[(report, reviewer)].add(revision)
    return found


def follows_any(conn: sqlite3.Connection) -> bool:
    """Whether some move names its revisions: reads of this database may place events elsewhere
    than their items."""
    if not _has_revisions(conn):
        return False
    found = conn.execute("SELECT 1 FROM result_moves WHERE from_revision IS NOT NULL LIMIT 1")
    return found.fetchone() is not None


def _has_revisions(conn: sqlite3.Connection) -> bool:
    """Whether ``result_moves`` names revisions (a database read before it migrated may not)."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(result_moves)")}
    return "from_revision" in columns
