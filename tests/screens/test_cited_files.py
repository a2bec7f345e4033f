"""Issue 14, point 5 in the app: a record lists its cited files with their state, Enter opens one,
a record that only cites files says so in the source pane, and backlinks include records that
cite the file."""

from __future__ import annotations

from pathlib import Path

import pytest
from screenkit import review_screen, watch_notices
from textual.pilot import Pilot

from db import VerdictStore
from db.export import render
from evidence.reports.loading import load_reports
from keymaps import load_keymap
from screens.backlinks import BacklinksScreen
from screens.finder import FileFinder
from screens.review.history import Location
from screens.review.screen import ReviewScreen
from screens.widgets.source_view import SourceView
from tui.app import AssayApp
from tui.factory import make_app

REPORT = """\
Tiny runtime report

Type: agentic-system-analyses/types/agentic-system-runtime-report.md

Runtime account

Evidence

Evidence is SRC-1 at revision {rev}.

Shared records

Claims

TY-CLM-answer

Label: The answer

The handler returns a fixed number (SRC-1, src/app.py).

return compute(42) --- src/app.py:2

TY-CLM-cited

Label: Only cited

The chat runs tools (SRC-1, src/ai/chat.js, src/ai/chat.jsx, src/ai, src/gone.js).
The handlers are all in one folder (SRC-1, src/**/*.js, src/*.ts).
"""


def make(tmp_path: Path, text: str = REPORT) -> AssayApp:
    import subprocess

    repo = tmp_path / "repo"
    (repo / "src" / "ai").mkdir(parents=True)
    (repo / "src" / "app.py").write_text("def handler():\n    return compute(42)\n")
    (repo / "src" / "ai" / "chat.js").write_text("export function chat() {}\n")
    (repo / "src" / "ai" / "tool.js").write_text("export function tool() {}\n")
    for args in (
        ["init", "-q"],
        ["add", "."],
        ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "one"],
    ):
        subprocess.run(["git", *args], cwd=repo, check=True)
    commit = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=repo, check=True, capture_output=True, text=True
    ).stdout.strip()
    report = tmp_path / "tiny-runtime-report.txt"
    report.write_text(text.format(rev=commit), encoding="utf-8")
    reports = load_reports([report])
    return make_app(reports, repo, commit, tmp_path / "v.db", "ann", load_keymap(user=False))


async def shown(app: AssayApp, pilot: Pilot[None], record: str) -> tuple[ReviewScreen, int, str]:
    """The review screen once anchored, showing ``record``: its index and its pane's rows."""
    screen = next(s for s in app.screen_stack if isinstance(s, ReviewScreen))
    await screen.settle()
    index = next(n for n, r in enumerate(screen.session.records) if r.id == record)
    screen.go(Location(index, None))
    await screen.settle()
    await pilot.pause()
    pane = screen.record_pane
    return screen, index, "\n".join(pane.row(n).prompt.plain for n in range(pane.row_count))


async def follow(pilot: Pilot[None], screen: ReviewScreen, row: str) -> None:
    """Enter on a row of the record pane (``cite-N``), and what it opens shown."""
    pane = screen.record_pane
    pane.focus()
    pane.move_to(pane.row_index(row))
    await pilot.press("enter")
    await screen.settle()
    await pilot.pause()


