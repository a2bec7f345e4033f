"""The record the last move leads to is measured and drawn while the reviewer reads: the next
press of the same key draws none of its rows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from screenkit import reviewing
from textual.visual import Visual

from keymaps import Keymap
from screens.widgets.record_pane import RecordPane
from tui.factory import make_demo_app


async def test_the_next_record_is_drawn_ahead_in_the_direction_of_the_last_move(
    tmp_path: Path, sample: Path, keymap: Keymap, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[str] = []
    to_strips = Visual.to_strips

    def counted(widget: Any, visual: Visual, *args: Any, **options: Any) -> Any:
        if isinstance(widget, RecordPane):
            drawn.append(str(visual))
        return to_strips(widget, visual, *args, **options)

    monkeypatch.setattr(Visual, "to_strips", counted)
    app = make_demo_app(tmp_path, reviewer="tester", keymap=keymap)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = reviewing(app)
        await screen.settle()
        await pilot.pause()
        for key in ("p", "p", "n", "n"):  # p first: from the first record to the last ones
            if key == "n" and screen.record is not screen.session.records[0]:
                await pilot.press(*["n"] * 4)  # back round to the first record
            await pilot.press(key)
            await pilot.pause(0.1)  # the reviewer reads: the next record is drawn meanwhile
            drawn.clear()
            record = screen.record
            await pilot.press(key)  # to a record not shown before
            await pilot.pause()
            assert screen.record is not record
            assert not drawn_of(screen.record_pane, drawn), key  # the record shown: drawn ahead


def drawn_of(pane: RecordPane, drawn: list[str]) -> list[str]:
    """The rows of the record shown that were drawn."""
    shown = {str(pane.row(index).prompt) for index in range(pane.row_count)}
    return [text for text in drawn if text in shown]
