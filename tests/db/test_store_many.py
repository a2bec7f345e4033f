"""One verdict on many items at once (a group of scanner results), and its undo as one change."""

from __future__ import annotations

from pathlib import Path

import pytest

from db.keys import ItemRef, Verdict
from db.store import StoreError, VerdictStore

REPORT = "ruff/ruff@pygments"
ITEMS = [ItemRef(REPORT, f"ruff-Q000-{n}") for n in range(1200)]  # more than one chunk


def test_give_many_is_one_event_each_keeping_notes(store: VerdictStore) -> None:
    store.note(ITEMS[3], "quote style only", reviewer="ann")
    store.give(ITEMS[4], "confirmed", note="a real one", reviewer="ann")
    store.give(ITEMS[5], "confirmed", reviewer="bob")
    events = store.give_many(ITEMS, Verdict.REFUTED, reviewer="ann", revision="a" * 40)
    assert [event.item for event in events] == [item.key for item in ITEMS]
    current = store.current("ann")
    assert len(current) == len(ITEMS)
    assert {event.verdict for event in current.values()} == {Verdict.REFUTED}
    assert current[ITEMS[3].key].note == "quote style only"
    assert current[ITEMS[4].key].note == "a real one"
    assert store.current("bob")[ITEMS[5].key].verdict is Verdict.CONFIRMED
    # later than every event before it: a single verdict after it is later again
    after = store.give(ITEMS[0], "unclear", reviewer="ann")
    assert after.at > events[0].at > store.history(ITEMS[4].key)[0].at
    assert store.current("ann")[ITEMS[0].key].verdict is Verdict.UNCLEAR


def test_give_many_counts_an_item_once_and_refuses_what_give_refuses(
    store: VerdictStore,
) -> None:
    assert len(store.give_many([ITEMS[0], ITEMS[0], ITEMS[1]], "skip", reviewer="ann")) == 2
    with pytest.raises(StoreError, match="unknown verdict 'maybe'"):
        store.give_many(ITEMS, "maybe", reviewer="ann")
    with pytest.raises(StoreError, match="reviewer"):
        store.give_many(ITEMS, "skip", reviewer=" ")
    assert store.count() == 2


def test_undo_many_restores_each_item_and_skips_the_changed_ones(store: VerdictStore) -> None:
    store.give(ITEMS[0], "confirmed", note="checked", reviewer="ann")
    store.note(ITEMS[1], "look again", reviewer="ann")
    given = store.give_many(ITEMS[:4], "refuted", reviewer="ann")
    store.give(ITEMS[2], "unclear", reviewer="ann")  # changed since: its undo is not made
    undone = store.undo_many("ann", [event.event for event in given])
    assert sorted(event.item for event in undone) == sorted(ITEMS[n].key for n in (0, 1, 3))
    assert {event.undoes for event in undone} <= {event.event for event in given}
    current = store.current("ann")
    assert (current[ITEMS[0].key].verdict, current[ITEMS[0].key].note) == (
        Verdict.CONFIRMED,
        "checked",
    )
    assert (current[ITEMS[1].key].verdict, current[ITEMS[1].key].note) == (None, "look again")
    assert current[ITEMS[2].key].verdict is Verdict.UNCLEAR
    assert ITEMS[3].key not in current  # back to unreviewed
    assert store.undo_many("ann", [event.event for event in given]) == []  # undone once only


def test_give_many_is_all_or_nothing(store: VerdictStore, db_path: Path) -> None:
    bad = ItemRef(REPORT, "x\ud800")  # cannot be stored: the whole verdict is refused
    with pytest.raises(StoreError):
        store.give_many([*ITEMS[:10], bad], "refuted", reviewer="ann")
    assert store.count() == 0
    reopened = VerdictStore.open(db_path, readonly=True)
    try:
        assert reopened.current("ann") == {}
    finally:
        reopened.close()


def test_a_group_note_is_added_to_each_note_and_undone_with_the_verdicts(
    store: VerdictStore,
) -> None:
    store.note(ITEMS[0], "checked by hand", reviewer="ann")
    store.note(ITEMS[1], "line one\nquote style only", reviewer="ann")
    given = store.give_many(ITEMS[:3], "refuted", reviewer="ann", note="quote style only")
    notes = [event.note for event in given]
    assert notes == [
        "checked by hand\nquote style only",
        "line one\nquote style only",  # said already: not twice
        "quote style only",
    ]
    store.undo_many("ann", [event.event for event in given])
    current = store.current("ann")
    assert [current[item.key].note for item in ITEMS[:2]] == [
        "checked by hand",
        "line one\nquote style only",
    ]
    assert ITEMS[2].key not in current


def test_every_current_verdict_is_read_in_gathered_steps_as_the_view_gives_them(
    store: VerdictStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the rows are gathered into one JSON value per step (a step a row let a busy thread hold
    # the interpreter between rows): the same events, in the view's order, across the steps
    import sqlite3

    from db import reads
    from db.events import SELECT, event_from_row

    monkeypatch.setattr(reads, "GATHERED", 7)
    notes = ['"quoted"', "line\nbreak", "tab\tand \\ backslash", "ünïcødé ✓ 𝄞", "", "\x7f"]
    for n, item in enumerate(ITEMS[:40]):
        for reviewer in ("ann", "bob", "b", "ann bob")[: 1 + n % 4]:
            store.give(item, ("confirmed", "refuted")[n % 2], reviewer=reviewer)
            if n % 3 == 0:
                store.note(item, notes[n % len(notes)] + str(n), reviewer=reviewer)
    store.give_many(ITEMS[10:30], "unclear", reviewer="bob")
    store.undo_many("bob", [e.event for e in store.give_many(ITEMS[5:9], "skip", reviewer="bob")])
    read = store.current_all()
    conn = sqlite3.connect(store.path)
    try:
        rows = conn.execute(f"{SELECT} current_verdicts ORDER BY item, reviewer").fetchall()
    finally:
        conn.close()
    expected = [event for event in map(event_from_row, rows) if not event.empty]
    assert len(expected) > 7 * 10 and read == expected