async def test_cited_files_listed_opened_and_backlinked(tmp_path: Path) -> None:
    app = make(tmp_path)
    notices = watch_notices(app)
    async with app.run_test(size=(140, 40)) as pilot:
        screen, index, text = await shown(app, pilot, "TY-CLM-cited")
        pane = screen.record_pane
        assert "─ cited files ─" in text
        assert "✓ src/ai/chat.js  present" in text
        assert "✗ src/ai/chat.jsx  absent  closest: src/ai/chat.js" in text
        assert "▸ src/ai  a directory" in text
        assert "✗ src/gone.js  absent" in text
        assert "▸ src/**/*.js  2 files" in text
        assert "✗ src/*.ts  matches no file" in text
        assert str(screen.records_pane.prompt(index)).strip() == "· TY-CLM-cited  ⊘3"
        view = screen.query_one(SourceView)
        assert view.message is not None
        assert "quotes no source" not in view.message
        assert "it cites src/ai/chat.js (present)" in view.message
        # Enter on the absent one says so; on the present one opens it
        pane.focus()
        pane.move_to(pane.row_index("cite-3"))
        await pilot.press("enter")
        await pilot.pause()
        assert any("src/gone.js is not in the revision" in n.message for n in notices)
        await follow(pilot, screen, "cite-0")
        assert view.path == "src/ai/chat.js"
        # Enter on a wildcard: the finder over the files it matches; the one chosen opens
        pane.focus()
        pane.move_to(pane.row_index("cite-4"))
        await pilot.press("enter")
        await pilot.pause()
        finder = app.screen
        assert isinstance(finder, FileFinder)
        assert finder.query_one("#finder-box").border_title == "src/**/*.js: 2 files"
        await finder.workers.wait_for_complete()
        await pilot.pause()
        assert sorted(m.path for m in finder.matches) == ["src/ai/chat.js", "src/ai/tool.js"]
        await pilot.press("down", "enter")
        await screen.settle()
        await pilot.pause()
        assert view.path == finder.matches[1].path
        # the file the wildcard matched is cited by the record: its backlinks say so
        await pilot.press("b")
        await pilot.pause()
        assert isinstance(app.screen, BacklinksScreen)
        assert [link.record for link in app.screen.links] == ["TY-CLM-cited"]
        await pilot.press("escape")
        await pilot.pause()
        await follow(pilot, screen, "cite-0")
        # backlinks of the file list the record that only cites it
        await pilot.press("b")
        await pilot.pause()
        assert isinstance(app.screen, BacklinksScreen)
        assert [link.record for link in app.screen.links] == ["TY-CLM-cited"]
        assert app.screen.links[0].quote is None and app.screen.links[0].source == "SRC-1"
    app.close()
    # the app registered where the review ran and the state of every cited path (the md export)
    with VerdictStore.open(tmp_path / "v.db", readonly=True) as store:
        (source,) = store.sources()
        assert source["repository"] == str((tmp_path / "repo").resolve())
        assert len(source["revision"]) == 40
        states = {(c["record"], c["path"]): c["state"] for c in store.citations()}
        assert states[("TY-CLM-cited", "src/gone.js")] == "absent"
        assert states[("TY-CLM-cited", "src/ai/chat.jsx")] == "near_miss"
        assert states[("TY-CLM-answer", "src/app.py")] == "present"
        text = render(store, "md")
    assert "- Missing citations: 3 of 7 cited paths" in text


async def test_every_path_s_backlinks_at_once_are_each_path_s_backlinks(
    tmp_path: Path, sample: Path
) -> None:
    # the review screen works out every path's backlinks in one pass: the same links, in the
    # same order, as asking for each path alone
    from evidence.backlinks import backlinks, backlinks_by_path
    from evidence.citations import cited_path
    from tui.factory import make_demo_app

    app = make_demo_app(tmp_path, reviewer="b", keymap=load_keymap(user=False))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = review_screen(app)
        await screen.settle()
        await pilot.pause()
        anchors, reportset = screen.session.anchors, screen.session.reportset
        index = backlinks_by_path(anchors, reportset)
        paths = {quote.path for quote in anchors}
        paths |= {place.path for anchor in anchors.values() for place in anchor.elsewhere}
        paths |= {
            cited_path(path)
            for record in reportset.records()
            for citation in record.citations
            for path in citation.paths
        }
        assert len(paths) > 10 and any(
            link.quote is None for links in index.values() for link in links
        )
        for path in paths:
            assert screen.backlinks_of(path) == backlinks(anchors, path, reportset), path
            assert screen.backlinks_of("./" + path) == backlinks(anchors, path, reportset)
        assert screen.backlinks_of("no/such/file.py") == []
    app.close()


