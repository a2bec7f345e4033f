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

`--phases` counts one launch of each phase by phase (the child's marks, as launch_phases.py
times them): where the review's extra instructions are, before the app runs or in its run.

Run: .venv/bin/python benchmarks/launch_count.py [--root CHECKOUT] [--runs 2] [--theme NAME]
[--phases] (``--root``: count another checkout of assay, e.g. main's, with this venv; needs
valgrind).
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


def count(kind: str, root: Path, tmp: Path, *, phases: bool = False) -> list[tuple[str, int]]:
    """Instructions of the main thread from the process's start to the first frame: one
    (``"frame"``, count), or with ``phases`` the count of each phase the child marks."""
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
            *(["--dump-before=adler32"] if phases else []),  # the child's `mark` of each phase
            f"--callgrind-out-file={out}/cg.%p",
            *command,
        ],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    if not phases:
        (main,) = out.glob("cg.*-01")  # thread 1: the main thread
        return [("frame", _total(main))]
    # one dump per phase, before each mark: cg.PID.N-01 is the main thread's part N
    parts = sorted(out.glob("cg.*.*-01"), key=lambda path: int(path.name.split(".")[-1][:-3]))
    names = PHASES[kind]
    assert len(parts) == len(names), (len(parts), names)
    return [(name, _total(part)) for name, part in zip(names, parts, strict=True)]


def _total(part: Path) -> int:
    found = re.search(r"^(?:totals|summary): (\d+)", part.read_text(encoding="utf-8"), re.MULTILINE)
    assert found is not None, part
    return int(found.group(1))


#: the phases each kind of launch marks (launches.py's child), each counted to its mark
PHASES = {
    "empty": ("imported", "app", "ready", "frame"),
    "review": ("cli", "imported", "app", "ready", "frame"),
}
BEFORE_RUN = ("cli", "imported", "app")  # Textual is imported in different ones of these


def print_phases(empty: list[tuple[str, int]], review: list[tuple[str, int]]) -> None:
    """The count before the app runs and in its run, the review beside the empty app."""
    of_empty, of_review = dict(empty), dict(review)
    rows = [
        ("to the app built (Python, the imports, the command's steps)", BEFORE_RUN),
        ("run_test to the first screen composed, mounted, styled, laid out", ("ready",)),
        ("from there to its first frame painted", ("frame",)),
    ]
    print(f"{'':66} {'empty':>7} {'review':>7} {'more':>7}")
    for words, names in rows:
        base = sum(of_empty.get(name, 0) for name in names)
        counted = sum(of_review[name] for name in names)
        print(
            f"{words:66} {base / 1e6:6.0f}M {counted / 1e6:6.0f}M {(counted - base) / 1e6:+6.0f}M"
        )
    parts = ", ".join(f"{name} {of_review[name] / 1e6:.0f}M" for name in BEFORE_RUN)
    print(f"  the review's marks before the run: {parts}")
    total_empty, total_review = sum(of_empty.values()), sum(of_review.values())
    print(
        f"{'total':66} {total_empty / 1e6:6.0f}M {total_review / 1e6:6.0f}M"
        f" {(total_review - total_empty) / 1e6:+6.0f}M   ratio {total_review / total_empty:.2f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout of assay to count")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--theme", default=None, help="a theme kept as the user's (assay-light)")
    parser.add_argument("--phases", action="store_true", help="count each phase of one launch")
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
        if args.phases:
            print_phases(
                count("empty", args.root, tmp, phases=True),
                count("review", args.root, tmp, phases=True),
            )
            return 0
        ((_, empty),) = count("empty", args.root, tmp)
        print(f"empty Textual app      {empty / 1e6:7.0f}M instructions to the first frame")
        for _ in range(args.runs):
            ((_, review),) = count("review", args.root, tmp)
            print(
                f"assay demo ({args.root.name})  {review / 1e6:7.0f}M instructions to the first"
                f" frame   ratio {review / empty:.2f}   goal: <= 1.25x empty app"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
