"""Benchmark of source lookup: file-finder keystrokes on 100,000 paths, grep on the 200 MB repo.

Prints, from one run:
- finder: building the index for a 100,000-path revision (paths listed through `Revision.paths`
  beside plain `git ls-tree`), then the latency of every keystroke while typing realistic queries,
  p50/p95/max, beside the naive baseline of rapidfuzz `process.extract(query, paths, WRatio)`
  over every path at every keystroke;
- the first lexer a process looks up by file name (evidence/syntax.py) beside Pygments' own
  `get_lexer_for_filename`, each in a fresh process;
- grep: `Revision.grep` at the synthetic repository's commit (5,000 files, ~200 MB, from
  benchmarks/synthetic.py) for several patterns, consuming every hit as the grep screen does,
  beside `git grep` run on the same commit in the same run, with the time to the first hit.

Usage: .venv/bin/python benchmarks/bench_lookup.py [--small]
(--small: 1,000 files / 20 MB repository and fewer queries, for a quick check)
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from rapidfuzz import fuzz, process  # noqa: E402

from evidence.finder import PathFinder  # noqa: E402
from evidence.revision import Revision, safe_environment  # noqa: E402

N_PATHS = 100_000

_DIR_WORDS = (
    "src lib app core api server client web ui components hooks utils services models views "
    "controllers routes middleware config db migrations schemas tests spec fixtures docs scripts "
    "tools internal pkg cmd vendor assets styles auth billing payments orders users admin search "
    "notifications jobs workers queue cache storage telemetry logging metrics plugins"
)
_DIRS = _DIR_WORDS.split()
_STEM_WORDS = (
    "index main handler router service client server model view controller store reducer "
    "selector action helper util config settings schema migration test spec fixture factory "
    "adapter provider context hook component page layout form table modal button input token "
    "session user account order invoice payment cart product search query filter parser lexer "
    "renderer worker queue job scheduler cache logger metrics tracer auth permission role policy"
)
_STEMS = _STEM_WORDS.split()
_EXTS = (".py", ".ts", ".tsx", ".js", ".go", ".rs", ".md", ".json", ".yaml", ".css")

#: what a reviewer types, one keystroke at a time
QUERIES = (
    "authhandler",
    "src/server/router",
    "paymentservice.ts",
    "usrctl",
    "migration",
    "index.ts",
    "qwxz",  # nothing matches
)


def synthetic_paths(count: int, seed: int = 11) -> list[str]:
    """Deterministic, realistic-looking unique paths."""
    rng = random.Random(seed)
    paths: set[str] = set()
    while len(paths) < count:
        depth = rng.choice((1, 2, 2, 3, 3, 3, 4, 4, 5, 6))
        parts = [rng.choice(_DIRS) + (str(rng.randrange(40)) if rng.random() < 0.2 else "")]
        parts += [rng.choice(_DIRS) for _ in range(depth - 1)]
        stem = rng.choice(_STEMS)
        if rng.random() < 0.6:
            stem += rng.choice(("_", "-", "")) + rng.choice(_STEMS)
        if rng.random() < 0.15:
            stem += str(rng.randrange(100))
        parts.append(stem + rng.choice(_EXTS))
        paths.add("/".join(parts))
    return sorted(paths)


def path_repo(paths: list[str], where: Path) -> Path:
    """A bare repository whose one commit has exactly these paths (all one small blob)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    subprocess.run(["git", "init", "-q", "--bare", str(where)], check=True, env=env)
    lines = [
        "blob",
        "mark :1",
        "data 12",
        "hello world",
        "commit refs/heads/main",
        "committer Bench <bench@example.org> 1700000000 +0000",
        "data 6",
        "paths",
    ]
    lines += [f"M 100644 :1 {path}" for path in paths]
    stream = ("\n".join(lines) + "\n").encode()
    subprocess.run(["git", "fast-import", "--quiet"], cwd=where, input=stream, check=True, env=env)
    return where


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def keystrokes(queries: tuple[str, ...]) -> list[str]:
    return [query[:n] for query in queries for n in range(1, len(query) + 1)]


def time_each(fn: Callable[[str], object], typed: list[str]) -> list[float]:
    times = []
    for query in typed:
        started = time.perf_counter()
        fn(query)
        times.append(time.perf_counter() - started)
    return times


