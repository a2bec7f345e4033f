"""The readings of untrusted text on long lines: a document read as it renders (Markdown,
reStructuredText), a notebook's strings, an HTML report, a quote's lead-in, a report's text.

Each is timed on a line of 240,000 characters made of one mark repeated (``_a ``, ``~~a ``,
``<a ``, ``:a`` ...), as a minified or hostile file holds them, beside the same line a quarter
as long (the baseline): a reading that searches from each mark to the end of the line takes 16
times as long for 4 times the line (a 60,000-character line of ``<a `` took 30 s in the HTML
reader, ``__a `` 18 s in the Markdown one, ``SRC-1, a/`` 85 s in a report's citations, before
this benchmark). Goal: no reading more than 6x
its baseline (linear is 4x; readings under 20 ms not compared), none over 0.5 s.

Usage: .venv/bin/python benchmarks/bench_readings.py [--length 240000]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's code

from evidence.anchoring.lead_in import lead_ins
from evidence.anchoring.markdown_text import markdown_text
from evidence.anchoring.notebook import notebook_text
from evidence.anchoring.rst_text import rst_text
from evidence.reports.html_text import html_text
from evidence.reports.parser import parse_report

MARKS = [
    "_a ", "__a ", "~~a ", "``a `", "`a ", "[a](", "[a][", "<a ", "<<a", "*a ", ":a", ":a:`",
    "`a <", "\\", "| a ", "a: ", ".. a", "[#", '"a\\"', "&a", "A b c: ", "](", "x__y ",
    "SRC-1, a/", "commit 1234567 ", "tag v1 ", "rg -n ", " --- a.js", "|a|", ":a:a:`", "[a] ",
]  # fmt: skip
_REPORT = "Kite runtime report\n\nType: t\n\nKite account\n\nPart\n\n"
READERS: list[tuple[str, Callable[[str], object]]] = [
    # a link label and a substitution defined, so that each [a] and |a| is looked up
    ("markdown", lambda line: markdown_text(f"{line}\n\n[a]: x\n")),
    ("rst", lambda line: rst_text(f"{line}\n.. |a| replace:: b\n")),
    ("notebook", notebook_text),
    ("html", html_text),
    ("lead-in", lead_ins),
    ("report", lambda line: parse_report(f"{_REPORT}{line}\n\nShared records\n", "r.txt")),
]


def timed(read: Callable[[str], object], text: str) -> float:
    start = time.perf_counter()
    read(text)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--length", type=int, default=240_000)
    length = parser.parse_args().length
    met = True
    print(f"each reading of a {length:,}-character line of one mark, and of a quarter of it")
    for name, read in READERS:
        rows = []
        for mark in MARKS:
            line = mark * (length // len(mark))
            quarter = max(timed(read, line[: len(line) // 4] + "\n"), 1e-4)
            whole = timed(read, line + "\n")
            # the growth of a reading under 20 ms is the timer's noise, not the reading's
            rows.append((whole / quarter if whole > 0.02 else 1.0, whole, mark))
        growth, whole, mark = max(rows)
        slowest = max(rows, key=lambda row: row[1])
        met = met and growth <= 6 and slowest[1] < 0.5
        print(
            f"  {name:9} slowest {slowest[1] * 1000:7.1f} ms ({slowest[2]!r}); most growth "
            f"{growth:4.1f}x for 4x the line ({mark!r}, {whole * 1000:.1f} ms)"
        )
    goal = "no reading over 6x its quarter line's, none over 0.5 s"
    print(f"goal: {goal}: {'met' if met else 'NOT MET'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
