"""A reviewer's verdicts follow their findings into a scan of edited code (db/carry.py).

The scans are SARIF logs as Bandit writes them (rule, message, snippet, no fingerprints), so a
result's id is its rule and location: lines added above a finding give it another id."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

from db.carry import Carried
from db.export import render
from db.keys import ItemRef
from db.store import VerdictStore
from evidence.model import Record, Report, ReportSet
from evidence.reports.loading import load_reports

REV = "802776dd27b8c567fc18b46afc7b0cf64426b1f9"
NEW_REV = "8df75acb2b0000000000000000000000000000ff"


def finding(rule: str, path: str, line: int, code: str, message: str = "") -> dict[str, Any]:
    region = {"startLine": line, "endLine": line, "snippet": {"text": code}}
    return {
        "ruleId": rule,
        "message": {"text": message or f"{rule} found"},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": path}, "region": region}}],
    }


def scan(tmp_path: Path, name: str, *results: dict[str, Any]) -> Report:
    log = {
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "Bandit"}}, "results": list(results)}],
    }
    path = tmp_path / name
    path.write_text(json.dumps(log))
    (report,) = load_reports([path]).reports
    return report


def by_code(report: Report, code: str) -> list[Record]:
    return [record for record in report.records if record.quotes[0].text == code]


def registered(store: VerdictStore, report: Report, revision: str) -> None:
    store.register(ReportSet((report,)), revision=revision)


def reviewed(store: VerdictStore, report: Report, reviewer: str, revision: str) -> Carried:
    """What a review of ``report`` does on opening: carry, then register."""
    carried = store.carry([report], reviewer=reviewer, revision=revision)
    registered(store, report, revision)
    return carried


OLD = (
    finding("B602", "api/run.py", 10, "subprocess.call(cmd, shell=True)"),
    finding("B105", "api/auth.py", 4, 'TOKEN = "dev"', "Possible hardcoded password: 'dev'"),
    finding("B101", "api/a.py", 3, "assert ready"),
    finding("B101", "api/a.py", 9, "assert ready"),
)
#: the same code with lines added above each finding, and a new finding
NEW = (
    finding("B602", "api/run.py", 14, "subprocess.call(cmd, shell=True)"),
    finding("B105", "api/auth.py", 6, 'TOKEN = "dev"', "Possible hardcoded password: 'dev'"),
    finding("B101", "api/a.py", 5, "assert ready"),
    finding("B101", "api/a.py", 12, "assert ready"),
    finding("B108", "api/tmp.py", 2, 'open("/tmp/x")'),
)


def test_verdicts_follow_their_findings_to_new_lines(store: VerdictStore, tmp_path: Path) -> None:
    old = scan(tmp_path, "old.sarif", *OLD)
    registered(store, old, REV)
    shell, token = by_code(old, "subprocess.call(cmd, shell=True)")[0], old.records[1]
    first, second = by_code(old, "assert ready")
    item = ItemRef.for_record(old, shell)
    store.give(item, "confirmed", note="cmd is user input", reviewer="ann", revision=REV)
    store.give(ItemRef.for_record(old, token), "refuted", note="a test fixture", reviewer="ann")
    store.give(ItemRef.for_record(old, second), "unclear", reviewer="ann")
    location = ItemRef.for_quote(old, first, first.quotes[0])
    store.give(location, "refuted", note="tests only", reviewer="ann")
    store.give(ItemRef.for_record(old, token), "confirmed", reviewer="bob")

    new = scan(tmp_path, "new.sarif", *NEW)
    assert {r.id for r in new.records}.isdisjoint(r.id for r in old.records)  # ids moved
    carried = reviewed(store, new, "ann", NEW_REV)

    assert carried.findings == {new.identity: 4}
    mine = store.current("ann")
    moved_shell = by_code(new, "subprocess.call(cmd, shell=True)")[0]
    state = mine[ItemRef.for_record(new, moved_shell).key]
    # the verdict was given on the code at REV: it says so still
    assert (state.verdict, state.note, state.revision) == ("confirmed", "cmd is user input", REV)
    assert mine[ItemRef.for_record(new, new.records[1]).key].note == "a test fixture"
    # two identical findings in one file: paired in line order, the quote's verdict on its quote
    new_first, new_second = by_code(new, "assert ready")
    assert mine[ItemRef.for_record(new, new_second).key].verdict == "unclear"
    assert ItemRef.for_record(new, new_first).key not in mine
    assert mine[ItemRef.for_quote(new, new_first, new_first.quotes[0]).key].note == "tests only"
    # the old items are left unreviewed by events of their own, the history keeps both
    assert not any(key.split("#")[1] in {r.id for r in old.records} for key in mine)
    assert [e.verdict for e in store.history(ItemRef.for_record(old, shell).key)] == [
        "confirmed",
        None,
    ]
    assert store.stale(load_reports([tmp_path / "new.sarif"]), "ann") == []
    # another reviewer's verdicts are theirs to carry, at their review of the same scan
    assert ItemRef.for_record(new, new.records[1]).key not in store.current("bob")
    assert reviewed(store, new, "bob", NEW_REV).findings == {new.identity: 1}
    assert store.current("bob")[ItemRef.for_record(new, new.records[1]).key].verdict == "confirmed"
    # nothing left to carry: opening it again writes nothing
    assert reviewed(store, new, "ann", NEW_REV).events == []


def test_nothing_follows_when_it_cannot_be_told_which_finding_went(
    store: VerdictStore, tmp_path: Path
) -> None:
    old = scan(tmp_path, "old.sarif", *OLD)
    registered(store, old, REV)
    first, second = by_code(old, "assert ready")
    store.give(ItemRef.for_record(old, first), "refuted", reviewer="ann")
    store.give(ItemRef.for_record(old, old.records[1]), "refuted", reviewer="ann")
    # one of the two identical findings is gone, the other moved: which one is unknown; the
    # message of the other changed (the finding says something else now)
    new = scan(
        tmp_path,
        "new.sarif",
        finding("B101", "api/a.py", 5, "assert ready"),
        finding("B105", "api/auth.py", 6, 'TOKEN = "dev"', "Possible hardcoded password: 'prod'"),
    )
    carried = reviewed(store, new, "ann", NEW_REV)
    assert carried.events == [] and carried.findings == {}
    assert len(store.stale(load_reports([tmp_path / "new.sarif"]), "ann")) == 2
    # the write-up says what each result was: its id alone names nothing
    stale = render(store, "md").split("## Stale verdicts", 1)[1]
    assert "the record (B101 found, api/a.py line 3):" in stale
    assert "the record (Possible hardcoded password: 'dev', api/auth.py line 4):" in stale


def test_a_finding_already_reviewed_again_keeps_its_verdict(
    store: VerdictStore, tmp_path: Path
) -> None:
    old = scan(tmp_path, "old.sarif", *OLD[:1])
    registered(store, old, REV)
    store.give(ItemRef.for_record(old, old.records[0]), "refuted", reviewer="ann")
    new = scan(tmp_path, "new.sarif", *NEW[:1])
    registered(store, new, NEW_REV)  # bob opened it first
    store.give(ItemRef.for_record(new, new.records[0]), "confirmed", reviewer="ann")
    assert reviewed(store, new, "ann", NEW_REV).events == []
    assert store.current("ann")[ItemRef.for_record(new, new.records[0]).key].verdict == "confirmed"


def test_verdicts_follow_through_every_scan_since(store: VerdictStore, tmp_path: Path) -> None:
    code = "subprocess.call(cmd, shell=True)"
    scans = [
        scan(tmp_path, f"s{n}.sarif", finding("B602", "api/run.py", 10 + n, code)) for n in range(3)
    ]
    registered(store, scans[0], REV)
    store.give(ItemRef.for_record(scans[0], scans[0].records[0]), "refuted", reviewer="ann")
    reviewed(store, scans[1], "bob", NEW_REV)  # ann did not open the second scan
    reviewed(store, scans[2], "bob", NEW_REV)
    assert reviewed(store, scans[2], "ann", NEW_REV).findings == {scans[2].identity: 1}
    assert (
        store.current("ann")[ItemRef.for_record(scans[2], scans[2].records[0]).key].verdict
        == "refuted"
    )


def test_two_files_of_one_run_are_one_scan(store: VerdictStore, tmp_path: Path) -> None:
    # one tool's scan in two files (scanned apart, the same code in both): one report identity
    code = "subprocess.call(cmd, shell=True)"
    one = scan(tmp_path, "one.sarif", finding("B602", "api/run.py", 10, code))
    two = scan(tmp_path, "two.sarif", finding("B602", "api/run.py", 20, code))
    assert one.identity == two.identity
    store.register(ReportSet((one, two)))
    store.give(ItemRef.for_record(one, one.records[0]), "refuted", reviewer="ann")
    moved = scan(tmp_path, "one-again.sarif", finding("B602", "api/run.py", 13, code))
    # the other file's result is still held: one went, one came
    carried = store.carry([moved, two], reviewer="ann", revision=NEW_REV)
    assert carried.findings == {one.identity: 1}
    assert store.current("ann")[ItemRef.for_record(moved, moved.records[0]).key].verdict == (
        "refuted"
    )


def test_every_move_is_kept_between_its_revisions(store: VerdictStore, tmp_path: Path) -> None:
    old = scan(tmp_path, "old.sarif", *OLD)
    registered(store, old, REV)
    store.give(ItemRef.for_record(old, old.records[0]), "refuted", reviewer="ann")
    new = scan(tmp_path, "new.sarif", *NEW)
    assert reviewed(store, new, "bob", NEW_REV).events == []  # bob has nothing to carry
    with sqlite3.connect(store.path) as conn:
        kept = conn.execute(
            "SELECT old, new, from_revision, to_revision FROM result_moves ORDER BY old"
        ).fetchall()
    # four results moved, one of them judged: all four kept, as a teammate's verdict on any of
    # them, given before this scan, may arrive by a sync after it (tests/db/test_moves_synced.py)
    pairs = sorted(zip((r.id for r in old.records), (r.id for r in new.records), strict=False))
    assert kept == [(before, after, REV, NEW_REV) for before, after in pairs]
    assert reviewed(store, new, "ann", NEW_REV).findings == {new.identity: 1}


def test_findings_that_went_and_came_unequally_pair_through_the_lines_the_diff_kept(
    store: VerdictStore, tmp_path: Path
) -> None:
    code = "assert ready"
    old = scan(tmp_path, "old.sarif", *(finding("B101", "api/a.py", n, code) for n in (3, 9)))
    registered(store, old, REV)
    for record in old.records:
        store.give(ItemRef.for_record(old, record), "refuted", reviewer="ann", revision=REV)
    # two lines added at the top, one more assert at 8 and one at 13 (a duplicate result there)
    lines = (5, 8, 11, 13, 13)
    new = scan(tmp_path, "new.sarif", *(finding("B101", "api/a.py", n, code) for n in lines))
    asked: list[tuple[str, dict[str, set[int]]]] = []

    def lines_after(
        revision: str, wanted: Mapping[str, Collection[int]]
    ) -> dict[tuple[str, int], int]:
        # what git's diff says (evidence/line_map.py, tested on a real repository): line 3 is
        # line 5 now, line 9 was touched by a hunk
        asked.append((revision, {path: set(found) for path, found in wanted.items()}))
        return {("api/a.py", 3): 5}

    carried = store.carry([new], reviewer="ann", revision=NEW_REV, lines_after=lines_after)
    assert asked == [(REV, {"api/a.py": {3, 9}})]
    assert [e.record for e in carried.events] == [by_line(new, 5).id]
    # with no diff to ask, two that went and five that came tell nothing apart
    other = tmp_path / "other"
    other.mkdir()
    with VerdictStore.open(other / "v.db") as alone:
        registered(alone, old, REV)
        alone.give(ItemRef.for_record(old, old.records[0]), "refuted", reviewer="ann")
        assert alone.carry([new], reviewer="ann", revision=NEW_REV).events == []


def by_line(report: Report, line: int) -> Record:
    (record,) = [r for r in report.records if r.quotes[0].claimed == (line, line)]
    return record


def test_what_the_diff_says_wins_over_line_order(store: VerdictStore, tmp_path: Path) -> None:
    # three asserts at 1, 4 and 10 (ids are lines); one added above them and the last deleted:
    # the new ones stand at 1, 4 and 7. In line order the one that went (10) would take 7, but
    # the diff carried 4 there: the assert at 4 is at 7 now, the one at 10 is gone
    code = "assert ready"
    old = scan(tmp_path, "old.sarif", *(finding("B101", "api/a.py", n, code) for n in (1, 4, 10)))
    registered(store, old, REV)
    for line, why in ((10, "d"), (4, "b"), (1, "a")):  # d first: it would be followed first
        item = ItemRef.for_record(old, by_line(old, line))
        store.give(item, "refuted", note=why, reviewer="ann", revision=REV)
    new = scan(tmp_path, "new.sarif", *(finding("B101", "api/a.py", n, code) for n in (1, 4, 7)))

    def lines_after(
        revision: str, wanted: Mapping[str, Collection[int]]
    ) -> dict[tuple[str, int], int]:
        return {("api/a.py", 1): 4, ("api/a.py", 4): 7}  # 10: deleted

    store.carry([new], reviewer="ann", revision=NEW_REV, lines_after=lines_after)
    registered(store, new, NEW_REV)
    held = {record.id for record in new.records}
    notes = {e.record: e.note for e in store.current("ann").values() if e.record in held}
    assert notes == {by_line(new, 4).id: "a", by_line(new, 7).id: "b"}
    (stale,) = store.stale(ReportSet((new,)), "ann")
    assert (stale.event.record, stale.event.note) == (by_line(old, 10).id, "d")


def test_a_verdict_follows_the_moves_made_after_it_through_a_reused_id(
    store: VerdictStore, tmp_path: Path
) -> None:
    """One database two reviewers share. bo judged F1 on line 2 (its id, X); a function added
    above moved F1 to line 4 and put F2 on line 2: X is F2's now (ann's review kept X -> Y).
    Three lines more above both: F2 went from X to line 5, F1 from Y to line 7. bo, who opened
    neither scan, follows X -> Y -> F1's line 7, not the later X -> F2's line 5 (one pair per
    old id kept only the later); ann's verdict on X, given on F2 after it took X, goes to F2."""
    one, two = "subprocess.call(cmd, shell=True)", "subprocess.call(other, shell=True)"
    rev_b, rev_c = "b" * 40, "c" * 40
    a = scan(tmp_path, "a.sarif", finding("B602", "api/run.py", 2, one))
    registered(store, a, REV)
    (x,) = a.records
    store.give(ItemRef.for_record(a, x), "refuted", note="F1: cmd is a constant", reviewer="bo")

    b = scan(
        tmp_path,
        "b.sarif",
        finding("B602", "api/run.py", 2, two),
        finding("B602", "api/run.py", 4, one),
    )
    assert b.records[0].id == x.id  # X is F2's now

    def a_to_b(revision: str, wanted: Mapping[str, Collection[int]]) -> dict[tuple[str, int], int]:
        return {("api/run.py", 2): 4}  # F1's line, untouched, is line 4 now

    store.carry([b], reviewer="ann", revision=rev_b, lines_after=a_to_b)
    registered(store, b, rev_b)
    item = ItemRef.for_record(b, b.records[0])
    store.give(item, "confirmed", note="F2: other is user input", reviewer="ann", revision=rev_b)

    c = scan(
        tmp_path,
        "c.sarif",
        finding("B602", "api/run.py", 5, two),
        finding("B602", "api/run.py", 7, one),
    )

    def b_to_c(revision: str, wanted: Mapping[str, Collection[int]]) -> dict[tuple[str, int], int]:
        return {("api/run.py", 2): 5, ("api/run.py", 4): 7}

    store.carry([c], reviewer="ann", revision=rev_c, lines_after=b_to_c)
    registered(store, c, rev_c)
    store.carry([c], reviewer="bo", revision=rev_c, lines_after=b_to_c)
    f2, f1 = (ItemRef.for_record(c, record).key for record in c.records)
    assert store.current("bo")[f1].note == "F1: cmd is a constant"
    assert f2 not in store.current("bo")
    assert store.current("ann")[f2].note == "F2: other is user input"


