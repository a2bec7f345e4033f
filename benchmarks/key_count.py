"""Instructions of the main thread per key press (callgrind), beside an empty app's key echo.

bench_app's key times move by 1.2-1.5x from one run to the next on a shared machine (`n` 13.3
and 19.6 ms on the same code); a change of 1-2 ms per key is lost in that. The count of the
instructions the main thread runs for a key and all it causes (the frame, and what follows it:
a second layout, the highlighting drawn) moved by 1% between three runs of `n` (79.3M, 79.7M,
80.1M), each beside another count: it tells apart changes of 5%. The rest after each press must
outlast all the press causes, or presses overlap and the count drops. It is not the key's
latency: work after the frame counts, and waits (a thread holding the GIL) do not.

Each key is posted to the app as the terminal driver posts it (not `Pilot.press`, whose wait
for idle polls, more often the slower the machine), as many times as asked, each followed by a
rest long enough for everything it caused (valgrind runs the app some fifty times slower), on
the sample review at 120x40, from where bench_app starts it. The count runs between two calls
of a marker function (`zlib.adler32`, dumped by `--dump-before`), in the main thread only
(`--separate-threads`).

Run: .venv/bin/python benchmarks/key_count.py [--root CHECKOUT] [--presses 30] [KEY ...]
(default keys: n j tab; needs valgrind; a few minutes per key).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import asyncio, sys, tempfile, zlib
from pathlib import Path
root, key, presses = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path[:0] = [root, root + "/benchmarks"]
import bench_app
import frames

REST = 2.0  # seconds after each press: under valgrind (fifty times slower) all it caused is done


def event(key):
    # the key's event as the terminal driver posts it (a checkout before key_event: by name)
    make = getattr(bench_app, "key_event", None)
    if make is not None:
        return make(key)
    from textual import events

    return events.Key(key, key if len(key) == 1 else None)


async def echo() -> None:
    app = frames.EchoApp()
    async with app.run_test(size=frames.SIZE) as pilot:
        await pilot.pause()
        for _ in range(8):
            app.post_message(event("n"))
            await asyncio.sleep(REST)
        zlib.adler32(b"start")
        for _ in range(presses):
            app.post_message(event("n"))
            await asyncio.sleep(REST)
        zlib.adler32(b"end")


async def review() -> None:
    from screens.review.history import Location

    app = bench_app.review_app(Path(tempfile.mkdtemp()), None)
    async with app.run_test(size=frames.SIZE) as pilot:
        screen = app.screen
        await screen.settle()
        await pilot.pause()
        screen.records_pane.focus()
        records = screen.session.records
        last = len(records) - 1

        def first(record: int) -> Location:
            return Location(record, 0 if records[record].quotes else None)

        async def press() -> None:
            record = screen.location.record
            if key in ("n", "j") and record >= last or key in ("p", "k") and record == 0:
                screen.go(first(0 if key in ("n", "j") else last))  # at an end: again
                await asyncio.sleep(1.0)
            app.post_message(event(key))
            await asyncio.sleep(REST)

        if key in ("p", "k"):
            screen.go(first(last))
            await asyncio.sleep(1.0)
        for _ in range(8):
            await press()
        zlib.adler32(b"start")
        for _ in range(presses):
            await press()
        zlib.adler32(b"end")


asyncio.run(echo() if key == "echo" else review())
"""


def count(root: Path, key: str, presses: int, tmp: Path) -> float:
    """Main-thread instructions per press of ``key`` (``echo``: the empty app's key echo)."""
    out = tmp / f"callgrind-{key}"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp / "cache"), XDG_DATA_HOME=str(tmp / "data"))
    subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--separate-threads=yes",
            "--dump-before=adler32",
            f"--callgrind-out-file={out}/cg.%p",
            sys.executable,
            "-c",
            CHILD,
            str(root),
            key,
            str(presses),
        ],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    # part 2 of thread 1: from the first marker to the second, in the main thread
    (part,) = out.glob("cg.*.2-01")
    found = re.search(r"^(?:summary|totals): (\d+)", part.read_text(encoding="utf-8"), re.M)
    assert found is not None, part
    return int(found.group(1)) / presses


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("keys", nargs="*", default=["n", "j", "tab"])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout of assay to count")
    parser.add_argument("--presses", type=int, default=30)
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("key_count.py needs valgrind (callgrind)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp_dir:
        tmp = Path(tmp_dir)
        echo = count(args.root, "echo", args.presses, tmp)
        print(f"empty app key echo        {echo / 1e6:7.1f}M instructions per press")
        for key in args.keys:
            per_press = count(args.root, key, args.presses, tmp)
            print(
                f"{key:<9} ({args.root.name})  {per_press / 1e6:7.1f}M instructions per press"
                f"   ratio {per_press / echo:.1f}x the echo"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
