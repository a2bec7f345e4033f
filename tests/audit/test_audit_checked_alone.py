"""Systems checked or reviewed on their own (`assay check FILE --repo`, `assay review`) before
their audit is opened: the audit's screen reads their anchors from the cache, and marks them
checked. It marked them `·` (not checked yet) while its status line said "checked, 0 failing,
0 no path": the anchors were kept without the cited paths beside them, and how many of those
are missing was not known, even for a scan, whose results cite no path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from auditkit import make_audit
from click.testing import CliRunner
from test_audit_sarif import make_scanned_audit, rows, settled

from evidence.anchor_cache import CachingAnchorer
from evidence.audit.file import load_audit
from evidence.audit.loading import system_reports
from evidence.revision import Revision
from evidence.sarif.rebase import at_revision
from keymaps import load_keymap
from screens.audit.screen import AuditScreen
from tui.audit_app import load_state, make_audit_app
from tui.cli import cli


@pytest.fixture
def anchors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The anchoring cache `assay check` and `assay review` keep (a user cache of its own)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "assay" / "anchors"


async def audit_rows(path: Path, anchors: Path) -> tuple[list[str], dict[str, Any]]:
    """The audit screen's rows, and each system's (failing, missing cited paths, status line)."""
    from screens.audit.status import status_text

    audit = load_audit(path)
    keymap = load_keymap(user=False)
    app = make_audit_app(load_state(audit), audit.database, "ada", keymap, anchor_cache=anchors)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, AuditScreen)
        await settled(pilot)
        state = screen.state
        counts = {e.name: (e.failing, e.citations_missing) for e in state.entries}
        lines = {e.name: status_text(state, e, 120) for e in state.entries}
        return rows(screen), {name: (*counts[name], lines[name]) for name in counts}


async def test_scans_checked_alone_are_checked_in_the_audit(tmp_path: Path, anchors: Path) -> None:
    path = make_scanned_audit(tmp_path)
    for name in ("alpha", "beta"):
        scan, repo = tmp_path / "scans" / f"{name}.sarif", tmp_path / "repos" / name
        result = CliRunner().invoke(cli, ["check", str(scan), "--repo", str(repo), "--rev", "HEAD"])
        assert result.exit_code == 0, result.output
    shown, counts = await audit_rows(path, anchors)
    assert [row.split()[0] for row in shown] == ["✓", "✓"]
    assert {name: seen[:2] for name, seen in counts.items()} == {"Alpha": (0, 0), "Beta": (0, 0)}


async def test_scans_reviewed_alone_are_checked_in_the_audit(tmp_path: Path, anchors: Path) -> None:
    # a review keeps its anchors alone (its citations are not asked for): a scan cites no path
    path = make_scanned_audit(tmp_path)
    for system in load_audit(path).systems:
        assert system.repository is not None
        with Revision.open(system.repository, "HEAD") as revision:
            reportset = at_revision(system_reports(system), revision)
            quotes = [quote for record in reportset.records() for quote in record.quotes]
            CachingAnchorer(revision, directory=anchors).anchor_many(quotes)
    shown, counts = await audit_rows(path, anchors)
    assert [row.split()[0] for row in shown] == ["✓", "✓"]
    assert {name: seen[:2] for name, seen in counts.items()} == {"Alpha": (0, 0), "Beta": (0, 0)}


async def test_reports_checked_alone_count_their_missing_paths(
    tmp_path: Path, anchors: Path
) -> None:
    path = make_audit(tmp_path)  # Alpha and Beta: a failing quote and a missing cited path each
    report = tmp_path / "reports" / "alpha-runtime-report.txt"
    repo = tmp_path / "repos" / "alpha"
    result = CliRunner().invoke(cli, ["check", str(report), "--repo", str(repo)])
    assert result.exit_code == 1, result.output  # the failing quote
    shown, counts = await audit_rows(path, anchors)
    alpha = next(row for row in shown if "Alpha" in row)
    assert alpha.split()[0] == "✗"
    assert counts["Alpha"][:2] == (1, 1)
    assert counts["Beta"][:2] == (None, None)  # never checked: not known


async def test_reports_reviewed_alone_count_their_missing_paths(
    tmp_path: Path, anchors: Path
) -> None:
    # `assay review` of one system's reports keeps its cited paths beside its anchors: the
    # audit opened after it marks the system checked (it stayed `·`, "cited paths not checked")
    from screens.review.screen import ReviewScreen
    from tui.factory import make_app

    path = make_audit(tmp_path)
    alpha = load_audit(path).systems[0]
    assert alpha.repository is not None
    keymap = load_keymap(user=False)
    app = make_app(
        system_reports(alpha), alpha.repository, "HEAD", tmp_path / "alone.db", "ada", keymap,
        anchor_cache=anchors,
    )  # fmt: skip
    async with app.run_test(size=(120, 40)) as pilot:
        review = app.screen
        assert isinstance(review, ReviewScreen)
        await review.settle()
        await pilot.pause()
    app.close()
    shown, seen = await audit_rows(path, anchors)
    assert next(row for row in shown if "Alpha" in row).split()[0] == "✗"
    assert seen["Alpha"][:2] == (1, 1)
    assert seen["Beta"][:2] == (None, None)  # never checked: not known


async def test_anchors_kept_alone_say_the_cited_paths_are_not_checked_yet(
    tmp_path: Path, anchors: Path
) -> None:
    # an entry from before reviews kept their cited paths: its quotes' counts, not the paths'
    path = make_audit(tmp_path)
    alpha = load_audit(path).systems[0]
    assert alpha.repository is not None
    with Revision.open(alpha.repository, "HEAD") as revision:
        quotes = [q for record in system_reports(alpha).records() for q in record.quotes]
        CachingAnchorer(revision, directory=anchors).anchor_many(quotes)
    _shown, seen = await audit_rows(path, anchors)
    failing, missing, line = seen["Alpha"]
    assert (failing, missing) == (1, None)
    assert line.startswith("Alpha: quotes checked, 1 failing; cited paths not checked yet")
    assert "0 no path" not in line
