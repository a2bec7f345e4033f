"""Verdicts that follow their findings into a new scan.

A SARIF result with no fingerprint of its own is known by its rule and location, so a scan of
edited code (lines added above a finding) gives the same finding another id: its verdict would
stay on the old id, stale, and the finding come back unreviewed. When a review registers a scan,
each result of the scan registered before it that the new one no longer holds is paired with a
result that came, when they are the same finding: the same rule, message, file and code (the
first location's path and text), and as many of that finding went as came (paired in line
order). The pairs are kept (``result_moves``), so that each reviewer's own review carries their
verdicts and notes along them, through every scan since; never in another reviewer's name (reads
place a teammate's verdicts along them: db/follow.py). The old items are left unreviewed by an
event of their own: the history keeps both.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import TYPE_CHECKING, NamedTuple

from db.events import COLUMNS, INTO, event_from_row, later_than, row_values
from db.gathered import gathered, insert_rows
from db.keys import ItemRef, normalize_quote, record_quote_hashes
from db.writes import new_event, next_at

if TYPE_CHECKING:
    import sqlite3

    from db.events import Event
    from evidence.model import Record, Report

__all__ = ["Carried", "LinesAfter", "Renamed", "carry", "finding_of"]

#: what a finding is, whatever its id: (rule, message, path, code) of its first location
Finding = tuple[str, str, str, str]
#: (old revision, {path: old lines}) -> {(path, old line): its line at the revision reviewed}
LinesAfter = Callable[[str, Mapping[str, Collection[int]]], dict[tuple[str, int], int]]
#: (old revision, paths at it) -> {path: its new name} for the files renamed since, as git's diff
#: between it and the revision reviewed says
Renamed = Callable[[str, Collection[str]], dict[str, str]]
#: scans followed at most from a verdict's result to the one held now
MOST_MOVES = 1000


class Carried(NamedTuple):
    """What `carry` wrote: the events on the results held now, those that leave the old ones
    unreviewed (earlier: apply them first), and how many findings each report identity's
    verdicts followed."""

    events: list[Event]
    closed: list[Event]
    findings: dict[str, int]


def carry(
    conn: sqlite3.Connection,
    reports: Iterable[Report],
    reviewer: str,
    revision: str | None,
    lines_after: LinesAfter | None = None,
    renamed: Renamed | None = None,
) -> Carried:
    """Pair the results of each scan in ``reports`` with those of the scan registered before
    it, then carry ``reviewer``'s verdicts and notes along every pair kept. Called before the
    reports are registered (their items are the last scan's until then). ``lines_after`` maps
    lines of an earlier revision to the one reviewed (evidence/line_map.py), to tell apart the
    results of a finding that went and came unequally."""
    events: list[Event] = []
    closed: list[Event] = []
    findings: dict[str, int] = {}
    at = next_at(conn, reviewer)
    # after the events leaving the old items: a result held by another finding now leaves its
    # own and takes the other's, in that order
    after = later_than(at, at)
    # this registration's moves are stamped `at`: a verdict carried along them (at `after`)
    # follows only later scans' moves, never these again
    # the runs of one identity (two files of one tool's scan) are one registration's results
    held: dict[str, dict[str, Record]] = defaultdict(dict)
    for report in reports:
        for record in report.records:
            held[report.identity].setdefault(record.id, record)
    for identity, records in held.items():
        reused = _pair(conn, identity, records, at, lines_after, renamed, revision)
        (latest,) = conn.execute(
            "SELECT max(at) FROM result_moves WHERE report = ?", (identity,)
        ).fetchone()
        followed_to = conn.execute(
            "SELECT at FROM result_moves_followed WHERE report = ? AND reviewer = ?",
            (identity, reviewer),
        ).fetchone()
        if latest is None or (followed_to is not None and followed_to[0] >= latest):
            continue  # no scan moved its results since this reviewer's verdicts followed
        conn.execute(
            "INSERT OR REPLACE INTO result_moves_followed VALUES (?, ?, ?)",
            (identity, reviewer, latest),
        )
        moving, reviewed = _current(conn, reviewer, identity)
        if not moving:
            continue
        reviewed -= reused  # what they hold leaves them
        moves: dict[str, list[tuple[str, str]]] = defaultdict(list)  # old -> [(at, new)]
        for old, new, when in gathered(
            conn,
            "SELECT json_group_array(json_array(old, new, at)) FROM result_moves WHERE report = ?",
            (identity,),
        ):
            moves[old].append((when, new))
        for steps in moves.values():
            steps.sort()
        for old_id, old_events in moving.items():
            if old_id in reused:  # what was judged on this revision is the new finding's
                old_events = [event for event in old_events if event.revision != revision]
            # each event follows the moves made after it: one given on an id another finding
            # took since is about that finding
            to: dict[str, list[Event]] = defaultdict(list)
            for event in old_events:
                target = _followed(old_id, moves, records, event.at, reused)
                if target is not None and target not in reviewed:  # else: the new one stands
                    to[target].append(event)
            for target, here in to.items():
                followed = here
                if any(event.quote is not None for event in here):
                    hashes = set(record_quote_hashes(records[target]))
                    followed = [  # on the locations it still has
                        event for event in here if event.quote is None or event.quote in hashes
                    ]
                for event in followed:
                    item = ItemRef(identity, target, event.quote)
                    # judged against the code it was given on: its revision goes with it
                    verdict, note, judged = event.verdict, event.note, event.revision
                    events.append(new_event(item, reviewer, verdict, note, after, judged))
                    closed.append(new_event(event.ref, reviewer, None, None, at, revision))
                if followed:
                    findings[identity] = findings.get(identity, 0) + 1
                    reviewed.add(target)  # once: two older results may have become it
    if events:
        insert_rows(conn, INTO, [row_values(event) for event in (*events, *closed)])
    return Carried(events, closed, findings)


def _followed(
    record: str,
    moves: dict[str, list[tuple[str, str]]],
    held: Collection[str],
    since: str,
    reused: Collection[str] = (),
) -> str | None:
    """The result held now that ``record`` became through the scans registered after
    ``since`` (each step the first move of its id after the step before), or None
    (``reused``: ids held now by another finding, their own having moved: followed too)."""
    if record in held and record not in reused:
        return None
    for _ in range(MOST_MOVES):
        step = next(((at, new) for at, new in moves.get(record, ()) if at > since), None)
        if step is None:
            return None
        since, record = step
        if record in held:
            return record
    return None


def _pair(
    conn: sqlite3.Connection,
    identity: str,
    records: dict[str, Record],
    at: str,
    lines_after: LinesAfter | None,
    renamed: Renamed | None = None,
    to_revision: str | None = None,
) -> set[str]:
    """Keep which result of the scan registered last each one that went became, stamped ``at``
    and between its revision and ``to_revision`` (the one reviewed); returns the results the scan
    still holds by id whose finding went elsewhere (`_reused`)."""
    before = set(
        gathered(
            conn,
            "SELECT json_group_array(record) FROM items"
            " WHERE report = ? AND present = 1 AND quote IS NULL",
            (identity,),
        )
    )
    went = [record for record in before if record not in records]
    if not went and before.issuperset(records):
        return set()  # the scan registered last, again (or the first)
    arrived: dict[Finding, list[Record]] = defaultdict(list)
    for record in records.values():
        if record.id not in before:
            arrived[finding_of(record)].append(record)
    # every pair is kept, of a result with no events here too: a teammate's verdict on it,
    # given before this scan, may arrive by a sync after it (db/follow.py)
    # results still held by id (their line's) that another finding may have taken
    kept = []
    if lines_after is not None and arrived:
        kept = [r for r in before if r in records and _by_place(records[r])]
    # what the results that went and those kept were: the report's items read once for both
    gone = set(went)
    old_went: dict[Finding, list[tuple[int, str, str]]] = {}
    old_kept: dict[Finding, list[tuple[int, str, str]]] = {}
    for finding, olds in _findings(conn, identity, [*went, *kept]).items():
        went_here = [old for old in olds if old[1] in gone]
        kept_here = [old for old in olds if old[1] not in gone]
        if went_here:
            old_went[finding] = went_here
        if kept_here:
            old_kept[finding] = kept_here
    pairs: list[tuple[str, str, str, str]] = []
    unequal: list[tuple[Finding, list[tuple[int, str, str]], list[Record]]] = []
    for finding, old in old_went.items():
        new = sorted(arrived.get(finding, ()), key=_first_line)
        if len(new) == len(old):
            pairs.extend(
                (identity, old_id, record.id, at)
                for (_line, old_id, _rev), record in zip(sorted(old), new, strict=True)
            )
        elif new:
            unequal.append((finding, old, new))
    if renamed is not None:
        pairs += _renamed(identity, old_went, arrived, renamed, at)
    reused: set[str] = set()
    if lines_after is not None and (unequal or old_kept):
        # where git's diff carried each old line of interest, one diff a revision for both
        places = [
            (revision, finding[2], line)
            for finding, old, _new in unequal
            for line, _id, revision in old
        ]
        places += [
            (revision, finding[2], line)
            for finding, olds in old_kept.items()
            for line, _id, revision in olds
        ]
        mapped = _lines_now(places, lines_after)
        moved = _reused(identity, old_kept, records, mapped, at)
        reused = {old for _identity, old, _new, _at in moved}
        diffed = _through_the_diff(identity, unequal, mapped, at) + moved
        # what the diff says of a result wins over line order's guess at it
        claimed = {new for _identity, _old, new, _at in diffed}
        pairs = [pair for pair in pairs if pair[2] not in claimed] + diffed
    if pairs:  # many rows a statement, as every bulk write here (db/gathered.py)
        # each pair between the revision its old result was registered at and this one
        left = {old_id: rev for olds in old_went.values() for _line, old_id, rev in olds}
        left.update((old_id, rev) for olds in old_kept.values() for _line, old_id, rev in olds)
        one = [
            (*pair, left.get(pair[1]) or None, to_revision)
            for pair in {pair[1]: pair for pair in pairs}.values()  # each old id's last pair
        ]
        insert_rows(
            conn,
            "INSERT OR REPLACE INTO result_moves (report, old, new, at, from_revision,"
            " to_revision)",
            one,
        )
    return reused


def _renamed(
    identity: str,
    old_went: dict[Finding, list[tuple[int, str, str]]],
    arrived: dict[Finding, list[Record]],
    renamed: Renamed,
    when: str,
) -> list[tuple[str, str, str, str]]:
    """Pairs of findings that went from a file git's diff calls renamed since their scan and
    came, as many of them, in its new name (paired in line order); none came in the old name."""
    lost = {finding: old for finding, old in old_went.items() if finding not in arrived}
    wanted: dict[str, set[str]] = defaultdict(set)  # revision -> paths at it
    for finding, old in lost.items():
        for _line, _id, revision in old:
            if revision and finding[2]:
                wanted[revision].add(finding[2])
    names: dict[tuple[str, str], str] = {}
    for revision, paths in wanted.items():
        for path, now in renamed(revision, paths).items():
            names[(revision, path)] = now
    moved: dict[Finding, list[tuple[int, str, str]]] = defaultdict(list)
    for (rule, label, path, code), old in lost.items():
        for line, old_id, revision in old:
            new_name = names.get((revision, path))
            if new_name is not None:
                moved[(rule, label, new_name, code)].append((line, old_id, revision))
    pairs: list[tuple[str, str, str, str]] = []
    for finding, old in moved.items():
        new = sorted(arrived.get(finding, ()), key=_first_line)
        # the new name's own findings that went would compete for them: left as they are
        if finding not in old_went and new and len(new) == len(old):
            pairs.extend(
                (identity, old_id, record.id, when)
                for (_line, old_id, _rev), record in zip(sorted(old), new, strict=True)
            )
    return pairs


def _by_place(record: Record) -> bool:
    """A result known by its rule and location (no fingerprint of its own): its id is its line's,
    whatever finding stands there."""
    return any(
        name == "id from" and value.startswith("rule and location") for name, value in record.fields
    )


#: (revision, path, line) of an earlier scan -> its line at the revision reviewed
Mapped = dict[tuple[str, str, int], int]


def _lines_now(places: Iterable[tuple[str, str, int]], lines_after: LinesAfter) -> Mapped:
    """Where each (revision, path, line) of an earlier scan stands at the revision reviewed, for
    the lines git's diff left untouched: `lines_after` once a revision."""
    wanted: dict[str, dict[str, set[int]]] = defaultdict(lambda: defaultdict(set))
    for revision, path, line in places:
        if revision and path and line:
            wanted[revision][path].add(line)
    mapped: Mapped = {}
    for revision, lines in wanted.items():
        for (path, line), at in lines_after(revision, lines).items():
            mapped[(revision, path, line)] = at
    return mapped


def _reused(
    identity: str,
    old: dict[Finding, list[tuple[int, str, str]]],
    records: dict[str, Record],
    mapped: Mapped,
    when: str,
) -> list[tuple[str, str, str, str]]:
    """Pairs of results the scan still holds by id (their line's) whose finding git's diff
    carried, untouched, to another line where one result of it stands now: the id is another
    finding's now (a function added above the old one's line), and its verdict is the moved
    one's."""
    # the results now at the lines of interest, by (finding, line)
    targets = {(path, at) for (_rev, path, _line), at in mapped.items()}
    now: dict[tuple[Finding, int], list[Record]] = defaultdict(list)
    for record in records.values():
        first = record.quotes[0] if record.quotes else None
        if first is not None and (first.path, _first_line(record)) in targets:
            now[(finding_of(record), _first_line(record))].append(record)
    pairs = []
    for finding, olds in old.items():
        for line, old_id, revision in olds:
            at = mapped.get((revision, finding[2], line))
            if at is None or at == _first_line(records[old_id]):
                continue  # its line was edited, or the finding is where it was
            there = now.get((finding, at), [])
            if len(there) == 1 and there[0].id != old_id:
                pairs.append((identity, old_id, there[0].id, when))
    return pairs


def _through_the_diff(
    identity: str,
    unequal: list[tuple[Finding, list[tuple[int, str, str]], list[Record]]],
    mapped: Mapped,
    when: str,
) -> list[tuple[str, str, str, str]]:
    """Pairs of findings that went and came unequally (a generic message, one more of it in the
    file): an old result whose line the diff between the two revisions left as it was pairs
    with the one new result of its finding at that line."""
    pairs = []
    for (_rule, _label, path, _code), old, new in unequal:
        at_line: dict[int, list[Record]] = defaultdict(list)
        for record in new:
            at_line[_first_line(record)].append(record)
        for line, old_id, revision in old:
            there = at_line.get(mapped.get((revision, path, line), 0), [])
            if len(there) == 1:  # one result at that line: it
                pairs.append((identity, old_id, there.pop().id, when))
    return pairs


def finding_of(record: Record) -> Finding:
    """The finding a result is: its rule (section), message (label), first location's path and
    code (its text normalized as quote keys are)."""
    first = record.quotes[0] if record.quotes else None
    path, text = (first.path, normalize_quote(first.text)) if first else ("", "")
    return (record.section, record.label, path, text)


def _first_line(record: Record) -> int:
    claimed = record.quotes[0].claimed if record.quotes else None
    return claimed[0] if claimed else 0


def _current(
    conn: sqlite3.Connection, reviewer: str, identity: str
) -> tuple[dict[str, list[Event]], set[str]]:
    """The reviewer's current verdicts and notes on the report's results that moved (on each
    record and its quotes), by record; and the results they moved to that hold some."""
    mine = (
        "FROM current_verdicts WHERE reviewer = ? AND report = ?"
        " AND (verdict IS NOT NULL OR coalesce(note, '') != '')"
        " AND record IN (SELECT {end} FROM result_moves WHERE report = ?)"
    )
    columns = ", ".join(COLUMNS)
    rows = gathered(
        conn,
        f"SELECT json_group_array(json_array({columns})) " + mine.format(end="old"),
        (reviewer, identity, identity),
    )
    moving: dict[str, list[Event]] = defaultdict(list)
    for event in map(event_from_row, rows):
        moving[event.record].append(event)
    if not moving:
        return moving, set()
    reviewed = gathered(
        conn,
        "SELECT json_group_array(DISTINCT record) " + mine.format(end="new"),
        (reviewer, identity, identity),
    )
    return moving, set(reviewed)


def _findings(
    conn: sqlite3.Connection, identity: str, records: Collection[str]
) -> dict[Finding, list[tuple[int, str, str]]]:
    """The findings the registered ``records`` of a report are, each with (first line, id,
    revision registered at) of the records that are it."""
    wanted = set(records)
    # the report's items in one pass: `record IN (...)` chunks would each scan them all (no
    # index holds the record): 20 s for the 135,130 results of a scan whose lines all moved
    rows = gathered(
        conn,
        "SELECT json_group_array(json_array(record, quote, section, label, quote_index,"
        " quote_path, quote_text, claimed_first, revision)) FROM items"
        " WHERE report = ? AND present = 1",
        (identity,),
    )
    labels: dict[str, tuple[str, str, str]] = {}  # record -> (section, label, revision)
    firsts: dict[str, tuple[int, str, str, int]] = {}  # record -> its first quote's row
    for record, quote, section, label, index, path, text, line, revision in rows:
        if record not in wanted:
            continue
        if quote is None:
            labels[record] = (section or "", label or "", revision or "")
            continue
        earlier = firsts.get(record)
        if earlier is None or (index or 0) < earlier[0]:
            firsts[record] = (index or 0, path or "", text or "", line or 0)
    went: dict[Finding, list[tuple[int, str, str]]] = defaultdict(list)
    for record, (section, label, revision) in labels.items():
        _index, path, text, line = firsts.get(record, (0, "", "", 0))
        finding = (section, label, path, normalize_quote(text) if path else "")
        went[finding].append((line, record, revision))
    return went
