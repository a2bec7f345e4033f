"""Review app timings, each beside a baseline measured in the same run (Textual's run_test()).

- launch to first interactive frame: `assay demo` started as its command starts it (the click
  entry point, the keymap and database checks, the reviewer's name, the app) vs an empty Textual
  app, both with their modules' bytecode compiled (as installed) and the reports parsed at an
  earlier launch (assay's report cache); then, for information, a first launch on the reports
  (parsed) and a launch compiling assay from source;
- next-record latency: `n` handled and the new record and its source painted;
- opening the 20,000+ line sample file at a quote near its end: SourceView vs a Static holding
  the whole highlighted file (what mounting a file in a Static costs).

Run: .venv/bin/python benchmarks/bench_app.py [--rounds N]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from textual.app import App, ComposeResult  # noqa: E402
from textual.containers import VerticalScroll  # noqa: E402
from textual.widgets import Static  # noqa: E402

from evidence.revision import Revision  # noqa: E402
from evidence.sample import CITED_REVISION, sample_repo  # noqa: E402
from keymaps import load_keymap  # noqa: E402
from screens.widgets.source_lines import SourceMarks  # noqa: E402
from screens.widgets.source_view import SourceView  # noqa: E402
from tui.factory import make_demo_app  # noqa: E402

SIZE = (120, 40)
PACKAGES = ("evidence", "db", "tui", "screens", "keymaps")  # assay's (pyproject.toml)


async def paint(pilot) -> None:  # type: ignore[no-untyped-def]
    """Let pending messages run and paint one frame (not waiting for background workers)."""
    for _ in range(3):
        await asyncio.sleep(0)
    pilot.app.screen._on_timer_update()


async def idle(pilot) -> None:  # type: ignore[no-untyped-def]
    """Wait until the app is idle (workers done), outside the timings."""
    await pilot.pause()
    await pilot.pause()


CHILD = """
import sys, time
sys.path.insert(0, {root!r})
import asyncio

async def main(kind):
    if kind == "empty":
        from textual.app import App
        from textual.widgets import Static

        class Empty(App):
            def compose(self):
                yield Static("ready")
        app = Empty()
    else:  # as `assay demo` starts: its entry point (click), then the command's own steps
        from pathlib import Path
        import tui.cli
        from tui.commands.review import demo_app
        app = demo_app(None, None, Path(sys.argv[2]))
    async with app.run_test(size=(120, 40)) as pilot:
        # the first frame of the real screen, without waiting for background work (anchoring)
        while kind != "empty" and type(app.screen).__name__ != "ReviewScreen":
            await asyncio.sleep(0.001)
        for _ in range(3):
            await asyncio.sleep(0)
        app.screen._on_timer_update()
        print("frame", flush=True)
    if kind != "empty":
        app.close()

asyncio.run(main(sys.argv[1]))
"""


def launch(
    kind: str, tmp: Path, pycache: Path, *, write: bool = False, cold: bool = False
) -> float:
    """Seconds from starting a Python process to the app's first painted frame.

    Bytecode is read from the private cache ``pycache`` (PYTHONPYCACHEPREFIX), written there only
    when ``write`` (the launches that prepare it, outside the timings). assay's user cache (the
    sample repository, parsed reports) is ``tmp/cache``; ``cold`` empties its parsed reports first,
    as on the first launch on new or changed reports.
    """
    import subprocess

    code = CHILD.format(root=str(ROOT))
    cache = tmp / "cache"
    if cold:
        shutil.rmtree(cache / "assay" / "reports", ignore_errors=True)
    env = dict(os.environ, PYTHONPYCACHEPREFIX=str(pycache), XDG_CACHE_HOME=str(cache))
    if write:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-c", code, kind, str(tmp)], stdout=subprocess.PIPE, text=True, env=env
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    elapsed = time.perf_counter() - start
    process.wait()
    assert line.strip() == "frame", line
    return elapsed


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
    tmp: Path, pycache: Path, rounds: int, *, cold: bool = False
) -> tuple[list[float], list[float]]:
    """Launch seconds of the review app and of the empty app, launched in turn (``cold``: no
    parsed reports cached)."""
    launch("review", tmp, pycache)  # warm the file system cache
    launch("empty", tmp, pycache)
    empty: list[float] = []
    review: list[float] = []
    for _ in range(rounds):  # alternated, so a busy moment of the machine falls on both
        empty.append(launch("empty", tmp, pycache))
        review.append(launch("review", tmp, pycache, cold=cold))
    return review, empty


async def next_record(tmp: Path, presses: int) -> list[float]:
    from screens.review.screen import ReviewScreen

    app = make_demo_app(tmp, reviewer="bench", keymap=load_keymap(user=False))
    times: list[float] = []
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await screen.settle()
        await paint(pilot)
        for _ in range(presses):
            start = time.perf_counter()
            await app.run_action("next_record", screen)
            while screen.sources.shown != screen.sources.request:
                await asyncio.sleep(0.001)
            await paint(pilot)
            times.append(time.perf_counter() - start)
            await idle(pilot)
    app.close()
    return times


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
        await paint(pilot)
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
        await paint(pilot)
        return time.perf_counter() - start


def report(
    name: str, value: float, baseline: float, baseline_name: str, goal: str, speedup: bool = False
) -> None:
    ratio = f"{baseline / value:8.1f}x faster" if speedup else f"ratio {value / baseline:6.2f}"
    print(
        f"{name:<34} {value * 1000:8.1f} ms   {baseline_name:<26} {baseline * 1000:8.1f} ms"
        f"   {ratio}   goal: {goal}"
    )


async def main(rounds: int, quick: bool = False) -> None:
    print(f"assay review app benchmark ({rounds} rounds, medians; terminal {SIZE[0]}x{SIZE[1]})")
    with tempfile.TemporaryDirectory() as tmp_dir:
        tmp = Path(tmp_dir)
        sample_repo()  # built once, outside the timings
        compiled, source = bytecode_caches(tmp)
        reviews, empties = launches(tmp, compiled, rounds)
        report(
            "launch to first frame (process)",
            statistics.median(reviews),
            statistics.median(empties),
            "empty Textual app",
            "<= 1.5x empty app",
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
        print(
            "  (goal: a relaunch as installed, both apps' bytecode compiled (pip compiles what it"
            " installs, `make` assay) and the reports parsed at an earlier launch; the two lines"
            " above parse the reports, or compile assay from source, every launch)"
        )
        steps = await next_record(tmp, 15)
        print(
            f"{'next record (n), 15 presses':<34} {statistics.median(steps) * 1000:8.1f} ms"
            f"   max {max(steps) * 1000:.1f} ms   goal: < 50 ms"
        )
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


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # launches are noisy here (the two launches of one pair can differ 2x): on the same code,
    # the launch ratio of nine 25-pair runs ranged 1.17-1.38, of ~30 15-pair runs 1.20-1.55
    parser.add_argument("--rounds", type=int, default=25)
    parser.add_argument("--quick", action="store_true", help="skip the slow Static baseline")
    args = parser.parse_args()
    asyncio.run(main(args.rounds, args.quick))
