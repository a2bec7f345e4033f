"""A teammate's verdicts on a scan's results, received by sync after a rescan moved them.

Alice and Bob triage one scan (SARIF as Bandit writes it: no fingerprints, so a result's id is
its rule and line). A function added above finding F moves it from id X to id Y and puts
another finding, G, at X. Bob, who has not rescanned, judges X (meaning F); when his events reach
Alice after her rescan, her review and her SARIF export show his verdict on F, not on G. Real git
repositories (the diff tells which finding went where), real databases, a real sync."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple

import pytest
import sqlite_utils
from synckit import bare_remote, git, run_sync

from db import schema
from db.check import LATEST
from db.keys import ItemRef, make_key
from db.sarif_verdicts import runs_with_verdicts
from db.store import VerdictStore
from evidence.line_map import lines_after, renames
from evidence.model import Report, ReportSet
from evidence.reports.loading import load_reports

F = "subprocess.call(cmd, shell=True)"
G = "subprocess.call(other, shell=True)"
H = "subprocess.call(argv, shell=True)"
ON_F = "F: cmd is a constant"
MOVED_AT = "2026-01-02T12:00:00.000000Z"


def commit(repo: Path, text: str) -> str:
    """api/run.py holding ``text``, committed; the commit id."""
    (repo / "api").mkdir(parents=True, exist_ok=True)
    (repo / "api" / "run.py").write_text(text, encoding="utf-8")
    git("add", "-A", cwd=repo)
    git("commit", "-q", "-m", "edit", cwd=repo)
    return git("rev-parse", "HEAD", cwd=repo).strip()


def scan(directory: Path, name: str, *found: tuple[int, str]) -> tuple[Report, Path]:
    """A Bandit scan of api/run.py with a B602 result at each (line, code)."""
    results: list[dict[str, Any]] = [
        {
            "ruleId": "B602",
            "message": {"text": "subprocess call with shell=True"},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": "api/run.py"},
                        "region": {"startLine": line, "endLine": line, "snippet": {"text": code}},
                    }
                }
            ],
        }
        for line, code in found
    ]
    log = {
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "Bandit"}}, "results": results}],
    }
    path = directory / name
    path.write_text(json.dumps(log), encoding="utf-8")
    (report,) = load_reports([path]).reports
    return report, path


def reviewed(store: VerdictStore, report: Report, reviewer: str, repo: Path, rev: str) -> None:
    """What a review of ``report`` at ``rev`` does on opening: carry (git's diff telling where
    lines went), then register."""

    def after(old: str, wanted: Mapping[str, Collection[int]]) -> dict[tuple[str, int], int]:
        return lines_after(repo, old, rev, wanted)

    def renamed(old: str, paths: Collection[str]) -> dict[str, str]:
        return renames(repo, old, rev, paths)

    store.carry([report], reviewer=reviewer, revision=rev, lines_after=after, renamed=renamed)
    store.register(ReportSet((report,)), revision=rev)


def on(store: VerdictStore, reviewer: str) -> dict[str, str | None]:
    """The reviewer's current verdicts and notes as this store reads them: record id -> note."""
    return {e.record: e.note for e in store.current_all() if e.reviewer == reviewer}


class Rescan(NamedTuple):
    """api/run.py with F at r1 (scan one: F at id X), then G put above it at r2 (scan two: G
    takes X, F moves on)."""

    repo: Path
    r1: str
    r2: str
    one: Report
    two: Report
    two_path: Path


def g_takes_fs_id(tmp_path: Path) -> Rescan:
    repo = tmp_path / "repo"
    repo.mkdir()
    git("init", "-q", "-b", "main", cwd=repo)
    r1 = commit(repo, f"import subprocess\n{F}\n")
    r2 = commit(repo, f"import subprocess\n{G}\nx = 1\n{F}\n")
    one, _ = scan(tmp_path, "one.sarif", (2, F))
    two, two_path = scan(tmp_path, "two.sarif", (2, G), (4, F))
    return Rescan(repo, r1, r2, one, two, two_path)


@pytest.fixture
def team(tmp_path: Path) -> Iterator[dict[str, VerdictStore]]:
    stores = {
        name: VerdictStore.open(tmp_path / f"{name}.sqlite3") for name in ("alice", "bob", "carol")
    }
    yield stores
    for store in stores.values():
        store.close()


