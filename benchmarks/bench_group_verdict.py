"""A verdict on a whole group of scanner results (`R` on a rule's results, then `z`), at the size
of ruff's every-rule scan of pygments (119,592 Q000 results of 135,130).

Prints, from one run:

- the store's work on its writer thread: `VerdictStore.give_many` (one transaction, an event a
  result, each result's note kept), what a relaunch reads of them (the current verdicts, and
  those the reports no longer hold: `stale`) and `undo_many` (each reverted), beside the
  baseline of the same events appended by a bare `executemany` INSERT in one transaction into the
  same schema, and beside one `give` a result (timed over the first 500, scaled);
- the event loop's part: the events taken into the review session (its verdicts and progress
  counts), what the review screen does before the next frame (`Verdicts.show_changes`; the
  records list is then drawn again once, as a key's frame draws it);
- then what `f` lists: each filter's rows made after the verdict, and again after one more
  verdict (the unfiltered list, "all", is the baseline in the same run).

Usage: .venv/bin/python benchmarks/bench_group_verdict.py [N_RESULTS]
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_triage import generated  # noqa: E402

from db.events import INSERT, row_values  # noqa: E402
from db.keys import Verdict  # noqa: E402
from db.store import VerdictStore  # noqa: E402
from screens.session import ReviewSession  # noqa: E402

T = TypeVar("T")
SINGLE = 500  # single verdicts timed for the per-result baseline


def timed(work: Callable[[], T]) -> tuple[T, float]:
    """What ``work`` returns, and the seconds it took."""
    start = time.perf_counter()
    result = work()
    return result, time.perf_counter() - start


CONVOY_ROWS = 3_000  # rows read a step each beside a busy thread (scaled: the whole is minutes)


@contextmanager
def busy_thread() -> Iterator[None]:
    """A thread that keeps the interpreter busy (the app's event loop while keys are pressed,
    the anchoring), at the app's switch interval (tui/app.py UI_SWITCH_INTERVAL)."""
    done = threading.Event()

    def spin() -> None:
        while not done.is_set():
            sum(range(1000))

    switch = sys.getswitchinterval()
    sys.setswitchinterval(0.001)
    spinner = threading.Thread(target=spin)
    spinner.start()
    try:
        yield
    finally:
        done.set()
        spinner.join()
        sys.setswitchinterval(switch)


def read_beside_busy_thread(store: VerdictStore) -> dict[str, float]:
    """Every current verdict read as the app reads it at a relaunch (`current_all`), and as
    rows stepped one by one, each alone and beside a busy thread, as the store's thread reads
    them in the app."""
    import sqlite3

    from db.events import SELECT

    conn = sqlite3.connect(store.path, check_same_thread=False)
    query = f"{SELECT} current_verdicts ORDER BY item, reviewer"
    total = conn.execute("SELECT count(*) FROM current_verdicts").fetchone()[0]
    out = {
        "gathered": timed(store.current_all)[1],
        "rows": timed(lambda: conn.execute(query).fetchall())[1],
    }
    with busy_thread():
        out["gathered busy"] = timed(store.current_all)[1]
        part = timed(lambda: conn.execute(f"{query} LIMIT {CONVOY_ROWS}").fetchall())[1]
        out["rows busy"] = part / CONVOY_ROWS * total
    conn.close()
    return out


