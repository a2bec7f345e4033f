"""Two systems of an audit holding one report: the same report listed in both, or one system's
reports at two revisions of its repository (titled alike, so of one report identity). Verdicts
are kept per report identity: the two showed and counted each other's verdicts (a record
confirmed in one was confirmed in the other, and the audit's header counted it twice). The
later one is refused, by `assay check` and on the audit screen alike, and counts none."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from auditkit import git, make_repo, write_report
from click.testing import CliRunner
from textual.pilot import Pilot

from db.store import VerdictStore
from evidence.audit.check import check_audit
from evidence.audit.file import load_audit
from keymaps import load_keymap
from screens.audit.screen import AuditScreen, SystemsList
from screens.audit.system_review import SystemReviewScreen
from tui.audit_app import load_state, make_audit_app
from tui.cli import cli

FILES = {"src/app.py": "def handler():\n    return compute(42)\n\nLIMIT = 10\n"}

AUDIT = """\
[[system]]
name = "Alpha"
repository = "repo"
reports = ["v1"]

[[system]]
name = "Alpha v2"
repository = "repo"
reports = ["v2"]

[[system]]
name = "Copy"
repository = "repo"
reports = ["v1/alpha-runtime-report.txt"]
"""


def make_two_revisions(root: Path) -> Path:
    """Alpha's report at two commits of one repository, and the first listed again."""
    first = make_repo(root / "repo", FILES)
    (root / "repo" / "src" / "app.py").write_text(FILES["src/app.py"] + "# v2\n", "utf-8")
    git(root / "repo", "commit", "-qam", "second")
    second = git(root / "repo", "rev-parse", "HEAD")
    write_report(root / "v1", "Alpha", "AL", first)
    write_report(root / "v2", "Alpha", "AL", second)
    path = root / "assay.toml"
    path.write_text(AUDIT, encoding="utf-8")
    return path


def test_a_system_whose_reports_cannot_be_used_refuses_no_other(tmp_path: Path) -> None:
    # a glob taking every system's reports: that system is refused (reports about several
    # systems), and it made the system listed after it refused too, as holding its report
    path = make_two_revisions(tmp_path)
    write_report(tmp_path / "other", "Beta", "BE", "0" * 40)
    (tmp_path / "other" / "alpha-runtime-report.txt").write_text(
        (tmp_path / "v2" / "alpha-runtime-report.txt").read_text(), encoding="utf-8"
    )
    text = path.read_text().replace('reports = ["v1"]', 'reports = ["other"]', 1)
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", "--audit", str(path), "--format", "json"])
    systems = {each["system"]: each for each in json.loads(result.stdout)["systems"]}
    assert "about 2 systems" in systems["Alpha"]["error"]
    assert systems["Alpha v2"]["state"] == "checked"
    # v1's report is of the identity Alpha v2 holds: the first usable system's
    assert "system 'Alpha v2' holds the same report" in systems["Copy"]["error"]
    # `assay stats` and `export` count neither, and say why as check does
    database = tmp_path / "verdicts.db"
    VerdictStore.open(database).close()
    said = CliRunner().invoke(cli, ["stats", "--audit", str(path), "--db", str(database)]).stderr
    assert "assay stats: Alpha: left out, none of its verdicts counted: " in said
    assert "about 2 systems" in said
    assert "assay stats: Copy: left out, none of its verdicts counted: system 'Alpha v2'" in said


async def settled(pilot: Pilot[Any]) -> None:
    for _ in range(2):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()


def test_check_refuses_the_later_systems(tmp_path: Path) -> None:
    path = make_two_revisions(tmp_path)
    result = CliRunner().invoke(cli, ["check", "--audit", str(path), "--format", "json"])
    systems = {each["system"]: each for each in json.loads(result.stdout)["systems"]}
    assert systems["Alpha"]["state"] == "checked"
    for name in ("Alpha v2", "Copy"):
        assert systems[name]["state"] == "error"
        assert "system 'Alpha' holds the same report" in systems[name]["error"]
    # the audit screen reads the same
    errors = {entry.name: entry.error for entry in load_state(load_audit(path)).entries}
    assert errors["Alpha"] is None
    assert errors["Alpha v2"] == systems["Alpha v2"]["error"]


