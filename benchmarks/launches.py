"""Launches of `assay demo` and of an empty Textual app, each to its first painted frame, as
separate processes: what bench_app.py's launch figures, launch_phases.py and launch_count.py
run.

The child (`CHILD`) starts the review app as `assay demo` starts it (the click entry point, then
the command's own steps) or an empty Textual app, and prints ``frame`` at the first frame of
the review screen (public API: `Screen.wait_for_refresh`); asked (ASSAY_LAUNCH_MARKS), it also
prints the time of each phase and how long the event loop waited.
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("evidence", "db", "tui", "screens", "keymaps")  # assay's (pyproject.toml)

CHILD = """
import os, sys, time, zlib
MARKS = [("start", time.perf_counter())]  # launch_phases.py's phases (printed when asked)


def mark(name):
    # a phase's end: its time, and a call at which launch_count.py --phases cuts the count
    MARKS.append((name, time.perf_counter()))
    zlib.adler32(name.encode())

sys.path.insert(0, {root!r})
import asyncio
IDLE = [0.0]  # seconds the event loop waited (launch_phases.py), counted when marks are asked
if os.environ.get("ASSAY_LAUNCH_MARKS"):
    import selectors
    _select = selectors.DefaultSelector.select

    def select(self, timeout=None):
        began = time.perf_counter()
        try:
            return _select(self, timeout)
        finally:
            IDLE[0] += time.perf_counter() - began
    selectors.DefaultSelector.select = select

async def main(kind):
    if kind == "empty":
        from textual.app import App
        from textual.widgets import Static

        class Empty(App):
            def compose(self):
                yield Static("ready")
        mark("imported")
        app = Empty()
    else:  # as `assay demo` starts: its entry point (click), then the command's own steps
        from pathlib import Path
        import tui.cli
        mark("cli")
        from tui.commands.review import demo_app
        mark("imported")
{before_app}        app = demo_app(None, None, Path(sys.argv[2]))
    mark("app")
    async with app.run_test(size=(120, 40)) as pilot:
        # the first frame of the real screen, without waiting for background work (anchoring)
        while kind != "empty" and type(app.screen).__name__ != "ReviewScreen":
            await asyncio.sleep(0.001)
        mark("ready")
        for _ in range(3):
            await asyncio.sleep(0)
        await app.screen.wait_for_refresh()
        mark("frame")
        marks = " ".join(f"{{name}}={{at - MARKS[0][1]:.6f}}" for name, at in MARKS[1:])
        marks += f" idle={{IDLE[0]:.6f}}"
        print("frame", marks if os.environ.get("ASSAY_LAUNCH_MARKS") else "", flush=True)
{at_frame}    if kind != "empty":
        app.close()

