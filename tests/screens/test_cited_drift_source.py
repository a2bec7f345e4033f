"""`t` on a cited file: the file a record cites, opened from its row in the record pane, shown at
REV (through its renames, the lines the record names marked at their new place) and back; `d`
compares it with the cited revision's. Before, `t` left the file for the record's quote (or said
nothing useful for a record quoting nothing)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from screenkit import git, index_of, press, reviewing, settle, watch_notices
from textual.content import Content
from textual.pilot import Pilot

from evidence.sample import TIP_REVISION
from keymaps import load_keymap
from screens.backlinks import BacklinksScreen
from screens.review.history import Location
from screens.review.screen import ReviewScreen
from screens.widgets.source_view import SourceView
from tui.app import AssayApp
from tui.factory import make_demo_app

#: quotes nothing; cites web/src/api/client.ts (unchanged at the tip), api/server.py (edited by
#: one commit) and worker/src/digest.js (deleted)
BOUNDARY = "workflow:selection-and-evidence-boundary"


async def settled(pilot: Pilot[Any], app: AssayApp) -> ReviewScreen:
    """The review screen once loaded, anchored and its drift computed."""
    screen = reviewing(app)
    await settle(pilot, screen)
    return screen


async def on_record(pilot: Pilot[Any], app: AssayApp, record_id: str) -> ReviewScreen:
    screen = await settled(pilot, app)
    screen.go(Location(index_of(screen, record_id), None))
    await screen.settle()
    await pilot.pause()
    return screen


async def open_cited(pilot: Pilot[Any], screen: ReviewScreen, path: str) -> None:
    """Enter on the record pane's row of the cited ``path``, as a reviewer opens it."""
    pane = screen.record_pane
    row = next(
        n
        for n in range(pane.row_count)
        if (pane.row(n).id or "").startswith("cite-") and path in pane.row(n).prompt.plain
    )
    screen.set_focus(pane)
    pane.move_to(row)
    await press(pilot, screen, "enter")


def title(view: SourceView) -> str:
    """The source pane's title as read (its border title is kept as markup)."""
    return Content.from_markup(str(view.border_title)).plain


async def diff_shown(pilot: Pilot[Any], screen: ReviewScreen) -> tuple[str, set[str], set[str]]:
    """`d`: the diff pane's text, and the lines it says were added and removed."""
    await press(pilot, screen, "d")
    diff = screen.quote_diff
    assert diff is not None
    text = str(diff.render())
    added = {row[1:] for row in text.splitlines() if row.startswith("+")}
    removed = {row[1:] for row in text.splitlines() if row.startswith("-")}
    return text, added, removed


def demo(tmp_path: Path) -> AssayApp:
    keymap = load_keymap(user=False)
    return make_demo_app(tmp_path, reviewer="r", keymap=keymap, against=TIP_REVISION)


