"""`t` on a file opened by path that the record does not cite (the finder's, grep's, find's):
the file followed to REV in a worker (through its renames) and shown there, `d` comparing it with
the cited revision's, `t` back, each time the file itself. Before, `t` left the file for the
record's quote."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from screenkit import press, settle, wait_until
from test_cited_drift_source import BOUNDARY, demo, diff_shown, on_record, title
from textual.pilot import Pilot

from screens.review.screen import ReviewScreen


async def open_with_finder(pilot: Pilot[Any], screen: ReviewScreen, letters: str) -> None:
    """The file finder (`o`), a few letters of a name, enter: as a reviewer opens a file."""
    await press(pilot, screen, "o")
    await pilot.press(*letters, "enter")
    await settle(pilot, screen)


async def shown_at(pilot: Pilot[Any], screen: ReviewScreen, said: str) -> None:
    """Wait until the source pane's title says ``said`` (the file is followed in a worker)."""
    view = screen.source_view
    await wait_until(pilot, lambda: said in title(view), f"the title to say {said!r}")
    await settle(pilot, screen)


async def test_t_shows_a_file_the_finder_opened_at_rev_and_back(
    tmp_path: Path, sample: Path
) -> None:
    app = demo(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await on_record(pilot, app, BOUNDARY)  # cites no config file
        await open_with_finder(pilot, screen, "kestrelyml")
        view, line = screen.source_view, screen.quote_info
        assert view.path == "config/kestrel.yml" and "@802776d" in title(view)
        cited_text = list(view.lines)
        # followed as it opens: the line under the source says what became of it at REV
        await wait_until(pilot, lambda: "t: see it" in str(line.render()), "the file's drift")
        assert str(line.render()).endswith("~ edited at 8df75ac, t: see it")
        await press(pilot, screen, "t")
        await shown_at(pilot, screen, "config/kestrel.yml @8df75ac  edited; cited @802776d")
        assert screen.state.opened == "config/kestrel.yml"  # the file, not the record's quote
        assert list(view.lines) != cited_text
        assert str(line.render()).endswith("~ edited at 8df75ac, t: back")
        text, added, _ = await diff_shown(pilot, screen)
        assert text.startswith("the file at 8df75ac: edited by 1 commit")
        assert added and added <= set(view.lines) and not added <= set(cited_text)
        await press(pilot, screen, "d", "t")
        assert "config/kestrel.yml @802776d" in title(view)
        assert list(view.lines) == cited_text and screen.state.opened == "config/kestrel.yml"


async def test_a_file_opened_at_rev_is_shown_there_through_its_rename(
    tmp_path: Path, sample: Path
) -> None:
    app = demo(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await on_record(pilot, app, BOUNDARY)
        await open_with_finder(pilot, screen, "kestrelyml")
        await press(pilot, screen, "t")
        await shown_at(pilot, screen, "@8df75ac")
        # REV stays on: the finder lists REV's files, and the one opened by its name there is
        # known as the cited file it was renamed from
        await open_with_finder(pilot, screen, "libtext")
        await shown_at(pilot, screen, "web/src/lib/text.ts @8df75ac  renamed")
        assert screen.source_view.path == "web/src/lib/text.ts"
        assert screen.state.opened == "web/src/lib/format.ts"
        # the line under it names the file's path at REV (the title may be cut)
        said = str(screen.quote_info.render())
        assert said.endswith("↕ renamed at 8df75ac, now web/src/lib/text.ts, t: back")
        await press(pilot, screen, "t")
        await shown_at(pilot, screen, "web/src/lib/format.ts @802776d")


async def test_t_on_a_file_opened_and_deleted_at_rev_says_so(tmp_path: Path, sample: Path) -> None:
    app = demo(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await on_record(pilot, app, "KS-RTE-token-check")  # cites no worker file
        await open_with_finder(pilot, screen, "digestjs")
        view = screen.source_view
        assert view.path == "worker/src/digest.js"
        await press(pilot, screen, "t")
        await wait_until(pilot, lambda: "deleted" in (view.message or ""), "the pane to say why")
        assert view.message == "@8df75ac: the file was deleted; t shows the cited revision"
        await press(pilot, screen, "t")
        assert view.message is None and view.path == "worker/src/digest.js"


async def test_t_keeps_the_place_in_a_file_opened_whole(tmp_path: Path, sample: Path) -> None:
    app = demo(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await on_record(pilot, app, BOUNDARY)  # cites api/server.py whole
        await open_with_finder(pilot, screen, "apiserverpy")
        view = screen.source_view
        at_cited = view.lines.index("def run_escalation(request: Request) -> Response:") + 1
        view.go_to_line(at_cited)
        await press(pilot, screen, "t")  # sixteen lines were added above it since
        await shown_at(pilot, screen, "api/server.py @8df75ac")
        assert view.cursor_line == at_cited + 16
        assert view.lines[view.cursor_line - 1].startswith("def run_escalation(")
        await press(pilot, screen, "t")
        assert "api/server.py @802776d" in title(view) and view.cursor_line == at_cited


async def test_a_file_opened_before_the_drift_is_followed_when_it_comes(
    tmp_path: Path, sample: Path
) -> None:
    from evidence.sample import TIP_REVISION
    from keymaps import load_keymap
    from tui.factory import make_demo_app

    app = make_demo_app(tmp_path, reviewer="r", keymap=load_keymap(user=False))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await on_record(pilot, app, BOUNDARY)
        await open_with_finder(pilot, screen, "kestrelyml")
        line = screen.quote_info
        assert "t:" not in str(line.render())  # no drift asked for
        screen.drift.start(TIP_REVISION)  # as `A` and a revision typed
        await wait_until(pilot, lambda: "t: see it" in str(line.render()), "the file's drift")
        assert str(line.render()).endswith("~ edited at 8df75ac, t: see it")


async def test_files_opened_in_a_row_are_followed_one_at_a_time_the_last_one_shown(
    tmp_path: Path, sample: Path
) -> None:
    # each follow reads REV's whole log: a reviewer going through files must not start one
    # worker per file they passed
    app = demo(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await on_record(pilot, app, BOUNDARY)
        for path in ("config/kestrel.yml", "api/kestrel/tickets.py", "docs/operations.md"):
            screen.moves.visit(path)
        assert len([w for w in screen.workers if w.group == "follow"]) == 1
        drifts, line = screen.drift.opened_drifts, screen.quote_info
        await wait_until(pilot, lambda: "docs/operations.md" in drifts, "the last file followed")
        await settle(pilot, screen)
        assert "api/kestrel/tickets.py" not in drifts  # passed before its turn came
        assert str(line.render()).endswith("~ edited at 8df75ac, t: see it")
