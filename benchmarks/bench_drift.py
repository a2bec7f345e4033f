"""Drift speed: 10,000 quotes over the 5,000-file synthetic repository of bench_anchoring.py,
followed through 500 commits (edits, insertions, deletions, renames, deleted files).

Prints, from one run: the time of `follow_anchors` for every quote (goal: under 20 s on 2 cores),
the time of one ``git log -L`` per quote measured on a sample of the quotes and extrapolated to
all of them, the ratio, the statuses, and the sample's drift (goal: under 1 s).

Usage: .venv/bin/python benchmarks/bench_drift.py [N_QUOTES] [N_COMMITS]
"""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from synthetic import synthetic_repo  # noqa: E402

from evidence.check import run_check  # noqa: E402
from evidence.drift import follow_anchors  # noqa: E402
from evidence.model import Anchor, FileState, Quote, Tier  # noqa: E402
from evidence.reports.loading import load_reports  # noqa: E402
from evidence.revision import Revision  # noqa: E402
from evidence.sample import CITED_REVISION, SAMPLE_REPORTS, TIP_REVISION, sample_repo  # noqa: E402

ENV = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "PATH": "/usr/bin:/bin"}


def git(repo: Path, *args: str, data: bytes | None = None) -> bytes:
    return subprocess.run(
        ["git", "-c", "core.hooksPath=/dev/null", *args],
        cwd=repo,
        env=ENV,
        input=data,
        capture_output=True,
        check=True,
    ).stdout


def add_history(repo: Path, cited: Revision, commits: int, rng: random.Random) -> str:
    """`commits` commits on top of the cited one, written with fast-import; the new tip."""
    paths = cited.paths()
    current: dict[str, list[str]] = {}
    alive = list(paths)
    out: list[bytes] = []
    for number in range(commits):
        message = f"change {number}\n".encode()
        when = 1_700_000_000 + 3600 * (number + 1)
        body = [b"commit refs/heads/main\n"]
        body.append(b"author Bench <bench@example.org> %d +0000\n" % when)
        body.append(b"committer Bench <bench@example.org> %d +0000\n" % when)
        body.append(b"data %d\n%s" % (len(message), message))
        if number == 0:
            body.append(b"from %s\n" % cited.commit.encode())
        kind = rng.choices(["edit", "rename", "delete"], [94, 5, 1])[0]
        for _ in range(rng.randint(1, 3) if kind == "edit" else 1):
            path = rng.choice(alive)
            if path not in current:
                current[path] = cited.read(path).text.split("\n")
            lines = current[path]
            if kind == "delete":
                body.append(b"D %s\n" % path.encode())
                alive.remove(path)
                continue
            if kind == "rename":
                new = path.replace("/file", "/moved")
                body.append(b"R %s %s\n" % (path.encode(), new.encode()))
                alive[alive.index(path)] = new
                current[new] = current.pop(path)
                continue
            for _ in range(rng.randint(1, 4)):
                at = rng.randrange(len(lines))
                what = rng.random()
                if what < 0.4:
                    lines[at : at + 1] = [lines[at] + f"  # edited {number}"]
                elif what < 0.8:
                    lines[at:at] = [f"inserted = {number}" for _ in range(rng.randint(1, 8))]
                else:
                    del lines[at : at + rng.randint(1, 6)]
            data = "\n".join(lines).encode()
            body.append(b"M 100644 inline %s\ndata %d\n%s\n" % (path.encode(), len(data), data))
        out.extend(body)
        out.append(b"\n")
    git(repo, "fast-import", "--quiet", "--force", data=b"".join(out))
    return git(repo, "rev-parse", "main").decode().strip()


def anchors_for(revision: Revision, count: int, rng: random.Random) -> list[Anchor]:
    """Anchors as the anchorer gives them for quotes of 2-5 lines (a tenth not anchored)."""
    paths = revision.paths()
    made: list[Anchor] = []
    while len(made) < count:
        path = rng.choice(paths)
        size = len(revision.read(path).lines)
        length = rng.randrange(2, 6)
        first = rng.randrange(1, max(2, size - length))
        quote = Quote(f"quote {len(made)}", path, None, len(made) + 1, 1, "R", 0)
        if rng.random() < 0.1:
            made.append(Anchor(quote, FileState.OK, Tier.MISSING, 0.0, None))
        else:
            span = (first, first + length - 1)
            made.append(Anchor(quote, FileState.OK, Tier.EXACT, 100.0, span))
    return made


def main() -> None:
    n_quotes = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    n_commits = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    rng = random.Random(11)
    base = synthetic_repo()
    with tempfile.TemporaryDirectory(prefix="assay-drift-") as scratch:
        repo = Path(scratch) / "repo.git"
        git(Path(scratch), "clone", "-q", "--bare", "--shared", str(base), str(repo))
        with Revision.open(repo, "main") as cited:
            started = time.perf_counter()
            tip = add_history(repo, cited, n_commits, rng)
            print(f"{n_commits} commits written in {time.perf_counter() - started:.1f} s")
            anchors = anchors_for(cited, n_quotes, rng)
            with Revision.open(repo, tip) as newer:
                started = time.perf_counter()
                drifts = follow_anchors(anchors, cited, newer)
                elapsed = time.perf_counter() - started
            statuses = Counter(d.status.value for d in drifts if d is not None)
            print(f"drift of {n_quotes} quotes through {n_commits} commits: {elapsed:.2f} s "
                  "(goal < 20 s)")  # fmt: skip
            print("  statuses: " + ", ".join(f"{k} {v}" for k, v in sorted(statuses.items())))
            anchored = [a for a in anchors if a.lines is not None]
            probe = rng.sample(anchored, 40)
            started = time.perf_counter()
            for anchor in probe:
                assert anchor.lines is not None
                first, last = anchor.lines
                spec = f"-L{first},{last}:{anchor.quote.path}"
                git(repo, "log", spec, "--format=%H", "-s", f"{cited.commit}..{tip}")
            per_quote = (time.perf_counter() - started) / len(probe)
            naive = per_quote * len(anchored)
            print(f"git log -L once per quote: {per_quote * 1000:.0f} ms a quote (40 measured), "
                  f"{naive:.0f} s for {len(anchored)} anchored quotes (extrapolated)")  # fmt: skip
            print(f"  ratio: drift is {naive / elapsed:.0f}x faster")
    kestrel = sample_repo()
    with (
        Revision.open(kestrel, CITED_REVISION) as cited,
        Revision.open(kestrel, TIP_REVISION) as tip,
    ):
        result = run_check(load_reports([SAMPLE_REPORTS]), cited)
        started = time.perf_counter()
        follow_anchors([q.anchor for q in result.quotes], cited, tip)
        print(f"sample: drift of {len(result.quotes)} quotes in "
              f"{time.perf_counter() - started:.3f} s (goal < 1 s)")  # fmt: skip


if __name__ == "__main__":
    main()
