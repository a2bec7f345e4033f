"""Audit timings on a generated audit, each printed beside a baseline measured in the same run.

The audit: N systems (default 50, the issue's scale), each with its own repository (40 files of
120 lines, one commit, built with `git fast-import`) and 20 reports of 50 quotes each (1,000
reports and 50,000 quotes at 50 systems; one quote in ten misquoted).

- first `assay check` of the whole audit (evidence.audit.check.check_audit, nothing cached; two
  systems at a time in forked processes on two cores) vs the sum of checking each system apart
  as `assay check REPORT --repo R` does (goal <= 1x);
- the audit screen's first frame with its counts, from the anchoring cache and the database
  (goal < 1 s), beside an empty Textual app's first frame; then every system's revision found
  in its repository, as the screen reads them once the counts are drawn, beside git's reading;
- opening one system from the audit screen until its review is anchored (from the cache; goal
  < 300 ms);
- `/` across the audit: one key typed into the find dialog (posted as the terminal posts it) to
  its results painted (frames.py; goal < 100 ms per key, median), beside ranking the same
  targets directly and an empty app's key echo.

Run: .venv/bin/python benchmarks/bench_audit.py [--systems N] [--keep DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from frames import echo_times, timed, until  # noqa: E402
from textual.app import App  # noqa: E402

from evidence.audit.check import check_audit  # noqa: E402
from evidence.audit.file import load_audit  # noqa: E402
from evidence.check import run_check  # noqa: E402
from evidence.inputs import choose_revision  # noqa: E402
from evidence.reports.loading import load_reports  # noqa: E402
from evidence.revision import Revision  # noqa: E402

SIZE = (120, 40)
FILES = 40
LINES = 120
REPORTS = 20
QUOTES = 50
WORDS = [
    "station",
    "gauge",
    "level",
    "reading",
    "upload",
    "batch",
    "retry",
    "token",
    "scope",
    "buffer",
    "record",
    "note",
    "ticket",
    "delay",
    "queue",
    "archive",
    "sighting",
    "review",
    "confirm",
    "publish",
    "index",
    "route",
    "handler",
    "client",
    "server",
]


def _line(rng: random.Random, number: int) -> str:
    words = " ".join(rng.choice(WORDS) for _ in range(6))
    return f"    value_{number} = compute('{words}', {rng.randrange(1000)})"


def _repository(target: Path, rng: random.Random) -> tuple[str, dict[str, list[str]]]:
    files = {f"src/module_{n:02d}.py": [_line(rng, k) for k in range(LINES)] for n in range(FILES)}
    stream: list[bytes] = []
    for lines in files.values():
        data = ("\n".join(lines) + "\n").encode()
        stream.append(b"blob\nmark :%d\ndata %d\n" % (len(stream) + 1, len(data)) + data + b"\n")
    message = b"generated\n"
    stream.append(
        b"commit refs/heads/main\nmark :%d\n" % (len(files) + 1)
        + b"author A <a@example.org> 1770000000 +0000\n"
        + b"committer A <a@example.org> 1770000000 +0000\n"
        + b"data %d\n" % len(message)
        + message
    )
    for n, path in enumerate(files, start=1):
        stream.append(b"M 100644 :%d %s\n" % (n, path.encode()))
    target.mkdir(parents=True)
    git = ["git", "-c", "core.hooksPath=/dev/null"]
    subprocess.run([*git, "init", "-q", "--bare", "--initial-branch=main", str(target)], check=True)
    subprocess.run(
        [*git, "-C", str(target), "fast-import", "--quiet"], input=b"".join(stream), check=True
    )
    head = subprocess.run(
        [*git, "-C", str(target), "rev-parse", "main"], capture_output=True, check=True
    )
    return head.stdout.decode().strip(), files


def _report(
    system: str, number: int, rev: str, files: dict[str, list[str]], rng: random.Random
) -> str:
    prefix = system.upper()[:6]
    out = [
        f"{system} runtime report",
        "",
        f"Type: agentic-system-analyses/types/part-{number:02d}-report.md",
        "",
        "Runtime account",
        "",
        "Evidence",
        "",
        f"Evidence is SRC-1 at revision {rev}.",
        "",
        "Shared records",
        "",
        "Claims",
    ]
    paths = list(files)
    for q in range(QUOTES):
        path = rng.choice(paths)
        line = rng.randrange(LINES)
        text = files[path][line].strip()
        if q % 10 == 9:
            text = text.replace("compute", "compote")
        out += ["", f"{prefix}-CLM-part{number:02d}-q{q:02d}", "", "Label: a claim", ""]
        out += ["The code says so (SRC-1).", "", f"{text} --- {path}:{line + 1}"]
    return "\n".join(out) + "\n"


def build(base: Path, systems: int) -> Path:
    """The generated audit; returns its assay.toml."""
    rng = random.Random(25)
    toml = []
    for s in range(systems):
        name = f"System{s:03d}"
        rev, files = _repository(base / "repos" / name, rng)
        directory = base / "reports" / name
        directory.mkdir(parents=True)
        for number in range(REPORTS):
            text = _report(name, number, rev, files, rng)
            (directory / f"part-{number:02d}.txt").write_text(text, encoding="utf-8")
        toml += [
            "[[system]]",
            f'name = "{name}"',
            f'repository = "repos/{name}"',
            f'reports = ["reports/{name}"]',
            "",
        ]
    audit = base / "assay.toml"
    audit.write_text("\n".join(toml), encoding="utf-8")
    return audit


def check_apart(audit_path: Path) -> float:
    """Seconds to check each system as `assay check REPORTS --repo R` does, summed."""
    total = 0.0
    for system in load_audit(audit_path).systems:
        start = time.perf_counter()
        reportset = load_reports(system.report_paths)
        assert system.repository is not None
        with Revision.open(system.repository, choose_revision(reportset, None)) as revision:
            run_check(reportset, revision)
        total += time.perf_counter() - start
    return total


async def screen_timings(audit_path: Path, tmp: Path) -> dict[str, float]:
    """The audit screen's first frame with counts, opening a system, `/` per key."""
    from keymaps import load_keymap
    from screens.audit.anchors import revision_errors
    from screens.audit.screen import AuditScreen
    from screens.audit.system_review import SystemReviewScreen
    from screens.find import FindScreen
    from tui import startup
    from tui.audit_app import load_state, make_audit_app

    figures: dict[str, float] = {}
    start = time.perf_counter()
    startup.pause()  # as `assay review` does before it reads the audit: the app resumes it
    state = load_state(load_audit(audit_path), cache=tmp / "reports")
    app = make_audit_app(
        state, tmp / "verdicts.db", "bench", load_keymap(user=False), anchor_cache=tmp / "anchors"
    )
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        figures["first frame with counts"] = time.perf_counter() - start
        screen = app.screen
        assert isinstance(screen, AuditScreen)
        assert all(entry.failing is not None for entry in screen.state.entries)
        # what the screen reads in a worker once the counts are drawn, beside git's reading
        entries, every = screen.state.entries, list(range(len(screen.state.entries)))
        start = time.perf_counter()
        assert revision_errors(entries, every) == []
        figures["revisions read"] = time.perf_counter() - start
        start = time.perf_counter()
        for entry in entries:
            assert entry.reportset is not None and entry.system.repository is not None
            with Revision.open(entry.system.repository, choose_revision(entry.reportset, None)):
                pass
        figures["revisions opened by git"] = time.perf_counter() - start
        start = time.perf_counter()
        await pilot.press("enter")
        review = app.screen
        assert isinstance(review, SystemReviewScreen)
        await review.reads.loaded.wait()
        while not review.session.anchored:
            await asyncio.sleep(0.002)
        await pilot.pause()
        figures["open one system"] = time.perf_counter() - start
        await pilot.press("escape", "slash")
        dialog = app.screen
        assert isinstance(dialog, FindScreen)
        keys = "q17 compote"
        await pilot.pause()
        times = []
        for n, key in enumerate(keys, start=1):
            # the key posted as the terminal posts it, to its query's ranking painted
            typed = keys[:n]

            def ranked(typed: str = typed) -> bool:
                return dialog.showing == typed

            shown = until(ranked)
            times.append(await timed(app, "space" if key == " " else key, shown))
            await asyncio.sleep(0.01)
        figures["/ per key"] = statistics.median(times)
        figures["/ slowest key"] = max(times)
        print("per key, ms:", " ".join(f"{t * 1000:.0f}" for t in times))
        from screens.find import rank

        start = time.perf_counter()
        for n in range(1, len(keys) + 1):
            rank(keys[:n], dialog.targets)
        figures["rank per key (baseline)"] = (time.perf_counter() - start) / len(keys)
    return figures