async def test_t_shows_a_file_cited_whole_at_rev_and_d_its_changes(
    tmp_path: Path, sample: Path
) -> None:
    app = demo(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await on_record(pilot, app, BOUNDARY)
        await open_cited(pilot, screen, "api/server.py")
        view, line = screen.source_view, screen.quote_info
        assert "api/server.py @802776d" in title(view)
        assert str(line.render()).endswith("~ edited at 8df75ac, t: see it")
        cited_text = list(view.lines)
        await press(pilot, screen, "t")
        assert "api/server.py @8df75ac  edited; cited @802776d, t: back" in title(view)
        assert view.path == "api/server.py" and list(view.lines) != cited_text
        assert view.marks.matched is None  # cited whole: no lines to mark
        assert str(line.render()).endswith("~ edited at 8df75ac, t: back")
        text, added, removed = await diff_shown(pilot, screen)
        assert text.startswith("the cited file at 8df75ac: edited by 1 commit")
        assert added and added <= set(view.lines) and not added <= set(cited_text)
        assert removed <= set(cited_text)
        await press(pilot, screen, "d", "t")
        assert "api/server.py @802776d" in title(view)
        assert list(view.lines) == cited_text
        assert screen.state.opened == "api/server.py"  # still the file, not a quote


async def test_t_on_a_cited_file_deleted_at_rev_says_so(tmp_path: Path, sample: Path) -> None:
    app = demo(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await on_record(pilot, app, BOUNDARY)
        await open_cited(pilot, screen, "worker/src/digest.js")
        view = screen.source_view
        await press(pilot, screen, "t")
        assert view.message == "@8df75ac: the cited file was deleted; t shows the cited revision"
        assert "worker/src/digest.js @8df75ac" in title(view)
        assert str(screen.quote_info.render()).endswith("⊘ file deleted at 8df75ac, t: back")
        await press(pilot, screen, "t")
        assert view.message is None and view.path == "worker/src/digest.js"


def commit_all(repo: Path, message: str) -> str:
    """Commit the work tree as it stands: the new commit's id."""
    git(repo, "add", ".")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", message)
    return git(repo, "rev-parse", "HEAD").strip()


def review_of(tmp_path: Path, repo: Path, report: Path, cited: str, tip: str) -> AssayApp:
    """The review of ``report`` at ``cited`` with drift against ``tip``."""
    from evidence.reports.loading import load_reports
    from tui.factory import make_app

    keymap = load_keymap(user=False)
    return make_app(
        load_reports([report]), repo, cited, tmp_path / "v.db", "r", keymap, against=tip
    )


REPORT = """\
Lib runtime report

Type: agentic-system-analyses/types/agentic-system-runtime-report.md

Runtime account

Evidence

Evidence is SRC-1 at revision {rev}.

Shared records

Claims

LB-CLM-limit

Label: The limit

The limit is checked before a read (SRC-1, lib.py:3-4).

    def read(entry):
        return entry

--- lib.py:6-7
"""

LIB = ["import os", "", "LIMIT = 10", "CHECK = True", "", "def read(entry):", "    return entry"]


async def test_t_follows_cited_lines_through_a_rename_to_their_new_place(tmp_path: Path) -> None:
    """A record names lines of a file (`lib.py:3-4`) the newer revision renamed and moved them
    in: `t` shows the new file, those lines marked where they are now."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "lib.py").write_text("\n".join(LIB) + "\n")
    cited = commit_all(repo, "lib")
    (repo / "src").mkdir()
    git(repo, "mv", "lib.py", "src/lib.py")
    (repo / "src" / "lib.py").write_text("\n".join(["# moved", "", *LIB]) + "\n")
    tip = commit_all(repo, "move")
    report = tmp_path / "lib-runtime-report.txt"
    report.write_text(REPORT.format(rev=cited), encoding="utf-8")
    app = review_of(tmp_path, repo, report, cited, tip)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await on_record(pilot, app, "LB-CLM-limit")
        await open_cited(pilot, screen, "lib.py")
        view = screen.source_view
        assert view.path == "lib.py" and view.cursor_line == 3
        await press(pilot, screen, "t")
        assert view.path == "src/lib.py"
        assert f"src/lib.py @{tip[:7]}  moved; cited @{cited[:7]}" in title(view)
        assert view.marks.matched == (5, 6) and view.cursor_line == 5
        await press(pilot, screen, "d")
        diff = screen.quote_diff
        assert diff is not None
        said = str(diff.render())
        assert said.startswith("the cited lines at ") and "now src/lib.py:5-6" in said
        assert "the same text at REV" in said
        await press(pilot, screen, "d")
        await press(pilot, screen, "t")
        assert view.path == "lib.py" and view.cursor_line == 3
        # the quote's own `t` is as before: `]` back to the quotes, then its file at REV
        await press(pilot, screen, "]", "t")
        assert screen.state.opened is None and view.path == "src/lib.py"
        assert view.marks.matched == (8, 9)
        # b at REV: what cites the file as the reports name it (lib.py), not REV's path
        await press(pilot, screen, "b")
        dialog = app.screen
        assert isinstance(dialog, BacklinksScreen)
        assert {link.record for link in dialog.links} == {"LB-CLM-limit"}


async def test_t_on_a_cited_files_row_opens_it_at_rev(tmp_path: Path, sample: Path) -> None:
    """`t` with the cursor on a cited file's row (or a commit under it), not opened yet, shows
    that file at REV at once, and `t` again the cited revision's."""
    app = demo(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await on_record(pilot, app, BOUNDARY)
        pane, view = screen.record_pane, screen.source_view
        screen.set_focus(pane)
        pane.move_to(pane.row_index("filecommit-1-0"))  # under api/server.py
        await press(pilot, screen, "t")
        assert screen.state.opened == "api/server.py"
        assert "api/server.py @8df75ac  edited" in title(view)
        await press(pilot, screen, "d")  # the cited revision's file read to compare with
        diff = screen.quote_diff
        assert diff is not None
        rows = str(diff.render()).splitlines()
        assert rows[0] == "the cited file at 8df75ac: edited by 1 commit"
        assert any(row.startswith("+") for row in rows) and rows[1].startswith("@@")
        await press(pilot, screen, "d", "t")
        assert "api/server.py @802776d" in title(view)
        pane.move_to(pane.row_index("cite-2"))  # worker/src/digest.js, deleted at REV
        await press(pilot, screen, "t")
        assert view.message is not None and "the cited file was deleted" in view.message
        assert screen.focused is pane  # the reviewer goes on down the list


async def test_t_with_nothing_to_show_at_rev_says_what_it_shows(
    tmp_path: Path, sample: Path
) -> None:
    # a record quoting nothing, no cited file opened: t turned a flag and showed nothing
    app = demo(tmp_path)
    notices = watch_notices(app)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await on_record(pilot, app, BOUNDARY)
        await press(pilot, screen, "t")
        said = "t shows a quote's file at REV, or a file opened (a cited file's row)"
        assert notices[-1].message == said
        assert not screen.drift.showing_against


UNQUOTED = """\
Lib workflow report

Type: agentic-system-analyses/types/agentic-system-workflow-report.md

Workflow account

Evidence

Evidence is SRC-1 at revision {rev}. The limit is read once (SRC-1, a.py, b.py).

The count is kept apart (SRC-1, c.py).
"""


async def test_a_report_quoting_nothing_has_its_cited_files_drift(tmp_path: Path) -> None:
    """A workflow report may cite files and quote none: its drift is its cited files'. The
    `drifted` filter was not offered (it looked at the quotes' drift only), and the notice
    began with "; "."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    for name in ("a.py", "b.py", "c.py"):
        (repo / name).write_text(f"# {name}\nVALUE = 1\n")
    cited = commit_all(repo, "files")
    (repo / "a.py").write_text("# a.py\nVALUE = 2\n")
    git(repo, "rm", "-q", "b.py")
    tip = commit_all(repo, "edit a, drop b")
    report = tmp_path / "lib-workflow-report.txt"
    report.write_text(UNQUOTED.format(rev=cited), encoding="utf-8")
    app = review_of(tmp_path, repo, report, cited, tip)
    notices = watch_notices(app)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot, app)
        session = screen.session
        assert session.drifts == {} and len(session.cited_drifts) == 3
        said = [n.message for n in notices if n.message.startswith(f"drift vs {tip[:7]}")]
        assert said == [f"drift vs {tip[:7]}: cited files: 1 unchanged, 1 edited, 1 file deleted"]
        assert "drifted" in session.filters()
        drifted = [
            r.id for r in session.records if session.passes("drifted")(session.records.index(r))
        ]
        assert len(drifted) == 1  # the paragraph citing b.py, gone; c.py's holds
        # t on a.py's row, then d: a.py at the cited revision, never shown, read to compare
        screen.go(Location(index_of(screen, drifted[0]), None))
        await screen.settle()
        pane = screen.record_pane
        screen.set_focus(pane)
        pane.move_to(pane.row_index("cite-0"))
        await press(pilot, screen, "t", "d")
        assert screen.state.opened == "a.py"
        diff = screen.quote_diff
        assert diff is not None
        assert str(diff.render()).splitlines()[-2:] == ["-VALUE = 1", "+VALUE = 2"]


def test_a_whole_files_diff_is_data_kept_short_and_says_when_nothing_differs() -> None:
    from screens.widgets.drift_rows import MAX_FILE_DIFF_LINES, file_diff_content

    cited = [f"[b]line {n}[/b]\x1b[31m" for n in range(2000)]
    now = [f"{line} changed" for line in cited]
    text = file_diff_content("the cited file at 1234567: edited by 3 commits", cited, now).plain
    rows = text.splitlines()
    assert rows[0] == "the cited file at 1234567: edited by 3 commits"
    assert rows[1].startswith("@@") and rows[2] == "-[b]line 0[/b]␛[31m"  # as data, made visible
    assert (
        len(rows) == MAX_FILE_DIFF_LINES
        and rows[-1] == f"… {4003 - MAX_FILE_DIFF_LINES} more lines"
    )
    same = file_diff_content("the cited file at 1234567: renamed to b.py", cited, cited).plain
    assert same.splitlines()[1:] == ["the same text at REV"]


async def test_d_at_rev_on_a_file_gone_says_so_and_compares_nothing(
    tmp_path: Path, sample: Path
) -> None:
    app = demo(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await on_record(pilot, app, BOUNDARY)
        await open_cited(pilot, screen, "worker/src/digest.js")
        await press(pilot, screen, "t", "d")
        diff = screen.quote_diff
        assert diff is not None
        assert str(diff.render()) == "the cited file at 8df75ac: file deleted"
        # a quote of that file, at REV: its drift, not the cited revision's quote/source diff
        record, n = next(
            (r, k)
            for r in screen.session.records
            for k, q in enumerate(r.quotes)
            if q.path == "worker/src/digest.js"
        )
        screen.go(Location(index_of(screen, record.id), n), on_quote=True)
        await screen.settle()
        await pilot.pause()
        said = str(diff.render()).splitlines()
        assert said[0].startswith("the cited passage at 8df75ac: file deleted")
        assert said[1:] == ["nothing to compare at REV"]


async def test_y_at_rev_links_the_lines_at_rev(tmp_path: Path, sample: Path) -> None:
    # the source pane at REV shows REV's path and lines: y linked them at the cited revision
    from evidence.sample import CITED_REVISION

    app = demo(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot, app)
        registry = index_of(screen, "KS-OBJ-station-registry")  # quote [1] moved 6 lines down
        screen.go(Location(registry, 0), on_quote=True)
        await screen.settle()
        await pilot.pause()
        await press(pilot, screen, "t", "y")
        assert app.clipboard == f"api/kestrel/stations.py:20051-20054@{TIP_REVISION}"
        await press(pilot, screen, "t", "y")
        assert app.clipboard == f"api/kestrel/stations.py:20045-20048@{CITED_REVISION}"


async def test_d_at_rev_on_a_symlink_cited_whole_compares_its_target(tmp_path: Path) -> None:
    # the cited revision's file read to compare with came back under its target's path: looked
    # up by the link's, it was read again, and again
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "real.py").write_text("VALUE = 1\n")
    (repo / "link.py").symlink_to("real.py")
    cited = commit_all(repo, "a file and a link to it")
    (repo / "real.py").write_text("VALUE = 2\n")
    tip = commit_all(repo, "edit the file")
    report = tmp_path / "lib-workflow-report.txt"
    text = UNQUOTED.replace("(SRC-1, a.py, b.py)", "(SRC-1, link.py)")
    report.write_text(text.replace("(SRC-1, c.py)", "(SRC-1, real.py)").format(rev=cited))
    app = review_of(tmp_path, repo, report, cited, tip)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await settled(pilot, app)
        screen.go(Location(0, None))
        await screen.settle()
        pane = screen.record_pane
        screen.set_focus(pane)
        pane.move_to(pane.row_index("cite-0"))
        assert "link.py" in pane.row(pane.highlighted or 0).prompt.plain
        await press(pilot, screen, "t", "d")
        await press(pilot, screen)
        reads = [w for w in screen.workers if w.group == "source-kept"]
        assert len(reads) <= 1  # read once, not over and over
        diff = screen.quote_diff
        assert diff is not None
        assert str(diff.render()).splitlines()[-2:] == ["-VALUE = 1", "+VALUE = 2"]
