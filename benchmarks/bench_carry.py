"""Verdicts following their findings into a scan of edited code (db/carry.py), at the size of
ruff's every-rule scan of pygments.

A generated scan of N results (Bandit's shape: a snippet, no fingerprints, so an id is the rule
and location) in 2,000 files, every result with a verdict; then the same scan with every line
moved down by three (each result another id). Prints, from one run:

- `VerdictStore.carry` of the moved scan (pairing its results with the last scan's and carrying
  the verdicts, before registering it), beside `VerdictStore.register` of the same scan: the
  work the review's writer thread does at that moment anyway (the baseline);
- `carry` again at the next launch (nothing moved since), beside `register` again;
- how many verdicts followed, and that none went to a result of other code.

Usage: .venv/bin/python benchmarks/bench_carry.py [N_RESULTS]
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from db.keys import ItemRef  # noqa: E402
from db.store import VerdictStore  # noqa: E402
from evidence.model import Report, ReportSet  # noqa: E402
from evidence.sarif.reader import load_sarif  # noqa: E402

FILES = 2_000
RULES = ("B101", "B105", "B311", "B603", "B607")


def scan(n_results: int, shift: int) -> Report:
    results: list[dict[str, Any]] = []
    for number in range(n_results):
        line = 10 + (number // FILES) * 7 + shift
        region = {
            "startLine": line,
            "endLine": line,
            "snippet": {"text": f"call_{number % 977}(x)"},
        }
        results.append(
            {
                "ruleId": RULES[number % len(RULES)],
                "message": {"text": "a finding"},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": {"uri": f"pkg/m{number % FILES}.py"},
                            "region": region,
                        }
                    }
                ],
            }
        )
    log = {
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "Bandit"}}, "results": results}],
    }
    (report,) = load_sarif(json.dumps(log).encode(), "scan.sarif")
    return report


def timed(work: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    result = work()
    return time.perf_counter() - start, result


def main() -> int:
    n_results = int(sys.argv[1]) if len(sys.argv) > 1 else 135_130
    before, after = scan(n_results, 0), scan(n_results, 3)
    assert not {r.id for r in before.records} & {r.id for r in after.records}
    with tempfile.TemporaryDirectory() as tmp, VerdictStore.open(Path(tmp) / "v.db") as store:
        store.register(ReportSet((before,)))
        store.give_many(
            [ItemRef.for_record(before, r) for r in before.records], "refuted", reviewer="ann"
        )
        carry, carried = timed(lambda: store.carry([after], reviewer="ann"))
        register, _ = timed(lambda: store.register(ReportSet((after,))))
        again, nothing = timed(lambda: store.carry([after], reviewer="ann"))
        register_again, _ = timed(lambda: store.register(ReportSet((after,))))
        old = {r.id: r for r in before.records}
        new = {r.id: r for r in after.records}
        wrong = sum(
            (
                old[gone.record].section,
                old[gone.record].quotes[0].path,
                old[gone.record].quotes[0].text,
            )
            != (
                new[came.record].section,
                new[came.record].quotes[0].path,
                new[came.record].quotes[0].text,
            )
            for came, gone in zip(carried.events, carried.closed, strict=True)
        )
    followed = sum(carried.findings.values())
    print(
        f"scan of {n_results:,} results in {FILES:,} files,"
        " every line moved by 3 (every id changed)"
    )
    print(
        f"carry:          {carry:6.2f} s  ({followed:,} verdicts followed, {wrong} to other code)"
    )
    print(f"register:       {register:6.2f} s  (baseline)  ratio {carry / register:.2f}x")
    print(f"carry again:    {again:6.2f} s  ({sum(nothing.findings.values())} followed)")
    print(
        f"register again: {register_again:6.2f} s  (baseline)  ratio {again / register_again:.2f}x"
    )
    print(f"(load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}, {os.cpu_count()} cores)")
    return 0 if wrong == 0 and followed == n_results and not nothing.events else 1


if __name__ == "__main__":
    sys.exit(main())