async def empty_frame() -> float:
    start = time.perf_counter()
    app: App[None] = App()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--systems", type=int, default=50)
    parser.add_argument("--keep", type=Path, default=None, help="build the audit here, keep it")
    args = parser.parse_args()
    base = args.keep or Path(tempfile.mkdtemp(prefix="assay-bench-audit-"))
    os.environ["XDG_CACHE_HOME"] = str(base / "cache")  # no report cache of the user's
    try:
        started = time.perf_counter()
        audit = build(base / "audit", args.systems)
        quotes = args.systems * REPORTS * QUOTES
        print(
            f"generated {args.systems} systems, {args.systems * REPORTS} reports, {quotes} "
            f"quotes in {time.perf_counter() - started:.1f} s"
        )
        apart = check_apart(audit)
        start = time.perf_counter()
        checked = check_audit(
            load_audit(audit), cache=base / "reports", anchor_cache=base / "anchors"
        )
        whole = time.perf_counter() - start
        failing = checked.summary()["failing"]
        print(
            f"check of the audit: {whole:.2f} s; each system apart, summed: {apart:.2f} s; "
            f"ratio {whole / apart:.2f}x (goal <= 1x); {failing} failing quotes"
        )
        figures = asyncio.run(screen_timings(audit, base))
        empty = asyncio.run(empty_frame())
        first = figures["first frame with counts"]
        print(
            f"audit screen, first frame with counts from the cache: {first * 1000:.0f} ms "
            f"(goal < 1000); an empty Textual app's first frame: {empty * 1000:.0f} ms; "
            f"ratio {first / empty:.1f}x"
        )
        found, opened = figures["revisions read"], figures["revisions opened by git"]
        print(
            f"every system's revision found in its repository (a worker, once the counts are "
            f"drawn): {found * 1000:.0f} ms; opened by git instead: {opened * 1000:.0f} ms; "
            f"ratio {found / opened:.2f}x"
        )
        opening = figures["open one system"] * 1000
        print(f"opening one system (anchors from the cache): {opening:.0f} ms (goal < 300)")
        per_key = figures["/ per key"]
        ranked = figures["rank per key (baseline)"]
        echo = statistics.median(asyncio.run(echo_times(40)))
        print(
            f"/ across the audit, key to results painted: median {per_key * 1000:.1f} ms, "
            f"slowest {figures['/ slowest key'] * 1000:.1f} ms (goal < 100); ranking alone "
            f"{ranked * 1000:.1f} ms; an empty app's key echo {echo * 1000:.1f} ms; ratio "
            f"{per_key / echo:.1f}x"
        )
    finally:
        if args.keep is None:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
