"""SARIF triage under Pilot: ruff's and Bandit's results of the sample (small files written in
their shapes) listed by rule, file or severity; the header names both tools; a verdict on a
result's only location is the result's."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from screenkit import press

from evidence.model import ReportSet
from evidence.reports.loading import load_reports
from evidence.revision import Revision
from evidence.sample import CITED_REVISION
from evidence.sarif.rebase import rebase_paths
from keymaps import Keymap, load_keymap
from screens.help import HelpScreen
from screens.review.screen import ReviewScreen
from screens.widgets.footer import KeysBar
from screens.widgets.records_pane import ResultRow
from screens.widgets.review_header import ReviewHeader
from tui.cli import cli
from tui.factory import make_app, make_demo_app

TESTS = Path(__file__).resolve().parents[1]
RUFF = TESTS / "evidence" / "sarif" / "ruff-kestrel.sarif"
BANDIT = TESTS / "evidence" / "sarif" / "bandit-kestrel.sarif"
SCHEMA = json.loads((TESTS / "db" / "sarif-schema-2.1.0.json").read_text())
SIZES = pytest.mark.parametrize("size", [(120, 40), (80, 24)], ids=["120x40", "80x24"])


def listed(screen: ReviewScreen) -> list[str]:
    """Each line of the records pane as drawn (the whole list, not only what is in view)."""
    pane = screen.records_pane
    width = pane.scrollable_content_region.width
    return [pane.draw_row(n, width, pane.get_visual_style())[0].text for n in range(len(pane.rows))]


def scans(sample: Path) -> ReportSet:
    """Both files, their paths found in the sample as `assay review` finds them."""
    reportset = load_reports([RUFF, BANDIT])
    with Revision.open(sample, CITED_REVISION) as revision:
        return rebase_paths(reportset, revision.entries())


def groups(screen: ReviewScreen) -> list[str]:
    """The group headings the records pane lists (label, then count and severity)."""
    rows = screen.session.rows(screen.filter)
    return [f"{row.text}  {row.detail}" for row in rows if row.kind == "group"]


@SIZES
async def test_results_are_grouped_by_rule_file_or_severity(
    tmp_path: Path, sample: Path, keymap: Keymap, size: tuple[int, int]
) -> None:
    app = make_app(scans(sample), sample, CITED_REVISION, tmp_path / "t.db", "t", keymap)
    async with app.run_test(size=size) as pilot:
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await screen.settle()
        await pilot.pause()
        header = str(screen.query_one(ReviewHeader).render())
        assert "ruff + Bandit" in header  # every tool loaded, not the first run's alone
        # anchored: the other groupings were made with it, off the event loop
        assert list(screen.session.results._groups) == ["rule", "file", "severity"]
        pane = screen.records_pane
        assert pane.border_title == "Records by rule"
        headings = groups(screen)
        # one group per rule: the worst severity first, then the most results; UP045 once
        assert [h.split()[0] for h in headings] == [
            "UP045",
            "F401",
            "B324",
            "D103",
            "E501",
            "B608",
            "B404",
        ]
        assert headings[0].startswith("UP045  3 · error")
        if size[0] >= 120:  # the rule's name when the scanner gives one, and its tool
            assert headings[0] == "UP045  3 · error · ruff"
            assert headings[2].startswith("B324  1 · error · hashlib · Ba")
        # the list's first record is shown first; under its rule's heading a row reads
        # file:line and the message (the heading names the rule)
        assert screen.record is not None and screen.record.section == "UP045"
        rows = listed(screen)
        assert rows.count(" UP045  3 · error · ruff"[: len(rows[1])]) == 1  # drawn, cut to fit
        heading = rows.index(" UP045  3 · error · ruff"[: len(rows[1])])
        up045 = rows[heading + 1 : heading + 4]
        assert not any("UP045" in line for line in up045)
        assert "· auth.py:36 Use `X" in up045[0]  # cut: the message, then the directories
        whole = str(pane.prompt(screen.location.record).content(0))
        assert whole.endswith("· api/kestrel/auth.py:36 Use `X | None` for type annotations")
        # n walks the list: the other UP045 results in file order, then the next rule
        seen = []
        for _ in range(3):
            await press(pilot, screen, "n")
            seen.append((screen.record.section, screen.record.quotes[0].path))
        assert seen == [
            ("UP045", "api/kestrel/config.py"),
            ("UP045", "api/server.py"),
            ("F401", "api/kestrel/auth.py"),
        ]
        record = screen.record

        await press(pilot, screen, "v")
        assert pane.border_title == "Records by file"
        assert [h.split()[0] for h in groups(screen)] == [
            "api/kestrel/auth.py",
            "api/kestrel/config.py",
            "api/kestrel/storage.py",
            "api/server.py",
        ]
        assert groups(screen)[0].endswith("4 · error")
        assert screen.record is record  # regrouping keeps the record shown, under the cursor
        assert pane.highlighted is not None
        assert pane.rows[pane.highlighted] == screen.location.record

        await press(pilot, screen, "v")
        assert pane.border_title == "Records by severity"
        assert groups(screen) == ["error  8", "warning  2", "note  1"]
        await press(pilot, screen, "v")
        assert pane.border_title == "Records by rule"
        await press(pilot, screen, "q")
    app.close()


@SIZES
async def test_the_grouping_key_is_shown_in_help_and_footer(
    tmp_path: Path, sample: Path, keymap: Keymap, size: tuple[int, int]
) -> None:
    app = make_app(scans(sample), sample, CITED_REVISION, tmp_path / "t.db", "t", keymap)
    async with app.run_test(size=size) as pilot:
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await screen.settle()
        await pilot.pause()
        bindings = {b.binding.id: key for key, b in screen.active_bindings.items()}
        assert bindings["group_results"] == "v"
        if size[0] >= 120:
            assert "v Group by" in str(screen.query_one(KeysBar).render())
        await press(pilot, screen, "question_mark")
        assert isinstance(app.screen, HelpScreen)
        helped = "\n".join(str(w.render()) for w in app.screen.query("*") if hasattr(w, "render"))
        assert "Group by" in helped
    app.close()


async def test_a_review_of_reports_has_no_grouping_key(tmp_path: Path, sample: Path) -> None:
    app = make_demo_app(tmp_path, reviewer="t", keymap=load_keymap(user=False))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await screen.settle()
        ids = {b.binding.id for b in screen.active_bindings.values()}
        assert "group_results" not in ids and "filter" in ids
        rows = len(screen.records_pane.rows)
        await press(pilot, screen, "v")
        assert len(screen.records_pane.rows) == rows
        assert screen.records_pane.border_title == "Records"
    app.close()


def test_the_vim_preset_binds_the_grouping_key() -> None:
    assert load_keymap("vim", user=False).keys_for("group_results") == ("v",)


@SIZES
async def test_a_verdict_on_the_only_location_is_the_results(
    tmp_path: Path, sample: Path, keymap: Keymap, size: tuple[int, int]
) -> None:
    db = tmp_path / "t.db"
    app = make_app(scans(sample), sample, CITED_REVISION, db, "t", keymap)
    async with app.run_test(size=size) as pilot:
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await screen.settle()
        await pilot.pause()
        record = screen.record
        assert record is not None and record.section == "UP045" and len(record.quotes) == 1
        # select the location, refute it with a note
        await press(pilot, screen, "right_square_bracket")
        target = str(screen.query_one("#target").render())
        assert "quote [1] (the result's only location: its verdict)" in target
        await press(pilot, screen, "r", "e")
        await pilot.press(*"digest of a token")
        await press(pilot, screen, "ctrl+s")
        session = screen.session
        assert session.verdict(session.record_item(record)) is None  # given on the location
        assert session.badge(record) == "✗"
        row = screen.records_pane.rows.index(screen.location.record)
        assert listed(screen)[row].lstrip().startswith("✗")
        head = str(screen.record_pane.row(0).prompt)
        assert "verdict: refuted (on its only location)" in head
        progress = session.progress()
        assert progress.records_reviewed == 1 and progress.records_refuted == 1
        # the "unreviewed" filter no longer lists it: its group counts the others of its rule
        assert not session.visible(record, "unreviewed")
        await press(pilot, screen, "f")
        assert screen.filter == "unreviewed"
        assert groups(screen)[0] == "UP045  2/3 · error · ruff"
        assert screen.records_pane.border_title == "Records by rule"
        assert screen.records_pane.border_subtitle == "10/11 unreviewed"
        await press(pilot, screen, "q")
    app.close()

    out = tmp_path / "triaged.sarif"
    result = CliRunner().invoke(
        cli, ["export", "--db", str(db), "--format", "sarif", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    document = json.loads(out.read_text())
    jsonschema.Draft4Validator(SCHEMA).validate(document)
    assert [run["tool"]["driver"]["name"] for run in document["runs"]] == ["ruff", "Bandit"]
    refuted = next(r for r in document["runs"][0]["results"] if "suppressions" in r)
    assert refuted["ruleId"] == "UP045"
    assert refuted["locations"][0]["physicalLocation"]["region"]["startLine"] == 36
    assert refuted["suppressions"][0]["status"] == "accepted"
    assert refuted["suppressions"][0]["justification"] == "digest of a token"
    assert sum("suppressions" in r for r in document["runs"][0]["results"]) == 1


async def test_a_regrouped_record_is_seen_under_its_group_heading(
    tmp_path: Path, sample: Path, keymap: Keymap
) -> None:
    # 60 results of three rules over two files: each group is longer than the list is high
    results = [
        {
            "ruleId": f"R{n % 3}",
            "level": "warning",
            "message": {"text": f"finding {n}"},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {
                            "uri": ("api/server.py", "api/kestrel/auth.py")[n % 2]
                        },
                        "region": {"startLine": n % 40 + 1},
                    }
                }
            ],
        }
        for n in range(60)
    ]
    scan = tmp_path / "scan.sarif"
    scan.write_text(
        json.dumps(
            {
                "version": "2.1.0",
                "runs": [{"tool": {"driver": {"name": "lint"}}, "results": results}],
            }
        )
    )
    app = make_app(load_reports([scan]), sample, CITED_REVISION, tmp_path / "t.db", "t", keymap)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await screen.settle()
        pane = screen.records_pane
        for _ in range(25):  # deep into the first rule's group
            await pilot.press("n")
        await press(pilot, screen, "v")
        cursor = pane.highlighted
        assert cursor is not None
        heading = max(n for n in range(cursor) if pane.rows[n] < 0)
        height = pane.scrollable_content_region.height
        assert cursor - heading < height  # the file's heading and the record fit together
        assert pane.scroll_y == heading
    app.close()


@pytest.mark.parametrize(
    ("width", "shown"),
    [
        (0, "  · S101 benchmarks/bench_anchoring.py:223 Use of `assert` detected"),
        (60, "  · S101 benchmarks/bench_anchoring.py:223 Use of `assert`…"),
        (40, "  · S101 bench_anchoring.py:223 Use of…"),
        (26, "  · S101 bench_ancho…:223"),  # no message rather than a letter of it
    ],
)
def test_a_narrow_result_row_keeps_the_rule_and_line(width: int, shown: str) -> None:
    row = ResultRow(
        "·", "S101", "benchmarks/bench_anchoring.py:223", "Use of `assert` detected", ""
    )
    assert str(row.content(width)) == shown


@pytest.mark.parametrize(
    ("width", "shown"),
    [
        (0, "  · python.lang.security.audit.subprocess-shell-true api/run.py:12 shell=True"),
        (50, "  · …subprocess-shell-true run.py:12 shell=True"),
        (40, "  · …subprocess-shell-true run.py:12"),
        (30, "  · …subprocess-sh… run.py:12"),
        (26, "  · …subproces… run.py:12"),  # the rule: at most half, cut
    ],
)
def test_a_long_rule_id_gives_way_to_its_last_part_then_is_cut(width: int, shown: str) -> None:
    rule = "python.lang.security.audit.subprocess-shell-true"
    row = ResultRow("·", rule, "api/run.py:12", "shell=True", "")
    assert str(row.content(width)).rstrip() == shown


def test_a_rule_id_keeps_the_words_before_it_and_ids_without_parts_are_cut() -> None:
    from screens.widgets.result_line import shortened

    assert shortened("kestrel  py/sql-injection", 40) == "kestrel  py/sql-injection"
    assert shortened("kestrel  py/sql-injection", 20) == "kestrel  …sql-injec…"
    assert shortened("python:S1234", 8) == "…S1234"
    assert shortened("CKV_AWS_20_LONG_NAME", 8) == "CKV_AWS…"
    assert shortened("rule.", 3) == "ru…"  # no last part to keep
    # numbered ids differ at their end: Checkov's CKV_AWS_293 and CKV_AWS_226 read the same cut
    # at it ("CKV_AWS_2…")
    assert shortened("CKV_AWS_293", 10) == "…V_AWS_293"
    assert shortened("CKV_AWS_226", 8) == "…AWS_226"
    assert shortened("kestrel  CKV_AWS_293", 12) == "…CKV_AWS_293"


def test_the_other_groupings_are_made_off_the_first_frame_the_same_either_way(
    sample: Path,
) -> None:
    # each way of grouping is a pass over every result (0.1 s at 135,000): the first screen
    # made all three; the other two are now made with the anchoring, or when `v` comes first
    from evidence.sarif.triage import GROUPINGS
    from screens.session import ReviewSession

    early = ReviewSession(scans(sample), "t").results
    assert list(early._groups) == [GROUPINGS[0]]
    late = ReviewSession(scans(sample), "t").results
    late.prepare()
    assert list(late._groups) == list(GROUPINGS)
    for grouping in GROUPINGS:  # `v` before the anchoring: grouped when asked, the same groups
        early.grouping = late.grouping = grouping
        assert early.groups() == late.groups() and early.groups()
    assert list(early._groups) == list(GROUPINGS)


#: Semgrep names a rule by the path of its file of rules, 40 cells and more
LONG = "python.lang.maintainability.typing.{}.{}"


@SIZES
async def test_rows_of_rules_with_long_ids_say_where_each_result_is(
    tmp_path: Path, sample: Path, keymap: Keymap, size: tuple[int, int]
) -> None:
    # every row of a rule's results read "· python.lang.maintaina…", cut: the rule again, in
    # each row under the heading that named it, and nothing that told the results apart
    document = json.loads(RUFF.read_text())
    run = document["runs"][0]
    for rule in run["tool"]["driver"]["rules"]:
        rule["id"] = LONG.format(rule["id"], rule["id"].lower())
    for result in run["results"]:
        result["ruleId"] = LONG.format(result["ruleId"], result["ruleId"].lower())
    scan = tmp_path / "semgrep.sarif"
    scan.write_text(json.dumps(document))
    reportset = load_reports([scan])
    with Revision.open(sample, CITED_REVISION) as revision:
        reportset = rebase_paths(reportset, revision.entries())
    app = make_app(reportset, sample, CITED_REVISION, tmp_path / "t.db", "t", keymap)
    async with app.run_test(size=size) as pilot:
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await screen.settle()
        await pilot.pause()
        rows = listed(screen)
        heading = rows.index(next(row for row in rows if "up045" in row))
        # the heading keeps the part of the id that names the rule
        assert rows[heading].startswith(" …up045") or rows[heading].startswith(" " + LONG[:12])
        results = rows[heading + 1 : heading + 4]
        assert [row.split()[1] for row in results] == ["auth.py:36", "config.py:23", "server.py:11"]
        assert len(set(results)) == 3 and not any("python.lang" in row for row in results)

        await press(pilot, screen, "v")  # by file: the rule's last part and the line
        rows = listed(screen)
        ours = [row for row in rows if row.startswith("  · ") and "up045" in row]
        lines = [["…up045", "line", n] for n in ("36", "23", "11")]
        assert [row.split()[1:4] for row in ours] == lines
        assert not any(".py" in row for row in rows if row.startswith("  · "))  # the heading's
        headings = [row for row in rows if row.startswith(" ") and not row.startswith("  · ")]
        assert any(row.startswith(" api/kestrel/auth.py") for row in headings), headings
        await press(pilot, screen, "q")
    app.close()