asyncio.run(main(sys.argv[1]))
"""
#: for launch_count.py: the review's reads not started, nor the next record prepared (both
#: start after the frame at full speed, but under valgrind their timers could fire first) and,
#: once the bytecode is written, the process ended at its frame
COUNTED = {
    "before_app": "        from screens.review.loading import Loading\n"
    "        Loading.start = lambda self: None\n"
    "        from screens.review.navigation import Navigation\n"
    "        Navigation.prepare_next = lambda self, shown: None\n",
    "at_frame": '        if os.environ.get("ASSAY_COUNT_EXIT"):\n'
    "            os._exit(0)  # the count ends at the frame\n",
}


def child_code(root: Path, *, counted: bool = False) -> str:
    """The code of a launched process: the empty app or `assay demo` from ``root``, printing
    ``frame`` at its first painted frame (``counted``: as launch_count.py counts it)."""
    parts = COUNTED if counted else {"before_app": "", "at_frame": ""}
    return CHILD.format(root=str(root), **parts)


def launch(
    kind: str,
    tmp: Path,
    pycache: Path,
    *,
    write: bool = False,
    cold: bool = False,
    data: Path | None = None,
) -> float:
    """Seconds from starting a Python process to the app's first painted frame.

    Bytecode is read from the private cache ``pycache`` (PYTHONPYCACHEPREFIX), written there only
    when ``write`` (the launches that prepare it, outside the timings). assay's user cache (the
    sample repository, parsed reports) is ``tmp/cache``; ``cold`` empties its parsed reports first,
    as on the first launch on new or changed reports. The demo keeps its verdicts in ``data``
    (default ``tmp``).
    """
    if cold:
        shutil.rmtree(tmp / "cache" / "assay" / "reports", ignore_errors=True)
    elapsed, line = launched(kind, tmp, pycache, write=write, data=data)
    assert line.strip() == "frame", line
    return elapsed


def launched(
    kind: str,
    tmp: Path,
    pycache: Path,
    *,
    write: bool = False,
    data: Path | None = None,
    marks: bool = False,
) -> tuple[float, str]:
    """`launch`'s process: the seconds to its frame and the line it printed there (with
    ``marks``, the time of each phase: launch_phases.py)."""
    import subprocess

    env = dict(os.environ, PYTHONPYCACHEPREFIX=str(pycache), XDG_CACHE_HOME=str(tmp / "cache"))
    if write:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    if marks:
        env["ASSAY_LAUNCH_MARKS"] = "1"
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-c", child_code(ROOT), kind, str(data or tmp)],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    elapsed = time.perf_counter() - start
    process.wait()
    return elapsed, line


def bytecode_caches(tmp: Path) -> tuple[Path, Path]:
    """Two bytecode caches: everything compiled (as installed), and all but assay's modules.

    The first is what an installed app runs with: pip compiles the packages it installs, and the
    Makefile compiles assay's editable install. The second is a launch that compiles assay from
    source (what PYTHONDONTWRITEBYTECODE=1 without compiled assay modules costs), shown beside.
    """
    compiled, source = tmp / "pyc-compiled", tmp / "pyc-source"
    launch("review", tmp, compiled, write=True)  # compiles every module both apps import
    launch("empty", tmp, compiled, write=True)
    shutil.copytree(compiled, source)
    for package in PACKAGES:  # assay's modules: compiled at each launch
        shutil.rmtree(source / ROOT.relative_to(ROOT.anchor) / package)
    return compiled, source


def launches(
    tmp: Path, pycache: Path, rounds: int, *, cold: bool = False, data: Path | None = None
) -> tuple[list[float], list[float]]:
    """Launch seconds of the review app and of the empty app, launched in turn (``cold``: no
    parsed reports cached; ``data``: the demo's verdicts there)."""
    launch("review", tmp, pycache, data=data)  # warm the file system cache
    launch("empty", tmp, pycache)
    empty: list[float] = []
    review: list[float] = []
    for _ in range(rounds):  # alternated, so a busy moment of the machine falls on both
        empty.append(launch("empty", tmp, pycache))
        review.append(launch("review", tmp, pycache, cold=cold, data=data))
    return review, empty


#: the verdict database of a long review: quick_check reads all of it before the first frame
BIG_DATABASE_EVENTS = 100_000


def big_database(tmp: Path) -> Path:
    """A data directory whose demo database holds BIG_DATABASE_EVENTS events (66 MB)."""
    from bench_store import synthetic_events

    from db import VerdictStore

    data = tmp / "big-database"
    data.mkdir()
    with VerdictStore.open(data / "demo.db") as store:
        store.import_events(synthetic_events(BIG_DATABASE_EVENTS))
    return data


def report(
    name: str, value: float, baseline: float, baseline_name: str, goal: str, speedup: bool = False
) -> None:
    ratio = f"{baseline / value:8.1f}x faster" if speedup else f"ratio {value / baseline:6.2f}"
    print(
        f"{name:<34} {value * 1000:8.1f} ms   {baseline_name:<26} {baseline * 1000:8.1f} ms"
        f"   {ratio}   goal: {goal}"
    )


def launch_figures(tmp: Path, rounds: int) -> None:
    """Launch to first frame vs the empty app, as installed; then two launches for information."""
    compiled, source = bytecode_caches(tmp)
    reviews, empties = launches(tmp, compiled, rounds)
    report(
        "launch to first frame (process)",
        statistics.median(reviews),
        statistics.median(empties),
        "empty Textual app",
        "<= 1.25x empty app",
    )
    pairs = [r / e for r, e in zip(reviews, empties, strict=True)]
    print(
        f"  ratio of each back-to-back pair: median {statistics.median(pairs):.2f},"
        f" from {min(pairs):.2f} to {max(pairs):.2f} (how noisy the machine is);"
        f" fastest launches {min(reviews) * 1000:.0f} and {min(empties) * 1000:.0f} ms"
        f" (ratio {min(reviews) / min(empties):.2f})"
    )
    few = max(3, rounds // 3)
    reviews, empties = launches(tmp, compiled, few, cold=True)
    report(
        f"  first launch on the reports ({few})",
        statistics.median(reviews),
        statistics.median(empties),
        "empty Textual app",
        "(information)",
    )
    reviews, empties = launches(tmp, source, few)
    report(
        f"  assay compiled each launch ({few})",
        statistics.median(reviews),
        statistics.median(empties),
        "empty Textual app",
        "(information)",
    )
    data = big_database(tmp)
    reviews, empties = launches(tmp, compiled, few, data=data)
    megabytes = (data / "demo.db").stat().st_size / 1e6
    report(
        f"  with {BIG_DATABASE_EVENTS:,} verdict events ({megabytes:.0f} MB, {few})",
        statistics.median(reviews),
        statistics.median(empties),
        "empty Textual app",
        "(information)",
    )
    print(
        "  (goal: a relaunch as installed, both apps' bytecode compiled (pip compiles what it"
        " installs, `make` assay) and the reports parsed at an earlier launch; the three lines"
        " above parse the reports, compile assay from source every launch, or check a long"
        " review's verdict database)"
    )
