"""Snapshots of the audit screen on the sample audit (Kestrel, Heron, and Osprey without a
repository), nothing checked nor reviewed yet, at 120x40 and 80x24: the header's counts each
whole or left out, the columns the width allows, the status line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from snapshotkit import steady
from textual.pilot import Pilot

from keymaps import load_keymap
from screens.audit.screen import AuditScreen
from tui.audit_app import make_demo_audit_app


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_audit_screen(snap_compare: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_demo_audit_app(
        tmp_path,
        reviewer="tester",
        keymap=load_keymap(user=False),
        anchor_cache=tmp_path / "anchors",
    )

    async def run_before(pilot: Pilot[Any]) -> None:
        for _ in range(2):  # the counts read, then the revisions
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()
        assert isinstance(pilot.app.screen, AuditScreen) and pilot.app.screen.counted
        await steady(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)
