"""The audit's lines that say what a key does and where the cursor is: a system's review's footer
names what escape does now (the record first, then the systems), and the audit's status line
keeps the system's name and the filter readable at 80 columns."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from keymaps import Keymap
from screens.audit.screen import AuditScreen
from screens.audit.system_review import SystemReviewScreen
from tui.audit_app import make_demo_audit_app


def demo(tmp_path: Path, keymap: Keymap) -> Any:
    return make_demo_audit_app(
        tmp_path, reviewer="tester", keymap=keymap, anchor_cache=tmp_path / "anchors"
    )


def current(app: Any) -> Any:
    """The app's screen now (not narrowed by an earlier assertion)."""
    return app.screen


def footer(screen: Any) -> str:
    return str(screen.query_one("KeysBar").render())


async def settled(pilot: Pilot[Any]) -> None:
    for _ in range(2):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()


async def test_the_footer_says_what_escape_does_now(
    tmp_path: Path, sample: Path, keymap: Keymap
) -> None:
    # escape gave the verdict keys back to the record first while the footer said "esc Systems"
    app = demo(tmp_path, keymap)
    async with app.run_test(size=(80, 24)) as pilot:
        audit = app.screen
        assert isinstance(audit, AuditScreen)
        await settled(pilot)
        await pilot.press("enter")
        review = app.screen
        assert isinstance(review, SystemReviewScreen)
        await review.settle()
        await pilot.pause()
        assert "esc Systems" in footer(review) and "esc Record" not in footer(review)
        await pilot.press("n", "n", "n", "n", "n", "n", "right_square_bracket")
        await review.settle()
        await pilot.pause()
        assert review.state.target_quote() is not None
        assert "esc Record" in footer(review) and "Systems" not in footer(review)
        await pilot.press("escape")  # as the footer said: the record
        await pilot.pause()
        assert app.screen is review and review.state.target_quote() is None
        assert "esc Systems" in footer(review) and "esc Record" not in footer(review)
        await pilot.press("escape")  # as it says now: the systems
        await pilot.pause()
        assert current(app) is audit
    app.close()


def test_the_status_line_shows_whole_names_of_the_repository_path() -> None:
    # the path cut from the left at any character showed "…l-1b6f2942e3dc5096" at 80 columns:
    # part of a name, naming nothing; its last whole names, or none of it
    from screens.audit.status import fit

    path = "/home/ann/audits/repos/kestrel-1b6f2942e3dc5096"
    filters = ["filter: failing (systems with failing quotes)", "filter: failing"]
    line = fit("Kestrel", ["checked, 7 failing, 0 no path"], filters, path, 80)
    assert line == "Kestrel: checked, 7 failing, 0 no path · filter: failing"
    wide = fit("Kestrel", ["checked, 7 failing, 0 no path"], filters, path, 100)
    assert wide.endswith(" · filter: failing · …/audits/repos/kestrel-1b6f2942e3dc5096")
    windows = fit("K", ["checked"], filters, "C:\\Users\\ann\\kestrel-station", 48)
    assert windows == "K: checked · filter: failing · …\\kestrel-station"


def test_the_header_leaves_out_what_it_would_cut_to_a_stub() -> None:
    # at 80 columns the header ended in "3 sy…"; each count is whole or left out, and the
    # reviewer and the directory are cut only while enough of them shows
    from screens.audit.status import header_text

    counts = [" assay audit  reviewed 5% (4/74)", "7 failing", "0 no path", "3 systems"]
    path = "/home/ann/audits/q3-2026"
    whole = header_text(counts, "Ann Reviewer", path, 200)
    assert whole == f"{' · '.join(counts)} · Ann Reviewer · {path}"
    assert header_text(counts, "Ann Reviewer", path, 70) == " · ".join(counts)
    assert header_text(counts, "Ann", path, 58) == " · ".join(counts[:3])
    # the reviewer cut with an ellipsis, the directory its last whole names
    assert header_text(counts, "Ann Reviewer", path, 76).endswith(" · 3 systems")
    assert header_text(counts, "Ann Reviewer", path, 78).endswith(" · 3 systems · Ann Re…")
    assert header_text(counts, "Ann", path, 92).endswith(" · 3 systems · Ann")
    cut = header_text(counts, "Ann", path, 93)
    assert cut.endswith(" · Ann · …/audits/q3-2026") and len(cut) == 93
    assert header_text(counts[:1], "", path, 12) == " assay audi…"
    # the reviewer's name is untrusted: its controls are shown, not sent to the terminal
    assert "\x1b" not in header_text(counts, "A\x1b[2Jnn", path, 200)
