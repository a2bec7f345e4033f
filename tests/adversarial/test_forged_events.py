"""Push access is not identity: events forged into a reviewer's own verdict file are kept aside,
never imported as hers; events stamped in the future are refused and never set her clock."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from synckit import REPORT, bare_remote, git, give, ids, run_sync

from db.events import AT_FORMAT, MAX_AHEAD
from db.export import event_line
from db.keys import ItemRef
from db.store import VerdictStore
from tui.commands.sync import sync_command
from tui.commands.verdicts import import_

FILE = f"verdicts/{REPORT}/ada.jsonl"


@pytest.fixture
def ada(tmp_path: Path) -> Iterator[VerdictStore]:
    store = VerdictStore.open(tmp_path / "ada.sqlite3")
    yield store
    store.close()


def _forge(remote: Path, work: Path, lines: list[dict[str, object]]) -> str:
    """Mallory appends lines to ada's file with plain git and pushes; her commit id."""
    git("clone", "--quiet", str(remote), str(work))
    path = work / FILE
    with path.open("a", encoding="utf-8") as handle:
        for line in lines:
            handle.write(json.dumps(line, separators=(",", ":")) + "\n")
    mallory = ["-c", "user.name=Mallory", "-c", "user.email=m@evil.example"]
    git(*mallory, "commit", "--quiet", "-am", "fix typo", cwd=work)
    git("push", "--quiet", "origin", "HEAD:main", cwd=work)
    return git("rev-parse", "HEAD", cwd=work).strip()


def _stamp(delta: timedelta) -> str:
    return (datetime.now(UTC) + delta).strftime(AT_FORMAT)


def test_events_forged_into_her_file_are_kept_aside(ada: VerdictStore, tmp_path: Path) -> None:
    remote = bare_remote(tmp_path / "verdicts.git")
    give(ada, "ada", {"R-1": "confirmed"})
    assert run_sync(ada, remote, "ada", tmp_path / "a").sent == 1
    mine = json.loads(event_line(ada.events()[0]))
    forged = dict(mine, event="f" * 32, verdict="refuted", note="ada: this is wrong")
    future = dict(forged, event="9" * 32, at="2099-01-01T00:00:00.000000Z")
    commit = _forge(remote, tmp_path / "mallory", [forged, future])

    result = run_sync(ada, remote, "ada", tmp_path / "a")
    assert result.received == 0 and result.aside == 1
    [found] = result.foreign
    assert (found.file, found.commit, found.author, found.events) == (
        FILE,
        commit,
        "Mallory <m@evil.example>",
        1,
    )
    assert any("at 2099-01-01T00:00:00.000000Z is in the future" in p for p in result.problems)
    assert "f" * 32 not in ids(ada) and "9" * 32 not in ids(ada)
    assert ada.current("ada")[ItemRef(REPORT, "R-1").key].verdict.value == "confirmed"  # type: ignore[union-attr]
    # her next push writes her file as her database holds it
    pushed = git("show", f"main:{FILE}", cwd=remote)
    assert "f" * 32 not in pushed and len(pushed.splitlines()) == 1
    # her clock is her own
    later = ada.give(ItemRef(REPORT, "R-2"), "refuted", reviewer="ada")
    assert later.at < _stamp(timedelta(minutes=1))


def test_the_cli_names_the_forgery_and_accepting_takes_it(
    ada: VerdictStore, tmp_path: Path
) -> None:
    remote = bare_remote(tmp_path / "verdicts.git")
    give(ada, "ada", {"R-1": "confirmed"})
    run_sync(ada, remote, "ada", tmp_path / "a")
    mine = json.loads(event_line(ada.events()[0]))
    _forge(remote, tmp_path / "mallory", [dict(mine, event="f" * 32, verdict="refuted")])
    db = str(ada.path)
    ada.close()
    runner = CliRunner()
    kept = runner.invoke(sync_command, ["--db", db, "--reviewer", "ada"])
    assert kept.exit_code == 0, kept.output
    assert f"kept aside: {FILE}: 1 event(s) in the name of ada" in kept.stderr
    assert "by Mallory <m@evil.example>" in kept.stderr
    assert "assay sync --accept-foreign" in kept.stderr
    again = runner.invoke(sync_command, ["--db", db])
    assert "1 event(s) kept aside in all" in again.stderr
    # and what her pushes do with them meanwhile (her other machine's events are left out)
    assert "your syncs send your files without them" in again.stderr
    accepted = runner.invoke(sync_command, ["--db", db, "--accept-foreign"])
    assert accepted.exit_code == 0 and "accepted 1 event(s) kept aside" in accepted.stderr
    with VerdictStore.open(db) as store:
        assert "f" * 32 in ids(store)


