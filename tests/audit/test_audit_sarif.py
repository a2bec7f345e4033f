"""One scanner run over two systems of an audit, as CI writes it: the same tool, no category, no
revision, absolute paths of the CI's checkouts. Each system keeps its own results (registered,
counted, exported apart), and each system's paths are found in its own revision by `assay
check`, by the audit screen's counts from the anchoring cache and by a system's review."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from auditkit import make_repo, write_scan
from click.testing import CliRunner
from textual.pilot import Pilot

from db import VerdictStore
from db.audit import AuditSystemRef, system_counts
from evidence.audit.check import check_audit
from evidence.audit.file import load_audit
from evidence.audit.loading import system_reports
from keymaps import load_keymap
from screens.audit.screen import AuditScreen, SystemsList
from screens.audit.system_review import SystemReviewScreen
from screens.find import FindScreen
from tui.audit_app import load_state, make_audit_app
from tui.cli import cli

SOURCES = {
    "Alpha": "def handler():\n    return compute(42)\n\nLIMIT = 12\n",
    "Beta": "import os\n\nTOKEN = os.environ['TOKEN']\nprint(TOKEN)\n",
}
#: (line, snippet) of each system's one result, the same rule
FINDINGS = {"Alpha": (4, "LIMIT = 12"), "Beta": (3, "TOKEN = os.environ['TOKEN']")}


def make_scanned_audit(root: Path) -> Path:
    """Alpha's and Beta's repositories, each one's scan, the audit file naming both."""
    lines = ['database = "verdicts.db"', ""]
    for name, source in SOURCES.items():
        make_repo(root / "repos" / name.lower(), {"src/app.py": source})
        line, snippet = FINDINGS[name]
        scan = root / "scans" / f"{name.lower()}.sarif"
        write_scan(scan, f"/builds/ci/{name.lower()}", [("src/app.py", line, snippet)])
        lines += [
            "[[system]]",
            f'name = "{name}"',
            f'repository = "repos/{name.lower()}"',
            f'reports = ["scans/{name.lower()}.sarif"]',
            'rev = "HEAD"',
            "",
        ]
    path = root / "assay.toml"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def test_each_system_keeps_its_own_results(tmp_path: Path) -> None:
    audit = load_audit(make_scanned_audit(tmp_path))
    loaded = {system.name: system_reports(system) for system in audit.systems}
    identities = {name: reportset.reports[0].identity for name, reportset in loaded.items()}
    assert identities["Alpha"] != identities["Beta"]  # one tool, no category: one report before
    refs = [AuditSystemRef(name, frozenset([identity])) for name, identity in identities.items()]
    with VerdictStore.open(tmp_path / "verdicts.db") as store:
        for reportset in loaded.values():  # as each system's review registers it, in turn
            store.register(reportset, {}, revision="0" * 40)
        counts = {each.name: each.records for each in system_counts(store, refs)}
    # Beta's registration left Alpha's result present: each system counts its own one
    assert counts == {"Alpha": 1, "Beta": 1}


def test_check_finds_each_systems_paths_in_its_revision(tmp_path: Path) -> None:
    path = make_scanned_audit(tmp_path)
    result = CliRunner().invoke(cli, ["check", "--audit", str(path), "--format", "json"])
    assert result.exit_code == 0, result.output
    systems = json.loads(result.stdout)["systems"]
    assert [(s["system"], s["quotes"][0]["path"], s["quotes"][0]["match"]) for s in systems] == [
        ("Alpha", "src/app.py", "exact"),
        ("Beta", "src/app.py", "exact"),
    ]


def rows(screen: AuditScreen) -> list[str]:
    systems = screen.query_one(SystemsList)
    return [str(systems.row(n).prompt) for n in range(systems.row_count)]


async def settled(pilot: Pilot[Any]) -> None:
    for _ in range(2):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()