async def test_a_verdict_in_one_is_not_counted_in_the_other(tmp_path: Path) -> None:
    path = make_two_revisions(tmp_path)
    audit = load_audit(path)
    anchors = tmp_path / "anchors"
    check_audit(audit, anchor_cache=anchors, processes=1)
    app = make_audit_app(
        load_state(audit), tmp_path / "v.db", "ada", load_keymap(user=False), anchor_cache=anchors
    )
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, AuditScreen)
        await settled(pilot)
        names = [screen.state.entries[index].name for index in screen.order]
        screen.query_one(SystemsList).move_to(names.index("Alpha"))
        await pilot.press("enter")
        review = app.screen
        assert isinstance(review, SystemReviewScreen)
        await review.settle()
        await pilot.press("n", "c")  # one record confirmed, in Alpha
        await pilot.press("escape")
        await settled(pilot)
        assert isinstance(app.screen, AuditScreen)
        reviewed = {entry.name: entry.reviewed for entry in screen.state.entries}
        assert reviewed == {"Alpha": 1, "Alpha v2": 0, "Copy": 0}
        assert screen.state.totals()["reviewed"] == 1
        # the refused system does not open
        screen.query_one(SystemsList).move_to(names.index("Alpha v2"))
        await pilot.press("enter")
        await settled(pilot)
        assert app.screen is screen
    app.close()
    stats = CliRunner().invoke(
        cli, ["stats", "--audit", str(path), "--db", str(tmp_path / "v.db"), "--format", "json"]
    )
    counted = {
        each["system"]: each["records_reviewed"] for each in json.loads(stats.stdout)["systems"]
    }
    assert counted == {"Alpha": 1, "Alpha v2": 0, "Copy": 0}


def test_stats_and_export_say_which_systems_they_leave_out_and_why(tmp_path: Path) -> None:
    # they counted none of Alpha v2's and Copy's verdicts without a word, where `assay check`
    # says why; the reason goes to stderr, never into the data
    path = make_two_revisions(tmp_path)
    text = path.read_text().replace('repository = "repo"', 'repository = "gone"', 1)
    path.write_text(text + '\n[[system]]\nname = "Lost"\nreports = ["lost"]\n', "utf-8")
    write_report(tmp_path / "lost", "Lost", "LO", "0" * 40)
    database = tmp_path / "verdicts.db"
    VerdictStore.open(database).close()
    refused = (
        ": left out, none of its verdicts counted: system 'Alpha' holds the same report "
        "(Alpha/agentic-system-runtime-report): an audit keeps one set of verdicts per report, "
        "which the two would share; review this one in an audit of its own, with its own database"
    )
    for command in (
        ["stats"],
        ["stats", "--format", "json"],
        *(["export", "--format", fmt] for fmt in ("md", "csv", "jsonl")),
    ):
        result = CliRunner().invoke(cli, [*command, "--audit", str(path), "--db", str(database)])
        assert result.exit_code == 0, result.output
        name = f"assay {command[0]}"
        assert result.stderr.splitlines() == [
            f"{name}: Alpha: repository not on this machine ({tmp_path / 'gone'}): its quotes "
            "are not checked here",
            f"{name}: Alpha v2{refused}",
            f"{name}: Copy{refused}",
            f"{name}: Lost: repository not on this machine (no repository named): its quotes "
            "are not checked here",
        ]
        assert "holds the same report" not in result.stdout


def test_a_later_system_named_alone_is_still_left_out(tmp_path: Path) -> None:
    # --system leaves the first holder of the report out of the export, not out of the reading
    # that decides which system the report belongs to
    audit = make_two_revisions(tmp_path)
    VerdictStore.open(tmp_path / "v.db").close()
    command = ["stats", "--audit", str(audit), "--db", str(tmp_path / "v.db")]
    result = CliRunner().invoke(cli, [*command, "--system", "copy", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert [system["system"] for system in json.loads(result.stdout)["systems"]] == ["Copy"]
    assert "Copy: left out, none of its verdicts counted" in result.stderr
    assert "Alpha v2" not in result.stderr
