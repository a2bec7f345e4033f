"""`assay sync` between two reviewers through a real bare repository."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from synckit import REPORT, bare_remote, git, give, ids, remote_files, run_sync

from db.stats import summary
from db.store import VerdictStore
from db.sync.engine import last_sync


@pytest.fixture
def remote(tmp_path: Path) -> Path:
    return bare_remote(tmp_path / "verdicts.git")


@pytest.fixture
def ada(tmp_path: Path) -> Iterator[VerdictStore]:
    store = VerdictStore.open(tmp_path / "ada.sqlite3")
    yield store
    store.close()


@pytest.fixture
def ben(tmp_path: Path) -> Iterator[VerdictStore]:
    store = VerdictStore.open(tmp_path / "ben.sqlite3")
    yield store
    store.close()


def test_sync_a_b_a_gives_both_every_event_and_stats_the_pair(
    remote: Path, ada: VerdictStore, ben: VerdictStore, tmp_path: Path
) -> None:
    give(ada, "ada", {"R-1": "confirmed", "R-2": "refuted", "R-3": "confirmed"}, note="ok [b]x[/b]")
    give(ben, "ben", {"R-1": "confirmed", "R-2": "confirmed", "R-3": "confirmed", "R-4": "unclear"})
    first = run_sync(ada, remote, "ada", tmp_path / "a")
    assert first.ok and first.sent == 3 and first.received == 0
    second = run_sync(ben, remote, "ben", tmp_path / "b")
    assert second.ok and second.received == 3 and second.sent == 4
    third = run_sync(ada, remote, "ada", tmp_path / "a")
    assert third.ok and third.received == 4 and third.sent == 0
    assert ids(ada) == ids(ben) and len(ids(ada)) == 7
    assert set(remote_files(remote)) == {
        f"verdicts/{REPORT}/ada.jsonl",
        f"verdicts/{REPORT}/ben.jsonl",
    }
    # the files are `assay export --format jsonl` of each reviewer, one report each
    from io import StringIO

    from db.export import write

    exported = StringIO()
    write(ada, "jsonl", exported, reviewer="ada")
    assert git("show", f"main:verdicts/{REPORT}/ada.jsonl", cwd=remote) == exported.getvalue()
    log = git("log", "--format=%an|%s", "main", cwd=remote).splitlines()
    assert log == ["ben|assay sync: ben: 4 new event(s)", "ada|assay sync: ada: 3 new event(s)"]
    for store in (ada, ben):
        pair = summary(store)["agreement"]
        assert [(p["first"], p["second"], p["items"], p["agreed"]) for p in pair] == [
            ("ada", "ben", 3, 2)
        ]
        assert pair[0]["kappa"] == pytest.approx(0.0)
    assert last_sync(ada) is not None and last_sync(ada)["received"] == 4  # type: ignore[index]


def test_sync_is_idempotent_and_remembers_the_remote(
    remote: Path, ada: VerdictStore, ben: VerdictStore, tmp_path: Path
) -> None:
    give(ada, "ada", {"R-1": "confirmed"})
    give(ben, "ben", {"R-1": "refuted"})
    run_sync(ada, remote, "ada", tmp_path / "a")
    run_sync(ben, remote, "ben", tmp_path / "b")
    run_sync(ada, remote, "ada", tmp_path / "a")
    head = git("rev-parse", "main", cwd=remote)
    for _ in range(2):
        again = run_sync(ada, None, "ada", tmp_path / "a")  # no --remote: the remembered one
        assert again.ok and (again.received, again.sent, again.pending) == (0, 0, 0)
        assert again.remote == str(remote.resolve())
    assert git("rev-parse", "main", cwd=remote) == head
    assert ada.count() == 2 and ben.count() == 2


def test_a_forced_race_ends_with_both_pushed(
    remote: Path, ada: VerdictStore, ben: VerdictStore, tmp_path: Path
) -> None:
    give(ada, "ada", {"R-1": "confirmed", "R-2": "confirmed"})
    give(ben, "ben", {"R-1": "refuted"})
    raced = []

    def ben_pushes_first(attempt: int) -> None:
        if attempt == 1:  # ada has fetched and committed: ben's push lands before hers
            raced.append(run_sync(ben, remote, "ben", tmp_path / "b"))

    result = run_sync(ada, remote, "ada", tmp_path / "a", before_push=ben_pushes_first)
    assert raced and raced[0].ok and raced[0].sent == 1
    assert result.ok and result.attempts == 2 and result.sent == 2 and result.received == 1
    assert set(remote_files(remote)) == {
        f"verdicts/{REPORT}/ada.jsonl",
        f"verdicts/{REPORT}/ben.jsonl",
    }
    assert run_sync(ben, remote, "ben", tmp_path / "b").received == 2
    assert ids(ada) == ids(ben)


def test_a_remote_that_keeps_moving_is_given_up_with_everything_kept(
    remote: Path, ada: VerdictStore, ben: VerdictStore, tmp_path: Path
) -> None:
    give(ada, "ada", {"R-1": "confirmed"})

    def ben_always_first(attempt: int) -> None:
        give(ben, "ben", {f"R-{attempt}": "refuted"})
        run_sync(ben, remote, "ben", tmp_path / "b")

    result = run_sync(ada, remote, "ada", tmp_path / "a", attempts=2, before_push=ben_always_first)
    assert not result.ok and result.error and "2 pushes were rejected" in result.error
    assert result.pending == 1 and ada.count() == 2  # hers, and ben's first (fetched on retry)
    last = run_sync(ada, remote, "ada", tmp_path / "a")
    assert last.ok and (last.sent, last.received) == (1, 1)


def test_offline_keeps_everything_and_sends_it_next_time(
    ada: VerdictStore, ben: VerdictStore, tmp_path: Path
) -> None:
    remote = tmp_path / "not-yet.git"
    give(ada, "ada", {"R-1": "confirmed", "R-2": "unclear"})
    offline = run_sync(ada, remote, "ada", tmp_path / "a")
    assert offline.offline and "does not appear to be a git repository" in offline.offline
    assert offline.pending == 2 and offline.sent == 0 and ada.count() == 2
    give(ada, "ada", {"R-3": "refuted"})  # still offline: more work
    assert run_sync(ada, None, "ada", tmp_path / "a").pending == 3
    bare_remote(remote)  # back online
    back = run_sync(ada, None, "ada", tmp_path / "a")
    assert back.ok and back.sent == 3 and back.pending == 0
    assert run_sync(ben, remote, "ben", tmp_path / "b").received == 3


def test_two_machines_of_one_reviewer_merge_once_accepted(remote: Path, tmp_path: Path) -> None:
    laptop = VerdictStore.open(tmp_path / "laptop.sqlite3")
    desktop = VerdictStore.open(tmp_path / "desktop.sqlite3")
    try:
        give(laptop, "ada", {"R-1": "confirmed"})
        give(desktop, "ada", {"R-2": "refuted"})
        run_sync(laptop, remote, "ada", tmp_path / "l")
        # the laptop's event in ada's file was not written by the desktop: kept aside
        kept = run_sync(desktop, remote, "ada", tmp_path / "d")
        assert kept.ok and kept.received == 0 and kept.aside == 1
        assert kept.sent == 1  # its own event, new to the remote (as many lines as it held)
        assert [f.file for f in kept.foreign] == [f"verdicts/{REPORT}/ada.jsonl"]
        merged = run_sync(desktop, remote, "ada", tmp_path / "d", accept_foreign=True)
        assert merged.accepted == 1 and merged.aside == 0 and merged.sent == 1
        assert run_sync(laptop, remote, "ada", tmp_path / "l", accept_foreign=True).accepted == 1
        assert ids(laptop) == ids(desktop) and len(ids(laptop)) == 2
        shown = git("show", f"main:verdicts/{REPORT}/ada.jsonl", cwd=remote)
        assert len(shown.splitlines()) == 2
    finally:
        laptop.close()
        desktop.close()


def test_other_files_of_the_repository_are_kept(
    remote: Path, ada: VerdictStore, tmp_path: Path
) -> None:
    work = tmp_path / "work"
    git("clone", "--quiet", str(remote), str(work))
    (work / "README.md").write_text("Our verdicts\n", encoding="utf-8")
    git("add", "README.md", cwd=work)
    git("commit", "--quiet", "-m", "readme", cwd=work)
    git("push", "--quiet", "origin", "HEAD:main", cwd=work)
    give(ada, "ada", {"R-1": "confirmed"})
    assert run_sync(ada, remote, "ada", tmp_path / "a").sent == 1
    assert set(remote_files(remote)) == {"README.md", f"verdicts/{REPORT}/ada.jsonl"}
    assert len(git("rev-list", "main", cwd=remote).split()) == 2


def _parts(remote: Path, reviewer: str) -> dict[str, int]:
    """The remote's files of a reviewer's events on REPORT: path -> size in bytes."""
    listing = git("ls-tree", "-r", "-l", "main", f"verdicts/{REPORT}/", cwd=remote)
    sizes = {}
    for line in listing.splitlines():
        meta, path = line.split("\t")
        if path.rpartition("/")[2].startswith((f"{reviewer}.", f"{reviewer}+")):
            sizes[path] = int(meta.split()[3])
    return sizes


def _group(store: VerdictStore, reviewer: str, count: int, verdict: str = "refuted") -> None:
    from db.keys import ItemRef

    store.give_many(
        [ItemRef(REPORT, f"Q000:{n}") for n in range(count)], verdict, reviewer=reviewer
    )


def test_a_file_past_a_part_goes_on_in_parts_every_teammate_reads(
    remote: Path,
    ada: VerdictStore,
    ben: VerdictStore,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a group verdict on a scan's 119,592 results (and its undo) made one 197 MB file, and every
    # teammate's sync skipped it (a reader takes 64 MB a file): the limits, small, as they stand
    from db.sync import engine, files

    monkeypatch.setattr(engine, "MAX_FILE_BYTES", 10_000)
    monkeypatch.setattr(files, "PART_BYTES", 5_000)
    _group(ada, "ada", 60)
    sent = run_sync(ada, remote, "ada", tmp_path / "a")
    assert sent.ok and sent.sent == 60
    parts = _parts(remote, "ada")
    names = {path.rpartition("/")[2] for path in parts}
    assert len(parts) > 3
    assert names == {"ada.jsonl"} | {f"ada+{n}.jsonl" for n in range(2, len(parts) + 1)}
    assert all(size <= 5_000 for size in parts.values())
    received = run_sync(ben, remote, "ben", tmp_path / "b")
    assert received.received == 60 and received.problems == []
    assert ids(ben) == ids(ada)
    # one more verdict: counted as one, written into the last part only
    give(ada, "ada", {"R-1": "confirmed"})
    again = run_sync(ada, remote, "ada", tmp_path / "a")
    assert again.sent == 1
    assert git("diff", "--name-only", "main~1", "main", cwd=remote).split() == [
        f"verdicts/{REPORT}/ada+{len(parts)}.jsonl"
    ]
    assert run_sync(ben, remote, "ben", tmp_path / "b").received == 1
    assert ids(ben) == ids(ada)


def test_parts_no_longer_written_are_removed_and_nothing_is_lost(
    remote: Path,
    ada: VerdictStore,
    ben: VerdictStore,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from db.sync import engine, files

    monkeypatch.setattr(engine, "MAX_FILE_BYTES", 10_000)
    monkeypatch.setattr(files, "PART_BYTES", 1_000_000)  # as a version before parts wrote it
    _group(ada, "ada", 60)
    run_sync(ada, remote, "ada", tmp_path / "a")
    assert list(_parts(remote, "ada").values())[0] > 10_000  # one file no teammate reads
    assert run_sync(ben, remote, "ben", tmp_path / "b").received == 0
    monkeypatch.setattr(files, "PART_BYTES", 2_000)
    _group(ada, "ada", 10, "confirmed")
    run_sync(ada, remote, "ada", tmp_path / "a")
    many = _parts(remote, "ada")
    assert len(many) > 6 and all(size <= 2_000 for size in many.values())
    monkeypatch.setattr(files, "PART_BYTES", 5_000)
    give(ada, "ada", {"R-1": "confirmed"})
    run_sync(ada, remote, "ada", tmp_path / "a")
    fewer = _parts(remote, "ada")
    assert 3 < len(fewer) < len(many) and all(size <= 5_000 for size in fewer.values())
    received = run_sync(ben, remote, "ben", tmp_path / "b")
    assert received.problems == [] and ids(ben) == ids(ada) and len(ids(ada)) == 71


def test_foreign_events_are_named_by_the_part_that_holds_them(
    remote: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from db.sync import files

    monkeypatch.setattr(files, "PART_BYTES", 5_000)
    laptop = VerdictStore.open(tmp_path / "laptop.sqlite3")
    desktop = VerdictStore.open(tmp_path / "desktop.sqlite3")
    try:
        _group(laptop, "ada", 30)
        run_sync(laptop, remote, "ada", tmp_path / "l")
        parts = _parts(remote, "ada")
        kept = run_sync(desktop, remote, "ada", tmp_path / "d")
        assert kept.aside == 30 and {f.file for f in kept.foreign} == set(parts)
        assert sum(f.events for f in kept.foreign) == 30
    finally:
        laptop.close()
        desktop.close()


def test_a_remembered_value_nested_past_the_stack_reads_as_none(ada: VerdictStore) -> None:
    # a database another program wrote: json.loads raised RecursionError into the review app
    ada.set_sync_state({"last": "[" * 200_000})
    assert last_sync(ada) is None


def test_a_clone_that_cannot_be_written_is_a_message_and_loses_nothing(
    ada: VerdictStore, remote: Path, tmp_path: Path
) -> None:
    # as a full disk fails git's writes: no new object can be stored in the private clone
    from db.sync.engine import SyncError, sync_directory

    give(ada, "ada", {"R-1": "confirmed"})
    assert run_sync(ada, remote, "ada", tmp_path / "a").sent == 1
    clone = sync_directory(ada.path, str(remote), tmp_path / "a")
    git("repack", "-a", "-d", "-q", cwd=clone)
    git("prune-packed", cwd=clone)
    objects = clone / "objects"
    for folder in objects.iterdir():
        if len(folder.name) == 2 and folder.is_dir():
            folder.rmdir()
    for number in range(256):  # a file where each loose object's folder would go
        (objects / f"{number:02x}").write_bytes(b"")
    give(ada, "ada", {"R-2": "refuted"})
    with pytest.raises(SyncError, match="git failed in the private clone .*nothing is lost"):
        run_sync(ada, remote, "ada", tmp_path / "a")
    assert ada.count() == 2


def branch_locks(remote: Path) -> list[Path]:
    """The lock files another git would hold while updating each branch of ``remote``."""
    return [ref.with_name(ref.name + ".lock") for ref in (remote / "refs" / "heads").iterdir()]


def test_a_push_meeting_anothers_lock_on_the_branch_is_tried_again(
    remote: Path, ada: VerdictStore, tmp_path: Path
) -> None:
    # two reviewers syncing to one bare repository on a shared disk at the same moment: the
    # later push found the branch locked ("failed to update ref") and gave up at once
    give(ada, "ada", {"R-1": "confirmed"})
    assert run_sync(ada, remote, "ada", tmp_path / "a").ok
    give(ada, "ada", {"R-2": "refuted"})
    locks = branch_locks(remote)

    def held_once(attempt: int) -> None:
        for lock in locks:
            if attempt == 1:
                lock.write_text("")
            else:
                lock.unlink(missing_ok=True)

    result = run_sync(ada, remote, "ada", tmp_path / "a", before_push=held_once)
    assert result.ok and result.attempts == 2 and result.sent == 1, result.error


def test_a_lock_left_on_the_branch_is_named_and_nothing_is_lost(
    remote: Path, ada: VerdictStore, tmp_path: Path
) -> None:
    give(ada, "ada", {"R-1": "confirmed"})
    assert run_sync(ada, remote, "ada", tmp_path / "a").ok
    give(ada, "ada", {"R-2": "refuted"})
    locks = branch_locks(remote)
    for lock in locks:  # a git that crashed there
        lock.write_text("")
    result = run_sync(ada, remote, "ada", tmp_path / "a", attempts=2)
    assert not result.ok and result.error is not None and result.pending == 1
    assert "another push was updating it, or a git that crashed there left" in result.error
    assert "refs/heads/" in result.error and ".lock" in result.error
    assert "kept moving" not in result.error
    for lock in locks:
        lock.unlink()
    assert run_sync(ada, remote, "ada", tmp_path / "a").sent == 1