@pytest.mark.parametrize("arrives", ["after her rescan", "before her rescan"])
def test_a_teammates_verdict_stays_on_the_finding_he_judged(
    arrives: str, team: dict[str, VerdictStore], tmp_path: Path
) -> None:
    alice, bob = team["alice"], team["bob"]
    remote = bare_remote(tmp_path / "verdicts.git")
    repo, r1, r2, one, two, two_path = g_takes_fs_id(tmp_path)
    (x,) = one.records
    g, f = two.records
    assert g.id == x.id  # G took F's id
    for name in ("alice", "bob"):
        reviewed(team[name], one, name, repo, r1)
    bob.give(ItemRef.for_record(one, x), "refuted", note=ON_F, reviewer="bob", revision=r1)
    if arrives == "before her rescan":
        assert run_sync(bob, remote, "bob", tmp_path / "b").ok
        assert run_sync(alice, remote, "alice", tmp_path / "a").ok
    reviewed(alice, two, "alice", repo, r2)
    assert run_sync(bob, remote, "bob", tmp_path / "b").ok
    assert run_sync(alice, remote, "alice", tmp_path / "a").ok

    assert on(alice, "bob") == {f.id: ON_F}
    document, _identities, left_out = runs_with_verdicts(alice, [two_path])
    on_g, on_f = document["runs"][0]["results"]
    assert "suppressions" not in on_g and "properties" not in on_g
    (suppression,) = on_f["suppressions"]
    assert (suppression["justification"], suppression["properties"]["reviewer"]) == (ON_F, "bob")
    assert left_out == []
    # Bob's own database, which never saw the rescan, keeps it where he gave it
    assert on(bob, "bob") == {x.id: ON_F}


def synced(team: dict[str, VerdictStore], remote: Path, data: Path, *names: str) -> None:
    for name in names:
        assert run_sync(team[name], remote, name, data / name).ok


def test_her_own_verdict_follows_once_and_reaches_him_on_its_finding(
    team: dict[str, VerdictStore], tmp_path: Path
) -> None:
    alice, bob = team["alice"], team["bob"]
    remote = bare_remote(tmp_path / "verdicts.git")
    repo, r1, r2, one, two, two_path = g_takes_fs_id(tmp_path)
    (x,) = one.records
    g, f = two.records
    for name in ("alice", "bob"):
        reviewed(team[name], one, name, repo, r1)
    alice.give(ItemRef.for_record(one, x), "refuted", note=ON_F, reviewer="alice", revision=r1)
    reviewed(alice, two, "alice", repo, r2)  # her review carries it to F's new id, in her name
    assert on(alice, "alice") == {f.id: ON_F}
    synced(team, remote, tmp_path, "alice", "bob", "alice")
    assert on(alice, "alice") == {f.id: ON_F}  # not followed again by the read
    # Bob, at the first scan still, reads it on an id his scan does not hold (stale for him);
    # once he rescans, on F, and not on G, which holds the id she judged
    assert on(bob, "alice") == {f.id: ON_F}
    reviewed(bob, two, "bob", repo, r2)
    assert on(bob, "alice") == {f.id: ON_F}
    document, _identities, _left_out = runs_with_verdicts(bob, [two_path])
    on_g, on_f = document["runs"][0]["results"]
    assert "suppressions" not in on_g
    assert [s["properties"]["reviewer"] for s in on_f["suppressions"]] == ["alice"]


def test_a_reviewer_who_rescanned_is_read_where_his_own_review_carried_him(
    team: dict[str, VerdictStore], tmp_path: Path
) -> None:
    """F at line 2 (id X) and H at 4 (id Y); G added above both: G at 2 (X), F at 4 (Y), H at 6
    (Z). Carol rescans twice, Alice once then again, Bob never. Carol's verdict on F, carried by
    her own review to Y at the revision she gave it at, is F's and not H's (who had Y then);
    Bob's on H at Y is H's, at Z; Alice's on G, given after her rescan, stays G's."""
    alice, bob, carol = team["alice"], team["bob"], team["carol"]
    remote = bare_remote(tmp_path / "verdicts.git")
    repo = tmp_path / "repo"
    repo.mkdir()
    git("init", "-q", "-b", "main", cwd=repo)
    r1 = commit(repo, f"import subprocess\n{F}\ny = 0\n{H}\n")
    r2 = commit(repo, f"import subprocess\n{G}\nx = 1\n{F}\ny = 0\n{H}\n")
    r3 = commit(repo, f"import subprocess\n# top\n{G}\nx = 1\n{F}\ny = 0\n{H}\n")
    one, _ = scan(tmp_path, "one.sarif", (2, F), (4, H))
    two, two_path = scan(tmp_path, "two.sarif", (2, G), (4, F), (6, H))
    three, three_path = scan(tmp_path, "three.sarif", (3, G), (5, F), (7, H))
    on_h, on_g = "H: argv is user input", "G: other is checked"
    for name in team:
        reviewed(team[name], one, name, repo, r1)
    f1, h1 = one.records
    carol.give(ItemRef.for_record(one, f1), "refuted", note=ON_F, reviewer="carol", revision=r1)
    bob.give(ItemRef.for_record(one, h1), "confirmed", note=on_h, reviewer="bob", revision=r1)
    for name in ("alice", "carol"):
        reviewed(team[name], two, name, repo, r2)
    g2, f2, h2 = two.records
    assert (g2.id, f2.id) == (f1.id, h1.id)  # G took F's id, F took H's
    alice.give(ItemRef.for_record(two, g2), "confirmed", note=on_g, reviewer="alice", revision=r2)
    synced(team, remote, tmp_path, "carol", "bob", "alice")
    assert on(alice, "carol") == {f2.id: ON_F}
    assert on(alice, "bob") == {h2.id: on_h}
    assert on(alice, "alice") == {g2.id: on_g}
    document, _identities, _left_out = runs_with_verdicts(alice, [two_path])
    results = document["runs"][0]["results"]
    assert ["suppressions" in result for result in results] == [False, True, False]
    assert results[1]["suppressions"][0]["properties"]["reviewer"] == "carol"
    # no reviewers disagree: each judged another finding
    assert alice.disagreements() == []

    reviewed(carol, three, "carol", repo, r3)
    synced(team, remote, tmp_path, "carol", "alice")
    reviewed(alice, three, "alice", repo, r3)
    g3, f3, h3 = three.records
    assert on(alice, "carol") == {f3.id: ON_F}
    assert on(alice, "bob") == {h3.id: on_h}
    assert on(alice, "alice") == {g3.id: on_g}
    document, _identities, _left_out = runs_with_verdicts(alice, [three_path])
    results = document["runs"][0]["results"]
    assert ["suppressions" in result for result in results] == [False, True, False]


