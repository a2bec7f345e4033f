"""SARIF triage: a 20,000-result review's records list opened, grouped and regrouped by key.

The log is shaped like ruff's output over a large code base: every result one location without
a snippet, 200 rules of three levels (a few with a security-severity score), spread over the
sample repository's files. Prints, from one run, for the review app (Textual's run_test(),
120x40, the real records pane):

- the review session made (each result's facts read, the three groupings computed), as the
  SARIF file loads;
- the list opened: the records pane filled with every row and painted;
- `v`'s action run three times (by file, by severity, by rule again): regrouped, refilled and
  painted (the notice it shows too);
- the review's first count of its progress (the header's, once anchored, on the event loop),
  verdicts on one record in a hundred, the store items' keys made beforehand (in the anchoring
  worker, as the app does);

and beside each, the baseline: an OptionList of the same rows (the groups' headings disabled)
filled and painted, then cleared and filled again with the regrouped rows, in an app of its
own. The issue asks for under 100 ms per key (wall time; the CPU time is printed beside, as
a busy machine's wall times wander).

Usage: .venv/bin/python benchmarks/bench_triage.py [N_RESULTS]
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from frames import frame  # noqa: E402
from textual.app import App, ComposeResult  # noqa: E402
from textual.widgets import OptionList  # noqa: E402
from textual.widgets.option_list import Option  # noqa: E402

from evidence.model import ReportSet  # noqa: E402
from evidence.reports.loading import load_reports  # noqa: E402
from evidence.revision import Revision  # noqa: E402
from evidence.sample import CITED_REVISION, sample_repo  # noqa: E402
from keymaps import load_keymap  # noqa: E402
from screens.session import ReviewSession  # noqa: E402

WORK = Path(__file__).resolve().parent / ".work"
SIZE = (120, 40)
LIMIT_MS = 100.0
N_RULES = 200


def generate(path: Path, n_results: int, revision: Revision) -> None:
    """Write a ruff-shaped SARIF log of ``n_results`` results (deterministic for a size)."""
    rng = random.Random(23)
    files = []
    for name in revision.paths():
        source = revision.read(name)
        if source.state.value == "ok" and len(source.lines) > 1:
            files.append((name, len(source.lines)))
    levels = ("error", "warning", "note")
    rules = []
    for n in range(N_RULES):
        rule: dict[str, Any] = {
            "id": f"R{n:03d}",
            "name": f"rule-{n}",
            "shortDescription": {"text": f"Rule {n}"},
            "defaultConfiguration": {"level": levels[n % 3]},
        }
        if n % 20 == 0:
            rule["properties"] = {"security-severity": f"{(n // 20) % 10 + 0.5:.1f}"}
        rules.append(rule)
    results = []
    for number in range(n_results):
        ruled = min(int(rng.expovariate(1 / 30)), N_RULES - 1)  # a few rules hold most results
        name, count = files[rng.randrange(len(files))]
        line = rng.randrange(1, count + 1)
        results.append(
            {
                "ruleId": rules[ruled]["id"],
                "ruleIndex": ruled,
                "level": levels[ruled % 3],
                "message": {"text": f"Rule {ruled} fires here ({number}): a message of some words"},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": {"uri": f"file:///home/ci/kestrel/{name}"},
                            "region": {"startLine": line, "startColumn": 1, "endColumn": 2},
                        }
                    }
                ],
            }
        )
    document = {
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "ruff", "version": "0.17.6", "rules": rules}},
                  "results": results}],
    }  # fmt: skip
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document), encoding="utf-8")


async def paint(pilot: Pilot[Any]) -> None:
    """Let pending messages run and paint one frame (not waiting for background workers),
    measured as bench_app measures a key's frame: through Textual's public API."""
    await frame(pilot.app)


def option_rows(session: ReviewSession) -> list[Option]:
    """The records pane's rows as OptionList options: headings disabled, records by their row."""
    from screens.widgets.records_pane import RecordsPane

    pane = RecordsPane(session)  # only to make each record's row text, as the pane draws it
    options = []
    for row in session.rows("all"):
        if row.kind == "record":
            options.append(Option(str(pane.prompt(row.position).content(32)), id=str(row.position)))
        else:
            options.append(Option(f"{row.text}  {row.detail}", disabled=True))
    return options


class ListApp(App[None]):
    def compose(self) -> ComposeResult:
        yield OptionList()


async def baseline(session: ReviewSession, groupings: int) -> tuple[float, list[float]]:
    """(ms to fill and paint an OptionList of the rows, ms per refill with the next grouping)."""
    app = ListApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        options = app.query_one(OptionList)
        rows = option_rows(session)
        start = time.perf_counter()
        options.add_options(rows)
        await paint(pilot)
        opened = (time.perf_counter() - start) * 1000
        refills = []
        for _ in range(groupings):
            session.cycle_grouping()
            rows = option_rows(session)  # made outside the timing: the list's own work is timed
            start = time.perf_counter()
            options.clear_options()
            options.add_options(rows)
            await paint(pilot)
            refills.append((time.perf_counter() - start) * 1000)
    return opened, refills