def bench_finder(small: bool) -> None:
    print(f"== finder: {N_PATHS:,} paths")
    paths = synthetic_paths(N_PATHS)
    with tempfile.TemporaryDirectory() as tmp:
        repo = path_repo(paths, Path(tmp) / "paths.git")
        started = time.perf_counter()
        raw = subprocess.run(
            ["git", "ls-tree", "-r", "-z", "--name-only", "main"],
            cwd=repo,
            capture_output=True,
            check=True,
            env=safe_environment(),
        ).stdout
        ls_tree = time.perf_counter() - started
        assert raw.count(b"\0") == N_PATHS
        started = time.perf_counter()
        with Revision.open(repo, "main") as revision:
            listed = revision.paths()
        listing = time.perf_counter() - started
        started = time.perf_counter()
        finder = PathFinder(listed)
        build = time.perf_counter() - started
    print(f"  git ls-tree -r --name-only        {ls_tree * 1000:8.1f} ms")
    print(f"  Revision.open + paths()           {listing * 1000:8.1f} ms")
    print(f"  PathFinder index build            {build * 1000:8.1f} ms (once per revision)")

    queries = QUERIES[:3] if small else QUERIES
    typed = keystrokes(queries)
    ours = time_each(lambda q: finder.search(q, limit=50), typed)
    # as the finder screen does: between keystrokes it readies the typed query's candidates
    fresh = PathFinder(listed)
    prepared = []
    for query in typed:
        started = time.perf_counter()
        fresh.search(query, limit=50)
        prepared.append(time.perf_counter() - started)
        fresh.prepare(query)
    # the naive baseline: score every path with WRatio at every keystroke
    baseline_typed = typed if not small else typed[:10]
    naive = time_each(
        lambda q: process.extract(q, paths, scorer=fuzz.WRatio, limit=50), baseline_typed
    )
    rows = (
        ("PathFinder.search (cold)", ours),
        ("search, prepared", prepared),
        ("naive extract WRatio", naive),
    )
    for name, times in rows:
        p50, p95 = statistics.median(times) * 1000, percentile(times, 0.95) * 1000
        print(
            f"  {name:<24} {len(times):4d} keystrokes  p50 {p50:7.1f} ms"
            f"  p95 {p95:7.1f} ms  max {max(times) * 1000:7.1f} ms"
        )
    ratio = statistics.median(naive) / statistics.median(ours)
    print(f"  ratio (naive p50 / ours p50): {ratio:.1f}x")
    for query in queries[:3]:
        best = finder.search(query, limit=1)
        print(f"  best for {query!r}: {best[0].path if best else '(none)'}")


