"""A SARIF triage session under Pilot: walk a code flow with ], give verdicts, filter by baseline
and suppression, then export the scanner's runs with the verdicts as suppressions."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
from click.testing import CliRunner
from screenkit import on_top, opened, press, reviewing

from evidence.reports.loading import load_reports
from evidence.sample import CITED_REVISION
from keymaps import Keymap
from tui.cli import cli
from tui.factory import make_app

TESTS = Path(__file__).resolve().parents[1]
CODEQL = TESTS / "evidence" / "sarif" / "codeql-kestrel.sarif"
SCHEMA = json.loads((TESTS / "db" / "sarif-schema-2.1.0.json").read_text())
SIZE = (120, 40)


async def test_sarif_triage_session(tmp_path: Path, sample: Path, keymap: Keymap) -> None:
    db = tmp_path / "triage.db"
    reportset = load_reports([CODEQL])
    app = make_app(reportset, sample, CITED_REVISION, db, "tester", keymap)
    async with app.run_test(size=SIZE) as pilot:
        screen = reviewing(app)
        await screen.settle()
        await pilot.pause()
        assert screen.session.anchored
        assert screen.record is not None
        # grouped by rule, the worst first: two rules of severity high, in file order
        assert screen.record.id.startswith("py/token-scope-bypass:")
        await press(pilot, screen, "n")
        assert screen.record.id.startswith("py/weak-sensitive-data-hashing:")
        # its level and baseline state are fields and statuses both: each said once
        details = str(screen.record_pane.row(1).prompt)
        assert details.count("level: warning") == 1, details
        assert details.count("unchanged") == 1 and "precision: high" in details, details

        # refute the result with a note: it becomes a suppression on export
        await press(pilot, screen, "r", "e")
        await pilot.press(*"token digest, not a password")
        await press(pilot, screen, "ctrl+s")
        assert on_top(app) is screen

        # the next rule's first result with a location is under review
        await press(pilot, screen, "n", "n")
        assert screen.record.label.startswith("Exception text flows")
        await press(pilot, screen, "u")
        # n walks the list's order: the rest of the rule, two rules of one result each, then
        # the enum lookup, confirmed
        await press(pilot, screen, "n", "n", "n", "n")
        assert screen.record.label.startswith("This enum lookup depends on")
        await press(pilot, screen, "c")

        # walk its code flow in the record pane: the location, four steps, a related location
        await press(pilot, screen, "tab")
        walked = []
        for step in range(len(screen.record.quotes)):  # the first ] selects the quote shown
            await press(pilot, screen, "right_square_bracket")
            quote = screen.quote
            assert quote is not None and quote.index == step
            assert quote.claimed is not None
            walked.append((quote.role, quote.claimed, screen.source_view.cursor_line))
        assert [role for role, _, _ in walked] == [
            "location",
            "step",
            "step",
            "step",
            "step",
            "related",
        ]
        # the source pane follows each step to its line at the cited revision
        assert [claimed[0] for _, claimed, _ in walked] == [line for _, _, line in walked]
        assert screen.source_view.path == "api/server.py"
        await press(pilot, screen, "left_square_bracket")
        assert screen.quote is not None and screen.quote.role == "step"
        # a verdict on that step (a quote of the result)
        await press(pilot, screen, "c")

        # SARIF filters: only new results, then hide the suppressed ones
        await press(pilot, screen, "shift+tab")
        for wanted in ("unreviewed", "refuted", "failing quotes", "new results"):
            await press(pilot, screen, "f")
            assert screen.filter == wanted
        shown = [screen.session.records[n] for n in screen.rows if n >= 0]
        assert shown and all(("baseline", "new") in record.statuses for record in shown)
        await press(pilot, screen, "f")
        assert screen.filter == "unsuppressed"
        labels = [screen.session.records[n].label for n in screen.rows if n >= 0]
        assert "Import of 'make_server' is not used." not in labels
        assert len(labels) == len(screen.session.records) - 1
        await press(pilot, screen, "f")
        assert screen.filter == "all"
        await press(pilot, screen, "q")
    app.close()

    # the review exports the scanner's own runs with the verdicts as suppressions
    out = tmp_path / "triaged.sarif"
    result = CliRunner().invoke(
        cli, ["export", "--db", str(db), "--format", "sarif", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    document = json.loads(out.read_text())
    jsonschema.Draft4Validator(SCHEMA).validate(document)
    hashing, exposure, lookup = document["runs"][0]["results"][:3]
    assert hashing["suppressions"] == [
        {
            "kind": "external",
            "status": "accepted",
            "justification": "token digest, not a password",
            "properties": hashing["suppressions"][0]["properties"],
        }
    ]
    assert [s["status"] for s in exposure["suppressions"]] == ["underReview"]
    assert "suppressions" not in lookup
    assert lookup["properties"]["assay"]["verdicts"][0]["verdict"] == "confirmed"
    (step,) = lookup["properties"]["assay"]["locations"]
    assert step["role"] == "step" and step["verdict"] == "confirmed"


async def test_a_results_note_names_it(tmp_path: Path, sample: Path, keymap: Keymap) -> None:
    # the record pane said "! line 9: result 9 repeats ...": a SARIF log's numbers count results
    reportset = load_reports([CODEQL])
    repeated = next(r for r in reportset.reports[0].records if r.id.endswith(" (2)"))
    app = make_app(reportset, sample, CITED_REVISION, tmp_path / "t.db", "tester", keymap)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, app, repeated.id)
        shown = [str(screen.record_pane.row(n).prompt) for n in range(screen.record_pane.row_count)]
        notes = [text for text in shown if text.startswith("! ")]
        assert notes == [f"! result 9 repeats {repeated.id.removesuffix(' (2)')} (shown as (2))"]


async def test_a_clean_scan_says_there_is_no_record(
    tmp_path: Path, sample: Path, keymap: Keymap
) -> None:
    clean = tmp_path / "clean.sarif"
    run = {"tool": {"driver": {"name": "scanner"}}, "results": []}
    clean.write_text(json.dumps({"version": "2.1.0", "runs": [run]}), encoding="utf-8")
    app = make_app(load_reports([clean]), sample, CITED_REVISION, tmp_path / "t.db", "t", keymap)
    async with app.run_test(size=SIZE) as pilot:
        screen = reviewing(app)
        await screen.settle()
        await pilot.pause()
        # it said 'no "all" records', as if a filter hid them
        shown = app.export_screenshot().replace("&#160;", " ")
        assert "no records to review" in shown and 'no "all" records' not in shown


async def test_find_lists_a_region_without_a_snippet_at_its_line(
    tmp_path: Path, sample: Path, keymap: Keymap
) -> None:
    # `/` listed ruff's results as "F401:… [1] api/server.py: " with nothing after the colon:
    # a region without a snippet has its line to say (the audit's `/` said it already)
    reportset = load_reports([TESTS / "evidence" / "sarif" / "ruff-kestrel.sarif"])
    app = make_app(reportset, sample, CITED_REVISION, tmp_path / "t.db", "tester", keymap)
    async with app.run_test(size=SIZE):
        screen = reviewing(app)
        await screen.settle()
        quotes = [t.label for t in screen.find_targets() if t.kind == "quote"]
        assert quotes and not [label for label in quotes if label.endswith(": ")]
        located = [q for r in reportset.records() for q in r.quotes if not q.text.strip()]
        assert located and all(q.claimed for q in located)
        for quote in located:
            place = f"[{quote.index + 1}] {quote.path}:{quote.claimed[0]}"  # type: ignore[index]
            assert any(label.endswith(place) for label in quotes), place
    app.close()
