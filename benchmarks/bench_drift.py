"""Drift speed: 10,000 quotes over the 5,000-file synthetic repository of bench_anchoring.py,
followed through 500 commits (edits, insertions, deletions, renames, deleted files; a side
branch every 25 commits, merged both ways).

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
from evidence.citations import CitedPath, CitedState  # noqa: E402
from evidence.drift import follow_anchors  # noqa: E402
from evidence.drift_files import follow_cited  # noqa: E402
from evidence.model import Anchor, FileState, Quote, Tier  # noqa: E402
from evidence.reports.loading import load_reports  # noqa: E402
from evidence.revision import Revision  # noqa: E402
from evidence.sample import CITED_REVISION, SAMPLE_REPORTS, TIP_REVISION, sample_repo  # noqa: E402

#: a side branch forks every WINDOW commits and lives for SIDE of them
WINDOW, SIDE = 25, 10
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
    """`commits` commits on top of the cited one, written with fast-import; the new tip.

    Every WINDOW commits a side branch forks from main: for a while commits alternate between
    the two (the side edits only files set aside for it, main the others), main is merged into
    the side halfway, and the side is merged back into main at the end."""
    paths = cited.paths()
    current: dict[str, list[str]] = {}
    alive = list(paths)
    out: list[bytes] = []
    reserved: list[str] = []
    main_edits: set[str] = set()
    window = 0

    def lines_of(path: str) -> list[str]:
        if path not in current:
            current[path] = cited.read(path).text.split("\n")
        return current[path]

    def blob(path: str) -> bytes:
        data = "\n".join(lines_of(path)).encode()
        return b"M 100644 inline %s\ndata %d\n%s\n" % (path.encode(), len(data), data)

    for number in range(commits):
        message = f"change {number}\n".encode()
        when = 1_700_000_000 + 3600 * (number + 1)
        phase = number % WINDOW
        # parents[0] None: the branch's own head (fast-import goes on from it)
        branch, parents, fixed = b"main", list[bytes | None]([None]), list[bytes]()
        if number == 0:
            parents = [cited.commit.encode()]
        if phase == 0 and number + SIDE < commits:
            window += 1
            reserved = rng.sample([p for p in alive if "/file" in p], 5)
            main_edits = set()
        in_window = bool(reserved) and 0 < phase <= SIDE
        if in_window and phase % 2 == 0 and phase != SIDE // 2 + 1:
            branch = b"side%d" % window
            parents = [b"refs/heads/main"] if phase == 2 else [None]
        if in_window and phase == SIDE // 2 + 1:  # main merged into the side
            branch = b"side%d" % window
            parents = [None, b"refs/heads/main"]
            fixed = [blob(path) for path in sorted(main_edits)]
        if reserved and phase == SIDE + 1:  # the side merged back into main
            parents = [None, b"refs/heads/side%d" % window]
            fixed = [blob(path) for path in reserved]
            reserved = []
        body = [b"commit refs/heads/" + branch + b"\n"]
        body.append(b"author Bench <bench@example.org> %d +0000\n" % when)
        body.append(b"committer Bench <bench@example.org> %d +0000\n" % when)
        body.append(b"data %d\n%s" % (len(message), message))
        if parents[0] is not None:
            body.append(b"from %s\n" % parents[0])
        body.extend(b"merge %s\n" % parent for parent in parents[1:] if parent is not None)
        body.extend(fixed)
        if len(parents) > 1:
            out.extend(body)
            out.append(b"\n")
            continue
        on_side = branch != b"main"
        choices = ["edit", "rename", "delete"] if not reserved else ["edit"]
        kind = rng.choices(choices, [94, 5, 1][: len(choices)])[0]
        for _ in range(rng.randint(1, 3) if kind == "edit" else 1):
            pool = reserved if on_side else [p for p in alive if p not in reserved]
            path = rng.choice(pool)
            lines = lines_of(path)
            if kind == "delete":
                body.append(b"D %s\n" % path.encode())
                alive.remove(path)
                continue
            if kind == "rename":
                new = path.replace("/file", "/moved")
                body.append(b"R %s %s\n" % (path.encode(), new.encode()))
                alive[alive.index(path)] = new
                current[new] = current.pop(path, lines)
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
            if not on_side and reserved:
                main_edits.add(path)
            body.append(blob(path))
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
            merges = git(repo, "rev-list", "--merges", "--count", f"{cited.commit}..{tip}")
            print(f"{n_commits} commits ({int(merges)} merges) written in "
                  f"{time.perf_counter() - started:.1f} s")  # fmt: skip
            anchors = anchors_for(cited, n_quotes, rng)
            with Revision.open(repo, tip) as newer:
                started = time.perf_counter()
                drifts = follow_anchors(anchors, cited, newer)
                elapsed = time.perf_counter() - started
            statuses = Counter(d.status.value for d in drifts if d is not None)
            print(f"drift of {n_quotes} quotes through {n_commits} commits: {elapsed:.2f} s "
                  "(goal < 20 s)")  # fmt: skip
            print("  statuses: " + ", ".join(f"{k} {v}" for k, v in sorted(statuses.items())))
            tip_paths = set(git(repo, "ls-tree", "-r", "--name-only", tip).decode().split("\n"))
            anchored = [a for a in anchors if a.lines is not None]
            probe_pool = [a for a in anchored if a.quote.path in tip_paths]
            probe = rng.sample(probe_pool, 40)  # git log -L needs the path at the tip
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
            cited_files(repo, cited, tip, rng)
    kestrel = sample_repo()
    with (
        Revision.open(kestrel, CITED_REVISION) as cited,
        Revision.open(kestrel, TIP_REVISION) as at_tip,
    ):
        result = run_check(load_reports([SAMPLE_REPORTS]), cited)
        started = time.perf_counter()
        follow_anchors([q.anchor for q in result.quotes], cited, at_tip)
        print(f"sample: drift of {len(result.quotes)} quotes in "
              f"{time.perf_counter() - started:.3f} s (goal < 1 s)")  # fmt: skip
        started = time.perf_counter()
        follow_cited(result.citations, cited, at_tip)
        print(f"sample: drift of {len(result.citations)} cited paths in "
              f"{time.perf_counter() - started:.3f} s")  # fmt: skip


#: cited files of the synthetic review: whole, and with 2-5 lines named
CITED_WHOLE, CITED_LINES = 2_000, 1_000


def cited_files(repo: Path, cited: Revision, tip: str, rng: random.Random) -> None:
    """`follow_cited` over files cited whole and cited with lines, beside ``git log --follow``
    once per file cited whole (measured on 40, extrapolated)."""
    paths = cited.paths()
    wanted = [
        CitedPath("r", "R", "SRC-1", path, 1, CitedState.PRESENT)
        for path in rng.sample(paths, CITED_WHOLE)
    ]
    for anchor in anchors_for(cited, CITED_LINES, rng):
        if anchor.lines is not None:
            path = anchor.quote.path
            wanted.append(
                CitedPath("r", "R", "SRC-1", path, 1, CitedState.PRESENT, lines=anchor.lines)
            )
    with Revision.open(repo, tip) as newer:
        started = time.perf_counter()
        found = follow_cited(wanted, cited, newer)
        elapsed = time.perf_counter() - started
    statuses = Counter(d.status for d in found.values())
    print(f"drift of {len(wanted)} cited files ({CITED_WHOLE} whole): {elapsed:.2f} s")
    print("  statuses: " + ", ".join(f"{k} {v}" for k, v in sorted(statuses.items())))
    probe = rng.sample(wanted[:CITED_WHOLE], 40)
    started = time.perf_counter()
    for each in probe:
        git(repo, "log", "--follow", "--format=%H", f"{cited.commit}..{tip}", "--", each.path)
    naive = (time.perf_counter() - started) / len(probe) * CITED_WHOLE
    print(f"git log --follow once per file cited whole: {naive:.1f} s for {CITED_WHOLE} "
          f"(40 measured, extrapolated); ratio: {naive / elapsed:.0f}x")  # fmt: skip


if __name__ == "__main__":
    main()