def rare_identifier(revision: Revision) -> str:
    """The first function name defined in some file of the middle of the tree."""
    import re

    paths = revision.paths()
    for path in paths[len(paths) // 2 :]:
        found = re.search(r"(?:def|function)\s+(\w{6,})", revision.read(path).text)
        if found:
            return found[1]
    return "no-such-identifier"


def bench_grep(small: bool) -> None:
    from synthetic import synthetic_repo

    files, megabytes = (1000, 20.0) if small else (5000, 200.0)
    started = time.perf_counter()
    repo = synthetic_repo(files, megabytes)
    print(f"== grep: synthetic repository {files:,} files, ~{megabytes:g} MB ({repo.name})")
    print(f"  repository ready in {time.perf_counter() - started:.1f} s")
    with Revision.open(repo, "main") as revision:
        commit = revision.commit
        revision.paths()
        rare = rare_identifier(revision)
        cases = [
            ("rare identifier, fixed", rare, {"fixed": True}),
            ("common word, fixed", "timeout", {"fixed": True}),
            ("regex", r"retries: [0-9]+ \}", {}),
            ("ignore case, fixed", "ESCALATE", {"fixed": True, "ignore_case": True}),
        ]
        # warm the page cache once so that neither side pays for the first read
        subprocess.run(
            ["git", "grep", "-c", "-F", "-e", "warmup", commit],
            cwd=repo,
            capture_output=True,
            env=safe_environment(),
            check=False,
        )
        ratios = []
        for label, pattern, options in cases:
            args = ["git", "grep", "-n", "-z", "-I", "--no-color"]
            args.append("-F" if options.get("fixed") else ("-P" if revision.has_pcre() else "-E"))
            if options.get("ignore_case"):
                args.append("-i")
            started = time.perf_counter()
            result = subprocess.run(
                [*args, "-e", pattern, commit],
                cwd=repo,
                capture_output=True,
                env=safe_environment(),
                check=False,
            )
            plain = time.perf_counter() - started
            plain_hits = result.stdout.count(b"\n")
            started = time.perf_counter()
            first: float | None = None
            hits = 0
            for _hit in revision.grep(pattern, **options):  # type: ignore[arg-type]
                if first is None:
                    first = time.perf_counter() - started
                hits += 1
            ours = time.perf_counter() - started
            assert hits == plain_hits, (label, hits, plain_hits)
            ratios.append(ours / plain)
            first_text = f"{first * 1000:7.1f} ms" if first is not None else "   none"
            print(
                f"  {label:<24} {hits:7,d} hits  git grep {plain * 1000:7.1f} ms"
                f"  Revision.grep {ours * 1000:7.1f} ms (first hit {first_text})"
                f"  ratio {ours / plain:.2f}x"
            )
        print(f"  Revision.grep / git grep, median ratio: {statistics.median(ratios):.2f}x")


def bench_finder_ui(small: bool) -> None:
    """Keypress to updated result list in the real FileFinder (run_test), beside a bare Input."""
    import asyncio

    from textual.app import App, ComposeResult
    from textual.widgets import Input

    from screens.finder import FileFinder

    paths = synthetic_paths(N_PATHS)
    typed = QUERIES[0] if small else QUERIES[0] + " " + QUERIES[3]

    class FinderApp(App[None]):
        def on_mount(self) -> None:
            self.push_screen(FileFinder(paths))

    class InputApp(App[None]):
        def compose(self) -> ComposeResult:
            yield Input()

    async def measure(app: App[None], done: Callable[[App[None], str], bool]) -> list[float]:
        times = []
        async with app.run_test() as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            text = ""
            for char in typed:
                text += char
                started = time.perf_counter()
                await pilot.press("space" if char == " " else char)
                while not done(app, text):
                    await asyncio.sleep(0.001)
                times.append(time.perf_counter() - started)
        return times

    def finder_done(app: App[None], text: str) -> bool:
        screen = app.screen
        return isinstance(screen, FileFinder) and screen.searched == text

    def input_done(app: App[None], text: str) -> bool:
        return app.query_one(Input).value == text

    ours = asyncio.run(measure(FinderApp(), finder_done))
    bare = asyncio.run(measure(InputApp(), input_done))
    print(f"== finder in the UI: {N_PATHS:,} paths, typing {typed!r}")
    for name, times in (
        ("FileFinder (keypress->list)", ours),
        ("bare Input (keypress->echo)", bare),
    ):
        p50, p95 = statistics.median(times) * 1000, percentile(times, 0.95) * 1000
        print(f"  {name:<28} p50 {p50:7.1f} ms  p95 {p95:7.1f} ms  max {max(times) * 1000:7.1f} ms")
    ratio = statistics.median(ours) / statistics.median(bare)
    print(f"  ratio (finder p50 / bare input p50): {ratio:.1f}x")


#: a fresh process's first lexer by file name (what the first highlighted file and each
#: `assay show` pay), importlib.metadata imported first as both need it for Pygments' plugins
_FIRST_LEXER = """
import sys, time
sys.path.insert(0, {root!r})
import importlib.metadata, pygments.lexers
start = time.perf_counter()
{lookup}
print(time.perf_counter() - start)
"""


def bench_first_lexer(rounds: int = 10) -> None:
    """evidence.syntax's lexer for a new file name beside Pygments' own lookup, alternated."""
    ours = "from evidence.syntax import lexer_for; lexer_for('src/app.py')"
    pygments = "pygments.lexers.get_lexer_for_filename('src/app.py')"
    times: dict[str, list[float]] = {"ours": [], "pygments": []}
    for _ in range(rounds):
        for name, lookup in (("ours", ours), ("pygments", pygments)):
            code = _FIRST_LEXER.format(root=str(ROOT), lookup=lookup)
            out = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True)
            times[name].append(float(out.stdout))
    mine, theirs = (statistics.median(times[k]) * 1000 for k in ("ours", "pygments"))
    print(
        f"first lexer of a process: {mine:.1f} ms; Pygments' get_lexer_for_filename "
        f"{theirs:.1f} ms; ratio {mine / theirs:.2f}x"
    )


def main() -> None:
    small = "--small" in sys.argv[1:]
    bench_first_lexer()
    bench_finder(small)
    bench_finder_ui(small)
    bench_grep(small)


if __name__ == "__main__":
    main()
