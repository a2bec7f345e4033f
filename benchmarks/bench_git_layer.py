"""The GitPython git layer beside the plumbing it replaced, measured in the same run.

For each repository (the sample, and a bigger one built from the installed Python standard
library), prints the median of several rounds, the old and the new way taking turns:
- listing the tree: `ls-tree -r -z -l --full-tree` through GitPython's Git command object
  (evidence/git/reader.py `RepoReader.run`) beside `process.run_git`, both parsed by `parse_tree`;
- reading blobs one by one: GitPython's persistent `cat-file --batch` (`RepoReader.read`) beside
  a `cat-file --batch` started with `process.git_command` and read as the old BlobReader read it;
- streaming every blob: `RepoReader.stream` (a cat-file GitPython starts) beside the same stream
  from a plain Popen;
- for information, the first use: importing GitPython (in a fresh interpreter) and opening the
  Repo with its cat-file.
Each line ends with the ratio new/old (the issue asks for within 1.5x); times are never asserted.

Usage: .venv/bin/python benchmarks/bench_git_layer.py [--rounds 7] [--reads 400]
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from evidence.git.process import (  # noqa: E402
    git_command,
    run_git,
    run_in_own_repository,
    safe_environment,
    stop,
)
from evidence.git.reader import RepoReader  # noqa: E402
from evidence.git.tree import parse_tree  # noqa: E402
from evidence.revision import Revision  # noqa: E402
from evidence.sample import CITED_REVISION, sample_repo  # noqa: E402

SKIPPED = {"__pycache__", "site-packages"}


def stdlib_repo(base: Path) -> Path:
    """The installed standard library's text files, committed into a new repository."""
    target = base / "stdlib"
    source = Path(sysconfig.get_paths()["stdlib"])

    def ignore(_directory: str, names: list[str]) -> set[str]:
        binary = (".pyc", ".so", ".exe", ".a")
        return {n for n in names if n in SKIPPED or n.startswith("config-") or n.endswith(binary)}

    shutil.copytree(source, target, ignore=ignore, symlinks=True)
    identity = ("-c", "user.name=bench", "-c", "user.email=bench@example.invalid")
    for args in (("init", "-q"), ("add", "-A", "."), (*identity, "commit", "-q", "-m", "stdlib")):
        done = run_in_own_repository(target, *args)
        if done.returncode != 0:
            raise SystemExit(done.stderr.decode("utf-8", "replace"))
    return target


# --- the old way: plumbing through evidence/git/process.py directly --------------------------


def _reply(stdout: IO[bytes]) -> bytes:
    fields = stdout.readline().split()
    size = int(fields[2])
    data = stdout.read(size)
    stdout.read(1)
    return data


def old_cat_file(git_dir: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        git_command(git_dir, "cat-file", "--batch"),
        cwd=git_dir,
        env=safe_environment(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )


def old_read(process: subprocess.Popen[bytes], oid: str) -> bytes:
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(oid.encode("ascii") + b"\n")
    process.stdin.flush()
    return _reply(process.stdout)


def old_stream(git_dir: Path, oids: Sequence[str]) -> int:
    process = old_cat_file(git_dir)
    assert process.stdin is not None and process.stdout is not None
    stdin = process.stdin

    def feed() -> None:
        for oid in oids:
            stdin.write(oid.encode("ascii") + b"\n")
        stdin.close()

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    total = sum(len(_reply(process.stdout)) for _ in oids)
    writer.join()
    stop(process)
    return total


# --- timing -------------------------------------------------------------------------------------


def median_pair(
    rounds: int, old: Callable[[], object], new: Callable[[], object]
) -> tuple[float, float]:
    """Median seconds of ``old`` and ``new``, taking turns (one warm-up each first)."""
    old(), new()
    olds: list[float] = []
    news: list[float] = []
    for _ in range(rounds):
        for run, times in ((old, olds), (new, news)):
            start = time.perf_counter()
            run()
            times.append(time.perf_counter() - start)
    return statistics.median(olds), statistics.median(news)


def line(what: str, old: float, new: float, unit: str = "ms", scale: float = 1e3) -> None:
    print(
        f"  {what:<44} old {old * scale:9.2f} {unit}   gitpython {new * scale:9.2f} {unit}"
        f"   ratio {new / old:5.2f}x"
    )


def gitpython_import_ms() -> float:
    probe = "import time; t = time.perf_counter(); import git; print(time.perf_counter() - t)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return float(done.stdout) * 1e3


def bench(name: str, repo: Path, rev: str, rounds: int, reads: int) -> None:
    with Revision.open(repo, rev) as revision:
        git_dir, commit = revision.git_dir, revision.commit
        entries = revision.entries()
    blobs = [e for e in entries.values() if e.kind == "blob" and e.size >= 0]
    size = sum(e.size for e in blobs)
    print(f"{name}: {len(entries):,} paths, {size / 1e6:.1f} MB of blobs")
    reader = RepoReader(git_dir, repo, name)
    ls_tree = ("ls-tree", "-r", "-z", "-l", "--full-tree", commit)
    try:
        old, new = median_pair(
            rounds,
            lambda: parse_tree(run_git(git_dir, git_dir, *ls_tree).stdout),
            lambda: parse_tree(reader.run(*ls_tree)),
        )
        line("list the tree (ls-tree + parse)", old, new)

        rng = random.Random(1)
        picked = [rng.choice(blobs).oid for _ in range(reads)]
        process = old_cat_file(git_dir)
        try:
            old, new = median_pair(
                rounds,
                lambda: [old_read(process, oid) for oid in picked],
                lambda: [reader.read(oid) for oid in picked],
            )
        finally:
            stop(process)
        mean = statistics.mean(next(e.size for e in blobs if e.oid == oid) for oid in picked[:50])
        what = f"read one blob (mean of {reads}, ~{mean / 1e3:.0f} kB)"
        line(what, old / reads, new / reads, "us", 1e6)

        oids = [e.oid for e in blobs]
        old, new = median_pair(
            max(3, rounds // 2),
            lambda: old_stream(git_dir, oids),
            lambda: sum(len(data) for _, data in reader.stream(oids)),
        )
        line(f"stream every blob ({len(oids):,})", old, new)

        start = time.perf_counter()
        cold = RepoReader(git_dir, repo, name)
        cold.read(picked[0])
        opened = time.perf_counter() - start
        cold.close()
        start = time.perf_counter()
        process = old_cat_file(git_dir)
        old_read(process, picked[0])
        started = time.perf_counter() - start
        stop(process)
        line("first read (open the Repo, start cat-file)", started, opened)
    finally:
        reader.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7, help="rounds per measurement")
    parser.add_argument("--reads", type=int, default=400, help="blobs read one by one per round")
    args = parser.parse_args()
    print(f"GitPython import, fresh interpreter (for information): {gitpython_import_ms():.0f} ms")
    sample = sample_repo()
    bench("sample (kestrel, cited revision)", sample, CITED_REVISION, args.rounds, args.reads)
    with tempfile.TemporaryDirectory(prefix="assay-git-layer-") as scratch:
        start = time.perf_counter()
        repo = stdlib_repo(Path(scratch))
        print(f"(stdlib repository built in {time.perf_counter() - start:.1f} s)")
        bench(f"stdlib {sys.version.split()[0]}", repo, "HEAD", args.rounds, args.reads)


if __name__ == "__main__":
    main()