async def test_backlinks_are_worked_out_with_the_anchors_not_when_a_file_is_shown(
    tmp_path: Path, sample: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a pass over every quote and citation of the review: on a large review it held up the
    # first file shown, so the anchoring worker does it and the screen only looks links up
    import evidence.backlinks
    from evidence.backlinks import backlinks
    from tui.factory import make_demo_app

    app = make_demo_app(tmp_path, reviewer="b", keymap=load_keymap(user=False))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = review_screen(app)
        await screen.settle()
        await pilot.pause()

        def not_here(*args: object, **kwargs: object) -> None:
            raise AssertionError("backlinks worked out on the event loop")

        monkeypatch.setattr(evidence.backlinks, "backlinks_by_path", not_here)
        anchors, reportset = screen.session.anchors, screen.session.reportset
        for quote in list(anchors)[:10]:
            assert screen.backlinks_of(quote.path) == backlinks(anchors, quote.path, reportset)
        for _ in range(6):  # records and their files shown: their gutters' backlinks looked up
            await pilot.press("n")
        await screen.settle()
        await pilot.pause()
        assert screen.source is not None
    app.close()


async def test_back_returns_from_a_file_opened_from_the_record_or_the_finder(
    tmp_path: Path,
) -> None:
    """A cited file opened with enter, or a file chosen in the finder, is a jump: backspace
    returns to where the reviewer was reading (it said "nothing to go back to")."""
    app = make(tmp_path)
    notices = watch_notices(app)
    async with app.run_test(size=(140, 40)) as pilot:
        screen = next(s for s in app.screen_stack if isinstance(s, ReviewScreen))
        await screen.settle()
        index = next(n for n, r in enumerate(screen.session.records) if r.id == "TY-CLM-answer")
        screen.go(Location(index, 0))
        await screen.settle()
        view, pane = screen.query_one(SourceView), screen.record_pane
        assert view.path == "src/app.py"
        await follow(pilot, screen, "cite-0")
        assert view.path == "src/app.py" and screen.state.opened == "src/app.py"
        index = next(n for n, r in enumerate(screen.session.records) if r.id == "TY-CLM-cited")
        screen.go(Location(index, None))
        await screen.settle()
        await follow(pilot, screen, "cite-0")
        assert view.path == "src/ai/chat.js"
        await pilot.press("o")
        await pilot.pause()
        await pilot.press(*"app.py", "enter")
        await screen.settle()
        await pilot.pause()
        assert view.path == "src/app.py"
        await pilot.press("backspace")  # back from the finder's file to the cited one
        await screen.settle()
        await pilot.pause()
        assert view.path == "src/ai/chat.js"
        assert screen.session.records[screen.state.location.record].id == "TY-CLM-cited"
        await pilot.press("backspace")  # back from the cited file to the record's row
        await screen.settle()
        await pilot.pause()
        assert screen.state.opened is None
        assert pane.highlighted_id == "cite-0" and screen.focused is pane
    assert not any("nothing to go back to" in n.message for n in notices)


async def test_files_a_markdown_record_names_are_its_cited_files(tmp_path: Path) -> None:
    from screens.backlinks import backlink_content

    named = REPORT.split("TY-CLM-cited", 1)[0] + (
        "TY-CLM-named\n\nLabel: Named\n\nThe chat is in `src/ai/chat.js`; the tools were in"
        " [tools](src/ai/tools.js#L3); it answers at src/app.py:2, then `src/ai/tool.js:5`.\n"
    )
    app = make(tmp_path, named)
    async with app.run_test(size=(140, 40)) as pilot:
        screen, index, text = await shown(app, pilot, "TY-CLM-named")
        pane = screen.record_pane
        assert "✓ src/ai/chat.js  present" in text
        assert "✗ src/ai/tools.js:3  absent  closest: src/ai/tool.js" in text
        assert "✓ src/app.py:2  present" in text
        assert "✗ src/ai/tool.js:5  past its end: it has 1 line" in text
        # the records list says a file the record names is not at the revision
        assert str(screen.records_pane.prompt(index)).strip() == "· TY-CLM-named  ⊘2"
        # a file named with its line opens at it
        await follow(pilot, screen, "cite-2")
        view = screen.query_one(SourceView)
        assert (view.path, view.cursor_line) == ("src/app.py", 2)
        await pilot.press("backspace")
        await pilot.pause()
        # lines past a file's end: it opens at its last line
        await follow(pilot, screen, "cite-3")
        assert (view.path, view.cursor_line) == ("src/ai/tool.js", 1)
        await pilot.press("backspace")
        await pilot.pause()
        pane.move_to(pane.row_index("cite-0"))
        await pilot.press("enter")
        await screen.settle()
        await pilot.press("b")
        await pilot.pause()
        assert isinstance(app.screen, BacklinksScreen)
        (link,) = app.screen.links
        assert (link.record, link.source) == ("TY-CLM-named", "")
        assert "[names it, quotes nothing from it]" in backlink_content(link).plain
    app.close()
    with VerdictStore.open(tmp_path / "v.db", readonly=True) as store:
        text = render(store, "md")
    assert "- cited path missing: src/ai/tools.js (closest: src/ai/tool.js)" in text
    assert "- cited lines past the end of src/ai/tool.js" in text