def main() -> int:
    n_results = int(sys.argv[1]) if len(sys.argv) > 1 else 120_000
    _repo, path, reportset = generated(n_results)
    session = ReviewSession(reportset, "bench")
    items = [session.record_item(record) for record in session.records]
    print(f"{path.name}: {len(items):,} results, one verdict on all of them")
    with tempfile.TemporaryDirectory() as tmp:
        store = VerdictStore.open(Path(tmp) / "v.db")
        note = store.note(items[1], "kept", reviewer="bench")
        given, give_s = timed(lambda: store.give_many(items, Verdict.REFUTED, reviewer="bench"))
        assert len(given) == len(items) and given[1].note == note.note
        ids = [event.event for event in given]
        # a relaunch reads them back: the current verdicts, then those the reports no longer hold
        read, read_s = timed(lambda: store.current("bench"))
        stale, stale_s = timed(lambda: store.stale(reportset, "bench"))
        convoy = read_beside_busy_thread(store)
        assert len(read) == len(items) and not stale
        undone, undo_s = timed(lambda: store.undo_many("bench", ids))
        assert len(undone) == len(items) and store.current("bench") == {
            items[1].key: store.current("bench")[items[1].key]
        }
        beside = VerdictStore.open(Path(tmp) / "busy.db")
        with busy_thread():
            _, busy_give_s = timed(lambda: beside.give_many(items, "refuted", reviewer="bench"))
        beside.close()
        other = VerdictStore.open(Path(tmp) / "one.db")
        _, one_s = timed(
            lambda: [other.give(item, Verdict.REFUTED, reviewer="bench") for item in items[:SINGLE]]
        )
        other.close()
        store.close()
        # the baseline: the same rows appended by a bare INSERT, one transaction, same schema
        import sqlite3

        VerdictStore.open(Path(tmp) / "bare.db").close()
        bare = sqlite3.connect(Path(tmp) / "bare.db", isolation_level=None)
        bare.execute("BEGIN IMMEDIATE")
        _, bare_s = timed(lambda: (bare.executemany(INSERT, map(row_values, given)),
                                   bare.execute("COMMIT")))  # fmt: skip
        bare.execute("BEGIN IMMEDIATE")
        few = [row_values(event) for event in undone[:CONVOY_ROWS]]
        with busy_thread():
            _, bare_busy_s = timed(lambda: bare.executemany(INSERT, few))
        bare.execute("ROLLBACK")
        bare.close()
    per_result = one_s / SINGLE * len(items)
    print(f"{'':44}{'seconds':>9}{'vs bare INSERT':>16}")
    print(f"{'bare INSERT of the same events (baseline)':44}{bare_s:9.2f}{1:15.2f}x")
    print(f"{'give_many (writer thread)':44}{give_s:9.2f}{give_s / bare_s:15.2f}x")
    print(f"{'undo_many (writer thread)':44}{undo_s:9.2f}{undo_s / bare_s:15.2f}x")
    busy_bare = bare_busy_s / CONVOY_ROWS * len(items)
    print(
        f"give_many beside a busy thread: {busy_give_s:.2f} s; the bare INSERT beside it (a step"
        f" a row): {busy_bare:.1f} s ({CONVOY_ROWS:,} rows timed, scaled)"
    )
    print(f"{'relaunch: current verdicts read':44}{read_s:9.2f}{read_s / bare_s:15.2f}x")
    print(f"{'relaunch: stale verdicts looked for':44}{stale_s:9.2f}{stale_s / bare_s:15.2f}x")
    print(
        "relaunch: every current verdict (the app's read), alone / beside a busy thread:"
        f" {convoy['gathered']:.2f} / {convoy['gathered busy']:.2f} s; the same rows a step each"
        f" (the baseline): {convoy['rows']:.2f} / {convoy['rows busy']:.1f} s"
        f" ({CONVOY_ROWS:,} rows timed beside it, scaled)"
    )
    one = "one give a result (500 timed, scaled)"
    print(f"{one:44}{per_result:9.1f}{per_result / bare_s:15.1f}x")

    def show() -> None:  # Verdicts.show_changes without the widgets: the session's part
        session.apply(*given)
        {event.ref.record_key for event in given}
        session.progress()

    for record in session.records:  # as the anchoring worker makes them (loading.py)
        session.item_keys(record)
    session.records_with_key("")
    session.progress()  # counted once before, as the header has
    _, shown_s = timed(show)
    print(f"event loop: {len(given):,} events taken into the session: {shown_s * 1000:.0f} ms "
          f"({shown_s / len(given) * 1e6:.1f} µs an event)")  # fmt: skip

    # then `f`: each filter's rows made again after the verdicts (the list's baseline: "all")
    def rows_made(name: str) -> float:
        return timed(lambda: session.rows(name))[1]

    made = {name: rows_made(name) for name in session.filters()}
    print("rows of each filter after it (what `f` lists), ms: " + ", ".join(
        f"{name} {seconds * 1000:.0f}" for name, seconds in made.items()))  # fmt: skip
    session.apply(*given[:1])  # one verdict more: the verdict filters' rows are made again
    again = {name: rows_made(name) for name in made}
    print("again after one more verdict, ms: " + ", ".join(
        f"{name} {seconds * 1000:.1f}" for name, seconds in again.items()))  # fmt: skip
    print(f"(load average {' '.join(f'{n:.1f}' for n in os.getloadavg())}, {os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