def test_a_database_of_the_schema_before_keeps_its_events_and_moves(tmp_path: Path) -> None:
    """Schema 10 kept moves without their revisions: they stay (carry follows them by time, as
    it did) and reads leave every event where it was given."""
    path = tmp_path / "old.sqlite3"
    report = "bandit/Bandit"
    db = sqlite_utils.Database(path)
    with db.conn:
        schema.migrate(db, upto=10)
        db.table("events").insert_all(
            {
                "event": f"e-{n}",
                "item": make_key(report, record),
                "report": report,
                "record": record,
                "reviewer": reviewer,
                "verdict": verdict,
                "note": None,
                "at": f"2026-01-0{n + 2}T00:00:00.000000Z",
                "revision": "a" * 40,
            }
            for n, (record, reviewer, verdict) in enumerate(
                (("B602:x", "bob", "refuted"), ("B602:y", "alice", "confirmed"))
            )
        )
        db.table("result_moves").insert(
            {
                "report": report,
                "old": "B602:x",
                "new": "B602:y",
                "at": "2026-01-02T12:00:00.000000Z",
            }
        )
    db.close()
    with VerdictStore.open(path) as store:
        assert {(e.reviewer, e.record, e.verdict) for e in store.current_all()} == {
            ("bob", "B602:x", "refuted"),
            ("alice", "B602:y", "confirmed"),
        }
        assert len(store.events()) == 2
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone() == (LATEST,)
        moves = raw.execute(
            "SELECT report, old, new, at, from_revision, to_revision FROM result_moves"
        )
        assert moves.fetchall() == [(report, "B602:x", "B602:y", MOVED_AT, None, None)]


@pytest.mark.parametrize("later", ["the one moved there", "the one given there"])
def test_two_of_a_reviewers_verdicts_read_on_one_result_the_later_stands(
    later: str, team: dict[str, VerdictStore], tmp_path: Path
) -> None:
    # Bob's verdict on X (F, at r1) is read on Y, F's id now; another of his on Y, at no
    # revision (nothing to follow it by), is there too: as on any item, the later is current
    from db.events import Event
    from db.keys import Verdict

    alice = team["alice"]
    repo, r1, r2, one, two, _ = g_takes_fs_id(tmp_path)
    reviewed(alice, one, "alice", repo, r1)
    reviewed(alice, two, "alice", repo, r2)
    x, y = one.records[0], two.records[1]
    times = ["2026-01-02T00:00:00.000000Z", "2026-01-03T00:00:00.000000Z"]
    if later == "the one moved there":
        times.reverse()
    alice.import_events(
        [
            Event("e1", ItemRef.for_record(one, x).key, one.identity, x.id, None, "bob",
                  Verdict.REFUTED, "moved", times[0], r1),
            Event("e2", ItemRef.for_record(two, y).key, two.identity, y.id, None, "bob",
                  Verdict.CONFIRMED, "given", times[1], None),
        ]
    )  # fmt: skip
    expected = "moved" if later == "the one moved there" else "given"
    assert on(alice, "bob") == {y.id: expected}
    assert len(alice.events("bob")) == 2  # the other kept in the history