async def review(
    reportset: ReportSet, repo: Path, db: Path, groupings: int
) -> tuple[tuple[float, float], list[tuple[str, float, float]]]:
    """((wall, CPU) ms to fill and paint the records pane, (grouping, wall, CPU ms) per `v`) in
    the review app."""
    from screens.review.screen import ReviewScreen
    from tui.factory import make_app

    app = make_app(reportset, repo, CITED_REVISION, db, "bench", load_keymap(user=False))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await screen.settle()  # anchored, verdicts read: nothing else runs during the timings
        await pilot.pause()
        start, cpu = time.perf_counter(), time.process_time()
        screen.moves.fill_records()
        await paint(pilot)
        opened = ((time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000)
        presses = []
        for _ in range(groupings):
            before = screen.session.results.grouping
            start, cpu = time.perf_counter(), time.process_time()
            # what `v` runs (screens/review/keys.py), without Pilot's waits
            await app.run_action("view('grouping')", screen)
            await paint(pilot)
            wall, used = time.perf_counter() - start, time.process_time() - cpu
            # an action name that no longer runs anything timed nothing (until 2026-12-04)
            assert screen.session.results.grouping != before, "the grouping did not change"
            presses.append((screen.session.results.grouping, wall * 1000, used * 1000))
            app.clear_notifications()
            await pilot.pause()
    app.close()
    return opened, presses


def first_count(reportset: ReportSet) -> None:
    """Print the event loop's part of the review's first progress count, verdicts on one
    record in a hundred (the store items' keys made beforehand, in the anchoring worker)."""
    from db.events import Event
    from db.keys import Verdict

    session = ReviewSession(reportset, "bench")
    start = time.perf_counter()
    for record in session.records:  # screens/review/loading.py's `anchor_review`, in its worker
        session.item_keys(record)
    session.records_with_key("")
    keys = (time.perf_counter() - start) * 1000
    events = {}
    for n, record in enumerate(session.records[::100]):
        ref = session.record_item(record)
        events[ref.key] = Event(
            f"e{n}",
            ref.key,
            ref.report,
            ref.record,
            None,
            "bench",
            Verdict.CONFIRMED,
            None,
            "",
            None,
        )
    session.current = events
    start = time.perf_counter()
    session.progress()
    counted = (time.perf_counter() - start) * 1000
    print(
        f"first progress count on the event loop ({len(events)} verdicts): {counted:.1f} ms "
        f"(the keys made in the worker first: {keys:.1f} ms; until 2026-12-04 every record was "
        "counted there, the keys made by the count: 167 ms)"
    )


def generated(n_results: int) -> tuple[Path, Path, ReportSet]:
    """The sample repository, the log of ``n_results`` results (written once) and its reports,
    their paths found in the sample as `assay review` finds them."""
    from evidence.sarif.rebase import rebase_paths

    repo = sample_repo(WORK / "sample")
    path = WORK / f"triage-{n_results}.sarif"
    with Revision.open(repo, CITED_REVISION) as revision:
        if not path.exists():
            generate(path, n_results, revision)
        return repo, path, rebase_paths(load_reports([path]), revision.entries())


def main() -> int:
    n_results = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    repo, path, reportset = generated(n_results)
    start, cpu = time.perf_counter(), time.process_time()
    session = ReviewSession(reportset, "bench")
    made, made_cpu = (time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000
    groups = len(session.results.groups())
    print(f"{path.name}: {n_results} results, {groups} rules, {len(session.rows())} rows")
    print(f"session made (facts read, the three groupings): {made:.1f} ms (CPU {made_cpu:.1f} ms)")
    first_count(reportset)
    with tempfile.TemporaryDirectory() as tmp:
        opened, presses = asyncio.run(review(reportset, repo, Path(tmp) / "db.sqlite", 3))
    list_opened, refills = asyncio.run(baseline(ReviewSession(reportset, "bench"), 3))
    print(f"{'':34}{'assay':>10}{'(CPU)':>10}{'OptionList':>12}{'ratio':>8}")
    print(f"{'list opened (filled, painted)':34}{opened[0]:8.1f}ms{opened[1]:8.1f}ms"
          f"{list_opened:10.1f}ms{opened[0] / list_opened:7.2f}x")  # fmt: skip
    worst_wall, worst_cpu = opened
    for (grouping, wall, used), refill in zip(presses, refills, strict=True):
        print(f"{'v: grouped by ' + grouping:34}{wall:8.1f}ms{used:8.1f}ms{refill:10.1f}ms"
              f"{wall / refill:7.2f}x")  # fmt: skip
        worst_wall, worst_cpu = max(worst_wall, wall), max(worst_cpu, used)
    passed = worst_wall < LIMIT_MS
    print(f"{'PASS' if passed else 'FAIL'}: open and every regrouping under {LIMIT_MS:.0f} ms")
    if not passed and worst_cpu < LIMIT_MS:
        print(f"(in CPU time every one is under {LIMIT_MS:.0f} ms: the machine is busy)")
    print(f"(load average {' '.join(f'{n:.1f}' for n in os.getloadavg())}, {os.cpu_count()} cores)")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
