"""The finder and grep while the source pane shows REV (`t`): they look in REV, so that a file
written since the cited revision can be opened and REV's text searched. A file opened there is
traced back to the cited file it is (through renames, in a worker): `t` then shows that file;
one no cited file became is said to be only at REV."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from screenkit import press, settle, wait_until
from test_cited_drift_source import demo, diff_shown, on_record, title
from test_opened_drift import open_with_finder, shown_at
from textual.pilot import Pilot

from screens.grep import GrepScreen
from screens.review.screen import ReviewScreen

ONLY_AT_REV = "api/kestrel/permissions.py"  # written after the cited revision


async def at_rev(pilot: Pilot[Any], app: Any) -> ReviewScreen:
    """A record with a quote, its file shown at REV."""
    screen = await on_record(pilot, app, "KS-OBJ-station-db")
    await press(pilot, screen, "]", "t")
    await shown_at(pilot, screen, "@8df75ac")
    return screen


async def test_the_finder_at_rev_opens_a_file_only_there(tmp_path: Path, sample: Path) -> None:
    app = demo(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await at_rev(pilot, app)
        await press(pilot, screen, "o")
        assert app.screen.query_one("#finder-box").border_title == "Open file at 8df75ac (REV)"
        await pilot.press(*"permissions", "enter")
        await shown_at(pilot, screen, f"{ONLY_AT_REV} @8df75ac  not at the cited revision")
        view, line = screen.source_view, screen.quote_info
        assert view.path == ONLY_AT_REV and view.lines[0].startswith('"""The scopes')
        said = "+ not at the cited revision, t: back"
        await wait_until(pilot, lambda: said in str(line.render()), "the line under it")
        text, _, _ = await diff_shown(pilot, screen)
        assert text == "the file at 8df75ac: not at the cited revision, nothing to compare"
        await press(pilot, screen, "d", "t")  # the cited revision: nothing to show, said
        assert view.message == "@802776d: not at the cited revision; t shows it at 8df75ac"
        assert f"{ONLY_AT_REV} @802776d" in title(view)
        assert "+ not at the cited revision, t: see it" in str(line.render())
        await press(pilot, screen, "t")
        await shown_at(pilot, screen, f"{ONLY_AT_REV} @8df75ac")
        assert view.message is None and screen.state.opened == ONLY_AT_REV
        await press(pilot, screen, "n")  # the next record's quote: no file opened, none of REV's
        assert screen.state.opened is None and screen.state.opened_at_against is False


async def test_back_returns_to_a_file_only_at_rev(tmp_path: Path, sample: Path) -> None:
    app = demo(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await at_rev(pilot, app)
        await open_with_finder(pilot, screen, "permissions")
        await shown_at(pilot, screen, "not at the cited revision")
        await open_with_finder(pilot, screen, "kestrelyml")
        await shown_at(pilot, screen, "config/kestrel.yml @8df75ac  edited")
        await press(pilot, screen, "backspace")
        # REV's file again, not the cited revision's file of that name (there is none)
        await shown_at(pilot, screen, f"{ONLY_AT_REV} @8df75ac  not at the cited revision")
        assert screen.source_view.message is None


async def test_grep_at_rev_opens_its_hit_there_then_t_shows_the_cited_file(
    tmp_path: Path, sample: Path
) -> None:
    app = demo(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await at_rev(pilot, app)
        await press(pilot, screen, "ctrl+g")
        grep = app.screen
        assert isinstance(grep, GrepScreen) and grep.revision.short == "8df75ac"
        await pilot.press(*"def run_escalation", "enter")
        await settle(pilot, screen)
        assert [(hit.path, hit.line) for hit in grep.hits] == [("api/server.py", 89)]
        await pilot.press("f4", "enter")
        await shown_at(pilot, screen, "api/server.py @8df75ac  edited")
        view = screen.source_view
        await wait_until(pilot, lambda: screen.state.opened_at_against is False, "traced back")
        assert screen.state.opened == "api/server.py" and view.cursor_line == 89
        await press(pilot, screen, "t")  # the cited file, at the same line of text
        await shown_at(pilot, screen, "api/server.py @802776d")
        assert view.lines[view.cursor_line - 1].startswith("def run_escalation(")
        assert view.cursor_line == 73
        await press(pilot, screen, "ctrl+g")  # at the cited revision, grep looks there
        assert isinstance(app.screen, GrepScreen) and app.screen.revision.short == "802776d"


async def test_find_at_rev_lists_rev_s_files(tmp_path: Path, sample: Path) -> None:
    app = demo(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await at_rev(pilot, app)
        files = {target.path for target in screen.find_targets() if target.kind == "file"}
        assert ONLY_AT_REV in files and "web/src/lib/format.ts" not in files
        await press(pilot, screen, "slash")
        await pilot.press(*"kestrel/permissions.py")
        await settle(pilot, screen)
        # a quote citing it comes first (its file is missing at the cited revision), the file next
        await pilot.press("down", "enter")
        await shown_at(pilot, screen, f"{ONLY_AT_REV} @8df75ac  not at the cited revision")
        await press(pilot, screen, "t")  # the cited revision: `/` lists its files again
        cited = {target.path for target in screen.find_targets() if target.kind == "file"}
        assert ONLY_AT_REV not in cited and "web/src/lib/format.ts" in cited
