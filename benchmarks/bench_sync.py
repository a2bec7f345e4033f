"""`assay sync` benchmark: 100,000 events from 10 reviewers into a fresh database, and a sync
that finds nothing new, against a bare repository on the local disk.

Run: .venv/bin/python benchmarks/bench_sync.py [--events N] [--reviewers N]

Each figure is printed beside a baseline measured in the same run on the same repository:
- first sync (fetch, read and check every verdict file, import every event): against a plain
  `git fetch` of the same branch into an empty repository plus a bare `assay import` of the
  same files (parse_events + import_events, the path of `assay import`). Goal: under 5 s.
- no-change sync (fetch, compare the reviewer's files, nothing to send): against a plain
  `git fetch` that finds nothing new. Goal: under 300 ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from db.events import AT_FORMAT, Event
from db.export import FIELDS, parse_events
from db.keys import Verdict, make_key
from db.store import VerdictStore
from db.sync.engine import sync
from db.sync.files import file_path, file_text

REPORTS = [
    f"KESTREL/agentic-system-{m}-report" for m in ("runtime", "workflow", "data", "ops", "ui")
]
VERDICTS = list(Verdict)


def synthetic_events(reviewers: int, per_reviewer: int) -> list[Event]:
    from datetime import UTC, datetime, timedelta

    start = datetime(2026, 11, 1, tzinfo=UTC)
    events = []
    for r in range(reviewers):
        for n in range(per_reviewer):
            report = REPORTS[n % len(REPORTS)]
            record = f"RT-CLM-claim-{n // len(REPORTS)}"
            quote = f"{n:012x}" if n % 3 else None
            events.append(
                Event(
                    event=uuid.uuid4().hex,
                    item=make_key(report, record, quote),
                    report=report,
                    record=record,
                    quote=quote,
                    reviewer=f"reviewer-{r}",
                    verdict=VERDICTS[(n + r) % 4] if n % 7 else None,
                    note=f"checked against worker/retry.py line {n}; see the diff"
                    if n % 5 == 0
                    else None,
                    at=(start + timedelta(seconds=n, microseconds=r)).strftime(AT_FORMAT),
                    revision="0123456789abcdef0123456789abcdef01234567",
                )
            )
    return events


def git(*args: str, cwd: Path) -> None:
    subprocess.run(
        ["git", "-c", "user.name=bench", "-c", "user.email=b@example.com", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


def build_remote(folder: Path, events: list[Event]) -> tuple[Path, list[Path]]:
    """A bare repository holding every reviewer's verdict files, as their syncs would write them."""
    seed = VerdictStore.open(folder / "seed.sqlite3")
    seed.import_events(events)
    work = folder / "work"
    git("init", "--quiet", "--initial-branch=main", str(work), cwd=folder)
    written = []
    for reviewer in seed.reviewers():
        by_report: dict[str, list[str]] = {}
        for report, line in seed.json_rows_by_report(FIELDS, reviewer):
            by_report.setdefault(report, []).append(line)
        for report, lines in by_report.items():
            path = work / file_path(report, reviewer)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(file_text(lines))
            written.append(path)
    seed.close()
    git("add", "-A", cwd=work)
    git("commit", "--quiet", "-m", "verdicts", cwd=work)
    remote = folder / "verdicts.git"
    git("clone", "--quiet", "--bare", "--no-local", str(work), str(remote), cwd=folder)
    # packed, as a forge keeps a repository (a fetch then reuses its compressed objects)
    git("repack", "-a", "-d", "-q", cwd=remote)
    return remote, written


def timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--reviewers", type=int, default=10)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="assay-bench-sync-") as name:
        folder = Path(name)
        events = synthetic_events(options.reviewers, options.events // options.reviewers)
        remote, files = build_remote(folder, events)
        size = sum(path.stat().st_size for path in files)
        print(
            f"{len(events):,} events from {options.reviewers} reviewers in {len(files)} files "
            f"({size / 1e6:.1f} MB), remote {remote}"
        )

        # baseline 1: git fetch of the same branch into an empty repository
        plain = folder / "plain.git"
        git("init", "--quiet", "--bare", str(plain), cwd=folder)
        fetch = [
            "fetch",
            "--quiet",
            "--no-tags",
            str(remote),
            "+refs/heads/main:refs/remotes/origin/main",
        ]
        git_first = timed(lambda: git(*fetch, cwd=plain))
        # baseline 2: `assay import` of the same files into a fresh database
        imported = VerdictStore.open(folder / "import.sqlite3")

        def bare_import() -> None:
            for path in files:
                imported.import_events(parse_events(path.read_text(encoding="utf-8"), str(path)))

        import_first = timed(bare_import)
        imported.close()

        store = VerdictStore.open(folder / "fresh.sqlite3")
        data = folder / "clones"
        result = None

        def first_sync() -> None:
            nonlocal result
            result = sync(store, remote=str(remote), reviewer="newcomer", data_dir=data)

        cpu = time.process_time()
        ours_first = timed(first_sync)
        cpu = time.process_time() - cpu
        assert result is not None and result.ok and result.received == len(events), result
        assert store.count() == len(events)
        baseline = git_first + import_first
        print(
            f"first sync      {ours_first:7.3f} s   git fetch {git_first:6.3f} s + assay import "
            f"{import_first:6.3f} s = {baseline:6.3f} s   ratio {ours_first / baseline:5.2f}   "
            f"goal < 5 s: {'ok' if ours_first < 5 else 'MISSED'}"
        )
        print(
            f"                ({cpu:.3f} s of CPU in this process, git's not counted; load "
            f"average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cpus)"
        )

        ours: list[float] = []
        base: list[float] = []
        for _ in range(7):  # interleaved, so both see the same disk and neighbours
            base.append(timed(lambda: git(*fetch, cwd=plain)))
            ours.append(timed(lambda: sync(store, reviewer="newcomer", data_dir=data)))
        again = sync(store, reviewer="newcomer", data_dir=data)
        assert again.ok and (again.received, again.sent) == (0, 0), again
        ours_p50, base_p50 = statistics.median(ours), statistics.median(base)
        print(
            f"no-change sync  {ours_p50 * 1000:7.1f} ms  git fetch {base_p50 * 1000:6.1f} ms"
            f"{'':29}ratio {ours_p50 / base_p50:5.2f}   "
            f"goal < 300 ms: {'ok' if ours_p50 < 0.3 else 'MISSED'}"
        )
        store.close()
        print(f"(python {sys.version.split()[0]}, {os.cpu_count()} cpus)")


if __name__ == "__main__":
    main()
