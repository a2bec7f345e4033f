"""What the audit screen says of a system whose revisions its repository does not hold, as
`assay check` says it: an `against` it does not know (its review opened without drift and said
nothing), or the cited revision itself (the screen counted the failing quotes kept for that
commit from another repository, even after the system's review could not read it)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from auditkit import make_audit

from evidence.audit.file import load_audit
from keymaps import load_keymap
from screens.audit.screen import AuditScreen, SystemsList
from screens.audit.system_review import SystemReviewScreen
from tui.audit_app import load_state, make_audit_app


async def test_an_unknown_against_is_said_when_the_system_opens(tmp_path: Path) -> None:
    path = make_audit(tmp_path)
    text = path.read_text().replace('name = "Alpha"', 'name = "Alpha"\nagainst = "no-such-ref"')
    path.write_text(text, encoding="utf-8")
    audit = load_audit(path)
    app = make_audit_app(
        load_state(audit), tmp_path / "v.db", "ada", load_keymap(user=False), anchor_cache=None
    )
    async with app.run_test(size=(120, 40)) as pilot:
        seen: list[tuple[str, str]] = []
        notify = app.notify

        def watch(message: str, **options: Any) -> None:
            seen.append((str(message), options.get("severity", "information")))
            notify(message, **options)

        app.notify = watch  # type: ignore[method-assign]
        screen = app.screen
        assert isinstance(screen, AuditScreen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        names = [screen.state.entries[index].name for index in screen.order]
        screen.query_one(SystemsList).move_to(names.index("Alpha"))
        await pilot.press("enter")
        review = app.screen
        assert isinstance(review, SystemReviewScreen)
        await review.settle()
        said = [message for message, severity in seen if severity == "warning"]
        assert any("Alpha: revision no-such-ref not found" in each for each in said), seen
    app.close()


@pytest.mark.parametrize(("cached", "against"), [(True, None), (False, None), (True, "main")])
async def test_a_repository_without_the_revision_is_marked_as_check_marks_it(
    tmp_path: Path, cached: bool, against: str | None
) -> None:
    # Alpha's repository given as Beta's (moved, or the wrong one): the screen counted the
    # failing quotes kept for Alpha's commit from before, as if it held, until Alpha was opened
    # and could not be read; `assay check` gives it the error. The revision is read once the
    # counts are drawn (with or without an anchoring cache), not before the first frame.
    from evidence.audit.check import check_audit

    path = make_audit(tmp_path)
    anchors = tmp_path / "anchors"
    check_audit(load_audit(path), anchor_cache=anchors, processes=1)  # Alpha's anchors kept
    text = path.read_text().replace('repository = "repos/alpha"', 'repository = "repos/beta"')
    path.write_text(text, encoding="utf-8")
    audit = load_audit(path)
    checked = check_audit(audit, processes=1).systems[0]
    assert checked.state == "error" and checked.error is not None
    app = make_audit_app(
        load_state(audit),
        tmp_path / "v.db",
        "ada",
        load_keymap(user=False),
        anchor_cache=anchors if cached else None,
        against=against,  # its drift: the revision read with the counts
    )
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, AuditScreen)
        for _ in range(200):  # the counts, then the revisions
            await app.workers.wait_for_complete()
            await pilot.pause()
            if screen.revisions_read:
                break
        assert screen.revisions_read
        alpha = screen.state.entries[0]
        assert alpha.error == checked.error and alpha.failing is None
        assert screen.reviews == {}  # not opened
        systems = screen.query_one(SystemsList)
        first = str(systems.row(0).prompt)
        # failing quotes and missing paths not known
        assert first.startswith("! Alpha") and first.split()[7:9] == ["–", "–"], first
        status = str(screen.query_one("#audit-status").render())
        assert status.startswith("Alpha: revision") and "not found in" in status, status
        if cached:  # Beta's failing quotes too, as check counts them
            totals = check_audit(audit, processes=1).summary()
            assert screen.state.totals()["failing"] == totals["failing"]
        await pilot.press("enter")  # as a system with `!` does: says why, opens nothing
        assert app.screen is screen
    app.close()


async def test_a_system_whose_reports_name_no_revision_still_opens_to_be_read(
    tmp_path: Path,
) -> None:
    # no revision to look for is not a revision missing: its records are read, unchecked (the
    # review says why), as before the revisions were read with the counts
    path = make_audit(tmp_path)
    report = tmp_path / "reports" / "alpha-runtime-report.txt"
    text = report.read_text(encoding="utf-8")
    report.write_text(re.sub(r" at revision [0-9a-f]{40}", " as it stood", text), "utf-8")
    audit = load_audit(path)
    app = make_audit_app(
        load_state(audit), tmp_path / "v.db", "ada", load_keymap(user=False), anchor_cache=None
    )
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, AuditScreen)
        for _ in range(200):
            await app.workers.wait_for_complete()
            await pilot.pause()
            if screen.revisions_read:
                break
        assert screen.revisions_read
        alpha = screen.state.entries[0]
        assert alpha.name == "Alpha" and alpha.error is None
        assert not str(screen.query_one(SystemsList).row(0).prompt).startswith("!")
        screen.query_one(SystemsList).move_to(0)
        await pilot.press("enter")
        review = app.screen
        assert isinstance(review, SystemReviewScreen)
        assert review.session.records  # its records, to be read
    app.close()
