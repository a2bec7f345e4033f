"""Review app timings, each beside a baseline measured in the same run (Textual's run_test()).

- launch to first interactive frame: `assay demo` started as its command starts it (the click
  entry point, the keymap and database checks, the reviewer's name, the app) vs an empty Textual
  app, both with their modules' bytecode compiled (as installed) and the reports parsed at an
  earlier launch (assay's report cache); then, for information, a first launch on the reports
  (parsed), a launch compiling assay from source and one whose verdict database holds 100,000
  events (the database check reads it all);
- keys: `n` `p` `]` `[` `j` `k` pagedown `c` `r` `u` `s` `f` `d` tab, enter on a reference and
  backspace, and opening and closing `o` `/` `:` ctrl+g `?` ctrl+p: median and p95 of 40 presses
  each, from the key event posted to the app (as the terminal driver posts it) to the frame
  painted (call_later on every widget of the screen, then Screen.wait_for_refresh: public API
  only), on the sample and on a 2,000-record review (copies of the sample reports), in turn
  and half the presses at a time (sample, review, sample, review: a change in the machine's
  load falls on both; each half's first press of a key not counted), beside an empty app's key
  echo measured the same way;
- the floor of a dialog's opening and closing: Textual's own `ModalScreen` of one label, made
  once and pushed, in an empty app (by a key) and over the review screen (`push_screen`);
- opening the 20,000+ line sample file at a quote near its end: SourceView vs a Static holding
  the whole highlighted file (what mounting a file in a Static costs).

Run: .venv/bin/python benchmarks/bench_app.py [--rounds N] [--presses 40] [--records 2000]
     [--keys-only | --dialogs-only | --no-keys] [--quick]

`--dialogs-only` times the dialogs alone (no launches, no other keys), with the CPU time of
this process per open and close beside the wall time (on a shared machine the CPU time is the
steadier figure).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


import machine  # noqa: E402
from frames import (  # noqa: E402
    SIZE,
    TrivialModal,
    echo_times,
    empty_modal_times,
    frame,
    modal_times,
    timed,
    until,
)
from launches import launch_figures, report  # noqa: E402
from textual.app import App, ComposeResult  # noqa: E402
from textual.containers import VerticalScroll  # noqa: E402
from textual.pilot import Pilot  # noqa: E402
from textual.widgets import Static  # noqa: E402

from evidence.revision import Revision  # noqa: E402
from evidence.sample import CITED_REVISION, sample_repo  # noqa: E402
from keymaps import load_keymap  # noqa: E402
from screens.widgets.source_lines import SourceMarks  # noqa: E402
from screens.widgets.source_view import SourceView  # noqa: E402
from tui.app import AssayApp  # noqa: E402
from tui.factory import make_demo_app  # noqa: E402


async def paint(pilot: Pilot[None]) -> None:
    """Let pending messages run and wait for the frame that paints them (public API only)."""
    await pilot.pause()
    await pilot.app.screen.wait_for_refresh()


# --- keys: each press handled and its frame painted, beside an empty app's key echo ----------

PRESSES = 40
#: (key as pressed, what it does); verdict keys write on the writer thread, not in the frame
KEYS = [
    ("n", "next record"),
    ("p", "previous record"),
    ("]", "next quote"),
    ("[", "previous quote"),
    ("j", "cursor down (records list)"),
    ("k", "cursor up (records list)"),
    ("pagedown", "page down (record pane)"),
    ("c", "confirm"),
    ("r", "refute"),
    ("u", "unclear"),
    ("s", "skip"),
    ("f", "filter"),
    ("d", "diff"),
    ("tab", "next pane"),
    ("enter", "follow a reference"),
    ("backspace", "back"),
]
DIALOGS = [
    ("o", "file finder"),
    ("/", "find"),
    (":", "go to line"),
    ("ctrl+g", "grep"),
    ("?", "help"),
    ("ctrl+p", "command palette"),
]
KEY_GOAL = "median < 16.7 ms, p95 < 33 ms"
DIALOG_GOAL = "< 33 ms"


def synthetic_reports(folder: Path, records: int) -> Path:
    """Copies of the sample reports (records renamed per copy) until there are `records`."""
    from evidence.sample import SAMPLE_REPORTS

    sources = sorted(Path(SAMPLE_REPORTS).glob("*.txt"))
    copies = -(-records // 22)  # the two sample reports hold 22 records
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(copies):
        for source in sources:
            (folder / f"{n:03d}-{source.name}").write_bytes(source.read_bytes())
    return folder


def review_app(tmp: Path, records: int | None) -> AssayApp:
    """The review app on the sample (`records` None) or on copies of it."""
    if records is None:
        return make_demo_app(tmp, reviewer="bench", keymap=load_keymap(user=False))
    from evidence.reports.loading import load_reports
    from evidence.sample import CITED_REVISION, sample_repo
    from tui.factory import make_app

    reports = load_reports([synthetic_reports(tmp / "reports", records)])
    return make_app(
        reports,
        sample_repo(),
        CITED_REVISION,
        tmp / f"bench-{records}.db",
        "bench",
        load_keymap(user=False),
    )


async def key_times(
    tmp: Path, records: int | None, presses: int, *, dialogs_only: bool = False
) -> tuple[int, dict[str, list[float]]]:
    """(records in the review, seconds per press of each key and dialog open / close; for the
    dialogs also the CPU seconds of this process, as ``"o open cpu"``)."""
    from screens.review.history import Location
    from screens.review.screen import ReviewScreen

    app = review_app(tmp, records)
    times: dict[str, list[float]] = {}
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await screen.settle()
        await pilot.pause()
        total = len(screen.session.records)
        last = total - 1
        quotes = [
            (n, q) for n, r in enumerate(screen.session.records) for q in range(len(r.quotes))
        ]
        linked = [n for n, r in enumerate(screen.session.records) if r.references]

        async def source_shown() -> None:
            while screen.sources.shown != screen.sources.request:
                await asyncio.sleep(0.001)

        async def cursor_record_shown() -> None:
            # j and k move the records list's cursor: the record under it, and its source
            records = screen.records_pane
            while records.highlighted is None or (
                screen.location.record != records.rows[records.highlighted]
            ):
                await asyncio.sleep(0.001)
            await source_shown()

        async def at(location: Location) -> None:
            screen.go(location)
            await source_shown()
            await pilot.pause()

        def first(record: int) -> Location:
            return Location(record, 0 if screen.session.records[record].quotes else None)

        records_list, pane = screen.records_pane, screen.record_pane
        several = next(n for n, r in enumerate(screen.session.records) if len(r.quotes) > 1)
        long = next(n for n, r in enumerate(screen.session.records) if r.id == LONG_RECORD)
        for key, _ in [] if dialogs_only else KEYS:
            spent: list[float] = times.setdefault(key, [])
            if key in ("enter", "backspace"):
                continue
            records_list.focus()
            if key in ("]", "["):  # they go round the quotes of the record
                await at(first(several))
            elif key == "pagedown":  # the record pane of a long record, from its top
                await at(first(long))
                pane.focus()
            else:
                await at(first({"p": last, "j": last // 2, "k": last // 2}.get(key, 0)))
            for press in range(presses):
                record = screen.location.record
                if key in ("n", "j") and record == last or key in ("p", "k") and record == 0:
                    await at(first(0 if key in ("n", "j") else last))  # at an end: again
                if key in "crus":  # a verdict on a quote of its own each time
                    await at(Location(*quotes[press % len(quotes)]))
                if key == "[" and screen.location.quote == 0:
                    # `[` stops at a record's first quote: from its last again, so that each
                    # press shows another quote (as `]` goes round them)
                    await at(Location(several, len(screen.session.records[several].quotes) - 1))
                if key == "pagedown" and pane.scroll_y >= pane.max_scroll_y:
                    pane.scroll_to(y=0, animate=False, immediate=True)
                    await pilot.pause()
                wait = {"j": cursor_record_shown, "k": cursor_record_shown}.get(key)
                wait = wait or (source_shown if key in ("n", "p", "]", "[") else None)
                spent.append(await timed(app, key, wait))
                await pilot.pause()
        for press in range(presses if linked and not dialogs_only else 0):  # enter, backspace
            await at(first(linked[press % len(linked)]))
            pane.focus()
            ids = [pane.row(i).id or "" for i in range(pane.row_count)]
            ref = next(i for i, row_id in enumerate(ids) if row_id.startswith("ref-"))
            pane.move_to(ref)
            await pilot.pause()
            times["enter"].append(await timed(app, "enter", source_shown))
            await pilot.pause()
            times["backspace"].append(await timed(app, "backspace", source_shown))
            await pilot.pause()
        for key, _ in DIALOGS:
            opened, closed = (
                times.setdefault(f"{key} open", []),
                times.setdefault(f"{key} close", []),
            )
            screen.records_pane.focus()
            await at(Location(*quotes[0]))  # a file open: `:` goes to a line of it
            cpu_opened = times.setdefault(f"{key} open cpu", [])
            cpu_closed = times.setdefault(f"{key} close cpu", [])
            for _ in range(presses):
                cpu = time.process_time()
                opened.append(await timed(app, key, until(lambda: app.screen is not screen)))
                cpu_opened.append(time.process_time() - cpu)
                await pilot.pause()
                cpu = time.process_time()
                closed.append(await timed(app, "escape", until(lambda: app.screen is screen)))
                cpu_closed.append(time.process_time() - cpu)
                await pilot.pause()
        # the floor over this screen: Textual's ModalScreen of one label, pushed (not a key)
        screen.records_pane.focus()
        await at(Location(*quotes[0]))
        app.install_screen(TrivialModal(), "bench-trivial")
        pushed = await modal_times(app, presses, push=lambda: app.push_screen("bench-trivial"))
        times["modal open"], times["modal close"] = pushed
    app.close()
    return total, times


async def alternated_key_times(
    tmp: Path, records: int, presses: int, *, dialogs_only: bool = False
) -> list[tuple[int, dict[str, list[float]]]]:
    """The keys on the sample and on the ``records``-record review (0: the sample only), in
    turn, half the presses each time: sample, review, sample, review. A machine whose load
    changes during the run weighs on both, not on the second alone (whose figures then looked
    1.5x the sample's for keys that do not grow). Each half's first press of a key is not
    counted: with one run, the one first opening (a dialog composed, a record first drawn) fell
    outside the p95 of 40; with two, it would be the p95."""
    halves = [presses // 2, presses - presses // 2] if records else [presses]
    runs: dict[int | None, tuple[int, dict[str, list[float]]]] = {}
    for turn, half in enumerate(halves):
        for size in (None, records) if records else (None,):
            name = f"{'sample' if size is None else 'synthetic'}-{turn}"  # no verdicts kept
            total, times = await key_times(tmp / name, size, half + 1, dialogs_only=dialogs_only)
            kept = runs.setdefault(size, (total, {}))[1]
            for key, spent in times.items():
                kept.setdefault(key, []).extend(spent[1:])
    return list(runs.values())


LONG_RECORD = "KS-RTE-ticket-escalation"  # three quotes after a long body


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def cells_of(runs: list[tuple[int, dict[str, list[float]]]], key: str) -> str:
    """The median / p95 (ms) of ``key`` in each run, side by side."""
    cells = []
    for _count, times in runs:
        spent = times.get(key) or [float("nan")]
        median, p95 = statistics.median(spent) * 1000, percentile(spent, 0.95) * 1000
        cells.append(f"   {median:9.1f} / {p95:9.1f}")
    return "".join(cells)


def key_table(
    echo: list[float],
    runs: list[tuple[int, dict[str, list[float]]]],
    *,
    cpu: bool = False,
    modal: tuple[list[float], list[float]] | None = None,
) -> None:
    """The keys' and dialogs' medians and p95s beside their goals; ``modal``: an empty app's
    `TrivialModal` opens and closes (the floor of a dialog's)."""
    ms = 1000
    header = "".join(f"   {f'{count:,} records':>22}" for count, _ in runs)
    print(f"{'key (median / p95 ms)':<38}{header}   goal")
    baselines = [("empty app key echo (baseline)", echo)]
    if modal is not None:
        baselines += [
            ("empty app ModalScreen open (floor)", modal[0]),
            ("empty app ModalScreen close (floor)", modal[1]),
        ]
    for name, spent in baselines:
        em, ep = statistics.median(spent) * ms, percentile(spent, 0.95) * ms
        print(f"{name:<38}" + f"   {em:9.1f} / {ep:9.1f}" * len(runs))
    names = {} if cpu else dict(KEYS)
    names |= {f"{k} {w}": f"{name} {w}" for k, name in DIALOGS for w in ("open", "close")}
    for key, name in names.items():
        cells, met = [], True
        for _count, times in runs:
            spent = times.get(key) or [float("nan")]
            median, p95 = statistics.median(spent) * ms, percentile(spent, 0.95) * ms
            cells.append(f"   {median:9.1f} / {p95:9.1f}")
            within = median < 16.7 and p95 < 33 if key in dict(KEYS) else median < 33
            met = met and within
        goal = KEY_GOAL if key in dict(KEYS) else DIALOG_GOAL
        label = f"{key if key in dict(KEYS) else key.split()[0]:<10}{name}"
        print(f"{label[:38]:<38}{''.join(cells)}   {goal} {'met' if met else 'NOT MET'}")
        if cpu and key not in dict(KEYS):
            print(f"{'  (CPU time of the process)':<38}{cells_of(runs, f'{key} cpu')}")
    for which in ("open", "close"):
        print(f"{f'ModalScreen {which} over it (floor)':<38}{cells_of(runs, f'modal {which}')}")
    if len(runs) == 2:
        (small, a), (big, b) = runs
        grows = [
            key
            for key in names
            if a.get(key)
            and b.get(key)
            and statistics.median(b[key]) > 1.5 * statistics.median(a[key])
        ]
        print(
            f"keys whose median on {big:,} records is over 1.5x the {small:,}-record one "
            f"(goal: none): {', '.join(grows) or 'none'}"
        )


class SourceApp(App[None]):
    def compose(self) -> ComposeResult:
        yield SourceView(id="view")


class StaticApp(App[None]):
    def compose(self) -> ComposeResult:
        with VerticalScroll(id="scroll"):
            yield Static(id="static")


def large_file() -> tuple[str, list[str]]:
    repo = sample_repo()
    with Revision.open(repo, CITED_REVISION) as revision:
        sizes = [(entry.size, path) for path, entry in revision.entries().items()]
        path = max(sizes)[1]
        source = revision.read(path)
    return path, source.lines


async def open_source_view(path: str, lines: list[str], line: int) -> float:
    app = SourceApp()
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(SourceView)
        await paint(pilot)
        start = time.perf_counter()
        view.show(path, lines, marks=SourceMarks(matched=(line, line + 3)), line=line)
        while not view.is_highlighted(line):
            await asyncio.sleep(0.001)
        await frame(app)
        return time.perf_counter() - start


async def open_static(path: str, lines: list[str], line: int) -> float:
    from textual.highlight import highlight

    app = StaticApp()
    async with app.run_test(size=SIZE) as pilot:
        await paint(pilot)
        start = time.perf_counter()
        content = highlight("\n".join(lines), path=path)
        app.query_one("#static", Static).update(content)
        await pilot.pause()
        app.query_one("#scroll").scroll_to(y=line - 10, animate=False, immediate=True)
        await frame(app)
        return time.perf_counter() - start


async def main(
    rounds: int,
    presses: int,
    records: int,
    *,
    quick: bool = False,
    keys: bool = True,
    only_keys: bool = False,
    only_dialogs: bool = False,
) -> None:
    print(f"assay review app benchmark ({rounds} rounds, medians; terminal {SIZE[0]}x{SIZE[1]})")
    began, speed = machine.snapshot(), machine.workload_ms()
    with tempfile.TemporaryDirectory() as tmp_dir:
        tmp = Path(tmp_dir)
        sample_repo()  # built once, outside the timings
        if not only_keys:
            launch_figures(tmp, rounds)
        if keys:
            echo = await echo_times(presses)
            modal = await empty_modal_times(presses)
            runs = await alternated_key_times(tmp, records, presses, dialogs_only=only_dialogs)
            print(f"keys: {presses} presses each, from the key event posted to the painted frame")
            print("  (every widget's messages handled, then Screen.wait_for_refresh); n p ] [ j k")
            print("  enter backspace also wait for the source they show (j k: the record under")
            print("  the records list's cursor shown first); dialogs: key, escape")
            key_table(echo, runs, cpu=only_dialogs, modal=modal)
            said = machine.quiet_line(began, machine.snapshot())
            if said:
                print(said)
            print(machine.workload_line(speed))
    if only_keys:
        return
    path, lines = large_file()
    line = len(lines) - 40
    lazy = [await open_source_view(path, lines, line) for _ in range(rounds)]
    static = [await open_static(path, lines, line)] if not quick else [float("nan")]
    report(
        f"open {len(lines):,} lines at {line:,}",
        statistics.median(lazy),
        statistics.median(static),
        "Static, whole file",
        "< 150 ms and >= 20x faster",
        speedup=True,
    )
    print(f"  large file: {path}; Static baseline measured once (it takes seconds)")
    said = machine.quiet_line(began, machine.snapshot())
    if not keys:  # (with the keys: said under their table)
        if said:
            print(said)
        print(machine.workload_line(speed))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # launches are noisy here (the two launches of one pair can differ 2x): on the same code,
    # the launch ratio of nine 25-pair runs ranged 1.17-1.38, of ~30 15-pair runs 1.20-1.55
    parser.add_argument("--rounds", type=int, default=25)
    parser.add_argument("--quick", action="store_true", help="skip the slow Static baseline")
    parser.add_argument("--presses", type=int, default=PRESSES, help="presses of each key")
    parser.add_argument(
        "--records", type=int, default=2000, help="the synthetic review's records (0: none)"
    )
    parser.add_argument("--no-keys", action="store_true", help="launch and large file only")
    parser.add_argument(
        "--keys-only", action="store_true", help="keys only (no launches, no large file)"
    )
    parser.add_argument(
        "--dialogs-only",
        action="store_true",
        help="the dialogs' opens and closes only, with CPU time (no launches, no other keys)",
    )
    args = parser.parse_args()
    asyncio.run(
        main(
            args.rounds,
            args.presses,
            args.records,
            quick=args.quick,
            keys=not args.no_keys,
            only_keys=args.keys_only or args.dialogs_only,
            only_dialogs=args.dialogs_only,
        )
    )
