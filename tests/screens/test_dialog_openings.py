"""What the review screen's dialogs show as they open: the command palette lists the actions at
once and a record's jump when typed for."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from screenkit import on_top, opened, wait_until
from textual.command import CommandList, CommandPalette
from textual.pilot import Pilot

from tui.factory import make_demo_app

SIZE = (120, 40)


def palette_prompts(app: Any) -> list[str]:
    palette = on_top(app)
    assert isinstance(palette, CommandPalette)
    options = palette.query_one(CommandList)
    return [str(options.get_option_at_index(n).prompt) for n in range(options.option_count)]


async def listed(pilot: Pilot[Any], wanted: str) -> list[str]:
    """The palette's prompts once one holds ``wanted``."""
    await wait_until(
        pilot, lambda: any(wanted in p for p in palette_prompts(pilot.app)), f"{wanted} listed"
    )
    return palette_prompts(pilot.app)


async def test_the_palette_lists_the_actions_then_finds_a_record_by_typing(tmp_path: Path) -> None:
    app = make_demo_app(tmp_path, reviewer="p")
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, app)
        await pilot.press("ctrl+p")
        before = await listed(pilot, "Confirm")
        assert "Next unreviewed" in "\n".join(before)
        # no record before typing: a list as long as the review would open slowly
        jumps = [f"Go to {record.id}" for record in screen.session.records]
        assert not any(p.startswith(jump) for p in before for jump in jumps), before
        await pilot.press(*"token-check")
        typed = await listed(pilot, "Go to KS-RTE-token-check")
        assert typed[0].startswith("Go to KS-RTE-token-check"), typed
        await pilot.press("enter")
        await wait_until(pilot, lambda: on_top(app) is screen, "the palette closed")
        await screen.settle()
        assert screen.record is not None and screen.record.id == "KS-RTE-token-check"
        # opened again, it lists the actions again, not the last search's records
        await pilot.press("ctrl+p")
        again = await listed(pilot, "Confirm")
        assert not any(p.startswith(jump) for p in again for jump in jumps), again
    app.close()
