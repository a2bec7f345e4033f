"""Verdicts, notes, undo, history, review positions and the append-only events table."""

from __future__ import annotations

import sqlite3
import subprocess
import threading
from pathlib import Path

import pytest
from storekit import make_record, make_report, reportset

from db.keys import ItemRef, Verdict, review_key
from db.reviewer import reviewer_lookup, reviewer_name
from db.store import StoreError, VerdictStore

ITEM = ItemRef("KESTREL/agentic-system-runtime-report", "RT-CLM-one")
OTHER = ItemRef("KESTREL/agentic-system-runtime-report", "RT-CLM-two")
REV = "a" * 40


def test_give_is_current_and_in_history(store: VerdictStore) -> None:
    event = store.give(ITEM, Verdict.CONFIRMED, note="seen it", reviewer="ann", revision=REV)
    assert event.verdict is Verdict.CONFIRMED
    assert event.note == "seen it"
    assert event.revision == REV
    assert event.at.endswith("Z")
    assert store.current("ann") == {ITEM.key: event}
    assert store.current("bob") == {}
    assert store.history(ITEM.key) == [event]


def test_give_accepts_strings_and_refuses_unknown_verdicts(store: VerdictStore) -> None:
    assert store.give(ITEM, "unclear", reviewer="ann").verdict is Verdict.UNCLEAR
    with pytest.raises(StoreError, match="unknown verdict 'maybe'"):
        store.give(ITEM, "maybe", reviewer="ann")


def test_a_verdict_needs_a_reviewer(store: VerdictStore) -> None:
    with pytest.raises(StoreError, match="reviewer"):
        store.give(ITEM, "skip", reviewer="  ")


def test_new_verdict_keeps_the_note_and_note_keeps_the_verdict(store: VerdictStore) -> None:
    store.give(ITEM, "confirmed", note="first look", reviewer="ann")
    refuted = store.give(ITEM, "refuted", reviewer="ann")
    assert refuted.note == "first look"
    noted = store.note(ITEM, "line 12 differs", reviewer="ann")
    assert noted.verdict is Verdict.REFUTED
    assert store.current("ann")[ITEM.key].note == "line 12 differs"
    assert len(store.history(ITEM.key)) == 3


def test_a_note_alone_is_current_without_verdict(store: VerdictStore) -> None:
    event = store.note(ITEM, "come back to this", reviewer="ann")
    assert event.verdict is None
    assert store.current("ann")[ITEM.key] == event


def test_undo_walks_back_one_change_at_a_time(store: VerdictStore) -> None:
    first = store.give(ITEM, "confirmed", reviewer="ann")
    store.give(OTHER, "refuted", reviewer="ann")
    store.give(ITEM, "unclear", note="hmm", reviewer="ann")
    store.give(ITEM, "skip", reviewer="bob")  # someone else's change is not undone

    undone = store.undo("ann")  # unclear -> confirmed
    assert undone is not None and undone.verdict is Verdict.CONFIRMED and undone.note is None
    assert store.current("ann")[ITEM.key].verdict is Verdict.CONFIRMED
    store.undo("ann")  # OTHER back to unreviewed
    assert OTHER.key not in store.current("ann")
    last = store.undo("ann")  # ITEM back to unreviewed
    assert last is not None and last.undoes == first.event
    assert store.current("ann") == {}
    assert store.undo("ann") is None
    assert store.current("bob")[ITEM.key].verdict is Verdict.SKIP
    # every step is still in the history
    assert len(store.history(ITEM.key)) == 5  # 2 verdicts, bob's, 2 undos


def test_undo_after_a_new_verdict_restores_the_state_before_it(store: VerdictStore) -> None:
    store.give(ITEM, "confirmed", reviewer="ann")
    store.give(ITEM, "refuted", reviewer="ann")
    store.undo("ann")
    store.give(ITEM, "unclear", reviewer="ann")
    store.undo("ann")
    assert store.current("ann")[ITEM.key].verdict is Verdict.CONFIRMED


def test_undo_of_a_named_change_only_while_the_item_is_as_it_left_it(
    store: VerdictStore,
) -> None:
    first = store.give(ITEM, "confirmed", reviewer="ann")
    store.give(OTHER, "refuted", reviewer="ann")  # later, on another item
    undone = store.undo("ann", event=first.event)  # not the latest change: named
    assert undone is not None and undone.undoes == first.event and undone.verdict is None
    assert store.current("ann")[OTHER.key].verdict is Verdict.REFUTED
    assert store.undo("ann", event=first.event) is None  # undone already
    second = store.give(ITEM, "unclear", reviewer="ann")
    store.note(ITEM, "changed since", reviewer="ann")
    assert store.undo("ann", event=second.event) is None  # would undo the note too
    assert store.undo("bob", event=second.event) is None  # someone else's
    assert store.current("ann")[ITEM.key].note == "changed since"


def test_timestamps_strictly_increase_per_reviewer(store: VerdictStore) -> None:
    events = [store.give(ITEM, "skip", reviewer="ann") for _ in range(50)]
    stamps = [event.at for event in events]
    assert stamps == sorted(stamps)
    assert len(set(stamps)) == len(stamps)
    assert store.current("ann")[ITEM.key] == events[-1]