def test_a_received_event_never_stamps_a_local_one(ada: VerdictStore, tmp_path: Path) -> None:
    """Her other machine's clock runs four minutes ahead (within what is accepted): her events
    given here are still stamped by this clock, but for a change of an item the other machine
    stamped ahead, stamped just after it (it would hide the change until this clock passed)."""
    remote = bare_remote(tmp_path / "verdicts.git")
    other = VerdictStore.open(tmp_path / "other.sqlite3")
    try:
        give(other, "ada", {"R-1": "confirmed"})
        run_sync(other, remote, "ada", tmp_path / "o")
    finally:
        other.close()
    ahead = _stamp(timedelta(minutes=4))
    line = json.loads(git("show", f"main:{FILE}", cwd=remote))
    _forge(remote, tmp_path / "work", [dict(line, event="a" * 32, at=ahead)])
    result = run_sync(ada, remote, "ada", tmp_path / "a", accept_foreign=True)
    assert result.accepted == 2 and "a" * 32 in ids(ada)
    given = ada.give(ItemRef(REPORT, "R-2"), "refuted", reviewer="ada")
    assert given.at < ahead
    # a verdict given here on the item the other machine stamped ahead is her verdict now
    # (it was hidden behind the received one until this clock passed it), and so is its undo
    changed = ada.give(ItemRef(REPORT, "R-1"), "unclear", reviewer="ada")
    assert changed.at > ahead
    assert ada.current("ada")[ItemRef(REPORT, "R-1").key].verdict.value == "unclear"  # type: ignore[union-attr]
    ada.undo("ada", event=changed.event)
    assert ada.current("ada")[ItemRef(REPORT, "R-1").key].verdict.value == "confirmed"  # type: ignore[union-attr]
    [many] = ada.give_many([ItemRef(REPORT, "R-1")], "refuted", reviewer="ada")
    assert ada.current("ada")[ItemRef(REPORT, "R-1").key].event == many.event
    # the next verdict elsewhere: stamped by this clock, just after hers at most
    assert ada.give(ItemRef(REPORT, "R-3"), "skip", reviewer="ada").at <= _stamp(MAX_AHEAD)


def test_import_refuses_a_file_stamped_in_the_future(ada: VerdictStore, tmp_path: Path) -> None:
    give(ada, "ada", {"R-1": "confirmed"})
    line = json.loads(event_line(ada.events()[0]))
    hostile = tmp_path / "bob.jsonl"
    hostile.write_text(
        json.dumps(dict(line, event="b" * 32, reviewer="bob", at="2099-01-01T00:00:00Z")) + "\n",
        encoding="utf-8",
    )
    db = str(ada.path)
    ada.close()
    result = CliRunner().invoke(import_, [str(hostile), "--db", db])
    assert result.exit_code == 2
    assert "1 event(s) stamped in the future" in result.output
    with VerdictStore.open(db) as store:
        assert store.count() == 1


def test_a_line_no_database_can_store_is_skipped_not_the_sync(
    ada: VerdictStore, tmp_path: Path
) -> None:
    """A note holding a lone surrogate (valid JSON, not storable text) in Ben's file: that line
    is skipped and reported; the rest of the sync goes on."""
    remote = bare_remote(tmp_path / "verdicts.git")
    ben = VerdictStore.open(tmp_path / "ben.sqlite3")
    try:
        give(ben, "ben", {"R-1": "refuted", "R-2": "confirmed"})
        run_sync(ben, remote, "ben", tmp_path / "b")
        line = json.loads(event_line(ben.events()[0]))
    finally:
        ben.close()
    work = tmp_path / "work"
    git("clone", "--quiet", str(remote), str(work))
    path = work / f"verdicts/{REPORT}/ben.jsonl"
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(dict(line, event="d" * 32, note="a\ud800b")) + "\n")
    git("commit", "--quiet", "-am", "surrogate", cwd=work)
    git("push", "--quiet", "origin", "HEAD:main", cwd=work)
    give(ada, "ada", {"R-1": "confirmed"})
    result = run_sync(ada, remote, "ada", tmp_path / "a")
    assert result.ok and result.received == 2 and result.sent == 1
    assert any("note holds a lone surrogate" in problem for problem in result.problems)
