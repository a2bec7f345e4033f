"""Instructions to the first frame of `assay demo` and of an empty Textual app (callgrind).

Wall and CPU time of a launch move by 1.5x from one run to the next on a shared machine; the
count of instructions the main thread runs to the first painted frame moves by about 0.3%, so it
tells apart changes of 1%. The launch is bench_app.py's (the click entry point, the command's
steps, the app under run_test, `frame` printed when the review screen's first frame is
painted); the process ends there.

The review screen starts its reads (the store, the revision, then anchoring) after its first
frame: under valgrind, which runs the app some fifty times slower, their timer could fire first,
and their threads would take the GIL from the frame at moments that change from run to run.
They are not started here (`Loading.start` does nothing), nor is the next record prepared
(`Navigation.prepare_next`, 10 ms after the frame at full speed, before it under valgrind in
some runs: 1,339M to 1,391M instructions for the same code): the count is the main thread's
work to the frame, as in a launch at full speed.

Run: .venv/bin/python benchmarks/launch_count.py [--root CHECKOUT] [--runs 2] [--theme NAME]
(``--root``: count another checkout of assay, e.g. main's, with this venv; needs valgrind).
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

from launches import child_code

ROOT = Path(__file__).resolve().parent.parent


def count(kind: str, root: Path, tmp: Path) -> int:
    """Instructions of the main thread from the process's start to the first frame."""
    code = child_code(root, counted=True)
    env = dict(os.environ, PYTHONPYCACHEPREFIX=str(tmp / "pyc"), XDG_CACHE_HOME=str(tmp / "cache"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("ASSAY_COUNT_EXIT", None)
    data = tmp / "data"
    data.mkdir(exist_ok=True)
    command = [sys.executable, "-c", code, kind, str(data)]
    # as installed: the bytecode compiled, and the reports parsed, by a launch before
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
    env.update(PYTHONDONTWRITEBYTECODE="1", ASSAY_COUNT_EXIT="1")
    out = tmp / f"callgrind-{kind}"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--separate-threads=yes",
            f"--callgrind-out-file={out}/cg.%p",
            *command,
        ],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    (main,) = out.glob("cg.*-01")  # thread 1: the main thread
    found = re.search(r"^totals: (\d+)", main.read_text(encoding="utf-8"), re.MULTILINE)
    assert found is not None, main
    return int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout of assay to count")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--theme", default=None, help="a theme kept as the user's (assay-light)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("launch_count.py needs valgrind (callgrind)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp_dir:
        tmp = Path(tmp_dir)
        if args.theme:
            (tmp / "config" / "assay").mkdir(parents=True)
            (tmp / "config" / "assay" / "theme").write_text(args.theme + "\n", encoding="utf-8")
            os.environ["XDG_CONFIG_HOME"] = str(tmp / "config")
        empty = count("empty", args.root, tmp)
        print(f"empty Textual app      {empty / 1e6:7.0f}M instructions to the first frame")
        for _ in range(args.runs):
            review = count("review", args.root, tmp)
            print(
                f"assay demo ({args.root.name})  {review / 1e6:7.0f}M instructions to the first"
                f" frame   ratio {review / empty:.2f}   goal: <= 1.25x empty app"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