def test_triggers_refuse_update_and_delete(store: VerdictStore, db_path: Path) -> None:
    store.give(ITEM, "confirmed", reviewer="ann")
    raw = sqlite3.connect(db_path)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="append-only: UPDATE refused"):
            raw.execute("UPDATE events SET verdict = 'refuted'")
        with pytest.raises(sqlite3.IntegrityError, match="append-only: DELETE refused"):
            raw.execute("DELETE FROM events")
        raw.rollback()
        assert raw.execute("SELECT verdict FROM events").fetchall() == [("confirmed",)]
    finally:
        raw.close()


def test_schema_refuses_a_bad_verdict_value(store: VerdictStore, db_path: Path) -> None:
    raw = sqlite3.connect(db_path)
    try:
        with pytest.raises(sqlite3.IntegrityError):
            raw.execute(
                "INSERT INTO events (event, item, report, record, reviewer, verdict, at) "
                "VALUES ('x', 'i', 'r', 'c', 'ann', 'maybe', '2026-01-01T00:00:00.000000Z')"
            )
    finally:
        raw.close()


def test_review_position_per_review(store: VerdictStore) -> None:
    review = review_key("ann", ["B/workflow", "A/runtime"])
    assert review == review_key("ann", ["A/runtime", "B/workflow"])
    assert store.position(review) is None
    store.set_position(review, "RT-CLM-one")
    store.set_position(review, "RT-CLM-two")
    store.set_position(review_key("bob", ["A/runtime"]), "RT-CLM-nine")
    assert store.position(review) == "RT-CLM-two"


def test_verdicts_survive_reopening(db_path: Path) -> None:
    with VerdictStore.open(db_path) as first:
        event = first.give(ITEM, "refuted", note="wrong file", reviewer="ann")
        first.set_position("ann|x", "RT-CLM-one")
    with VerdictStore.open(db_path) as again:
        assert again.current("ann") == {ITEM.key: event}
        assert again.position("ann|x") == "RT-CLM-one"
        assert again.integrity_check() == ["ok"]


def test_closed_store_says_so(db_path: Path) -> None:
    opened = VerdictStore.open(db_path)
    opened.close()
    opened.close()
    with pytest.raises(StoreError, match="closed"):
        opened.current("ann")


def test_threads_share_one_store(store: VerdictStore) -> None:
    def work(n: int) -> None:
        for k in range(25):
            store.give(ItemRef("S/runtime", f"R{n}-{k}"), "confirmed", reviewer=f"r{n}")

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert store.count() == 100
    assert all(len(store.current(f"r{n}")) == 25 for n in range(4))


def test_register_keeps_labels_and_marks_vanished_items(store: VerdictStore) -> None:
    record = make_record("RT-CLM-one", ["a = 1", "b = 2"], label="One claim")
    report = make_report([record])
    assert store.register(reportset(report)) == 3
    labels = {row["item"]: row["label"] for row in store.items()}
    assert labels[ItemRef.for_record(report, record).key] == "One claim"
    edited = make_report([make_record("RT-CLM-one", ["a = 1", "b = 3"], label="The claim")])
    store.register(reportset(edited))
    present = {row["quote_text"]: row["present"] for row in store.items() if row["quote"]}
    assert present == {"a = 1": 1, "b = 2": 0, "b = 3": 1}
    # a registered item takes what the reports say now (the label, each quote's place)
    items = {row["item"]: row for row in store.items()}
    assert items[ItemRef.for_record(report, record).key]["label"] == "The claim"
    held = sorted((row for row in items.values() if row["present"]), key=lambda r: r["ord"])
    assert [row["quote_text"] for row in held] == [None, "a = 1", "b = 3"]


def _git(home: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=home, check=True, capture_output=True)


def test_reviewer_name_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.delenv("GIT_CONFIG_GLOBAL", raising=False)
    assert reviewer_name("  Ann  ") == "Ann"
    login = reviewer_name(None)
    assert login  # no git name: the login name (or a fallback), never empty
    _git(home, "config", "--global", "user.name", "Grace Hopper")
    assert reviewer_name(None) == "Grace Hopper"
    assert reviewer_name("") == "Grace Hopper"


def test_reviewer_lookup_asks_git_once_while_the_caller_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.delenv("GIT_CONFIG_GLOBAL", raising=False)
    _git(home, "config", "--global", "user.name", "Grace Hopper")
    found = reviewer_lookup(None)  # git runs now; the command imports the app meanwhile
    assert found() == "Grace Hopper"
    _git(home, "config", "--global", "user.name", "Ada")
    assert found() == "Grace Hopper"  # the answer is kept, git is not asked again
    assert reviewer_lookup(None)() == "Ada"
    assert reviewer_lookup("  Ann ")() == "Ann"


def test_a_reviewer_lookup_never_taken_is_closed_without_leaving_git_running() -> None:
    import gc
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lookup = reviewer_lookup(None)  # a command that then fails: the name is never taken
        lookup.close()
        lookup.close()
        del lookup
        gc.collect()
    assert not [w for w in caught if issubclass(w.category, ResourceWarning)]


def test_reviewer_name_ignores_the_repository_in_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    untrusted = tmp_path / "untrusted"
    untrusted.mkdir()
    _git(untrusted, "init", "-q")
    _git(untrusted, "config", "user.name", "Mallory")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.delenv("GIT_CONFIG_GLOBAL", raising=False)
    monkeypatch.chdir(untrusted)
    assert reviewer_name(None) != "Mallory"