def test_a_carried_verdict_follows_the_next_scan_not_the_moves_that_carried_it(
    store: VerdictStore, tmp_path: Path
) -> None:
    """F at line 2 (id X), H at 4 (id Y); G added above both: G at 2, F at 4 (Y), H at 6 (Z):
    ann's refutation of F goes X -> Y, bo's confirmation of H Y -> Z. One line more above them
    all: F at 5, H at 7. ann's verdict, on Y since the first rescan, follows Y -> F's line 5,
    not Y -> Z again (the move of the rescan that carried it there)."""
    f, g, h = (f"subprocess.call({name}, shell=True)" for name in ("cmd", "other", "argv"))
    rev_b, rev_c = "b" * 40, "c" * 40
    a = scan(
        tmp_path,
        "a.sarif",
        finding("B602", "api/run.py", 2, f),
        finding("B602", "api/run.py", 4, h),
    )
    registered(store, a, REV)
    store.give(
        ItemRef.for_record(a, a.records[0]), "refuted", note="F", reviewer="ann", revision=REV
    )
    store.give(
        ItemRef.for_record(a, a.records[1]), "confirmed", note="H", reviewer="bo", revision=REV
    )
    b = scan(
        tmp_path,
        "b.sarif",
        *(finding("B602", "api/run.py", line, code) for line, code in ((2, g), (4, f), (6, h))),
    )

    def a_to_b(revision: str, wanted: Mapping[str, Collection[int]]) -> dict[tuple[str, int], int]:
        return {("api/run.py", 2): 4, ("api/run.py", 4): 6}

    store.carry([b], reviewer="ann", revision=rev_b, lines_after=a_to_b)
    registered(store, b, rev_b)
    assert {e.record: e.note for e in store.current("ann").values()} == {b.records[1].id: "F"}
    c = scan(
        tmp_path,
        "c.sarif",
        *(finding("B602", "api/run.py", line, code) for line, code in ((3, g), (5, f), (7, h))),
    )

    def b_to_c(revision: str, wanted: Mapping[str, Collection[int]]) -> dict[tuple[str, int], int]:
        return {("api/run.py", 2): 3, ("api/run.py", 4): 5, ("api/run.py", 6): 7}

    store.carry([c], reviewer="ann", revision=rev_c, lines_after=b_to_c)
    registered(store, c, rev_c)
    assert {e.record: e.note for e in store.current("ann").values()} == {c.records[1].id: "F"}