async def test_the_audit_screen_and_a_systems_review(tmp_path: Path) -> None:
    path = make_scanned_audit(tmp_path)
    anchors = tmp_path / "anchors"
    audit = load_audit(path)
    check_audit(audit, anchor_cache=anchors)  # `assay check` in the audit's directory
    keymap = load_keymap(user=False)
    app = make_audit_app(load_state(audit), audit.database, "ada", keymap, anchor_cache=anchors)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, AuditScreen)
        await settled(pilot)
        # the counts `assay check` left in the cache are found: both checked, none failing
        found = {entry.name: entry.failing for entry in screen.state.entries}
        assert found == {"Alpha": 0, "Beta": 0}
        assert [row.split()[0] for row in rows(screen)] == ["✓", "✓"]
        # `/` lists each result once, as the review's `/` does: its system and rule, where its
        # review shows it, at its line (not the CI's path), and its message
        targets = screen.state.targets()
        results = sorted(t.result for t in targets if t.result is not None)
        assert [(r.rule.split()[0], r.place) for r in results] == [
            ("Alpha", "src/app.py:4"),
            ("Beta", "src/app.py:3"),
        ]
        assert not any(t.kind == "quote" for t in targets)
        assert sorted(t.label for t in targets if t.kind == "file") == [
            "Alpha  src/app.py",
            "Beta  src/app.py",
        ]
        await pilot.press("/")
        await settled(pilot)
        await pilot.press(*"app.py:3")
        await settled(pilot)
        dialog = app.screen
        assert isinstance(dialog, FindScreen)
        assert [t.result.place for t in dialog.shown if t.result] == ["src/app.py:3"]
        await pilot.press("escape")
        await settled(pilot)
        # each system's review reads its result in its own revision (not /builds/ci/...)
        for name in ("Alpha", "Beta"):
            review = await open_system(pilot, screen, name)
            quote = review.session.reportset.records()[0].quotes[0]
            assert quote.path == "src/app.py"
            assert not review.session.anchors[quote].failing
            # which system this is, beside the scanner its runs name
            assert f"  {name} · scanner  @" in str(review.header.widget.render())
            if name == "Beta":
                await pilot.press("r")  # refuted: Beta's, not Alpha's
            await pilot.press("escape")
            await settled(pilot)
            assert isinstance(app.screen, AuditScreen)
        after = {entry.name: (entry.failing, entry.reviewed) for entry in screen.state.entries}
        assert after == {"Alpha": (0, 0), "Beta": (0, 1)}
        # both registered in the audit's database, Beta's after Alpha's: each counts its own
        counts = {
            entry.name: (entry.counts.records, entry.counts.records_reviewed)
            for entry in screen.state.entries
            if entry.counts is not None
        }
        assert counts == {"Alpha": (1, 0), "Beta": (1, 1)}


async def open_system(pilot: Pilot[Any], screen: AuditScreen, name: str) -> SystemReviewScreen:
    names = [screen.state.entries[index].name for index in screen.order]
    screen.query_one(SystemsList).move_to(0)
    await pilot.press(*["j"] * names.index(name), "enter")
    review = pilot.app.screen
    assert isinstance(review, SystemReviewScreen)
    await review.settle()
    await pilot.pause()
    return review


async def test_the_audits_verdicts_go_back_into_each_scan(tmp_path: Path) -> None:
    path = make_scanned_audit(tmp_path)
    audit = load_audit(path)
    keymap = load_keymap(user=False)
    app = make_audit_app(load_state(audit), audit.database, "ada", keymap, anchor_cache=None)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, AuditScreen)
        await settled(pilot)
        for name in ("Alpha", "Beta"):  # each registers its scan in the audit's database
            await open_system(pilot, screen, name)
            if name == "Beta":
                await pilot.press("r")
            await pilot.press("escape")
            await settled(pilot)
    exported = CliRunner().invoke(
        cli, ["export", "--db", str(audit.database), "--format", "sarif"], catch_exceptions=False
    )
    assert exported.exit_code == 0, exported.output
    runs = json.loads(exported.stdout)["runs"]
    # Beta's result refuted under Beta's system: found in Beta's scan, written back into it
    suppressed = [[result.get("suppressions", []) for result in run["results"]] for run in runs[:2]]
    assert [bool(each[0]) for each in suppressed] == [False, True]


def test_names_alike_in_letters_and_digits_are_told_to_rename(tmp_path: Path) -> None:
    # a scan's results are kept under the name's ASCII letters and digits: two names without
    # any ("東京", "大阪"), or alike but for punctuation, keep one scanner's runs under one
    # name; the later system is refused (never sharing verdicts), told why and what to do
    path = make_scanned_audit(tmp_path)
    for first, second in (("東京", "大阪"), ("Kestrel (EU)", "Kestrel EU")):
        text = path.read_text(encoding="utf-8")
        renamed = text.replace('"Alpha"', f'"{first}"').replace('"Beta"', f'"{second}"')
        path.with_name("renamed.toml").write_text(renamed, encoding="utf-8")
        result = CliRunner().invoke(
            cli, ["check", "--audit", str(path.with_name("renamed.toml")), "--format", "json"]
        )
        systems = {each["system"]: each for each in json.loads(result.stdout)["systems"]}
        assert systems[first]["state"] == "checked"
        said = systems[second]["error"]
        assert f"system {first!r} keeps a scan of the same scanner under the same name" in said
        assert "rename one of them" in said and "holds the same report" not in said
    # one scan listed in two systems of different names: each keeps its own results
    text = path.read_text(encoding="utf-8").replace("scans/beta.sarif", "scans/alpha.sarif")
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", "--audit", str(path), "--format", "json"])
    systems = {each["system"]: each for each in json.loads(result.stdout)["systems"]}
    assert systems["Beta"]["state"] == "checked"
