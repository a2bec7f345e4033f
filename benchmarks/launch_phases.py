"""Where a launch's wall time goes, phase by phase: `assay demo` beside the empty Textual app.

The launches are bench_app.py's (the same child code, bytecode compiled as installed, the
reports parsed at an earlier launch), alternated pair by pair; the child notes the time at each
phase (its `MARKS`) and prints them with its frame. Medians of each phase:

- the interpreter started: from the process's start to the child's first line;
- imports and the app built: from there to the app object made (the empty app imports Textual;
  `assay demo` imports asyncio and click (`cli`), its command module (`imported`), then the rest
  in `demo_app`: Textual, the screens, and runs the command's steps: the keymap, the database
  check, the reviewer's name, the reports from their cache);
- `run_test` until the first screen is composed, mounted, styled and painted once (`ready`);
- from there to the frame `wait_for_refresh` waits for (the same in both);
- of the run (from the app built to the frame), the time the event loop waited, mostly for
  Textual's next refresh (its frame timer: up to 1/60 s in both apps), and the rest: the work.

launch_count.py counts the same launches in instructions (steadier; this says where in time).

Run: .venv/bin/python benchmarks/launch_phases.py [--rounds 15]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from launches import bytecode_caches, launched

from evidence.sample import sample_repo

#: (label, first mark, last mark, kinds it is shown for)
PHASES = [
    ("interpreter started", "", "start", ("review", "empty")),
    ("imports and the app built", "start", "app", ("review", "empty")),
    ("  asyncio, pathlib and click", "start", "cli", ("review",)),
    ("  the command's module", "cli", "imported", ("review",)),
    ("  demo_app: Textual, the screens, the steps", "imported", "app", ("review",)),
    ("run_test to the screen painted once", "app", "ready", ("review", "empty")),
    ("to the frame (the next refresh)", "ready", "frame", ("review", "empty")),
    ("launch (the process)", "", "frame", ("review", "empty")),
]
#: (label, duration): the run split, from the `idle` the child counted (not marks)
RUN_SPLIT = [
    ("the run: the event loop waiting", "idle"),
    ("the run: working", "work"),
]


def marked_launch(kind: str, tmp: Path, pycache: Path) -> dict[str, float]:
    """Seconds from the process's start to each mark (``start``: the child's first line)."""
    elapsed, line = launched(kind, tmp, pycache, marks=True)
    word, *marks = line.split()
    assert word == "frame" and marks, line
    since_start = {name: float(value) for name, value in (mark.split("=") for mark in marks)}
    idle = since_start.pop("idle")
    first_line = elapsed - since_start["frame"]
    at = {"": 0.0, "start": first_line} | {
        name: first_line + value for name, value in since_start.items()
    }
    return at | {"idle": idle, "work": at["frame"] - at["app"] - idle}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    print(f"launch phases ({args.rounds} alternated pairs, medians in ms)")
    sample_repo()
    with tempfile.TemporaryDirectory() as tmp_dir:
        tmp = Path(tmp_dir)
        compiled, _source = bytecode_caches(tmp)
        runs: dict[str, list[dict[str, float]]] = {"review": [], "empty": []}
        for _ in range(args.rounds):
            for kind in ("empty", "review"):
                runs[kind].append(marked_launch(kind, tmp, compiled))
    print(f"{'phase':46} {'assay demo':>10} {'empty app':>10} {'more':>8}")
    for label, first, last, kinds in PHASES:
        spent = {
            kind: statistics.median((run[last] - run[first]) * 1000 for run in runs[kind])
            for kind in kinds
        }
        review = f"{spent['review']:10.1f}"
        if "empty" in spent:
            more = spent["review"] - spent["empty"]
            print(f"{label:46} {review} {spent['empty']:10.1f} {more:+8.1f}")
        else:
            print(f"{label:46} {review}")
    for label, duration in RUN_SPLIT:
        spent = {
            kind: statistics.median(run[duration] * 1000 for run in runs[kind]) for kind in runs
        }
        more = spent["review"] - spent["empty"]
        print(f"{label:46} {spent['review']:10.1f} {spent['empty']:10.1f} {more:+8.1f}")
    review_total = statistics.median(run["frame"] for run in runs["review"])
    empty_total = statistics.median(run["frame"] for run in runs["empty"])
    print(f"launch ratio {review_total / empty_total:.2f} (goal: <= 1.25x the empty app)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
