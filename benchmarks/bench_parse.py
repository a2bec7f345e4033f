"""Parse time for a 10 MB report built from the sample reports (target: under 2 s on one core).

Baseline, measured in the same run: decoding the bytes, splitting lines and one regular-expression
scan for quote markers, which is the least any parser of this format must do. The 1 MB and 10 MB
figures show whether the cost grows linearly with size.

Beside each parse: what the review app pays on a relaunch, `load_reports` on the same report in a
file with the parsed-report cache filled by a first load (read the file, hash it, read and decode
the cache entry, cross-check), and how many times faster than parsing that is.

Run: .venv/bin/python benchmarks/bench_parse.py
"""

from __future__ import annotations

import gc
import re
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from evidence.reports.loading import load_reports  # noqa: E402
from evidence.reports.parser import parse_report  # noqa: E402

TARGET_SECONDS = 2.0
MARKER = re.compile(r" --- \S+$", re.MULTILINE)


def sources() -> list[bytes]:
    """The project's sample reports (and the reference reports when they are present)."""
    directories = [ROOT / "sample_data" / "reports", ROOT.parent / "shared" / "reports"]
    found = [
        path.read_bytes()
        for directory in directories
        if directory.is_dir()
        for path in sorted(directory.glob("*.txt"))
    ]
    if not found:
        sys.exit("no sample reports found in sample_data/reports or ../shared/reports")
    return found


def build(size: int, parts: list[bytes]) -> bytes:
    """Concatenate the reports (blank line between) until the text is ``size`` bytes."""
    chunk = b"\n\n".join(parts) + b"\n\n"
    data = chunk * (size // len(chunk) + 1)
    return data[:size]


def best(function: Callable[[], object], repeat: int) -> float:
    """The best of ``repeat`` timings, in seconds."""
    timings = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        function()
        timings.append(time.perf_counter() - start)
    return min(timings)


def baseline(data: bytes) -> int:
    text = data.decode("utf-8", errors="replace")
    lines = text.split("\n")
    return len(lines) + len(MARKER.findall(text))


def cached_load(data: bytes, repeat: int) -> float:
    """The best time of `load_reports` on ``data`` in a file, with the cache filled beforehand."""
    with tempfile.TemporaryDirectory(prefix="bench-parse-") as scratch:
        path, cache = Path(scratch) / "big.txt", Path(scratch) / "cache"
        path.write_bytes(data)
        load_reports([path], cache=cache)  # a miss: parses and stores
        if not any(cache.glob("*.marshal")):
            sys.exit("bench_parse: the report cache stored nothing")
        return best(lambda: load_reports([path], cache=cache), repeat)


def main() -> None:
    parts = sources()
    print(f"bench_parse: {len(parts)} sample reports, {sum(map(len, parts)):,} bytes")
    results = {}
    for label, size in (("1 MB", 1_000_000), ("10 MB", 10_000_000)):
        data = build(size, parts)
        base = best(partial(baseline, data), 3)
        parsed = best(partial(parse_report, data, "big.txt"), 3 if size < 5e6 else 2)
        report = parse_report(data, "big.txt")
        quotes = sum(len(record.quotes) for record in report.records)
        results[label] = parsed
        lines = data.count(b"\n") + 1
        print(
            f"  {label:>5}: {lines:>8,} lines  {len(report.records):>6,} records  "
            f"{quotes:>6,} quotes  parse {parsed:6.3f} s  baseline {base:6.3f} s  "
            f"ratio {parsed / base:5.1f}x  {len(data) / parsed / 1e6:5.1f} MB/s"
        )
        cached = cached_load(data, 5)
        print(
            f"  {label:>5}: cached load {cached:6.3f} s (load_reports, cache hit)  "
            f"parse / cached load {parsed / cached:5.1f}x"
        )
    growth = results["10 MB"] / results["1 MB"]
    print(f"  10 MB / 1 MB time: {growth:.1f}x (linear is about 10x)")
    verdict = "met" if results["10 MB"] < TARGET_SECONDS else "MISSED"
    print(f"  target: 10 MB in under {TARGET_SECONDS:.0f} s: {verdict}")
    long_lines(parts)


#: lines a report could hold to hang a parser that backtracks: runs of spaces where its
#: patterns end in optional spaces, a search tool's name again and again
LONG_LINES: dict[str, Callable[[int], str]] = {
    "spaces": lambda n: "Label: a" + " " * n + "b\n- key: v" + " " * n + "w\nSome prose" + " " * n,
    "grep -e": lambda n: "grep -e " * (n // 8),
}


def long_lines(parts: list[bytes]) -> None:
    """Parse time of one long line of each shape, 40 KB and 160 KB, beside a sample report of
    the same size: linear is 4x from one to the other, like the sample's."""
    for name, make in LONG_LINES.items():
        figures = []
        for size in (40_000, 160_000):
            data = b"Probe runtime report\n\nType: x\n\n" + make(size).encode() + b"\n"
            same = build(len(data), parts)
            figures.append(
                (
                    best(partial(parse_report, data, "x"), 3),
                    best(partial(parse_report, same, "x"), 3),
                )
            )
        (small, small_base), (large, large_base) = figures
        print(
            f"  a line of {name!r}: 40 KB {small:.3f} s, 160 KB {large:.3f} s "
            f"({large / small:.1f}x); "
            f"a sample report of the same size {small_base:.3f} s, {large_base:.3f} s "
            f"({large_base / small_base:.1f}x)"
        )


if __name__ == "__main__":
    main()
